"""Hartenjagen (Dutch, docs/rules.md, hartenjagen) and Hearts (American, section 5).

One set of kernels plays both: the rule slots below switch the Dutch and American behaviour,
and the trick tables are plain no-trump tables (simcards/engine/trick.py, NO_TRUMP).

Design decisions, where the sources are silent:
- A run's unit is a whole game (``unit = "match"``). Game ``m`` deals its deals as global deal
  indices ``match_deal_index(m, deal_no)``; its first dealer is seat ``m % 4`` and the dealer
  rotates clockwise every deal. A game stops after MAX_DEALS_PER_MATCH (1024) deals at the
  latest (``capped``; never seen in practice) and is then placed by score.
- Hearts are *broken* once any heart has been played to a trick (a discard or a lead of a
  player holding only hearts); the QS breaks them only with ``qs_breaks_hearts``. A leader
  holding only hearts may always lead one. This is OpenSpiel's reading as well.
- First trick (American, ``no_points_first_trick``): the 2 of clubs is led; a player void in
  clubs may not discard a heart or the QS unless holding nothing else.
- Shoot the moon: one player takes every point card of the deal (15 / 26 points). ``others``:
  every opponent scores +15/+26 and the shooter 0; ``self``: the shooter scores -15/-26 and
  the others 0. Both keep all score differences the same, so with ``choose`` the shooter
  decides by where it stands: a shooter ranked first (ties included) after the deal takes
  ``others`` (it brings the end of the game, or the Dutch return, nearer while it leads, and
  wins outright when it ends the game); a shooter behind takes ``self`` (which never ends the
  game and leaves it time to catch up). Every bot kind uses this rule.
- Hartenjagen return (terugweg): a deal's phase is fixed when it starts. In the return phase
  every player subtracts the points it takes and there is no moon scoring (taking all 15 simply
  subtracts 15, which is what a return player wants anyway); ``moon`` is -1 on return deals.
  A player already at 0 or below when the return starts wins after the first return deal unless
  someone ends lower.
- Placings: lower score is better. Hartenjagen ends after the first return deal that leaves a
  score at or below 0; among those players the lowest score wins, then the most points taken in
  that deal; everybody else is placed by score. Equal keys share a placing (1, 1, 3, 4).
- Passing (American, ``passing``): deal ``deal_no`` of a game passes left (to seat + 1), right
  (seat + 3), across (seat + 2), none, repeating from the first deal. Cards are passed
  simultaneously: a card received cannot be passed on. Dealt hands and the passed cards are both
  stored, so the deal can be rebuilt.
"""

from __future__ import annotations

import numpy as np

from simcards.cards import DECK32, DECK52
from simcards.engine.trick import NO_TRUMP, suit_tables
from simcards.games.options import Option
from simcards.engine.tables import Layout
from simcards.rng import MAX_DEALS_PER_MATCH

RULES_VERSION = 1

MOON_OPTIONS = ("choose", "others", "self")
MOON_CHOOSE, MOON_OTHERS, MOON_SELF = range(3)
# moon_option column values
MOON_NONE, MOON_SCORED_OTHERS, MOON_SCORED_SELF = 0, 1, 2

PASS_NONE, PASS_LEFT, PASS_ACROSS, PASS_RIGHT = 0, 1, 2, 3  # = seat offset of the receiver
PASS_CYCLE = (PASS_LEFT, PASS_RIGHT, PASS_ACROSS, PASS_NONE)
N_PASS = 3

_MOON = Option("moon", "choose", "shoot the moon (taking every point): choose = the shooter picks "
               "the option better for its placing; others = each opponent scores the deal's "
               "total; self = the shooter subtracts it", choices=MOON_OPTIONS)

DUTCH_OPTIONS = (
    Option("target", 50, "the outbound game ends when a score reaches this; then the return to "
           "zero starts", minimum=1, maximum=10_000),
    _MOON,
)

AMERICAN_OPTIONS = (
    Option("target", 100, "the game ends when a score reaches this; the lowest score wins",
           minimum=1, maximum=10_000),
    _MOON,
    Option("passing", True, "pass three cards before each deal: left, right, across, none, "
           "repeating"),
    Option("qs_breaks_hearts", False, "playing the Q of spades also breaks hearts"),
    Option("must_break_hearts", True, "hearts may not be led until broken (unless the leader "
           "holds only hearts)"),
    Option("no_points_first_trick", True, "no heart or Q of spades on the first trick unless "
           "the player holds nothing else"),
)

# ---- slots of the "rules" block
(R_N_RANKS, R_HAND_SIZE, R_TOTAL, R_LEAD_2C, R_NO_POINTS_FIRST, R_MUST_BREAK, R_QS_BREAKS,
 R_TARGET, R_MOON, R_DUTCH, R_PASSING, R_QS, R_JC, R_AS, R_KS, R_HEARTS, R_POINT_CARDS,
 R_FULL, R_MAX_DEALS) = range(19)
N_RULE_SLOTS = 19


def layout(n_cards: int) -> Layout:
    """The table layout; the fixed-size blocks come first, so ``rules``, ``suit_masks`` and
    ``points`` sit at the same offsets for both decks and kernels can use constants."""
    return Layout(
        n_cards,
        rules=(N_RULE_SLOTS,),  # R_* slots
        suit_masks=(1, 5),  # cards of each suit (no trumps)
        points=(n_cards,),  # points of each card
        eff_suit=(1, n_cards),
        power=(1, n_cards),  # natural rank order
    )


LAYOUT32, LAYOUT52 = layout(32), layout(52)
T_RULES = LAYOUT32.offset("rules")
T_POINTS = LAYOUT32.offset("points")
assert T_POINTS == LAYOUT52.offset("points")

CONTRACT = 0  # the only contract: no trump


def build_tables(options: dict, dutch: bool) -> np.ndarray:
    deck = DECK32 if dutch else DECK52
    n_ranks = deck.n_ranks
    lay = LAYOUT32 if dutch else LAYOUT52
    qs = deck.card_id("QS")
    hearts = deck.suit_mask(2)
    points = np.zeros(deck.n_cards, dtype=np.int64)
    for card in range(deck.n_cards):
        if deck.suit(card) == 2:
            points[card] = 1
    points[qs] = 5 if dutch else 13
    jc = -1
    if dutch:
        jc = deck.card_id("JC")
        points[jc] = 2
    point_cards = 0
    for card in range(deck.n_cards):
        if points[card]:
            point_cards |= 1 << card
    rules = np.zeros(N_RULE_SLOTS, dtype=np.int64)
    rules[R_N_RANKS] = n_ranks
    rules[R_HAND_SIZE] = deck.n_cards // 4
    rules[R_TOTAL] = int(points.sum())
    rules[R_LEAD_2C] = 0 if dutch else 1
    rules[R_NO_POINTS_FIRST] = 0 if dutch else int(options["no_points_first_trick"])
    rules[R_MUST_BREAK] = 0 if dutch else int(options["must_break_hearts"])
    rules[R_QS_BREAKS] = 0 if dutch else int(options["qs_breaks_hearts"])
    rules[R_TARGET] = options["target"]
    rules[R_MOON] = MOON_OPTIONS.index(options["moon"])
    rules[R_DUTCH] = int(dutch)
    rules[R_PASSING] = 0 if dutch else int(options["passing"])
    rules[R_QS] = qs
    rules[R_JC] = jc
    rules[R_AS] = deck.card_id("AS")
    rules[R_KS] = deck.card_id("KS")
    rules[R_HEARTS] = hearts
    rules[R_POINT_CARDS] = point_cards
    rules[R_FULL] = deck.full_mask
    rules[R_MAX_DEALS] = MAX_DEALS_PER_MATCH
    eff, power, suit_masks = suit_tables(n_ranks, 1, NO_TRUMP, None, np.arange(n_ranks))
    return lay.pack(rules=rules, suit_masks=suit_masks.reshape(1, 5), points=points,
                    eff_suit=eff.reshape(1, -1), power=power.reshape(1, -1))
