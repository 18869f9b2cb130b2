"""OpenSpiel's ``skat`` as a reference: the card and seat mapping, the cross-check driver and
the Python-API random-play benchmark (`bench_openspiel_skat`). pyspiel is imported lazily, so
simcards never needs OpenSpiel unless these functions are called.

Conventions mapped here:
- Cards: OpenSpiel id ``suit * 8 + rank`` with suits D H S C and ranks 7 8 9 Q K 10 A J;
  simcards id ``suit * 8 + rank`` with suits C D H S and ranks 7 8 9 10 J Q K A.
- Deal: OpenSpiel deals its 32 chance outcomes 3 to each player, 2 to the Skat, 4 each, 3
  each (`DEAL_ORDER`). Its player 0 leads the first trick: simcards' forehand. So OpenSpiel
  player ``p`` is simcards seat ``(dealer + 1 + p) % 3``.
- Contract: OpenSpiel has no bid values; players in turn pass (action 32) or name a game
  (33 + contract, the same order as simcards: Diamonds, Hearts, Spades, Clubs, Grand, Null).
  The players before the declarer pass; the declarer then discards two cards (any two of his
  twelve), which we give as simcards' discard. OpenSpiel has no Hand games and no Ouvert.
- End: OpenSpiel ends a Null at the declarer's first trick, as simcards does. Its card points
  (solo / team, in its state text) count the Skat for the declarer.
"""

from __future__ import annotations

import random
import re

from simcards.games.openspiel_loop import random_play_rate
from simcards.cards import DECK32
from simcards.games.skat.scoring import CONTRACTS

OS_SUIT = (3, 0, 1, 2)  # simcards suit C D H S -> OpenSpiel suit (D H S C)
OS_RANK = (0, 1, 2, 5, 7, 3, 4, 6)  # simcards rank 7 8 9 10 J Q K A -> OpenSpiel rank
OUR_SUIT = tuple(OS_SUIT.index(s) for s in range(4))
OUR_RANK = tuple(OS_RANK.index(r) for r in range(8))
PASS, FIRST_GAME = 32, 33
# who gets the k-th dealt card: players 0..2, or -1 for the Skat
DEAL_ORDER = [0] * 3 + [1] * 3 + [2] * 3 + [-1] * 2 + [0] * 4 + [1] * 4 + [2] * 4 + [0] * 3 + [1] * 3 + [2] * 3


def os_card(card: int) -> int:
    """simcards card id -> OpenSpiel card id (its deal and play action)."""
    return OS_SUIT[card // 8] * 8 + OS_RANK[card % 8]


def our_card(action: int) -> int:
    return OUR_SUIT[action // 8] * 8 + OUR_RANK[action % 8]


def mask_of_actions(actions) -> int:
    mask = 0
    for a in actions:
        if a < 32:
            mask |= 1 << our_card(a)
    return mask


def os_seat(player: int, dealer: int) -> int:
    """OpenSpiel player -> simcards seat."""
    return (dealer + 1 + player) % 3


def deal_openspiel(game, hands, skat: int, dealer: int):
    """A new OpenSpiel state with simcards' hands (masks by seat) and Skat dealt."""
    state = game.new_initial_state()
    cards = {p: [c for c in range(32) if int(hands[os_seat(p, dealer)]) >> c & 1] for p in range(3)}
    cards[-1] = [c for c in range(32) if skat >> c & 1]
    for who in DEAL_ORDER:
        state.apply_action(os_card(cards[who].pop(0)))
    return state


def card_points_of(os_state) -> tuple[int, int]:
    """(solo, team) card points from OpenSpiel's state text."""
    found = re.search(r"Points \(Solo / Team\): \((\d+) / (\d+)\)", str(os_state))
    return int(found.group(1)), int(found.group(2))


def cross_check(n_games: int, seed: int = 0, steps: list | None = None) -> list[str]:
    """Play ``n_games`` random deals of mixed contracts (the game number cycles through the six)
    in simcards and in OpenSpiel side by side: the same deal, declarer, contract and discard,
    then uniformly random cards. Returns every disagreement (player to move, legal cards at any
    step, a trick winner, the end of a Null, the final card points) as text."""
    import pyspiel

    from simcards.games.registry import load

    ours = load("skat")
    game = pyspiel.load_game("skat")
    rng = random.Random(seed)
    problems: list[str] = []
    for g in range(n_games):
        ids = list(range(32))
        rng.shuffle(ids)
        hands = [sum(1 << c for c in ids[10 * s:10 * s + 10]) for s in range(3)]
        skat = (1 << ids[30]) | (1 << ids[31])
        dealer = g % 3
        contract = g % 6
        declarer_player = rng.randrange(3)
        declarer = os_seat(declarer_player, dealer)
        twelve = [c for c in range(32) if (hands[declarer] | skat) >> c & 1]
        discard = rng.sample(twelve, 2)
        os_state = deal_openspiel(game, hands, skat, dealer)
        for _ in range(declarer_player):
            os_state.apply_action(PASS)
        os_state.apply_action(FIRST_GAME + contract)
        if mask_of_actions(os_state.legal_actions()) != hands[declarer] | skat:
            problems.append(f"game {g}: OpenSpiel's declarer does not hold simcards' twelve cards")
            continue
        for card in discard:
            os_state.apply_action(os_card(card))
        state = ours.deal(hands=[DECK32.hand_codes(h) for h in hands], skat=DECK32.hand_codes(skat),
                          dealer=dealer, declarer=declarer, contract=CONTRACTS[contract],
                          bid=18, discard=[DECK32.code(c) for c in discard])
        step = 0
        while not os_state.is_terminal():
            seat = os_seat(os_state.current_player(), dealer)
            if state.is_over or seat != state.to_move:
                problems.append(f"game {g} step {step}: OpenSpiel has seat {seat} to move, simcards "
                                f"{'none (over)' if state.is_over else state.to_move}")
                break
            legal = os_state.legal_actions()
            theirs = mask_of_actions(legal)
            if state.legal_mask() != theirs:
                problems.append(f"game {g} step {step}: simcards legal {DECK32.hand_codes(state.legal_mask())}, "
                                f"OpenSpiel {DECK32.hand_codes(theirs)}")
                break
            action = legal[rng.randrange(len(legal))]
            os_state.apply_action(action)
            state.play(DECK32.code(our_card(action)))
            step += 1
            if step % 3 == 0 and not os_state.is_terminal():
                winner = os_seat(os_state.current_player(), dealer)
                if winner != state.last_winner:
                    problems.append(f"game {g} trick {step // 3}: winner simcards {state.last_winner}, "
                                    f"OpenSpiel {winner}")
                    break
        if steps is not None:
            steps.append(step)
        if not os_state.is_terminal():
            continue
        if not state.is_over:
            problems.append(f"game {g}: OpenSpiel ended after {step} cards, simcards did not")
            continue
        if contract != 5:
            res = state.result()
            solo, team = card_points_of(os_state)
            if (solo, team) != (res["points_declarer"], res["points_defenders"]):
                problems.append(f"game {g}: card points simcards {res['points_declarer']}/"
                                f"{res['points_defenders']}, OpenSpiel {solo}/{team}")
    return problems


def bench_openspiel_skat(n_games: int | float = 2000, seed: int = 0, *,
                         seconds: float | None = None) -> float:
    """Games (= deals) per second of uniformly random Skat driven through OpenSpiel's Python
    API (chance outcomes and legal actions, the bidding included, drawn uniformly), on one
    core: the figure scripts/bench.py sets beside simcards' random-play deals per second. A
    float ``n_games`` (or ``seconds=``) is a time budget."""
    import pyspiel

    game = pyspiel.load_game("skat")
    return random_play_rate(game, n_games, seed, seconds=seconds)
