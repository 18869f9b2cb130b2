"""Watching Numba compile in this process: how many, how long, and a word when the first starts.

Numba fires its compile event on a real compile, never on a load from the disk cache, so a
block whose kernels are all cached sees none. The runner says "compiling the <ruleset> kernels
(first run only)" from the first compile on and keeps the seconds out of its speeds; bench
times a cold start with it. (A module without kernels: an edit here recompiles nothing.)
"""

import time
from contextlib import contextmanager

from numba.core import event


class CompileWatch(event.Listener):
    """Counts and times the compiles of a block (`watching_compiles`): ``count`` top-level
    compiles, ``seconds`` of them; ``on_first`` is called when the first one starts."""

    def __init__(self, on_first=None):
        self.on_first = on_first
        self.count, self.seconds, self._depth, self._started = 0, 0.0, 0, 0.0

    def on_start(self, event_):
        if self._depth == 0:
            if self.count == 0 and self.on_first is not None:
                self.on_first()
            self.count += 1
            self._started = time.perf_counter()
        self._depth += 1

    def on_end(self, event_):
        self._depth -= 1
        if self._depth == 0:
            self.seconds += time.perf_counter() - self._started


@contextmanager
def watching_compiles(on_first=None):
    """A `CompileWatch` of the compiles this process makes inside the block (a load from the
    cache is no compile): ``on_first()`` runs when the first one starts, so a caller can say
    that it compiles before the seconds go."""
    watch = CompileWatch(on_first)
    with event.install_listener("numba:compile", watch):
        yield watch
