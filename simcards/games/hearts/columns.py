"""Dataset columns of Hartenjagen and Hearts: one row per deal (``deals/``) and one row per
game (``matches/``). Hands are bitmasks of card ids (docs/rules.md, "Common conventions"): UInt32 for the
32-card Hartenjagen deck, Int64 for the 52-card Hearts deck. Scores: lower is better."""

from __future__ import annotations

import polars as pl

from simcards.games.columns import Column, match_deal_columns, per_seat


def deal_columns(hand_dtype) -> tuple[Column, ...]:
    return (
        *match_deal_columns("game number in the run, from 0",
                            "dealer seat ((match_index + deal_no) mod 4)"),
        Column("phase", pl.Int8, "0 outbound (Hearts: always), 1 Hartenjagen return: points "
                                 "taken are subtracted"),
        Column("pass_dir", pl.Int8, "passing: 0 none, 1 left (to seat + 1), 2 across, "
                                    "3 right (to seat + 3)"),
        *per_seat("hand", hand_dtype, "cards dealt to seat {i} before passing, bitmask of card ids"),
        *per_seat("pass", hand_dtype, "cards seat {i} passed on (0 without passing)"),
        Column("leader", pl.Int8, "seat that led the first trick (2C holder, or forehand)"),
        *per_seat("points", pl.Int8, "points seat {i} took in the deal's tricks"),
        *per_seat("tricks", pl.Int8, "tricks seat {i} took"),
        Column("moon", pl.Int8, "seat that shot the moon (took every point, scored as a moon), "
                                "-1 none; always -1 on return deals"),
        Column("moon_option", pl.Int8, "how the moon was scored: 0 none, 1 others +total, "
                                       "2 shooter -total"),
        Column("moon_attempt", pl.Int8, "seat whose bot set out to shoot the moon (the first "
                                        "from the leader when several did), -1 none"),
        Column("qs_taker", pl.Int8, "seat that took the Q of spades"),
        Column("jc_taker", pl.Int8, "seat that took the J of clubs (Hartenjagen), -1 in Hearts"),
        *per_seat("score", pl.Int16, "game score of seat {i} after the deal"),
    )


DEAL_COLUMNS_32 = deal_columns(pl.UInt32)
DEAL_COLUMNS_52 = deal_columns(pl.Int64)

MATCH_COLUMNS = (
    Column("match_index", pl.Int64, "game number in the run, from 0"),
    Column("deals", pl.Int16, "deals played in the game"),
    Column("first_dealer", pl.Int8, "dealer of the first deal (match_index mod 4)"),
    Column("return_start", pl.Int16, "Hartenjagen: deal_no of the first return deal, "
                                     "-1 if none (always -1 in Hearts)"),
    Column("capped", pl.Boolean, "the game hit the 1024-deal cap and was placed by score"),
    *per_seat("score", pl.Int16, "final score of seat {i}"),
    *per_seat("place", pl.Int8, "placing of seat {i}, 1 best; equal results share a placing"),
    Column("winner", pl.Int8, "seat placed first alone, -1 when first place is shared"),
)
