"""Doppelkopf settlement as a public pure function (docs/rules.md, doppelkopf; the DDV
tournament rules, section 7 "Spielbewertung").

    from simcards.games.doppelkopf import settle
    settle(130, 7, ["re"])                      # Re won with 130 Augen: 3 points each
    settle(125, 7, ["re", "re_no90"])           # Kontra beat the no 90 with 115: 5 points each
    settle(125, 7, ["re", "re_no90"], solo=True)  # the soloist loses 12, each opponent wins 4

How a deal is settled (and the order of ``items``):
- Who wins. Without Absagen Re wins with 121 Augen and Kontra with 120; when only Kontra was
  announced, Re wins with 120 and Kontra needs 121. A party that announced no 90 / no 60 /
  no 30 / schwarz needs 151 / 181 / 211 Augen / every trick, and the other side then wins with
  90 / 60 / 30 Augen / one trick, provided it met every Absage of its own. When both parties
  announced Absagen both may miss: then neither wins.
- What a winner scores: won 1; the loser below 90 / 60 / 30 / schwarz (no trick) 1 each; Re
  announced 2, Kontra announced 2; each Absage of either party 1; and 1 for each "against"
  level reached: 120 Augen against no 90, 90 against no 60, 60 against no 30, 30 against
  schwarz. When nobody wins, each side scores only its own below-90 ... schwarz and against
  items, and the two are netted.
- Special points (normal games, only when a party wins): Kontra winning against the club
  queens 1 (this function adds it), each caught fox, Doppelkopf and Karlchen 1, netted between
  the parties; so a winner can lose points on them. A solo has none: the ``specials`` of a solo
  are ignored and its items say so.
- Every item is ``(name, party that earned it, points)``; a Re player's unit score is the sum
  of Re's items less the sum of Kontra's. In a normal game each Re player scores it and each
  Kontra player its negative; in a solo the soloist scores 3x and each opponent 1x, so every
  score row sums to zero.
"""

from __future__ import annotations

from typing import Any

from simcards.errors import UserError

PARTIES = ("re", "kontra")
LEVELS = ("no90", "no60", "no30", "schwarz")  # the Absagen, in order
ANNOUNCEMENTS = tuple(f"{party}{suffix}" for party in PARTIES
                      for suffix in ("", *(f"_{level}" for level in LEVELS)))
SPECIALS = ("fox", "doppelkopf", "karlchen")
TOTAL_AUGEN = 240
N_TRICKS = 12
MAX_AUGEN_PER_TRICK = 44  # four aces
# Augen a party needs after its own Absage of level 1..3 (level 4, schwarz, needs every trick)
OWN_TARGET = (0, 151, 181, 211)
# Augen the other side then wins with (level 4: one trick)
AGAINST_TARGET = (0, 90, 60, 30)
# the "against" items: Augen reached against the other party's Absage of level 1..4
AGAINST_ITEM = (0, 120, 90, 60, 30)
BELOW = (("below_90", 90), ("below_60", 60), ("below_30", 30))
SOLO_FACTOR = 3


def _int(name: str, value: Any, top: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) and not hasattr(value, "__index__"):
        raise UserError(f"{name} = {value!r} is not allowed; use an integer from 0 to {top}")
    value = int(value)
    if not 0 <= value <= top:
        raise UserError(f"{name} = {value!r} is not allowed; use an integer from 0 to {top}")
    return value


def announcement_levels(announcements: Any) -> dict[str, int]:
    """Each party's announcement level: -1 nothing, 0 Re/Kontra, 1..4 no 90 .. schwarz. A
    UserError for an unknown or repeated string, or an Absage without every level before it."""
    if isinstance(announcements, str):
        announcements = [announcements]
    try:
        calls = list(announcements)
    except TypeError:
        raise UserError(f"announcements = {announcements!r} is not allowed; use a list of "
                        f"{', '.join(repr(a) for a in ANNOUNCEMENTS)}") from None
    seen: set[str] = set()
    for call in calls:
        if call not in ANNOUNCEMENTS:
            raise UserError(f"announcement {call!r} is not allowed; use one of "
                            f"{', '.join(repr(a) for a in ANNOUNCEMENTS)}")
        if call in seen:
            raise UserError(f"announcement {call!r} is given twice")
        seen.add(call)
    levels = {}
    for party in PARTIES:
        level = -1
        chain = [party] + [f"{party}_{name}" for name in LEVELS]
        for k, call in enumerate(chain):
            if call in seen:
                missing = [c for c in chain[:k] if c not in seen]
                if missing:
                    raise UserError(f"announcement {call!r} needs {missing[0]!r} as well: an "
                                    f"Absage requires its party's {party.capitalize()} and every "
                                    f"level before it")
                level = k
        levels[party] = level
    return levels


def _specials(specials: Any, tricks: dict[str, int]) -> dict[str, list[str]]:
    if specials is None:
        return {"re": [], "kontra": []}
    if not isinstance(specials, dict) or not set(specials) <= set(PARTIES):
        raise UserError(f"specials = {specials!r} is not allowed; use a dict with the keys 're' "
                        f"and/or 'kontra', each a list of {', '.join(repr(s) for s in SPECIALS)}")
    out = {}
    for party in PARTIES:
        events = specials.get(party, [])
        if isinstance(events, str) or not isinstance(events, (list, tuple)):
            raise UserError(f"specials[{party!r}] = {events!r} is not allowed; use a list of "
                            f"{', '.join(repr(s) for s in SPECIALS)}")
        for event in events:
            if event not in SPECIALS:
                raise UserError(f"special {event!r} of {party} is not allowed; use one of "
                                f"{', '.join(repr(s) for s in SPECIALS)} (against the club queens "
                                f"follows from the result)")
        if events and tricks[party] == 0:
            raise UserError(f"specials[{party!r}] = {list(events)!r}, but {party} took no trick")
        if events.count("doppelkopf") > tricks[party]:
            raise UserError(f"specials[{party!r}] has {events.count('doppelkopf')} Doppelkopf but "
                            f"{party} took {tricks[party]} tricks")
        out[party] = list(events)
    both = out["re"] + out["kontra"]
    if both.count("fox") > 2:
        raise UserError(f"specials count {both.count('fox')} foxes caught; there are 2")
    if both.count("karlchen") > 1:
        raise UserError("specials count Karlchen more than once; only the last trick can be one")
    return out


def _wins(level: int, other_level: int, augen: int, tricks: int) -> bool:
    """Whether a party with announcement ``level`` wins against ``other_level`` (both >= 1
    somewhere: the plain 121/120 case is decided by the caller)."""
    if level >= 1:
        own = tricks == N_TRICKS if level == 4 else augen >= OWN_TARGET[level]
        if not own:
            return False
    if other_level >= 1:
        return tricks >= 1 if other_level == 4 else augen >= AGAINST_TARGET[other_level]
    return True


def settle(re_augen: int, re_tricks: int, announcements=(), specials=None,
           solo: bool = False) -> dict:
    """Settle one deal (module docstring). Returns ``winner`` ("re", "kontra" or None), ``re``
    (the score of each Re player; the soloist's 3x in a solo), ``kontra`` (the score of each
    Kontra player), ``value`` (Re's unit score before the solo factor) and ``items``."""
    re_augen = _int("re_augen", re_augen, TOTAL_AUGEN)
    re_tricks = _int("re_tricks", re_tricks, N_TRICKS)
    augen = {"re": re_augen, "kontra": TOTAL_AUGEN - re_augen}
    tricks = {"re": re_tricks, "kontra": N_TRICKS - re_tricks}
    for party in PARTIES:
        if augen[party] > MAX_AUGEN_PER_TRICK * tricks[party]:
            raise UserError(f"re_augen = {re_augen} and re_tricks = {re_tricks} do not fit: "
                            f"{party} has {augen[party]} Augen in {tricks[party]} tricks "
                            f"(at most {MAX_AUGEN_PER_TRICK} a trick)")
    if not isinstance(solo, bool):
        raise UserError(f"solo = {solo!r} is not allowed; use True or False")
    levels = announcement_levels(announcements)
    events = _specials(specials, tricks)
    other = {"re": "kontra", "kontra": "re"}

    if levels["re"] < 1 and levels["kontra"] < 1:
        only_kontra = levels["kontra"] == 0 and levels["re"] < 0
        winner = "re" if re_augen >= (120 if only_kontra else 121) else "kontra"
    else:
        winner = None
        for party in PARTIES:
            if _wins(levels[party], levels[other[party]], augen[party], tricks[party]):
                winner = party

    items: list[tuple[str, str, int]] = []
    scoring = [winner] if winner is not None else list(PARTIES)
    if winner is not None:
        items.append(("won", winner, 1))
    for party in scoring:  # the other side below 90 / 60 / 30 / schwarz
        for name, limit in BELOW:
            if augen[other[party]] < limit:
                items.append((name, party, 1))
        if tricks[other[party]] == 0:
            items.append(("schwarz", party, 1))
    if winner is not None:
        for party in PARTIES:
            if levels[party] >= 0:
                items.append((party, winner, 2))
            for k in range(1, levels[party] + 1):
                items.append((f"{party}_{LEVELS[k - 1]}", winner, 1))
    for party in scoring:  # against the other party's Absagen
        for k in range(1, levels[other[party]] + 1):
            if augen[party] >= AGAINST_ITEM[k]:
                items.append((f"against_{LEVELS[k - 1]}", party, 1))
    if winner is not None and not solo:
        if winner == "kontra":
            items.append(("against_club_queens", "kontra", 1))
        for party in PARTIES:
            for event in SPECIALS:
                for _ in range(events[party].count(event)):
                    items.append((event, party, 1))
    elif solo and (events["re"] or events["kontra"]):
        items.append(("no_special_points_in_a_solo", winner or "re", 0))

    value = sum(p for _, party, p in items if party == "re") - sum(
        p for _, party, p in items if party == "kontra")
    factor = SOLO_FACTOR if solo else 1
    return {"winner": winner, "re": factor * value, "kontra": -value, "value": value,
            "items": items, "solo": solo}
