"""Kraken scoring as public pure functions (docs/rules.md, kraken-contra and kraken-scorebord).

Each rule is written once, as a Numba kernel the batch loop calls; the public functions below
validate plain Python input, call the same kernel and return a dict, so a score sheet can be
checked without playing a deal:

    >>> contra_deal_score(trump="S", bid=1, burden_team=1, points=(100, 62), roem=(0, 20),
    ...                   tricks=(5, 3))["crosses"]
    [4, 0]
    >>> scorebord_entry(trump="S", bid=0, playing_team=0, points=(100, 62), roem=(0, 0))["entry"]
    [20, 12]

Teams are 0 (seats 0 and 2, WIJ) and 1 (seats 1 and 3, ZIJ). ``roem`` is each team's counted
roem: hand roem awarded, stuk, table roem and the pit bonus, after the trick rule.
"""

from __future__ import annotations

import numpy as np

from simcards._jit import kernel
from simcards.cards import parse_suit
from simcards.errors import UserError
from simcards.games.klaverjas.family import is_nat
from simcards.games.klaverjas.rules import TOTAL_CARD_POINTS
from simcards.games.kraken.rules import (
    CR_BID_MULTIPLIES,
    CR_NAT_MULTIPLIED,
    CR_NAT_ON_TIE,
    CR_PIT_CROSS,
    MARK_KRAAK,
    MARK_NAMES,
    MARK_NAT,
    MARK_NONE,
    NAT_POINTS,
    OVERKRAAK,
    ROUNDINGS,
    SPADES,
    SUPERKRAAK,
    contra_rules,
)

NAT_BASE = 16  # scoreboard: a nat team's opponents get 16 (x2 spades) plus all roem / 10
KRAAK_STAKE = 32  # per bid level: kraak 32, overkraak 64 (x2 spades)


@kernel
def contra_score(trump, bid, burden, points, roem, tricks, rules, out):
    """One contra deal under the contra scoring ``rules`` (the CR_* block, rules.py):
    ``out[0:2]`` each team's points, ``out[2:4]`` its crosses; returns True when the burden team
    went nat. Card points are multiplied by 2**bid when CR_BID_MULTIPLIES, roem never."""
    mult = np.int64(1) << bid
    score_mult = mult if rules[CR_BID_MULTIPLIES] != 0 else np.int64(1)
    nat_mult = mult if rules[CR_NAT_MULTIPLIED] != 0 else np.int64(1)
    other = 1 - burden
    nat = is_nat(points[burden] * nat_mult + roem[burden], points[other] * nat_mult + roem[other],
                 rules[CR_NAT_ON_TIE])
    if nat:
        out[burden] = 0
        out[other] = TOTAL_CARD_POINTS * score_mult + roem[0] + roem[1]
    else:
        out[0] = points[0] * score_mult + roem[0]
        out[1] = points[1] * score_mult + roem[1]
    spades = 2 if trump == SPADES else 1
    out[2] = 0
    out[3] = 0
    if bid > 0:
        loser = burden if nat else other
        out[2 + loser] += mult * spades
    if rules[CR_PIT_CROSS] != 0:
        for team in range(2):
            if tricks[team] == 0:
                out[2 + team] += spades
    return nat


@kernel
def scoreboard_points(card_points, spades_factor, floor):
    """round_half_up(card_points * factor / 10), or floor."""
    if floor != 0:
        return (card_points * spades_factor) // 10
    return (card_points * spades_factor + 5) // 10


@kernel
def scorebord_score(trump, bid, playing, points, roem, nat_on_tie, floor, out):
    """One scoreboard deal: ``out[0:2]`` each team's entry (units of 10), ``out[2:4]`` its mark
    (0 none, 1 NAT, 2 KRAAK); returns True when the playing team went nat. The nat decision uses
    unmultiplied card points plus the team's roem."""
    other = 1 - playing
    m = 2 if trump == SPADES else 1
    nat = is_nat(points[playing] + roem[playing], points[other] + roem[other], nat_on_tie)
    all_roem = (roem[0] + roem[1]) // 10
    out[2] = MARK_NONE
    out[3] = MARK_NONE
    if bid == 0:
        if nat:
            out[playing] = 0
            out[other] = NAT_BASE * m + all_roem
            out[2 + playing] = MARK_NAT
        else:
            for team in range(2):
                out[team] = scoreboard_points(points[team], m, floor) + roem[team] // 10
        return nat
    winner = other if nat else playing
    loser = 1 - winner
    out[winner] = (KRAAK_STAKE << (bid - 1)) * m + all_roem
    out[loser] = 0
    out[2 + loser] = MARK_KRAAK
    return nat


@kernel
def scorebord_game_over(totals, target):
    """After a deal: -1 while the game goes on, else the winning team (the higher total once a
    team reaches ``target``; an exact tie plays on)."""
    if totals[0] < target and totals[1] < target:
        return -1
    if totals[0] == totals[1]:
        return -1
    return 0 if totals[0] > totals[1] else 1


@kernel
def contra_match_end(points_total, crosses, end_crosses):
    """Adds the end-of-match crosses to ``crosses`` (the team with fewer points) and returns the
    winner: the team with fewer crosses, -1 for a draw."""
    if points_total[0] < points_total[1]:
        crosses[0] += end_crosses
    elif points_total[1] < points_total[0]:
        crosses[1] += end_crosses
    if crosses[0] == crosses[1]:
        return -1
    return 0 if crosses[0] < crosses[1] else 1


# ---------------------------------------------------------------- public pure functions


def _team(name: str, team) -> int:
    if team in (0, 1) and not isinstance(team, bool):
        return int(team)
    raise UserError(f"{name} = {team!r} is not a team; teams are 0 (seats 0 and 2) and 1 (seats 1 and 3)")


def _pair(name: str, values, minimum: int = 0) -> np.ndarray:
    if (not isinstance(values, (list, tuple, np.ndarray)) or len(values) != 2
            or any(isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < minimum
                   for v in values)):
        raise UserError(f"{name} = {values!r} is not allowed; use two integers >= {minimum}, "
                        f"team 0 then team 1")
    return np.array([int(v) for v in values], dtype=np.int64)


def _bid(bid, highest: int, names: str) -> int:
    if isinstance(bid, bool) or bid not in range(highest + 1):
        raise UserError(f"bid = {bid!r} is not allowed; use {names}")
    return int(bid)


def contra_deal_score(trump, bid: int, burden_team: int, points, roem, tricks, *,
                      nat_on_tie: bool = True, nat_points: str = "raw",
                      pit_cross: bool = True, bid_multiplies_points: bool = True) -> dict:
    """Points and crosses of one `kraken-contra` deal.

    trump: suit code or 0..3; bid: 0 none, 1 kraak, 2 rekraak, 3 superkraak; burden_team: the
    team that must score more (the last bidder's, the playing team's without a bid); points: raw
    card points per team (162 in all); roem: counted roem per team; tricks: tricks per team.
    Returns {"nat", "multiplier", "points_multiplied", "score", "crosses"}.
    """
    trump = parse_suit(trump, "trump")
    bid = _bid(bid, SUPERKRAAK, "0 (none), 1 (kraak), 2 (rekraak) or 3 (superkraak)")
    burden = _team("burden_team", burden_team)
    pts, rm, tr = _pair("points", points), _pair("roem", roem), _pair("tricks", tricks)
    if nat_points not in NAT_POINTS:
        raise UserError(f"nat_points = {nat_points!r} is not allowed; use one of {NAT_POINTS}")
    options = {"nat_on_tie": bool(nat_on_tie), "nat_points": nat_points,
               "pit_cross": bool(pit_cross), "bid_multiplies_points": bool(bid_multiplies_points)}
    if nat_points == "multiplied" and not bid_multiplies_points:
        raise UserError("nat_points = 'multiplied' is not allowed with bid_multiplies_points = "
                        "False (no card point is multiplied then); use nat_points = 'raw'")
    out = np.zeros(4, dtype=np.int64)
    nat = contra_score(trump, bid, burden, pts, rm, tr, contra_rules(options), out)
    mult = 1 << bid if bid_multiplies_points else 1
    return {"nat": bool(nat), "multiplier": mult,
            "points_multiplied": [int(p) * mult for p in pts],
            "score": [int(out[0]), int(out[1])], "crosses": [int(out[2]), int(out[3])]}


def scorebord_entry(trump, bid: int, playing_team: int, points, roem, *,
                    rounding: str = "half_up", nat_on_tie: bool = True) -> dict:
    """Scoreboard entries (units of 10) of one `kraken-scorebord` deal.

    trump: suit code or 0..3; bid: 0 none, 1 kraak, 2 overkraak; playing_team: the team that
    named trump; points: raw card points per team; roem: counted roem per team (multiples of 10).
    Returns {"nat", "entry", "marks"} where marks are "", "NAT" or "KRAAK" per team.
    """
    trump = parse_suit(trump, "trump")
    bid = _bid(bid, OVERKRAAK, "0 (none), 1 (kraak) or 2 (overkraak)")
    playing = _team("playing_team", playing_team)
    pts, rm = _pair("points", points), _pair("roem", roem)
    if np.any(rm % 10):
        raise UserError(f"roem = {roem!r} is not allowed; roem comes in multiples of 10 (the "
                        f"scoreboard is written in units of 10)")
    if rounding not in ROUNDINGS:
        raise UserError(f"rounding = {rounding!r} is not allowed; use one of {ROUNDINGS}")
    out = np.zeros(4, dtype=np.int64)
    nat = scorebord_score(trump, bid, playing, pts, rm, int(nat_on_tie), int(rounding == "floor"), out)
    return {"nat": bool(nat), "entry": [int(out[0]), int(out[1])],
            "marks": [MARK_NAMES[int(out[2])], MARK_NAMES[int(out[3])]]}


def scorebord_winner(totals, target: int = 250) -> int | None:
    """The winner after a deal with these running totals: 0 or 1, or None while the game goes on
    (no team at ``target`` yet, or an exact tie)."""
    tot = _pair("totals", totals)
    winner = scorebord_game_over(tot, int(target))
    return None if winner < 0 else int(winner)


def contra_match_result(points_total, crosses, end_crosses: int = 4) -> dict:
    """End of a contra match: the team with fewer total points gets ``end_crosses``; fewer
    crosses wins (None for a draw). Returns {"crosses", "winner"}."""
    pts = _pair("points_total", points_total)
    cr = _pair("crosses", crosses)
    winner = contra_match_end(pts, cr, int(end_crosses))
    return {"crosses": [int(cr[0]), int(cr[1])], "winner": None if winner < 0 else int(winner)}


__all__ = [
    "MARK_KRAAK",
    "MARK_NAT",
    "contra_deal_score",
    "contra_match_result",
    "scorebord_entry",
    "scorebord_winner",
]
