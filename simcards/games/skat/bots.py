"""Skat bots: bidding estimates, the declaration and discard, Kontra, and the card-play dispatch.

Bots are Numba functions selected by a kind id, with one float64 parameter row per seat (PARAMS
of heuristic.py, by name in configs, where the heuristic's card play is too). A bot sees its own hand, the public slots of the deal state (contract,
declarer, the trick, the cards played, shown voids) and, in an Ouvert game, the declarer's hand.

Bidding (heuristic): for every contract family the hand could play, an estimate of the chance
to win it is a logistic curve of a weighted hand score (trumps, jacks, aces, guarded tens,
voids; for Null the "holes" of each suit). The bot's limit is the highest value among the
contracts whose estimate clears its family's threshold (suit, Grand, Null, and Hand for playing
without the Skat); it bids and holds up to that limit. The estimate and the limit of every seat
go into the data (``est_*``, ``limit_*``) so the thresholds can be studied afterwards.

Pimc: bids, declares, discards and says Kontra as the heuristic does, and searches its card play
(_pimc.py).

Random: raises to the next ladder value with probability 1/2, else passes (as holder: holds
with 1/2); as declarer picks up, discards two cards at random and declares uniformly among the
contracts that can reach the bid; plays uniformly among legal cards.
"""

from __future__ import annotations

import math

import numpy as np

from simcards._jit import hot, kernel
from simcards.cards import highest_bit_index, lowest_bit_index, nth_bit_index, popcount
from simcards.engine.state import S_TO_MOVE
from simcards.engine.trick import TRUMP, power, suit_mask
from simcards.games.botspec import RANDOM, STANDARD_KINDS
from simcards.games.skat._kernels import can_reach, card_points, matadors
from simcards.games.skat._pimc import PIMC_KIND, pimc_card
from simcards.games.skat.heuristic import (  # noqa: F401 (the parameter row, as bots.*)
    COUNTS,
    N_PARAMS,
    P_CONTEST,
    P_DISCARD_VOID,
    P_G_ACE,
    P_G_CENTER,
    P_G_CLUB_JACK,
    P_G_JACK,
    P_G_LONG,
    P_G_SCALE,
    P_G_TEN,
    P_KONTRA,
    P_NEEDS_SCHNEIDER,
    P_N_CENTER,
    P_N_SCALE,
    P_PULL,
    P_RE,
    P_SAMPLES,
    P_S_CENTER,
    P_S_CLUB_JACK,
    P_S_JACK,
    P_S_SCALE,
    P_S_SIDE_ACE,
    P_S_SIDE_TEN,
    P_S_TRUMP,
    P_S_TRUMP_HIGH,
    P_S_VOID,
    P_T_GRAND,
    P_T_HAND,
    P_T_NULL,
    P_T_OUVERT,
    P_T_SUIT,
    PARAMS,
    THRESHOLD_PARAMS,
    heuristic_card,
)
from simcards.games.skat.rules import (
    GRAND,
    JACKS_MASK,
    NULL,
    R_N_LADDER,
    R_SCORING,
    SCORING_SEEGER,
    RA,
    R10,
    T_BASE,
    T_NULL_DANGER,
    T_LADDER,
    T_RULES,
    TRUMP_SUIT,
)
from simcards.rng import randint

PIMC = PIMC_KIND  # perfect-information Monte Carlo card play (_pimc.py); the rest as heuristic
KINDS = {**STANDARD_KINDS, "pimc": PIMC}


CLUB_JACK = 4
FULL32 = np.int64(0xFFFFFFFF)

# the plan a bidder has in mind (written to the data as est_contract_*)
PLAN_NONE = -1


# ---------------------------------------------------------------- hand estimates


@hot
def _suit_byte(hand, suit):
    return (hand >> (8 * suit)) & 0xFF


@kernel
def _logistic(x):
    return 1.0 / (1.0 + math.exp(-x))


@kernel
def suit_score(hand, contract, params):
    """The suit-game hand score of ten cards for trump contract ``contract`` (0..3)."""
    trump_suit = TRUMP_SUIT[contract]
    trump_byte = _suit_byte(hand, trump_suit)
    jacks = popcount(hand & JACKS_MASK)
    trumps = jacks + popcount(trump_byte & ~(1 << 4))
    score = params[P_S_TRUMP] * trumps + params[P_S_JACK] * jacks
    if hand >> CLUB_JACK & 1:
        score += params[P_S_CLUB_JACK]
    score += params[P_S_TRUMP_HIGH] * ((trump_byte >> RA & 1) + (trump_byte >> R10 & 1))
    for suit in range(4):
        if suit == trump_suit:
            continue
        byte = _suit_byte(hand, suit) & ~(1 << 4)
        if byte == 0:
            score += params[P_S_VOID]
            continue
        ace = byte >> RA & 1
        score += params[P_S_SIDE_ACE] * ace
        if byte >> R10 & 1 and (ace or popcount(byte) >= 3):
            score += params[P_S_SIDE_TEN]
    return score


@kernel
def grand_score(hand, params):
    jacks = popcount(hand & JACKS_MASK)
    score = params[P_G_JACK] * jacks
    if hand >> CLUB_JACK & 1:
        score += params[P_G_CLUB_JACK]
    for suit in range(4):
        byte = _suit_byte(hand, suit) & ~(1 << 4)
        ace = byte >> RA & 1
        score += params[P_G_ACE] * ace
        if byte >> R10 & 1 and (ace or popcount(byte) >= 3):
            score += params[P_G_TEN]
        if ace and popcount(byte) > 3:
            score += params[P_G_LONG] * (popcount(byte) - 3)
    return score


@hot
def null_danger(hand, T):
    """The Null danger of ten cards: the sum over suits of `rules.null_suit_danger`."""
    return (T[T_NULL_DANGER + (hand & 0xFF)] + T[T_NULL_DANGER + ((hand >> 8) & 0xFF)]
            + T[T_NULL_DANGER + ((hand >> 16) & 0xFF)] + T[T_NULL_DANGER + ((hand >> 24) & 0xFF)])


@kernel
def zscore(hand, contract, T, params):
    """The estimate of ``contract`` on the logistic (log-odds) scale."""
    if contract == NULL:
        return (params[P_N_CENTER] - null_danger(hand, T)) / params[P_N_SCALE]
    if contract == GRAND:
        return (grand_score(hand, params) - params[P_G_CENTER]) / params[P_G_SCALE]
    return (suit_score(hand, contract, params) - params[P_S_CENTER]) / params[P_S_SCALE]


@kernel
def estimate(hand, contract, T, params):
    """Estimated chance (0..1) to win ``contract`` with these ten cards."""
    return _logistic(zscore(hand, contract, T, params))


# the thresholds on the log-odds scale, computed once per seat (`threshold_logits`)
L_SUIT, L_GRAND, L_NULL, L_HAND, L_OUVERT = range(5)
N_LOGITS = 5


@kernel
def _logit(p):
    if p <= 0.0:
        return -1e300
    if p >= 1.0:
        return 1e300
    return math.log(p / (1.0 - p))


@kernel
def threshold_logits(params, out):
    """Each seat's family thresholds as log-odds into ``out`` [seats, N_LOGITS]: bidding then
    compares scores without an exponential per game."""
    for seat in range(out.shape[0]):
        out[seat, L_SUIT] = _logit(params[seat, P_T_SUIT])
        out[seat, L_GRAND] = _logit(params[seat, P_T_GRAND])
        out[seat, L_NULL] = _logit(params[seat, P_T_NULL])
        out[seat, L_HAND] = _logit(params[seat, P_T_HAND])
        out[seat, L_OUVERT] = _logit(params[seat, P_T_OUVERT])


@kernel
def bidding_plan(hand, T, params, logits, plan):
    """The heuristic bidder's plan for ten cards into ``plan``: [limit (0: will not bid),
    contract, Hand, Ouvert] and returns the estimate of that contract (without a plan: its best
    estimate). The limit is the highest value among contracts whose estimate clears its
    family's threshold (``logits``: the seat's row of `threshold_logits`), counting the matadors
    of the ten cards (the Skat may change them)."""
    plan[0], plan[1], plan[2], plan[3] = 0, PLAN_NONE, 0, 0
    best_z = -1e300
    top_z = -1e300
    for contract in range(6):
        z = zscore(hand, contract, T, params)
        if z > top_z:
            top_z = z
        threshold = logits[L_NULL] if contract == NULL else (
            logits[L_GRAND] if contract == GRAND else logits[L_SUIT])
        if z < threshold:
            continue
        hand_game = z >= logits[L_HAND]
        ouvert = 0
        if contract == NULL:
            ouvert = int(z >= logits[L_OUVERT])
            value = 23
            if ouvert:
                value = 59 if hand_game else 46
            elif hand_game:
                value = 35
        else:
            m = matadors(hand, contract, T)
            value = T[T_BASE + contract] * (abs(m) + 1 + int(hand_game))
        if value > plan[0]:
            plan[0], plan[1], plan[2], plan[3] = value, contract, int(hand_game), ouvert
            best_z = z
    return _logistic(best_z if plan[1] != PLAN_NONE else top_z)


# ---------------------------------------------------------------- bidding calls


@kernel
def next_bid(current, T):
    """The lowest ladder value above ``current`` (0 above the top)."""
    n = T[T_RULES + R_N_LADDER]
    for k in range(n):
        if T[T_LADDER + k] > current:
            return T[T_LADDER + k]
    return 0


@kernel
def bids(kind, limit, current, T, rng):
    """A bidder's call over ``current``: the value it bids, or 0 to pass."""
    value = next_bid(current, T)
    if value == 0:
        return 0
    if kind == RANDOM:
        return value if randint(rng, 2) == 1 else 0
    return value if value <= limit else 0


@kernel
def holds(kind, limit, value, rng):
    """Does the seat being bid to hold ``value`` (say yes)?"""
    if kind == RANDOM:
        return randint(rng, 2) == 1
    return value <= limit


# ---------------------------------------------------------------- declaration


_ACES = sum(1 << (suit * 8 + RA) for suit in range(4))


@kernel
def _discard_worth(card, cards12, contract, T):
    """What laying ``card`` away is worth on its own, in card points: its points buried, less
    a large cost for a trump or an ace and for a ten held with its ace."""
    bit = np.int64(1) << card
    if bit & suit_mask(T, contract, TRUMP):
        return -100.0 - power(T, contract, card)
    rank = card & 7
    if rank == RA:
        return -50.0 - 0.01 * power(T, contract, card)
    if rank == R10 and (cards12 >> ((card >> 3) * 8 + RA)) & 1:
        return -20.0 - 0.01 * power(T, contract, card)  # a guarded ten stays
    return card_points(T, card) - 0.01 * power(T, contract, card)


@kernel
def _discard_suit_game(cards12, contract, T, params):
    """Two cards to discard for a suit or Grand game: never a trump or an ace while others
    are left; empty short suits, bury points, keep guarded tens. The two are chosen together,
    so that a doubleton without its ace is seen to leave a void (one at a time missed it:
    `scripts/skat_play_ab.py --rediscard`, seed 41, 60,000 deals)."""
    trumps = suit_mask(T, contract, TRUMP)
    plain = cards12 & ~trumps
    bonus = params[P_DISCARD_VOID]
    # a pair with a trump or an ace costs 50 or more against one of two other plain cards,
    # which gives up at most one void bonus: seek among those while two are left (the same
    # choice while discard_void_bonus is at most 30; all 66 pairs cost a quarter of the speed)
    pool = plain & ~_ACES
    if popcount(pool) < 2:
        pool = cards12
    best, best_worth = np.int64(0), -1e18
    first_rest = pool
    while first_rest:
        first = lowest_bit_index(first_rest)
        first_rest &= first_rest - 1
        first_worth = _discard_worth(first, cards12, contract, T)
        first_suit = first >> 3 if (np.int64(1) << first) & plain else -1
        first_len = popcount((plain >> (first_suit * 8)) & 0xFF) if first_suit >= 0 else 0
        second_rest = first_rest
        while second_rest:
            second = lowest_bit_index(second_rest)
            second_rest &= second_rest - 1
            worth = first_worth + _discard_worth(second, cards12, contract, T)
            second_suit = second >> 3 if (np.int64(1) << second) & plain else -1
            if first_suit >= 0 and second_suit == first_suit:
                if first_len == 2:  # the pair empties its suit
                    worth += bonus
            else:
                if first_len == 1:
                    worth += bonus
                if second_suit >= 0 and popcount((plain >> (second_suit * 8)) & 0xFF) == 1:
                    worth += bonus
            if worth > best_worth:
                best, best_worth = (np.int64(1) << first) | (np.int64(1) << second), worth
    return best


@kernel
def _discard_null(cards12, T):
    """Two cards to discard for a Null: each time the one whose loss lowers the danger most."""
    out = np.int64(0)
    for _ in range(2):
        held = cards12 & ~out
        best, best_danger = -1, 1 << 30
        rest = held
        while rest:
            card = highest_bit_index(rest)
            rest &= ~(np.int64(1) << card)
            d = null_danger(held & ~(np.int64(1) << card), T)
            if d < best_danger:
                best, best_danger = card, d
        out |= np.int64(1) << best
    return out


@kernel
def discard_for(contract, cards12, T, params):
    if contract == NULL:
        return _discard_null(cards12, T)
    return _discard_suit_game(cards12, contract, T, params)


@kernel
def expected_score(contract, ouvert, hand_game, cards12, bid, p, seeger, T):
    """The declarer's expected score of a game he wins with chance ``p``: +value when won,
    -2 x value when lost, and in Seeger-Fabian (``seeger``) 50 more either way. The value is
    the game's without Schneider, or the bid when that is higher (an approximation: the rules
    settle an overbid at the lowest multiple of the base value that reaches the bid)."""
    if contract == NULL:
        value = (59 if hand_game else 46) if ouvert else (35 if hand_game else 23)
    else:
        value = T[T_BASE + contract] * (abs(matadors(cards12, contract, T)) + 1 + hand_game)
    if value < bid:
        value = bid
    score = p * value - (1.0 - p) * 2.0 * value
    if seeger:
        score += 50.0 * (2.0 * p - 1.0)
    return score


@kernel
def choose_game(hand10, cards12, held, hand_game, bid, T, params):
    """The heuristic's game for its cards: (contract, Ouvert, discard, estimate).

    The declarer plays ``held`` (his ten dealt cards in a Hand game, his twelve less a
    chosen discard), or, with ``held`` = -1, each game with its own discard (`discard_for`).
    Of the games that reach the bid without announcements, the one of highest expected score
    (`expected_score`): Null Ouvert where the Null estimate clears the Ouvert threshold (the
    threshold decides, not the expected scores: one Null estimate serves both forms), a game
    that needs Schneider to reach the bid weighed down. When none reaches it, the highest suit
    or Grand, which is overbid."""
    seeger = T[T_RULES + R_SCORING] == SCORING_SEEGER
    best_score, best_est = -1e300, -1.0
    best_contract, best_ouvert, best_discard = GRAND, 0, np.int64(0)
    fallback_value, fallback_contract = -1, GRAND
    for contract in range(6):
        if not can_reach(hand10, cards12, contract, bid, hand_game, 0, 0, int(contract == NULL), T):
            if contract != NULL:
                value = T[T_BASE + contract] * (abs(matadors(cards12, contract, T)) + 3)
                if value > fallback_value:
                    fallback_value, fallback_contract = value, contract
            continue
        discard = discard_for(contract, cards12, T, params) if held < 0 else cards12 & ~held
        p = estimate(cards12 & ~discard, contract, T, params)
        ouvert = 0
        if contract == NULL:
            # Null Ouvert when it is this safe, else plain Null where its value reaches the bid
            if p >= params[P_T_OUVERT]:
                ouvert = 1
            elif not can_reach(hand10, cards12, NULL, bid, hand_game, 0, 0, 0, T):
                continue
        elif T[T_BASE + contract] * (abs(matadors(cards12, contract, T)) + 1 + hand_game) < bid:
            p *= params[P_NEEDS_SCHNEIDER]
        # the game worth most on average, not the one most likely won: a Grand's double value
        # pays for a few more losses than a suit game's
        score = expected_score(contract, ouvert, hand_game, cards12, bid, p, seeger, T)
        if score > best_score:
            best_score, best_est = score, p
            best_contract, best_ouvert, best_discard = contract, ouvert, discard
    if best_est < 0.0:
        best_contract, best_ouvert = fallback_contract, 0
        best_discard = discard_for(best_contract, cards12, T, params) if held < 0 else cards12 & ~held
        best_est = estimate(cards12 & ~best_discard, best_contract, T, params)
    return best_contract, best_ouvert, best_discard, best_est


@kernel
def declare(kind, hand10, skat, bid, plan, T, params, rng, out):
    """The declarer's game into ``out``: [contract, Hand, Schneider announced, Schwarz
    announced, Ouvert, discard mask]; returns the estimate behind it: Hand where the bidding
    plan says so and it still reaches the bid, else the game of `choose_game` after the
    pickup."""
    cards12 = hand10 | skat
    out[2], out[3] = 0, 0
    if kind == RANDOM:
        rest = cards12
        first = nth_bit_index(rest, randint(rng, 12))
        rest &= ~(np.int64(1) << first)
        second = nth_bit_index(rest, randint(rng, 11))
        n_ok = 0
        for variant in range(7):  # four suits, Grand, Null, Null Ouvert
            if can_reach(hand10, cards12, min(variant, NULL), bid, 0, 0, 0, int(variant == 6), T):
                n_ok += 1
        pick = randint(rng, n_ok) if n_ok > 0 else -1
        chosen = GRAND
        ouvert = 0
        for variant in range(7):
            if can_reach(hand10, cards12, min(variant, NULL), bid, 0, 0, 0, int(variant == 6), T):
                if pick == 0:
                    chosen, ouvert = min(variant, NULL), int(variant == 6)
                pick -= 1
        out[0], out[1], out[4] = chosen, 0, ouvert
        out[5] = (np.int64(1) << first) | (np.int64(1) << second)
        return 0.0
    # heuristic: a Hand game when the plan says so and it still reaches the bid
    if plan[2] == 1 and plan[1] != PLAN_NONE and can_reach(hand10, cards12, plan[1], bid, 1, 0, 0,
                                                             plan[3], T):
        out[0], out[1], out[4], out[5] = plan[1], 1, plan[3], skat
        return estimate(hand10, plan[1], T, params)
    contract, ouvert, discard, est = choose_game(hand10, cards12, np.int64(-1), 0, bid, T, params)
    out[0], out[1], out[4], out[5] = contract, 0, ouvert, discard
    return est


@kernel
def kontra_call(kind, hand, contract, T, params, rng):
    """A defender's Kontra (the ``kontra`` option): random 1/2; heuristic holding many trumps."""
    if kind == RANDOM:
        return randint(rng, 2) == 1
    if contract == NULL:
        return False
    return popcount(hand & suit_mask(T, contract, TRUMP)) >= params[P_KONTRA]


@kernel
def re_call(kind, est, params, rng):
    """The declarer's Re after a Kontra: random 1/2; heuristic on his estimate."""
    if kind == RANDOM:
        return randint(rng, 2) == 1
    return est >= params[P_RE]


@hot
def choose_card(kind, legal, st, T, params, rng, work):
    """The card a bot plays from ``legal`` (``work``: the pimc bot's scratch,
    `_pimc.pimc_scratch`; None when no seat is pimc, and then pimc is not compiled)."""
    if kind == RANDOM:
        return nth_bit_index(legal, randint(rng, popcount(legal)))
    if work is not None:  # a literal None test: Numba drops it before typing a None work
        if kind == PIMC:
            return pimc_card(st[S_TO_MOVE], legal, st, T, params, rng, work)
    return heuristic_card(st[S_TO_MOVE], legal, st, T, params)
