"""Kernels against the pure-Python reference (tests/naive.py) on random positions.

Legal moves, trick winner, table roem, hand melds and whole deals, for both rulesets. Cards
are drawn with a bias towards few suits and ranks so voids, sequences, four of a kind and stuk
come up often.
"""

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simcards
from simcards.cards import DECK32
from simcards.engine import trick as trick_kernels
from simcards.games.klaverjas import _kernels as K
from naive import klaverjas as naive

RULESETS = ["klaverjas-rotterdam", "klaverjas-amsterdam"]
RANKS = naive.RANKS
GAMES = {name: simcards.load(name) for name in RULESETS}


def tables(name="klaverjas-rotterdam", **options):
    return simcards.load(name, **options).tables


# ------------------------------------------------------------------ strategies


@st.composite
def card_sets(draw, min_size, max_size, exclude=frozenset()):
    """Distinct cards, often from few suits and a narrow band of ranks."""
    suits = draw(st.sets(st.integers(0, 3), min_size=1, max_size=4))
    low = draw(st.integers(0, 7))
    high = draw(st.integers(low, 7))
    pool = [s * 8 + r for s in sorted(suits) for r in range(low, high + 1)]
    pool = [c for c in pool if c not in exclude]
    if draw(st.booleans()) or len(pool) < min_size:
        pool = [c for c in range(32) if c not in exclude]
    size = draw(st.integers(min_size, min(max_size, len(pool))))
    if size == 0:
        return []
    return draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size, unique=True))


def position_state(hand, trick, trump, T, declarer=0, leader=0):
    """A kernel state with ``trick`` played from ``leader`` on and the mover holding ``hand``.
    The earlier players' hands hold just their trick card (legality is not checked), so the
    trick need not be one legal play could reach: the legal-move rule is defined anyway."""
    n = len(trick)
    hands = np.zeros(4, dtype=np.int64)
    for i, c in enumerate(trick):
        hands[(leader + i) % 4] = 1 << c
    hands[(leader + n) % 4] = naive.cards_mask(hand)
    s = np.empty(K.STATE_SIZE, dtype=np.int64)
    K.new_state(s, hands, (leader + 3) % 4, trump, declarer)
    for c in trick:
        K.apply_card(s, c, T)
    assert s[K.S_TO_MOVE] == (leader + n) % 4
    return s


def table_row(hand, trick, trump, amsterdam):
    """Which row of the legal-move table (docs/rules.md) a position falls under (for coverage)."""
    if not trick:
        return "lead"
    led = naive.suit_of(trick[0])
    trumps = [c for c in hand if naive.is_trump(c, trump)]
    if led == trump:
        return "trump led, hold trump" if trumps else "trump led, no trump"
    if any(naive.suit_of(c) == led for c in hand):
        return "follow"
    if not trumps:
        return "no trump"
    partner = len(trick) >= 2 and naive.trick_winner(trick, trump) == len(trick) - 2
    best = [naive.strength(c, trump) for c in trick if naive.is_trump(c, trump)]
    can_over = not best or any(naive.strength(c, trump) > max(best) for c in trumps)
    only_trumps = len(trumps) == len(hand)
    who = "partner" if partner else "opponent"
    return f"{who} winning, over={can_over}, only trumps={only_trumps}"


# ------------------------------------------------------------------ legal moves


@pytest.mark.parametrize("name", RULESETS)
@settings(max_examples=1000)
@given(data=st.data())
def test_legal_mask_matches_naive(name, data):
    amsterdam = name.endswith("amsterdam")
    T = GAMES[name].tables
    trump = data.draw(st.integers(0, 3))
    trick = data.draw(card_sets(0, 3))
    hand = data.draw(card_sets(1, 8, exclude=frozenset(trick)))
    leader = data.draw(st.integers(0, 3))
    s = position_state(hand, trick, trump, T, leader=leader)
    got = set(naive.mask_cards(K.legal_mask(s, T)))
    want = naive.legal_moves(hand, trick, trump, amsterdam)
    assert got == want, (table_row(hand, trick, trump, amsterdam),
                         [naive.code(c) for c in trick], [naive.code(c) for c in hand])


@pytest.mark.parametrize("name", RULESETS)
def test_legal_mask_every_table_row_seeded(name):
    """The same comparison on 20,000 seeded positions, and proof that it met every row."""
    amsterdam = name.endswith("amsterdam")
    T = GAMES[name].tables
    rng = random.Random(2024)
    seen = {}
    for _ in range(20_000):
        deck = list(range(32))
        rng.shuffle(deck)
        trump = rng.randrange(4)
        n = rng.randrange(4)
        trick = deck[:n]
        # hands from one or two suits make voids common
        suits = rng.sample(range(4), rng.choice([1, 2, 2, 3, 4]))
        pool = [c for c in deck[n:] if naive.suit_of(c) in suits]
        hand = pool[:rng.randint(1, 8)] or deck[n:n + 1]
        s = position_state(hand, trick, trump, T, leader=rng.randrange(4))
        got = set(naive.mask_cards(K.legal_mask(s, T)))
        assert got == naive.legal_moves(hand, trick, trump, amsterdam)
        row = table_row(hand, trick, trump, amsterdam)
        seen[row] = seen.get(row, 0) + 1
    rows = {"lead", "follow", "trump led, hold trump", "trump led, no trump", "no trump"}
    rows |= {f"{who} winning, over={o}, only trumps={t}"
             for who in ("partner", "opponent") for o in (True, False) for t in (True, False)}
    missing = rows - set(seen)
    assert not missing, missing


# ------------------------------------------------------------------ trick winner and roem


@settings(max_examples=1000)
@given(data=st.data())
def test_trick_winner_matches_naive(data):
    trump = data.draw(st.integers(0, 3))
    trick = data.draw(card_sets(1, 4))
    offset = data.draw(st.integers(0, 4))
    T = GAMES["klaverjas-rotterdam"].tables
    cards = np.array([31] * offset + trick + [0] * 3, dtype=np.int64)
    got = trick_kernels.trick_winner(cards, offset, len(trick), T, trump)
    assert got == naive.trick_winner(trick, trump)


def test_arithmetic_fast_path_equals_the_table_path():
    """Klaverjassen's per-card kernels find suits and who beats whom by arithmetic on card ids;
    the shared trick kernel reads the same facts from the tables. Every (trump, card, best)."""
    T = GAMES["klaverjas-rotterdam"].tables
    for trump in range(4):
        for card in range(32):
            assert K.trick_suit(trump, card) == trick_kernels.eff_suit(T, trump, card)
            suit = trick_kernels.eff_suit(T, trump, card)
            assert K.suit_cards(card >> 3) == trick_kernels.suit_mask(T, trump, card >> 3 if suit != 4 else 4)
            beaten_by = trick_kernels.beating_mask(np.int64(-1) & ((1 << 32) - 1), card, T, trump)
            assert K.cards_beating(card, trump, T) & ((1 << 32) - 1) == beaten_by
            for best in range(32):
                if best != card:
                    assert bool(K.card_beats(card, best, trump, T)) == bool(trick_kernels.beats(card, best, T, trump))


four_kind_options = st.lists(st.sampled_from(RANKS), unique=True, max_size=8)


@settings(max_examples=1000)
@given(data=st.data())
def test_trick_roem_matches_naive(data):
    trump = data.draw(st.integers(0, 3))
    ranks = data.draw(st.one_of(st.just(list(naive.DEFAULT_FOUR_KIND)), four_kind_options))
    if data.draw(st.booleans()):  # four of a kind of one rank
        rank = data.draw(st.integers(0, 7))
        trick = [s * 8 + rank for s in range(4)]
    else:
        trick = data.draw(card_sets(1, 4))
    T = tables(four_kind_ranks=ranks)
    got = K.trick_roem(np.int64(naive.cards_mask(trick)), trump, T)
    assert got == naive.table_roem(trick, trump, tuple(ranks))


hand_four_options = st.one_of(st.just(list(RANKS)), four_kind_options)


@settings(max_examples=1000)
@given(data=st.data())
def test_hand_melds_match_naive(data):
    trump = data.draw(st.integers(-1, 3))
    ranks = data.draw(hand_four_options)
    if data.draw(st.booleans()):  # one or two four of a kinds plus filler
        quad = data.draw(st.lists(st.integers(0, 7), min_size=1, max_size=2, unique=True))
        hand = [s * 8 + r for r in quad for s in range(4)]
        hand += data.draw(card_sets(0, 8 - len(hand), exclude=frozenset(hand)))
    else:
        hand = data.draw(card_sets(0, 8))
    T = tables(hand_four_kind_ranks=ranks)
    got = K.hand_melds(np.int64(naive.cards_mask(hand)), trump, T)
    assert got == naive.hand_melds(hand, trump, tuple(ranks))


# ------------------------------------------------------------------ whole deals, card by card


@pytest.mark.parametrize("name", RULESETS)
@settings(max_examples=300)
@given(
    order=st.permutations(range(32)),
    dealer=st.integers(0, 3),
    trump=st.integers(0, 3),
    declarer=st.integers(0, 3),
    choices=st.lists(st.integers(0, 7), min_size=32, max_size=32),
    options=st.fixed_dictionaries({
        "nat_on_tie": st.booleans(), "table_roem": st.booleans(), "defenders_pit": st.booleans(),
        "pit_bonus": st.sampled_from([0, 100, 150]),
        "four_kind_ranks": st.one_of(st.just(list(naive.DEFAULT_FOUR_KIND)), four_kind_options),
        "hand_four_kind_ranks": hand_four_options,
    }),
)
def test_random_deals_match_naive(name, order, dealer, trump, declarer, choices, options):
    game = simcards.load(name, **options)
    hands = [order[8 * i:8 * i + 8] for i in range(4)]
    state = game.deal(hands=[[naive.code(c) for c in h] for h in hands], dealer=dealer,
                      trump="CDHS"[trump], declarer=declarer)
    rules = naive.Rules(amsterdam=name.endswith("amsterdam"),
                        **{k: tuple(v) if isinstance(v, list) else v for k, v in options.items()})
    ref = naive.Deal(hands, dealer, trump, declarer, rules)
    for k in range(32):
        assert state.to_move == ref.to_move
        legal = sorted(ref.legal())
        assert state.legal_moves() == DECK32.hand_codes(naive.cards_mask(legal))
        state.play(naive.code(legal[choices[k] % len(legal)]))
        ref.play(legal[choices[k] % len(legal)])
        if k % 4 == 3:
            assert state._st[K.S_LAST_WINNER] == ref.winners[-1]
        # voids the kernel deduced for the bots are real
        for seat in range(4):
            voids = int(state._st[K.S_VOIDS + seat])
            held = ref.hands[seat]
            for c in held:
                eff = 4 if naive.is_trump(c, trump) else naive.suit_of(c)
                assert not voids >> eff & 1, (seat, naive.code(c))
    assert state.is_over and state.legal_moves() == []
    got = state.result()
    want = ref.result()
    for key in ("points", "roem", "tricks", "pit", "nat", "score", "roem_hand"):
        assert got[key] == want[key], key
    assert sum(got["points"]) == 162
