"""Dataset columns of Skat deals (one row per deal). Seats 0..2; the dealer is deal_index mod 3,
forehand dealer + 1, middlehand dealer + 2. Hands are bitmasks of card ids (docs/rules.md,
"Common conventions"); contracts are 0 Diamonds, 1 Hearts, 2 Spades, 3 Clubs, 4 Grand, 5 Null,
-1 passed in."""

import polars as pl

from simcards.games.columns import Column, per_seat

N = 3

DEAL_COLUMNS = (
    Column("deal_index", pl.Int64, "global deal number in the run, from 0; (seed, deal_index) regenerates the deal"),
    Column("dealer", pl.Int8, "dealer seat (deal_index mod 3); forehand = dealer + 1 leads"),
    *per_seat("hand", pl.UInt32, "cards dealt to seat {i}, bitmask of card ids", N),
    Column("skat", pl.UInt32, "the two cards dealt to the Skat"),
    *per_seat("bid", pl.Int16, "highest value seat {i} bid or held in the auction, 0 none", N),
    *per_seat("pass_at", pl.Int16, "the bid standing when seat {i} passed (0: before any bid), "
                                   "-1 when it never passed", N),
    Column("final_bid", pl.Int16, "the bid the declarer plays for; 0 when passed in"),
    Column("declarer", pl.Int8, "seat that won the auction, -1 when passed in"),
    Column("contract", pl.Int8, "0 Diamonds, 1 Hearts, 2 Spades, 3 Clubs, 4 Grand, 5 Null, -1 passed in"),
    Column("hand_game", pl.Boolean, "played Hand (without taking the Skat)"),
    Column("schneider_announced", pl.Boolean, "Schneider announced (Hand games only)"),
    Column("schwarz_announced", pl.Boolean, "Schwarz announced (Hand; implied by suit or Grand Ouvert)"),
    Column("ouvert", pl.Boolean, "the declarer's hand was open (Null Ouvert, or suit/Grand Ouvert)"),
    Column("discard", pl.UInt32, "the two cards that counted for the declarer: his discard, or the "
                                 "untouched Skat in a Hand game; 0 when passed in"),
    Column("kontra", pl.Int8, "kontra option: 0 none, 1 Kontra, 2 Kontra and Re"),
    Column("matadors", pl.Int8, "matadors of the declarer's ten cards plus the Skat: +k with, -k "
                                "without (0 in Null and passed in)"),
    Column("game_value", pl.Int16, "the game's value as played (levels reached and announced), "
                                   "before the overbid rule; 0 when passed in"),
    Column("value", pl.Int16, "the value settled: game_value, or when overbid the smallest multiple "
                              "of the base value reaching the bid"),
    Column("points_declarer", pl.Int8, "card points of the declarer, the Skat included (in a stopped "
                                       "Null only the cards played)"),
    Column("points_defenders", pl.Int8, "card points of the two defenders"),
    Column("tricks_declarer", pl.Int8, "tricks the declarer took"),
    Column("tricks_defenders", pl.Int8, "tricks the defenders took"),
    Column("schneider", pl.Boolean, "a party has 30 card points or fewer (suit and Grand)"),
    Column("schwarz", pl.Boolean, "a party took no trick (suit and Grand)"),
    Column("won", pl.Boolean, "the declarer won"),
    Column("overbid", pl.Boolean, "the game's value stayed below the bid (lost at the bid's value)"),
    *per_seat("list", pl.Int16, "list score of seat {i} (declarer: +value or -2 x value, Kontra "
                                "included; defenders 0)", N),
    *per_seat("seeger", pl.Int16, "Seeger-Fabian score of seat {i} (declarer +value +50 or "
                                  "-2 x value -50; defenders +40 when he loses)", N),
    *per_seat("score", pl.Int16, "score of seat {i} in the ruleset's scoring (list or seeger-fabian)", N),
    *per_seat("est", pl.Int16, "seat {i}'s bidding estimate, per mille: its chance to win the "
                               "game it had in mind (heuristic bots; 0 for random)", N),
    *per_seat("est_contract", pl.Int8, "contract seat {i}'s estimate is for (-1: none cleared its "
                                       "threshold; then est is its best estimate)", N),
    *per_seat("limit", pl.Int16, "highest value seat {i} was ready to bid (heuristic; 0 for random)", N),
    Column("declare_est", pl.Int16, "the declarer's estimate, per mille, of the game he declared "
                                    "(after the pickup and discard)"),
)

# added with the option double_dummy = true (simcards/games/skat/solver.py); the bots' own
# outcome is beside them in points_declarer, tricks_declarer and won
DOUBLE_DUMMY_COLUMNS = (
    Column("dd_points", pl.Int8, "perfect play (all hands open) from the start of play: the "
                                 "declarer's card points, the Skat included; null in Null and "
                                 "passed-in deals"),
    Column("dd_wins", pl.Boolean, "the declarer makes the game's card-play requirements under "
                                  "perfect play (61 points, 90 or every trick where announced or "
                                  "needed to reach the bid; Null: no trick); null when passed in"),
    Column("dd_lost_declarer", pl.Int16, "card points the declarer's play gave away against perfect "
                                        "play from each position (points_declarer = dd_points - "
                                        "dd_lost_declarer + dd_lost_defenders); null in Null and "
                                        "passed-in deals"),
    Column("dd_lost_defenders", pl.Int16, "card points the defenders' play gave away against perfect "
                                         "play from each position; null in Null and passed-in deals"),
)
