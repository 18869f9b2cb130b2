"""What a game built on Klaverjassen may use of it: the written interface of the family.

Kraken is Klaverjassen with bids and hand roem: it plays on Klaverjassen's deal state with
Klaverjassen's rules kernels, bots, pimc bot and double-dummy solver, and adds its own bidding,
settlement and match loop in its own folder. Everything it takes from this folder's private
modules (``_kernels``, ``_play``, ``_pimc``, ``_solve_kernels``) comes through this module, so
the dependency is a list one can read, and a change to any name below is a change to the
family's interface. A user's Numba bot for Klaverjassen or Kraken reads its game's slots and
card helpers from here too (examples/mybots/fast.py).

A family member may also use the folder's public modules as any game could: `rules` (options,
tables and their offsets), `columns`, `bots` and `heuristic` (the bot kinds, the parameter row
and hand evaluator), `game` (`KlaverjasState`), `userbot` (`KlaverjasSupport`), `solver` (the
double-dummy solver and its capability `KlaverjasSolver`), `stats` and `report`.

The state (one int64 array: the shared header of `simcards.engine.state`, then these slots):

- ``S_TRUMP``: the trump suit (the contract slot); ``S_POINTS``, ``S_ROEM``, ``S_TRICKS``: two
  slots each, per team (card points with the last-trick bonus, table roem with the pit bonus at
  the end, tricks); ``S_SHOWS``: 1 while the state keeps ``S_PLAYED_BY`` and ``S_NOT_HELD``
  (what the pimc bot's samples respect); ``S_BIDDING``: the bidders of a Kraken auction, packed
  (the pimc bot's contract filter reads it); ``STATE_SIZE`` slots in all; ``N_TRICKS`` = 8.

The kernels (Numba, ``T`` the ruleset's table array):

- `new_state`, `legal_mask`, `apply_card`: start a deal's play, the legal cards of the seat to
  move, play a card (True when it ended the deal);
- `card_points`, `cards_beating`: a card's points, the cards that beat it; `hand_melds`: the
  roem of a hand's own melds; `is_nat`: the nat rule on two totals; `rule`: a rule value of the
  table;
- `deal_cards`: deal ``index`` of a run with ``seed`` (the batch loop's deal);
- the pimc bot's pieces for a loop of its own: `pimc_work_size`, `pimc_scratch` (the scratch
  a batch loop passes down, None without a pimc seat) and the work array's slots
  (``W_CTX``, ``W_TT``, ``W_DEALT``, ``W_GAME``, ``GAME_SCRATCH``), `pimc_begin`,
  `deal_sample`, `contract_agrees`, `keep_sample`, `pimc_solve`, `pimc_best` (a member adds
  what its samples must agree with, as Kraken adds its bids, and its end bonus);
- the solver's end bonus: `set_pit_bonus` fills the pit bonus of a solve's context, and
  ``X_END`` is where a member adds its own (Kraken's hand roem) by which teams took a trick.
"""

from simcards.engine.state import S_DECLARER, S_TO_MOVE
from simcards.games.klaverjas._kernels import (
    N_TRICKS,
    S_BIDDING,
    S_POINTS,
    S_ROEM,
    S_SHOWS,
    S_TRICKS,
    S_TRUMP,
    STATE_SIZE,
    apply_card,
    card_points,
    cards_beating,
    hand_melds,
    is_nat,
    legal_mask,
    new_state,
    rule,
)
from simcards.games.klaverjas._pimc import (
    GAME_SCRATCH,
    W_CTX,
    W_DEALT,
    W_GAME,
    W_TT,
    contract_agrees,
    deal_sample,
    keep_sample,
    pimc_begin,
    pimc_best,
    pimc_scratch,
    pimc_solve,
    pimc_work_size,
)
from simcards.games.klaverjas._play import deal_cards
from simcards.games.klaverjas._solve_kernels import X_END, set_pit_bonus

__all__ = [
    "S_DECLARER", "S_TO_MOVE", "N_TRICKS", "S_BIDDING", "S_POINTS", "S_ROEM",
    "S_SHOWS", "S_TRICKS", "S_TRUMP", "STATE_SIZE",
    "apply_card", "card_points", "cards_beating", "hand_melds", "is_nat", "legal_mask",
    "new_state", "rule", "deal_cards",
    "GAME_SCRATCH", "W_CTX", "W_DEALT", "W_GAME", "W_TT", "contract_agrees", "deal_sample",
    "keep_sample", "pimc_begin", "pimc_best", "pimc_solve", "pimc_work_size",
    "pimc_scratch",
    "X_END", "set_pit_bonus",
]
