"""Binary Star: two decks, two foundations (deal, forms, answers and replay)."""
