"""Golf (PySolFC's, and Fish's three variants) and generalised Golf: deal, rules and replay, deal
forms, and the native search; `patience.games.golf` plays it through the toolkit's commands."""
