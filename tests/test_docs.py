"""The docs must match the code: a README that fits on a screen, links that resolve, the rules
shown from their one source, the generated pages covering every ruleset, and the examples
running as they are. `mkdocs build --strict` runs in .ci/run, and here too when mkdocs is
installed (the docs extra)."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import polars as pl
import pytest

import simcards
from simcards.cli import build_parser, main
from simcards.docs import (
    BENCH_MARKER,
    COLUMNS_MARKER,
    RULES_MARKER,
    bench_markdown,
    columns_markdown,
    expand_markers,
    rules_section,
)
from simcards.games import game_class, rulesets

sys.path.insert(0, str(Path(__file__).resolve().parent))
import browser  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def _expanded(page: Path) -> str:
    return expand_markers(page.read_text(encoding="utf-8"), DOCS / "bench.json")


def _slug(heading: str) -> str:
    """The anchor Python-Markdown's toc extension gives a heading (its default slugify)."""
    text = re.sub(r"[`*_]", "", heading)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def _anchors(page: Path) -> set[str]:
    text = _expanded(page) if page.suffix == ".md" and page.is_relative_to(DOCS) else page.read_text()
    text = re.sub(r"```.*?```", "", text, flags=re.S)  # no headings inside code blocks
    return {_slug(m.group(1)) for m in re.finditer(r"^#{1,6}\s+(.+?)\s*#*$", text, flags=re.M)}


def test_readme_fits_on_a_screen():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 200, f"README.md has {len(lines)} lines; at most 200 (the rest goes to docs/)"


@pytest.mark.parametrize("source", [ROOT / "README.md", *PAGES], ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_resolves(source):
    """Every link is relative, stays inside the repository, names a file that exists and, with
    an anchor into a Markdown page, a heading that page has."""
    text = source.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    for target in LINK.findall(text):
        assert not re.match(r"[a-z]+:", target), f"{source.name}: external link {target}"
        path, _, anchor = target.partition("#")
        resolved = (source.parent / path).resolve() if path else source
        assert resolved.is_relative_to(ROOT), f"{source.name}: {target} leaves the repository"
        assert resolved.is_file(), f"{source.name}: {target} does not exist"
        if anchor and resolved.suffix == ".md":
            assert anchor in _anchors(resolved), f"{source.name}: {target}: no heading with that anchor"


def test_readme_links_every_page():
    """The README leads to every page but the site's home and the one-page rules."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    linked = {(ROOT / t.partition("#")[0]).resolve() for t in LINK.findall(readme)}
    exempt = {DOCS / "index.md", DOCS / "rules.md"}
    missing = [str(p.relative_to(ROOT)) for p in PAGES if p not in exempt and p.resolve() not in linked]
    assert not missing, f"README.md links no page {missing}"


def test_nav_lists_every_page():
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    missing = [str(p.relative_to(DOCS)) for p in PAGES if str(p.relative_to(DOCS)) not in nav]
    assert not missing, f"mkdocs.yml's nav leaves out {missing}"


def test_rules_are_shown_from_their_one_source(capsys):
    """Every ruleset's rules show on a page through a marker, and the page shows exactly what
    `simcards rulesets NAME --rules` prints (its heading aside: the page gives its own)."""
    marked = {}
    for page in PAGES:
        for name in RULES_MARKER.findall(page.read_text(encoding="utf-8")):
            marked.setdefault(name.strip(), page)
    for name in rulesets():
        assert name in marked, f"no docs page shows the rules of {name} (marker rules: {name})"
        assert main(["rulesets", name, "--rules"]) == 0
        printed = capsys.readouterr().out
        heading, _, body = printed.partition("\n")
        assert heading == f"## {name}"
        assert body.strip() and body.strip() in _expanded(marked[name]), name
    for page in PAGES:  # no page keeps a copy of a rules section
        raw = page.read_text(encoding="utf-8")
        for name in rulesets():
            body = rules_section(name).partition("\n")[2].strip()
            assert body[:200] not in raw, f"{page.name} copies the rules of {name}; use the marker"


def test_rules_markers_name_real_sections():
    for page in PAGES:
        for name in RULES_MARKER.findall(page.read_text(encoding="utf-8")):
            assert name.strip() == "all" or rules_section(name.strip()), f"{page.name}: {name}"


def test_columns_page_covers_every_ruleset():
    assert COLUMNS_MARKER in (DOCS / "columns.md").read_text(encoding="utf-8")
    text = columns_markdown()
    for name in rulesets():
        block = text.split(f"## `{name}`\n", 1)
        assert len(block) == 2, f"the columns page has no section for {name}"
        own = block[1].split("\n## ", 1)[0]
        same = re.match(r"\s*The same columns as `([^`]+)`", own)
        if same:
            other = game_class(same.group(1))
            assert (other.deal_columns, other.match_columns) == (game_class(name).deal_columns,
                                                                 game_class(name).match_columns)
            continue
        game = game_class(name)
        for column in (*game.deal_columns, *(game.match_columns or ())):
            assert f"| `{column.name}` | {column.dtype} |" in own, f"{name}: {column.name}"


def test_performance_page_comes_from_bench_json():
    assert BENCH_MARKER in (DOCS / "performance.md").read_text(encoding="utf-8")
    bench = json.loads((DOCS / "bench.json").read_text())
    assert bench["commit"] and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", bench["date"])
    page = bench_markdown(bench)
    for ruleset in bench["kernel"]:
        assert f"`{ruleset}`" in page
    assert bench["commit"] in page


def test_performance_page_shows_the_cold_start_of_bench_json():
    bench = {"kernel": {"hearts": {"heuristic": 1000}},
             "compile": {"hearts": {"compile_seconds": 7.5, "wall_seconds": 9.25, "cpu_seconds": 8.0}}}
    page = bench_markdown(bench)
    assert "### Cold start" in page and "| `hearts` | 7.5 | 9.2 | 8.0 |" in page
    assert "Cold start" not in bench_markdown({"kernel": bench["kernel"]})  # an older bench.json


def test_bench_json_is_stamped():
    from simcards.bench import build_id

    stamp = build_id()
    assert re.fullmatch(r"[0-9a-f]{40}(-dirty)?", stamp) or stamp == simcards.__version__


def test_docs_name_every_ruleset_and_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in rulesets():
        assert f"`{name}`" in readme
    cli = (DOCS / "cli.md").read_text(encoding="utf-8")
    for command in build_parser()._subparsers._group_actions[0].choices:
        assert f"## simcards {command}" in cli, f"docs/cli.md has no section for simcards {command}"


def test_pyproject_names_every_game():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    description = re.search(r'^description = "(.*)"$', text, flags=re.M).group(1).lower()
    for name in rulesets():
        assert name.split("-")[0] in description, f"pyproject.toml's description leaves out {name}"
    assert "docs = [" in text and "mkdocs-material" in text


EXAMPLES = {"kraak.toml": ("python", 8), "fast.toml": ("numba", 400)}


@pytest.mark.parametrize("config", sorted(EXAMPLES))
def test_example_configs_run_as_they_are(config, tmp_path, monkeypatch, capsys):
    """`simcards run examples/X.toml` from the repository root, as the own-bot page says (on
    fewer units): it finishes, and the user bot sat at the table."""
    kind, units = EXAMPLES[config]
    monkeypatch.chdir(ROOT)
    path = Path("examples") / config
    assert f"simcards run examples/{config}" in (DOCS / "own-bot.md").read_text(encoding="utf-8")
    assert main(["run", str(path), "--deals", str(units), "--out", str(tmp_path), "--quiet"]) == 0
    run = next(tmp_path.iterdir())
    manifest = json.loads((run / "manifest.json").read_text())
    seated = [b for b in manifest["config"]["bots"] if isinstance(b, dict) and b.get("kind") == kind]
    assert seated, f"{config}: no {kind} bot at the table"
    assert set(manifest["user_bots"]) == {b["entry"] for b in seated}
    assert pl.scan_parquet(run / "deals" / "*.parquet").select(pl.len()).collect().item() > 0


@pytest.mark.skipif(importlib.util.find_spec("mkdocs") is None, reason="the docs extra is not installed")
def test_site_builds_strict_and_loads_in_a_browser(tmp_path):
    """`mkdocs build --strict`, then (with Chromium) the home page, a ruleset page and the
    columns page served on localhost: no console error, no missing image, every navigation link
    answers, and no link of any page leads outside the site or nowhere."""
    site = tmp_path / "site"
    out = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
                         cwd=ROOT, capture_output=True, text=True,
                         env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    assert not browser.broken_links(site)
    if browser.CHROMIUM is None:
        pytest.skip("no Chromium: the pages were built but not loaded")
    result = browser.check_site(site, ["index.html", "rulesets/skat.html", "columns.html"])
    for page, seen in result["pages"].items():
        assert seen["problems"] == [], (page, seen["problems"])
    assert result["nav_links"] >= len(PAGES) and result["broken_nav"] == []
