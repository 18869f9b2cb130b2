"""Skat's double-dummy solver (simcards/games/skat/solver.py) against brute-force minimax.

Positions come from random play of random deals: every contract (the four suits, Grand,
Null), Hand games with and without announcements, Ouvert, pickups with a random discard, bids
that need the Schneider level, a trick part-played or not. The reference
(tests/naive/skat_solver.py) tries every legal card of the naive rules to the end of the deal;
whether a game is won there comes from the public `settle`, line by line.
"""

from __future__ import annotations

import random

import numpy as np
import polars as pl
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import simcards
from naive import skat as NS
from naive import skat_solver as NSS
from simcards.errors import UserError
from simcards.games.skat import settle
from simcards.games.skat import solve
from simcards.games.skat.rules import NULL
from simcards.games.skat.scoring import CONTRACTS
from simcards.games.skat.solver import Solver, with_perfect_play

GAME = simcards.load("skat")
SOLVER = Solver(GAME, tt_bits=12)  # a small table: collisions and replacement get exercised


def _declare(rng, hands, skat, dealer, declarer, contract):
    """A random declaration of ``contract`` the rules allow (the bid, Hand or a discard, the
    announcements, Ouvert), falling back to a plain one at 18."""
    name = CONTRACTS[contract]
    hand = rng.random() < 0.5
    ouvert = rng.random() < 0.15
    schneider = schwarz = False
    if hand and contract != NULL:
        schneider = rng.random() < 0.25
        schwarz = rng.random() < 0.1
    discard = None
    if not hand and not (ouvert and contract != NULL):
        discard = rng.sample(sorted(hands[declarer] + skat), 2)
    bid = rng.choice([18, 18, 20, 24, 36, 48, 60, 72, 96])
    args = dict(dealer=dealer, declarer=declarer, contract=name, hand=hand, schneider=schneider,
                schwarz=schwarz, ouvert=ouvert, discard=discard)
    try:
        return GAME.deal(hands, skat, bid=bid, **args)
    except UserError:
        return GAME.deal(hands, skat, bid=18, **args)


def _random_card(rng, state):
    """A random legal card; in Null the declarer ducks where he can (random play would end
    most Nulls in their first tricks, long before the positions the tests need)."""
    legal = sorted(state.legal_moves())
    if state.contract == NULL and state.to_move == state.declarer:
        null = CONTRACTS[NULL]
        if not state.trick:
            return min(legal, key=lambda c: NS.strength(c, null))
        ducking = [c for c in legal if NS.trick_winner(state.trick + [c], null) != len(state.trick)]
        legal = ducking or legal
    return rng.choice(legal)


def random_position(seed: int, contract: int, cards_left: int):
    """(state, naive position) after random legal play down to ``cards_left`` cards in the
    hands. A Null that ends before is dealt again (hypothesis rejects the rare seed where
    every deal ends early)."""
    rng = random.Random(seed)
    furthest = None  # the Null that got furthest before its declarer took a trick
    for _ in range(30):
        deck = list(GAME.deck.codes)
        rng.shuffle(deck)
        deal = ([deck[10 * s:10 * s + 10] for s in range(3)], deck[30:], rng.randrange(3),
                rng.randrange(3), rng.random())
        hands, skat, dealer, declarer, declaration = deal
        probe = _declare(random.Random(declaration), hands, skat, dealer, declarer, contract)
        moves = []
        while 30 - len(moves) > cards_left and not probe.is_over:
            moves.append(_random_card(rng, probe))
            probe.play(moves[-1])
        if not probe.is_over:
            break
        if furthest is None or len(moves) > len(furthest[1]):
            furthest = (deal, moves[:-1])  # the position before the Null's end
    else:
        deal, moves = furthest
        assume(30 - len(moves) <= 12)  # at most four tricks left for the brute force
        hands, skat, dealer, declarer, declaration = deal
    state = _declare(random.Random(declaration), hands, skat, dealer, declarer, contract)
    pos = NSS.Position([state.hand(s) for s in range(3)], (dealer + 1) % 3, declarer,
                       CONTRACTS[contract], GAME.deck.hand_codes(state.discard))
    for code in moves:
        state.play(code)
        pos.play(code)
    return state, pos


def won_leaf(state):
    cards12 = GAME.deck.hand_codes(state.dealt[state.declarer] | state.skat)
    name = CONTRACTS[state.contract]

    def leaf(points, tricks):
        return int(settle(cards12, name, state.bid, points, tricks, hand=state.hand_game,
                          schneider_announced=state.schneider_announced,
                          schwarz_announced=state.schwarz_announced, ouvert=state.ouvert)["won"])
    return leaf


def _best(values, maximizing):
    target = max(values.values()) if maximizing else min(values.values())
    return {c for c, v in values.items() if v == target}


def check_position(seed, contract, cards_left, with_values):
    state, pos = random_position(seed, contract, cards_left)
    wins = NSS.minimax(pos, won_leaf(state)) == 1
    assert SOLVER.wins(state) == wins
    solution = SOLVER.solve(state, values=with_values)
    assert solution.wins == wins
    declarer_moves = state.to_move == state.declarer
    if contract == NULL:
        assert solution.points is None and solution.schwarz is None
        if with_values:
            reference = NSS.card_values(pos, lambda p, t: int(t == 0))
            assert solution.values == reference
            assert set(solution.best) == _best(reference, declarer_moves)
        return
    points = NSS.minimax(pos, lambda p, t: p)
    most_tricks = NSS.minimax(pos, lambda p, t: t)
    assert SOLVER.points(state) == points
    assert (solution.points, solution.schneider, solution.defenders_schneider) == (
        points, points >= 90, points <= 30)
    assert (solution.schwarz, solution.defenders_schwarz) == (most_tricks == 10, most_tricks == 0)
    if with_values:
        reference = NSS.card_values(pos, lambda p, t: p)
        assert solution.values == reference
        assert set(solution.best) == _best(reference, declarer_moves)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 5), st.integers(1, 9))
def test_solver_equals_minimax_three_tricks_or_fewer(seed, contract, cards_left):
    check_position(seed, contract, cards_left, with_values=True)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 5), st.integers(10, 12))
def test_solver_equals_minimax_four_tricks(seed, contract, cards_left):
    check_position(seed, contract, cards_left, with_values=False)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 5), st.integers(1, 18))
def test_following_the_best_cards_reaches_the_value(seed, contract, cards_left):
    """From any position, playing a best card each turn (a random one of them, for every seat)
    is legal and ends the deal with the value the first solve reported."""
    state, _ = random_position(seed, contract, cards_left)
    rng = random.Random(seed)
    first = SOLVER.solve(state)
    while not state.is_over:
        solution = SOLVER.solve(state)
        assert (solution.points, solution.wins) == (first.points, first.wins)
        code = rng.choice(solution.best)
        assert code in state.legal_moves()
        state.play(code)
    result = state.result()
    if contract == NULL:
        assert (result["tricks_declarer"] == 0) == first.wins
    else:
        assert result["points_declarer"] == first.points


# ---- golden hands


def test_every_jack_and_ace_wins_a_grand():
    """Forehand holds the four jacks and the four aces: a Grand Hand he cannot lose, with every
    trick his (the jacks draw the trumps, the aces then take their suits)."""
    hands = [["JC", "JS", "JH", "JD", "AC", "AS", "AH", "AD", "10C", "10S"],
             ["KC", "QC", "9C", "8C", "7C", "KS", "QS", "9S", "8S", "7S"],
             ["10H", "KH", "QH", "9H", "8H", "7H", "10D", "KD", "QD", "9D"]]
    state = GAME.deal(hands, ["8D", "7D"], dealer=2, declarer=0, contract="grand", hand=True)
    solution = solve(state)
    assert (solution.points, solution.wins, solution.schneider, solution.schwarz) == (120, True, True, True)
    assert set(solution.best) <= set(hands[0]) and solution.best


def test_null_of_sevens_and_eights_is_won():
    """A Null Hand of the four sevens, the four eights and two nines cannot take a trick."""
    hands = [["7C", "8C", "9C", "7S", "8S", "9S", "7H", "8H", "7D", "8D"],
             ["AC", "KC", "QC", "JC", "10C", "AS", "KS", "QS", "JS", "10S"],
             ["AH", "KH", "QH", "JH", "10H", "9H", "AD", "KD", "QD", "JD"]]
    state = GAME.deal(hands, ["10D", "9D"], dealer=2, declarer=0, contract="null", hand=True)
    solution = solve(state, values=True)
    assert solution.wins and set(solution.values.values()) == {1}


def test_null_with_a_lone_ace_is_lost():
    """A Null whose declarer holds the ace of clubs alone: the defender with clubs gets the lead
    through his spades (every one above the declarer's) and leads a club into it."""
    hands = [["AC", "7S", "8S", "9S", "7H", "8H", "9H", "7D", "8D", "9D"],
             ["7C", "8C", "9C", "10C", "JC", "QC", "KC", "AS", "KS", "QS"],
             ["JS", "10S", "AH", "KH", "QH", "JH", "10H", "AD", "KD", "QD"]]
    state = GAME.deal(hands, ["JD", "10D"], dealer=2, declarer=0, contract="null", hand=True)
    solution = solve(state, values=True)
    assert not solution.wins and set(solution.values.values()) == {0}


def test_schneider_announced_needs_ninety():
    """A Clubs Hand with Schneider announced is won only at 90 points: the same cards win
    without the announcement and lose with it when perfect defence keeps them below 90."""
    hands = [["JC", "JS", "AC", "10C", "KC", "QC", "AS", "7H", "8H", "7D"],
             ["JH", "9C", "8C", "10S", "KS", "AH", "10H", "KH", "AD", "10D"],
             ["JD", "7C", "QS", "9S", "8S", "7S", "QH", "9H", "KD", "QD"]]
    plain = GAME.deal(hands, ["9D", "8D"], dealer=2, declarer=0, contract="clubs", hand=True)
    announced = GAME.deal(hands, ["9D", "8D"], dealer=2, declarer=0, contract="clubs", hand=True,
                          schneider=True)
    points = solve(plain).points
    assert solve(announced).points == points
    assert solve(plain).wins == (points >= 61)
    assert solve(announced).wins == (points >= 90)
    assert 61 <= points < 90  # the cards were chosen for it: the announcement decides


def _quick_tricks_at_start(hands, skat, declarer):
    """`_quick_tricks` of forehand (seat 0: dealer 2) at the start of a Clubs Hand game."""
    from simcards.games.skat import _solve_kernels as SK

    state = GAME.deal(hands, skat, dealer=2, declarer=declarer, contract="clubs", hand=True)
    solver = Solver(GAME)
    solver._start(state)  # the solve's context: hands, contract, suit orders
    remaining = sum(GAME.deck.parse_hand(hand) for hand in hands)
    return int(SK._quick_tricks(solver.ctx, GAME.tables, remaining, 0))


def test_quick_tricks_count_the_cashable_top_cards():
    """The declarer leads: his AS 10S KS top the spades, but the defender with trumps holds two
    spades, so two cash (21 points, and that defender's cheapest two spades 9S QS: 3; the other
    defender, without trumps, follows once with 8S); then JC JS draw two trumps from the
    defender who holds them (his cheapest, 9C 8C: 0). His hearts and diamonds are not top."""
    hands = [["AS", "10S", "KS", "JC", "JS", "7H", "8H", "7D", "8D", "9D"],
             ["QS", "9S", "JH", "JD", "AC", "10C", "KC", "QC", "9C", "8C"],
             ["8S", "AH", "10H", "KH", "QH", "9H", "AD", "10D", "KD", "QD"]]
    assert _quick_tricks_at_start(hands, ["7S", "7C"], declarer=0) == 11 + 10 + 3 + 0 + 2 + 2


def test_quick_tricks_stop_where_the_partner_would_have_to_ruff():
    """A defender leads from aces and tens, but his partner holds nothing but trumps: void, the
    partner must ruff his winners and take the lead, so none of them counts as cashed."""
    hands = [["AS", "10S", "KS", "QS", "AH", "10H", "KH", "AD", "10D", "KD"],
             ["JC", "JS", "JH", "JD", "AC", "10C", "KC", "QC", "9C", "8C"],
             ["7C", "9S", "8S", "7S", "QH", "9H", "8H", "7H", "QD", "9D"]]
    assert _quick_tricks_at_start(hands, ["8D", "7D"], declarer=2) == 0


def test_a_finished_deal_is_refused():
    state = GAME.deal(seed=3, index=0)
    while not state.is_over:
        state.play(state.legal_moves()[0])
    with pytest.raises(UserError, match="over"):
        solve(state)


# ---- the double_dummy columns


def test_double_dummy_columns_match_the_solver_and_chunking():
    """dd_points / dd_wins of a run equal a solve of each deal's start of play, the same
    whether the deals come in one chunk or two; the option off leaves the data as it was."""
    on = simcards.load("skat", double_dummy=True)
    whole = on.simulate(5, seed=17)
    split = pl.concat([on.simulate_chunk(2, seed=17, start=0)["deals"],
                       on.simulate_chunk(3, seed=17, start=2)["deals"]])
    assert whole.equals(split)
    assert set(whole["contract"].to_list()) >= {-1, 5}  # a passed-in deal and a Null among them
    plain = GAME.simulate(5, seed=17)
    assert whole.drop("dd_points", "dd_wins", "dd_lost_declarer", "dd_lost_defenders").equals(plain)
    for row in whole.iter_rows(named=True):
        if row["contract"] == -1:
            assert row["dd_points"] is None and row["dd_wins"] is None
            assert row["dd_lost_declarer"] is None and row["dd_lost_defenders"] is None
            continue
        state = GAME.state_from_row(row)
        assert row["dd_wins"] == SOLVER.wins(state)
        assert row["dd_points"] == (None if row["contract"] == NULL else SOLVER.points(state))


def test_lost_points_account_for_the_gap():
    """In every suit and Grand game each side's losses are never negative, and the bots'
    declarer points are the perfect-play points minus what the declarer gave away plus what the
    defenders gave away; Null and passed-in deals have none."""
    deals = simcards.load("skat", double_dummy=True).simulate(12, seed=23, bots="random")
    scored = deals.filter(pl.col("contract").is_between(0, 4))
    assert scored.height >= 3
    lost_declarer = scored["dd_lost_declarer"].cast(pl.Int32)
    lost_defenders = scored["dd_lost_defenders"].cast(pl.Int32)
    assert (lost_declarer >= 0).all() and (lost_defenders >= 0).all()
    assert (scored["points_declarer"].cast(pl.Int32)
            == scored["dd_points"].cast(pl.Int32) - lost_declarer + lost_defenders).all()
    assert (lost_declarer + lost_defenders > 0).any()  # random play gives points away
    others = deals.filter(~pl.col("contract").is_between(0, 4))
    assert others["dd_lost_declarer"].is_null().all() and others["dd_lost_defenders"].is_null().all()


def test_loss_columns_hold_sums_past_127(monkeypatch):
    """A side's losses add up every card's move, so they can pass 127 when both sides err (a
    2,000-deal run met one): the columns keep such sums and the columns' declared type."""
    import importlib

    from simcards.games.skat.columns import DOUBLE_DUMMY_COLUMNS

    module = importlib.import_module("simcards.games.skat.solver")
    solve_rows = module._solve_rows

    def with_large_losses(game, deals, traces):
        points, wins, nodes, lost = solve_rows(game, deals, traces)
        return points, wins, nodes, np.where(lost >= 0, lost + 200, lost)

    monkeypatch.setattr(module, "_solve_rows", with_large_losses)
    on = simcards.load("skat", double_dummy=True)
    kinds, params = on.resolve_bots("heuristic")
    frames, traces = on._simulate_traced(17, 0, 3, kinds, params)
    deals = with_perfect_play(on, frames["deals"], traces)
    scored = deals.filter(pl.col("contract").is_between(0, 4))
    assert scored.height and (scored["dd_lost_declarer"] >= 200).all()
    declared = {column.name: column.dtype for column in DOUBLE_DUMMY_COLUMNS}
    for name in ("dd_lost_declarer", "dd_lost_defenders"):
        assert deals.schema[name] == declared[name]


def test_lost_points_follow_the_solver_card_by_card():
    """The loss columns against the public solver (checked against brute force above) run
    position by position along a game's cards: the value before a card minus the value after
    it, summed per side."""
    on = simcards.load("skat", double_dummy=True)
    kinds, params = on.resolve_bots("heuristic")
    frames, traces = on._simulate_traced(17, 0, 5, kinds, params)
    deals = with_perfect_play(on, frames["deals"], traces)
    checked = 0
    for k, row in enumerate(deals.iter_rows(named=True)):
        if not 0 <= row["contract"] <= 4 or checked == 2:
            continue
        state = GAME.state_from_row(row)
        value = SOLVER.points(state)
        assert value == row["dd_points"]
        lost = [0, 0]
        for card in traces[k]:
            if card < 0:
                break
            declarer = state.to_move == row["declarer"]
            state.play(GAME.deck.code(int(card)))
            if state.is_over:
                break
            after = SOLVER.points(state)
            lost[0 if declarer else 1] += (value - after) if declarer else (after - value)
            value = after
        assert (row["dd_lost_declarer"], row["dd_lost_defenders"]) == tuple(lost)
        checked += 1
    assert checked == 2


def test_report_answers_against_perfect_play(tmp_path):
    """The report's section opens with the win rates under perfect play beside the bots' and the
    points gap; a run without the columns has no such section."""
    from simcards.games.skat import report

    deals = simcards.load("skat", double_dummy=True).simulate(5, seed=17).lazy()
    section = report.perfect_play_section(deals, tmp_path)
    assert section.title == "Against perfect play"
    assert any(line.startswith("all games: the declarer wins") for line in section.headlines)
    assert any("Depends on the bots" in line for line in section.headlines)
    games = deals.collect().filter(pl.col("contract") < 5).filter(pl.col("contract") >= 0)
    lost_line = next(line for line in section.headlines if "leaves points on the table" in line)
    assert f"{games['dd_lost_declarer'].mean():.0f}" in lost_line
    assert f"{games['dd_lost_defenders'].mean():.0f}" in lost_line
    assert any(table.name == "perfect_play_lost" for table in section.tables)
    # a run made before the loss columns: the section without them
    old = report.perfect_play_section(deals.drop("dd_lost_declarer", "dd_lost_defenders"), tmp_path)
    assert not any("leaves points on the table" in line for line in old.headlines)
    assert (tmp_path / "perfect_play_gap.png").exists()
    assert report.perfect_play_section(GAME.simulate(5, seed=17).lazy(), tmp_path) is None
