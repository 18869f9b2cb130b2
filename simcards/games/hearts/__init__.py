"""Hartenjagen (Dutch) and Hearts (American): RULES.md sections 4 and 5."""
