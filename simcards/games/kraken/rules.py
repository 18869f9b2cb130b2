"""Kraken: `kraken-contra` (docs/rules.md, kraken-contra) and `kraken-scorebord` (docs/rules.md, kraken-scorebord).

Both are Klaverjassen with forced trump selection plus bidding (kraak and higher), roem in the
hand, and a match. The deal is played by the Klaverjassen kernels unchanged: Kraken builds the
Klaverjassen table (play rules, table roem on or off, pit bonus) and appends its own block
(bidding, hand-roem keys, scoring and match rules) after it, so one flat table serves both.

Design decisions, where the sources are silent:
- Dealer and declarer: the first dealer of a match is drawn from the match's own random stream;
  the dealer rotates clockwise every deal; forehand (left of the dealer) names trump, declares
  and leads the first trick. In a 16-deal contra match every seat declares four times.
- Bidding order: the defender left of the declarer decides first, then its partner; after a
  kraak the declarer decides first, then its partner; after a rekraak the defender left of the
  declarer first, then its partner. A bid ends that level's round; nobody decides a level whose
  previous level was not bid.
- Contra burden (nat decision): the team that made the last bid (the playing team without a bid)
  must score more than the other team, card points plus all counted roem. The sources do not say
  whether card points enter multiplied; `nat_points` = "raw" (default) decides on unmultiplied
  card points as section 3 does explicitly, "multiplied" on the doubled points. A tie is nat for
  the burden team (`nat_on_tie`).
- Whether a bid multiplies the card points is not said either: `bid_multiplies_points` (default
  true, as the crosses suggest) multiplies them by 2^bid in the score; false leaves the score
  at raw card points plus roem and lets the bid raise only the crosses. `nat_points` =
  "multiplied" is a choice about multiplied points, so it needs `bid_multiplies_points`.
- Contra keeps Klaverjassen's pit bonus (100 roem, `pit_bonus`; section 2 builds on section 1
  and does not drop it) besides the pit cross.
- Contra scores: card points x 2^bid plus the team's roem; a nat team scores 0 and the other team
  162 x 2^bid plus all counted roem of both teams. Roem (hand melds, stuk, table roem when on,
  the pit bonus) is never multiplied.
- Contra crosses: with a bid, the losing team gets 2^bid crosses (2/4/8), doubled with spades;
  a team that took no trick gets 1 cross (2 with spades) when `pit_cross`, in any deal, on top.
  At the end of the match the team with fewer total points gets `match_end_crosses` (4); equal
  points give none. Fewer crosses wins the match; equal crosses is a draw (winner -1).
- Hand roem: the single highest non-stuk meld of the four dealt hands decides. Its key is
  (value; four of a kind over run when `hand_roem_four_beats_run`; top card's rank in natural
  order; top card's suit in `hand_roem_suit_order`). A four of a kind's top card is its card in
  the highest suit of that order. Every key names a card (the top card), and a card lies in one
  hand only, so two melds of different teams never tie. The winning team scores every non-stuk
  meld of both its hands; stuk (K and Q of trump in one hand) counts for its holder's team.
  With `hand_roem_needs_trick` a team that takes no trick scores no hand roem and no stuk.
- Scorebord nat: always the playing team's (bids only change the stakes), on unmultiplied card
  points plus the team's counted roem (hand roem awarded, stuk, table roem, pit bonus).
- Scorebord entries: roem counts roem/10 (all roem here is a multiple of 10; `pit_bonus` must be
  too). The game ends after the deal in which a team's total reaches `target`; the higher total
  wins; an exact tie plays another deal (at most 1024 deals: a game that reaches that is a draw).
- The per-seat `roem_hand_*` columns are the hand's melds with the deal's trump (stuk included),
  before any awarding, as in Klaverjassen.
"""

from __future__ import annotations

import numpy as np

from simcards.cards import SUITS
from simcards.errors import UserError
from simcards.games.klaverjas.rules import LAYOUT, RANKS, build_tables, hand_run_value
from simcards.games.options import Option
from simcards.rng import MAX_DEALS_PER_MATCH

RULES_VERSION = 1

CONTRA, SCOREBORD = 0, 1
PLAY_RULES = ("amsterdam", "rotterdam")
ROUNDINGS = ("half_up", "floor")
NAT_POINTS = ("raw", "multiplied")
SPADES = SUITS.index("S")

# bid levels
NO_BID, KRAAK, REKRAAK, SUPERKRAAK = range(4)
OVERKRAAK = REKRAAK
BID_NAMES = {CONTRA: ("none", "kraak", "rekraak", "superkraak"),
             SCOREBORD: ("none", "kraak", "overkraak")}

# scoreboard marks
MARK_NONE, MARK_NAT, MARK_KRAAK = range(3)
MARK_NAMES = ("", "NAT", "KRAAK")


def _common_options(suit_order: tuple, four_beats_run: bool, needs_trick: bool,
                    table_roem: bool) -> tuple[Option, ...]:
    return (
        Option("play_rules", "amsterdam", "legal moves: amsterdam (no trumping over a partner's "
               "winning trick) or rotterdam (always trump when unable to follow)", choices=PLAY_RULES),
        Option("table_roem", table_roem, "count roem on the four cards of each trick for its winner"),
        Option("four_kind_ranks", ("A", "10", "K", "Q"),
               "ranks whose four of a kind in one trick is 100 table roem (four jacks are 200)",
               item_choices=RANKS),
        Option("hand_four_kind_ranks", RANKS,
               "ranks whose four of a kind in one hand is a hand meld (100, jacks 200)",
               item_choices=RANKS),
        Option("hand_roem_suit_order", suit_order,
               "suits from high to low for the last hand-roem tie-break (a permutation of S H D C)",
               item_choices=tuple(SUITS)),
        Option("hand_roem_four_beats_run", four_beats_run,
               "at equal value a four of a kind beats a run in the hand-roem comparison"),
        Option("hand_roem_needs_trick", needs_trick,
               "hand roem (stuk included) counts only for a team that takes at least one trick"),
        Option("pit_bonus", 100, "roem for the team that takes all eight tricks", minimum=0, maximum=10_000),
        Option("defenders_pit", True, "the defending team also gets the pit bonus"),
        Option("nat_on_tie", True, "a tie makes the team that must score more nat"),
        Option("double_dummy", False, "analysis: add each deal's perfect-play columns (dd_margin, "
               "dd_nat, dd_kraak_wins, bot_margin, dd_lost_declaring, dd_lost_defending) from the "
               "double-dummy solver; slow (tens of milliseconds a deal)"),
    )


CONTRA_OPTIONS = _common_options(("S", "H", "C", "D"), True, True, False) + (
    Option("max_bid", SUPERKRAAK, "highest bid allowed: 0 none, 1 kraak, 2 rekraak, 3 superkraak",
           choices=(0, 1, 2, 3)),
    Option("bid_multiplies_points", True, "a bid multiplies the deal's card points in the score "
           "(kraak x2, rekraak x4, superkraak x8); false: the bid raises only the crosses"),
    Option("nat_points", "raw", "card points in the nat decision: raw (unmultiplied) or "
           "multiplied by the bid (needs bid_multiplies_points)", choices=NAT_POINTS),
    Option("pit_cross", True, "a team that takes no trick gets 1 cross (2 with spades trump)"),
    Option("match_end_crosses", 4, "crosses for the team with fewer total points after the "
           "last deal of the match", minimum=0, maximum=1_000),
    Option("deals_per_match", 16, "deals in a match", minimum=1, maximum=MAX_DEALS_PER_MATCH),
)

SCOREBORD_OPTIONS = _common_options(("S", "H", "D", "C"), False, False, True) + (
    Option("max_bid", OVERKRAAK, "highest bid allowed: 0 none, 1 kraak, 2 overkraak",
           choices=(0, 1, 2)),
    Option("scoreboard_rounding", "half_up", "card points x spades factor / 10 on the scoreboard: "
           "half_up or floor", choices=ROUNDINGS),
    Option("target", 250, "the game ends after the deal in which a team's total reaches this",
           minimum=1, maximum=10_000),
)

# ---- the Kraken block, appended after the Klaverjassen table (offsets from its start)
# the contra scoring rules, a block of N_CONTRA_RULES slots from KR_CONTRA_RULES (`contra_score`)
CR_NAT_ON_TIE, CR_NAT_MULTIPLIED, CR_PIT_CROSS, CR_BID_MULTIPLIES = range(4)
N_CONTRA_RULES = 4
KR_VARIANT, KR_MAX_BID, KR_NEEDS_TRICK, KR_FOUR_BEATS_RUN, KR_CONTRA_RULES = range(5)
(KR_END_CROSSES, KR_DEALS, KR_TARGET, KR_ROUND_FLOOR,
 KR_PIT_BONUS) = range(KR_CONTRA_RULES + N_CONTRA_RULES, KR_CONTRA_RULES + N_CONTRA_RULES + 5)
N_KR_SLOTS = KR_PIT_BONUS + 1
KRAKEN_BASE = LAYOUT.size
K_RULES = KRAKEN_BASE
K_RUN_KEY = K_RULES + N_KR_SLOTS  # [256]: key of the best run of one suit's byte, suit part 0
K_FOUR_KEY = K_RUN_KEY + 256  # [8]: key of a four of a kind by rank (0: not a meld)
K_SUIT_RANK = K_FOUR_KEY + 8  # [4]: place of each suit in the tie-break order (3 = highest)
TABLE_SIZE = K_SUIT_RANK + 4

# A meld key is value * 64 + four_bonus * 32 + top_rank * 4 + suit_rank: larger is better.
KEY_VALUE, KEY_FOUR, KEY_RANK = 64, 32, 4


def meld_key(value: int, is_four: bool, top_rank: int, suit_rank: int, four_beats_run: bool) -> int:
    return (value * KEY_VALUE + (KEY_FOUR if is_four and four_beats_run else 0)
            + top_rank * KEY_RANK + suit_rank)


def best_run(byte: int) -> tuple[int, int]:
    """(value, top rank) of the best run in one suit's 8-bit mask: highest value, then highest
    top card; (0, -1) without a run of three."""
    best, top, length = (0, -1), -1, 0
    for bit in range(9):
        if bit < 8 and byte >> bit & 1:
            length += 1
            top = bit
        elif length:
            value = hand_run_value(length)
            if value and (value, top) > best:
                best = (value, top)
            length = 0
    return best


def check_options(name: str, options: dict) -> None:
    """Checks the option list alone cannot make (UserError naming the option)."""
    order = options["hand_roem_suit_order"]
    if sorted(order) != sorted(SUITS):
        raise UserError(f"option 'hand_roem_suit_order' = {list(order)!r} is not allowed for {name}; "
                        f"use the four suits S, H, D, C once each, highest first")
    if options.get("deals_per_match", 1) > MAX_DEALS_PER_MATCH:
        raise UserError(f"option 'deals_per_match' = {options['deals_per_match']!r} is not allowed "
                        f"for {name}; use an integer from 1 to {MAX_DEALS_PER_MATCH}")
    if options.get("nat_points") == "multiplied" and not options.get("bid_multiplies_points", True):
        raise UserError(f"option 'nat_points' = 'multiplied' is not allowed for {name} with "
                        f"bid_multiplies_points = false (no card point is multiplied then); use "
                        f"nat_points = 'raw' or bid_multiplies_points = true")
    if "target" in options and options["pit_bonus"] % 10:
        raise UserError(f"option 'pit_bonus' = {options['pit_bonus']!r} is not allowed for {name}; "
                        f"use a multiple of 10 (the scoreboard is written in units of 10)")


def contra_rules(options: dict) -> np.ndarray:
    """The contra scoring rules block (CR_* slots) of these options."""
    rules = np.zeros(N_CONTRA_RULES, dtype=np.int64)
    rules[CR_NAT_ON_TIE] = int(options.get("nat_on_tie", True))
    rules[CR_NAT_MULTIPLIED] = int(options.get("nat_points", "raw") == "multiplied")
    rules[CR_PIT_CROSS] = int(options.get("pit_cross", False))
    rules[CR_BID_MULTIPLIES] = int(options.get("bid_multiplies_points", True))
    return rules


def build_kraken_tables(options: dict, variant: int) -> np.ndarray:
    """The Klaverjassen table of these options with the Kraken block appended."""
    klaverjas = build_tables({
        "table_roem": options["table_roem"],
        "four_kind_ranks": options["four_kind_ranks"],
        "pit_bonus": options["pit_bonus"],
        "defenders_pit": options["defenders_pit"],
        "nat_on_tie": options["nat_on_tie"],
        "trump_selection": "forced",
        "hand_four_kind_ranks": options["hand_four_kind_ranks"],
    }, amsterdam=options["play_rules"] == "amsterdam")
    rules = np.zeros(N_KR_SLOTS, dtype=np.int64)
    rules[KR_VARIANT] = variant
    rules[KR_MAX_BID] = options["max_bid"]
    rules[KR_NEEDS_TRICK] = int(options["hand_roem_needs_trick"])
    rules[KR_FOUR_BEATS_RUN] = int(options["hand_roem_four_beats_run"])
    rules[KR_CONTRA_RULES:KR_CONTRA_RULES + N_CONTRA_RULES] = contra_rules(options)
    rules[KR_END_CROSSES] = options.get("match_end_crosses", 0)
    rules[KR_DEALS] = options.get("deals_per_match", MAX_DEALS_PER_MATCH)
    rules[KR_TARGET] = options.get("target", 0)
    rules[KR_ROUND_FLOOR] = int(options.get("scoreboard_rounding", "half_up") == "floor")
    rules[KR_PIT_BONUS] = options["pit_bonus"]

    four_beats = bool(options["hand_roem_four_beats_run"])
    run_key = np.zeros(256, dtype=np.int64)
    for byte in range(256):
        value, top = best_run(byte)
        if value:
            run_key[byte] = meld_key(value, False, top, 0, four_beats)
    four_key = np.zeros(8, dtype=np.int64)
    for rank_code in options["hand_four_kind_ranks"]:
        rank = RANKS.index(rank_code)
        value = 200 if rank_code == "J" else 100
        four_key[rank] = meld_key(value, True, rank, 3, four_beats)
    order = options["hand_roem_suit_order"]
    suit_rank = np.array([3 - order.index(s) for s in SUITS], dtype=np.int64)
    table = np.concatenate([klaverjas, rules, run_key, four_key, suit_rank])
    assert table.size == TABLE_SIZE
    return table

