"""The Skat and Doppelkopf figure tables of the docs' ruleset pages, from a fresh run of the
shipped configs at the shipped defaults.

    python scripts/figure_tables.py                        # 200,000 deals each, tables rewritten
    python scripts/figure_tables.py --deals 20000 --print  # print the tables, write nothing
    python scripts/figure_tables.py --only skat

Each table sits in docs/rulesets/<name>.md between ``<!-- figures: <name> -->`` and
``<!-- /figures -->``; its first line names the config, the deals, the seed and the commit, so a
reader knows what the figures describe. Every figure is the bots': the rates come with their 95%
Wilson intervals, and a published figure stands beside them only with its source and sample size.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parent.parent
PAGES = {"skat": ROOT / "docs/rulesets/skat.md", "doppelkopf": ROOT / "docs/rulesets/doppelkopf.md"}
CONFIGS = {"skat": ROOT / "configs/skat.toml", "doppelkopf": ROOT / "configs/doppelkopf.toml"}


def pct(value: float | None, digits: int = 1) -> str:
    return "" if value is None else f"{100 * value:.{digits}f}%"


def rate_cell(row: dict, digits: int = 1) -> str:
    """A rate with its 95% interval, e.g. ``14.1% (13.6-14.6%)``."""
    return (f"{pct(row['rate'], digits)} ({100 * row['lo']:.{digits}f}-"
            f"{100 * row['hi']:.{digits}f}%)")


def row_of(frame: pl.DataFrame, column: str, value: str) -> dict:
    return frame.filter(pl.col(column) == value).row(0, named=True)


def skat_rows(lf: pl.LazyFrame) -> tuple[list[str], list[tuple[str, str, str]]]:
    from simcards.games.skat import stats

    ref = lambda row: pct(row.get("reference"))  # noqa: E731  (None where Skat-Online gives none)
    passed = stats.passed_in_rate(lf).row(0, named=True)
    won = stats.win_rate_by_contract(lf)
    mix = stats.contract_mix(lf)
    big = stats.schneider_schwarz(lf)
    ouvert = stats.hand_and_ouvert(lf)
    rows = [("deals passed in", rate_cell(passed), ref(passed))]
    everything = row_of(won, "contract", "all games")
    rows.append(("declarer wins", rate_cell(everything), ref(everything)))
    for contract in ("grand", "null", "clubs", "spades", "hearts", "diamonds"):
        share, wins = row_of(mix, "contract", contract), row_of(won, "contract", contract)
        name = contract.capitalize()
        rows.append((f"{name}, of the games played", rate_cell(share), ref(share)))
        rows.append((f"{name}, won", rate_cell(wins), ref(wins)))
    for measure, games, label in (("schneider", "all games", "Schneider, of the games"),
                                  ("schneider", "grand", "Schneider, of the Grands"),
                                  ("schwarz", "all games", "Schwarz, of the games")):
        row = big.filter((pl.col("measure") == measure) & (pl.col("games") == games)).row(0, named=True)
        rows.append((label, rate_cell(row, 2 if measure == "schwarz" else 1), ref(row)))
    row = ouvert.filter((pl.col("games") == "ouvert") & (pl.col("measure") == "share of games")
                        ).row(0, named=True)
    rows.append(("Ouvert, of the games", rate_cell(row, 2), ref(row)))
    header = ["figure", "these bots (95% interval)", stats.SOURCE]
    return header, rows


def doppelkopf_rows(lf: pl.LazyFrame) -> tuple[list[str], list[tuple[str, str, str]]]:
    from simcards.games.doppelkopf import stats
    from simcards.games.registry import load

    references = [r for r in load("doppelkopf").published_references if hasattr(r, "sample")]
    normal_ref = next((f"70% ({r.name}; {r.sample})" for r in references if "70%" in r.figures), "")
    types = stats.game_types(lf)
    calls = stats.announcement_rates(lf)
    rows = [("normal games", rate_cell(row_of(types, "game", "normal")), normal_ref),
            ("marriages", rate_cell(row_of(types, "game", "marriage")), ""),
            ("a solo declared", rate_cell(stats.solo_rate(lf).row(0, named=True), 2), "")]
    normal = stats.re_win_normal(lf).row(0, named=True)
    rows.append(("Re wins a normal game", rate_cell(normal), ""))
    for call in ("Re", "Kontra", "Re no 90", "Kontra no 90", "Re no 60", "Kontra no 60"):
        rows.append((f"{call} announced, of the deals", rate_cell(row_of(calls, "call", call), 2), ""))
    queens = stats.both_queens(lf).row(0, named=True)
    rows.append(("one hand dealt both club queens", rate_cell(queens, 2),
                 f"exactly {pct(queens['exact'], 2)} (computed, not published)"))
    return ["figure", "these bots (95% interval)", "published"], rows


BUILDERS = {"skat": skat_rows, "doppelkopf": doppelkopf_rows}


def table(name: str, deals: int, seed: int, commit: str, header, rows) -> str:
    lines = [f"`configs/{name}.toml`, {deals:,} deals (seed {seed}), at commit `{commit}`; "
             "written by `scripts/figure_tables.py`.", "",
             "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cells) + " |" for cells in rows]
    return "\n".join(lines)


def replace_block(page: Path, name: str, text: str) -> None:
    pattern = re.compile(rf"(<!-- figures: {name} -->).*?(<!-- /figures -->)", re.S)
    markdown = page.read_text()
    if not pattern.search(markdown):
        raise SystemExit(f"{page}: no '<!-- figures: {name} -->' ... '<!-- /figures -->' block")
    page.write_text(pattern.sub(lambda m: f"{m.group(1)}\n{text}\n{m.group(2)}", markdown))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=200_000, help="deals per config (default 200,000)")
    parser.add_argument("--only", nargs="*", choices=sorted(BUILDERS), help="only these pages")
    parser.add_argument("--print", action="store_true", help="print the tables, change no page")
    args = parser.parse_args()
    if args.deals < 1:
        parser.error(f"--deals {args.deals}: use a whole number of at least 1")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip() or "unknown"
    for name in args.only or sorted(BUILDERS):
        config = CONFIGS[name]
        seed = tomllib.loads(config.read_text())["seed"]
        with tempfile.TemporaryDirectory() as out:
            done = subprocess.run([sys.executable, "-m", "simcards.cli", "run", str(config),
                                   "--deals", str(args.deals), "--out", out, "--quiet"],
                                  capture_output=True, text=True)
            if done.returncode != 0:
                raise SystemExit(f"simcards run {config.name} failed:\n{done.stderr}")
            lf = pl.scan_parquet(f"{out}/{name}/deals/*.parquet")
            header, rows = BUILDERS[name](lf)
            text = table(name, args.deals, seed, commit, header, rows)
        if args.print:
            print(text, end="\n\n")
        else:
            replace_block(PAGES[name], name, text)
            print(f"{PAGES[name].relative_to(ROOT)}: the figures of {args.deals:,} deals written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
