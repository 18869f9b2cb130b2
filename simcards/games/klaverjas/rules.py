"""Klaverjassen, Rotterdam and Amsterdam (docs/rules.md, klaverjas-rotterdam).

Design decisions, where the sources are silent:
- Forehand (left of the dealer) always leads the first trick, whoever declares.
- Four jacks on the table are 200 roem whatever ``four_kind_ranks`` says; the option lists the
  ranks that count 100.
- Stuk (K and Q of trump in one trick) is 20 on its own and is added to a sequence it belongs to
  (J-Q-K of trump = 40), as docs/rules.md says.
- The pit bonus is counted as roem of the team that took every trick (defenders only when
  ``defenders_pit``), so it enters the nat decision like any roem.
- A nat team scores 0; the other team scores 162 plus the roem of both teams.
- The per-seat hand melds (``roem_hand_*`` columns) use section 2's definition: runs of 3/4/5+
  are 20/50/100 each, four of a kind of a rank in ``hand_four_kind_ranks`` 100 (jacks 200),
  stuk of the deal's trump 20. They are recorded, not scored, in plain Klaverjassen.
- Random bots never volunteer in ``free`` trump selection; when they must name a trump they name
  a uniformly random suit.
"""

from __future__ import annotations

import numpy as np

from simcards.cards import DECK32
from simcards.engine.trick import suit_tables
from simcards.games.options import Option
from simcards.engine.tables import Layout

RULES_VERSION = 1

RANKS = DECK32.ranks  # 7 8 9 10 J Q K A -> rank index 0..7
R7, R8, R9, R10, RJ, RQ, RK, RA = range(8)
TRUMP_POWER = np.array([0, 1, 6, 4, 7, 2, 3, 5], dtype=np.int64)  # J 9 A 10 K Q 8 7
PLAIN_POWER = np.array([0, 1, 2, 6, 3, 4, 5, 7], dtype=np.int64)  # A 10 K Q J 9 8 7
# PLAIN_HIGHER[rank]: 8-bit mask of the ranks that beat ``rank`` within a plain suit
PLAIN_HIGHER = np.array([sum(1 << q for q in range(8) if PLAIN_POWER[q] > PLAIN_POWER[r])
                         for r in range(8)], dtype=np.int64)
# [trumps?, 8-bit rank mask of one suit] -> rank of its strongest / weakest card (-1 if none)
SUIT_TOP_RANK = np.array([[max((r for r in range(8) if b >> r & 1), key=lambda r: pw[r], default=-1)
                           for b in range(256)] for pw in (PLAIN_POWER, TRUMP_POWER)], dtype=np.int64)
SUIT_LOW_RANK = np.array([[min((r for r in range(8) if b >> r & 1), key=lambda r: pw[r], default=-1)
                           for b in range(256)] for pw in (PLAIN_POWER, TRUMP_POWER)], dtype=np.int64)
TRUMP_POINTS = np.array([0, 0, 14, 10, 20, 3, 4, 11], dtype=np.int64)
PLAIN_POINTS = np.array([0, 0, 0, 10, 2, 3, 4, 11], dtype=np.int64)
LAST_TRICK_BONUS = 10
TOTAL_CARD_POINTS = 162
PARTNERSHIPS = ((0, 2), (1, 3))  # team 0: seats 0 and 2; team 1: seats 1 and 3
STUK_VALUE = 20

TRUMP_SELECTIONS = ("forced", "free", "random")
SEL_FORCED, SEL_FREE, SEL_RANDOM = range(3)

OPTIONS = (
    Option("table_roem", True, "count roem on the four cards of each trick for its winner"),
    Option("four_kind_ranks", ("A", "10", "K", "Q"),
           "ranks whose four of a kind on the table is 100 roem (four jacks are always 200)",
           item_choices=RANKS),
    Option("pit_bonus", 100, "roem for the team that takes all eight tricks", minimum=0, maximum=10_000),
    Option("defenders_pit", True, "the defending team also gets the pit bonus"),
    Option("nat_on_tie", True, "a tie between playing team and opponents makes the playing team nat"),
    Option("trump_selection", "forced", "forced: forehand names trump and plays; free: each in turn "
           "may take the game or pass, forehand plays if all pass; random: a random suit, forehand plays",
           choices=TRUMP_SELECTIONS),
    Option("hand_four_kind_ranks", RANKS,
           "ranks whose four of a kind in one hand counts as a hand meld (100, jacks 200)",
           item_choices=RANKS),
    Option("deals_per_match", 16, "deals in a match", minimum=1, maximum=1024),
    Option("double_dummy", False, "analysis: add each deal's perfect-play columns (dd_margin, "
           "dd_nat, bot_margin, dd_lost_declaring, dd_lost_defending) from the double-dummy "
           "solver; slow (tens of milliseconds a deal)"),
)

# slots of the "rules" block
R_AMSTERDAM, R_TABLE_ROEM, R_PIT_BONUS, R_DEFENDERS_PIT, R_NAT_ON_TIE, R_TRUMP_SELECTION = range(6)
N_RULE_SLOTS = 6

# Everything the kernels know about a rule set, one flat int64 array (simcards/engine/tables.py).
# The contract index of the trick tables is the trump suit.
LAYOUT = Layout(
    32,
    rules=(N_RULE_SLOTS,),  # R_* slots
    eff_suit=(4, 32),  # [trump, card]: 0..3 or TRUMP
    power=(4, 32),  # strength within the effective suit
    suit_masks=(4, 5),  # cards of each effective suit
    higher_trump=(4, 32),  # trumps beating a trump card (0 for plain cards)
    points=(4, 32),  # card points
    table_run=(256,),  # sequence roem of one suit's cards in a trick
    table_four=(8,),  # four-of-a-kind roem in a trick, by rank
    hand_run=(256,),  # run melds of one suit's cards in a hand
    hand_four=(8,),  # four-of-a-kind hand meld, by rank
    stuk_mask=(4,),  # K and Q of each trump suit
)
T_RULES = LAYOUT.offset("rules")
T_POWER = LAYOUT.offset("power")
T_HIGHER = LAYOUT.offset("higher_trump")
T_POINTS = LAYOUT.offset("points")
T_TABLE_RUN = LAYOUT.offset("table_run")
T_TABLE_FOUR = LAYOUT.offset("table_four")
T_HAND_RUN = LAYOUT.offset("hand_run")
T_HAND_FOUR = LAYOUT.offset("hand_four")
T_STUK = LAYOUT.offset("stuk_mask")


def run_lengths(byte: int) -> list[int]:
    """Lengths of the maximal runs of consecutive set bits of one suit's 8-bit mask."""
    runs, length = [], 0
    for bit in range(9):
        if bit < 8 and byte >> bit & 1:
            length += 1
        elif length:
            runs.append(length)
            length = 0
    return runs


def _run_table(value_of_length) -> np.ndarray:
    return np.array([sum(value_of_length(n) for n in run_lengths(b)) for b in range(256)],
                    dtype=np.int64)


def table_sequence_value(length: int) -> int:
    return {3: 20, 4: 50}.get(length, 0)  # a trick has at most four cards


def hand_run_value(length: int) -> int:
    return 0 if length < 3 else 20 if length == 3 else 50 if length == 4 else 100


def four_kind_values(ranks, jack_value: int = 200) -> np.ndarray:
    out = np.zeros(8, dtype=np.int64)
    for rank in ranks:
        index = RANKS.index(rank)
        out[index] = jack_value if index == RJ else 100
    return out


def build_tables(options: dict, amsterdam: bool) -> np.ndarray:
    rules = np.zeros(N_RULE_SLOTS, dtype=np.int64)
    rules[R_AMSTERDAM] = int(amsterdam)
    rules[R_TABLE_ROEM] = int(options["table_roem"])
    rules[R_PIT_BONUS] = options["pit_bonus"]
    rules[R_DEFENDERS_PIT] = int(options["defenders_pit"])
    rules[R_NAT_ON_TIE] = int(options["nat_on_tie"])
    rules[R_TRUMP_SELECTION] = TRUMP_SELECTIONS.index(options["trump_selection"])

    eff_suit = np.zeros((4, 32), dtype=np.int64)
    power = np.zeros((4, 32), dtype=np.int64)
    suit_masks = np.zeros((4, 5), dtype=np.int64)
    higher = np.zeros((4, 32), dtype=np.int64)
    points = np.zeros((4, 32), dtype=np.int64)
    stuk = np.zeros(4, dtype=np.int64)
    for trump in range(4):
        eff_suit[trump], power[trump], suit_masks[trump] = suit_tables(
            8, 1, trump, TRUMP_POWER, PLAIN_POWER)
        for card in range(32):
            suit, rank = divmod(card, 8)
            points[trump, card] = TRUMP_POINTS[rank] if suit == trump else PLAIN_POINTS[rank]
            if suit == trump:
                for other in range(trump * 8, trump * 8 + 8):
                    if TRUMP_POWER[other % 8] > TRUMP_POWER[rank]:
                        higher[trump, card] |= 1 << other
        stuk[trump] = (1 << (trump * 8 + RK)) | (1 << (trump * 8 + RQ))
    return LAYOUT.pack(
        rules=rules, eff_suit=eff_suit, power=power, suit_masks=suit_masks, higher_trump=higher,
        points=points, table_run=_run_table(table_sequence_value),
        table_four=four_kind_values(tuple(options["four_kind_ranks"]) + ("J",)),
        hand_run=_run_table(hand_run_value),
        hand_four=four_kind_values(options["hand_four_kind_ranks"]), stuk_mask=stuk,
    )
