"""Slow, readable pure-Python references of each game's rules, one module per game folder; the
kernels are checked against them on random positions (tests/test_ruleset_contract.py and the
per-game property tests)."""
