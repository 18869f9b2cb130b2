"""The `simcards` command. User mistakes print one clear message and exit with status 2."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from simcards.errors import UserError

EXIT_USAGE = 2


def _cmd_run(args) -> int:
    from simcards.config import load_config
    from simcards.runner import is_complete, run

    config = load_config(args.config, deals=args.deals, workers=args.workers, output=args.out)
    manifest = run(config, force=args.force, quiet=args.quiet, yes=args.yes)
    timings = manifest.get("timings")
    done = "finished" if is_complete(manifest) else "incomplete"
    print(f"{config.run_dir}: {config.units:,} {config.units_name} {done}")
    if timings:
        from simcards.present.fmt import number

        # number(): a slow run (user bots compiling, perfect play) shows 0.35/s, not 0
        print(f"  {number(timings['units_per_second'], 3)} {config.units_name}/s end to end with "
              f"{timings['workers']} {timings['backend']} worker(s); kernel "
              f"{number(timings['kernel_units_per_second_per_worker'], 3)}/s per worker")
        if timings.get("compile_seconds"):  # apart: the speeds above leave it out
            print(f"  compiled in {timings['compile_seconds']:.0f} s (first run only: later runs "
                  f"load the kernels from the cache)")
    print(f"  next: simcards report {config.run_dir}")
    return 0


def _cmd_report(args) -> int:
    from simcards.report import build_report

    paths = build_report(args.run, reports_root=args.out)
    print(f"report written: {paths['html']}")
    print(f"                {paths['markdown']}")
    return 0


def _cmd_verify(args) -> int:
    from simcards.verify import verify_run

    problems, summary = verify_run(args.run)
    for problem in problems:
        print(problem)
    if problems:
        print(f"simcards: {len(problems)} problem(s) in {args.run}", file=sys.stderr)
        return EXIT_USAGE
    print(summary)
    return 0


def _cmd_rulesets(args) -> int:
    from simcards.games import game_class, rulesets

    names = [args.name] if args.name else rulesets()
    if args.rules:
        return _print_rules(names)
    for name in names:
        game = game_class(name)
        counts = "matches" if game.unit == "match" else "deals"
        print(f"{name}  (rules version {game.rules_version}; a run counts {counts})")
        if game.summary:
            print(f"  {game.summary}")
        for opt in game.option_specs:
            default = list(opt.default) if isinstance(opt.default, tuple) else opt.default
            print(f"    {opt.name} = {default!r}: {opt.doc}; {opt.allowed()}")
        support = game.user_bots
        user = (f"; user bots: python (methods: {', '.join(support.decisions)}) or numba"
                if support is not None else "; no user bots yet")
        print(f"  bots: {', '.join(game.bots.kinds)}{user}; parameters:")
        for pname, pdefault, pdoc in game.bots.params:
            print(f"    {pname} = {pdefault:g}: {pdoc}")
        if args.columns:
            print("  deal columns:")
            for col in game.deal_columns:
                print(f"    {col.name} ({col.dtype}): {col.doc}")
            for col in game.match_columns:
                print(f"    matches.{col.name} ({col.dtype}): {col.doc}")
        print()
    return 0


def _print_rules(names: list[str]) -> int:
    from simcards.docs import rules_section
    from simcards.games import game_class

    for name in names:
        game_class(name)  # an unknown name is a UserError naming the rulesets
        text = rules_section(name)
        if text is None:
            raise UserError(f"the rules document has no section for {name!r}")
        print(text)
    return 0


def _plain(value):
    """Values for printing: floats rounded, numpy scalars as Python numbers."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()
    if isinstance(value, float):
        return round(value, 2)
    return value


def _check_played(run, deal: int) -> None:
    """UserError unless the run played deal_index ``deal`` (its finished parts hold it)."""
    import polars as pl

    deals = run.scan("deals")
    if deals.filter(pl.col("deal_index") == deal).select(pl.len()).collect().item() == 0:
        last = deals.select(pl.col("deal_index").max()).collect().item()
        raise UserError(f"--deal {deal}: {run.path} did not play that deal; use a deal_index of "
                        f"its deals (from 0 to {last:,}{'' if run.complete else ', run incomplete'})")


def _cmd_replay(args) -> int:
    from simcards.dataset import open_run
    from simcards.errors import check_count
    from simcards.games import load
    from simcards.games.registry import require_solver

    deal = check_count("--deal", args.deal)
    run = open_run(args.run)
    m = run.manifest
    game = load(m["ruleset"], **m["config"].get("rules", {}))
    _check_played(run, deal)
    if args.perfect_play:
        require_solver(game)
        print("solving every position of the deal under perfect play ...", file=sys.stderr, flush=True)
    story = _plain(game.replay(m["seed"], args.deal, m["config"]["bots"], perfect_play=args.perfect_play))
    print(f"{m['ruleset']}, run {run.name} (seed {m['seed']}), deal {args.deal}")
    for key, value in story.items():
        if key not in ("hands", "tricks", "result", "perfect_play"):
            print(f"  {key}: {value}")
    for seat, hand in enumerate(story["hands"]):
        print(f"  seat {seat}: {' '.join(hand)}")
    for number, trick in enumerate(story["tricks"], 1):
        gave = trick.get("gave_away", [0] * len(trick["cards"]))
        best = trick.get("best", [None] * len(trick["cards"]))
        cards = "  ".join(f"{seat}:{card}" + (f"(-{g}, best {'/'.join(b)})" if g else "")
                          for (seat, card), g, b in zip(trick["cards"], gave, best))
        extra = "".join(f"  {k} {v}" for k, v in trick.items()
                        if k not in ("cards", "leader", "gave_away", "best"))
        print(f"  trick {number:2d}: {cards}{extra}")
    print("  result:")
    for key, value in story["result"].items():
        if key not in story:  # the header said it already (Skat's discard as cards, not a mask)
            print(f"    {key}: {value}")
    if "perfect_play" in story:
        _print_perfect_play(story)
    return 0


def _key_value(text: str, flag: str) -> tuple[str, object]:
    """``KEY=VALUE`` of a command-line flag: the value as an int, true/false as a bool, else
    the text."""
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise UserError(f"{flag} {text!r}: write KEY=VALUE, e.g. {flag} declarer=1")
    raw = raw.strip()
    if raw.lower() in ("true", "false"):
        return key.strip(), raw.lower() == "true"
    try:
        return key.strip(), int(raw)
    except ValueError:
        return key.strip(), raw


def _rule_options(ruleset: str, pairs: list[str]) -> dict:
    """The ``--rule KEY=VALUE`` options; a list option takes its items space- or
    comma-separated (``hand_roem_suit_order='S H C D'``)."""
    from simcards.games import game_class

    lists = {opt.name for opt in game_class(ruleset).option_specs
             if isinstance(opt.default, (list, tuple))}
    options = dict(_key_value(pair, "--rule") for pair in pairs)
    for key in lists & options.keys():
        if isinstance(options[key], str):
            options[key] = options[key].replace(",", " ").split()
    return options


def _deal_settings(game, pairs: list[str]) -> dict:
    """The ``--deal KEY=VALUE`` settings, checked against the ruleset's `deal` arguments."""
    import inspect

    given = dict(_key_value(pair, "--deal") for pair in pairs)
    allowed = [name for name in inspect.signature(type(game).deal).parameters
               if name not in ("self", "hands", "seed", "index", "args", "kwargs")]
    for key in given:
        if key not in allowed:
            raise UserError(f"--deal {key}: {game.name} deals have no setting {key!r}; "
                            f"settings: {', '.join(allowed)}")
    return given


def _cmd_solve(args) -> int:
    import time

    from simcards.games import load
    from simcards.games.registry import require_solver

    game = load(args.ruleset, **_rule_options(args.ruleset, args.rule))
    require_solver(game, "simcards solve")
    by_seed = args.seed is not None or args.index is not None
    if (args.hands is not None) == by_seed or (by_seed and None in (args.seed, args.index)):
        raise UserError("give the deal either as --hands (one quoted list of card codes per "
                        "seat) or as --seed S --index I (deal I of a run with seed S)")
    if args.hands is not None and len(args.hands) != game.n_seats:
        raise UserError(f"--hands: give {game.n_seats} hands, one quoted list of card codes "
                        f"per seat; got {len(args.hands)}")
    state = game.deal(hands=args.hands, seed=args.seed, index=args.index,
                      **_deal_settings(game, args.deal))
    for code in (args.play or "").split():
        if state.is_over:
            raise UserError(f"--play {code}: the deal is over before this card")
        try:
            state.play(code)
        except UserError as exc:
            raise UserError(f"--play {code}: {exc}") from None
    print(repr(state).strip("<>"))
    for seat in game.seats:
        print(f"  seat {seat}: {' '.join(state.hand(seat))}")
    if state.is_over:
        raise UserError("the deal is over (or was passed in): there is no card play left to "
                        "solve; give fewer --play cards")
    if state.trick:
        print(f"  trick so far: {' '.join(state.trick)}")
    print(f"  seat {state.to_move} to play; legal: {' '.join(state.legal_moves())}")
    print("solving with all hands open (the first solve after an install compiles the solver, "
          "up to a minute) ...", file=sys.stderr, flush=True)
    start = time.perf_counter()
    findings = game.solver.judge(state).findings(state)
    seconds = time.perf_counter() - start
    print(f"perfect play from here, both sides ({seconds:.2g} s):")
    for label, value in findings.items():
        if isinstance(value, bool):
            value = "yes" if value else "no"
        elif isinstance(value, int):
            value = f"{value:,}"
        print(f"  {label}: {value}")
    return 0


def _print_perfect_play(story: dict) -> None:
    """The replay's perfect-play lines: the value at the start and as played, and who gave away
    what (each card that did is marked "(-n, best ...)" in its trick)."""
    p = story["perfect_play"]
    print(f"  perfect play (value: {p['unit']}):")
    if not story["tricks"]:
        print("    no card play to judge (the deal was passed in)")
        return
    print(f"    at the start of play: {p['start']}")
    print(f"    as played: {p['end']}")
    print(f"    the declaring side's cards gave away {p['declaring_side_gave_away']}, the other "
          f"side's {p['other_side_gave_away']}: {p['start']} - {p['declaring_side_gave_away']} + "
          f"{p['other_side_gave_away']} = {p['end']}")
    print("    (-n, best ...) after a card: it gave away n against perfect play from that "
          "position, where the cards named would have kept the value")


def _cmd_tournament(args) -> int:
    from simcards.config import load_tournament_config
    from simcards.tournament.report import run_tournament

    config = load_tournament_config(args.config, games=args.games)
    if args.out:
        config = type(config)(**{**config.__dict__, "output": args.out})
    paths = run_tournament(config)
    print(f"tournament report written: {paths['html']}")
    print(f"                           {paths['markdown']}")
    return 0


def _cmd_tune(args) -> int:
    from simcards.config import load_tune_config
    from simcards.tune import tune, write_outputs

    overrides = {"output": args.out, "workers": args.workers}
    config = load_tune_config(args.config, **overrides)
    if args.units is not None:
        key = "matches" if config.ruleset and __import__("simcards").games.game_class(config.ruleset).unit == "match" else "deals"
        config = load_tune_config(args.config, **overrides, **{key: args.units})
    if config.mode == "equilibrium":
        return _tune_equilibrium(config, args)
    result = tune(config, log=(lambda _: None) if args.quiet else print)
    paths = write_outputs(result)
    v = result.verification
    print("chosen: " + ", ".join(f"{k} = {x:g}" for k, x in result.best.items()))
    print(f"verification (seed {v['seed']}): gain {v['gain']:+.4g} per unit, 95% interval "
          f"{v['lo']:+.4g} .. {v['hi']:+.4g} ({'significant' if v['significant'] else 'not significant'})")
    print(f"thresholds: {paths['thresholds']}")
    print(f"report:     {paths['html']}")
    return 0


def _tune_equilibrium(config, args) -> int:
    from simcards.tune.equilibrium import tune_equilibrium, write_equilibrium_outputs

    command = " ".join(["simcards tune", str(args.config),
                        *([f"--units {args.units}"] if args.units is not None else []),
                        *([f"--workers {args.workers}"] if args.workers is not None else [])])
    result = tune_equilibrium(config, log=(lambda _: None) if args.quiet else print)
    paths = write_equilibrium_outputs(result, command)
    if args.quiet:  # else the log ended with these
        print(result.status())
        print("shipped: " + ", ".join(f"{k} = {x:g}" for k, x in result.shipped.items()))
    for message in result.edges:
        print(f"warning: {message}")
    print(f"thresholds: {paths['thresholds']}")
    print(f"iterations: {paths['iterations']}")
    print(f"report:     {paths['html']}")
    return 0


def _integer_arg(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: use a whole number") from None


def _folder_arg(text: str) -> str:
    """A path on the command line; an empty one, or a newline or another control character in
    it, is a mistake (a paste) and would break the one-line messages that name it."""
    if not text or not text.isprintable():
        raise argparse.ArgumentTypeError(f"{text!r}: use a path of printable characters")
    return text


def _path_arg(text: str) -> Path:
    return Path(_folder_arg(text))


def _workers_arg(text: str):
    if text == "auto":
        return text
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: use 'auto' or a number of workers") from None


def _cmd_compare(args) -> int:
    from simcards.compare import write_compare

    shown, info = write_compare(args.run_a, args.run_b, reports_root=args.out)
    widths = [max(len(str(v)) for v in [c, *shown[c].to_list()]) for c in shown.columns]
    for row in [shown.columns, *shown.iter_rows()]:
        print("  ".join(str(v).ljust(w) for v, w in zip(row, widths)).rstrip())
    print(f"compare report written: {info['html']}")
    print(f"                        {info['markdown']}")
    return 0


def _report_command(sub, name: str, func, help_text: str, description: str, config_help: str):
    """A command that reads a config and writes a report to reports/<name>/ (tournament, tune)."""
    p = sub.add_parser(name, help=help_text, description=description)
    p.add_argument("config", type=_path_arg, help=config_help)
    p.add_argument("--out", type=_folder_arg, help="reports folder instead of the config's 'output'")
    p.set_defaults(func=func)
    return p


class ArgumentParser(argparse.ArgumentParser):
    """argparse with the command's one-line errors: the mistake and where the options are
    listed, instead of the usage block."""

    def error(self, message: str, prog: str | None = None):
        if not message.isprintable():  # an argument with a newline: still one line
            message = repr(message)[1:-1]
        self.exit(EXIT_USAGE, f"simcards: error: {message}; `{prog or self.prog} --help` lists "
                              "the arguments\n")

    def parse_args(self, args=None, namespace=None):
        parsed, unknown = self.parse_known_args(args, namespace)
        if unknown:  # point at the command's own --help, not the top level's
            command = getattr(parsed, "command", None)
            self.error(f"unrecognized arguments: {' '.join(unknown)}",
                       f"{self.prog} {command}" if command else None)
        return parsed


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="simcards",
        description="Simulate millions of deals of trick-taking card games and report on them.",
        epilog="Start with: simcards run configs/demo.toml && simcards report results/demo")
    from simcards import __version__

    parser.add_argument("--version", action="version", version=f"simcards {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("run", help="simulate the deals of a config into results/<name>/",
                       description="Simulate a config's deals into Parquet parts under "
                       "<output>/<name>/. Rerunning resumes an interrupted run.")
    p.add_argument("config", type=_path_arg, help="TOML config file (see configs/)")
    p.add_argument("--deals", type=_integer_arg, help="number of deals (matches for match rulesets) instead of the config's")
    p.add_argument("--workers", type=_workers_arg, metavar="K|auto",
                   help="worker processes (default: the config's; 'auto' = one per core)")
    p.add_argument("--out", type=_folder_arg, help="output folder instead of the config's 'output'")
    p.add_argument("--force", action="store_true", help="delete what the run made before and start over")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--yes", action="store_true", help="run even when it would take more than a day here")
    p.set_defaults(func=_cmd_run)

    p = sub.add_parser("verify", help="check every part of a run against its manifest",
                       description="Check that every Parquet part of a run is present and matches "
                       "the size and SHA-256 recorded when it was written; list what is wrong "
                       "(exit 2) or confirm the run is whole.")
    p.add_argument("run", type=_path_arg, help="the run folder, e.g. results/demo")
    p.set_defaults(func=_cmd_verify)

    p = sub.add_parser("report", help="write the report of a finished run",
                       description="Statistics, charts and tables of a run: reports/<name>/report.html "
                       "(self-contained), report.md, PNG charts and tables/*.csv|parquet.")
    p.add_argument("run", type=_path_arg, help="the run folder, e.g. results/demo")
    p.add_argument("--out", type=_folder_arg, default="reports", help="reports folder (default: reports)")
    p.set_defaults(func=_cmd_report)

    p = sub.add_parser("rulesets", help="list rulesets with their options and bots",
                       description="Every ruleset with its options (default and meaning) and bot parameters.")
    p.add_argument("name", nargs="?", help="show only this ruleset")
    p.add_argument("--columns", action="store_true", help="also list the dataset columns")
    p.add_argument("--rules", action="store_true",
                   help="print the rules as simcards plays them (the ruleset's section of simcards/rules.md, "
                        "as the docs' ruleset page shows it)")
    p.set_defaults(func=_cmd_rulesets)

    p = sub.add_parser("replay", help="show one deal of a run trick by trick",
                       description="Replay deal I of a run as the run played it: hands, contract, "
                       "every trick, roem and score. With --perfect-play, also what each card "
                       "gave away against perfect play (rulesets with a double-dummy solver: "
                       "Klaverjassen, Kraken, Skat).")
    p.add_argument("run", type=_path_arg, help="the run folder, e.g. results/demo")
    p.add_argument("--deal", type=_integer_arg, required=True, metavar="I", help="the deal_index to replay")
    p.add_argument("--perfect-play", action="store_true",
                   help="solve every position with all hands open and mark each card that gave "
                   "something away against perfect play with how much and the cards that would "
                   "have kept the value, \"10H(-14, best AH/KH)\"; sums per side at the end (a "
                   "fraction of a second in Klaverjassen; in Skat about a second, up to 10 s for "
                   "the hardest games)")
    p.set_defaults(func=_cmd_replay)

    p = sub.add_parser(
        "solve", help="solve a deal or position with all hands open",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Perfect play with all hands open (double dummy) from a deal or a later position:\n"
        "the value for the declaring side, the best cards of the seat to move and the value after\n"
        "each of its legal cards. Rulesets with a solver: Klaverjassen, Kraken, Skat. A Klaverjassen\n"
        "or Kraken position solves in well under a second, a Skat game in about a second (up to 10 s).\n\n"
        "examples:\n"
        "  simcards solve klaverjas-rotterdam --seed 1 --index 0 --play 'QD'\n"
        "  simcards solve klaverjas-rotterdam --deal trump=H --deal declarer=1 --hands \\\n"
        "      '7D JD KD AD 8H KH 9S 10S' '10C KC QD 9H 10H JH AH QS' \\\n"
        "      '7C 8C QC 10D 7H QH 7S JS' '9C JC AC 8D 9D 8S KS AS'\n"
        "  simcards solve kraken-contra --seed 3 --index 2 --rule hand_roem_needs_trick=false\n"
        "  simcards solve skat --seed 1 --index 4 --deal contract=grand --deal hand=true")
    p.add_argument("ruleset", help="a ruleset with a solver, e.g. klaverjas-rotterdam, kraken-contra, skat")
    p.add_argument("--hands", nargs="+", metavar="CARDS",
                   help="the dealt hands, one quoted list of card codes per seat, seat 0 first "
                   "(without it: --seed and --index)")
    p.add_argument("--seed", type=_integer_arg, metavar="S", help="with --index: deal I of a run with seed S")
    p.add_argument("--index", type=_integer_arg, metavar="I", help="the deal_index (see --seed)")
    p.add_argument("--deal", action="append", default=[], metavar="KEY=VALUE",
                   help="a setting of the deal, repeatable: Klaverjassen trump=H, declarer=1, "
                   "dealer=0; Kraken trump, bid, dealer; Skat contract=spades (or grand, null, "
                   "...), declarer, bid, hand=true, discard='7D 8D', skat='...', schneider, "
                   "schwarz, ouvert. Left out, the heuristic bots choose the contract as a run "
                   "would")
    p.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                   help="a ruleset option, repeatable, e.g. table_roem=false (simcards rulesets NAME)")
    p.add_argument("--play", metavar="CARDS",
                   help="cards played since the start of play, in order (quoted, e.g. '10C 7C "
                   "AC'): solve from the position they reach")
    p.set_defaults(func=_cmd_solve)

    p = _report_command(sub, "tournament", _cmd_tournament,
                        "rate bots against each other with rotated seats",
                        "Bots with different parameters play many games of a ruleset, seats "
                        "rotated over the same deals; writes the rating table, rating over games "
                        "and placing counts to reports/<name>/.",
                        "tournament TOML (see configs/tournament-*.toml)")
    p.add_argument("--games", type=_integer_arg, help="games per table instead of the config's")

    p = _report_command(sub, "tune", _cmd_tune,
                        "tune bot parameters (bidding thresholds) against a baseline or to an equilibrium",
                        "Search bot parameter values that maximise the tuned side's expected gain "
                        "in duplicate matches against a baseline bot; writes "
                        "reports/<name>/thresholds.toml (includable in a run config) and a report. "
                        "With mode = \"equilibrium\" in the config, iterate: each iteration tunes "
                        "against the one before's best response (with damping, against a "
                        "profile part of the way to it), until two in a row find no gain (or "
                        "max_iterations); it also writes iterations.json.",
                        "tune TOML (see configs/tune-*.toml)")
    p.add_argument("--units", type=_integer_arg, help="deals (matches for match rulesets) per candidate")
    p.add_argument("--workers", type=_workers_arg, metavar="K|auto", help="worker processes ('auto' = one per core)")
    p.add_argument("--quiet", action="store_true", help="no search log")

    p = sub.add_parser("compare", help="compare two runs of one ruleset, headline by headline",
                       description="Two runs of one ruleset (different options or bots) side by "
                       "side: each headline figure and the difference A - B with its 95% "
                       "interval (paired by deal when the seeds are equal). Writes "
                       "reports/compare-<a>-vs-<b>/.")
    p.add_argument("run_a", type=_path_arg, help="run A, e.g. results/demo")
    p.add_argument("run_b", type=_path_arg, help="run B, of the same ruleset")
    p.add_argument("--out", type=_folder_arg, default="reports", help="reports folder (default: reports)")
    p.set_defaults(func=_cmd_compare)

    # listed for --help; main() hands `simcards bench ...` to simcards.bench, which has its own options
    sub.add_parser("bench", help="measure deals per second (same as scripts/bench.py; bench --help)")
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["bench"]:
        from simcards import bench

        return bench.main(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        out = getattr(args, "out", None)
        if out is not None:
            from simcards.config import not_a_folder

            if (blocker := not_a_folder(out)) is not None:
                raise UserError(f"--out {out}: use a folder path ({blocker} is a file)")
        code = args.func(args)
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        # the reader of our output went away (`simcards ... | head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        print("simcards: interrupted; rerun the same command to resume", file=sys.stderr)
        return 130
    except (UserError, FileNotFoundError) as exc:  # user mistakes; anything else is a bug
        print(f"simcards: error: {exc}", file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
