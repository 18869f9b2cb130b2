"""Rule tables as one flat int64 array per ruleset.

Kernels receive a ruleset's tables as a single int64 array ``T`` and read named blocks at fixed
offsets. One array rather than a tuple of arrays keeps the hot loops free of reference counting
(Numba increments the count of every array in a tuple each time a member is taken out, which
costs more than a whole trick). A `Layout` names the blocks and their shapes once; each game
turns its offsets into module constants the kernels use.

Every layout starts with the header the shared trick kernels read: card count, and the offsets
of the ``eff_suit``, ``power`` and ``suit_masks`` blocks, all indexed by contract first.
"""

from __future__ import annotations

import math

import numpy as np

H_N_CARDS, H_EFF_SUIT, H_POWER, H_SUIT_MASKS = range(4)
HEADER_SIZE = 4


class Layout:
    """The named blocks of one ruleset's flat table: ``Layout(n_cards, name=shape, ...)``, the
    shared ``eff_suit``, ``power`` and ``suit_masks`` blocks among them; `pack` builds the
    array, `offset` gives a block's start for the kernels' constants."""

    def __init__(self, n_cards: int, **blocks: tuple[int, ...]):
        for required in ("eff_suit", "power", "suit_masks"):
            if required not in blocks:
                raise ValueError(f"a table layout needs a {required!r} block")
        self.n_cards = n_cards
        self.shapes = dict(blocks)
        self.offsets: dict[str, int] = {}
        at = HEADER_SIZE
        for name, shape in blocks.items():
            self.offsets[name] = at
            at += math.prod(shape)
        self.size = at

    def offset(self, name: str) -> int:
        """Where block ``name`` starts in the flat table."""
        return self.offsets[name]

    def pack(self, **values) -> np.ndarray:
        """The flat table from one array (or scalar) per block; every block must be given."""
        missing = set(self.shapes) - set(values)
        if missing:
            raise ValueError(f"table blocks missing: {', '.join(sorted(missing))}")
        flat = np.zeros(self.size, dtype=np.int64)
        flat[H_N_CARDS] = self.n_cards
        flat[H_EFF_SUIT] = self.offsets["eff_suit"]
        flat[H_POWER] = self.offsets["power"]
        flat[H_SUIT_MASKS] = self.offsets["suit_masks"]
        for name, shape in self.shapes.items():
            block = np.asarray(values[name], dtype=np.int64)
            if block.shape != shape:
                raise ValueError(f"table block {name!r} has shape {block.shape}, expected {shape}")
            start = self.offsets[name]
            flat[start:start + block.size] = block.ravel()
        return flat

    def view(self, flat: np.ndarray, name: str) -> np.ndarray:
        """A block of a packed table, reshaped (for tests and Python-side code)."""
        start = self.offsets[name]
        return flat[start:start + math.prod(self.shapes[name])].reshape(self.shapes[name])
