"""Docs that must match the code."""

from pathlib import Path

from simcards.docs import render_readme

ROOT = Path(__file__).resolve().parent.parent


def test_readme_column_tables_are_current():
    text = (ROOT / "README.md").read_text()
    assert render_readme(text) == text, "run: python scripts/update_readme.py"


def test_readme_names_every_ruleset_and_command():
    from simcards.cli import build_parser
    from simcards.games import rulesets

    text = (ROOT / "README.md").read_text()
    for name in rulesets():
        assert f"`{name}`" in text
    commands = build_parser()._subparsers._group_actions[0].choices
    for command in commands:
        assert f"simcards {command}" in text
