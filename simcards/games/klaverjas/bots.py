"""Klaverjassen bots (also used by Kraken): a hand evaluator, trump choice, and card play.

Bots are Numba functions selected by a kind id, with one float64 parameter row per seat (the
PARAMS below, by name in configs). A bot sees its own hand and the public slots of the deal
state: trump, declarer, the current trick, the cards played, and the voids each seat has shown.
"""

from __future__ import annotations

import numpy as np

from simcards._jit import hot, kernel
from simcards.cards import lowest_bit_index, nth_bit_index, popcount
from simcards.games._trick import TRUMP
from simcards.games.klaverjas._kernels import (
    S_DECLARER,
    S_HAND,
    S_LEADER,
    S_N_PLAYED,
    S_PLAYED,
    S_TO_MOVE,
    S_TRICK,
    S_TRUMP,
    S_VOIDS,
    S_WIN_POS,
    card_points,
    cards_beating,
    hand_melds,
    suit_cards,
    trick_roem,
)
from simcards.games.klaverjas.rules import (
    R9,
    R10,
    RA,
    RJ,
    SUIT_LOW_RANK,
    SUIT_TOP_RANK,
    T_POWER,
)
from simcards.games.botspec import HEURISTIC, RANDOM, STANDARD_KINDS
from simcards.games.klaverjas._pimc import PIMC_KIND, pimc_card
from simcards.rng import randint

PIMC = PIMC_KIND  # perfect-information Monte Carlo card play (_pimc.py); contract and bids as heuristic
KINDS = {**STANDARD_KINDS, "pimc": PIMC}

# The evaluator's weights for plain Klaverjassen, fitted by least squares so that the estimate
# predicts the declaring team's card points (scripts/calibrate_klaverjas.py: 400,000 deals of
# heuristic play with a random trump, seed 3; R^2 0.26, residual sd 31 points, since the
# partner's hand is unknown). Melds in the hand weigh nothing: under table roem they score for
# whoever wins the trick they fall in, not for their holder. Kraken, where hand melds are
# awarded, has weights of its own (kraken/bots.py).
KLAVERJAS_EVALUATOR = {"w_base": 46.0, "w_trump_jack": 19.5, "w_trump_nine": 12.0,
                       "w_trump_ace": 6.5, "w_trump_card": 9.5, "w_side_ace": 8.5,
                       "w_guarded_ten": 3.0, "w_void": 3.5, "w_roem": 0.0}


def bot_params(evaluator: dict[str, float], declare_threshold: float) -> tuple:
    """(name, default, meaning) of every parameter of the bot's row, in kernel order, with the
    evaluator weights and the free-selection threshold of one ruleset."""
    w = evaluator
    return (
        ("w_base", w["w_base"], "evaluator: the estimate of a hand with none of the features below"),
        ("w_trump_jack", w["w_trump_jack"], "evaluator: holding the jack of trump"),
        ("w_trump_nine", w["w_trump_nine"], "evaluator: holding the nine of trump"),
        ("w_trump_ace", w["w_trump_ace"], "evaluator: holding the ace of trump"),
        ("w_trump_card", w["w_trump_card"], "evaluator: each trump held (jack, nine and ace included)"),
        ("w_side_ace", w["w_side_ace"], "evaluator: each ace of a plain suit"),
        ("w_guarded_ten", w["w_guarded_ten"], "evaluator: each plain ten held with its ace or two more cards"),
        ("w_void", w["w_void"], "evaluator: each plain suit the hand is void in"),
        ("w_roem", w["w_roem"], "evaluator: per point of the hand's own melds, stuk included (0 where "
                                "melds score on the table, not in the hand)"),
        ("declare_threshold", declare_threshold, "free trump selection: take the game when the best "
                                                 "suit's estimate reaches this"),
        ("pull_trumps_min", 3.0, "declaring side leads trumps while holding at least this many "
                                 "(always when holding the highest trump left)"),
        ("contest_points", 10.0, "try to win a trick not yet safe when it holds at least this many "
                                 "card points"),
        ("samples", 20.0, "pimc: deals sampled and solved double-dummy at each card decision "
                        "(a whole number, 1 to 1000)"),
        ("contract_tries", 16.0, "pimc: draws per sample until one agrees with the trump choice "
                                 "(heuristic bots' evaluator and threshold) and in Kraken the "
                                 "bids; after that many the last draw is used, 0 never filters (a whole "
                                 "number, 0 to 1000)"),
    )


# 94 on this scale takes the game with the same share of hands (72%) as 60 did on the old one,
# and it is an equilibrium of free trump selection in both rulesets: a best response to copies of
# itself (configs/tune-klaverjas-free-rotterdam.toml and -amsterdam.toml, 200,000 deals a
# candidate) is 94 again, and the best other value, 96, loses 0.16 (Rotterdam, 95% interval
# 0.04 to 0.28) and 0.31 (Amsterdam, 0.18 to 0.44) points a deal against it
PARAMS = bot_params(KLAVERJAS_EVALUATOR, declare_threshold=94.0)
# the parameters that count something take whole numbers in a range (`BotFamily.counts`)
COUNTS = (("samples", 1, 1000), ("contract_tries", 0, 1000))
N_PARAMS = len(PARAMS)
(P_W_BASE, P_W_JACK, P_W_NINE, P_W_TRUMP_ACE, P_W_TRUMP, P_W_SIDE_ACE, P_W_TEN, P_W_VOID,
 P_W_ROEM, P_DECLARE, P_PULL_TRUMPS, P_CONTEST, P_SAMPLES, P_CONTRACT_TRIES) = range(N_PARAMS)
FULL32 = np.int64(0xFFFFFFFF)


def default_params() -> np.ndarray:
    return np.array([p[1] for p in PARAMS], dtype=np.float64)


# ---------------------------------------------------------------- hand evaluation and contract


@kernel
def evaluate_hand(hand, trump, T, params):
    """Estimated strength of ``hand`` with ``trump`` as trump: a base plus a weighted sum of
    documented features (trump jack, nine, ace, trump length, plain aces, guarded tens, voids,
    own melds). Klaverjassen's default weights make it predict the declaring team's card points
    (KLAVERJAS_EVALUATOR)."""
    trump_byte = (hand >> (8 * trump)) & 0xFF
    est = params[P_W_BASE] + params[P_W_TRUMP] * popcount(trump_byte)
    if trump_byte >> RJ & 1:
        est += params[P_W_JACK]
    if trump_byte >> R9 & 1:
        est += params[P_W_NINE]
    if trump_byte >> RA & 1:
        est += params[P_W_TRUMP_ACE]
    for suit in range(4):
        if suit == trump:
            continue
        byte = (hand >> (8 * suit)) & 0xFF
        if byte == 0:
            est += params[P_W_VOID]
            continue
        has_ace = byte >> RA & 1
        if has_ace:
            est += params[P_W_SIDE_ACE]
        if byte >> R10 & 1 and (has_ace or popcount(byte) >= 3):
            est += params[P_W_TEN]
    if params[P_W_ROEM] != 0:
        est += params[P_W_ROEM] * hand_melds(hand, trump, T)
    return est


@kernel
def best_trump(hand, T, params):
    """(suit, estimate) of the suit the evaluator likes best for ``hand`` (lowest suit on ties)."""
    best_suit, best_est = 0, -1e18
    for suit in range(4):
        est = evaluate_hand(hand, suit, T, params)
        if est > best_est:
            best_suit, best_est = suit, est
    return best_suit, best_est


@kernel
def choose_trump(kind, hand, T, params, rng):
    """Trump named by a bot that must play: its evaluator's favourite, or a random suit."""
    if kind == RANDOM:
        suit = randint(rng, 4)
        return suit, evaluate_hand(hand, suit, T, params)
    return best_trump(hand, T, params)


@kernel
def wants_to_declare(kind, hand, T, params):
    """``free`` trump selection: (takes the game?, suit, estimate)."""
    suit, est = best_trump(hand, T, params)
    if kind == RANDOM:
        return False, suit, est
    return est >= params[P_DECLARE], suit, est


# ---------------------------------------------------------------- card play
#
# As in the rules kernels (klaverjas/_kernels.py): suits by arithmetic (`suit_cards`), powers
# at the constant T_POWER offset, who-beats-whom as masks (`cards_beating`), and values read
# back from the state masked to their range so LLVM drops Numba's negative-index fix-ups.


@hot
def _power(T, trump, card):
    return T[T_POWER + 32 * (trump & 3) + (card & 31)]


@kernel
def _extreme(mask, T, trump, highest):
    """The card of ``mask`` with the highest (or lowest) power."""
    best = -1
    best_power = 0
    rest = mask
    while rest:
        card = lowest_bit_index(rest)
        p = _power(T, trump, card)
        if best < 0 or ((p > best_power) == highest and p != best_power):
            best, best_power = card, p
        rest &= rest - 1
    return best


@hot
def _suit_extreme(mask, suit, trump, highest):
    """`_extreme` of a mask within one printed suit, by table: the strongest (or weakest) card."""
    byte = (mask >> (8 * (suit & 3))) & 0xFF
    trumps = np.int64(suit == trump)
    rank = SUIT_TOP_RANK[trumps, byte] if highest else SUIT_LOW_RANK[trumps, byte]
    return 8 * suit + rank


@hot
def _suit_cards(trump, suit):
    """`suit_mask` for Klaverjassen: the cards of effective suit ``suit`` (0..3 or TRUMP); the
    trump suit's own plain index holds no card."""
    if suit == TRUMP:
        return suit_cards(trump)
    return np.int64(0) if suit == trump else suit_cards(suit)


@hot
def _void_cards(st, seat, T):
    """Cards ``seat`` cannot hold: every effective suit it has shown a void in."""
    voids = st[S_VOIDS + (seat & 3)]
    trump = st[S_TRUMP] & 3
    out = np.int64(0)
    for s in range(5):
        if voids >> s & 1:
            out |= _suit_cards(trump, s)
    return out


@hot
def _threats(st, T, seat, unseen):
    """Cards the opponents who play after ``seat`` in this trick may hold (one mask for all: a
    card beats ours whoever of them holds it)."""
    n = st[S_N_PLAYED] & 3
    out = np.int64(0)
    for pos in range(n + 1, 4):
        other = (st[S_LEADER] + pos) & 3
        if (other & 1) != (seat & 1):
            out |= unseen & ~_void_cards(st, other, T)
    return out


@kernel
def _opponents_may_beat(card, st, T, seat, unseen):
    """Could an opponent who plays after ``seat`` in this trick take it from ``card``?"""
    return _threats(st, T, seat, unseen) & cards_beating(card & 31, st[S_TRUMP] & 3, T) != 0


@hot
def _cost(card, trump, T):
    """How much a card is worth keeping: its points, its rank, and more for a trump."""
    c = card_points(T, trump & 3, card & 31) + 2 * _power(T, trump, card)
    if (card >> 3) == trump:
        c += 15
    return c


@kernel
def _cheapest(mask, st, T, roem_weight, trick_mask):
    """The card of ``mask`` that costs least to give up, counting roem it would add to the
    trick at ``roem_weight`` (positive: feeding the opponents costs; negative: our gain)."""
    trump = st[S_TRUMP] & 3
    weighed = roem_weight != 0.0  # a zero weight adds exactly 0.0: skip the roem look-ups
    base_roem = trick_roem(trick_mask, trump, T) if weighed else 0
    best, best_cost = -1, 1e18
    rest = mask
    while rest:
        card = lowest_bit_index(rest)
        c = _cost(card, trump, T) * 1.0
        if weighed:
            c += roem_weight * (trick_roem(trick_mask | (np.int64(1) << card), trump, T) - base_roem)
        if c < best_cost:
            best, best_cost = card, c
        rest &= rest - 1
    return best


@kernel
def _smear(legal, st, T, trick_mask):
    """Partner surely wins: give the most points (plain cards first), counting roem we make."""
    trump = st[S_TRUMP] & 3
    plain = legal & ~suit_cards(trump)
    pool = plain if plain != 0 else legal
    base_roem = trick_roem(trick_mask, trump, T)
    best, best_value = -1, -1e18
    rest = pool
    while rest:
        card = lowest_bit_index(rest)
        value = card_points(T, trump, card) * 1.0 - 0.1 * _power(T, trump, card)
        if plain == 0:  # only trumps: keep the strong ones
            value = -_cost(card, trump, T) * 1.0
        value += trick_roem(trick_mask | (np.int64(1) << card), trump, T) - base_roem
        if value > best_value:
            best, best_value = card, value
        rest &= rest - 1
    return best


@kernel
def _lead(seat, hand, legal, st, T, params, unseen):
    trump = st[S_TRUMP] & 3
    trump_cards = suit_cards(trump)
    my_trumps = hand & trump_cards
    declaring = (seat & 1) == (st[S_DECLARER] & 1)
    opp_trumps = np.int64(0)
    for opp in ((seat + 1) & 3, (seat + 3) & 3):
        if not (st[S_VOIDS + opp] >> TRUMP & 1):
            opp_trumps |= unseen & trump_cards
    # the declaring side pulls trumps: the boss trump always, a low one while long in trumps
    if declaring and my_trumps != 0 and opp_trumps != 0:
        top = _suit_extreme(my_trumps | (unseen & trump_cards), trump, trump, True)
        if my_trumps >> top & 1:
            return top
        if popcount(my_trumps) >= params[P_PULL_TRUMPS]:
            return _suit_extreme(my_trumps, trump, trump, False)
    # cash a plain-suit boss card no opponent is known to ruff
    best, best_points = -1, -1
    for suit in range(4):
        if suit == trump:
            continue
        mine = hand & suit_cards(suit)
        if mine == 0:
            continue
        top = _suit_extreme(mine | (unseen & suit_cards(suit)), suit, trump, True)
        if not (mine >> top & 1):
            continue
        ruffed = False
        for opp in ((seat + 1) & 3, (seat + 3) & 3):
            v = st[S_VOIDS + opp]
            if v >> suit & 1 and not (v >> TRUMP & 1) and opp_trumps != 0:
                ruffed = True
        if not ruffed and card_points(T, trump, top) > best_points:
            best, best_points = top, card_points(T, trump, top)
    if best >= 0:
        return best
    # otherwise lead low from a plain suit, never away from an unguarded ten
    pool = legal & ~trump_cards
    safe = np.int64(0)
    for suit in range(4):
        mine = pool & suit_cards(suit)
        if mine == 0:
            continue
        ten = np.int64(1) << (suit * 8 + R10)
        ace = np.int64(1) << (suit * 8 + RA)
        if mine & ten and not (mine & ace) and unseen & ace and popcount(mine) <= 2:
            continue
        safe |= mine
    if safe == 0:
        safe = pool if pool != 0 else legal
    return _cheapest(safe, st, T, 0.0, np.int64(0))


@kernel
def heuristic_card(seat, legal, st, T, params):
    """A sensible card: pull trumps as the strong declaring side, win cheaply, smear points on a
    trick the partner surely wins, duck and keep high cards when the trick is lost, and avoid
    feeding roem or points to the opponents."""
    if legal & (legal - 1) == 0:
        return lowest_bit_index(legal)
    seat &= 3
    hand = st[S_HAND + seat]
    unseen = FULL32 & ~st[S_PLAYED] & ~hand
    n = st[S_N_PLAYED] & 3
    if n == 0:
        return _lead(seat, hand, legal, st, T, params, unseen)
    trump = st[S_TRUMP] & 3
    trick_mask = np.int64(0)
    trick_points = 0
    for i in range(n):
        card = st[S_TRICK + i] & 31
        trick_mask |= np.int64(1) << card
        trick_points += card_points(T, trump, card)
    winner_pos = st[S_WIN_POS] & 3
    best = st[S_TRICK + winner_pos] & 31
    partner_winning = n >= 2 and winner_pos == n - 2
    if partner_winning:
        if _threats(st, T, seat, unseen) & cards_beating(best, trump, T) == 0:
            return _smear(legal, st, T, trick_mask)
        return _cheapest(legal, st, T, 0.0, trick_mask)
    winners = legal & cards_beating(best, trump, T)
    if winners != 0:
        threats = _threats(st, T, seat, unseen)
        safe = np.int64(0)
        rest = winners
        while rest:
            card = lowest_bit_index(rest)
            if threats & cards_beating(card, trump, T) == 0:
                safe |= np.int64(1) << card
            rest &= rest - 1
        if safe != 0:
            return _cheapest(safe, st, T, -1.0, trick_mask)
        if trick_points >= params[P_CONTEST]:
            return _cheapest(winners, st, T, -1.0, trick_mask)
    return _cheapest(legal, st, T, 1.0, trick_mask)


@hot
def choose_card(kind, legal, st, T, params, rng, work):
    """The card the bot of ``kind`` plays for the seat to move (``work``: the pimc bot's
    scratch, `_pimc.work_size`)."""
    if kind == RANDOM:
        return nth_bit_index(legal, randint(rng, popcount(legal)))
    if kind == PIMC:
        return pimc_card(st[S_TO_MOVE] & 3, legal, st, T, params, rng, work)
    return heuristic_card(st[S_TO_MOVE], legal, st, T, params)
