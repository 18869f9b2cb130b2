"""User bots (issue 15, simcards/games/userbots/): the examples through `simcards run`,
`tournament` and `tune`, reproducible and identical with 1 and 2 workers; the views against the
full state in every ruleset that takes user bots; the errors; the source hash on resume; the
Numba fast path; suggestions. Python bots are slow: every run here is a few deals."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np
import polars as pl
import pytest

import simcards
from simcards.cli import main
from simcards.config import ConfigError, load_config
from simcards.errors import UserError
from simcards.games import rulesets
from simcards.engine.state import S_VOIDS
from simcards.games.seating import seated
from simcards.games.userbots import BotError

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
HERE = Path(__file__).resolve().parent / "userbots"
SUPPORTED = [r for r in rulesets() if simcards.load(r).user_bots is not None]

sys.path[:0] = [str(EXAMPLES), str(HERE)]
import testbots  # noqa: E402


def drive(tmp: Path, commands: list[list[str]]) -> list[int]:
    """Run ``commands`` in one fresh process (drive.py) with the examples importable."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(EXAMPLES), str(HERE), str(ROOT)])}
    out = subprocess.run([sys.executable, str(HERE / "drive.py"), json.dumps(commands)], cwd=tmp,
                         env=env, capture_output=True, text=True, timeout=600)
    assert "EXIT CODES" in out.stdout, out.stderr[-3000:]
    return json.loads(out.stdout.split("EXIT CODES", 1)[1])


def frames(run: Path) -> dict[str, pl.DataFrame]:
    """Every part of a run, per kind, sorted by unit index."""
    keys = {"deals": "deal_index", "matches": "match_index"}
    return {kind: pl.read_parquet(run / kind / "*.parquet").sort(key)
            for kind, key in keys.items() if (run / kind).is_dir()}


RUN = """name = "{name}"
ruleset = "{ruleset}"
{units} = {count}
chunk_size = {chunk}
seed = 11
bots = [{bot}, "heuristic", {bot}, "heuristic"]
"""
TOURNAMENT = """name = "{name}"
ruleset = "{ruleset}"
games = {games}
seed = 3
{extra}
[entrants.mine]
{table}
[entrants.heuristic]
kind = "heuristic"
[entrants.mine-partner]
{table}
[entrants.heuristic-partner]
kind = "heuristic"
"""
TUNE = """name = "{name}"
ruleset = "{ruleset}"
{units} = {count}
seed = 4
grid = 3
verify = {count}
chunk_size = {chunk}
[baseline]
{table}
[tune]
{param} = {range}
"""

EXAMPLE_CASES = {
    "python-kraken": dict(ruleset="kraken-contra", units="matches", count=4, chunk=2, games=2,
                          extra="", entry="mybots.kraak:MyBot", kind="python",
                          params="{ kraak_at = 6 }", param="kraak_at", range="[4, 10, 1]"),
    "numba-klaverjas": dict(ruleset="klaverjas-rotterdam", units="deals", count=600, chunk=300,
                            games=25, extra="deals_per_game = 4", entry="mybots.fast:choose_card",
                            kind="numba", params="{ grab_points = 15 }", param="grab_points",
                            range="[0, 60, 5]"),
}


@pytest.mark.parametrize("case", sorted(EXAMPLE_CASES))
def test_example_through_run_tournament_and_tune(tmp_path, case):
    """Each example in `simcards run`, `tournament` (against the heuristic, partners together,
    seats rotated over the same deals) and `tune` (its own parameter): with 1 and with 2
    workers (and on a Dask cluster for the Python bot), the same data, ratings and tuned values;
    a second tournament the same."""
    c = EXAMPLE_CASES[case]
    table = f'kind = "{c["kind"]}"\nentry = "{c["entry"]}"\nparams = {c["params"]}'
    bot = f'{{ kind = "{c["kind"]}", entry = "{c["entry"]}", params = {c["params"]} }}'
    (tmp_path / "run.toml").write_text(RUN.format(name="r", bot=bot, **c))
    dask = c["kind"] == "python"  # a Dask cluster too (its workers import the bot's module)
    (tmp_path / "dask.toml").write_text(RUN.format(name="r", bot=bot, **c)
                                        + 'backend = "dask"\nworkers = 2\n')
    (tmp_path / "tour.toml").write_text(TOURNAMENT.format(name="tour", table=table, **c))
    (tmp_path / "tune.toml").write_text(TUNE.format(name="tune", table=table, **c))
    codes = drive(tmp_path, [
        ["run", "run.toml", "--workers", "1", "--out", "w1", "--quiet"],
        ["run", "run.toml", "--workers", "2", "--out", "w2", "--quiet"],
        ["tournament", "tour.toml", "--out", "t1"],
        ["tournament", "tour.toml", "--out", "t2"],
        ["tune", "tune.toml", "--workers", "1", "--out", "u1", "--quiet"],
        ["tune", "tune.toml", "--workers", "2", "--out", "u2", "--quiet"],
    ] + ([["run", "dask.toml", "--out", "w3", "--quiet"]] if dask else []))
    assert codes == [0] * (7 if dask else 6)
    one, two = frames(tmp_path / "w1" / "r"), frames(tmp_path / "w2" / "r")
    for kind in one:
        assert one[kind].equals(two[kind]), kind
        if dask:
            assert one[kind].equals(frames(tmp_path / "w3" / "r")[kind]), kind
    manifest = json.loads((tmp_path / "w1" / "r" / "manifest.json").read_text())
    assert set(manifest["user_bots"]) == {c["entry"]}
    # the user bot is not the heuristic: its seats play differently
    heuristic = simcards.load(c["ruleset"]).simulate(
        one["deals"]["deal_index"].max() + 1 if c["units"] == "deals" else c["count"], seed=11)
    assert not one["deals"].equals(heuristic)
    r1 = pl.read_csv(next((tmp_path / "t1" / "tour").rglob("ratings.csv")))
    r2 = pl.read_csv(next((tmp_path / "t2" / "tour").rglob("ratings.csv")))
    assert r1.equals(r2) and set(r1["entrant"]) == {"mine", "heuristic", "mine-partner",
                                                     "heuristic-partner"}
    t1 = tomllib.loads((tmp_path / "u1" / "tune" / "thresholds.toml").read_text())
    t2 = tomllib.loads((tmp_path / "u2" / "tune" / "thresholds.toml").read_text())
    assert t1 == t2
    assert t1["bots"]["entry"] == c["entry"] and c["param"] in t1["bots"]["params"]
    v1 = (tmp_path / "u1" / "tune" / "thresholds.toml").read_text().splitlines()[2]
    v2 = (tmp_path / "u2" / "tune" / "thresholds.toml").read_text().splitlines()[2]
    assert v1 == v2  # the verification figures


# ---------------------------------------------------------------- views against the state


def _codes_in(value) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, (tuple, list)):
        return set().union(*(_codes_in(v) for v in value)) if value else set()
    return set()


def check_view(game, state, seat: int, view) -> None:
    """Rebuild the seat's information from the view alone and check it against the state."""
    deck = game.deck
    f = view.fields()
    assert f["seat"] == seat and f["n_seats"] == game.n_seats
    assert sorted(f["hand"]) == sorted(state.hand(seat))
    assert list(f["played"]) == list(state.history)
    trick = state.trick
    assert [c for _, c in f["trick"]] == trick
    n = len(trick)
    flat = [card for t in f["tricks"] for card in t[1]]
    assert flat + list(f["trick"]) == list(state.history)
    for leader, cards, winner in f["tricks"]:
        assert cards[0][0] == leader and len(cards) == game.n_seats
    assert f["trick_no"] == len(f["tricks"]) and f["leader"] == (f["trick"][0][0] if n else
                                                                 state.to_move)
    if f["tricks"]:
        assert f["tricks"][-1][2] == state.last_winner
    # what the seat held when play began: its hand now and what it played
    held = set(f["hand"]) | {c for s, c in f["played"] if s == seat}
    start = {s: set(state.hand(s)) | {c for p, c in state.history if p == s}
             for s in range(game.n_seats)}
    assert held == start[seat]
    # every card code in the view is the seat's own or a played one: no hidden card shows
    visible = held | {c for _, c in f["played"]} | set(f.get("passed", ())) | set(f.get("received", ()))
    if hasattr(state, "skat"):
        visible |= check_skat_view(game, state, seat, f)
    assert set(deck.codes) & _codes_in(list(f.values())) <= visible
    # the voids shown agree with the state
    for s in range(game.n_seats):
        bits = int(state._st[S_VOIDS + s])
        shown = {"CDHS"[b] if b < 4 else "trump" for b in range(5) if bits >> b & 1}
        assert set(f["voids"][s]) == shown
    if hasattr(state, "trump"):  # the contract
        assert f["trump"] == "CDHS"[state.trump] and f["declarer"] == state.declarer
        assert f["team"] == seat % 2
        assert list(f["points"]) == state.team_slots(state.kernels.S_POINTS)
    if hasattr(game, "bid_names"):
        assert f["bid"] == game.bid_names[state.bid]
        assert [b for b, _ in f["bids"]] == list(game.bid_names[1:state.bid + 1])
    if hasattr(state, "scores_before"):
        assert list(f["scores"]) == state.scores_before and f["phase"] == state.phase
        assert list(f["points"]) == state.points
        assert set(f["passed"]) == set(deck.hand_codes(state.dealt[seat] & ~state.held[seat]))
    if hasattr(state, "announcements"):  # Doppelkopf
        check_doppelkopf_view(state, seat, f)
    if seat == state.to_move:
        assert list(f["legal"]) == sorted(set(state.legal_moves()), key=deck.card_id)
    else:
        assert f["legal"] == ()


AUGEN = {"9": 0, "10": 10, "J": 2, "Q": 3, "K": 4, "A": 11}


def check_doppelkopf_view(state, seat: int, f: dict) -> None:
    """The contract, the announcements and the parties: from the view alone, against the full
    state; a party the seat cannot know is None."""
    from simcards.games.doppelkopf import _kernels as K

    st = state._st
    declarer = int(st[K.S_DECLARER])
    hidden = state.game_type == "silent_marriage" and seat != declarer
    assert f["game"] == ("normal" if hidden else state.game_type)
    assert f["contract"] == state.contract
    assert f["declarer"] == (None if hidden or declarer < 0 else declarer)
    assert {c: {"seat": s, "cards": n} for c, s, n in f["announcements"]} == state.announcements
    # Augen and tricks of each seat, rebuilt from the completed tricks
    augen, tricks = [0] * 4, [0] * 4
    for _, cards, winner in f["tricks"]:
        augen[winner] += sum(AUGEN[code[:-1]] for _, code in cards)
        tricks[winner] += 1
    assert list(f["augen"]) == augen and list(f["tricks_won"]) == tricks
    assert f["marriage_open"] == bool(st[K.S_MARRIAGE_OPEN])
    # the parties: known ones are right, and known only from the seat's own cards, what is
    # public (an announcement, a club queen played, a declared game, a found partner) or being
    # the soloist
    soloist = bool(st[K.S_SOLO]) and declarer == seat
    shown = {"re": int(st[K.S_REV_RE]), "kontra": int(st[K.S_REV_KO])}
    for s, party in enumerate(f["parties"]):
        truth = "re" if int(st[K.S_PARTY]) >> s & 1 else "kontra"
        for name, mask in shown.items():
            if mask >> s & 1:
                assert party == name
        if party is not None:
            assert party == truth
            assert s == seat or shown[party] >> s & 1 or (soloist and party == "kontra")
    own = None if f["marriage_open"] and seat != declarer else \
        ("re" if int(st[K.S_PARTY]) >> seat & 1 else "kontra")
    assert f["party"] == f["parties"][seat] == own
def check_skat_view(game, state, seat: int, f: dict) -> set[str]:
    """Skat: the contract, the announcements and the bids against the state; the Skat shows
    only to the declarer who took it up, an Ouvert declarer's hand to everybody. Returns the
    cards the seat may see besides its own and the played ones."""
    from simcards.games.skat._kernels import S_POINTS, S_TRICKS
    from simcards.games.skat.userbot import parse_game

    deck, d = game.deck, state.declarer
    assert f["role"] == ("rearhand", "forehand", "middlehand")[(seat - state.dealer) % 3]
    if state.auction is not None:  # the auction: each bid one value up, the declarer's the last
        said = [v for v, s, call in f["bids"] if call != "passed"]
        assert said == sorted(said) and max(said, default=0) == state.bid
        assert {s for _, s, call in f["bids"] if call == "passed"} == set(range(3)) - {d}
    if d < 0:
        assert f["game"] == "passed"
        return set()
    assert f["declarer"] == d and f["bid"] == state.bid and f["kontra"] == state.kontra
    assert parse_game(f["game"]) == (state.contract, state.hand_game, state.schneider_announced,
                                     state.schwarz_announced, state.ouvert)
    assert f["defenders"] == tuple(s for s in range(3) if s != d)
    assert f["partner"] == (None if seat == d else 3 - d - seat)
    assert list(f["points"]) == [int(state._st[S_POINTS + s]) for s in range(3)]
    assert list(f["tricks_won"]) == [int(state._st[S_TRICKS + s]) for s in range(3)]
    seen = set()
    took_skat = seat == d and not state.hand_game
    assert set(f["skat"]) == (set(deck.hand_codes(state.skat)) if took_skat else set())
    assert set(f["discard"]) == (set(deck.hand_codes(state.discard)) if took_skat else set())
    if took_skat:
        seen |= set(f["skat"]) | set(f["discard"])
    if state.ouvert:
        assert sorted(f["declarer_hand"]) == sorted(state.hand(d))
        seen |= set(f["declarer_hand"])
    else:
        assert f["declarer_hand"] is None
    return seen


def play_randomly_checking_views(game, state, rng) -> None:
    while True:
        for seat in range(game.n_seats):
            check_view(game, state, seat, state.view(seat))
        if state.is_over:
            return
        moves = state.legal_moves()
        state.play(moves[int(rng.integers(len(moves)))])


def test_every_ruleset_takes_user_bots():
    """So that the view test below runs over every ruleset (a new one needs its userbot.py)."""
    assert SUPPORTED == list(rulesets())


@pytest.mark.parametrize("ruleset", SUPPORTED)
def test_view_holds_what_the_seat_knows_across_random_play(ruleset):
    """`state.view(seat)` for every seat after every card of random deals, against the full
    state; and the view is read-only."""
    game = simcards.load(ruleset)
    rng = np.random.default_rng(7)
    for index in range(3):
        state = game.deal(seed=5, index=index * (1 if game.unit == "deal" else 1024), bots="random")
        play_randomly_checking_views(game, state, rng)
    view = state.view(0)
    with pytest.raises(AttributeError):
        view.hand = ()
    with pytest.raises(AttributeError, match="has no field"):
        view.partner_hand


@pytest.mark.parametrize("ruleset,options", [("klaverjas-amsterdam", {"trump_selection": "free"}),
                                             ("kraken-scorebord", {}), ("hearts", {}),
                                             ("doppelkopf", {}), ("skat", {"kontra": True})])
def test_views_in_a_run_match_the_replayed_deal(ruleset, options):
    """The views a Python bot receives inside the compiled loop: each card-play view equals the
    interactive view after replaying the deal's cards so far; the decision views hold the
    seat's own hand; the answers (from the seeded view.rng) make the run reproducible."""
    game = simcards.load(ruleset, **options)
    bots = [{"kind": "python", "entry": "testbots:Recorder"}, "heuristic", "random",
            "heuristic"][:game.n_seats]
    testbots.RECORDED.clear()
    units = 8 if game.unit == "deal" else 1
    first = game.simulate_chunk(units, seed=9, bots=bots)
    recorded = list(testbots.RECORDED)
    assert game.simulate_chunk(units, seed=9, bots=bots)["deals"].equals(first["deals"])
    plays = [r for r in recorded if r["decision"] == "play"]
    assert plays and len(recorded) > len(plays)  # trump, declare, bid, pass, game, announce too
    deals = first["deals"]
    by_deal = {}
    for r in plays:
        by_deal.setdefault(r["deal"][1], []).append(r)
    for index, views in list(by_deal.items())[:3]:
        row = deals.filter(pl.col("deal_index") == index).row(0, named=True)
        with seated(game, bots) as (kinds, params):
            row_again, trace = game.run_deal(9, index, kinds, params)
            state = game.state_from_row(row_again, kinds, params)
        for view in views:
            while len(state.history) < len(view["played"]):
                state.play(game.deck.code(int(trace[len(state.history)])))
            if ruleset == "doppelkopf":  # the calls the bot made before this card
                state._replay_calls(0)
            again = state.view(0).fields()
            for key in ("legal", "deal"):
                view.pop(key), again.pop(key)
            if "match_scores" in again:  # an interactive deal stands alone
                for key in ("match_scores", "deal_no", "crosses"):
                    view.pop(key, None), again.pop(key, None)
            if "deal_no" in again:
                view.pop("deal_no"), again.pop("deal_no")
            for key in ("series_scores", "deals_left"):  # likewise
                view.pop(key, None), again.pop(key, None)
            assert view == again
    for r in recorded:
        if r["decision"] != "play":
            dealt = deals.filter(pl.col("deal_index") == r["deal"][1]).row(0, named=True)
            if "skat" in dealt and r["decision"] in ("discard", "declare", "re"):  # a Skat declarer's
                assert set(r["hand"]) <= set(game.deck.hand_codes(dealt["hand_0"] | dealt["skat"]))
                continue
            dealt = game.deck.hand_codes(dealt["hand_0"])
            if r["decision"] == "announce":  # during play: what is left of the hand
                assert not set(r["hand"]) - set(dealt) and len(r["hand"]) >= r["deadline"]
            else:
                assert sorted(r["hand"]) == sorted(dealt)


# ---------------------------------------------------------------- Doppelkopf's decisions

DOKO = [{"kind": "python", "entry": "testbots:DokoBot"}, "heuristic",
        {"kind": "python", "entry": "testbots:DokoBot", "params": {"announce_rate": 0.2}}, "random"]


def test_doppelkopf_views_through_solos_marriages_and_announcements():
    """`check_view` for every seat after every card of a heuristic deal of each game type the
    bots play (solos, marriages announced and silent, announcements made), cards random."""
    game = simcards.load("doppelkopf")
    silent = [{"kind": "heuristic", "params": {"marriage_silent": 1}}] * 4
    rng = np.random.default_rng(3)
    seen, calls = set(), 0
    for bots in ("heuristic", silent):
        deals = game.simulate(300, seed=5, bots=bots)
        picks = {}
        for row in deals.iter_rows(named=True):
            picks.setdefault(row["game_type"], row["deal_index"])
        for index in picks.values():
            state = game.deal(seed=5, index=index, bots=bots)
            seen.add(state.game_type)
            while True:
                for seat in range(4):
                    check_view(game, state, seat, state.view(seat))
                if state.is_over:
                    break
                moves = state.legal_moves()
                state.play(moves[int(rng.integers(len(moves)))])
            calls += len(state.announcements)
    assert {"normal", "marriage", "silent_marriage"} <= seen and len(seen) >= 5 and calls > 0


def _game_type_of(answer: str) -> set[str]:
    if answer == "marriage":
        return {"marriage", "marriage_alone"}
    return {answer if answer in ("silent_marriage", "fleshless") else f"{answer}_solo"}


def test_a_python_doppelkopf_bot_chooses_games_and_announces(tmp_path):
    """Python bots choosing games (owed solos with pflichtsolo included) and announcing: the
    answers are in the data, which is the same however the run is cut into chunks (a chunk may
    begin inside a series) and with 2 workers through `simcards run`."""
    from simcards.games.doppelkopf.rules import CONTRACTS, GAME_TYPES

    game = simcards.load("doppelkopf", pflichtsolo=True)
    testbots.DOKO_GAMES.clear()
    whole = game.simulate(48, seed=3, bots=DOKO)
    decisions = list(testbots.DOKO_GAMES)
    parts = [game.simulate(n, seed=3, bots=DOKO, start=s) for s, n in ((0, 13), (13, 20), (33, 15))]
    assert pl.concat(parts).equals(whole)
    assert game.simulate(48, seed=3, bots=DOKO).equals(whole)
    # each seat plays one owed solo per series, and a seat that must is asked for a solo
    owed = whole.filter(pl.col("owed_solo") == 1)
    for series in (0, 1):
        declarers = owed.filter(pl.col("deal_index") // 24 == series)["declarer"].to_list()
        assert sorted(declarers) == [0, 1, 2, 3]
    must = [answer for _, _, forced, answer in decisions if forced]
    assert must and set(must) <= set(CONTRACTS[1:])
    # the Python seats' declarations are the games played
    answers = {(deal[1], seat): answer for deal, seat, _, answer in decisions}
    played = 0
    for row in whole.filter(pl.col("declarer").is_in([0, 2])).iter_rows(named=True):
        answer = answers[(row["deal_index"], row["declarer"])]
        if row["game_type"] != 0 or answer != "normal":
            assert GAME_TYPES[row["game_type"]] in _game_type_of(answer)
            played += 1
    assert played > 0
    # they announce, and a replayed deal makes their calls as the row records them
    seats = whole.select([c for c in whole.columns if c.startswith("ann_seat_")]).to_numpy()
    assert {0, 2} <= set(seats.ravel().tolist())
    index = next(i for i in range(30, 48) if {0, 2} & set(seats[i].tolist()))
    story = game.replay(3, index, DOKO)
    row = whole.row(index, named=True)
    assert story["result"]["scores"] == [row[f"score_{s}"] for s in range(4)]
    assert {c: a["cards"] for c, a in story["result"]["announcements"].items()} == {
        c[4:]: row[c] for c in whole.columns if c.startswith("ann_") and "seat" not in c
        and row[c] >= 0}
    (tmp_path / "run.toml").write_text(
        'name = "dk"\nruleset = "doppelkopf"\ndeals = 48\nchunk_size = 13\nseed = 3\n'
        '[rules]\npflichtsolo = true\n[[bots]]\nkind = "python"\nentry = "testbots:DokoBot"\n'
        '[[bots]]\nkind = "heuristic"\n[[bots]]\nkind = "python"\nentry = "testbots:DokoBot"\n'
        'params = { announce_rate = 0.2 }\n[[bots]]\nkind = "random"\n')
    assert drive(tmp_path, [["run", "run.toml", "--workers", "2", "--out", "w2", "--quiet"]]) == [0]
    assert frames(tmp_path / "w2" / "dk")["deals"].equals(whole)


@pytest.mark.parametrize("bot,decision,needles", [
    ("BadGame", "game", ["answered 'solo', not one of the legal game names",
                         "legal: normal, queen, jack, clubs, spades, hearts, diamonds, fleshless"]),
    ("BadAnnounce", "announce", ["answered 'yes', not True or False", "legal: True, False"]),
    ("BadCard", "play", ["answered 'XX', not one of the legal card codes", "legal: "]),
])
def test_an_illegal_doppelkopf_answer_is_one_error(bot, decision, needles):
    game = simcards.load("doppelkopf")
    with pytest.raises(BotError) as err:
        game.simulate(4, seed=0, bots=[{"kind": "python", "entry": f"testbots:{bot}"}] * 4)
    text = str(err.value)
    assert text.startswith(f"bot 'testbots:{bot}' at seat ") and "deal (seed 0, index " in text
    assert f"of doppelkopf, decision {decision}: " in text
    for needle in needles:
        assert needle in text


# ---------------------------------------------------------------- errors, hashes, refusals


@pytest.mark.parametrize("bot,needles", [
    ("Illegal", ["'XX'", "deal (seed 0, index 2048)", "legal: "]),
    ("Raises", ["RuntimeError: a bug in my bot", "deal (seed 0, index 0)"]),
    ("WrongType", ["answered 7, not one of the legal card codes", "decision play"]),
])
def test_a_bad_answer_is_one_error_and_the_finished_parts_stay(tmp_path, capsys, bot, needles):
    cfg = tmp_path / "bad.toml"
    cfg.write_text(f'name = "bad"\nruleset = "kraken-contra"\nmatches = 3\nchunk_size = 1\n'
                   f'bots = [{{kind = "python", entry = "testbots:{bot}"}}, "heuristic", '
                   f'"heuristic", "heuristic"]\n')
    code = main(["run", str(cfg), "--workers", "1", "--out", str(tmp_path), "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("simcards: error: bot 'testbots:" + bot + "' at seat 0")
    for needle in needles:
        assert needle in err
    manifest = json.loads((tmp_path / "bad" / "manifest.json").read_text())
    done = sorted(e["index"] for e in manifest["chunks"])
    assert done == ([0, 1] if bot == "Illegal" else [])
    assert sorted(p.name for p in (tmp_path / "bad" / "deals").glob("*.parquet")) == [
        f"part-{i:05d}.parquet" for i in done]


def test_an_interactive_deal_takes_built_in_bots():
    game = simcards.load("kraken-contra")
    with pytest.raises(UserError, match="use replay"):
        game.deal(seed=1, index=0, bots=[{"kind": "python", "entry": "testbots:Memory"}] * 4)


def test_an_illegal_card_of_a_numba_bot_names_the_seat_and_the_deal():
    """A Numba bot going wrong a few deals into a run, beside the heuristic: one error naming
    the bot, the seat, the deal and the legal cards (found by playing the batch again with the
    deal hooks on), and every deal before it is legal."""
    game = simcards.load("klaverjas-rotterdam")
    later = {"kind": "numba", "entry": "testbots:illegal_later"}
    bots = ["heuristic", later, "heuristic", later]
    with pytest.raises(BotError) as err:
        game.simulate(40, seed=5, bots=bots)
    found = re.search(r"bot 'testbots:illegal_later' at seat (\d), deal \(seed 5, index (\d+)\)"
                      r".*returned card id 7, which is not in its legal mask.*legal: \w", str(err.value))
    assert found, str(err.value)
    seat, index = int(found[1]), int(found[2])
    assert seat in (1, 3) and index > 0
    game.simulate(index, seed=5, bots=bots)  # every deal before it is legal
    with pytest.raises(BotError, match=f"at seat {seat}, deal \\(seed 5, index {index}\\)"):
        game.simulate(1, seed=5, bots=bots, start=index)


def test_a_fresh_bot_plays_each_deal():
    game = simcards.load("klaverjas-rotterdam")
    game.simulate(20, seed=1, bots=[{"kind": "python", "entry": "testbots:Memory"}] * 4)


def test_changed_bot_source_is_not_resumed_without_force(tmp_path, capsys):
    shutil.copy(HERE / "testbots.py", tmp_path / "changing_bot.py")
    sys.path.insert(0, str(tmp_path))
    try:
        cfg = tmp_path / "c.toml"
        cfg.write_text('name = "c"\nruleset = "klaverjas-rotterdam"\ndeals = 40\nchunk_size = 20\n'
                       'bots = [{kind = "python", entry = "changing_bot:Memory"}, "heuristic", '
                       '"random", "heuristic"]\n')
        args = ["run", str(cfg), "--workers", "1", "--out", str(tmp_path), "--quiet"]
        assert main(args) == 0
        assert main(args + ["--deals", "60"]) == 0  # the same source: extended
        with open(tmp_path / "changing_bot.py", "a") as fh:
            fh.write("\n# a change\n")
        capsys.readouterr()
        assert main(args + ["--deals", "80"]) == 2
        assert "another version of the bot 'changing_bot:Memory'" in capsys.readouterr().err
        assert main(args + ["--deals", "80", "--force"]) == 0
    finally:
        sys.path.remove(str(tmp_path))


def test_config_problems_name_the_key(tmp_path):
    cfg = tmp_path / "x.toml"
    cfg.write_text('name = "x"\nruleset = "kraken-contra"\nmatches = 2\n'
                   'bots = [{kind = "python", entry = "mybots.kraak:MyBot", params = {kraak = 3}},'
                   ' {kind = "python", entry = "nowhere.mod:Bot"}, {kind = "numba", '
                   'entry = "mybots.kraak:MyBot"}, {kind = "python", entry = "no-colon"}]\n')
    with pytest.raises(ConfigError) as err:
        load_config(cfg)
    text = str(err.value)
    assert "bots[0].params.kraak = 3: use a parameter of mybots.kraak:MyBot: kraak_at" in text
    assert "bots[1].entry = 'nowhere.mod:Bot'" in text and "cannot import 'nowhere.mod'" in text
    assert "bots[2].entry" in text and "an @njit function" in text
    assert "bots[3].entry = 'no-colon'" in text


def test_a_ruleset_without_user_bots_says_so(tmp_path):
    sys.path.insert(0, str(Path(__file__).parent))
    from toy_game import ToyGame

    from simcards.games import register, unregister

    register(ToyGame)
    try:
        game = simcards.load(ToyGame.name)
        with pytest.raises(UserError, match=f"ruleset '{ToyGame.name}' does not support user bots yet; "
                                            "it supports 'random', 'lowest'"):
            game.simulate(3, bots=[{"kind": "python", "entry": "testbots:Memory"}] * 3)
        cfg = tmp_path / "t.toml"
        cfg.write_text(f'name = "t"\nruleset = "{ToyGame.name}"\ndeals = 3\n'
                       'bots = {kind = "python", entry = "testbots:Memory"}\n')
        with pytest.raises(ConfigError, match="does not support user bots yet"):
            load_config(cfg)
        state = game.deal(seed=1, index=0)
        with pytest.raises(UserError, match="does not support user bots yet"):
            state.view(0)
    finally:
        unregister(ToyGame.name)


# ---------------------------------------------------------------- Numba path, suggestions


@pytest.mark.parametrize("ruleset", ["klaverjas-amsterdam", "doppelkopf", "skat"])  # bench: every ruleset's speed
def test_a_numba_bot_copying_the_heuristic_gives_the_heuristics_data(ruleset):
    game = simcards.load(ruleset)
    copy = {"kind": "numba", "entry": game.user_bots.copy_entry}
    mixed = [copy, "heuristic", "random", copy][:game.n_seats]
    plain = ["heuristic", "heuristic", "random", "heuristic"][:game.n_seats]
    units = 200 if game.unit == "deal" else 3
    a, b = game.simulate_chunk(units, seed=2, bots=mixed), game.simulate_chunk(units, seed=2, bots=plain)
    for kind in a:
        assert a[kind].equals(b[kind])


@pytest.mark.parametrize("ruleset", SUPPORTED)
def test_suggest_is_the_bots_card(ruleset):
    """Replaying a simulated deal with the heuristic's suggestions reproduces it card by card;
    suggest leaves the state alone."""
    game = simcards.load(ruleset)
    story = game.replay(4, 1 if game.unit == "deal" else 1024 + 1, bots="heuristic")
    if game.unit == "deal":
        state = game.deal(seed=4, index=1)
    else:
        with seated(game, "heuristic") as (kinds, params):
            row, _ = game.run_deal(4, 1025, kinds, params)
            state = game.state_from_row(row, kinds, params)
    for trick in story["tricks"]:
        for seat, card in trick["cards"]:
            before = list(state.history)
            assert state.suggest() == card
            assert state.history == before
            assert state.suggest("random") in state.legal_moves()
            state.play(card)
    with pytest.raises(UserError, match="over"):
        state.suggest()


def test_the_report_settings_show_a_user_bots_parameters(monkeypatch):
    from simcards.report import settings_section

    monkeypatch.syspath_prepend(str(Path(__file__).parents[1] / "examples"))
    game = simcards.load("kraken-contra")
    mine = {"kind": "python", "entry": "mybots.kraak:MyBot", "params": {"kraak_at": 9}}

    def bots_column(bots):
        table = next(t for t in settings_section(game, bots).tables if t.name == "bot_settings")
        return table.frame.row(0)  # the row of bot kinds, one column per seat

    assert "python mybots.kraak:MyBot (kraak_at = 9*)" in bots_column([mine, "heuristic"] * 2)
    plain = {"kind": "python", "entry": "mybots.kraak:MyBot"}
    assert "python mybots.kraak:MyBot (kraak_at = 7)" in bots_column([plain] * 4)


# ---------------------------------------------------------------- Skat's decisions


def test_skat_views_hide_the_skat_and_open_an_ouvert_hand():
    """Declared Skat games played at random, every seat's view after every card: a Hand game's
    Skat shows to nobody, a pickup's only to the declarer, an Ouvert declarer's cards to all."""
    game = simcards.load("skat")
    rng = np.random.default_rng(3)
    hands = [["JC", "JS", "AC", "10C", "KC", "QC", "9C", "AS", "10S", "7H"],
             ["JH", "JD", "8C", "7C", "KS", "QS", "AH", "10H", "KH", "7D"],
             ["9S", "8S", "7S", "QH", "9H", "8H", "AD", "10D", "KD", "QD"]]
    for declaration in ({"contract": "clubs", "declarer": 0, "hand": True, "schneider": True},
                        {"contract": "clubs", "declarer": 0, "ouvert": True},
                        {"contract": "null", "ouvert": True, "declarer": 2, "bid": 46,
                         "discard": ["AD", "KD"]},
                        {"contract": "grand", "discard": ["7D", "8D"]}):
        state = game.deal(hands=hands, dealer=0, **declaration)
        play_randomly_checking_views(game, state, rng)


def test_a_python_skat_bot_through_simcards_run(tmp_path):
    """A Python bot making every Skat decision itself (tests/userbots/skatbot.py), in `simcards
    run` with 1 and with 2 workers: the same data, and the same again in process; it bids,
    takes the Skat up, discards, declares and plays as its code says."""
    (tmp_path / "run.toml").write_text(
        'name = "s"\nruleset = "skat"\ndeals = 24\nchunk_size = 8\nseed = 6\n'
        '[rules]\nkontra = true\n'
        '[[bots]]\nkind = "python"\nentry = "skatbot:SkatBot"\nparams = { bid_to = 20 }\n'
        '[[bots]]\nkind = "heuristic"\n[[bots]]\nkind = "random"\n')
    codes = drive(tmp_path, [
        ["run", "run.toml", "--workers", "1", "--out", "w1", "--quiet"],
        ["run", "run.toml", "--workers", "2", "--out", "w2", "--quiet"],
    ])
    assert codes == [0, 0]
    one, two = frames(tmp_path / "w1" / "s"), frames(tmp_path / "w2" / "s")
    assert one["deals"].equals(two["deals"])
    game = simcards.load("skat", kontra=True)
    bot = {"kind": "python", "entry": "skatbot:SkatBot", "params": {"bid_to": 20}}
    deals = game.simulate(24, seed=6, bots=[bot, "heuristic", "random"])
    assert deals.equals(one["deals"].select(deals.columns))
    jacks = {game.deck.card_id(j) for j in ("JC", "JS", "JH", "JD")}
    mine = deals.filter(pl.col("declarer") == 0)
    assert mine.height > 0
    for row in mine.iter_rows(named=True):
        held = row["hand_0"]
        n_jacks = sum(held >> j & 1 for j in jacks)
        assert row["final_bid"] <= 20 + 12 * n_jacks
        assert row["hand_game"] == (n_jacks >= 3)
        if not row["hand_game"]:  # the two cheapest non-jacks of the twelve were laid away
            assert not any(row["discard"] >> j & 1 for j in jacks)
        assert row["contract"] == 4 or n_jacks < 3  # Grand with three jacks
    # the seat's bids stop where the bot's limit says
    for row in deals.iter_rows(named=True):
        if row["pass_at_0"] > 0:
            n_jacks = sum(row["hand_0"] >> j & 1 for j in jacks)
            assert row["bid_0"] <= 20 + 12 * n_jacks


@pytest.mark.parametrize("decision", ["bid", "take_skat", "discard", "declare", "kontra", "re",
                                      "play"])
def test_a_bad_skat_answer_is_one_error(decision):
    """An illegal answer to each Skat decision: one BotError naming the bot, the seat, the
    deal, the decision and the legal choices."""
    game = simcards.load("skat", kontra=True)
    bots = [{"kind": "python", "entry": "skatbot:Bad", "params": {"wrong": decision}},
            "random", "random"]
    with pytest.raises(BotError) as err:
        game.simulate(60, seed=5, bots=bots)
    text = str(err.value)
    assert text.startswith("bot 'skatbot:Bad' at seat 0, deal (seed 5, index ")
    assert f"of skat, decision {decision}: answered" in text
    legal = text.split("; legal: ")[1]
    if decision in ("bid", "take_skat", "kontra", "re"):
        assert legal == "True, False"
    elif decision == "declare":
        assert "G" in {game.split()[0] for game in legal.split(", ")}
    else:
        assert len(legal.split(", ")) >= {"discard": 12, "play": 1}[decision]


def test_skat_views_carry_the_series_so_far():
    """Every view holds the Seeger-Fabian totals of its series (36 deals from deal 0) before
    its deal, the same when a chunk starts inside the series (its earlier deals are played
    again, their rows dropped)."""
    game = simcards.load("skat")
    bots = [{"kind": "python", "entry": "testbots:Recorder"}, "heuristic", "heuristic"]

    def series_seen(n, start):
        testbots.RECORDED.clear()
        deals = game.simulate(n, seed=8, bots=bots, start=start)
        seen = {}
        for r in testbots.RECORDED:
            seen.setdefault(r["deal"][1], set()).add((r["series_scores"], r["deal_no"]))
        return deals, {index: seen[index] for index in deals["deal_index"]}

    deals, seen = series_seen(12, 0)
    totals = np.cumsum(deals.select("seeger_0", "seeger_1", "seeger_2").to_numpy(), axis=0)
    for k, index in enumerate(deals["deal_index"]):
        before = tuple(int(x) for x in totals[k - 1]) if k else (0, 0, 0)
        assert seen[index] == {(before, index % 36)}
    tail, tail_seen = series_seen(4, 8)
    assert tail.equals(deals.filter(pl.col("deal_index") >= 8))
    assert tail_seen == {i: seen[i] for i in range(8, 12)}


FIRST_LEGAL = """
from numba import njit

STEP = {step}


@njit
def lowest(legal):
    card = 0
    while not (legal >> card) & 1:
        card += 1
    return card


@njit
def choose_card(kind, legal, st, T, params, rng):
    {body}
"""
LOWEST = "return lowest(legal)"
HIGHEST = "card = 63\n    while not (legal >> card) & 1:\n        card -= STEP\n    return card"


def test_a_numba_bots_loop_is_cached_under_its_code_and_a_changed_bot_compiles_anew(tmp_path,
                                                                                     monkeypatch):
    """A Numba bot's loops are cached on disk under a hash of the bot's code (`user_code_key`):
    the same code loads them (no compile), a changed function, helper or constant compiles
    anew and plays the new code: never a stale loop."""
    import importlib

    from simcards.compiling import watching_compiles
    from simcards.games.userbots.loops import user_code_key

    def load(step: int, body: str):
        (tmp_path / "cachedbot.py").write_text(FIRST_LEGAL.format(step=step, body=body))
        importlib.invalidate_caches()
        sys.modules.pop("cachedbot", None)
        return importlib.import_module("cachedbot")

    sys.path.insert(0, str(tmp_path))
    sys.dont_write_bytecode, writing = True, sys.dont_write_bytecode
    try:
        keys = {}
        for name, step, body in [("lowest", 1, LOWEST), ("highest", 1, HIGHEST),
                                 ("step", 2, HIGHEST), ("lowest again", 1, LOWEST)]:
            keys[name] = user_code_key(((100, load(step, body).choose_card),))
        assert keys["lowest"] == keys["lowest again"]
        assert len({keys["lowest"], keys["highest"], keys["step"]}) == 3  # a constant counts too
        assert user_code_key(((101, load(1, LOWEST).choose_card),)) != keys["lowest"]  # its kind id

        game = simcards.load("hartenjagen")
        monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))  # the loops, not the kernels
        plays = {}
        for name, body in [("lowest", LOWEST), ("highest", HIGHEST), ("lowest again", LOWEST)]:
            bot = {"kind": "numba", "entry": "cachedbot:choose_card"}
            load(1, body)
            with watching_compiles() as watch:
                plays[name] = game.simulate_chunk(2, seed=3, bots=[bot, "heuristic"] * 2)
            plays[name + " compiles"] = watch.count
        assert plays["highest compiles"] > 0  # a changed bot: its loop compiled anew ...
        assert not plays["lowest"]["matches"].equals(plays["highest"]["matches"])  # ... and plays
        assert plays["lowest again compiles"] == 0  # the first code again: loaded from the cache
        assert plays["lowest again"]["matches"].equals(plays["lowest"]["matches"])
    finally:
        sys.path.remove(str(tmp_path))
        sys.dont_write_bytecode = writing
        sys.modules.pop("cachedbot", None)


def test_the_code_key_sees_closures_modules_reached_through_attributes_and_code_without_a_file(
        tmp_path):
    """`user_code_key` tells apart what would otherwise load a stale loop: two bots of one
    factory that differ only in a closure value, an edit to a module that a helper module reached
    as ``helpers.f`` imports, and two functions without a source file (a notebook's)."""
    import importlib

    from simcards.games.userbots.loops import user_code_key

    def key(func) -> str:
        return user_code_key(((100, func),))

    def make(step):
        def choose_card(kind, legal, st, T, params, rng):
            return step
        return choose_card

    assert key(make(2)) == key(make(2)) and key(make(2)) != key(make(5))

    (tmp_path / "keybot.py").write_text(
        "import keyhelpers\n\ndef choose_card(kind, legal, st, T, params, rng):\n"
        "    return keyhelpers.first(legal)\n")
    (tmp_path / "keyhelpers.py").write_text(
        "import keydeep\n\ndef first(legal):\n    return keydeep.pick(legal)\n")
    names = ("keybot", "keyhelpers", "keydeep")

    def load(deep_body: str):
        (tmp_path / "keydeep.py").write_text(f"def pick(legal):\n    return {deep_body}\n")
        importlib.invalidate_caches()
        for name in names:
            sys.modules.pop(name, None)
        return importlib.import_module("keybot").choose_card

    sys.path.insert(0, str(tmp_path))
    sys.dont_write_bytecode, writing = True, sys.dont_write_bytecode
    try:
        assert key(load("0")) == key(load("0")) != key(load("1"))
    finally:
        sys.path.remove(str(tmp_path))
        sys.dont_write_bytecode = writing
        for name in names:
            sys.modules.pop(name, None)

    def no_file(body: str):
        namespace = {"__name__": "__main__"}
        exec(f"def choose_card(kind, legal, st, T, params, rng):\n    return {body}\n", namespace)
        return namespace["choose_card"]

    assert key(no_file("legal & 1")) == key(no_file("legal & 1")) != key(no_file("legal & 2"))
