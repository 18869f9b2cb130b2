"""Skat (docs/rules.md, skat; the International Skat Order): options and the flat rule table.

Design decisions, where the sources leave room:
- Seats and dealer: deal ``i`` of a run is dealt by seat ``i % 3``; forehand (left of the
  dealer, ``dealer + 1``) leads the first trick in every contract, middlehand is
  ``dealer + 2``, rearhand (the dealer) ``dealer``.
- Auction: middlehand bids to forehand (forehand holds or passes, middlehand raises or
  passes), then rearhand bids to the survivor. A bid is any ladder value above the last one
  (jumps allowed). When middlehand and rearhand pass without a bid, forehand may play at 18 or
  pass; all passing is a passed-in deal (``passed_in = "record"``: a row with contract -1,
  "passed", declarer -1 and every score 0, counted as a deal).
- Declaration: the declarer takes the Skat and discards two, or plays Hand. Only Hand games may
  announce Schneider or Schwarz; suit and Grand Ouvert are Hand with Schwarz announced; Null
  Ouvert may follow a pickup. A declaration must be able to reach the bid: its highest possible
  value (every level it may still win counted, and in a Hand game the matadors the unseen
  Skat could still give) at least the bid; a Null only where its fixed value reaches the bid.
  The interactive API refuses any other declaration; bots never make one.
- Play ends after ten tricks, or in a Null as soon as the declarer takes a trick (the rest
  of the cards stay unplayed; the row's card points and tricks then count only what was
  played, the Skat with the declarer).
- Card points count the Skat (picked-up or discarded cards, or the untouched Skat in a Hand
  game) for the declarer, also in Null, where they decide nothing.
- Scores: both the list score (won +value, lost -2 x value) and the Seeger-Fabian score (won
  +value +50; lost -2 x value -50, each defender +40) are written for every seat; ``scoring``
  chooses which of the two the ``score_*`` columns (and the tuning objective) use.
- Kontra (house rule, ``kontra``, off by default): each defender may say Kontra before its
  first card; the declarer may then say Re. The list value part of the score is doubled by
  Kontra and doubled again by Re (the Seeger-Fabian 50 and 40 are not). Bots decide from
  their hands before the first card.
"""

from __future__ import annotations

import numpy as np

from simcards.cards import DECK32
from simcards.engine.trick import TRUMP
from simcards.games.options import Option
from simcards.games.skat.scoring import BASE_VALUES, BID_LADDER, CONTRACTS, NULL_VALUES
from simcards.engine.tables import Layout

RULES_VERSION = 1
N_SEATS, N_TRICKS, HAND_SIZE, N_CARDS = 3, 10, 10, 32
TOTAL_CARD_POINTS = 120

SCORINGS = ("list", "seeger-fabian")
PASSED_IN = ("record",)

OPTIONS = (
    Option("scoring", "list", "which score the score_* columns and tuning use: list (won +value, "
           "lost -2 x value) or seeger-fabian (won +value +50, lost -2 x value -50 and +40 to "
           "each defender); both are always in the data", choices=SCORINGS),
    Option("passed_in", "record", "a deal every player passes: record = a row with contract "
           "'passed' (-1) and every score 0, counted as a deal", choices=PASSED_IN),
    Option("kontra", False, "house rule: defenders may double (Kontra) before their first card, "
           "the declarer redouble (Re); the list value x2 / x4"),
    Option("double_dummy", False, "analysis: add each deal's perfect-play columns (dd_points, "
           "dd_wins, dd_lost_declarer, dd_lost_defenders) from the double-dummy solver; slow "
           "(about 0.2 s a deal)"),
)

# contract ids (the order of the public CONTRACTS): four suits, Grand, Null
DIAMONDS, HEARTS, SPADES, CLUBS, GRAND, NULL = range(6)
N_CONTRACTS = 6
PASSED = -1  # the contract column of a passed-in deal
SUIT_GAMES = (DIAMONDS, HEARTS, SPADES, CLUBS)
TRUMP_SUIT = (1, 2, 3, 0)  # card suit (C D H S = 0..3) of each suit contract's trumps

# ranks of the 32-card deck in id order: 7 8 9 10 J Q K A
R7, R8, R9, R10, RJ, RQ, RK, RA = range(8)
POINTS_BY_RANK = (0, 0, 0, 10, 2, 3, 4, 11)
PLAIN_POWER = (0, 1, 2, 5, -1, 3, 4, 6)  # A 10 K Q 9 8 7 (the jack is never plain in suit/Grand)
NULL_POWER = (0, 1, 2, 3, 4, 5, 6, 7)  # A K Q J 10 9 8 7: the natural order
JACK_POWER = {0: 10, 3: 9, 2: 8, 1: 7}  # JC JS JH JD above every other trump
JACKS_MASK = sum(1 << (s * 8 + RJ) for s in range(4))
JACK_ORDER = tuple(s * 8 + RJ for s in (0, 3, 2, 1))  # JC JS JH JD

# Null values by (hand, ouvert) and the variants a declaration may take
NULL_PLAIN, NULL_HAND, NULL_OUVERT, NULL_OUVERT_HAND = (NULL_VALUES[(False, False)], NULL_VALUES[(True, False)],
                                                        NULL_VALUES[(False, True)], NULL_VALUES[(True, True)])

# ---- slots of the "rules" block
R_SCORING, R_KONTRA, R_N_LADDER = range(3)
N_RULE_SLOTS = 3
SCORING_LIST, SCORING_SEEGER = 0, 1
N_LADDER = len(BID_LADDER)
MAX_TRUMPS = 11

LAYOUT = Layout(
    N_CARDS,
    rules=(N_RULE_SLOTS,),
    points=(N_CARDS,),  # card points of each card
    ladder=(N_LADDER,),  # the 63 bid values, ascending
    base=(N_CONTRACTS,),  # base value (suits, Grand) or the plain Null value
    trump_order=(N_CONTRACTS, MAX_TRUMPS),  # the trumps from the club jack down (-1 padded)
    n_trumps=(N_CONTRACTS,),  # trumps in the order (11 suit, 4 Grand, 0 Null)
    null_danger=(256,),  # the Null danger of one suit's holding (a byte of rank bits)
    beaters=(N_CONTRACTS, N_CARDS),  # cards that take a trick from this card (played after it)
    eff_suit=(N_CONTRACTS, N_CARDS),
    power=(N_CONTRACTS, N_CARDS),
    suit_masks=(N_CONTRACTS, 5),
)
T_RULES = LAYOUT.offset("rules")
T_POINTS = LAYOUT.offset("points")
T_LADDER = LAYOUT.offset("ladder")
T_BASE = LAYOUT.offset("base")
T_TRUMP_ORDER = LAYOUT.offset("trump_order")
T_N_TRUMPS = LAYOUT.offset("n_trumps")
T_BEATERS = LAYOUT.offset("beaters")
T_NULL_DANGER = LAYOUT.offset("null_danger")
T_POWER = LAYOUT.offset("power")
T_EFF_SUIT = LAYOUT.offset("eff_suit")
T_SUIT_MASKS = LAYOUT.offset("suit_masks")


def null_suit_danger(byte: int) -> int:
    """How far a suit's cards sit above the safe Null ladder 7-9-J-K: the k-th lowest card
    (from 0) is safe at natural rank 2k or below; each rank above adds one."""
    danger, k = 0, 0
    for rank in range(8):
        if byte >> rank & 1:
            danger += max(0, rank - 2 * k)
            k += 1
    return danger


def contract_tables(contract: int):
    """(eff_suit, power, suit_masks) of one contract: the suit, Grand and Null card orders."""
    eff = np.empty(N_CARDS, dtype=np.int64)
    power = np.empty(N_CARDS, dtype=np.int64)
    masks = np.zeros(5, dtype=np.int64)
    trump_suit = TRUMP_SUIT[contract] if contract in SUIT_GAMES else -1
    for card in range(N_CARDS):
        suit, rank = divmod(card, 8)
        if contract == NULL:
            eff[card], power[card] = suit, NULL_POWER[rank]
        elif rank == RJ:
            eff[card], power[card] = TRUMP, JACK_POWER[suit]
        elif suit == trump_suit:
            eff[card], power[card] = TRUMP, PLAIN_POWER[rank]
        else:
            eff[card], power[card] = suit, PLAIN_POWER[rank]
        masks[eff[card]] |= 1 << card
    return eff, power, masks


def trump_order_ids(contract: int) -> list[int]:
    """Card ids of the contract's trumps, highest first (none in Null)."""
    if contract == NULL:
        return []
    order = list(JACK_ORDER)
    if contract != GRAND:
        suit = TRUMP_SUIT[contract]
        order += [suit * 8 + r for r in (RA, R10, RK, RQ, R9, R8, R7)]
    return order


def build_tables(options: dict) -> np.ndarray:
    rules = np.zeros(N_RULE_SLOTS, dtype=np.int64)
    rules[R_SCORING] = SCORINGS.index(options["scoring"])
    rules[R_KONTRA] = int(options["kontra"])
    rules[R_N_LADDER] = N_LADDER
    points = np.array([POINTS_BY_RANK[c % 8] for c in range(N_CARDS)], dtype=np.int64)
    base = np.array([BASE_VALUES[c] for c in CONTRACTS[:5]] + [NULL_PLAIN], dtype=np.int64)
    order = np.full((N_CONTRACTS, MAX_TRUMPS), -1, dtype=np.int64)
    n_trumps = np.zeros(N_CONTRACTS, dtype=np.int64)
    eff = np.empty((N_CONTRACTS, N_CARDS), dtype=np.int64)
    power = np.empty((N_CONTRACTS, N_CARDS), dtype=np.int64)
    masks = np.empty((N_CONTRACTS, 5), dtype=np.int64)
    beaters = np.zeros((N_CONTRACTS, N_CARDS), dtype=np.int64)
    for contract in range(N_CONTRACTS):
        ids = trump_order_ids(contract)
        order[contract, :len(ids)] = ids
        n_trumps[contract] = len(ids)
        eff[contract], power[contract], masks[contract] = contract_tables(contract)
        for card in range(N_CARDS):
            for other in range(N_CARDS):
                same = eff[contract, other] == eff[contract, card]
                if (same and power[contract, other] > power[contract, card]) or (
                        not same and eff[contract, other] == TRUMP):
                    beaters[contract, card] |= 1 << other
    return LAYOUT.pack(rules=rules, points=points, ladder=np.array(BID_LADDER), base=base,
                       trump_order=order, n_trumps=n_trumps, beaters=beaters,
                       null_danger=np.array([null_suit_danger(b) for b in range(256)]), eff_suit=eff, power=power,
                       suit_masks=masks)


assert DECK32.card_id("JC") == JACK_ORDER[0] and DECK32.card_id("AD") == 1 * 8 + RA
