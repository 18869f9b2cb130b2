"""The games: one folder per game, each registering its rulesets, and the registry API.

Beside the folders, `games/` holds what every game shares above the Numba engine
(`simcards.engine`): the `Game` protocol (protocol.py), the registry (registry.py), rule options
(options.py), dataset columns (columns.py), bot specs (botspec.py), seating bots at a game
(seating.py), the interactive deal (play.py), user bots (userbots/) and OpenSpiel's random-play
loop for the bench (openspiel_loop.py).

Adding a ruleset is adding its folder and one line below. The folder contract:

Every game folder has
- ``__init__.py``: imports game.py, which registers the folder's `Game` classes (`register`);
  re-exports the public functions users call (``solve``, ``settle``, ``game_value``, ...);
- ``rules.py``: the rule options (`simcards.games.options.Option`, each with a default and a
  one-line meaning; ``OPTIONS``, or one tuple per ruleset where a folder has two), a header of
  the design decisions, ``RULES_VERSION`` and ``build_tables`` (the flat rule table, a
  `simcards.engine.tables.Layout` whose offsets are the ``T_*`` constants);
- ``_kernels.py``: the rules as Numba kernels on the engine's state: ``STATE_SIZE`` and the
  game's own ``S_*`` slots, ``new_state(st, hands, dealer, ...)``, ``legal_mask(st, T)``,
  ``apply_card(st, card, T)`` (True when the card ended the deal) and the scoring;
- ``bots.py``: the bots (`simcards.games.botspec.BotFamily`: ``KINDS``, ``random`` 0,
  ``heuristic`` 1, ``pimc`` 2 where there is one; the parameter row, name, default, meaning),
  ``choose_card(kind, legal, st, T, params, rng)`` (plus ``work``, the search bot's scratch,
  where there is one), ``heuristic_card(seat, legal, st, T, params)`` and the game's other
  decisions (trump, bids, passes, announcements);
- ``_play.py``: the batch loop (deal, contract, play, score, write rows) with a trace switch
  that replay uses, and ``deal_cards(seed, index, hands, deck, rng)``;
- ``game.py``: the `Game` subclasses (`simcards.games.protocol`: seats, parties, units,
  objectives for tune, placings for tournament, bench entries, ``solver`` and ``user_bots``)
  and the interactive `simcards.games.play.TrickState` of one deal;
- ``columns.py``: the dataset's columns (`simcards.games.columns.Column` specs, ``DEAL_COLUMNS``
  or one tuple per ruleset, and match columns where there are matches), the one place they are
  named and documented;
- ``stats.py``: polars queries, one per statistic, and ``headlines(...)``; never imports
  kernels;
- ``report.py``: ``build(game, run, out_dir)``, the game's own report sections (the summary is
  `simcards.report`'s, from ``Game.headline_rates``);
- ``userbot.py``: the game's `simcards.games.userbots.Support` (``Game.user_bots``): its
  decisions, its loop rebuilt around a user's bot, its views.

A game folder may have
- ``heuristic.py``: the heuristic's parameter row and evaluators, apart from bots.py where the
  search bot needs them (bots.py imports the search bot, the search bot imports heuristic.py);
- ``scoring.py``: public, pure scoring functions a score sheet can be checked with, calling the
  kernels the loop uses;
- the solver set: ``solver.py`` (``solve(state, *, values=False)``, the reusable ``Solver``
  search, ``SOLVER``: the `simcards.games.protocol.Solver` capability set as ``Game.solver``),
  ``_solve_kernels.py`` (the double-dummy search, on `simcards.engine.transposition`),
  ``_solve_lines.py`` (perfect play along the bots' line, the perfect-play columns) and
  ``_pimc.py`` (the ``pimc`` search bot: ``pimc_card(seat, legal, st, T, params, rng, work)``,
  ``pimc_work_size(kinds)``; its samples from `simcards.engine.sampler`);
- ``family.py``: what a game built on this one may use of its private modules (Klaverjassen's,
  for Kraken and for users' Numba bots);
- ``calibrate.py`` (fits the bots' evaluator weights), ``exact.py`` (exact odds of the cards
  dealt), ``openspiel_ref.py`` (a cross-check against OpenSpiel, which the tests run).

A game built on another (Kraken on Klaverjassen) takes the state, kernels, deal and bots of the
other's ``family.py`` and writes only what differs: Kraken's ``_kernels.py`` holds its roem and
settlement, its ``choose_card`` sits in ``_play.py`` beside the loop, and its solver set is
``solver.py`` alone.

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
