"""`gen successor`: the old name of the CNF language's successor encoding (`gen cnf --encoding successor`)."""
