"""Dataset columns of Kraken runs: one row per deal (`deals/`) and one per match (`matches/`).

Teams: 0 = seats 0 and 2 (WIJ), 1 = seats 1 and 3 (ZIJ). Hands are the dealt cards as bitmasks
of card ids (docs/rules.md, "Common conventions"). Bid levels: 0 none, 1 kraak, 2 rekraak (contra) / overkraak
(scorebord), 3 superkraak (contra). Both rulesets share one kernel: it fills the rows of
`DEAL_ROWS` and `MATCH_ROWS`, each the union of both rulesets' columns (integer columns in an
int64 matrix, the Float32 estimates in a float64 one), and `RowLayout.to_frame` picks a
ruleset's columns by name.

Two families of roem columns look alike: ``hand_roem_<team>`` is per team (the hand melds
awarded to the team after the comparison), ``roem_hand_<seat>`` per seat (what that seat's own
hand holds, before any awarding).
"""

from __future__ import annotations

import polars as pl

from simcards.games.columns import Column, RowLayout, match_deal_columns, per_seat
from simcards.games.klaverjas.columns import per_team
from simcards.games.kraken.rules import BID_NAMES, CONTRA, SCOREBORD


def _bid_columns(variant: int) -> tuple[Column, ...]:
    names = BID_NAMES[variant][1:]
    seats = tuple(Column(f"{name}_seat", pl.Int8, f"seat that made the {name} (-1: none)")
                  for name in names)
    estimates = tuple(
        Column(f"est_{name}_{j}", pl.Float32,
               f"estimate of the {'first' if j == 1 else 'second'} seat to decide on {name} "
               f"({'the seat after the declarer' if i % 2 == 0 else 'the declarer'}"
               f"{'' if j == 1 else ', partner of the first'}) when it decided; NaN if it did not")
        for i, name in enumerate(names) for j in (1, 2))
    would = tuple(
        Column(f"would_win_{name}", pl.Boolean,
               f"the {'defenders' if i % 2 == 0 else 'playing team'} would win a {name} with this "
               f"play (bots play alike whatever is bid, so this holds for bid and unbid deals)")
        for i, name in enumerate(names))
    return seats + estimates + would


def _deal_columns(variant: int) -> tuple[Column, ...]:
    contra = variant == CONTRA
    multiplier = ("2^bid (kraak 2, rekraak 4, superkraak 8), 1 with bid_multiplies_points = false" if contra
                  else "2 with spades trump, else 1")
    return (
        *match_deal_columns("match (contra) or game to the target (scorebord) in the run, from 0",
                            "dealer seat; forehand = dealer + 1 names trump and leads"),
        *per_seat("hand", pl.UInt32, "cards dealt to seat {i}, bitmask of card ids"),
        Column("trump", pl.Int8, "trump suit: 0 clubs, 1 diamonds, 2 hearts, 3 spades"),
        Column("declarer", pl.Int8, "seat that named trump (forehand)"),
        Column("estimate", pl.Int16, "declarer's hand-evaluator estimate for the trump, rounded"),
        Column("bid", pl.Int8, "highest bid: " + ", ".join(f"{i} {n}" for i, n in enumerate(BID_NAMES[variant]))),
        Column("bidding_team", pl.Int8, "team that made the highest bid (-1: no bid)"),
        Column("burden_team", pl.Int8, "team that must score more than the other: " +
               ("the last bidder's, the playing team's without a bid" if contra else
                "always the playing team (bids change the stakes only)")),
        *_bid_columns(variant),
        Column("multiplier", pl.Int8, f"card-point multiplier: {multiplier}"),
        *per_team("points", pl.Int16, "raw card points of team {team} (seats {seats}), last-trick 10 included"),
        *per_team("points_x", pl.Int16, "card points of team {team} times the multiplier"),
        *per_team("tricks", pl.Int8, "tricks taken by team {team}"),
        *per_team("hand_roem", pl.Int16, "per team: hand melds awarded to team {team} (stuk "
                                         "excluded; only the team with the highest meld scores; "
                                         "per seat before awarding: roem_hand_*)"),
        *per_team("stuk", pl.Int16, "stuk (K and Q of trump in one hand) counted for team {team}"),
        *per_team("table_roem", pl.Int16, "table roem won by team {team} (pit bonus excluded)"),
        *per_team("pit_roem", pl.Int16, "pit bonus counted as roem of team {team}"),
        *per_team("roem", pl.Int16, "all roem counted for team {team}: hand roem, stuk, table roem, pit bonus"),
        Column("meld_team", pl.Int8, "team holding the single highest hand meld (-1: no meld)"),
        Column("top_meld", pl.Int16, "value of the single highest hand meld (0: none)"),
        Column("top_meld_four", pl.Boolean, "the highest hand meld is a four of a kind"),
        Column("contested", pl.Boolean, "both teams held a hand meld (stuk not counted)"),
        Column("pit", pl.Boolean, "one team took all eight tricks"),
        Column("nat", pl.Boolean, "the burden team went nat" if contra else "the playing team went nat"),
        Column("bid_won", pl.Int8, "-1 no bid; 1 the team that made the highest bid won it, 0 it lost"),
        *per_team("score", pl.Int16, "points of team {team} for the deal" if contra else
                  "scoreboard entry of team {team} (units of 10)"),
        *(per_team("crosses", pl.Int8, "penalty crosses team {team} got in the deal") if contra else
          per_team("mark", pl.Int8, "scoreboard mark of team {team}: 0 none, 1 NAT, 2 KRAAK")),
        *per_team("total", pl.Int32, "running total of team {team}'s " +
                  ("points" if contra else "scoreboard") + " after this deal"),
        *per_seat("roem_hand", pl.Int16, "per seat: total of seat {i}'s own hand melds with the "
                                         "deal's trump (runs, four of a kind, stuk), before any "
                                         "awarding (per team after awarding: hand_roem_*)"),
    )


def _match_columns(variant: int) -> tuple[Column, ...]:
    contra = variant == CONTRA
    return (
        Column("match_index", pl.Int64, "match in the run, from 0"),
        Column("deals", pl.Int16, "deals played"),
        Column("first_dealer", pl.Int8, "dealer of the first deal"),
        *per_team("total", pl.Int32, "total points of team {team}" if contra else
                  "scoreboard total of team {team}"),
        *((per_team("crosses", pl.Int16, "penalty crosses of team {team}, the end-of-match "
                                         "crosses included")) if contra else ()),
        Column("winner", pl.Int8, ("team with fewer crosses; -1 for a draw" if contra else
                                   "team with the higher total once a team reaches the target; "
                                   "-1 if the game hit the deal limit")),
        *per_team("declared", pl.Int16, "deals team {team} named trump"),
        *per_team("bids", pl.Int16, "bids (kraak and higher) team {team} made"),
        *per_team("nat", pl.Int16, "deals team {team} went nat as the team that had to score more"),
        *per_team("nat_marks", pl.Int16, "NAT marks of team {team} (nat without a bid)"),
        *per_team("kraak_marks", pl.Int16, "KRAAK marks of team {team} (lost a deal with a bid)"),
        *per_team("pits", pl.Int16, "deals team {team} took all eight tricks"),
    )


CONTRA_DEAL_COLUMNS = _deal_columns(CONTRA)
SCOREBORD_DEAL_COLUMNS = _deal_columns(SCOREBORD)
CONTRA_MATCH_COLUMNS = _match_columns(CONTRA)
SCOREBORD_MATCH_COLUMNS = _match_columns(SCOREBORD)


# one numbering of the kernel's rows for both rulesets (a row a ruleset lacks is not picked)
DEAL_ROWS = RowLayout(CONTRA_DEAL_COLUMNS, SCOREBORD_DEAL_COLUMNS)
MATCH_ROWS = RowLayout(CONTRA_MATCH_COLUMNS, SCOREBORD_MATCH_COLUMNS)

# added with the option double_dummy = true (simcards/games/klaverjas/solver.py)
DOUBLE_DUMMY_COLUMNS = (
    Column("dd_margin", pl.Int16, "perfect play (all hands open) from the start of play: the declaring "
                                  "team's card points plus all counted roem minus the opponents' (raw points)"),
    Column("dd_nat", pl.Boolean, "the team carrying the burden of the deal's bid is nat under perfect play"),
    Column("dd_kraak_wins", pl.Boolean, "a kraak by the defenders would be won under perfect play"),
    Column("bot_margin", pl.Int16, "the declaring team's margin as the bots played the deal"),
    Column("dd_lost_declaring", pl.Int16, "margin the declaring team's card play gave away against "
                                          "perfect play from each position (bot_margin = dd_margin "
                                          "- dd_lost_declaring + dd_lost_defending)"),
    Column("dd_lost_defending", pl.Int16, "margin the defending team's card play gave away against "
                                          "perfect play from each position"),
)
