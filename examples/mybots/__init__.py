"""Example user bots for simcards (docs/own-bot.md)."""
