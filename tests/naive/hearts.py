"""A slow, readable pure-Python reference of Hartenjagen (docs/rules.md, hartenjagen) and Hearts
(section 5), written from the rules text alone.

It never imports the kernels: the tests compare the two on random deals and positions. Cards
are codes such as "QS" or "10H"; every rule below is written in terms of rank and suit.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

SUITS = "CDHS"
RANKS_32 = ("7", "8", "9", "10", "J", "Q", "K", "A")  # low -> high
RANKS_52 = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


@dataclass(frozen=True)
class Rules:
    """A ruleset's options as the rules text names them (``dutch``: Hartenjagen)."""

    dutch: bool
    must_break_hearts: bool = True
    no_points_first_trick: bool = True
    qs_breaks_hearts: bool = False
    moon: str = "choose"

    @classmethod
    def of(cls, name: str, options: dict) -> "Rules":
        """The rules of ruleset ``name`` ("hartenjagen" or "hearts") with ``options``."""
        if name == "hartenjagen":  # no passing, no first-trick or breaking rules
            return cls(dutch=True, moon=options.get("moon", "choose"))
        known = ("must_break_hearts", "no_points_first_trick", "qs_breaks_hearts", "moon")
        return cls(dutch=False, **{k: v for k, v in options.items() if k in known})

    @property
    def ranks(self) -> tuple[str, ...]:
        return RANKS_32 if self.dutch else RANKS_52

    @property
    def total(self) -> int:
        """Points of the whole deck (what a moon takes)."""
        return 15 if self.dutch else 26

    @property
    def n_tricks(self) -> int:
        return 8 if self.dutch else 13


def split(code: str) -> tuple[str, str]:
    """(rank, suit) of a code."""
    return code[:-1], code[-1]


def points(code: str, dutch: bool) -> int:
    rank, suit = split(code)
    if suit == "H":
        return 1
    if code == "QS":
        return 5 if dutch else 13
    if dutch and code == "JC":
        return 2
    return 0


def legal_moves(hand, trick: list[str], trick_no: int, broken: bool, rules: Rules) -> list[str]:
    """The cards of ``hand`` that may be played to ``trick`` (the codes played so far, in
    order) in trick ``trick_no`` (from 0), with hearts ``broken`` or not."""
    hand = list(hand)
    if not trick:
        if not rules.dutch and trick_no == 0:
            return ["2C"]  # the 2 of clubs leads (the leader holds it)
        if not broken:
            non_hearts = [c for c in hand if split(c)[1] != "H"]
            if non_hearts:
                return non_hearts
        return hand
    led = split(trick[0])[1]
    same = [c for c in hand if split(c)[1] == led]
    if same:
        return same
    if not rules.dutch and trick_no == 0 and rules.no_points_first_trick:
        safe = [c for c in hand if points(c, False) == 0]
        if safe:
            return safe
    return hand


def trick_winner(trick: list[str], rules: Rules) -> int:
    """Position (0 = leader) of the highest card of the led suit (there are no trumps)."""
    led = split(trick[0])[1]
    return max((i for i, c in enumerate(trick) if split(c)[1] == led),
               key=lambda i: rules.ranks.index(split(trick[i])[0]))


class Deal:
    """One deal played card by card (the hands are those after any passing)."""

    def __init__(self, hands, dealer: int, rules: Rules):
        self.rules = rules
        self.hands = [list(h) for h in hands]
        self.broken = rules.dutch or not rules.must_break_hearts
        if rules.dutch:
            self.to_move = (dealer + 1) % 4  # forehand leads
        else:
            self.to_move = next(s for s in range(4) if "2C" in self.hands[s])
        self.leader = self.to_move
        self.trick: list[str] = []
        self.trick_no = 0
        self.points = [0] * 4
        self.tricks = [0] * 4
        self.winners: list[int] = []

    @property
    def is_over(self) -> bool:
        return self.trick_no == self.rules.n_tricks

    def legal(self) -> list[str]:
        return legal_moves(self.hands[self.to_move], self.trick, self.trick_no, self.broken,
                           self.rules)

    def play(self, code: str) -> None:
        if code not in self.legal():
            raise ValueError(f"{code} is illegal for seat {self.to_move}")
        seat = self.to_move
        self.hands[seat].remove(code)
        self.trick.append(code)
        if split(code)[1] == "H" or (code == "QS" and self.rules.qs_breaks_hearts):
            self.broken = True
        if len(self.trick) < 4:
            self.to_move = (seat + 1) % 4
            return
        winner = (self.leader + trick_winner(self.trick, self.rules)) % 4
        self.points[winner] += sum(points(c, self.rules.dutch) for c in self.trick)
        self.tricks[winner] += 1
        self.winners.append(winner)
        self.trick = []
        self.trick_no += 1
        self.leader = self.to_move = winner

    def score(self, scores, phase: str) -> tuple[list[int], int | None]:
        """(score change per seat, moon shooter or None) of the finished deal, given the game
        ``scores`` before it and its ``phase`` ("outbound" or "return")."""
        total = self.rules.total
        if phase == "return":
            return [-p for p in self.points], None
        shooter = next((s for s in range(4) if self.points[s] == total), None)
        if shooter is None:
            return list(self.points), None
        option = self.rules.moon
        if option == "choose":  # "others" when the shooter ranks first (ties included) after it
            after_others = [scores[s] + (0 if s == shooter else total) for s in range(4)]
            option = "others" if all(after_others[shooter] <= a for a in after_others) else "self"
        if option == "others":
            return [0 if s == shooter else total for s in range(4)], shooter
        return [-total if s == shooter else 0 for s in range(4)], shooter


def play_deal(hands, dealer: int, rules: Rules,
              choose: Callable[[Deal, list[str]], str]) -> Deal:
    """A whole deal: ``choose(deal, legal)`` picks every card; returns the finished deal."""
    deal = Deal(hands, dealer, rules)
    while not deal.is_over:
        deal.play(choose(deal, deal.legal()))
    return deal


def random_hands(codes, rng: random.Random) -> list[list[str]]:
    """The deck's ``codes`` shuffled and dealt into four equal hands."""
    codes = list(codes)
    rng.shuffle(codes)
    size = len(codes) // 4
    return [codes[size * s:size * s + size] for s in range(4)]


def legal_moves_of(game, state) -> set[str]:
    """The reference's legal cards in an interactive Hartenjagen / Hearts deal, from what the
    state shows: the mover's hand, the trick, the tricks completed and whether hearts broke."""
    rules = Rules.of(game.name, game.options)
    trick_no = len(state.history) // 4
    return set(legal_moves(state.hand(state.to_move), state.trick, trick_no,
                           state.hearts_broken, rules))
