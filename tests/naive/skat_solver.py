"""Brute-force minimax for Skat positions: every legal card of the naive rules
(tests/naive/skat.py), every line to the end of the deal, no pruning and no table.

A `Position` replays a deal card by card with the naive trick rules. `minimax` maximises
(the declarer) or minimises (the two defenders together) any function of the declarer's final
card points and tricks: the points themselves, the tricks, or whether the game is won as the
public `settle` scores it. A Null line is played to the end too: its declarer wins when he
takes no trick, whether the deal would have stopped at his first or not.
"""

from __future__ import annotations

from naive import skat as NS


class Position:
    """The naive replay of a deal: hands, the trick in progress, the declarer's card points (the
    two cards counting for him included) and tricks."""

    def __init__(self, hands, leader: int, declarer: int, contract: str, skat):
        self.hands = [set(h) for h in hands]
        self.trick: list[str] = []
        self.leader = leader
        self.declarer = declarer
        self.contract = contract
        self.points = NS.card_points(skat)
        self.tricks = 0
        self.n_tricks = 0

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % 3

    def legal(self) -> set[str]:
        return NS.legal_moves(self.hands[self.to_move], self.trick, self.contract)

    def play(self, code: str) -> None:
        assert code in self.legal(), (code, self.legal())
        self.hands[self.to_move].discard(code)
        self.trick.append(code)
        if len(self.trick) == 3:
            winner = (self.leader + NS.trick_winner(self.trick, self.contract)) % 3
            if winner == self.declarer:
                self.points += NS.card_points(self.trick)
                self.tricks += 1
            self.trick = []
            self.leader = winner
            self.n_tricks += 1


def _value(hands, trick, leader, pos, points, tricks, n_tricks, leaf, declarer_max):
    if n_tricks == 10:
        return leaf(points, tricks)
    seat = (leader + len(trick)) % 3
    values = []
    for card in NS.legal_moves(hands[seat], trick, pos.contract):
        new_hands = list(hands)
        new_hands[seat] = hands[seat] - {card}
        new_trick = trick + [card]
        if len(new_trick) < 3:
            values.append(_value(new_hands, new_trick, leader, pos, points, tricks, n_tricks,
                                 leaf, declarer_max))
            continue
        winner = (leader + NS.trick_winner(new_trick, pos.contract)) % 3
        p, t = points, tricks
        if winner == pos.declarer:
            p += NS.card_points(new_trick)
            t += 1
        values.append(_value(new_hands, [], winner, pos, p, t, n_tricks + 1, leaf, declarer_max))
    declarer_moves = seat == pos.declarer
    return max(values) if declarer_moves == declarer_max else min(values)


def minimax(pos: Position, leaf, declarer_max: bool = True):
    """``leaf(points, tricks)`` (the declarer's final ones) under perfect play from ``pos``: the
    declarer maximises it (minimises with ``declarer_max=False``), the defenders the opposite."""
    return _value([frozenset(h) for h in pos.hands], list(pos.trick), pos.leader, pos,
                  pos.points, pos.tricks, pos.n_tricks, leaf, declarer_max)


def card_values(pos: Position, leaf, declarer_max: bool = True) -> dict[str, object]:
    """`minimax` after each legal card of the seat to move."""
    out = {}
    for card in pos.legal():
        child = Position([], 0, pos.declarer, pos.contract, [])
        child.hands = [set(h) for h in pos.hands]
        child.trick, child.leader = list(pos.trick), pos.leader
        child.points, child.tricks, child.n_tricks = pos.points, pos.tricks, pos.n_tricks
        child.play(card)
        out[card] = minimax(child, leaf, declarer_max)
    return out
