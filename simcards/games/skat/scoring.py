"""Skat scoring as public pure functions (docs/rules.md, skat; the International Skat Order).

    from simcards.games.skat import game_value, settle
    game_value(["JC", "JS", "AH", ...], "hearts")                 # the game's value
    settle(cards, "diamonds", bid=22, declarer_points=89, declarer_tricks=6)

Design decisions, where the sources leave room:
- ``game_value`` counts every level that is announced as reached, too: a game is valued at least
  at its announced levels (a lost Schneider announced still counts Schneider), and a level is
  never counted twice. Schwarz includes Schneider; Schwarz announced includes Schneider
  announced.
- A suit or Grand Ouvert is a Hand game with Schwarz announced.
- Announcing Schneider or Schwarz is only allowed in a Hand game (a UserError otherwise).
- ``settle`` takes the card points and tricks of the declarer's party (the Skat's points
  included). Schneider is reached when either party has 30 card points or fewer; Schwarz when
  either party takes no trick.
- An overbid game (its value below the bid) is lost at the smallest multiple of the base value
  that reaches the bid (for a Null, of its fixed value), as the Skat Order says.
"""

from __future__ import annotations

from typing import Any

from simcards.cards import DECK32
from simcards.errors import UserError

CONTRACTS = ("diamonds", "hearts", "spades", "clubs", "grand", "null")
BASE_VALUES = {"diamonds": 9, "hearts": 10, "spades": 11, "clubs": 12, "grand": 24}
NULL_VALUES = {(False, False): 23, (True, False): 35, (False, True): 46, (True, True): 59}
SUIT_OF = {"diamonds": "D", "hearts": "H", "spades": "S", "clubs": "C"}
JACKS = ("JC", "JS", "JH", "JD")  # the trump order starts with the four jacks
SUIT_TRUMP_RANKS = ("A", "10", "K", "Q", "9", "8", "7")
MAX_MATADORS = {"grand": 4}  # and 11 in a suit game: every trump
SCORINGS = ("list", "seeger-fabian")
SEEGER_FABIAN_WIN, SEEGER_FABIAN_LOSS, SEEGER_FABIAN_DEFENDER = 50, 50, 40


def bid_ladder() -> tuple[int, ...]:
    """Every value a bid may take: the possible game values from 18 to 264."""
    values = {base * m for base in (9, 10, 11, 12) for m in range(2, 19)}
    values |= {24 * m for m in range(2, 12)} | set(NULL_VALUES.values())
    return tuple(sorted(v for v in values if v >= 18))


BID_LADDER = bid_ladder()


def _cards(cards: Any) -> list[str]:
    if isinstance(cards, str):
        cards = cards.split()
    if not isinstance(cards, (list, tuple)) or len(cards) != 12:
        count = len(cards) if isinstance(cards, (list, tuple)) else "no list of"
        raise UserError(f"cards has {count} cards; give the declarer's 10 cards plus the 2 of the "
                        f"Skat, 12 card codes of the 32-card deck")
    # names any code that is not a card, and a card given twice
    return DECK32.hand_codes(DECK32.parse_hand(cards))


def _contract(contract: Any) -> str:
    if not isinstance(contract, str) or contract.strip().lower() not in CONTRACTS:
        raise UserError(f"contract = {contract!r} is not allowed; use one of "
                        + ", ".join(repr(c) for c in CONTRACTS))
    return contract.strip().lower()


def trump_order(contract: str) -> tuple[str, ...]:
    """The trumps of a suit or Grand contract, highest first."""
    if contract == "grand":
        return JACKS
    return JACKS + tuple(rank + SUIT_OF[contract] for rank in SUIT_TRUMP_RANKS)


def matadors(cards: Any, contract: str) -> tuple[int, bool]:
    """(matadors, with?) of the declarer's 12 cards: how many trumps from the club jack down
    they hold in an unbroken run ("with"), or lack ("without"); at most 4 in Grand, 11 in a
    suit game."""
    held = set(_cards(cards))
    order = trump_order(_contract(contract))
    with_ = order[0] in held
    count = 0
    for card in order:
        if (card in held) != with_:
            break
        count += 1
    return min(count, MAX_MATADORS.get(contract, 11)), with_


def _levels(schneider: bool, schneider_announced: bool, schwarz: bool, schwarz_announced: bool,
            ouvert: bool, hand: bool) -> dict[str, bool]:
    """The multiplier's levels, each counted once, announced ones as reached too."""
    schwarz_announced = schwarz_announced or ouvert
    schneider_announced = schneider_announced or schwarz_announced
    schwarz = schwarz or schwarz_announced
    schneider = schneider or schwarz or schneider_announced
    return {"hand": hand or ouvert, "schneider": schneider, "schneider_announced": schneider_announced,
            "schwarz": schwarz, "schwarz_announced": schwarz_announced, "ouvert": ouvert}


def game_value(cards: Any, contract: Any, *, hand: bool = False, schneider: bool = False,
               schneider_announced: bool = False, schwarz: bool = False,
               schwarz_announced: bool = False, ouvert: bool = False) -> int:
    """The value of a Skat game: base value x (matadors + 1 + the levels reached or announced),
    or a Null's fixed value (23, Hand 35, Ouvert 46, Ouvert Hand 59).

    ``cards`` are the declarer's ten cards plus the Skat (12 card codes); ``contract`` is one of
    "diamonds" "hearts" "spades" "clubs" "grand" "null"."""
    contract = _contract(contract)
    cards = _cards(cards)
    if contract == "null":
        return NULL_VALUES[(bool(hand), bool(ouvert))]
    if (schneider_announced or schwarz_announced) and not (hand or ouvert):
        raise UserError("schneider_announced / schwarz_announced are only allowed in a Hand game "
                        "(hand=True)")
    count, _ = matadors(cards, contract)
    levels = _levels(schneider, schneider_announced, schwarz, schwarz_announced, ouvert, hand)
    return BASE_VALUES[contract] * (count + 1 + sum(levels.values()))


def _int_in(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise UserError(f"{name} = {value!r} is not allowed; use an integer from {low} to {high}")
    return value


def settle(cards: Any, contract: Any, bid: Any, declarer_points: Any, declarer_tricks: Any, *,
           hand: bool = False, schneider_announced: bool = False, schwarz_announced: bool = False,
           ouvert: bool = False, scoring: str = "list") -> dict:
    """The result of a played Skat game.

    ``declarer_points`` (0..120, the Skat included) and ``declarer_tricks`` (0..10) are the
    declarer's. Returns ``won``, ``overbid``, ``value`` (after the overbid rule),
    ``declarer_score`` and ``defender_score`` (each defender's Seeger-Fabian bonus; 0 in list
    scoring), plus ``schneider`` and ``schwarz`` (reached by either party) and ``base_value``."""
    contract = _contract(contract)
    if bid not in BID_LADDER or isinstance(bid, bool):
        raise UserError(f"bid = {bid!r} is not a bid; bids are the values "
                        f"{', '.join(str(v) for v in BID_LADDER)}")
    points = _int_in("declarer_points", declarer_points, 0, 120)
    tricks = _int_in("declarer_tricks", declarer_tricks, 0, 10)
    if scoring not in SCORINGS:
        raise UserError(f"scoring = {scoring!r} is not allowed; use one of "
                        + ", ".join(repr(s) for s in SCORINGS))
    schneider = points <= 30 or points >= 90
    schwarz = tricks in (0, 10)
    if contract == "null":
        value = game_value(cards, contract, hand=hand, ouvert=ouvert)
        unit = value
        won = tricks == 0
    else:
        value = game_value(cards, contract, hand=hand, schneider=schneider,
                           schneider_announced=schneider_announced, schwarz=schwarz,
                           schwarz_announced=schwarz_announced, ouvert=ouvert)
        unit = BASE_VALUES[contract]
        levels = _levels(False, schneider_announced, False, schwarz_announced, ouvert, hand)
        made = (points >= 61 and (points >= 90 or not levels["schneider_announced"])
                and (tricks == 10 or not levels["schwarz_announced"]))
        won = made
    overbid = value < bid
    if overbid:
        value = -(-bid // unit) * unit  # the smallest multiple of the base that reaches the bid
        won = False
    declarer_score = value if won else -2 * value
    defender_score = 0
    if scoring == "seeger-fabian":
        declarer_score += SEEGER_FABIAN_WIN if won else -SEEGER_FABIAN_LOSS
        defender_score = 0 if won else SEEGER_FABIAN_DEFENDER
    return {"won": won, "overbid": overbid, "value": value, "declarer_score": declarer_score,
            "defender_score": defender_score, "schneider": schneider, "schwarz": schwarz,
            "base_value": unit}
