"""OpenSpiel's Python loop on uniform random play: the side-by-side figure of scripts/bench.py
(`Game.openspiel_rate`). Each game's ``openspiel_ref.py`` loads its OpenSpiel game and calls
`random_play_rate`; pyspiel is a test dependency, imported by the caller."""

from __future__ import annotations

import random
import time


def random_play_rate(game, n_games: int | float = 2000, seed: int = 0, *,
                     seconds: float | None = None) -> float:
    """Games per second of the OpenSpiel ``game`` with every chance outcome and every legal
    action drawn uniformly, on one core. ``n_games`` (an int) plays that many games; a time
    budget instead, as ``seconds=`` or as a float ``n_games``, plays games until it is spent."""
    if isinstance(n_games, float) and seconds is None:
        seconds = n_games
    rng = random.Random(seed)
    played = 0
    t0 = time.perf_counter()
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
        played += 1
        elapsed = time.perf_counter() - t0
        if (seconds is not None and elapsed >= seconds) or (seconds is None and played >= n_games):
            return played / elapsed
