"""Dataset columns of Klaverjassen deals (one row per deal). Teams: 0 = seats 0 and 2,
1 = seats 1 and 3. Hands are the dealt cards as bitmasks of card ids (docs/rules.md, "Common conventions")."""

import polars as pl

from simcards.games.columns import Column, per_party, per_seat
from simcards.games.klaverjas.rules import PARTNERSHIPS


def per_team(name: str, dtype, doc: str) -> tuple[Column, ...]:
    """One column per team (0: seats 0 and 2, 1: seats 1 and 3)."""
    return per_party(name, dtype, doc, PARTNERSHIPS)


DEAL_COLUMNS = (
    Column("deal_index", pl.Int64, "global deal number in the run, from 0; (seed, deal_index) regenerates the deal"),
    Column("dealer", pl.Int8, "dealer seat (deal_index mod 4); forehand = dealer + 1 leads"),
    *per_seat("hand", pl.UInt32, "cards dealt to seat {i}, bitmask of card ids"),
    Column("trump", pl.Int8, "trump suit: 0 clubs, 1 diamonds, 2 hearts, 3 spades"),
    Column("declarer", pl.Int8, "seat that plays the game (named trump)"),
    Column("estimate", pl.Int16, "declarer's hand-evaluator estimate for the trump, rounded"),
    *per_team("points", pl.Int16, "card points of team {team} (seats {seats}), last-trick 10 included"),
    *per_team("roem", pl.Int16, "table roem of team {team}, pit bonus included"),
    *per_team("tricks", pl.Int8, "tricks taken by team {team}"),
    Column("pit", pl.Boolean, "one team took all eight tricks"),
    Column("nat", pl.Boolean, "the playing team went nat"),
    *per_team("score", pl.Int16, "score of team {team} for the deal"),
    *per_seat("roem_hand", pl.Int16, "total of seat {i}'s hand melds with the deal's trump (runs, four of a kind, stuk)"),
)

# added with the option double_dummy = true (simcards/games/klaverjas/solver.py)
DOUBLE_DUMMY_COLUMNS = (
    Column("dd_margin", pl.Int16, "perfect play (all hands open) from the start of play: the declaring "
                                  "team's card points plus roem minus the opponents'"),
    Column("dd_nat", pl.Boolean, "the playing team is nat under perfect play"),
    Column("bot_margin", pl.Int16, "the same margin as the bots played the deal"),
    Column("dd_lost_declaring", pl.Int16, "margin the declaring team's card play gave away against "
                                          "perfect play from each position (bot_margin = dd_margin "
                                          "- dd_lost_declaring + dd_lost_defending)"),
    Column("dd_lost_defending", pl.Int16, "margin the defending team's card play gave away against "
                                          "perfect play from each position"),
)
