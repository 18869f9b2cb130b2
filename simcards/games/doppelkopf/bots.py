"""Doppelkopf bots: a random baseline and a heuristic with a documented hand estimate.

Bots are Numba functions selected by a kind id, with one float64 parameter row per seat (PARAMS,
by name in configs). A bot sees its own hand and the public slots of the deal state: the game
type, the trick, the cards played, the voids shown, and the seats *shown* to be Re or Kontra
(`_kernels.S_REV_RE`/`S_REV_KO`). It never reads the hidden party mask, except for its own
party, which a player knows from its own cards.

The hand estimate (`hand_estimate`) is the bot's guess of the Augen its party will take, on the
scale of the 121 Re needs:

    w_base + w_trump * trumps + w_top * top trumps + w_ace * plain aces
           + w_void * plain suits void + w_fox * foxes held

with "top trumps" the three highest trump kinds (10 of hearts, club and spade queens in a
normal game). A solo is judged by the same formula with the ``ws_*`` weights under the solo's
card order (fleshless: the aces are its top cards). Decisions are thresholds on it:
- solo: the best solo's estimate reaches ``solo_threshold``;
- Re: the estimate (plus ``w_partner_call`` once the partner has announced) reaches
  ``announce_threshold``; Kontra: ``kontra_threshold`` likewise; no 90 / no 60 / no 30 /
  schwarz: ``no90_threshold`` ... (the highest level in time whose threshold the estimate
  clears, and every lower level's too, is called; passed-over levels count as made, so a
  threshold out of reach means the call is never made);
- the opponents of a solo do not announce.

Re and Kontra had one threshold until Kontra got its own: ``announce_threshold`` kept its name
for Re, so configs and tuned threshold files that set it still run (they now set Re alone).
The shipped thresholds of Re (130), Kontra (128), no 90 (201) and the solo (130) are the
equilibrium of configs/tune-doppelkopf.toml with the solo play below: each iteration a best
response to copies of the one before (20,000 deals per candidate), until two in a row gained
nothing on their fresh seeds; a best response to the shipped profile gains -0.0006 points per
deal (95% interval -0.0054 .. +0.0041, 40,000 deals). No 60 and no 30 sit above no 90 (225,
250) and are not tuned: once no 90 is, every value of theirs plays the same deals. Schwarz is
never called.

The weights are least-squares fits (simcards/games/doppelkopf/calibrate.py): the hand weights
predict the party's Augen in normal games of heuristic play without announcements (60,000
deals, seed 3: R^2 0.27, residual sd 37 Augen: the partner's cards are unknown); the solo
weights predict the soloist's Augen when every forehand plays its best solo (40,000 deals,
seed 4: R^2 0.53 when they were fitted). One linear formula serves every solo; the queen, jack
and fleshless solos, which that fit rarely saw, get an offset each. `calibrate.fit_solo_offsets`
measures the formula's shortfall on the strongest 3% of hands when every forehand is made to
play that solo (20,000 deals each, seed 4), and the offsets ship as fitted with the solo play
below: queen 54.7, jack 51.7, fleshless 114.5 Augen. (Before it, the queen and jack solos
shipped with 20 and 15, under their fits of 35 and 37, because the bots lost too many of the
eight-trump solos the full offsets let through.) Against a seat with the old 20 / 15 / 110,
a seat with the fitted offsets gains +0.028 points per deal (95% +0.026 .. +0.030; 200,000
deals of seed 21, the seat in each position in turn).

The solo weights are not re-fitted: `fit_solo_weights` lets every forehand play the solo its
current weights call best, so its fit depends on the weights it starts from. From the shipped
weights it now gives (31.7, 1.0, 15.6, 8.0, 15.6), R^2 0.40 (main before the new solo play:
(29.1, 1.4, 14.1, 6.2, 11.5), R^2 0.31); started from those, it moves on again (35.8, 1.5,
14.3, 18.8, 9.6; R^2 0.29): no fixed point to ship.

Card play (heuristic): lead a trump held above every unseen one when holding
``pull_trumps_min`` trumps; a Re player whose partner is unknown shows itself with a club queen
(``show_club_queen``); otherwise lead an ace of a plain suit not yet played, else a low card.
Following: on a trick the known partner wins for sure, add the most Augen (plain aces and
tens, then the fox: a fox given to the partner cannot be caught); else win a trick worth
``contest_points`` or more (or holding a fox) with a card nobody can beat, or as the last
player with the cheapest winner; else throw the cheapest card, keeping the fox and the high
trumps. The holder of an announced marriage plays its cheapest card until a partner is found.
The J of clubs is held back for the last trick (Karlchen) from trick 9 on when at most
``karlchen_risk`` unseen trumps can beat it.

Solo play. The soloist knows that every card it has not seen is a defender's, so "nobody can
beat it" is exact for it; the defenders know who the soloist is. The soloist leads:
1. while the defenders still hold trumps and it holds at least as many as they do plus
   ``solo_draw_margin`` (-2), a trump nobody can beat (drawing their trumps; with far fewer it
   keeps its top trumps to ruff and to win rich tricks);
2. else its richest plain card nobody can beat, in a suit no defender has shown a void in (any
   suit once the defenders are out of trumps: then nothing can ruff it);
3. else its cheapest plain card, else its lowest trump.
The soloist, following a defender's lead: as the last player it wins with its cheapest
winner; void in a plain suit led, it ruffs with its cheapest winning trump when no defender
still to play has shown a void in that suit and at least ``solo_ruff_cards`` (2) unseen cards
of it are left per defender still to play (they must follow); else it wins a trick worth
``contest_points`` with a card nobody can beat, else throws its cheapest card. A defender
leads its richest plain card nobody can beat in a suit the soloist has not shown a void in,
else its cheapest plain card (never a trump into the soloist's); a trick a defender wins after
the soloist has played to it is safe (only partners follow), so the others add their Augen.
The old play drew trumps to the end, so the soloist spent its trumps on tricks the defenders
no longer contested and then gave the lead away, led an ace only in a suit nobody had
discarded in, and ruffed only a trick worth 10 Augen, with a top trump. In duplicate on the
same deals, the old play's build (commit 16a5079) against this one, both with the fitted
offsets (scripts/solo_ab.py; 500,000 deals of seed 13, the 25,811 solos the bots chose), the
new play gains the soloist +4.68 points per solo game (95% +4.54 .. +4.82; it wins 81.6%
instead of 62.3%; queen solos +6.11, jack +6.47). Apart, with the measurement switch of commit
d5b750e on the same deals: the soloist's rules gain it +5.73 (+5.60 .. +5.86) against the old
defenders, and the defenders' rules take 1.05 of that back (-1.13 .. -0.98; 2.19 against the
old soloist).
"""

from __future__ import annotations

import numpy as np

from simcards._jit import hot, kernel
from simcards.cards import lowest_bit_index, nth_bit_index, popcount
from simcards.engine.trick import TRUMP, eff_suit, suit_mask
from simcards.games.botspec import HEURISTIC, STANDARD_KINDS
from simcards.games.doppelkopf._kernels import (
    KONTRA,
    RE,
    S_HAND,
    S_LEADER,
    S_LEVEL,
    S_MARRIAGE_OPEN,
    S_N_PLAYED,
    S_PARTY,
    S_PLAYED,
    S_REV_KO,
    S_REV_RE,
    S_SOLO,
    S_TO_MOVE,
    S_TRICK,
    S_TRICK_NO,
    S_VOIDS,
    S_WIN_POS,
    S_CONTRACT,
    S_DECLARER,
    S_EST,
    call_in_time,
    make_call,
    takes_over,
)
from simcards.games.doppelkopf.rules import (
    ACE_MASK,
    FLESHLESS,
    FOX_MASK,
    JACK,
    JC_MASK,
    N_CONTRACTS,
    NORMAL,
    QC_MASK,
    QUEEN,
    T_ABOVE,
    T_POINTS,
    T_RANK,
    T_TOP,
)
from simcards.rng import randint

KINDS = STANDARD_KINDS
FULL = (np.int64(1) << 48) - 1

PARAMS = (
    ("w_base", 37.6, "hand estimate: Augen of a hand with none of the features below"),
    ("w_trump", 7.2, "hand estimate: each trump"),
    ("w_top", 17.7, "hand estimate: each top trump (three highest trump kinds)"),
    ("w_ace", 5.4, "hand estimate: each ace of a plain suit"),
    ("w_void", 5.6, "hand estimate: each plain suit the hand is void in"),
    ("w_fox", -1.8, "hand estimate: each fox (A of diamonds) held, a card the others hunt"),
    ("w_partner_call", 15.0, "added to the estimate once the partner has announced"),
    ("ws_base", -70.8, "solo estimate: Augen of a hand with none of the features below"),
    ("ws_trump", 13.0, "solo estimate: each trump of the solo"),
    ("ws_top", 13.0, "solo estimate: each top card of the solo (three highest trump kinds; aces "
                    "in a fleshless)"),
    ("ws_ace", 13.4, "solo estimate: each ace of a plain suit"),
    ("ws_void", 6.8, "solo estimate: each plain suit the hand is void in"),
    ("ws_queen", 54.7, "solo estimate: added for a queen solo (its eight trumps are judged by the "
                      "same weights as a suit solo's)"),
    ("ws_jack", 51.7, "solo estimate: added for a jack solo"),
    ("ws_fleshless", 114.5, "solo estimate: added for a fleshless"),
    ("solo_threshold", 130.0, "play the best solo when its estimate reaches this"),
    ("announce_threshold", 130.0, "announce Re when the estimate reaches this"),
    ("kontra_threshold", 128.0, "announce Kontra when the estimate reaches this"),
    ("no90_threshold", 201.0, "announce no 90 when the estimate reaches this"),
    ("no60_threshold", 225.0, "announce no 60 when the estimate reaches this"),
    ("no30_threshold", 250.0, "announce no 30 when the estimate reaches this"),
    ("schwarz_threshold", 999.0, "announce schwarz when the estimate reaches this"),
    ("marriage_silent", 0.0, "with both club queens: 1 plays a silent marriage (a diamonds "
                             "solo), 0 announces the marriage"),
    ("pull_trumps_min", 6.0, "lead a trump nobody can beat while holding at least this many "
                             "trumps (always in a solo of one's own)"),
    ("show_club_queen", 1.0, "1: a Re player whose partner is unknown leads a club queen to show "
                             "itself; 0: never"),
    ("contest_points", 10.0, "try to win a trick not yet safe when it holds at least this many "
                             "Augen (or a fox)"),
    ("keep_trump", 6.0, "cost per rank of a trump spent on a discard or given to the partner "
                        "(keeps the high trumps for control)"),
    ("karlchen_risk", 1.0, "hold the J of clubs for the last trick while at most this many unseen "
                           "trumps beat it (negative: never)"),
    ("solo_draw_margin", -2.0, "the soloist draws trumps while it holds at least the defenders' "
                               "unseen trumps plus this many"),
    ("solo_ruff_cards", 2.0, "the soloist ruffs a plain lead with its cheapest winning trump while "
                             "this many cards of the suit per defender still to play are unseen"),
)
(P_W_BASE, P_W_TRUMP, P_W_TOP, P_W_ACE, P_W_VOID, P_W_FOX, P_W_PARTNER_CALL, P_WS_BASE,
 P_WS_TRUMP, P_WS_TOP, P_WS_ACE, P_WS_VOID, P_WS_QUEEN, P_WS_JACK, P_WS_FLESHLESS,
 P_SOLO_THRESHOLD, P_ANNOUNCE, P_KONTRA, P_NO90, P_NO60,
 P_NO30, P_SCHWARZ, P_MARRIAGE_SILENT, P_PULL_TRUMPS, P_SHOW_QC, P_CONTEST, P_KEEP_TRUMP,
 P_KARLCHEN, P_SOLO_DRAW_MARGIN, P_SOLO_RUFF_CARDS) = range(len(PARAMS))
PARAM_INDEX = {name: k for k, (name, _, _) in enumerate(PARAMS)}


# ------------------------------------------------------------ estimates


@kernel
def _features(hand, contract, T):
    """(trumps, top trumps, plain aces, plain voids) of ``hand`` under ``contract``."""
    trumps = hand & suit_mask(T, contract, TRUMP)
    voids = 0
    for suit in range(4):
        cards = suit_mask(T, contract, suit)
        if cards != 0 and hand & cards == 0:
            voids += 1
    return (popcount(trumps), popcount(hand & T[T_TOP + contract]),
            popcount(hand & ACE_MASK & ~trumps), voids)


@kernel
def hand_estimate(hand, T, p):
    """The Augen the hand's party can expect in a normal game (module docstring)."""
    trumps, top, aces, voids = _features(hand, NORMAL, T)
    return (p[P_W_BASE] + p[P_W_TRUMP] * trumps + p[P_W_TOP] * top + p[P_W_ACE] * aces
            + p[P_W_VOID] * voids + p[P_W_FOX] * popcount(hand & FOX_MASK))


@kernel
def solo_estimate(hand, contract, T, p):
    trumps, top, aces, voids = _features(hand, contract, T)
    offset = 0.0
    if contract == FLESHLESS:
        aces = 0  # the aces are its top cards already
        offset = p[P_WS_FLESHLESS]
    elif contract == QUEEN:
        offset = p[P_WS_QUEEN]
    elif contract == JACK:
        offset = p[P_WS_JACK]
    return (p[P_WS_BASE] + p[P_WS_TRUMP] * trumps + p[P_WS_TOP] * top + p[P_WS_ACE] * aces
            + p[P_WS_VOID] * voids + offset)


@kernel
def best_solo(hand, T, p):
    """(solo contract with the highest estimate, that estimate)."""
    best, value = 1, -1e9
    for contract in range(1, N_CONTRACTS):
        e = solo_estimate(hand, contract, T, p)
        if e > value:
            best, value = contract, e
    return best, value


# ------------------------------------------------------------ what a seat knows


@kernel
def sides(st, seat):
    """(team, opponents): the seats ``seat`` knows to play with it (itself included) and
    against it, from its own party and what has been shown."""
    own = np.int64(1) << seat
    re = (st[S_PARTY] >> seat) & 1
    if re and st[S_SOLO] != 0:  # alone against three, and it knows it
        return own, 15 & ~own
    team = own | (st[S_REV_RE] if re else st[S_REV_KO])
    opponents = (st[S_REV_KO] if re else st[S_REV_RE]) & ~own
    if popcount(opponents) == 2:  # (a Kontra player of a silent marriage may be misled)
        team = 15 & ~opponents
    if popcount(team) == 2:
        opponents = 15 & ~team
    return team, opponents


# ------------------------------------------------------------ announcements


@kernel
def bot_call(st, seat, estimate, p):
    """The heuristic's announcement before it plays a card: the highest level in time whose
    threshold ``estimate`` clears, with every lower level's (module docstring). Returns the
    level called or -1."""
    re = (st[S_PARTY] >> seat) & 1
    if st[S_SOLO] != 0 and (not re or st[S_DECLARER] != seat):
        return -1  # a solo's opponents (and a silent marriage's) do not announce
    party = RE if re else KONTRA
    current = st[S_LEVEL + party]
    if current >= 4:
        return -1
    e = estimate
    team, _ = sides(st, seat)
    if current >= 0 and popcount(team) > 1:
        e += p[P_W_PARTNER_CALL]
    # the highest level whose threshold the estimate clears, with every level below it (a call
    # passes over the lower ones, so a level out of reach is never made, nor passed over)
    wanted = -1
    if e >= p[P_ANNOUNCE if party == RE else P_KONTRA]:
        wanted = 0
        for level in range(1, 5):
            if e < p[P_NO90 + level - 1]:
                break
            wanted = level
    for level in range(wanted, current, -1):
        if call_in_time(st, seat, level):
            make_call(st, seat, level)
            return level
    return -1


# ------------------------------------------------------------ card play


@hot
def _random_card(legal, rng):
    return nth_bit_index(legal, randint(rng, popcount(legal)))


@kernel
def _cost(card, contract, T, keep_trump):
    """What giving ``card`` away costs: its Augen, and for a trump its rank (keep_trump each)."""
    cost = 8.0 * T[T_POINTS + card]
    if (T[T_RANK + contract * 48 + card] > 0
            and (suit_mask(T, contract, TRUMP) >> card) & 1):
        cost += keep_trump * T[T_RANK + contract * 48 + card]
    return cost


@kernel
def _cheapest(cards, contract, T, keep_trump, spare_fox):
    """The card of ``cards`` that costs least to give away; a fox only when nothing else."""
    best, best_cost = lowest_bit_index(cards), 1e18
    rest = cards
    while rest:
        card = lowest_bit_index(rest)
        rest &= rest - 1
        cost = _cost(card, contract, T, keep_trump)
        if spare_fox and (FOX_MASK >> card) & 1:
            cost += 1000.0
        if cost < best_cost:
            best, best_cost = card, cost
    return best


@kernel
def _richest(cards, contract, T, keep_trump):
    """The card of ``cards`` worth most to give to the partner: Augen less the trump cost."""
    best, best_value = lowest_bit_index(cards), -1e18
    rest = cards
    while rest:
        card = lowest_bit_index(rest)
        rest &= rest - 1
        value = 16.0 * T[T_POINTS + card] - _cost(card, contract, T, keep_trump)
        if value > best_value:
            best, best_value = card, value
    return best


@kernel
def _lowest_rank(cards, contract, T):
    best, best_rank = lowest_bit_index(cards), 1 << 30
    rest = cards
    while rest:
        card = lowest_bit_index(rest)
        rest &= rest - 1
        rank = T[T_RANK + contract * 48 + card] * 32 - T[T_POINTS + card]
        if rank < best_rank:
            best, best_rank = card, rank
    return best


@kernel
def _top_cards(cards, unseen, T, contract):
    """The cards of ``cards`` that no unseen card beats."""
    out = np.int64(0)
    rest = cards
    while rest:
        card = lowest_bit_index(rest)
        rest &= rest - 1
        if T[T_ABOVE + contract * 48 + card] & unseen == 0:
            out |= np.int64(1) << card
    return out


@kernel
def _takers(cards, best, T, contract):
    """The cards of ``cards`` that would take the trick from ``best``: engine.trick's
    beating_mask under Doppelkopf's `takes_over` (the second 10 of hearts option)."""
    out = np.int64(0)
    rest = cards
    while rest:
        card = lowest_bit_index(rest)
        rest &= rest - 1
        if takes_over(card, best, T, contract):
            out |= np.int64(1) << card
    return out


@kernel
def _plain_winner(legal, unseen, ruffer_voids, T, contract):
    """The richest plain card of ``legal`` that no unseen card beats, in a suit none of the
    possible ruffers has shown a void in (``ruffer_voids``: the suits they have shown void), or
    -1."""
    best, best_points = -1, -1
    for suit in range(4):
        cards = legal & suit_mask(T, contract, suit)
        if cards == 0 or (ruffer_voids >> suit) & 1:
            continue
        tops = _top_cards(cards, unseen, T, contract)
        if tops != 0:
            card = _richest(tops, contract, T, 0.0)
            if T[T_POINTS + card] > best_points:
                best, best_points = card, T[T_POINTS + card]
    return best


@kernel
def _soloist_lead(st, seat, legal, unseen, p, T, contract):
    """The soloist's lead (module docstring, solo play); every unseen card is a defender's."""
    trump_mask = suit_mask(T, contract, TRUMP)
    trumps = legal & trump_mask
    their_trumps = unseen & trump_mask
    if (trumps != 0 and their_trumps != 0
            and popcount(trumps) >= popcount(their_trumps) + p[P_SOLO_DRAW_MARGIN]):
        tops = _top_cards(trumps, unseen, T, contract)
        if tops != 0:
            return lowest_bit_index(tops)
    ruffer_voids = 0
    if their_trumps != 0:  # once they are out of trumps, no plain winner can be ruffed
        for other in range(4):
            if other != seat:
                ruffer_voids |= st[S_VOIDS + other]
    card = _plain_winner(legal, unseen, ruffer_voids, T, contract)
    if card >= 0:
        return card
    plain = legal & ~trump_mask
    if plain != 0:
        return _cheapest(plain, contract, T, p[P_KEEP_TRUMP], False)
    return _lowest_rank(legal, contract, T)


@kernel
def _defender_lead(st, legal, unseen, p, T, contract):
    """A defender's lead against a solo (module docstring, solo play)."""
    card = _plain_winner(legal, unseen, st[S_VOIDS + st[S_DECLARER]], T, contract)
    if card >= 0:
        return card
    plain = legal & ~suit_mask(T, contract, TRUMP)
    return _cheapest(plain if plain != 0 else legal, contract, T, p[P_KEEP_TRUMP], False)


@kernel
def _soloist_follow(st, legal, unseen, n, best, p, T, contract):
    """The soloist's card to a trick a defender led (module docstring, solo play)."""
    winners = _takers(legal, best, T, contract)
    if winners != 0:
        if n == 3:
            return _lowest_rank(winners, contract, T)
        led = eff_suit(T, contract, st[S_TRICK])
        if led != TRUMP and legal & suit_mask(T, contract, led) == 0:
            # a ruff: a defender still to play overtakes it only when void in the led suit too
            shown_void = False
            for k in range(n + 1, 4):
                if (st[S_VOIDS + ((st[S_LEADER] + k) & 3)] >> led) & 1:
                    shown_void = True
            left = popcount(unseen & suit_mask(T, contract, led))
            if not shown_void and left >= p[P_SOLO_RUFF_CARDS] * (3 - n):
                return _lowest_rank(winners, contract, T)
        augen = 0
        for i in range(n):
            augen += T[T_POINTS + st[S_TRICK + i]]
        sure = _top_cards(winners, unseen, T, contract)
        if sure != 0 and augen >= p[P_CONTEST]:
            return _lowest_rank(sure, contract, T)
    return _cheapest(legal, contract, T, p[P_KEEP_TRUMP], False)


@kernel
def _lead(st, seat, legal, unseen, team, p, T, contract):
    trumps = legal & suit_mask(T, contract, TRUMP)
    n_trumps = popcount(trumps)
    soloist = st[S_SOLO] != 0 and st[S_DECLARER] == seat
    if soloist:
        return _soloist_lead(st, seat, legal, unseen, p, T, contract)
    if st[S_SOLO] != 0 and popcount(st[S_REV_KO]) == 3:  # a defender, who knows the soloist
        return _defender_lead(st, legal, unseen, p, T, contract)
    # a trump nobody else can beat, to draw the others' trumps
    if n_trumps >= p[P_PULL_TRUMPS] and n_trumps > 0:
        rest = trumps
        while rest:
            card = lowest_bit_index(rest)
            rest &= rest - 1
            if T[T_ABOVE + contract * 48 + card] & unseen == 0:
                return card
    if (p[P_SHOW_QC] > 0 and contract == NORMAL and (st[S_PARTY] >> seat) & 1
            and st[S_SOLO] == 0 and popcount(team) == 1 and legal & QC_MASK):
        return lowest_bit_index(legal & QC_MASK)
    played = st[S_PLAYED]
    for suit in range(4):
        cards = suit_mask(T, contract, suit)
        aces = legal & cards & ACE_MASK
        if aces != 0 and played & cards == 0:
            return lowest_bit_index(aces)
    plain = legal & ~trumps
    if plain != 0:
        return _cheapest(plain, contract, T, p[P_KEEP_TRUMP], True)
    return _cheapest(legal, contract, T, p[P_KEEP_TRUMP], True)


@kernel
def heuristic_card(seat, legal, st, T, p):
    """The heuristic's card for ``seat`` (the seat to move) from ``legal``."""
    seat &= 3
    if popcount(legal) == 1:
        return lowest_bit_index(legal)
    contract = st[S_CONTRACT]
    hand = st[S_HAND + seat]
    unseen = FULL & ~st[S_PLAYED] & ~hand
    team, _ = sides(st, seat)
    trick_no = st[S_TRICK_NO]
    # Karlchen: keep the J of clubs for the last trick when little can beat it
    if trick_no >= 8 and p[P_KARLCHEN] >= 0 and legal & JC_MASK and legal & ~JC_MASK:
        jc = lowest_bit_index(legal & JC_MASK)
        if popcount(T[T_ABOVE + contract * 48 + jc] & unseen) <= p[P_KARLCHEN]:
            legal &= ~JC_MASK
    n = st[S_N_PLAYED]
    if st[S_MARRIAGE_OPEN] != 0 and st[S_DECLARER] == seat:
        # the holder of an open marriage lets another player win, to find a partner
        return _cheapest(legal, contract, T, p[P_KEEP_TRUMP], True)
    if n == 0:
        return _lead(st, seat, legal, unseen, team, p, T, contract)
    best = st[S_TRICK + st[S_WIN_POS]]
    best_seat = (st[S_LEADER] + st[S_WIN_POS]) & 3
    last = n == 3
    soloist = st[S_DECLARER]
    if st[S_SOLO] != 0 and soloist == seat:
        return _soloist_follow(st, legal, unseen, n, best, p, T, contract)
    if (team >> best_seat) & 1:
        safe = last or T[T_ABOVE + contract * 48 + best] & unseen == 0
        if (st[S_SOLO] != 0 and popcount(st[S_REV_KO]) == 3
                and (soloist - st[S_LEADER]) & 3 < n):
            safe = True  # against a solo, once the soloist has played only partners follow
        if safe:
            return _richest(legal, contract, T, p[P_KEEP_TRUMP])
        return _cheapest(legal, contract, T, p[P_KEEP_TRUMP], True)
    winners = _takers(legal, best, T, contract)
    if winners != 0:
        if last:
            return _lowest_rank(winners, contract, T)
        augen = 0
        fox = False
        for i in range(n):
            card = st[S_TRICK + i]
            augen += T[T_POINTS + card]
            if (FOX_MASK >> card) & 1:
                fox = True
        if augen >= p[P_CONTEST] or fox:
            sure = _top_cards(winners, unseen, T, contract)
            if sure != 0:
                return _lowest_rank(sure, contract, T)
    return _cheapest(legal, contract, T, p[P_KEEP_TRUMP], True)


@hot
def choose_card(kind, legal, st, T, p, rng):
    if kind == HEURISTIC:
        return heuristic_card(st[S_TO_MOVE], legal, st, T, p)
    return _random_card(legal, rng)


@kernel
def bot_turn(st, kind, p):
    """What a bot does before it plays a card: the heuristic may announce (in the first six
    tricks, where every deadline lies). The batch loop and a replayed deal both call this."""
    if kind == HEURISTIC and st[S_TRICK_NO] < 6:
        seat = st[S_TO_MOVE] & 3
        bot_call(st, seat, st[S_EST + seat], p)
