"""One deal of a run, trick by trick, as the run played it (`simcards replay`, `game.replay`).

Generic for every ruleset: the game's batch loop simulates the deal's unit (a deal, or the match
it belongs to) with its trace switch on (`Game.run_deal`, `Game._simulate_traced`), the game turns the deal's row
into an interactive state (`Game.state_from_row`) and a header (`Game.replay_header`), and the
traced cards are then played on that state, so a replay is legal card by card and reproduces
the row. `Game.trick_snapshot` and `Game.trick_record` may add per-trick fields. With
``perfect_play`` each card also gets what it gave away against perfect play, from the judge of
the game's solver (``game.solver``; rulesets without one refuse).
"""

from __future__ import annotations

from typing import Any

from simcards.errors import check_count
from simcards.games.registry import require_solver
from simcards.games.seating import with_bots


def replay(game, seed: int, index: int, bots: Any = "heuristic", perfect_play: bool = False) -> dict:
    """Global deal ``index`` (the ``deal_index`` column) of a run of ``game`` with ``seed`` and
    ``bots``, trick by trick, with the game's header and the result.

    ``perfect_play``: also value every position under perfect play (the judge of
    ``game.solver``). Each trick then lists what each of its cards gave away (``gave_away``: the
    value before the card minus the value after it, from the point of view of the card's side;
    0 for a card that was the only legal one) and, for a card that gave something away, the
    cards that would have kept the value (``best``, else None), and ``perfect_play`` sums it
    up: the value at the start of play, at the end (the result the bots reached) and what each
    side gave away. The start value minus what the declaring side gave away plus what the other
    side gave away is the end value."""
    seed, index = check_count("seed", seed), check_count("index", index)

    def work(kinds, params):
        row, trace = game.run_deal(seed, index, kinds, params)
        return row, trace, game.state_from_row(row, kinds, params)

    row, trace, state = with_bots(game, bots, work)
    if perfect_play:
        require_solver(game)
    judge = game.solver.judge(state) if perfect_play else None
    header = game.replay_header(row, state)
    value = start = judge.value(state) if judge is not None else 0
    given = [0, 0]  # the declaring side's cards, the other side's
    tricks = []
    n_seats = game.n_seats
    for k, card in enumerate(trace):
        if card < 0:  # the deal ended before every card was played
            break
        if k % n_seats == 0:
            tricks.append({"leader": state.to_move, "cards": []})
            before = game.trick_snapshot(state)
        seat = state.to_move
        code = game.deck.code(int(card))
        if judge is not None:
            declaring = judge.declaring(state)
            forced = len(state.legal_moves()) == 1
            position = state.snapshot()
        state.play(code)
        tricks[-1]["cards"].append((seat, code))
        if judge is not None:
            after = value if forced else judge.value(state)
            gave = value - after if declaring else after - value
            given[0 if declaring else 1] += gave
            tricks[-1].setdefault("gave_away", []).append(gave)
            tricks[-1].setdefault("best", []).append(judge.best(position) if gave else None)
            value = after
        if k % n_seats == n_seats - 1:
            tricks[-1]["winner"] = state.last_winner
            tricks[-1].update(game.trick_record(state, before))
    story = {**header, "tricks": tricks, "result": state.result()}
    if judge is not None:
        story["perfect_play"] = {"unit": judge.unit, "start": start, "end": value,
                                 "declaring_side_gave_away": given[0],
                                 "other_side_gave_away": given[1]}
    return story
