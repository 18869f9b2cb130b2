"""A slow, readable pure-Python reference of Klaverjassen, written from the rules alone (docs/rules.md).

It never imports the kernels: the tests compare the two on golden deals and on random
positions. Cards are ids as in docs/rules.md, "Common conventions" (``id = suit * 8 + rank``, suits C D H S,
ranks 7 8 9 10 J Q K A), so positions can be handed to the kernels without translation, but
every rule below is written in terms of rank and suit names.
"""

from __future__ import annotations

from dataclasses import dataclass, field

SUITS = "CDHS"
RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")  # natural order, also the meld order

TRUMP_ORDER = ("J", "9", "A", "10", "K", "Q", "8", "7")  # high -> low
PLAIN_ORDER = ("A", "10", "K", "Q", "J", "9", "8", "7")  # high -> low
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "10": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
PLAIN_POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
LAST_TRICK = 10
DEFAULT_FOUR_KIND = ("A", "10", "K", "Q")


# ------------------------------------------------------------------ cards


def card(code: str) -> int:
    """Id of a code such as '10H' or 'JC' (upper case, '10' spelled out)."""
    rank, suit = code[:-1], code[-1]
    return SUITS.index(suit) * 8 + RANKS.index(rank)


def code(c: int) -> str:
    return rank_of(c) + SUITS[suit_of(c)]


def suit_of(c: int) -> int:
    return c // 8


def rank_of(c: int) -> str:
    return RANKS[c % 8]


def cards(codes) -> list[int]:
    if isinstance(codes, str):
        codes = codes.split()
    return [card(x) for x in codes]


def mask_cards(mask: int) -> list[int]:
    return [c for c in range(32) if mask >> c & 1]


def cards_mask(cs) -> int:
    out = 0
    for c in cs:
        out |= 1 << c
    return out


def is_trump(c: int, trump: int) -> bool:
    return suit_of(c) == trump


def points(c: int, trump: int) -> int:
    table = TRUMP_POINTS if is_trump(c, trump) else PLAIN_POINTS
    return table[rank_of(c)]


def strength(c: int, trump: int) -> int:
    """Higher is stronger within the card's own suit (trumps ranked in trump order)."""
    order = TRUMP_ORDER if is_trump(c, trump) else PLAIN_ORDER
    return len(order) - order.index(rank_of(c))


# ------------------------------------------------------------------ tricks


def trick_winner(trick: list[int], trump: int) -> int:
    """Position in ``trick`` (0 = leader) of the winning card: the highest trump if any trump
    was played, else the highest card of the led suit."""
    trumps = [i for i, c in enumerate(trick) if is_trump(c, trump)]
    if trumps:
        return max(trumps, key=lambda i: strength(trick[i], trump))
    led = suit_of(trick[0])
    followers = [i for i, c in enumerate(trick) if suit_of(c) == led]
    return max(followers, key=lambda i: strength(trick[i], trump))


def legal_moves(hand, trick: list[int], trump: int, amsterdam: bool) -> set[int]:
    """The docs/rules.md, klaverjas-rotterdam legal-move table, row by row."""
    hand = set(hand)
    if not trick:
        return hand
    led = suit_of(trick[0])
    my_trumps = {c for c in hand if is_trump(c, trump)}
    non_trumps = hand - my_trumps
    trumps_played = [c for c in trick if is_trump(c, trump)]
    if trumps_played:
        best = max(strength(c, trump) for c in trumps_played)
        higher = {c for c in my_trumps if strength(c, trump) > best}
    else:
        higher = set(my_trumps)  # any trump beats a trick without trumps

    if led == trump:
        # trump led, hold trump: a higher trump if you have one, else any trump
        if my_trumps:
            return higher or my_trumps
        return hand  # no trump held: any card
    same_suit = {c for c in hand if suit_of(c) == led}
    if same_suit:
        return same_suit  # can follow a non-trump lead: any card of the led suit
    if not my_trumps:
        return hand  # cannot follow, hold no trump: any card
    partner_winning = len(trick) >= 2 and trick_winner(trick, trump) == len(trick) - 2
    if not amsterdam:
        # Rotterdam, partner or opponent winning: must trump, higher if able, else any trump
        return higher or my_trumps
    if partner_winning:
        # Amsterdam: free; any non-trump or a trump beating best; a lower trump only when every
        # card held is a lower trump
        return (non_trumps | higher) or my_trumps
    # Amsterdam, opponent winning: must trump, higher if able; if unable a non-trump if held,
    # else any trump
    if higher:
        return higher
    return non_trumps or my_trumps


# ------------------------------------------------------------------ roem


def runs_by_suit(cs) -> list[int]:
    """Lengths of the maximal runs of natural-order consecutive cards, over all suits."""
    out = []
    for suit in range(4):
        held = [RANKS.index(rank_of(c)) for c in cs if suit_of(c) == suit]
        held.sort()
        length = 0
        previous = None
        for r in held:
            if previous is not None and r == previous + 1:
                length += 1
            else:
                if length:
                    out.append(length)
                length = 1
            previous = r
        if length:
            out.append(length)
    return out


def has_stuk(cs, trump: int) -> bool:
    cs = set(cs)
    return trump >= 0 and card("K" + SUITS[trump]) in cs and card("Q" + SUITS[trump]) in cs


def four_of_a_kind_ranks(cs) -> list[str]:
    cs = set(cs)
    return [r for r in RANKS if all(card(r + s) in cs for s in SUITS)]


def table_roem(trick_cards, trump: int, four_kind_ranks=DEFAULT_FOUR_KIND) -> int:
    """Roem of the (up to four) cards of one trick: sequences of 3 = 20 and 4 = 50, four of a
    kind 100 for ranks in four_kind_ranks and 200 for four jacks, stuk 20 on top."""
    total = 0
    for length in runs_by_suit(trick_cards):
        if length == 3:
            total += 20
        elif length == 4:
            total += 50
    for rank in four_of_a_kind_ranks(trick_cards):
        if rank == "J":
            total += 200
        elif rank in four_kind_ranks:
            total += 100
    if has_stuk(trick_cards, trump):
        total += 20
    return total


def hand_meld_parts(hand, trump: int, hand_four_kind_ranks=RANKS) -> dict[str, int]:
    """docs/rules.md, kraken-contra melds of one hand: runs 3/4/5+ = 20/50/100 each, four of a kind 100
    (jacks 200) for ranks in hand_four_kind_ranks, stuk of ``trump`` 20 (none if trump < 0)."""
    runs = 0
    for length in runs_by_suit(hand):
        if length == 3:
            runs += 20
        elif length == 4:
            runs += 50
        elif length >= 5:
            runs += 100
    four = 0
    for rank in four_of_a_kind_ranks(hand):
        if rank in hand_four_kind_ranks:
            four += 200 if rank == "J" else 100
    stuk = 20 if has_stuk(hand, trump) else 0
    return {"runs": runs, "four_kind": four, "stuk": stuk, "total": runs + four + stuk}


def hand_melds(hand, trump: int, hand_four_kind_ranks=RANKS) -> int:
    return hand_meld_parts(hand, trump, hand_four_kind_ranks)["total"]


# ------------------------------------------------------------------ scoring


def score(points_, roem, declarer_team: int, nat_on_tie: bool = True) -> tuple[bool, list[int]]:
    """(nat, [score team 0, score team 1]) of a finished deal."""
    playing, other = declarer_team, 1 - declarer_team
    mine = points_[playing] + roem[playing]
    theirs = points_[other] + roem[other]
    nat = mine <= theirs if nat_on_tie else mine < theirs
    if nat:
        out = [0, 0]
        out[other] = 162 + roem[0] + roem[1]
        return True, out
    return False, [points_[0] + roem[0], points_[1] + roem[1]]


@dataclass
class Rules:
    amsterdam: bool = False
    table_roem: bool = True
    four_kind_ranks: tuple = DEFAULT_FOUR_KIND
    pit_bonus: int = 100
    defenders_pit: bool = True
    nat_on_tie: bool = True
    hand_four_kind_ranks: tuple = RANKS


@dataclass
class Deal:
    """One deal played card by card, checking every card against `legal_moves`."""

    hands: list[set[int]]
    dealer: int
    trump: int
    declarer: int
    rules: Rules = field(default_factory=Rules)

    def __post_init__(self):
        self.hands = [set(h) for h in self.hands]
        self.dealt = [set(h) for h in self.hands]
        self.to_move = (self.dealer + 1) % 4
        self.leader = self.to_move
        self.trick: list[int] = []
        self.points = [0, 0]
        self.roem = [0, 0]
        self.tricks = [0, 0]
        self.n_tricks = 0
        self.winners: list[int] = []

    @property
    def is_over(self) -> bool:
        return self.n_tricks == 8

    def legal(self) -> set[int]:
        return legal_moves(self.hands[self.to_move], self.trick, self.trump, self.rules.amsterdam)

    def play(self, c: int) -> None:
        if c not in self.legal():
            raise ValueError(f"{code(c)} is illegal for seat {self.to_move}")
        self.hands[self.to_move].remove(c)
        self.trick.append(c)
        if len(self.trick) < 4:
            self.to_move = (self.to_move + 1) % 4
            return
        winner = (self.leader + trick_winner(self.trick, self.trump)) % 4
        team = winner % 2
        self.n_tricks += 1
        self.points[team] += sum(points(x, self.trump) for x in self.trick)
        if self.n_tricks == 8:
            self.points[team] += LAST_TRICK
        if self.rules.table_roem:
            self.roem[team] += table_roem(self.trick, self.trump, self.rules.four_kind_ranks)
        self.tricks[team] += 1
        self.winners.append(winner)
        self.trick = []
        self.leader = self.to_move = winner
        if self.is_over:
            for t in range(2):
                if self.tricks[t] == 8 and (t == self.declarer % 2 or self.rules.defenders_pit):
                    self.roem[t] += self.rules.pit_bonus

    def result(self) -> dict:
        nat, sc = score(self.points, self.roem, self.declarer % 2, self.rules.nat_on_tie)
        return {
            "points": list(self.points), "roem": list(self.roem), "tricks": list(self.tricks),
            "pit": 8 in self.tricks, "nat": nat, "score": sc,
            "roem_hand": [hand_melds(h, self.trump, self.rules.hand_four_kind_ranks)
                          for h in self.dealt],
        }


def legal_moves_of(game, state, amsterdam: bool | None = None) -> set[str]:
    """The reference's legal cards (as codes) in an interactive Klaverjassen-family deal, from
    what the state shows: the mover's hand, the trick so far and the trump."""
    if amsterdam is None:
        amsterdam = bool(game.amsterdam)
    hand = cards(state.hand(state.to_move))
    trick = cards(state.trick)
    return {code(c) for c in legal_moves(hand, trick, state.trump, amsterdam)}
