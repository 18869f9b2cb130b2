"""Slow, readable references of the Kraken rules (docs/rules.md, kraken-contra and kraken-scorebord), written from the
rules text and independent of the kernels: hand-roem awarding, contra scoring and crosses, the
scoreboard entry. Tests compare the kernels with these on random input."""

from __future__ import annotations

RANKS = ["7", "8", "9", "10", "J", "Q", "K", "A"]
SUITS = "CDHS"


def card(code: str) -> tuple[int, int]:
    """(suit index, rank index) of a code such as '10H'."""
    return SUITS.index(code[-1]), RANKS.index(code[:-1])


def melds(hand: list[str], four_ranks=tuple(RANKS)) -> list[dict]:
    """Every non-stuk meld of a hand: maximal runs of 3+ (20/50/100) and fours (100, jacks 200).
    Each meld: value, kind, top card rank and top card suit ('four' tops are the rank itself)."""
    cards = {card(c) for c in hand}
    found = []
    for suit in range(4):
        ranks = sorted(r for s, r in cards if s == suit)
        run = []
        for r in ranks + [99]:
            if run and r == run[-1] + 1:
                run.append(r)
                continue
            if len(run) >= 3:
                value = 20 if len(run) == 3 else 50 if len(run) == 4 else 100
                found.append({"value": value, "kind": "run", "rank": run[-1], "suit": SUITS[suit]})
            run = [r]
    for r in range(8):
        if RANKS[r] in four_ranks and all((s, r) in cards for s in range(4)):
            found.append({"value": 200 if RANKS[r] == "J" else 100, "kind": "four", "rank": r,
                          "suit": None})
    return found


def meld_order_key(meld: dict, suit_order: str, four_beats_run: bool) -> tuple:
    """Larger is better: value, (contra) four over run, top card rank, top card suit. A four of
    a kind's top card is its card in the highest suit of the order."""
    suit = suit_order[0] if meld["suit"] is None else meld["suit"]
    return (meld["value"], int(four_beats_run and meld["kind"] == "four"), meld["rank"],
            -suit_order.index(suit))


def award(hands: list[list[str]], trump: str, tricks=(1, 1), suit_order="SHCD",
          four_beats_run=True, needs_trick=True, four_ranks=tuple(RANKS)) -> dict:
    best = None
    for seat, hand in enumerate(hands):
        for meld in melds(hand, four_ranks):
            key = meld_order_key(meld, suit_order, four_beats_run)
            if best is None or key > best[0]:
                best = (key, seat % 2, meld)
            elif key == best[0] and seat % 2 != best[1]:
                raise AssertionError("two teams tie on the highest meld")
    hand_roem = [0, 0]
    stuk = [0, 0]
    team = None
    if best is not None:
        team = best[1]
        hand_roem[team] = sum(m["value"] for seat in (team, team + 2) for m in melds(hands[seat], four_ranks))
    for seat, hand in enumerate(hands):
        if "K" + trump in hand and "Q" + trump in hand:
            stuk[seat % 2] += 20
    if needs_trick:
        for t in range(2):
            if tricks[t] == 0:
                hand_roem[t] = stuk[t] = 0
    return {"team": team, "hand_roem": hand_roem, "stuk": stuk,
            "top_meld": 0 if best is None else best[2]["value"]}


def contra(trump: str, bid: int, burden: int, points, roem, tricks, nat_on_tie=True,
           nat_points="raw", pit_cross=True) -> dict:
    mult = 2 ** bid
    counted = [p * mult if nat_points == "multiplied" else p for p in points]
    mine, theirs = counted[burden] + roem[burden], counted[1 - burden] + roem[1 - burden]
    nat = mine < theirs or (nat_on_tie and mine == theirs)
    if nat:
        score = [0, 0]
        score[1 - burden] = 162 * mult + sum(roem)
    else:
        score = [points[0] * mult + roem[0], points[1] * mult + roem[1]]
    spades = 2 if trump == "S" else 1
    crosses = [0, 0]
    if bid:
        loser = burden if nat else 1 - burden
        crosses[loser] += {1: 2, 2: 4, 3: 8}[bid] * spades
    if pit_cross:
        for t in range(2):
            if tricks[t] == 0:
                crosses[t] += spades
    return {"nat": nat, "score": score, "crosses": crosses}


def scorebord(trump: str, bid: int, playing: int, points, roem, rounding="half_up",
              nat_on_tie=True) -> dict:
    m = 2 if trump == "S" else 1
    mine = points[playing] + roem[playing]
    theirs = points[1 - playing] + roem[1 - playing]
    nat = mine < theirs or (nat_on_tie and mine == theirs)
    all_roem = sum(roem) // 10
    entry, marks = [0, 0], ["", ""]
    if bid == 0:
        if nat:
            entry[1 - playing] = 16 * m + all_roem
            marks[playing] = "NAT"
        else:
            for t in range(2):
                tenths = points[t] * m
                cards = tenths // 10 + (1 if rounding == "half_up" and tenths % 10 >= 5 else 0)
                entry[t] = cards + roem[t] // 10
    else:
        stake = {1: 32, 2: 64}[bid] * m
        winner = 1 - playing if nat else playing
        entry[winner] = stake + all_roem
        marks[1 - winner] = "KRAAK"
    return {"nat": nat, "entry": entry, "marks": marks}


def legal_moves_of(game, state) -> set[str]:
    """Kraken plays the Klaverjassen legal-move rules its ``play_rules`` option names."""
    from naive import klaverjas

    return klaverjas.legal_moves_of(game, state, game.options["play_rules"] == "amsterdam")
