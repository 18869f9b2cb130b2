"""Example user bots for simcards (README, "Your own bot")."""
