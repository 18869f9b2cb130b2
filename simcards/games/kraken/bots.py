"""Kraken bots: the Klaverjassen bots (trump choice by the hand evaluator, card play) plus bidding.

The bidding estimate
--------------------
Every seat that decides a bid computes an estimate: the card points (of 162, last trick
included) its team is expected to take, from what the seat can see at that moment:

    estimate = est_base_<bid>_<j> + est_slope * evaluate_hand(own hand, trump)
               + est_partner_bid x (bids the partner made earlier in this deal)

``evaluate_hand`` is the Klaverjassen evaluator (simcards/games/klaverjas/bots.py) with the named
trump. ``<bid>_<j>`` is the decision: the bid (kraak, rekraak/overkraak, superkraak) and whether
the seat decides first (j = 1: the seat after the declarer for the defenders' bids, the declarer
for the playing team's) or second (j = 2: its partner, who has seen the first decline). The
decision alone fixes the public information besides the partner's earlier bids: who declared,
which bids were made, that the partner passed. The seat never looks at another hand.

A bid is made when the estimate reaches the bid's threshold, on the same scale (81 is half the
card points). The defaults were calibrated on `kraken-contra` runs with these bots (six rounds
of 12,000 matches, each round refitting on the previous one's data): every base so that the
decision's mean estimate equals its team's mean card points (a mean error below 1 point; the
superkraak decisions are rare and noisier), ``est_partner_bid`` on the superkraak decisions after
the partner's kraak, and each threshold where a logistic fit of "the bid would win with this
play" on the estimate crosses 1/2: in contra a bid moves the crosses of the deal by the same
amount either way, so it pays from there on. On the scoreboard a kraak stakes 32 (plus all
roem) against the plain deal's entries, and the mean gain of a kraak turns positive near 82
(`bid_break_even`), its threshold there before the tuning below; the overkraak bases and threshold (104, where an
overkraak wins half the time) were refitted on `kraken-scorebord` runs with that kraak. `simcards.games.kraken.stats.estimate_calibration`
and `bid_success_by_estimate` show both on any run. The superkraak bases are low (10): the
seat faces a rekraak, and whoever kraaked already showed a strong hand, through its own
evaluator or, for its partner, through ``est_partner_bid``.

The thresholds were then tuned on whole matches to an equilibrium, and the defaults are exactly
what the shipped tune configs produce (``mode = "equilibrium"``: iteration 1 against the untuned
bot, every bid at 81, each later iteration against copies of the one before, in duplicate
matches, until two iterations in a row gain nothing on a fresh seed):
- contra, `simcards tune configs/tune-kraken-contra.toml` (fewer crosses per 16-deal match):
  kraak 84, rekraak 133, superkraak 98, after 4 iterations (76/140/69, +1.45 crosses per match
  over the untuned bot; 83/118/80, +0.36; 84/133/98, -0.008; 82/131/89, +0.002). A best response
  to these defaults saves +0.002 crosses per match (95% interval -0.016 to +0.020): nothing. The
  rekraak gain curve is flat from about 120 up and the superkraak curve almost flat (few
  rekraaks to answer), so a rekraak pays only with a very strong estimate; the per-deal analysis
  misses that a kraak invites a rekraak and that the match ends with 4 crosses for fewer points.
- scoreboard, `simcards tune configs/tune-kraken-scorebord.toml` (higher final total): kraak 85,
  overkraak 105, after 3 iterations (82/101, +3.96 board points per game over the untuned bot;
  85/105, -0.13; 82/117, -0.20). A best response to these defaults gains -0.20 board points per
  game (95% interval -0.46 to +0.06): nothing. The overkraak curve is flat from about 93 up.

Random bots name a random trump and never bid (their estimate is still recorded).
"""

from __future__ import annotations

import numpy as np

from simcards._jit import kernel
from simcards.games.klaverjas import bots as kbots
from simcards.games.klaverjas.bots import evaluate_hand
from simcards.games.botspec import BotFamily

_K = kbots.N_PARAMS


def _base(bid: str, j: int, value: float) -> tuple[str, float, str]:
    who = "first" if j == 1 else "second"
    return (f"est_base_{bid}_{j}", value, f"bidding estimate: base of the {who} seat to decide on {bid}")


def _threshold(bid: str, value: float, who: str) -> tuple[str, float, str]:
    return (f"{bid}_threshold", value, f"{who} {bid} when the estimate reaches this")


# Shared layout, so one kernel reads both rulesets: the superkraak entries come last.
ESTIMATE_PARAMS = (
    ("est_slope", 0.6, "bidding estimate: team card points per point of the own hand's evaluator"),
    ("est_partner_bid", 30.0, "bidding estimate: added per earlier bid of the partner"),
)
def _kraak(threshold: float, base_1: float, base_2: float) -> tuple:
    return (_threshold("kraak", threshold, "defenders"), _base("kraak", 1, base_1), _base("kraak", 2, base_2))


def _level2(bid: str, threshold: float, base_1: float, base_2: float) -> tuple:
    return (_threshold(bid, threshold, "the playing team"), _base(bid, 1, base_1), _base(bid, 2, base_2))


# Kraken's evaluator weights: hand melds are awarded in Kraken, so they count; the bidding bases
# and slope below were calibrated with these weights (module docstring).
KRAKEN_EVALUATOR = {"w_base": 0.0, "w_trump_jack": 30.0, "w_trump_nine": 20.0, "w_trump_ace": 10.0,
                    "w_trump_card": 8.0, "w_side_ace": 12.0, "w_guarded_ten": 7.0, "w_void": 4.0,
                    "w_roem": 0.5}
# forced trump in Kraken: the free-selection threshold is never read
_PLAY_PARAMS = kbots.bot_params(KRAKEN_EVALUATOR, declare_threshold=60.0)
SUPERKRAAK_PARAMS = (_threshold("superkraak", 98.0, "defenders"), _base("superkraak", 1, 10.0),
                     _base("superkraak", 2, 10.0))
CONTRA_PARAMS = (_PLAY_PARAMS + ESTIMATE_PARAMS + _kraak(84.0, 33.6, 30.6)
                 + _level2("rekraak", 133.0, 42.0, 58.0) + SUPERKRAAK_PARAMS)
# the scoreboard's kraak stakes 32 against a plain deal's entries: it pays from a higher
# estimate, and the stronger krakers that leaves make an overkraak harder
SCOREBORD_PARAMS = (_PLAY_PARAMS + ESTIMATE_PARAMS + _kraak(85.0, 33.7, 32.4)
                    + _level2("overkraak", 105.0, 38.8, 57.3))
CONTRA_BOTS = BotFamily(kinds=kbots.KINDS, params=CONTRA_PARAMS, counts=kbots.COUNTS)
SCOREBORD_BOTS = BotFamily(kinds=kbots.KINDS, params=SCOREBORD_PARAMS, counts=kbots.COUNTS)

P_SLOPE, P_PARTNER_BID = _K, _K + 1
P_LEVEL = _K + 2  # bid level l (1..3) has [threshold, base_1, base_2] at P_LEVEL + 3 * (l - 1)


@kernel
def bid_estimate(hand, trump, level, j, partner_bids, T, params):
    """Expected card points of the team of the ``j``-th seat (0 or 1) to decide on the bid of
    ``level``, from that seat's view (module docstring)."""
    est = params[P_LEVEL + 3 * (level - 1) + 1 + j] + params[P_SLOPE] * evaluate_hand(hand, trump, T, params)
    return est + params[P_PARTNER_BID] * partner_bids


@kernel
def takes_bid(kind, level, est, params):
    """Does a bot of ``kind`` with this estimate make the bid of ``level`` (1, 2, 3)?"""
    if kind == kbots.RANDOM:
        return False
    return est >= params[P_LEVEL + 3 * (level - 1)]


@kernel
def run_bidding(hands, trump, declarer, max_bid, T, kinds, params, est_out, bidder_out):
    """The bidding after trump is named; returns the bid level reached (0 = no bid).

    Level 1 (kraak) and 3 (superkraak) are the defenders', the seat after the declarer first;
    level 2 (rekraak / overkraak) the playing team's, the declarer first. ``est_out[2*(l-1)+j]``
    gets the estimate of the j-th seat to decide level l (NaN when it did not decide; a shorter
    ``est_out`` keeps only the estimates that fit); ``bidder_out[l-1]`` the seat that made bid l
    (-1 when nobody did). ``kinds`` and the rows of ``params`` are by seat; with fewer rows than
    seats they repeat (one row: every seat bids alike, as the pimc bot's samples assume)."""
    for i in range(est_out.shape[0]):
        est_out[i] = np.nan
    for i in range(bidder_out.shape[0]):
        bidder_out[i] = -1
    level = 0
    for bid in range(1, max_bid + 1):
        if level != bid - 1:
            break
        first = (declarer + 1) % 4 if bid % 2 == 1 else declarer
        for j in range(2):
            seat = (first + 2 * j) % 4
            partner_bids = 0
            for b in range(bid - 1):
                if bidder_out[b] == (seat + 2) % 4:
                    partner_bids += 1
            row = params[seat % params.shape[0]]
            est = bid_estimate(hands[seat], trump, bid, j, partner_bids, T, row)
            if 2 * (bid - 1) + j < est_out.shape[0]:
                est_out[2 * (bid - 1) + j] = est
            if takes_bid(kinds[seat % kinds.shape[0]], bid, est, row):
                level = bid
                bidder_out[bid - 1] = seat
                break
    return level
