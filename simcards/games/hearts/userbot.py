"""User bots in Hartenjagen and Hearts (simcards/games/userbots/).

Decisions: ``play``; ``pass_cards`` (a list of the three cards to pass, in deals with passing).
A Python bot never sets out to shoot the moon in the heuristic's sense (that plan is the
heuristic's own); a Numba bot's seat plans as the heuristic does.

View fields besides the shared ones: ``points`` (per seat, taken so far this deal),
``scores`` (per seat, the game scores before this deal), ``phase`` ("outbound", or "return" in
Hartenjagen), ``hearts_broken``, ``pass_dir`` ("none", "left", "across", "right"), ``passed``
and ``received`` (the seat's own passed and received cards), ``deal_no``. The ``pass_cards`` view
holds the hand as dealt, ``pass_dir``, ``scores``, ``phase`` and ``deal_no``.
"""

from __future__ import annotations

import numba
from numba import njit

from simcards.games.botspec import HEURISTIC
from simcards.games.hearts import _kernels as K
from simcards.games.hearts import _play as P
from simcards.games.hearts import bots as HB
from simcards.games.userbots import (
    DECISION_IDS,
    PYTHON_KIND,
    Support,
    active,
    ask_int,
    card_chain,
    codes_of,
    hooked_deal,
    hooked_play,
    rebuild,
    seat_of,
)
from simcards.rng import MAX_DEALS_PER_MATCH

D_PASS = DECISION_IDS["pass_cards"]
PASS_NAMES = {0: "none", 1: "left", 2: "across", 3: "right"}
PHASES = ("outbound", "return")


@njit(cache=True)
def user_passes(kind, hand, T, params, rng):
    if kind >= PYTHON_KIND:
        if kind == PYTHON_KIND:
            chosen = ask_int(D_PASS, seat_of(params), hand)
            if chosen >= 0:
                return chosen
        kind = HEURISTIC
    return HB.choose_passes(kind, hand, T, params, rng)


@njit(cache=True)
def user_wants_moon(kind, hand, T, params):
    if kind == PYTHON_KIND:
        return False
    return HB.wants_moon(HEURISTIC if kind > PYTHON_KIND else kind, hand, T, params)


def _scores(scores, phase) -> None:
    active().context_next.update(scores=tuple(int(x) for x in scores), phase=PHASES[phase])


@njit(cache=True)
def _note_scores(scores, phase):
    with numba.objmode():
        _scores(scores, phase)


@njit
def _hooked_prepare(seed, match, deal_no, scores, phase, T, bot_kind, bot_params, dealt, passes,
                    held, deck, st, rng):
    """`_play.prepare_deal` that first tells the table the game scores and phase (the passing
    view's; the state is set up only after passing)."""
    _note_scores(scores, phase)
    return inner_prepare(seed, match, deal_no, scores, phase, T, bot_kind,  # noqa: F821
                         bot_params, dealt, passes, held, deck, st, rng)


@njit(cache=True)
def copy_heuristic(kind, legal, st, T, params, rng):
    """A Numba user bot that plays the heuristic's card (scripts/bench.py times the fast path
    with it: ``kind = "numba" entry = "simcards.games.hearts.userbot:copy_heuristic"``)."""
    return HB.choose_card(HEURISTIC, legal, st, T, params, rng)


class HeartsSupport(Support):
    copy_entry = "simcards.games.hearts.userbot:copy_heuristic"
    decisions = ("play", "pass_cards")
    family = "hearts"

    def build(self, links, build):
        play = rebuild(P.play_out, build, choose_card=card_chain(HB.choose_card, links, build))
        marks = rebuild(P.mark_moon_attempts, build, wants_moon=user_wants_moon)
        replace = {"choose_passes": user_passes, "mark_moon_attempts": marks}
        if build.python:
            play = hooked_play(play, build)
            replace["deal_cards"] = hooked_deal(P.deal_cards, build)
        prepare = rebuild(P.prepare_deal, build, **replace)
        if build.python:
            prepare = rebuild(_hooked_prepare, build, inner_prepare=prepare)
        loop = rebuild(P.simulate_games, build, prepare_deal=prepare, play_out=play)
        return {"simulate_games": loop}

    def _public(self, game, st, deal_no) -> dict:
        return {"scores": tuple(int(st[K.S_SCORE + s]) for s in range(4)),
                "phase": PHASES[int(st[K.S_PHASE])], "deal_no": deal_no,
                "pass_dir": PASS_NAMES[int(K.pass_offset(game.tables, deal_no))]}

    def play_extra(self, source, st, seat):
        game = source.game
        if hasattr(source, "context"):  # a table in a run
            dealt = source.context["dealt"][seat]
            held = source.context["start_hands"][seat]
            deal_no = source.deal_index % MAX_DEALS_PER_MATCH
            fields = self._public(game, st, deal_no)
        else:  # an interactive deal
            dealt, held = source.dealt[seat], source.held[seat]
            fields = {"scores": tuple(source.scores_before), "phase": source.phase,
                      "deal_no": None, "pass_dir": source.pass_dir}
        fields.update({"points": tuple(int(st[K.S_POINTS + s]) for s in range(4)),
                       "hearts_broken": bool(st[K.S_BROKEN]),
                       "passed": codes_of(self.deck, dealt & ~held),
                       "received": codes_of(self.deck, held & ~dealt)})
        return fields

    def on_deal(self, table):
        table.context.update(getattr(table, "context_next", {}))

    def decision_view(self, table, decision, seat, value):
        hand = table.context["dealt"][seat]
        deal_no = table.deal_index % MAX_DEALS_PER_MATCH
        fields = {"hand": codes_of(self.deck, hand), "dealer": (table.deal_index // MAX_DEALS_PER_MATCH
                                                                + deal_no) % 4}
        # the scores before the deal: the state is not set up yet, so from the game's rows
        fields.update(scores=table.context.get("scores"), phase=table.context.get("phase"),
                      deal_no=deal_no,
                      pass_dir=PASS_NAMES[int(K.pass_offset(table.game.tables, deal_no))])
        ids = self.ids

        def parse(answer):
            if not isinstance(answer, (list, tuple)) or len(answer) != HB.N_PASS:
                return None
            mask = 0
            for code in answer:
                card = ids.get(code) if isinstance(code, str) else None
                if card is None or not hand >> card & 1 or mask >> card & 1:
                    return None
                mask |= 1 << card
            return mask

        return fields, codes_of(self.deck, hand), parse
