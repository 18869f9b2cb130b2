"""OpenSpiel's ``hearts`` as a reference: option mapping, the cross-check driver, and the
Python-API random-play benchmark (`bench_openspiel_hearts`). pyspiel is imported lazily, so
simcards never needs OpenSpiel unless these functions are called.

Conventions mapped here:
- Cards: OpenSpiel action ``rank * 4 + suit`` (ranks 2..A = 0..12, suits C D H S = 0..3);
  simcards id ``suit * 13 + rank``.
- Seats: OpenSpiel players 0..3 (N, E, S, W) play clockwise like simcards seats 0..3; the k-th
  dealing chance action goes to player ``k % 4``.
- Passing: OpenSpiel's first chance outcome is the pass direction 0 none, 1 left, 2 across,
  3 right, and a card passed by player p goes to ``(p + direction) % 4``: the same numbers as
  the ``pass_dir`` column. Players pass in order 0, 1, 2, 3.
- Scoring: OpenSpiel keeps ``points`` (1 per heart, 13 for the QS; a moon adds +26 to the
  others and -26 to the shooter, so the shooter ends at 0) and returns ``26 - points``. Its
  points equal simcards' deal score change with ``moon = "others"``.
- Options: ``pass_cards`` <- ``passing``; ``no_pts_on_first_trick`` <- ``no_points_first_trick``;
  ``must_break_hearts`` <- ``must_break_hearts``; ``qs_breaks_hearts`` <- ``qs_breaks_hearts``;
  ``jd_bonus``, ``avoid_all_tricks_bonus``, ``can_lead_any_club`` and
  ``can_lead_hearts_instead_of_qs`` are always False (simcards has no such rules).
"""

from __future__ import annotations

import random

import numpy as np

from simcards.games.openspiel_loop import random_play_rate
from simcards.cards import DECK52


def os_action(card: int) -> int:
    """simcards 52-card id -> OpenSpiel action."""
    return (card % 13) * 4 + card // 13


def our_card(action: int) -> int:
    """OpenSpiel action -> simcards 52-card id."""
    return (action % 4) * 13 + action // 4


def openspiel_params(options: dict) -> dict:
    """OpenSpiel hearts parameters matching simcards ``hearts`` options."""
    return {
        "pass_cards": bool(options.get("passing", True)),
        "no_pts_on_first_trick": bool(options.get("no_points_first_trick", True)),
        "must_break_hearts": bool(options.get("must_break_hearts", True)),
        "qs_breaks_hearts": bool(options.get("qs_breaks_hearts", False)),
        "jd_bonus": False,
        "avoid_all_tricks_bonus": False,
        "can_lead_any_club": False,
        "can_lead_hearts_instead_of_qs": False,
    }


def load_openspiel_hearts(**options):
    import pyspiel

    return pyspiel.load_game("hearts", openspiel_params(options))


def deal_openspiel(game, hands, pass_dir: int = 0):
    """A new OpenSpiel state with the pass direction and the four hands (masks of simcards ids)
    dealt, before any passing."""
    state = game.new_initial_state()
    state.apply_action(int(pass_dir))
    cards = [[os_action(c) for c in range(52) if int(hands[seat]) >> c & 1] for seat in range(4)]
    for k in range(52):
        state.apply_action(cards[k % 4][k // 4])
    return state


def mask_of_actions(actions) -> int:
    mask = 0
    for a in actions:
        mask |= 1 << our_card(a)
    return mask


def cross_check(n_games: int, seed: int = 0, steps: list | None = None, **options) -> list[str]:
    """Play ``n_games`` uniformly random deals of simcards ``hearts`` (with ``options``) and of
    OpenSpiel's hearts side by side, card by card: returns every disagreement (legal moves at
    any step, or the points at the end) as text; an empty list means full agreement. With
    ``passing`` the pass direction cycles with the game number and passes are random."""
    from simcards.games.hearts import _kernels as K
    from simcards.games.registry import load

    options = {"moon": "others", **options}
    ours = load("hearts", **options)
    game = load_openspiel_hearts(**options)
    rng = random.Random(seed)
    problems: list[str] = []
    passing = bool(ours.options["passing"])
    for g in range(n_games):
        ids = list(range(52))
        rng.shuffle(ids)
        dealt = np.array([sum(1 << c for c in ids[13 * s:13 * s + 13]) for s in range(4)],
                         dtype=np.int64)
        pass_dir = (0, 1, 3, 2)[g % 4] if passing else 0
        os_state = deal_openspiel(game, dealt, pass_dir)
        held = dealt.copy()
        if pass_dir:
            passes = np.zeros(4, dtype=np.int64)
            for seat in range(4):
                chosen = rng.sample([c for c in range(52) if int(dealt[seat]) >> c & 1], 3)
                for c in chosen:
                    passes[seat] |= 1 << c
                    os_state.apply_action(os_action(c))
            K.apply_passes(held, passes, pass_dir)
        state = ours.deal(hands=[DECK52.hand_codes(int(h)) for h in held], dealer=g % 4,
                          bots="random")
        step = 0
        while not os_state.is_terminal():
            if os_state.current_player() != state.to_move:
                problems.append(f"game {g} step {step}: OpenSpiel has player "
                                f"{os_state.current_player()} to move, simcards seat {state.to_move}")
                break
            legal = os_state.legal_actions()
            ours_mask = state.legal_mask()
            theirs = mask_of_actions(legal)
            if ours_mask != theirs:
                problems.append(
                    f"game {g} step {step} seat {state.to_move}: simcards legal "
                    f"{DECK52.hand_codes(ours_mask)}, OpenSpiel {DECK52.hand_codes(theirs)}; "
                    f"history {[c for _, c in state.history]}")
                break
            action = legal[rng.randrange(len(legal))]
            os_state.apply_action(action)
            state.play(DECK52.code(our_card(action)))
            step += 1
        if steps is not None:
            steps.append(step)
        if os_state.is_terminal():
            if not state.is_over:
                problems.append(f"game {g}: OpenSpiel ended, simcards did not")
                continue
            os_points = [round(26 - r) for r in os_state.returns()]
            our_points = state.result()["score"]
            if os_points != our_points:
                problems.append(f"game {g}: points simcards {our_points}, OpenSpiel {os_points}; "
                                f"history {[c for _, c in state.history]}")
    return problems


def bench_openspiel_hearts(n_games: int | float = 2000, seed: int = 0, *,
                           seconds: float | None = None) -> float:
    """Games (= deals) per second of uniformly random Hearts driven through OpenSpiel's Python
    API (chance outcomes and legal actions drawn uniformly, no passing), on one core: the figure
    scripts/bench.py sets beside simcards' random-play deals per second.

    ``n_games`` (an int) plays that many games; a time budget instead, as ``seconds=`` or as a
    float ``n_games`` (``bench_openspiel_hearts(3.0)``), plays games until it is spent."""
    import pyspiel

    game = pyspiel.load_game("hearts", openspiel_params({"passing": False}))
    return random_play_rate(game, n_games, seed, seconds=seconds)


def openspiel_moon_rate(n_games: int = 200_000, seed: int = 1) -> tuple[int, int]:
    """(moons, games) of uniformly random Hearts through OpenSpiel's Python API, its default
    rules (passing in a random direction, hearts must be broken, no points on the first trick):
    the reference the Hearts report sets beside the bots' moon rate (game.py). A moon leaves the
    shooter at 0 points and the others at 26 each (returns 26, 0, 0, 0). 200,000 games take
    about 5 minutes on one core."""
    import pyspiel

    game = pyspiel.load_game("hearts")
    rng = random.Random(seed)
    moons = 0
    for _ in range(n_games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        moons += sorted(state.returns()) == [0, 0, 0, 26]
    return moons, n_games
