"""The Python callbacks of the compiled loops: a Python bot's decision (`ask_card`, `ask_int`)
and the events its views need (`note_deal`, `note_play`, `note`), answered by the table playing
now; the ids of the decisions and events the games' kernels pass."""

from __future__ import annotations

import numba
from numba import njit


TABLES: list = []  # the table playing now (a stack: a bot may simulate inside)


def active():
    """The `Table` playing now."""
    return TABLES[-1]


def ask(decision: str, seat: int, payload):
    """Called from the compiled loop: the Python bot at ``seat`` decides; returns the game's
    encoding of its answer, or -1 when the bot leaves the decision to the heuristic."""
    return active().decide(decision, int(seat), payload)


@njit(cache=True)
def ask_card(st, legal, seat):
    with numba.objmode(card="int64"):
        card = ask("play", seat, (st, legal))
    return card


@njit(cache=True)
def ask_int(decision_id, seat, value):
    """A decision other than the card (its id in `DECISION_IDS`), with one int of context (the
    hand, or the bid level); the answer in the game's encoding."""
    with numba.objmode(answer="int64"):
        answer = ask(DECISIONS[decision_id], seat, (None, value))
    return answer


@njit(cache=True)
def note_deal(seed, index, hands):
    with numba.objmode():
        active().begin_deal(seed, index, hands)


@njit(cache=True)
def note_play(st, trace):
    with numba.objmode():
        active().begin_play(st, trace)


@njit(cache=True)
def note(event_id, values):
    """A game event the views need (bids made, a deal's settlement), with its values."""
    with numba.objmode():
        active().note(EVENTS[event_id], values)


# Append new decisions at the end: the games' cached kernels (their userbot.py) hold these ids as
# constants, and Numba's cache does not notice a change made here.
DECISIONS = ("choose_trump", "declare", "bid", "pass_cards")
EXPECTS = {"play": "one of the legal card codes (a str)",
           "choose_trump": "a suit letter 'C', 'D', 'H' or 'S'",
           "declare": "a suit letter 'C', 'D', 'H' or 'S', or None to pass",
           "bid": "True or False",
           "pass_cards": "a list of distinct card codes from the hand, as many as are passed"}
DECISIONS += ("game", "announce")  # Doppelkopf
EXPECTS.update(game="one of the legal game names (a str: 'normal', 'marriage', 'queen', ...)",
               announce="True or False")
# Skat (skat/userbot.py): its bid and declare answers are Kraken's bool and its own game string
DECISIONS += ("take_skat", "discard", "kontra", "re")
EXPECTS.update({"take_skat": "True (pick up the Skat) or False (play Hand)",
                "discard": "a list of two distinct card codes of the twelve",
                "kontra": "True or False", "re": "True or False"})
DECISION_IDS = {name: i for i, name in enumerate(DECISIONS)}
EVENTS = ("bidding", "settled")
EVENT_IDS = {name: i for i, name in enumerate(EVENTS)}
