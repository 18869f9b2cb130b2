"""The engine: the Numba building blocks every game folder plays on, under public names.

A game is one folder (``simcards/games/<game>/``); what its kernels share lives here and never
names a game:

- `simcards.engine.state`: the deal state, one int64 array whose first ``S_GAME`` slots mean
  the same in every game (seat to move, leader, cards in the trick, completed tricks, winning
  position, last winner, dealer, cards played, the contract record ``S_CONTRACT``,
  ``S_DECLARER``, ``S_PARTY``, ``S_MULTIPLIER``, and per seat ``S_HAND``, ``S_TRICK``,
  ``S_VOIDS``), and the per-card bookkeeping on it (`start_play`, `lay_card`, `place_card`,
  `pass_turn`, `close_trick`, `next_seat`, `trick_cards_mask`);
- `simcards.engine.trick`: following suit and the trick winner from a ruleset's strength
  tables (`eff_suit`, `power`, `suit_mask`, `follow_mask`, `beats`, `trick_winner`,
  `beating_mask`; `suit_tables` builds a plain trump-suit contract's rows);
- `simcards.engine.tables`: a ruleset's rule tables as one flat int64 array (`Layout`);
- `simcards.engine.sampler`: the pimc bots' uniform sampler of the cards a seat cannot see
  (`sampler_size`, `prepare_counts`, `deal_receivers`, `seat_stream`, `work_size`);
- `simcards.engine.transposition`: the transposition table of the double-dummy searches
  (`TT_WIDTH`, `bucket`, `find`, `claim`, `record`);
- `simcards.engine.rows`: growing row buffers for batch loops whose unit holds a varying
  number of deals (`ensure_columns`).

This package re-exports what a user's Numba bot reads (``choose_card(kind, legal, st, T,
params_row, rng)``, see `simcards.games.userbots`): the shared state slots and the trick
helpers. A game's own slots and kernels (trump, points, ...) come from the game folder's public
modules; for Klaverjassen and Kraken, `simcards.games.klaverjas.family`.
"""

from simcards.engine.state import (
    MAX_SEATS,
    S_CONTRACT,
    S_DEALER,
    S_DECLARER,
    S_GAME,
    S_HAND,
    S_LAST_WINNER,
    S_LEADER,
    S_MULTIPLIER,
    S_N_PLAYED,
    S_PARTY,
    S_PLAYED,
    S_TO_MOVE,
    S_TRICK,
    S_TRICK_NO,
    S_VOIDS,
    S_WIN_POS,
)
from simcards.engine.trick import (
    NO_TRUMP,
    TRUMP,
    beating_mask,
    beats,
    eff_suit,
    follow_mask,
    power,
    suit_mask,
    trick_winner,
)

__all__ = [
    "MAX_SEATS", "S_CONTRACT", "S_DEALER", "S_DECLARER", "S_GAME", "S_HAND", "S_LAST_WINNER",
    "S_LEADER", "S_MULTIPLIER", "S_N_PLAYED", "S_PARTY", "S_PLAYED", "S_TO_MOVE", "S_TRICK",
    "S_TRICK_NO", "S_VOIDS", "S_WIN_POS",
    "NO_TRUMP", "TRUMP", "beating_mask", "beats", "eff_suit", "follow_mask", "power",
    "suit_mask", "trick_winner",
]
