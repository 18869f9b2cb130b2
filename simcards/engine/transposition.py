"""The transposition table of the double-dummy searches (Klaverjassen's and Skat's).

One flat int64 array of ``1 << bits`` entries of `TT_WIDTH` words (``TT_WIDTH << bits`` in
all), in buckets of two: the first entry of a bucket is kept for the position with more cards
(the big subtrees near the root are not pushed out by the many small ones), the second is
always replaced. An entry is:

- words 0-2: the position's key (three words, whatever the search packs into them; Skat puts
  its generation stamp in the third);
- word 3: a lower bound on the position's value, word 4 an upper bound (``-INF`` / ``INF``:
  none yet);
- word 5: the best lead found (6 bits) and, above it, the cards the entry was stored for
  (``remaining << 6``), so a search can widen the bounds of an entry of the same key but other
  cards, or start afresh.

A search probes with `bucket` and `find`, reads the words above, and stores with its own rule
for which entry of the bucket to take (that rule differs: Klaverjassen ages entries by key
bits, Skat by the stamp word), then `claim` and `record`. Every helper is inlined (``hot``):
they run at every trick boundary of a search.
"""

from __future__ import annotations

import numpy as np

from simcards._jit import hot

TT_WIDTH = 6  # words of an entry: three key words, lower bound, upper bound, best lead | cards << 6
INF = np.int64(1) << 40  # the open bound


@hot
def bucket(key, key2, key3, bits):
    """The table bucket of a key: two entries (a depth-preferred one, then an always-replace
    one), so the big subtrees near the root are not pushed out by the many small ones."""
    mixed = ((key ^ (key2 * np.int64(0x27D4EB2F165667C5)) ^ (key3 * np.int64(0x165667B19E3779F9)))
             * np.int64(-7046029254386353131))
    return (mixed >> (65 - bits)) & ((np.int64(1) << (bits - 1)) - 1)


@hot
def find(tt, slot, key, key2, key3):
    """Offset of the entry of (``key``, ``key2``, ``key3``) in bucket ``slot``, or -1."""
    e = 2 * slot * TT_WIDTH
    if tt[e] == key and tt[e + 1] == key2 and tt[e + 2] == key3:
        return e
    e += TT_WIDTH
    if tt[e] == key and tt[e + 1] == key2 and tt[e + 2] == key3:
        return e
    return -1


@hot
def claim(tt, e, key, key2, key3):
    """Make the entry at offset ``e`` the (bound-less) entry of this key."""
    tt[e] = key
    tt[e + 1] = key2
    tt[e + 2] = key3
    tt[e + 3] = -INF
    tt[e + 4] = INF


@hot
def record(tt, e, value, alpha, beta, best_card, remaining):
    """Tighten the bounds of the entry at ``e`` with ``value``, searched in the window
    (``alpha``, ``beta``) (fail-soft: at most ``alpha`` is an upper bound, at least ``beta`` a
    lower one, in between exact), and keep its best lead and the cards ``remaining``."""
    if value <= alpha:
        tt[e + 4] = min(tt[e + 4], value)
    elif value >= beta:
        tt[e + 3] = max(tt[e + 3], value)
    else:
        tt[e + 3] = value
        tt[e + 4] = value
    tt[e + 5] = (best_card & 63) | (remaining << 6)  # best lead and the cards
