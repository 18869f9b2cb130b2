"""Dataset columns of Doppelkopf: one row per deal. Hands are Int64 bitmasks of the 48 card ids
(``copy * 24 + suit * 6 + rank``, docs/rules.md "Common conventions"). Parties: ``re_mask`` bit
s set when seat s plays for Re."""

from __future__ import annotations

import polars as pl

from simcards.games.columns import Column, per_seat
from simcards.games.doppelkopf.rules import GAME_TYPES
from simcards.games.doppelkopf.scoring import ANNOUNCEMENTS

GAME_TYPE_DOC = ", ".join(f"{k} {name}" for k, name in enumerate(GAME_TYPES))

DEAL_COLUMNS = (
    Column("deal_index", pl.Int64, "deal number in the run; (seed, deal_index) regenerates it"),
    Column("dealer", pl.Int8, "dealer seat (deal_index mod 4); forehand, the next seat, leads"),
    *per_seat("hand", pl.Int64, "cards dealt to seat {i}, bitmask of card ids"),
    Column("game_type", pl.Int8, f"the game played: {GAME_TYPE_DOC}"),
    Column("declarer", pl.Int8, "the soloist or the marriage holder, -1 in a normal game"),
    Column("owed_solo", pl.Boolean, "pflichtsolo: the solo is its player's owed solo of the "
                                    "series (the soloist leads); false without the option"),
    Column("leader", pl.Int8, "seat that led the first trick: forehand, or the owed solo's player"),
    Column("re_mask", pl.Int8, "the Re party: bit s set when seat s plays Re (the club queens, "
                               "the marriage holder and partner, or the soloist)"),
    Column("clarify_trick", pl.Int8, "marriage: the trick (1-3) that found the partner, 0 none"),
    *(Column(f"ann_{call}", pl.Int8, f"cards its announcer held when {call} was called "
                                     f"(an Absage passed over counts, with the same count), -1 "
                                     f"not called") for call in ANNOUNCEMENTS),
    *(Column(f"ann_seat_{call}", pl.Int8, f"seat that called {call}, -1 not called")
      for call in ANNOUNCEMENTS),
    Column("re_augen", pl.Int16, "Augen (card points) the Re party took"),
    Column("kontra_augen", pl.Int16, "Augen the Kontra party took"),
    Column("re_tricks", pl.Int8, "tricks the Re party took"),
    Column("kontra_tricks", pl.Int8, "tricks the Kontra party took"),
    Column("fox_re", pl.Int8, "foxes (A of diamonds) Re caught from Kontra (special points: "
                              "normal games and marriages only, 0 in a solo)"),
    Column("fox_kontra", pl.Int8, "foxes Kontra caught from Re"),
    Column("doppelkopf_re", pl.Int8, "Re's tricks of 40 Augen or more"),
    Column("doppelkopf_kontra", pl.Int8, "Kontra's tricks of 40 Augen or more"),
    Column("karlchen_re", pl.Int8, "1 when Re's J of clubs won the last trick"),
    Column("karlchen_kontra", pl.Int8, "1 when Kontra's J of clubs won the last trick"),
    Column("solo", pl.Boolean, "scored as a solo (3x for the soloist, no special points)"),
    Column("winner", pl.Int8, "0 neither party, 1 Re, 2 Kontra"),
    Column("value", pl.Int16, "Re's unit score (each Re player's score; the soloist scores 3x)"),
    *per_seat("score", pl.Int16, "score of seat {i} for the deal (each row sums to zero)"),
    *per_seat("est", pl.Int16, "seat {i}'s hand estimate for a normal game (expected Augen of "
                               "its party), behind its Re/Kontra and Absage decisions"),
    *per_seat("solo_est", pl.Int16, "seat {i}'s estimate of its best solo, behind its solo "
                                    "decision"),
    *per_seat("solo_pick", pl.Int8, "seat {i}'s best solo (contract 1 queen .. 7 fleshless)"),
)
