"""Brute-force minimax for Klaverjassen-family positions: every legal card of the naive rules
(tests/naive/klaverjas.py), every line to the end of the deal, no pruning and no table.

A position is the naive `Deal` after some cards; the value is the declaring team's final
margin (card points plus roem minus the opponents'), with ``end_bonus(tricks)`` added for
what a ruleset awards at the end from the tricks per team (Kraken's hand roem).
"""

from __future__ import annotations

from naive import klaverjas as NK


def _finish_trick(deal, trick, leader, points, roem, tricks, n_tricks):
    rules = deal.rules
    winner = (leader + NK.trick_winner(trick, deal.trump)) % 4
    team = winner % 2
    points = list(points)
    roem = list(roem)
    tricks = list(tricks)
    points[team] += sum(NK.points(c, deal.trump) for c in trick)
    if n_tricks + 1 == 8:
        points[team] += NK.LAST_TRICK
    if rules.table_roem:
        roem[team] += NK.table_roem(trick, deal.trump, rules.four_kind_ranks)
    tricks[team] += 1
    return winner, points, roem, tricks


def _value(deal, hands, trick, leader, points, roem, tricks, n_tricks, end_bonus):
    declarer_team = deal.declarer % 2
    if n_tricks == 8:
        roem = list(roem)
        for t in range(2):
            if tricks[t] == 8 and (t == declarer_team or deal.rules.defenders_pit):
                roem[t] += deal.rules.pit_bonus
        other = 1 - declarer_team
        margin = points[declarer_team] + roem[declarer_team] - points[other] - roem[other]
        return margin + end_bonus(tricks)
    seat = (leader + len(trick)) % 4
    legal = NK.legal_moves(hands[seat], trick, deal.trump, deal.rules.amsterdam)
    values = []
    for card in legal:
        new_hands = list(hands)
        new_hands[seat] = hands[seat] - {card}
        new_trick = trick + [card]
        if len(new_trick) < 4:
            values.append(_value(deal, new_hands, new_trick, leader, points, roem, tricks,
                                 n_tricks, end_bonus))
        else:
            winner, p, r, t = _finish_trick(deal, new_trick, leader, points, roem, tricks, n_tricks)
            values.append(_value(deal, new_hands, [], winner, p, r, t, n_tricks + 1, end_bonus))
    return max(values) if seat % 2 == declarer_team else min(values)


def minimax(deal: NK.Deal, end_bonus=lambda tricks: 0) -> int:
    """The declaring team's final margin under perfect play from the naive ``deal``'s position."""
    return _value(deal, [frozenset(h) for h in deal.hands], list(deal.trick), deal.leader,
                  deal.points, deal.roem, deal.tricks, deal.n_tricks, end_bonus)


def card_values(deal: NK.Deal, end_bonus=lambda tricks: 0) -> dict[int, int]:
    """The final margin under perfect play after each legal card of the seat to move."""
    out = {}
    for card in deal.legal():
        hands = [frozenset(h) for h in deal.hands]
        seat = deal.to_move
        hands[seat] = hands[seat] - {card}
        trick = list(deal.trick) + [card]
        if len(trick) < 4:
            out[card] = _value(deal, hands, trick, deal.leader, deal.points, deal.roem,
                               deal.tricks, deal.n_tricks, end_bonus)
        else:
            winner, p, r, t = _finish_trick(deal, trick, deal.leader, deal.points, deal.roem,
                                            deal.tricks, deal.n_tricks)
            out[card] = _value(deal, hands, [], winner, p, r, t, deal.n_tricks + 1, end_bonus)
    return out


def can_force_together(hands, leader, trump, amsterdam, groups, forcing_seats) -> bool:
    """Can the seats of ``forcing_seats`` make all the cards of one of ``groups`` fall in one
    trick, whatever the other seats play? ``hands`` at a trick boundary, ``leader`` to lead.
    A yes/no game over every legal card of the naive rules, with a table of positions seen
    (the hands and the trick so far decide it)."""
    groups = [frozenset(g) for g in groups]
    seen: dict = {}

    def value(hands, trick, leader):
        key = (hands, trick, leader)
        if key in seen:
            return seen[key]
        seat = (leader + len(trick)) % 4
        forcing = seat in forcing_seats
        result = not forcing
        if hands[seat]:
            for card in sorted(NK.legal_moves(hands[seat], list(trick), trump, amsterdam)):
                new_hands = tuple(h - {card} if i == seat else h for i, h in enumerate(hands))
                new_trick = trick + (card,)
                if len(new_trick) < 4:
                    child = value(new_hands, new_trick, leader)
                elif any(g <= set(new_trick) for g in groups):
                    child = True
                else:
                    winner = (leader + NK.trick_winner(list(new_trick), trump)) % 4
                    child = value(new_hands, (), winner)
                if child == forcing:
                    result = forcing
                    break
        else:
            result = False  # the deal is over
        seen[key] = result
        return result

    return value(tuple(frozenset(h) for h in hands), (), leader)
