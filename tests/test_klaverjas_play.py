"""Simulated Klaverjassen deals: invariants over many deals, replays checked card by card
against the reference (tests/naive.py), and reproducibility of (seed, deal index)."""

import numpy as np
import polars as pl
import pytest

import simcards
from naive import klaverjas as naive

ROTTERDAM, AMSTERDAM = "klaverjas-rotterdam", "klaverjas-amsterdam"
BOTH = [ROTTERDAM, AMSTERDAM]
N = 20_000
SEED = 11


@pytest.fixture(scope="module")
def runs():
    cache = {}

    def get(name, bots, n=N, seed=SEED, **options):
        key = (name, repr(bots), n, seed, repr(sorted(options.items())))
        if key not in cache:
            cache[key] = simcards.load(name, **options).simulate(n, seed=seed, bots=bots)
        return cache[key]

    return get


def col(df, name):
    return df[name].to_numpy().astype(np.int64)


def check_invariants(df, game):
    opts = game.options
    n = df.height
    assert col(df, "deal_index").tolist() == list(range(col(df, "deal_index")[0],
                                                        col(df, "deal_index")[0] + n))
    assert (col(df, "dealer") == col(df, "deal_index") % 4).all()
    hands = np.stack([col(df, f"hand_{i}") for i in range(4)])
    assert (np.bitwise_or.reduce(hands, axis=0) == 0xFFFFFFFF).all()
    bits = sum((hands >> b) & 1 for b in range(32))
    assert (bits == 8).all()  # eight cards each, together the whole deck: a partition
    points = np.stack([col(df, "points_0"), col(df, "points_1")])
    roem = np.stack([col(df, "roem_0"), col(df, "roem_1")])
    tricks = np.stack([col(df, "tricks_0"), col(df, "tricks_1")])
    score = np.stack([col(df, "score_0"), col(df, "score_1")])
    assert (points.sum(axis=0) == 162).all()
    assert (tricks.sum(axis=0) == 8).all()
    assert (roem % 10 == 0).all() and (roem >= 0).all()
    if not opts["table_roem"]:
        assert set(np.unique(roem)) <= {0, opts["pit_bonus"]}
    # a team without a trick has no points and no roem
    assert (points[tricks == 0] == 0).all() and (roem[tricks == 0] == 0).all()
    pit = col(df, "pit").astype(bool)
    assert (pit == ((tricks[0] == 8) | (tricks[1] == 8))).all()
    declarer_team = col(df, "declarer") % 2
    for team in range(2):
        pit_team = tricks[team] == 8
        counts = pit_team & ((declarer_team == team) | opts["defenders_pit"])
        if opts["pit_bonus"]:
            assert (roem[team][counts] >= opts["pit_bonus"]).all()
    # nat and score follow the rules
    mine = np.where(declarer_team == 0, points[0] + roem[0], points[1] + roem[1])
    theirs = np.where(declarer_team == 0, points[1] + roem[1], points[0] + roem[0])
    nat = mine <= theirs if opts["nat_on_tie"] else mine < theirs
    assert (col(df, "nat").astype(bool) == nat).all()
    for team in range(2):
        playing = declarer_team == team
        want = np.where(nat, np.where(playing, 0, 162 + roem[0] + roem[1]), points[team] + roem[team])
        assert (score[team] == want).all()
    assert (score[:, nat].min(axis=0) == 0).all()
    # contract
    assert set(np.unique(col(df, "trump"))) <= {0, 1, 2, 3}
    forehand = (col(df, "dealer") + 1) % 4
    if opts["trump_selection"] != "free":
        assert (col(df, "declarer") == forehand).all()
    # hand melds as the reference computes them, on a sample
    ranks = opts["hand_four_kind_ranks"]
    trump = col(df, "trump")
    for k in range(0, n, max(1, n // 500)):
        for seat in range(4):
            cards = naive.mask_cards(int(hands[seat][k]))
            assert df[f"roem_hand_{seat}"][k] == naive.hand_melds(cards, int(trump[k]), ranks)


@pytest.mark.parametrize("name", BOTH)
@pytest.mark.parametrize("bots", ["random", "heuristic", ["heuristic", "random", "random", "heuristic"]])
def test_invariants(runs, name, bots):
    df = runs(name, bots)
    assert df.height == N
    check_invariants(df, simcards.load(name))
    assert df["deal_index"].to_list() == list(range(N))


@pytest.mark.parametrize("name, bots, options", [
    (ROTTERDAM, "heuristic", {"trump_selection": "free"}),
    (AMSTERDAM, "random", {"trump_selection": "free"}),
    (AMSTERDAM, "heuristic", {"trump_selection": "random", "nat_on_tie": False}),
    (ROTTERDAM, "random", {"defenders_pit": False, "pit_bonus": 150, "table_roem": False}),
    (AMSTERDAM, "heuristic", {"four_kind_ranks": ["7", "J"], "hand_four_kind_ranks": ["A", "J"]}),
])
def test_invariants_with_options(runs, name, bots, options):
    df = runs(name, bots, n=5000, **options)
    check_invariants(df, simcards.load(name, **options))


def test_free_selection_lets_other_seats_declare(runs):
    df = runs(ROTTERDAM, "heuristic", n=5000, trump_selection="free")
    forehand = (col(df, "dealer") + 1) % 4
    declared_by = (col(df, "declarer") - forehand) % 4
    # every position gets to take the game sometimes, and forehand most often (it speaks first
    # and must play when all pass)
    counts = np.bincount(declared_by, minlength=4)
    assert (counts > 0).all() and counts[0] == counts.max()
    # random bots never volunteer, so forehand always plays
    df = runs(ROTTERDAM, "random", n=5000, trump_selection="free")
    assert (col(df, "declarer") == (col(df, "dealer") + 1) % 4).all()


def test_random_trump_is_uniform(runs):
    df = runs(AMSTERDAM, "heuristic", n=5000, trump_selection="random", nat_on_tie=False)
    counts = np.bincount(col(df, "trump"), minlength=4)
    assert abs(counts - 1250).max() < 4 * np.sqrt(5000 * 0.25 * 0.75)


def test_random_bots_nat_and_pit_rates_are_plausible(runs):
    for name in BOTH:
        df = runs(name, "random")
        assert 0.15 < df["nat"].mean() < 0.6
        assert 0 < df["pit"].mean() < 0.05
        assert (col(df, "roem_0") + col(df, "roem_1") > 0).mean() > 0.1


def test_amsterdam_saves_trumps_so_pits_come_easier(runs):
    # docs/rules.md: Amsterdam rules spare trumps, making a pit easier than in Rotterdam
    rot = runs(ROTTERDAM, "heuristic")["pit"].mean()
    ams = runs(AMSTERDAM, "heuristic")["pit"].mean()
    assert ams > rot


# ------------------------------------------------------------------ replays card by card


def replay_check(game, seed, index, bots, row):
    rep = game.replay(seed, index, bots)
    hands = [naive.cards(h) for h in rep["hands"]]
    assert sorted(c for h in hands for c in h) == list(range(32))
    for seat in range(4):
        assert naive.cards_mask(hands[seat]) == row[f"hand_{seat}"]
    trump = "CDHS".index(rep["trump"])
    assert (rep["dealer"], trump, rep["declarer"]) == (row["dealer"], row["trump"], row["declarer"])
    rules = naive.Rules(amsterdam=game.amsterdam,
                        **{k: game.options[k] for k in ("table_roem", "four_kind_ranks", "pit_bonus",
                                                        "defenders_pit", "nat_on_tie",
                                                        "hand_four_kind_ranks")})
    ref = naive.Deal(hands, rep["dealer"], trump, rep["declarer"], rules)
    played = []
    assert len(rep["tricks"]) == 8
    for trick in rep["tricks"]:
        assert trick["leader"] == ref.to_move
        for seat, code in trick["cards"]:
            c = naive.card(code)
            assert seat == ref.to_move
            assert c in ref.legal(), (index, code)
            assert c in hands[seat]
            ref.play(c)
            played.append(c)
        assert trick["winner"] == ref.winners[-1]
    assert sorted(played) == list(range(32))  # every card exactly once
    want = ref.result()
    got = rep["result"]
    for key in ("points", "roem", "tricks", "pit", "nat", "score", "roem_hand"):
        assert got[key] == want[key], key
    assert got["points"] == [row["points_0"], row["points_1"]]
    assert got["roem"] == [row["roem_0"], row["roem_1"]]
    assert got["tricks"] == [row["tricks_0"], row["tricks_1"]]
    assert got["score"] == [row["score_0"], row["score_1"]]
    assert got["nat"] == row["nat"] and got["pit"] == row["pit"]
    assert got["roem_hand"] == [row[f"roem_hand_{i}"] for i in range(4)]


@pytest.mark.parametrize("name", BOTH)
@pytest.mark.parametrize("bots", ["random", "heuristic", ["random", "heuristic", "heuristic", "random"]])
def test_replays_are_legal_and_match_the_rows(runs, name, bots):
    game = simcards.load(name)
    df = runs(name, bots)
    for index in range(0, N, N // 100):  # 100 deals per case, 600 in all
        replay_check(game, SEED, index, bots, df.row(index, named=True))


def test_replay_with_options_matches_rows():
    options = {"trump_selection": "free", "nat_on_tie": False, "four_kind_ranks": ["A"],
               "hand_four_kind_ranks": ["J", "Q"]}
    game = simcards.load(AMSTERDAM, **options)
    df = game.simulate(300, seed=3, bots="heuristic", start=1000)
    for k in range(0, 300, 3):
        replay_check(game, 3, 1000 + k, "heuristic", df.row(k, named=True))


# ------------------------------------------------------------------ reproducibility


@pytest.mark.parametrize("name", BOTH)
def test_chunks_concatenate_to_the_whole_run(name):
    game = simcards.load(name)
    whole = game.simulate(3000, seed=99, bots="heuristic")
    parts = [game.simulate(n, seed=99, bots="heuristic", start=start)
             for start, n in [(0, 1000), (1000, 1), (1001, 1199), (2200, 800)]]
    assert pl.concat(parts).equals(whole)
    assert game.simulate(500, seed=99, bots="heuristic", start=1500).equals(whole.slice(1500, 500))
    assert game.simulate(0, seed=99).height == 0
    other = game.simulate(3000, seed=100, bots="heuristic")
    assert not other["hand_0"].equals(whole["hand_0"])


def test_deals_do_not_depend_on_bots_or_rules(runs):
    a = runs(ROTTERDAM, "random")
    b = runs(AMSTERDAM, "heuristic")
    for i in range(4):
        assert a[f"hand_{i}"].equals(b[f"hand_{i}"])


@pytest.mark.parametrize("name", BOTH)
def test_deal_by_seed_and_index_rebuilds_the_row(runs, name):
    game = simcards.load(name)
    df = runs(name, "heuristic")
    for index in [0, 1, 2, 3, 777, 12_345, N - 1]:
        row = df.row(index, named=True)
        state = game.deal(seed=SEED, index=index)
        assert state.dealt == [row[f"hand_{i}"] for i in range(4)]
        assert state.dealer == row["dealer"] == index % 4
        assert (state.trump, state.declarer) == (row["trump"], row["declarer"])
        assert state.to_move == (index + 1) % 4
        # playing it out with the heuristic's own choices is the replay
        rep = game.replay(SEED, index, "heuristic")
        for trick in rep["tricks"]:
            for _, code in trick["cards"]:
                state.play(code)
        assert state.result() == rep["result"]


@pytest.mark.parametrize("bots", ["random", ["random", "heuristic", "heuristic", "random"]])
def test_deal_by_seed_chooses_the_contract_as_the_run(runs, bots):
    for options in ({}, {"trump_selection": "free"}, {"trump_selection": "random"}):
        game = simcards.load(AMSTERDAM, **options)
        df = game.simulate(200, seed=SEED, bots=bots)
        for index in range(0, 200, 7):
            state = game.deal(seed=SEED, index=index, bots=bots)
            assert (state.trump, state.declarer) == (df["trump"][index], df["declarer"][index])


def test_run_arguments_are_checked():
    game = simcards.load(ROTTERDAM)
    for kwargs, text in [({"n": -1}, "n = -1"), ({"n": 2.5}, "n = 2.5"),
                         ({"n": 5, "seed": -3}, "seed = -3"), ({"n": 5, "start": "0"}, "start = '0'")]:
        with pytest.raises(ValueError, match=text):
            game.simulate(**kwargs)
    with pytest.raises(ValueError, match="index = -1"):
        game.replay(1, -1)
