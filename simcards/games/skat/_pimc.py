"""The `pimc` bot's card play in Skat: perfect-information Monte Carlo on the double-dummy
search (_solve_kernels.py), each card valued by the score the game would settle at.

At each decision with more than one legal card the bot deals the cards it cannot see
``samples`` times, consistently with what it knows, finds for every sample and every legal card
the declarer's settled score under perfect play after that card, and plays the card of the best
mean score for its own side (the declarer's score, negated for a defender).

The samples (`prepare_sampler`, `draw_sample`; the counts and draws are the shared ones of
simcards/engine/sampler.py, Klaverjassen's too): the receivers of the unseen cards are the two
other seats and the two-card Skat. A sample respects the seat's own hand, every card played,
the number of cards each seat holds, and the voids each seat has shown (in Skat a seat only
has to follow suit, so a void is all that play shows). The declarer knows his discard and
deals only to the defenders, unless he plays Hand: then nobody knows the Skat, and it is dealt
with the rest. In an Ouvert game the defenders see the declarer's hand and deal only to the
other defender and the Skat. Every deal that respects all of it is equally likely. The bidding
and the declaration are not used (a sample may give the declarer a hand that heuristic bots
would not have bid this way): the bot searches the card play only. A sample's declarer holds
his played cards, his sampled hand and the sampled Skat, so its matadors (and with them the
game value and an overbid) are the sample's own.

The value (`set_classes`): the score depends on the declarer's card points and tricks only
through thresholds, so the outcomes fall in six ordered classes: no trick; 30 points or fewer;
31-60; 61-89; 90 or more; every trick. Passing from one class to the next is one null-window
test of the search ("can the declarer force at least 31 points", "... 1 trick", "... every
trick"). `settle_into` scores each class (list value, doubled by Kontra and Re, with the
Seeger-Fabian bonus under that scoring) and only the tests between classes that score
differently are asked (with Schneider announced, 30 or fewer scores like 31). Null has two
classes, the declarer taking a trick or not: the trick test of `solver.py`'s Null. For each
sample and each legal card the first test is the one that decides the win; after a pass the
tests go up (Schneider, then Schwarz), after a failure down (being Schneidered, then taking no
trick), each only where the score changes. (Walking the position with all cards first and
each card from there, one test per card mostly, was tried: no faster, 1.47-1.52 against
1.51-1.58 deals a second on 60 deals with two pimc seats.) One solve a sample: the
transposition table is shared by every card and test of the sample.

Ties: the cards of the best mean are handed to the heuristic bot (`heuristic.heuristic_card`),
which picks among them. Many decisions end there: where every card settles alike in every
sample (a game already won or lost) the heuristic's play is what remains.

Its random draws come from a stream of the seat's own (`simcards.engine.sampler.seat_stream`), derived from
the deal's play stream, the seat and the cards played so far: a run stays reproducible, and
the other bots at the table draw exactly what they would without it.
"""

from __future__ import annotations

import numpy as np

from simcards._jit import kernel
from simcards.cards import lowest_bit_index, popcount
from simcards.engine.sampler import (
    SM_CARDS,
    SM_WHO,
    deal_receivers,
    prepare_counts,
    sampler_size,
    seat_stream,
    search_scratch,
    work_size,
)
from simcards.engine.state import S_HAND, S_PLAYED, S_TRICK_NO
from simcards.games.skat import heuristic
from simcards.games.skat._kernels import (
    N_SETTLE,
    S_BID,
    S_CARDS12,
    S_CONTRACT,
    S_DECLARER,
    S_HAND_GAME,
    S_KONTRA,
    S_OUVERT,
    S_PLAYED_BY,
    S_POINTS,
    S_SCHNEIDER_ANN,
    S_SCHWARZ_ANN,
    S_SKAT,
    S_TRICKS,
    STATE_SIZE,
    X_LIST,
    X_WON,
    SEEGER_LOSS,
    SEEGER_WIN,
    mask_points,
    settle_into,
)
from simcards.games.skat._solve_kernels import (
    CTX_SIZE,
    F_WIDTH,
    MAX_DEPTH,
    MODE_POINTS,
    MODE_TRICKS,
    TT_WIDTH,
    X_TT_BITS,
    at_least,
    start_solve,
)
from simcards.games.skat.rules import N_TRICKS, NULL, R_SCORING, SCORING_SEEGER, T_RULES

PIMC_KIND = 2  # the kind id of bots.py (PIMC)
PIMC_TT_BITS = 16
FULL32 = np.int64(0xFFFFFFFF)

# ---- the sampler: receiver 0 the seat after the bot's, 1 the one after that, 2 the Skat
ROOM = 11  # 0..10 cards still to deal to a receiver
SAMPLER_SIZE = sampler_size(ROOM)

# ---- the outcome classes of a suit or Grand game, lowest first: class k > 0 is reached when
# the declarer's total (the Skat's points included) in mode CLASS_MODE[k] reaches CLASS_NEED[k];
# CLASS_POINTS and CLASS_TRICKS are an outcome of the class, for `settle_into`
N_CLASSES = 6
CLASS_MODE = np.array([0, MODE_TRICKS, MODE_POINTS, MODE_POINTS, MODE_POINTS, MODE_TRICKS],
                      dtype=np.int64)
CLASS_NEED = np.array([0, 1, 31, 61, 90, N_TRICKS], dtype=np.int64)
CLASS_POINTS = np.array([0, 30, 60, 61, 90, 120], dtype=np.int64)
CLASS_TRICKS = np.array([0, 1, 1, 5, 9, N_TRICKS], dtype=np.int64)

# ---- the bot's work array (`pimc_work_size`), allocated once per simulation chunk: the
# solver's context, table and frames, the sample state, the sampler, the per-card totals, the
# settlement scratch, and the sample's class tests: for each test j between classes that score
# differently its mode and the future gain it needs, and the score after passing j of them
W_CTX = 0
W_TT = W_CTX + CTX_SIZE
W_CTX_TT_BITS = W_CTX + int(X_TT_BITS)  # (the context's slots are unsigned; the work array's are not)
W_FRAMES = W_TT + (TT_WIDTH << PIMC_TT_BITS)
W_SAMPLE = W_FRAMES + F_WIDTH * MAX_DEPTH
W_SAMPLER = W_SAMPLE + STATE_SIZE
W_TOTALS = W_SAMPLER + SAMPLER_SIZE
W_RES = W_TOTALS + 32
W_MODE = W_RES + N_SETTLE
W_NEED = W_MODE + N_CLASSES
W_SCORE = W_NEED + N_CLASSES
WORK_SIZE = W_SCORE + N_CLASSES


@kernel
def pimc_work_size(kinds):
    """Length of the work array a simulation with these bot kinds needs (1 without pimc)."""
    return work_size(kinds, PIMC_KIND, WORK_SIZE)


def pimc_scratch(kinds):
    """The pimc bot's scratch for a batch loop with bot ``kinds``, None when no seat is pimc
    (the loop then compiles without pimc and the solver: `_sampler.search_scratch`)."""
    return search_scratch(kinds, PIMC_KIND, WORK_SIZE)


# ---------------------------------------------------------------- the samples


@kernel
def _hidden(st, seat):
    """(receiver 0 hidden, receiver 1 hidden, the Skat hidden) for ``seat``: a hand is open
    to the defenders in an Ouvert game; the declarer knows his discard unless he plays Hand."""
    declarer = st[S_DECLARER]
    r0 = seat + 1 if seat < 2 else 0
    r1 = r0 + 1 if r0 < 2 else 0
    open_declarer = st[S_OUVERT] != 0 and seat != declarer
    skat_hidden = seat != declarer or st[S_HAND_GAME] != 0
    return not (open_declarer and r0 == declarer), not (open_declarer and r1 == declarer), skat_hidden


@kernel
def prepare_sampler(st, seat, T, sampler):
    """Set up `draw_sample` for ``seat`` in the position of ``st`` (module docstring: what a
    sample respects). Returns True when a deal respecting every void exists (always, for a
    real deal); otherwise the sampler keeps only the sizes."""
    r0 = seat + 1 if seat < 2 else 0
    r1 = r0 + 1 if r0 < 2 else 0
    hidden0, hidden1, skat_hidden = _hidden(st, seat)
    known = st[S_PLAYED] | st[S_HAND + seat]
    if not hidden0:
        known |= st[S_HAND + r0]
    if not hidden1:
        known |= st[S_HAND + r1]
    if not skat_hidden:
        known |= st[S_SKAT]
    may0 = ~heuristic.void_cards(st, r0, T, st[S_CONTRACT]) if hidden0 else np.int64(0)
    may1 = ~heuristic.void_cards(st, r1, T, st[S_CONTRACT]) if hidden1 else np.int64(0)
    m = 0
    rest = FULL32 & ~known
    while rest:
        card = lowest_bit_index(rest)
        rest &= rest - 1
        bit = np.int64(1) << card
        who = 0
        if may0 & bit:
            who |= 1
        if may1 & bit:
            who |= 2
        if skat_hidden:
            who |= 4
        sampler[SM_CARDS + m] = card
        sampler[SM_WHO + m] = who
        m += 1
    first = popcount(st[S_HAND + r0]) if hidden0 else 0
    second = popcount(st[S_HAND + r1]) if hidden1 else 0
    return prepare_counts(sampler, m, ROOM, first, second)


@kernel
def draw_sample(st, seat, sampler, rng, sample):
    """One deal of the unseen cards (`prepare_sampler`) into the state ``sample``: the position
    of ``st`` with the sampled hands and Skat, and the declarer's twelve cards (his played
    cards, his hand and the Skat) for the matadors."""
    r0 = seat + 1 if seat < 2 else 0
    r1 = r0 + 1 if r0 < 2 else 0
    hidden0, hidden1, skat_hidden = _hidden(st, seat)
    first = popcount(st[S_HAND + r0]) if hidden0 else 0
    second = popcount(st[S_HAND + r1]) if hidden1 else 0
    got0, got1, got2 = deal_receivers(sampler, ROOM, first, second, rng)
    for i in range(STATE_SIZE):
        sample[i] = st[i]
    if hidden0:
        sample[S_HAND + r0] = got0
    if hidden1:
        sample[S_HAND + r1] = got1
    if skat_hidden:
        sample[S_SKAT] = got2
    declarer = st[S_DECLARER]
    sample[S_CARDS12] = st[S_PLAYED_BY + declarer] | sample[S_HAND + declarer] | sample[S_SKAT]


# ---------------------------------------------------------------- the value of a sample


@kernel
def declarer_score(sample, T, points, tricks, res):
    """The declarer's settled score with ``points`` (the Skat's included) and ``tricks``: the
    list score, times 2 after Kontra and 4 after Re, with Seeger-Fabian's +50 / -50."""
    settle_into(sample[S_CARDS12], sample[S_CONTRACT], sample[S_BID], points, tricks,
                sample[S_HAND_GAME], sample[S_SCHNEIDER_ANN], sample[S_SCHWARZ_ANN],
                sample[S_OUVERT], T, res)
    score = res[X_LIST] << sample[S_KONTRA]
    if T[T_RULES + R_SCORING] == SCORING_SEEGER:
        score += SEEGER_WIN if res[X_WON] else -SEEGER_LOSS
    return score, res[X_WON] != 0


@kernel
def set_classes(sample, T, work):
    """The sample's class tests into the work array (W_MODE, W_NEED: the future gain each needs
    from this position; W_SCORE: the declarer's score after passing j of them). Returns (the
    number of tests, the test to ask first: the one that decides the win)."""
    res = work[W_RES:W_MODE]
    declarer = sample[S_DECLARER]
    if sample[S_CONTRACT] == NULL:  # one test: the defenders force a trick on him (Null stops there)
        work[W_SCORE], _ = declarer_score(sample, T, 0, 0, res)
        work[W_SCORE + 1], _ = declarer_score(sample, T, 0, 1, res)
        work[W_MODE] = MODE_TRICKS
        work[W_NEED] = 1 - sample[S_TRICKS + declarer]
        return 1, 0
    taken_points = sample[S_POINTS + declarer] + mask_points(T, sample[S_SKAT])
    taken_tricks = sample[S_TRICKS + declarer]
    n = 0
    first = -1
    score, won = declarer_score(sample, T, CLASS_POINTS[0], CLASS_TRICKS[0], res)
    work[W_SCORE] = score
    for k in range(1, N_CLASSES):
        score, won_k = declarer_score(sample, T, CLASS_POINTS[k], CLASS_TRICKS[k], res)
        if score == work[W_SCORE + n]:
            continue
        mode = CLASS_MODE[k]
        work[W_MODE + n] = mode
        work[W_NEED + n] = CLASS_NEED[k] - (taken_points if mode == MODE_POINTS else taken_tricks)
        if won_k and not won and first < 0:
            first = n
        n += 1
        work[W_SCORE + n] = score
        won = won_k
    return n, max(first, 0)


@kernel
def _passes(sample, T, work, j, only):
    """Test j of the sample (`set_classes`) with the root's cards limited to ``only``: can the
    side that wants more force its gain from here? Settled without a search where the gain
    needed is none or more than is left."""
    need = work[W_NEED + j]
    if need <= 0:
        return True
    mode = work[W_MODE + j]
    ctx = work[W_CTX:W_TT]
    if mode == MODE_TRICKS:
        if need > N_TRICKS - sample[S_TRICK_NO]:
            return False
    elif need > 120 - mask_points(T, sample[S_SKAT]) - (sample[S_POINTS] + sample[S_POINTS + 1]
                                                         + sample[S_POINTS + 2]):
        return False
    declarer_max = 0 if sample[S_CONTRACT] == NULL else 1
    return at_least(ctx, work[W_TT:W_FRAMES], T, work[W_FRAMES:W_SAMPLE], mode, declarer_max,
                    need, only)


@kernel
def _walk(sample, T, work, only, lo, hi, j):
    """The number of the sample's tests passed (with the root's cards ``only``), known to lie
    in lo..hi: tests from test j on, up after a pass, down after a failure."""
    while lo < hi:
        j = min(max(j, lo), hi - 1)
        if _passes(sample, T, work, j, only):
            lo = j + 1
            j = lo
        else:
            hi = j
            j = hi - 1
    return lo


@kernel
def value_sample(seat, legal, T, work):
    """Add the declarer's settled score after each legal card of the sample in the work array
    (negated for a defender) to the totals: each card's tests from the win test on."""
    sample = work[W_SAMPLE:W_SAMPLER]
    n, first = set_classes(sample, T, work)
    declarer = sample[S_DECLARER]
    sign = 1 if seat == declarer else -1
    if n == 0:  # every outcome scores alike
        rest = legal
        while rest:
            card = lowest_bit_index(rest)
            rest &= rest - 1
            work[W_TOTALS + card] += sign * work[W_SCORE]
        return
    start_solve(sample, T, work[W_CTX:W_TT], work[W_TT:W_FRAMES], work[W_FRAMES:W_SAMPLE])
    rest = legal
    while rest:
        card = lowest_bit_index(rest)
        rest &= rest - 1
        only = np.int64(1) << card
        passed = _walk(sample, T, work, only, 0, n, first)
        work[W_TOTALS + card] += sign * work[W_SCORE + passed]


# ---------------------------------------------------------------- the decision


@kernel
def best_cards(legal, work):
    """The legal cards of the best total."""
    best = np.int64(0)
    top = np.int64(0)
    rest = legal
    while rest:
        card = lowest_bit_index(rest)
        rest &= rest - 1
        total = work[W_TOTALS + card]
        if best == 0 or total > top:
            best, top = np.int64(1) << card, total
        elif total == top:
            best |= np.int64(1) << card
    return best


@kernel
def pimc_totals(seat, legal, st, T, samples, rng, work):
    """The totals of every legal card over ``samples`` samples into W_TOTALS (the shared
    stream ``rng`` is left as it was)."""
    own = seat_stream(rng, seat, st[S_PLAYED])
    work[W_CTX_TT_BITS] = PIMC_TT_BITS  # the generation stamp is kept: old entries stay stale
    for card in range(32):
        work[W_TOTALS + card] = 0
    sampler = work[W_SAMPLER:W_TOTALS]
    prepare_sampler(st, seat, T, sampler)
    for _ in range(max(1, samples)):
        draw_sample(st, seat, sampler, rng, work[W_SAMPLE:W_SAMPLER])
        value_sample(seat, legal, T, work)
    rng[0] = own


@kernel
def pimc_card(seat, legal, st, T, params, rng, work):
    """The card of ``legal`` with the best mean settled score over ``samples`` deals of the
    unseen cards (module docstring; ``params``: the bot's row), the heuristic's choice among
    equal ones; ``work``: WORK_SIZE int64 slots."""
    if legal & (legal - 1) == 0:
        return lowest_bit_index(legal)
    pimc_totals(seat, legal, st, T, np.int64(params[heuristic.P_SAMPLES]), rng, work)
    return heuristic.heuristic_card(seat, best_cards(legal, work), st, T, params)
