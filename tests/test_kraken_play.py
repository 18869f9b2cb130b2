"""Kraken simulations: invariants of every deal and match row, bidding order and thresholds,
what a bidder may see, reproducibility across chunking, and the interactive API."""

import math

import numpy as np
import polars as pl
import pytest

import simcards
from simcards.games.kraken.bots import CONTRA_PARAMS, SCOREBORD_PARAMS
from simcards.games.kraken.rules import MARK_NAMES
from simcards.games.kraken.scoring import contra_deal_score, scorebord_entry
from simcards.rng import MAX_DEALS_PER_MATCH

SUIT = "CDHS"


# Bids at every level, so that every scoring branch occurs: at the equilibrium defaults (kraak
# 84, rekraak 133, superkraak 98) a rekraak is rare and a superkraak rarer (6 rekraaks and no
# superkraak in 48,000 deals), so these rows use the thresholds of the earlier tune.
CONTRA_BIDS = {"kraak_threshold": 76.0, "rekraak_threshold": 130.0, "superkraak_threshold": 69.0}


@pytest.fixture(scope="module")
def contra_run():
    return simcards.load("kraken-contra").simulate_chunk(300, seed=21, bots={"kind": "heuristic",
                                                                            "params": CONTRA_BIDS})


@pytest.fixture(scope="module")
def scorebord_run():
    return simcards.load("kraken-scorebord").simulate_chunk(250, seed=22)


def _rows(frame: pl.DataFrame, n: int | None = None):
    return frame.iter_rows(named=True) if n is None else frame.head(n).iter_rows(named=True)


def _team(row, name, team):
    return row[f"{name}_{team}"]


def test_contra_deal_invariants(contra_run):
    deals = contra_run["deals"]
    assert deals.height == 300 * 16
    assert (deals["points_0"] + deals["points_1"] == 162).all()
    assert (deals["tricks_0"] + deals["tricks_1"] == 8).all()
    # total points per deal = 162 x multiplier + all roem
    assert (deals["score_0"] + deals["score_1"]
            == 162 * deals["multiplier"].cast(pl.Int32) + deals["roem_0"] + deals["roem_1"]).all()
    assert (deals["multiplier"].cast(pl.Int32) == 2 ** deals["bid"].cast(pl.Int32)).all()
    for t in range(2):
        assert (deals[f"roem_{t}"] == deals[f"hand_roem_{t}"] + deals[f"stuk_{t}"]
                + deals[f"table_roem_{t}"] + deals[f"pit_roem_{t}"]).all()
        assert (deals[f"table_roem_{t}"] == 0).all()  # no table roem in contra
        assert (deals[f"points_x_{t}"] == deals[f"points_{t}"] * deals["multiplier"].cast(pl.Int16)).all()
        no_trick = deals.filter(pl.col(f"tricks_{t}") == 0)
        assert (no_trick[f"hand_roem_{t}"] == 0).all() and (no_trick[f"stuk_{t}"] == 0).all()
        # only the team holding the highest meld scores hand melds
        assert (deals.filter(pl.col("meld_team") != t)[f"hand_roem_{t}"] == 0).all()
    # every bid level occurs, and the scoring branches with it
    assert set(deals["bid"].unique()) == {0, 1, 2, 3}
    assert deals["nat"].any() and deals["pit"].any() and deals["contested"].any()


def test_contra_rows_follow_the_pure_scoring(contra_run):
    for row in _rows(contra_run["deals"]):
        r = contra_deal_score(row["trump"], row["bid"], row["burden_team"],
                              (row["points_0"], row["points_1"]), (row["roem_0"], row["roem_1"]),
                              (row["tricks_0"], row["tricks_1"]))
        assert r["score"] == [row["score_0"], row["score_1"]]
        assert r["crosses"] == [row["crosses_0"], row["crosses_1"]]
        assert r["nat"] == row["nat"]


def test_contra_crosses_only_where_the_rules_say(contra_run):
    deals = contra_run["deals"]
    spades = pl.when(pl.col("trump") == 3).then(2).otherwise(1)
    for t in range(2):
        pit = pl.when(pl.col(f"tricks_{t}") == 0).then(spades).otherwise(0)
        loser = pl.when(pl.col("nat")).then(pl.col("burden_team")).otherwise(1 - pl.col("burden_team"))
        bid = pl.when((pl.col("bid") > 0) & (loser == t)).then(
            2 ** pl.col("bid").cast(pl.Int32) * spades).otherwise(0)
        assert (deals[f"crosses_{t}"].cast(pl.Int32) == deals.select(pit + bid).to_series()).all()
    quiet = deals.filter((pl.col("bid") == 0) & ~pl.col("pit"))
    assert quiet.height > 0 and (quiet["crosses_0"] == 0).all() and (quiet["crosses_1"] == 0).all()


def test_contra_match_rows(contra_run):
    deals, matches = contra_run["deals"], contra_run["matches"]
    assert matches.height == 300 and (matches["deals"] == 16).all()
    sums = deals.group_by("match_index").agg(
        pl.col("score_0").cast(pl.Int64).sum(), pl.col("score_1").cast(pl.Int64).sum(),
        pl.col("crosses_0").cast(pl.Int64).sum(), pl.col("crosses_1").cast(pl.Int64).sum(),
        (pl.col("declarer") % 2 == 0).sum().alias("declared_0"),
        pl.col("dealer").first(), pl.col("total_0").last(), pl.col("total_1").last(),
    ).sort("match_index")
    m = matches.sort("match_index")
    assert (m["total_0"] == sums["score_0"]).all() and (m["total_1"] == sums["score_1"]).all()
    assert (m["total_0"] == sums["total_0"]).all() and (m["first_dealer"] == sums["dealer"]).all()
    assert (m["declared_0"] == 8).all() and (m["declared_1"] == 8).all()  # forced: 4 per seat
    for row, s in zip(_rows(m), _rows(sums)):
        crosses = [s["crosses_0"], s["crosses_1"]]
        if row["total_0"] != row["total_1"]:
            crosses[0 if row["total_0"] < row["total_1"] else 1] += 4
        assert crosses == [row["crosses_0"], row["crosses_1"]]
        winner = -1 if crosses[0] == crosses[1] else (0 if crosses[0] < crosses[1] else 1)
        assert row["winner"] == winner
    # deal numbering and the rotating dealer
    assert (deals["deal_index"] == deals["match_index"] * MAX_DEALS_PER_MATCH + deals["deal_no"]).all()
    first = deals.group_by("match_index").agg(pl.col("dealer").first().alias("d0"))
    joined = deals.join(first, on="match_index")
    assert (joined["dealer"] == (joined["d0"] + joined["deal_no"]) % 4).all()
    assert (deals["declarer"] == (deals["dealer"] + 1) % 4).all()
    assert (matches["bids_0"] + matches["bids_1"]).sum() == deals["bid"].cast(pl.Int64).sum()


def test_scorebord_rows(scorebord_run):
    deals, matches = scorebord_run["deals"], scorebord_run["matches"]
    assert set(deals["bid"].unique()) == {0, 1, 2}
    assert (deals["multiplier"] == pl.Series([2 if t == 3 else 1 for t in deals["trump"]]).cast(pl.Int8)).all()
    assert deals["table_roem_0"].sum() + deals["table_roem_1"].sum() > 0
    for row in _rows(deals):
        r = scorebord_entry(row["trump"], row["bid"], row["declarer"] % 2,
                            (row["points_0"], row["points_1"]), (row["roem_0"], row["roem_1"]))
        assert r["entry"] == [row["score_0"], row["score_1"]]
        marks = [{"": 0, "NAT": 1, "KRAAK": 2}[m] for m in r["marks"]]
        assert marks == [row["mark_0"], row["mark_1"]]
        assert row["burden_team"] == row["declarer"] % 2
    # the game ends after the first deal with a team at 250 and no exact tie
    for (match,), group in deals.group_by("match_index"):
        t0, t1 = group.sort("deal_no")["total_0"].to_list(), group.sort("deal_no")["total_1"].to_list()
        over = [max(a, b) >= 250 and a != b for a, b in zip(t0, t1)]
        assert over[-1] and not any(over[:-1])
        m = matches.filter(pl.col("match_index") == match).row(0, named=True)
        assert m["deals"] == group.height and (m["total_0"], m["total_1"]) == (t0[-1], t1[-1])
        assert m["winner"] == (0 if t0[-1] > t1[-1] else 1)
        assert m["nat_marks_0"] == (group["mark_0"] == 1).sum()
        assert m["kraak_marks_1"] == (group["mark_1"] == 2).sum()


@pytest.mark.parametrize("run, names", [("contra_run", ("kraak", "rekraak", "superkraak")),
                                        ("scorebord_run", ("kraak", "overkraak"))])
def test_bidding_order_thresholds_and_estimates(run, names, request):
    deals = request.getfixturevalue(run)["deals"]
    params = {p[0]: p[1] for p in (CONTRA_PARAMS if len(names) == 3 else SCOREBORD_PARAMS)}
    params.update(CONTRA_BIDS if len(names) == 3 else {})
    for row in _rows(deals):
        decl = row["declarer"]
        level = 0
        for lv, name in enumerate(names, 1):
            first = (decl + 1) % 4 if lv % 2 else decl
            e1, e2, seat = row[f"est_{name}_1"], row[f"est_{name}_2"], row[f"{name}_seat"]
            threshold = params[f"{name}_threshold"]
            if level < lv - 1:  # nobody decides a level whose previous level was not bid
                assert math.isnan(e1) and math.isnan(e2) and seat == -1
                continue
            assert not math.isnan(e1)
            if e1 >= threshold - 1e-4:
                assert seat == first and math.isnan(e2)
            else:
                assert not math.isnan(e2)
                assert seat == ((first + 2) % 4 if e2 >= threshold - 1e-4 else -1)
            if seat >= 0:
                level = lv
        assert row["bid"] == level
        assert row["bidding_team"] == (-1 if level == 0 else (1 - decl % 2 if level % 2 else decl % 2))
        if level:
            assert row["bid_won"] == int(row[f"would_win_{names[level - 1]}"])
        else:
            assert row["bid_won"] == -1


def test_would_win_matches_the_deal_result(contra_run):
    deals = contra_run["deals"]
    defenders_win = pl.col("nat") == (pl.col("burden_team") == pl.col("declarer") % 2)
    plain = deals.filter(pl.col("bid") == 0)
    # without a bid the playing team carries the burden: defenders would win a kraak iff it goes
    # nat (raw points decide, ties aside)
    tied = (plain["points_0"] + plain["roem_0"]) == (plain["points_1"] + plain["roem_1"])
    untied = plain.filter(~tied)
    assert (untied["would_win_kraak"] == untied.select(defenders_win).to_series()).all()
    assert (untied["would_win_kraak"] == untied["would_win_superkraak"]).all()
    assert (untied["would_win_rekraak"] != untied["would_win_kraak"]).all()


def test_estimates_use_only_what_the_bidder_sees():
    game = simcards.load("kraken-contra")
    base = game.deal(seed=5, index=3)
    hands = [base.game.deck.hand_codes(h) for h in base.dealt]
    first = (base.declarer + 1) % 4
    others = [s for s in range(4) if s != first]
    pool = [c for s in others for c in hands[s]]
    rng = np.random.default_rng(0)
    estimates = set()
    for _ in range(20):
        rng.shuffle(pool)
        moved = list(hands)
        for i, s in enumerate(others):
            moved[s] = pool[8 * i: 8 * i + 8]
        state = game.deal(hands=moved, dealer=base.dealer, trump=SUIT[base.trump])
        assert state.bidding[0]["seat"] == first
        estimates.add(round(state.bidding[0]["estimate"], 9))
    assert len(estimates) == 1


def test_chunking_does_not_change_results():
    game = simcards.load("kraken-scorebord")
    whole = game.simulate_chunk(7, seed=3)
    parts = [game.simulate_chunk(n, seed=3, start=s) for s, n in ((0, 2), (2, 1), (3, 4))]
    for key in ("deals", "matches"):
        joined = pl.concat([p[key] for p in parts])
        assert joined.equals(whole[key])


def test_replay_and_deal_reproduce_a_simulated_deal(contra_run):
    game = simcards.load("kraken-contra")
    bots = {"kind": "heuristic", "params": CONTRA_BIDS}
    for row in _rows(contra_run["deals"].filter(pl.col("bid") > 0), 5):
        rep = game.replay(21, row["deal_index"], bots=bots)
        assert rep["dealer"] == row["dealer"] and rep["trump"] == SUIT[row["trump"]]
        assert rep["bid"] == game.bid_names[row["bid"]]
        res = rep["result"]
        assert res["score"] == [row["score_0"], row["score_1"]]
        assert res["crosses"] == [row["crosses_0"], row["crosses_1"]]
        assert res["roem_hand"] == [row[f"roem_hand_{s}"] for s in range(4)]
        assert rep["bidding"][0]["estimate"] == pytest.approx(row["est_kraak_1"], abs=1e-4)
        state = game.deal(seed=21, index=row["deal_index"], bots=bots)
        assert [int(h) for h in state.dealt] == [row[f"hand_{s}"] for s in range(4)]
        assert state.bid == row["bid"] and state.trump == row["trump"]


@pytest.mark.parametrize("name", ["kraken-contra", "kraken-scorebord"])
def test_the_trace_switch_changes_no_row(name):
    # replay runs the simulation's own loop with the trace switch on: the same frames, plus
    # every deal's 32 cards in play order, legal card by card and reproducing the row
    game = simcards.load(name)
    kinds, params = game.resolve_bots("heuristic")
    frames, traces = game._simulate_traced(5, 3, 2, kinds, params)
    plain = game.simulate_chunk(2, seed=5, start=3)
    for key in ("deals", "matches"):
        assert frames[key].equals(plain[key])
    assert traces.shape == (plain["deals"].height, 32)
    assert (np.sort(traces, axis=1) == np.arange(32)).all()
    for k, row in enumerate(_rows(plain["deals"])):
        if row["deal_no"] >= 3:
            continue
        state = game.state_from_row(row, kinds, params)
        assert state.bid == row["bid"] and state.declarer == row["declarer"]
        for card in traces[k]:
            state.play(game.deck.code(int(card)))
        res = state.result()
        assert res["score"] == [row["score_0"], row["score_1"]]
        assert res["hand_roem"] == [row["hand_roem_0"], row["hand_roem_1"]]
        rep = game.replay(5, row["deal_index"])
        assert [c for t in rep["tricks"] for _, c in t["cards"]] == [game.deck.code(int(c)) for c in traces[k]]
        assert rep["result"] == res and rep["match_index"] == row["match_index"]
        assert round(rep["estimate"]) == row["estimate"]
        if name == "kraken-scorebord":
            assert res["marks"] == [MARK_NAMES[row["mark_0"]], MARK_NAMES[row["mark_1"]]]


def test_interactive_deal_with_a_given_contract():
    game = simcards.load("kraken-contra")
    deck = game.deck.codes
    hands = [list(deck[8 * s: 8 * s + 8]) for s in range(4)]  # clubs, diamonds, hearts, spades
    state = game.deal(hands=hands, dealer=3, trump="C", bid="rekraak")
    assert state.declarer == 0 and state.to_move == 0
    while not state.is_over:
        state.play(state.legal_moves()[0])
    r = state.result()
    # seat 0 holds every club: it wins every trick it leads -> pit for team 0, rekraak made
    assert r["tricks"] == [8, 0] and r["pit"] and r["bid_won"] is True
    assert r["crosses"] == [0, 4 + 1]
    # hand roem: four runs of 5+ (100 each); team 1's 100-runs are diamonds and spades, the
    # best is spades (S > ... ) but team 1 took no trick: void; stuk of clubs for seat 0
    assert r["meld_team"] == 1 and r["hand_roem"] == [0, 0] and r["stuk"] == [20, 0]
    assert r["score"] == [162 * 4 + 20 + 100, 0]
    with pytest.raises(ValueError, match="bid = 'superduper'"):
        game.deal(hands=hands, dealer=3, trump="C", bid="superduper")
    with pytest.raises(ValueError, match="bid = 3"):
        simcards.load("kraken-scorebord").deal(hands=hands, dealer=3, trump="C", bid=3)


@pytest.mark.parametrize("name, options, match", [
    ("kraken-contra", {"max_bid": 4}, "max_bid"),
    ("kraken-scorebord", {"max_bid": 3}, "max_bid"),
    ("kraken-scorebord", {"pit_bonus": 15}, "multiple of 10"),
    ("kraken-contra", {"deals_per_match": 2000}, "deals_per_match"),
    ("kraken-contra", {"target": 250}, "target"),
    ("kraken-scorebord", {"scoreboard_rounding": "up"}, "scoreboard_rounding"),
    ("kraken-contra", {"play_rules": "berlin"}, "play_rules"),
])
def test_bad_options_are_named(name, options, match):
    with pytest.raises(ValueError, match=match):
        simcards.load(name, **options)


def test_options_reach_the_kernel():
    # no bids at all; Rotterdam play; table roem in contra; short matches
    game = simcards.load("kraken-contra", max_bid=0, play_rules="rotterdam", table_roem=True,
                         deals_per_match=4, match_end_crosses=0, pit_cross=False)
    r = game.simulate_chunk(200, seed=1)
    deals, matches = r["deals"], r["matches"]
    assert (deals["bid"] == 0).all() and deals["est_kraak_1"].is_nan().all()
    assert (matches["deals"] == 4).all()
    assert deals["table_roem_0"].sum() + deals["table_roem_1"].sum() > 0
    assert (deals["crosses_0"] == 0).all() and (deals["crosses_1"] == 0).all()
    assert ((matches["crosses_0"] == 0) & (matches["crosses_1"] == 0)).all()
    short = simcards.load("kraken-scorebord", target=30).simulate_chunk(50, seed=1)["matches"]
    assert short["deals"].max() < 12


def test_bot_parameters_and_random_bots():
    game = simcards.load("kraken-contra")
    never = game.simulate_chunk(30, seed=4, bots={"kind": "heuristic", "params": {"kraak_threshold": 999}})
    assert (never["deals"]["bid"] == 0).all()
    always = game.simulate_chunk(30, seed=4, bots={"kind": "heuristic", "params": {"kraak_threshold": -999}})
    assert (always["deals"]["bid"] >= 1).all()
    random = game.simulate_chunk(30, seed=4, bots="random")["deals"]
    assert (random["bid"] == 0).all() and random["est_kraak_1"].is_not_nan().all()
    # the cards do not depend on the bots
    assert random["hand_0"].equals(never["deals"]["hand_0"])
    with pytest.raises(ValueError, match="superkraak_threshold"):
        simcards.load("kraken-scorebord").simulate_chunk(1, bots={"kind": "heuristic",
                                                                  "params": {"superkraak_threshold": 1}})


def test_replay_and_deal_refuse_a_deal_the_run_never_played():
    # a scoreboard game stops once a team reaches the target: later deal indices of that match
    # are no deals of the run (as Hartenjagen/Hearts refuse them)
    game = simcards.load("kraken-scorebord")
    played = int(game.simulate_chunk(1, seed=1)["matches"]["deals"][0])
    game.replay(1, played - 1)
    game.deal(seed=1, index=played - 1)
    # the message names the deal indices the game played: 0 .. played - 1
    refused = (f"deal index {played} is not a deal of a kraken-scorebord run: match 0 has the "
               f"deal indices {', '.join(str(i) for i in range(played))} with these bots")
    with pytest.raises(ValueError, match=refused):
        game.replay(1, played)
    with pytest.raises(ValueError, match=refused):
        game.deal(seed=1, index=played)
    # a contra match has deals_per_match deals: deal() refuses the others as replay() does
    contra = simcards.load("kraken-contra")
    with pytest.raises(ValueError, match="not a deal of a kraken-contra run"):
        contra.deal(seed=1, index=16)
