"""Skat bots: bidding estimates, the declaration and discard, Kontra, and card play.

Bots are Numba functions selected by a kind id, with one float64 parameter row per seat (PARAMS,
by name in configs). A bot sees its own hand, the public slots of the deal state (contract,
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
from simcards.engine.state import (
    S_CONTRACT,
    S_DECLARER,
    S_HAND,
    S_LEADER,
    S_N_PLAYED,
    S_PLAYED,
    S_TO_MOVE,
    S_TRICK,
    S_VOIDS,
    S_WIN_POS,
)
from simcards.engine.trick import TRUMP, eff_suit, power, suit_mask
from simcards.games.botspec import RANDOM, STANDARD_KINDS
from simcards.games.skat._kernels import S_OUVERT, can_reach, card_points, matadors
from simcards.games.skat._pimc import PIMC_KIND, pimc_card
from simcards.games.skat.rules import (
    GRAND,
    JACKS_MASK,
    NULL,
    R_N_LADDER,
    RA,
    R10,
    T_BASE,
    T_BEATERS,
    T_NULL_DANGER,
    T_POINTS,
    T_POWER,
    T_SUIT_MASKS,
    T_LADDER,
    T_RULES,
    TRUMP_SUIT,
)
from simcards.rng import randint

PIMC = PIMC_KIND  # perfect-information Monte Carlo card play (_pimc.py); the rest as heuristic
KINDS = {**STANDARD_KINDS, "pimc": PIMC}

PARAMS = (
    # suit-game estimate: logistic((score - suit_center) / suit_scale)
    ("suit_w_trump", 1.0, "suit estimate: each trump held (jacks included)"),
    ("suit_w_jack", 0.51, "suit estimate: each jack, on top of counting as a trump"),
    ("suit_w_club_jack", 0.18, "suit estimate: the club jack, on top"),
    ("suit_w_trump_high", 0.54, "suit estimate: the ace and the ten of trumps, each"),
    ("suit_w_side_ace", 1.12, "suit estimate: each ace of a plain suit"),
    ("suit_w_side_ten", 0.35, "suit estimate: each plain ten held with its ace or two more cards"),
    ("suit_w_void", 0.1, "suit estimate: each plain suit the hand is void in"),
    ("suit_center", 6.8, "suit estimate: the score with an even chance"),
    ("suit_scale", 1.0, "suit estimate: score per logistic unit"),
    # Grand estimate
    ("grand_w_jack", 1.61, "Grand estimate: each jack"),
    ("grand_w_club_jack", 0.28, "Grand estimate: the club jack, on top"),
    ("grand_w_ace", 1.24, "Grand estimate: each ace"),
    ("grand_w_ten", 0.63, "Grand estimate: each ten held with its ace or two more cards"),
    ("grand_w_long", 0.09, "Grand estimate: each card beyond three in a suit headed by its ace"),
    ("grand_center", 5.63, "Grand estimate: the score with an even chance"),
    ("grand_scale", 1.0, "Grand estimate: score per logistic unit"),
    # Null estimate: logistic((null_center - danger) / null_scale)
    ("null_center", 9.9, "Null estimate: the danger (sum over cards of how far a card sits above "
                         "the safe 7-9-J-K ladder of its suit) with an even chance"),
    ("null_scale", 4.88, "Null estimate: danger per logistic unit"),
    # thresholds per family: configs/tune-skat.toml (Seeger-Fabian per deal, 60,000 deals a
    # candidate, against the untuned 0.55 / 0.6 / 0.65 / 0.9; verified +0.99 per deal, 95%
    # interval 0.89 .. 1.09, on 200,000 fresh deals)
    ("suit_threshold", 0.61, "bid a suit game when its estimate reaches this"),
    ("grand_threshold", 0.71, "bid a Grand when its estimate reaches this"),
    ("null_threshold", 0.32, "bid a Null when its estimate reaches this"),
    ("hand_threshold", 0.89, "play Hand (bid one level more) when the estimate reaches this"),
    ("ouvert_threshold", 0.86, "declare Null Ouvert when the Null estimate reaches this"),
    # declaration and play
    ("needs_schneider_weight", 0.3, "declaration: a game that reaches the bid only with Schneider "
                                    "counts its estimate times this"),
    ("discard_void_bonus", 12.0, "discard: worth of emptying a plain suit, in card points"),
    ("pull_trumps_min", 3.0, "declarer leads trumps while the defenders hold some and he holds "
                             "at least this many (always with the highest trump left)"),
    ("contest_points", 4.0, "ruff or overtake a trick that is not yet safe when it holds at "
                            "least this many card points"),
    ("kontra_trumps", 5.0, "Kontra option: a defender says Kontra holding this many trumps"),
    ("re_threshold", 0.9, "Kontra option: the declarer says Re when his estimate reaches this"),
    # the pimc bot (_pimc.py)
    ("samples", 6.0, "pimc: deals of the unseen cards sampled and searched at each card "
                      "decision (a whole number, 1 to 1000)"),
)
N_PARAMS = len(PARAMS)
(P_S_TRUMP, P_S_JACK, P_S_CLUB_JACK, P_S_TRUMP_HIGH, P_S_SIDE_ACE, P_S_SIDE_TEN, P_S_VOID,
 P_S_CENTER, P_S_SCALE, P_G_JACK, P_G_CLUB_JACK, P_G_ACE, P_G_TEN, P_G_LONG, P_G_CENTER,
 P_G_SCALE, P_N_CENTER, P_N_SCALE, P_T_SUIT, P_T_GRAND, P_T_NULL, P_T_HAND, P_T_OUVERT,
 P_NEEDS_SCHNEIDER, P_DISCARD_VOID, P_PULL, P_CONTEST, P_KONTRA, P_RE, P_SAMPLES) = range(N_PARAMS)
THRESHOLD_PARAMS = ("suit_threshold", "grand_threshold", "null_threshold", "hand_threshold")
assert N_PARAMS == 30 and PARAMS[P_SAMPLES][0] == "samples"
# parameters that count something: a whole number within (low, high)
COUNTS = (("samples", 1, 1000),)

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


@kernel
def _discard_suit_game(cards12, contract, T, params):
    """Two cards to discard for a suit or Grand game: never a trump or an ace while others
    are left; empty a short suit, bury points, keep guarded tens."""
    trumps = suit_mask(T, contract, TRUMP)
    out = np.int64(0)
    for _ in range(2):
        held = cards12 & ~out
        best, best_worth = -1, -1e18
        rest = held
        while rest:
            card = lowest_bit_index(rest)
            rest &= rest - 1
            bit = np.int64(1) << card
            worth = 0.0
            if bit & trumps:
                worth -= 100.0 + power(T, contract, card)
            suit = card >> 3
            rank = card & 7
            suit_left = held & suit_mask(T, contract, suit) & ~bit
            if rank == RA:
                worth -= 50.0
            elif rank == R10 and (held >> (suit * 8 + RA)) & 1:
                worth -= 20.0  # a guarded ten stays
            else:
                worth += card_points(T, card)
            if not bit & trumps and suit_left == 0:
                worth += params[P_DISCARD_VOID]
            worth -= 0.01 * power(T, contract, card)
            if worth > best_worth:
                best, best_worth = card, worth
        out |= np.int64(1) << best
    return out


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
def declare(kind, hand10, skat, bid, plan, T, params, rng, out):
    """The declarer's game into ``out``: [contract, Hand, Schneider announced, Schwarz
    announced, Ouvert, discard mask]; returns the estimate behind it. Only games that can
    reach the bid are chosen while any can (else the highest possible, which is overbid)."""
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
    best_est, best_contract, best_ouvert, best_discard = -1.0, GRAND, 0, np.int64(0)
    fallback_value, fallback_contract = -1, GRAND
    for contract in range(6):
        if not can_reach(hand10, cards12, contract, bid, 0, 0, 0, int(contract == NULL), T):
            if contract != NULL:
                value = T[T_BASE + contract] * (abs(matadors(cards12, contract, T)) + 3)
                if value > fallback_value:
                    fallback_value, fallback_contract = value, contract
            continue
        discard = discard_for(contract, cards12, T, params)
        p = estimate(cards12 & ~discard, contract, T, params)
        ouvert = 0
        if contract == NULL:
            # Null Ouvert (46) when it is this safe, else plain Null where 23 reaches the bid
            if p >= params[P_T_OUVERT]:
                ouvert = 1
                p += 1e-3
            elif not can_reach(hand10, cards12, NULL, bid, 0, 0, 0, 0, T):
                continue
        elif T[T_BASE + contract] * (abs(matadors(cards12, contract, T)) + 1) < bid:
            p *= params[P_NEEDS_SCHNEIDER]
        if p > best_est:
            best_est, best_contract, best_ouvert, best_discard = p, contract, ouvert, discard
    if best_est < 0.0:
        best_contract = fallback_contract
        best_discard = discard_for(best_contract, cards12, T, params)
        best_est = estimate(cards12 & ~best_discard, best_contract, T, params)
    out[0], out[1], out[4], out[5] = best_contract, 0, best_ouvert, best_discard
    return best_est


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


# ---------------------------------------------------------------- card play
#
# The card-play helpers read the tables at constant offsets through these inlined look-ups
# (the shared `simcards.engine.trick` kernels are calls, which cost more than their body here).


@hot
def _pw(T, contract, card):
    return T[T_POWER + contract * 32 + (card & 31)]


@hot
def _suit(T, contract, suit):
    return T[T_SUIT_MASKS + contract * 5 + suit]


@hot
def _pts(T, card):
    return T[T_POINTS + (card & 31)]


@hot
def _beaters(T, contract, card):
    return T[T_BEATERS + contract * 32 + (card & 31)]


@hot
def _lowest(mask, T, contract, avoid_trumps):
    """The card of ``mask`` cheapest to give up: fewest points, then lowest power, plain
    suits before trumps when ``avoid_trumps``."""
    trumps = _suit(T, contract, TRUMP)
    pool = mask & ~trumps if avoid_trumps and mask & ~trumps else mask
    best, best_cost = -1, 1 << 30
    rest = pool
    while rest:
        card = lowest_bit_index(rest)
        rest &= rest - 1
        cost = _pts(T, card) * 16 + _pw(T, contract, card)
        if (np.int64(1) << card) & trumps:
            cost += 8
        if cost < best_cost:
            best, best_cost = card, cost
    return best


@hot
def _extreme_power(mask, T, contract, highest):
    best, best_power = -1, 0
    rest = mask
    while rest:
        card = lowest_bit_index(rest)
        rest &= rest - 1
        p = _pw(T, contract, card)
        if best < 0 or (p > best_power if highest else p < best_power):
            best, best_power = card, p
    return best


@hot
def _most_points(mask, T, contract):
    """The card of ``mask`` with the most points (plain cards first): to fill a sure trick."""
    trumps = _suit(T, contract, TRUMP)
    pool = mask & ~trumps if mask & ~trumps else mask
    best, best_value = -1, -(1 << 30)
    rest = pool
    while rest:
        card = lowest_bit_index(rest)
        rest &= rest - 1
        value = _pts(T, card) * 16 - _pw(T, contract, card)
        if value > best_value:
            best, best_value = card, value
    return best


@hot
def _void_cards(st, seat, T, contract):
    voids = st[S_VOIDS + seat]
    out = np.int64(0)
    for s in range(5):
        if voids >> s & 1:
            out |= _suit(T, contract, s)
    return out


@hot
def _trick_points(st, T):
    total = 0
    for i in range(st[S_N_PLAYED]):
        total += _pts(T, st[S_TRICK + i])
    return total


@hot
def choose_card(kind, legal, st, T, params, rng, work):
    """The card a bot plays from ``legal`` (``work``: the pimc bot's scratch,
    `_pimc.pimc_work_size`)."""
    if kind == RANDOM:
        return nth_bit_index(legal, randint(rng, popcount(legal)))
    if kind == PIMC:
        return pimc_card(st[S_TO_MOVE], legal, st, T, params, rng, work)
    return heuristic_card(legal, st, T, params)


@hot
def heuristic_card(legal, st, T, params):
    """The heuristic bot's card from ``legal`` (the pimc bot also asks it to choose among its
    cards of equal value)."""
    if legal & (legal - 1) == 0:
        return lowest_bit_index(legal)
    contract = st[S_CONTRACT]
    if contract == NULL:
        return _null_card(legal, st, T)
    if st[S_TO_MOVE] == st[S_DECLARER]:
        return _declarer_card(legal, st, T, params)
    return _defender_card(legal, st, T, params)


@hot
def _unseen(st, seat):
    """Cards neither held by ``seat`` nor played: in the other two hands or the Skat."""
    return FULL32 & ~st[S_PLAYED] & ~st[S_HAND + seat]


@hot
def _declarer_card(legal, st, T, params):
    contract = st[S_CONTRACT]
    seat = st[S_TO_MOVE]
    hand = st[S_HAND + seat]
    trumps = _suit(T, contract, TRUMP)
    unseen = _unseen(st, seat)
    n = st[S_N_PLAYED]
    if n == 0:
        my_trumps = legal & trumps
        out = unseen & trumps
        if my_trumps and out:
            top = _extreme_power(my_trumps, T, contract, True)
            if _beaters(T, contract, top) & out == 0:
                return top  # the highest trump left: draw
            if popcount(my_trumps) >= params[P_PULL]:
                return _extreme_power(my_trumps, T, contract, False)
        # cash plain masters the defenders must follow (no trumps out, or nobody void)
        defenders_void = _void_cards(st, (seat + 1) % 3, T, contract) | _void_cards(st, (seat + 2) % 3, T, contract)
        for suit in range(4):
            mine = legal & _suit(T, contract, suit)
            if mine == 0:
                continue
            top = _extreme_power(mine, T, contract, True)
            if _beaters(T, contract, top) & unseen & _suit(T, contract, suit) == 0:
                if out == 0 or not defenders_void & _suit(T, contract, suit):
                    return top
        plain = legal & ~trumps
        if plain:
            # the longest plain suit's cheapest card
            best_suit, best_len = 0, -1
            for suit in range(4):
                length = popcount(plain & _suit(T, contract, suit))
                if length > best_len:
                    best_suit, best_len = suit, length
            return _lowest(plain & _suit(T, contract, best_suit), T, contract, True)
        return _extreme_power(legal, T, contract, False)
    return _follow(legal, st, T, params, unseen, n, hand)


@kernel
def _follow(legal, st, T, params, unseen, n, hand):
    """Following as declarer or as a defender whose partner does not hold the trick."""
    contract = st[S_CONTRACT]
    best = st[S_TRICK + st[S_WIN_POS]]
    beating = legal & _beaters(T, contract, best)
    trumps = _suit(T, contract, TRUMP)
    points = _trick_points(st, T)
    if beating == 0:
        return _lowest(legal, T, contract, True)
    if n == 2:  # last: take it, with points when following suit
        plain = beating & ~trumps
        if plain:
            return _most_points(plain, T, contract)
        if points >= params[P_CONTEST]:
            return _extreme_power(beating, T, contract, False)
        return _lowest(legal, T, contract, True)
    # second: win when the card is sure against the last player, or the trick is worth it
    sure = np.int64(0)
    rest = beating
    while rest:
        card = lowest_bit_index(rest)
        rest &= rest - 1
        if _beaters(T, contract, card) & unseen == 0:
            sure |= np.int64(1) << card
    if sure:
        return _most_points(sure, T, contract)
    if points >= params[P_CONTEST] and beating & trumps:
        return _extreme_power(beating & trumps, T, contract, False)
    return _lowest(legal, T, contract, True)


@hot
def _defender_card(legal, st, T, params):
    contract = st[S_CONTRACT]
    seat = st[S_TO_MOVE]
    declarer = st[S_DECLARER]
    hand = st[S_HAND + seat]
    trumps = _suit(T, contract, TRUMP)
    unseen = _unseen(st, seat)
    n = st[S_N_PLAYED]
    if n == 0:
        declarer_void = _void_cards(st, declarer, T, contract)
        # cash a plain master the declarer must follow
        for suit in range(4):
            mine = legal & _suit(T, contract, suit)
            if mine == 0 or declarer_void & _suit(T, contract, suit):
                continue
            top = _extreme_power(mine, T, contract, True)
            if _beaters(T, contract, top) & unseen & _suit(T, contract, suit) == 0:
                return top
        plain = legal & ~trumps
        if plain:
            # attack the declarer's short suit: one he has shown void in first (he must trump),
            # else our longest; lead low
            for suit in range(4):
                mine = plain & _suit(T, contract, suit)
                if mine and declarer_void & _suit(T, contract, suit) and not declarer_void & trumps:
                    return _lowest(mine, T, contract, True)
            best_suit, best_len = 0, -1
            for suit in range(4):
                length = popcount(plain & _suit(T, contract, suit))
                if length > best_len:
                    best_suit, best_len = suit, length
            return _lowest(plain & _suit(T, contract, best_suit), T, contract, True)
        return _extreme_power(legal, T, contract, False)
    winner = (st[S_LEADER] + st[S_WIN_POS]) % 3
    best = st[S_TRICK + st[S_WIN_POS]]
    if winner != declarer:
        declarer_to_come = n == 1  # the partner led and the declarer plays last
        if not declarer_to_come:
            return _most_points(legal, T, contract)  # schmieren: the trick is ours
        # is the partner's card sure against the declarer?
        danger = _beaters(T, contract, best) & unseen & ~_void_cards(st, declarer, T, contract)
        if st[S_OUVERT]:
            danger &= st[S_HAND + declarer]
        if danger == 0:
            return _most_points(legal, T, contract)
        # not sure yet: take it over only with a card the declarer cannot beat, never ruffing
        # the partner's trick; else stay low
        trumps = _suit(T, contract, TRUMP)
        over = legal & _beaters(T, contract, best)
        if eff_suit(T, contract, best) != TRUMP:
            over &= ~trumps
        rest = over
        while rest:
            card = lowest_bit_index(rest)
            rest &= rest - 1
            threat = _beaters(T, contract, card) & unseen & ~_void_cards(st, declarer, T, contract)
            if st[S_OUVERT]:
                threat &= st[S_HAND + declarer]
            if threat == 0:
                return card
        return _lowest(legal, T, contract, True)
    return _follow(legal, st, T, params, unseen, n, hand)


@hot
def _null_card(legal, st, T):
    contract = NULL
    seat = st[S_TO_MOVE]
    declarer = st[S_DECLARER]
    n = st[S_N_PLAYED]
    if seat == declarer:
        if n == 0:
            return _extreme_power(legal, T, contract, False)
        best = st[S_TRICK + st[S_WIN_POS]]
        led_suit = eff_suit(T, contract, st[S_TRICK])
        if legal & _suit(T, contract, led_suit) == 0:
            return _extreme_power(legal, T, contract, True)  # unblock: shed the highest card
        under = legal & ~_beaters(T, contract, best)
        if under:
            return _extreme_power(under, T, contract, True)
        return _extreme_power(legal, T, contract, False)
    declarer_hand = st[S_HAND + declarer]
    if n == 0:
        declarer_void = _void_cards(st, declarer, T, contract)
        if st[S_OUVERT]:
            # lead where the declarer cannot duck under our lowest card
            for suit in range(4):
                mine = legal & _suit(T, contract, suit)
                his = declarer_hand & _suit(T, contract, suit)
                if mine and his:
                    low = _extreme_power(mine, T, contract, False)
                    if his & ~_beaters(T, contract, low) == 0:
                        return low
        best_suit, best_len = -1, 99
        for suit in range(4):
            mine = legal & _suit(T, contract, suit)
            length = popcount(mine)
            if length and length < best_len and not declarer_void & _suit(T, contract, suit):
                best_suit, best_len = suit, length
        if best_suit < 0:
            return _extreme_power(legal, T, contract, False)
        return _extreme_power(legal & _suit(T, contract, best_suit), T, contract, False)
    winner = (st[S_LEADER] + st[S_WIN_POS]) % 3
    best = st[S_TRICK + st[S_WIN_POS]]
    led_suit = eff_suit(T, contract, st[S_TRICK])
    if legal & _suit(T, contract, led_suit) == 0:
        return _extreme_power(legal, T, contract, True)  # a discard: our highest card
    if winner == declarer:
        under = legal & ~_beaters(T, contract, best)
        if under:
            return _extreme_power(under, T, contract, True)  # stay under him
        return _extreme_power(legal, T, contract, True)
    return _extreme_power(legal, T, contract, False)  # the declarer plays after us: go low
