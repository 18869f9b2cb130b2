"""The games: one folder per game, each registering its rulesets, and the registry API.

Beside the folders, `games/` holds what every game shares above the Numba engine
(`simcards.engine`): the `Game` protocol (protocol.py), the registry (registry.py), rule options
(options.py), dataset columns (columns.py), bot specs (botspec.py), seating bots at a game
(seating.py), the interactive deal (play.py), user bots (userbots/) and OpenSpiel's random-play
loop for the bench (openspiel_loop.py).

Adding a ruleset is adding its folder and one line below. The folder contract:

Every game folder has
- ``__init__.py``: imports game.py and registers its `Game` classes (`register`); re-exports
  the public functions users call (``solve``, ``settle``, ``game_value``, ...);
- ``rules.py``: the rule options (``OPTIONS``, each with a default and a one-line comment), a
  header of design decisions, ``RULES_VERSION`` and the flat rule tables (``build_tables``, a
  `simcards.engine.tables.Layout` whose offsets are the ``T_*`` constants);
- ``_kernels.py``: the rules as Numba kernels on the engine's state: ``STATE_SIZE`` and the
  game's own ``S_*`` slots, ``new_state(st, hands, ...)``, ``legal_mask(st, T)``,
  ``apply_card(st, card, T)`` (True when the card ended the deal), scoring;
- ``bots.py``: ``KINDS`` (``random`` 0, ``heuristic`` 1, ``pimc`` 2 where there is one),
  ``PARAMS`` (name, default, meaning), ``N_PARAMS``, ``choose_card(kind, legal, st, T, params,
  rng)`` (plus ``work``, the search bot's scratch, where there is one) and
  ``heuristic_card(seat, legal, st, T, params)``;
- ``_play.py``: the batch loop (deal, contract, play, score, write rows) with a trace switch
  that replay uses, and ``deal_cards(seed, index, hands, deck, rng)``;
- ``game.py``: the `Game` subclasses (`simcards.games.protocol`) and the interactive
  `TrickState` of one deal;
- ``columns.py``: ``DEAL_COLUMNS`` (and match columns), the one place the dataset's columns
  are named and documented;
- ``stats.py``: polars queries, one per statistic, ``headlines(...)`` and ``all_tables(...)``;
  never imports kernels;
- ``report.py``: ``build(game, run, out_dir)``, the game's own report sections (the summary is
  `simcards.report`'s, from ``Game.headline_rates``);
- ``userbot.py``: the game's `simcards.games.userbots.Support` (``Game.user_bots``).

A game folder may have
- ``heuristic.py``: the heuristic's parameter row and evaluators, apart from bots.py where the
  search bot needs them (bots.py imports the search bot, the search bot imports heuristic.py);
- ``scoring.py``: public, pure scoring functions a score sheet can be checked with;
- the solver set: ``solver.py`` (``solve(state, *, values=False)``, the reusable ``Solver``
  search, ``SOLVER``: the `simcards.games.protocol.Solver` capability set as ``Game.solver``),
  ``_solve_kernels.py`` (the double-dummy search, on `simcards.engine.transposition`),
  ``_solve_lines.py`` (perfect play along the bots' line, the perfect-play columns) and
  ``_pimc.py`` (the ``pimc`` search bot: ``PIMC_KIND``, ``pimc_card(seat, legal, st, T,
  params, rng, work)``, ``pimc_work_size(kinds)``; its samples from `simcards.engine.sampler`);
  a game built on another's solver has only ``solver.py`` (Kraken's);
- ``family.py``: what a game built on this one may use of its private modules (Klaverjassen's,
  for Kraken and for users' Numba bots);
- ``calibrate.py`` (fits the bots' evaluator weights), ``exact.py`` (exact odds of the cards
  dealt), ``openspiel_ref.py`` (a cross-check against OpenSpiel, which the tests run).

A folder imports the engine, the shared modules of `games/` and the layers below, never
another folder's private module (tests/test_layering.py); a game built on another imports its
public modules and its ``family.py``.
"""

from simcards.games.registry import game_class, load, register, rulesets, unregister

from simcards.games import klaverjas  # noqa: E402, F401  klaverjas-rotterdam, klaverjas-amsterdam
from simcards.games import kraken  # noqa: E402, F401  kraken-contra, kraken-scorebord
from simcards.games import hearts  # noqa: E402, F401  hartenjagen, hearts
from simcards.games import skat  # noqa: E402, F401  skat
from simcards.games import doppelkopf  # noqa: E402, F401  doppelkopf

__all__ = ["game_class", "load", "register", "rulesets", "unregister"]
