"""The Klaverjassen heuristic's parameter row and hand evaluator (also Kraken's).

Every bot kind of the game (bots.py) carries one float64 row of these parameters per seat; the
contract decisions (bots.py) and the pimc bot's contract filter (_pimc.py: would heuristic
bots have chosen this trump and declarer from a sampled deal?) both judge a hand with
`evaluate_hand`. A module of its own so that bots.py, which dispatches on the kind, can import
the pimc bot, and the pimc bot this, without a cycle.
"""

from __future__ import annotations

import numpy as np

from simcards._jit import kernel
from simcards.cards import popcount
from simcards.games.klaverjas._kernels import hand_melds
from simcards.games.klaverjas.rules import R9, R10, RA, RJ

# The evaluator's weights for plain Klaverjassen, fitted by least squares so that the estimate
# predicts the declaring team's card points (scripts/calibrate_klaverjas.py: 400,000 deals of
# heuristic play with a random trump, seed 3; R^2 0.26, residual sd 31 points, since the
# partner's hand is unknown). Melds in the hand weigh nothing: under table roem they score for
# whoever wins the trick they fall in, not for their holder. Kraken, where hand melds are
# awarded, has weights of its own (kraken/bots.py).
KLAVERJAS_EVALUATOR = {"w_base": 46.0, "w_trump_jack": 19.5, "w_trump_nine": 12.0,
                       "w_trump_ace": 6.5, "w_trump_card": 9.5, "w_side_ace": 8.5,
                       "w_guarded_ten": 3.0, "w_void": 3.5, "w_roem": 0.0}


def bot_params(evaluator: dict[str, float], declare_threshold: float) -> tuple:
    """(name, default, meaning) of every parameter of the bot's row, in kernel order, with the
    evaluator weights and the free-selection threshold of one ruleset."""
    w = evaluator
    return (
        ("w_base", w["w_base"], "evaluator: the estimate of a hand with none of the features below"),
        ("w_trump_jack", w["w_trump_jack"], "evaluator: holding the jack of trump"),
        ("w_trump_nine", w["w_trump_nine"], "evaluator: holding the nine of trump"),
        ("w_trump_ace", w["w_trump_ace"], "evaluator: holding the ace of trump"),
        ("w_trump_card", w["w_trump_card"], "evaluator: each trump held (jack, nine and ace included)"),
        ("w_side_ace", w["w_side_ace"], "evaluator: each ace of a plain suit"),
        ("w_guarded_ten", w["w_guarded_ten"], "evaluator: each plain ten held with its ace or two more cards"),
        ("w_void", w["w_void"], "evaluator: each plain suit the hand is void in"),
        ("w_roem", w["w_roem"], "evaluator: per point of the hand's own melds, stuk included (0 where "
                                "melds score on the table, not in the hand)"),
        ("declare_threshold", declare_threshold, "free trump selection: take the game when the best "
                                                 "suit's estimate reaches this"),
        ("pull_trumps_min", 3.0, "declaring side leads trumps while holding at least this many "
                                 "(always when holding the highest trump left)"),
        ("contest_points", 10.0, "try to win a trick not yet safe when it holds at least this many "
                                 "card points"),
        ("samples", 20.0, "pimc: deals sampled and solved double-dummy at each card decision "
                        "(a whole number, 1 to 1000)"),
        ("contract_tries", 16.0, "pimc: draws per sample until one agrees with the trump choice "
                                 "(heuristic bots' evaluator and threshold) and in Kraken the "
                                 "bids; after that many the last draw is used, 0 never filters (a whole "
                                 "number, 0 to 1000)"),
    )


# 94 on this scale takes the game with the same share of hands (72%) as 60 did on the old one,
# and it is an equilibrium of free trump selection in both rulesets: a best response to copies of
# itself (configs/tune-klaverjas-free-rotterdam.toml and -amsterdam.toml, 200,000 deals a
# candidate) is 94 again, and the best other value, 96, loses 0.16 (Rotterdam, 95% interval
# 0.04 to 0.28) and 0.31 (Amsterdam, 0.18 to 0.44) points a deal against it
PARAMS = bot_params(KLAVERJAS_EVALUATOR, declare_threshold=94.0)
# the parameters that count something take whole numbers in a range (`BotFamily.counts`)
COUNTS = (("samples", 1, 1000), ("contract_tries", 0, 1000))
N_PARAMS = len(PARAMS)
(P_W_BASE, P_W_JACK, P_W_NINE, P_W_TRUMP_ACE, P_W_TRUMP, P_W_SIDE_ACE, P_W_TEN, P_W_VOID,
 P_W_ROEM, P_DECLARE, P_PULL_TRUMPS, P_CONTEST, P_SAMPLES, P_CONTRACT_TRIES) = range(N_PARAMS)


def default_params() -> np.ndarray:
    """The parameter row of a bot with every default."""
    return np.array([p[1] for p in PARAMS], dtype=np.float64)


@kernel
def evaluate_hand(hand, trump, T, params):
    """Estimated strength of ``hand`` with ``trump`` as trump: a base plus a weighted sum of
    documented features (trump jack, nine, ace, trump length, plain aces, guarded tens, voids,
    own melds). Klaverjassen's default weights make it predict the declaring team's card points
    (KLAVERJAS_EVALUATOR)."""
    trump_byte = (hand >> (8 * trump)) & 0xFF
    est = params[P_W_BASE] + params[P_W_TRUMP] * popcount(trump_byte)
    if trump_byte >> RJ & 1:
        est += params[P_W_JACK]
    if trump_byte >> R9 & 1:
        est += params[P_W_NINE]
    if trump_byte >> RA & 1:
        est += params[P_W_TRUMP_ACE]
    for suit in range(4):
        if suit == trump:
            continue
        byte = (hand >> (8 * suit)) & 0xFF
        if byte == 0:
            est += params[P_W_VOID]
            continue
        has_ace = byte >> RA & 1
        if has_ace:
            est += params[P_W_SIDE_ACE]
        if byte >> R10 & 1 and (has_ace or popcount(byte) >= 3):
            est += params[P_W_TEN]
    if params[P_W_ROEM] != 0:
        est += params[P_W_ROEM] * hand_melds(hand, trump, T)
    return est


@kernel
def best_trump(hand, T, params):
    """(suit, estimate) of the suit the evaluator likes best for ``hand`` (lowest suit on ties)."""
    best_suit, best_est = 0, -1e18
    for suit in range(4):
        est = evaluate_hand(hand, suit, T, params)
        if est > best_est:
            best_suit, best_est = suit, est
    return best_suit, best_est
