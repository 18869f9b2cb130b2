"""mkdocs hook (mkdocs.yml, `hooks:`): fill each docs page's markers from the code before the page
is rendered: a ruleset's rules from simcards/rules.md, the dataset columns from the column specs
and the performance tables from docs/bench.json (simcards.docs.expand_markers)."""

from pathlib import Path

from simcards.docs import expand_markers


def on_page_markdown(markdown, page, config, files):
    return expand_markers(markdown, Path(config["docs_dir"]) / "bench.json")
