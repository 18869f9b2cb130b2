"""The Skat heuristic's parameter row and its card play.

Every bot kind of the game (bots.py) carries one float64 row of these parameters per seat. The
heuristic's card (`heuristic_card`) is the heuristic bot's play, and the pimc bot (_pimc.py)
asks it to choose among its cards of equal value; it lives here, apart from the bidding and the
kind dispatch of bots.py, so that bots.py can import the pimc bot and the pimc bot this module
without a cycle.
"""

from __future__ import annotations

import numpy as np

from simcards._jit import hot, kernel
from simcards.cards import lowest_bit_index, popcount
from simcards.engine.state import (
    S_CONTRACT,
    S_DECLARER,
    S_HAND,
    S_LEADER,
    S_N_PLAYED,
    S_PLAYED,
    S_TO_MOVE,
    S_TRICK,
    S_VOIDS,
    S_WIN_POS,
)
from simcards.engine.trick import TRUMP, eff_suit
from simcards.games.skat._kernels import S_HAND_GAME, S_OUVERT, S_SKAT
from simcards.games.skat.rules import GRAND, JACKS_MASK, NULL, T_BEATERS, T_POINTS, T_POWER, T_SUIT_MASKS

PARAMS = (
    # the estimates' weights and centres: `python -m simcards.games.skat.calibrate` (40,000
    # deals) with the declarer play, discard and Null defence of this module
    # suit-game estimate: logistic((score - suit_center) / suit_scale)
    ("suit_w_trump", 0.99, "suit estimate: each trump held (jacks included)"),
    ("suit_w_jack", 0.36, "suit estimate: each jack, on top of counting as a trump"),
    ("suit_w_club_jack", 0.25, "suit estimate: the club jack, on top"),
    ("suit_w_trump_high", 0.55, "suit estimate: the ace and the ten of trumps, each"),
    ("suit_w_side_ace", 1.1, "suit estimate: each ace of a plain suit"),
    ("suit_w_side_ten", 0.32, "suit estimate: each plain ten held with its ace or two more cards"),
    ("suit_w_void", 0.1, "suit estimate: each plain suit the hand is void in"),
    ("suit_center", 6.16, "suit estimate: the score with an even chance"),
    ("suit_scale", 1.0, "suit estimate: score per logistic unit"),
    # Grand estimate
    ("grand_w_jack", 1.61, "Grand estimate: each jack"),
    ("grand_w_club_jack", 0.4, "Grand estimate: the club jack, on top"),
    ("grand_w_ace", 1.2, "Grand estimate: each ace"),
    ("grand_w_ten", 0.56, "Grand estimate: each ten held with its ace or two more cards"),
    ("grand_w_long", 0.08, "Grand estimate: each card beyond three in a suit headed by its ace"),
    ("grand_center", 5.36, "Grand estimate: the score with an even chance"),
    ("grand_scale", 1.0, "Grand estimate: score per logistic unit"),
    # Null estimate: logistic((null_center - danger) / null_scale)
    ("null_center", 7.6, "Null estimate: the danger (sum over cards of how far a card sits above "
                         "the safe 7-9-J-K ladder of its suit) with an even chance"),
    ("null_scale", 4.91, "Null estimate: danger per logistic unit"),
    # thresholds per family and for Hand and Null Ouvert: the equilibrium of configs/tune-skat.toml
    # with the play, choice of game and estimates of this version (Seeger-Fabian per deal; a best
    # response to them gains -0.013 per deal, 95% interval -0.060 .. +0.035, on 400,000 fresh
    # deals; the config's comments give the iterations)
    ("suit_threshold", 0.62, "bid a suit game when its estimate reaches this"),
    ("grand_threshold", 0.7, "bid a Grand when its estimate reaches this"),
    ("null_threshold", 0.23, "bid a Null when its estimate reaches this"),
    ("hand_threshold", 0.91, "play Hand (bid one level more) when the estimate reaches this"),
    ("ouvert_threshold", 0.59, "declare Null Ouvert when the Null estimate reaches this"),
    # declaration and play
    ("needs_schneider_weight", 0.3, "declaration: a game that reaches the bid only with Schneider "
                                    "counts its estimate times this"),
    # 20 puts a void before any points buried (12 lost 0.07-0.08 list points a game:
    # scripts/skat_play_ab.py --rediscard, seeds 41 and 43, 60,000 deals each)
    ("discard_void_bonus", 20.0, "discard: worth of emptying a plain suit, in card points"),
    ("pull_trumps_min", 3.0, "declarer leads trumps while the defenders hold some and he holds "
                             "at least this many (always with the highest trump left)"),
    ("contest_points", 4.0, "ruff or overtake a trick that is not yet safe when it holds at "
                            "least this many card points"),
    # Kontra and Re: the equilibrium of configs/tune-skat-kontra.toml (house rule kontra = true)
    ("kontra_trumps", 5.0, "Kontra option: a defender says Kontra holding this many trumps"),
    ("re_threshold", 0.88, "Kontra option: the declarer says Re when his estimate reaches this"),
    # the pimc bot (_pimc.py)
    ("samples", 6.0, "pimc: deals of the unseen cards sampled and searched at each card "
                      "decision (a whole number, 1 to 1000)"),
)
N_PARAMS = len(PARAMS)
(P_S_TRUMP, P_S_JACK, P_S_CLUB_JACK, P_S_TRUMP_HIGH, P_S_SIDE_ACE, P_S_SIDE_TEN, P_S_VOID,
 P_S_CENTER, P_S_SCALE, P_G_JACK, P_G_CLUB_JACK, P_G_ACE, P_G_TEN, P_G_LONG, P_G_CENTER,
 P_G_SCALE, P_N_CENTER, P_N_SCALE, P_T_SUIT, P_T_GRAND, P_T_NULL, P_T_HAND, P_T_OUVERT,
 P_NEEDS_SCHNEIDER, P_DISCARD_VOID, P_PULL, P_CONTEST, P_KONTRA, P_RE, P_SAMPLES) = range(N_PARAMS)
THRESHOLD_PARAMS = ("suit_threshold", "grand_threshold", "null_threshold", "hand_threshold")
assert N_PARAMS == 30 and PARAMS[P_SAMPLES][0] == "samples"
# parameters that count something: a whole number within (low, high)
COUNTS = (("samples", 1, 1000),)

FULL32 = np.int64(0xFFFFFFFF)


# ---------------------------------------------------------------- card play
#
# The card-play helpers read the tables at constant offsets through these inlined look-ups
# (the shared `simcards.engine.trick` kernels are calls, which cost more than their body here).


@hot
def _pw(T, contract, card):
    return T[T_POWER + contract * 32 + (card & 31)]


@hot
def _suit(T, contract, suit):
    return T[T_SUIT_MASKS + contract * 5 + suit]


@hot
def _pts(T, card):
    return T[T_POINTS + (card & 31)]


@hot
def _beaters(T, contract, card):
    return T[T_BEATERS + contract * 32 + (card & 31)]


@hot
def _lowest(mask, T, contract, avoid_trumps):
    """The card of ``mask`` cheapest to give up: fewest points, then lowest power, plain
    suits before trumps when ``avoid_trumps``."""
    trumps = _suit(T, contract, TRUMP)
    pool = mask & ~trumps if avoid_trumps and mask & ~trumps else mask
    best, best_cost = -1, 1 << 30
    rest = pool
    while rest:
        card = lowest_bit_index(rest)
        rest &= rest - 1
        cost = _pts(T, card) * 16 + _pw(T, contract, card)
        if (np.int64(1) << card) & trumps:
            cost += 8
        if cost < best_cost:
            best, best_cost = card, cost
    return best


@hot
def _extreme_power(mask, T, contract, highest):
    best, best_power = -1, 0
    rest = mask
    while rest:
        card = lowest_bit_index(rest)
        rest &= rest - 1
        p = _pw(T, contract, card)
        if best < 0 or (p > best_power if highest else p < best_power):
            best, best_power = card, p
    return best


@hot
def _most_points(mask, T, contract):
    """The card of ``mask`` with the most points (plain cards first): to fill a sure trick."""
    trumps = _suit(T, contract, TRUMP)
    pool = mask & ~trumps if mask & ~trumps else mask
    best, best_value = -1, -(1 << 30)
    rest = pool
    while rest:
        card = lowest_bit_index(rest)
        rest &= rest - 1
        value = _pts(T, card) * 16 - _pw(T, contract, card)
        if value > best_value:
            best, best_value = card, value
    return best


@hot
def void_cards(st, seat, T, contract):
    """Cards ``seat`` has shown it cannot hold: every effective suit it showed a void in."""
    voids = st[S_VOIDS + seat]
    out = np.int64(0)
    for s in range(5):
        if voids >> s & 1:
            out |= _suit(T, contract, s)
    return out


@hot
def _trick_points(st, T):
    total = 0
    for i in range(st[S_N_PLAYED]):
        total += _pts(T, st[S_TRICK + i])
    return total


@hot
def heuristic_card(seat, legal, st, T, params):
    """The heuristic bot's card for ``seat`` (the seat to move) from ``legal`` (the pimc bot
    also asks it to choose among its cards of equal value)."""
    if legal & (legal - 1) == 0:
        return lowest_bit_index(legal)
    contract = st[S_CONTRACT]
    if contract == NULL:
        return _null_card(legal, st, T)
    if seat == st[S_DECLARER]:
        return _declarer_card(legal, st, T, params)
    return _defender_card(legal, st, T, params)


@hot
def _unseen(st, seat):
    """Cards neither held by ``seat`` nor played: in the other two hands or the Skat."""
    return FULL32 & ~st[S_PLAYED] & ~st[S_HAND + seat]


@hot
def _declarer_card(legal, st, T, params):
    contract = st[S_CONTRACT]
    seat = st[S_TO_MOVE]
    trumps = _suit(T, contract, TRUMP)
    unseen = _unseen(st, seat)
    if not st[S_HAND_GAME]:
        unseen &= ~st[S_SKAT]  # he laid the Skat away himself: no defender holds those cards
    # nor a card of a suit both defenders have shown void in (in a Hand game it is in the Skat)
    unseen &= ~(void_cards(st, (seat + 1) % 3, T, contract) & void_cards(st, (seat + 2) % 3, T, contract))
    n = st[S_N_PLAYED]
    if n == 0:
        my_trumps = legal & trumps
        out = unseen & trumps
        if my_trumps and out:
            top = _extreme_power(my_trumps, T, contract, True)
            if _beaters(T, contract, top) & out == 0:
                return top  # the highest trump left: draw
            if popcount(my_trumps) >= params[P_PULL]:
                return _extreme_power(my_trumps, T, contract, False)
        # cash plain masters: in a suit game where the defenders must follow (no trumps out, or
        # nobody void); in a Grand always, since only a jack takes it there and a master kept
        # back is thrown away later (keeping it while jacks were out lost 0.7-1.1 a Grand)
        defenders_void = void_cards(st, (seat + 1) % 3, T, contract) | void_cards(st, (seat + 2) % 3, T, contract)
        for suit in range(4):
            mine = legal & _suit(T, contract, suit)
            if mine == 0:
                continue
            top = _extreme_power(mine, T, contract, True)
            if _beaters(T, contract, top) & unseen & _suit(T, contract, suit) == 0:
                if out == 0 or contract == GRAND or not defenders_void & _suit(T, contract, suit):
                    return top
        plain = legal & ~trumps
        if plain:
            # the cheapest card of his longest plain suit; in a suit game while he holds a
            # trump, of his shortest, to be void there and ruff it later (the shortest in a
            # Grand, where only a jack ruffs, lost 0.65 a Grand: measured)
            best_suit, best_len = 0, -1
            short = contract != GRAND and my_trumps != 0
            for suit in range(4):
                length = popcount(plain & _suit(T, contract, suit))
                if length == 0:
                    continue
                if best_len < 0 or (length < best_len if short else length > best_len):
                    best_suit, best_len = suit, length
            return _lowest(plain & _suit(T, contract, best_suit), T, contract, True)
        return _extreme_power(legal, T, contract, False)
    return _declarer_follow(legal, st, T, params, unseen, n)


@hot
def _declarer_follow(legal, st, T, params, unseen, n):
    """The declarer's card to a defender's lead, second or last to play. Both defenders play
    against him, so every trick he lets go is theirs: he counts what a card he throws gives
    away, and banks points in a trick nobody can take from him."""
    contract = st[S_CONTRACT]
    best = st[S_TRICK + st[S_WIN_POS]]
    beating = legal & _beaters(T, contract, best)
    if beating == 0:
        return _lowest(legal, T, contract, True)
    trumps = _suit(T, contract, TRUMP)
    points = _trick_points(st, T)
    led = eff_suit(T, contract, st[S_TRICK])
    last_defender = (st[S_TO_MOVE] + 1) % 3
    if led != TRUMP and legal & _suit(T, contract, led) == 0:
        # void in the led suit: ruff when the trick is worth a trump, counting the card he
        # would throw instead (a ten thrown is ten points given to the defenders). Second in a
        # suit game he always ruffs: the last defender would smear a ten or an ace on his
        # partner's trick (in a Grand, where a ruff spends a jack, this lost 0.6: measured)
        throw = _lowest(legal, T, contract, True)
        worth = points if (np.int64(1) << throw) & trumps else points + _pts(T, throw)
        if worth < params[P_CONTEST] and (n == 2 or contract == GRAND):
            return throw
        if n == 2:
            # last: the trick is his whatever he ruffs with; bank the trump with the most
            # points (ace, ten) and keep the jacks for control
            bank = beating & ~JACKS_MASK
            if bank:
                return _most_points(bank, T, contract)
            return _extreme_power(beating, T, contract, False)
        # second: the last defender overruffs only if void in the led suit too; while he has
        # not shown that, the lowest trump wins, else the lowest trump nobody can beat
        if not void_cards(st, last_defender, T, contract) & _suit(T, contract, led):
            return _extreme_power(beating, T, contract, False)
        sure = _sure_cards(beating, unseen, T, contract)
        if sure:
            return _extreme_power(sure, T, contract, False)
        # no trump is sure either: ruff low all the same; the trick and the card thrown are
        # lost for certain, the ruff only when the last defender holds a higher trump
        return _extreme_power(beating, T, contract, False)
    plain = beating & ~trumps
    if n == 2:  # last: take it, with the most points the winning cards allow
        if plain:
            return _most_points(plain, T, contract)
        bank = beating & ~JACKS_MASK
        if bank:
            return _most_points(bank, T, contract)
        if points >= params[P_CONTEST]:
            return _extreme_power(beating, T, contract, False)
        return _lowest(legal, T, contract, True)
    # second in a suit game: a plain card no unseen card of the led suit beats wins while the
    # last defender must follow suit (in a Grand this lost 1 list point a game: measured)
    if plain and contract != GRAND and not void_cards(st, last_defender, T, contract) & _suit(T, contract, led):
        suit_sure = _sure_cards(plain, unseen & _suit(T, contract, led), T, contract)
        if suit_sure:
            return _most_points(suit_sure, T, contract)
    sure = _sure_cards(beating, unseen, T, contract)
    if sure:
        return _most_points(sure, T, contract)
    if beating & trumps:  # a trump lead: win it with his lowest trump that does, whatever it holds
        return _extreme_power(beating & trumps, T, contract, False)
    return _lowest(legal, T, contract, True)


@hot
def _sure_cards(cards, unseen, T, contract):
    """The cards of ``cards`` that no unseen card beats."""
    sure = np.int64(0)
    rest = cards
    while rest:
        card = lowest_bit_index(rest)
        rest &= rest - 1
        if _beaters(T, contract, card) & unseen == 0:
            sure |= np.int64(1) << card
    return sure


@kernel
def _follow(legal, st, T, params, unseen, n, hand):
    """Following as a defender whose partner does not hold the trick (the declarer follows
    with `_declarer_follow`)."""
    contract = st[S_CONTRACT]
    best = st[S_TRICK + st[S_WIN_POS]]
    beating = legal & _beaters(T, contract, best)
    trumps = _suit(T, contract, TRUMP)
    points = _trick_points(st, T)
    if beating == 0:
        return _lowest(legal, T, contract, True)
    if n == 2:  # last: take it, with points when following suit
        plain = beating & ~trumps
        if plain:
            return _most_points(plain, T, contract)
        if points >= params[P_CONTEST]:
            return _extreme_power(beating, T, contract, False)
        return _lowest(legal, T, contract, True)
    # second: win when the card is sure against the last player, or the trick is worth it
    sure = _sure_cards(beating, unseen, T, contract)
    if sure:
        return _most_points(sure, T, contract)
    if points >= params[P_CONTEST] and beating & trumps:
        return _extreme_power(beating & trumps, T, contract, False)
    return _lowest(legal, T, contract, True)


@hot
def _defender_card(legal, st, T, params):
    contract = st[S_CONTRACT]
    seat = st[S_TO_MOVE]
    declarer = st[S_DECLARER]
    hand = st[S_HAND + seat]
    trumps = _suit(T, contract, TRUMP)
    unseen = _unseen(st, seat)
    n = st[S_N_PLAYED]
    if n == 0:
        declarer_void = void_cards(st, declarer, T, contract)
        # cash a plain master the declarer must follow
        for suit in range(4):
            mine = legal & _suit(T, contract, suit)
            if mine == 0 or declarer_void & _suit(T, contract, suit):
                continue
            top = _extreme_power(mine, T, contract, True)
            if _beaters(T, contract, top) & unseen & _suit(T, contract, suit) == 0:
                return top
        plain = legal & ~trumps
        if plain:
            # attack the declarer's short suit: one he has shown void in first (he must trump),
            # else our longest; lead low
            for suit in range(4):
                mine = plain & _suit(T, contract, suit)
                if mine and declarer_void & _suit(T, contract, suit) and not declarer_void & trumps:
                    return _lowest(mine, T, contract, True)
            best_suit, best_len = 0, -1
            for suit in range(4):
                length = popcount(plain & _suit(T, contract, suit))
                if length > best_len:
                    best_suit, best_len = suit, length
            return _lowest(plain & _suit(T, contract, best_suit), T, contract, True)
        return _extreme_power(legal, T, contract, False)
    winner = (st[S_LEADER] + st[S_WIN_POS]) % 3
    best = st[S_TRICK + st[S_WIN_POS]]
    if winner != declarer:
        declarer_to_come = n == 1  # the partner led and the declarer plays last
        if not declarer_to_come:
            return _most_points(legal, T, contract)  # schmieren: the trick is ours
        # is the partner's card sure against the declarer?
        danger = _beaters(T, contract, best) & unseen & ~void_cards(st, declarer, T, contract)
        if st[S_OUVERT]:
            danger &= st[S_HAND + declarer]
        if danger == 0:
            return _most_points(legal, T, contract)
        # not sure yet: take it over only with a card the declarer cannot beat, never ruffing
        # the partner's trick; else stay low
        trumps = _suit(T, contract, TRUMP)
        over = legal & _beaters(T, contract, best)
        if eff_suit(T, contract, best) != TRUMP:
            over &= ~trumps
        rest = over
        while rest:
            card = lowest_bit_index(rest)
            rest &= rest - 1
            threat = _beaters(T, contract, card) & unseen & ~void_cards(st, declarer, T, contract)
            if st[S_OUVERT]:
                threat &= st[S_HAND + declarer]
            if threat == 0:
                return card
        return _lowest(legal, T, contract, True)
    return _follow(legal, st, T, params, unseen, n, hand)


@hot
def _null_card(legal, st, T):
    contract = NULL
    seat = st[S_TO_MOVE]
    declarer = st[S_DECLARER]
    n = st[S_N_PLAYED]
    if seat == declarer:
        if n == 0:
            # lead the highest card under every card of its suit the defenders may hold (they
            # must take it), keeping the lower ones; else the lowest card
            out = _unseen(st, seat)
            if not st[S_HAND_GAME]:
                out &= ~st[S_SKAT]  # he laid the Skat away himself
            sure = np.int64(0)
            rest = legal
            while rest:
                card = lowest_bit_index(rest)
                rest &= rest - 1
                suit_out = out & _suit(T, contract, eff_suit(T, contract, card))
                if suit_out and suit_out & _null_under(T, card) == 0:
                    sure |= np.int64(1) << card
            if sure:
                return _extreme_power(sure, T, contract, True)
            return _extreme_power(legal, T, contract, False)
        best = st[S_TRICK + st[S_WIN_POS]]
        led_suit = eff_suit(T, contract, st[S_TRICK])
        if legal & _suit(T, contract, led_suit) == 0:
            return _extreme_power(legal, T, contract, True)  # unblock: shed the highest card
        under = legal & ~_beaters(T, contract, best)
        if under:
            return _extreme_power(under, T, contract, True)
        return _extreme_power(legal, T, contract, False)
    return _null_defence(legal, st, T, seat, declarer, n)


@hot
def _null_under(T, card):
    """The cards of ``card``'s suit that rank under it in Null."""
    return (_suit(T, NULL, eff_suit(T, NULL, card)) & ~_beaters(T, NULL, card)
            & ~(np.int64(1) << card))


@hot
def _null_defence(legal, st, T, seat, declarer, n):
    """A Null defender's card. The defenders win by making the declarer take a trick: he is
    caught when the suit is led under his lowest card of it and nobody plays between that card
    and his; while he can, he ducks under the trick's top card with his highest card below it.
    So the defenders' low cards are their weapons and their high cards, played beside a low
    lead, are what lets him duck. In Null Ouvert his hand is open, and the rules read it."""
    contract = NULL
    ouvert = st[S_OUVERT] != 0
    his = st[S_HAND + declarer] if ouvert else np.int64(0)
    partner = 3 - seat - declarer
    declarer_void = void_cards(st, declarer, T, contract)
    if n == 0:
        if ouvert:
            card = _null_ouvert_lead(legal, st, T, seat, partner, his)
            if card >= 0:
                return card
        best_suit, best_len = -1, 99
        for suit in range(4):
            mine = legal & _suit(T, contract, suit)
            length = popcount(mine)
            if length and length < best_len and not declarer_void & _suit(T, contract, suit):
                best_suit, best_len = suit, length
        if best_suit < 0:
            return _extreme_power(legal, T, contract, False)
        return _extreme_power(legal & _suit(T, contract, best_suit), T, contract, False)
    winner = (st[S_LEADER] + st[S_WIN_POS]) % 3
    best = st[S_TRICK + st[S_WIN_POS]]
    led_suit = eff_suit(T, contract, st[S_TRICK])
    if legal & _suit(T, contract, led_suit) == 0:
        return _extreme_power(legal, T, contract, True)  # a discard: our highest card
    if winner == declarer:
        under = legal & ~_beaters(T, contract, best)
        if under:
            return _extreme_power(under, T, contract, True)  # stay under him
        return _extreme_power(legal, T, contract, True)
    if n == 2:
        # he ducked: the trick is ours; shed our highest card, the low ones are the weapons
        return _extreme_power(legal, T, contract, True)
    # the partner led and the declarer plays last: he ducks under the higher of our two cards,
    # so stay under the partner's card (and, against an open hand, under his lowest card)
    top = best
    if ouvert:
        his_suit = his & _suit(T, contract, led_suit)
        if his_suit:
            his_low = _extreme_power(his_suit, T, contract, False)
            if _beaters(T, contract, best) & (np.int64(1) << his_low):
                top = his_low
    under = legal & _null_under(T, top)
    if under:
        return _extreme_power(under, T, contract, True)
    return _extreme_power(legal, T, contract, False)


@hot
def _null_ouvert_lead(legal, st, T, seat, partner, his):
    """Our lead against an open hand (-1: none found).

    First a lead under the declarer's lowest card of a suit (he cannot duck it) where the
    partner holds no card over that card of his (he takes the trick for sure), else where the
    partner may hold one under it. A catch where the partner may be forced over his card comes
    only after a suit that catches him within two leads (`_null_rounds`); else that suit, the
    shorter for us on a tie (measured: scripts/skat_null_defence.py, in the commit)."""
    contract = NULL
    partner_may = _unseen(st, seat) & ~his & ~void_cards(st, partner, T, contract)
    likely, risky = -1, -1
    for suit in range(4):
        mine = legal & _suit(T, contract, suit)
        his_suit = his & _suit(T, contract, suit)
        if mine == 0 or his_suit == 0:
            continue
        low = _extreme_power(mine, T, contract, False)
        his_low = _extreme_power(his_suit, T, contract, False)
        if his_suit & _null_under(T, low):
            continue  # he can duck under our lowest card
        partners = partner_may & _suit(T, contract, suit)
        if partners & _beaters(T, contract, his_low) == 0:
            return low  # the partner holds nothing over his lowest card: he takes this trick
        if likely < 0 and partners & _null_under(T, his_low):
            likely = low  # the partner may hold a card to play under his
        if risky < 0:
            risky = low  # the partner's cards may all be over his: he would take the trick
    if likely >= 0:
        return likely
    # no catch yet: the suit where the defenders' low cards, led one by one, catch him soonest
    best_card, best_rounds, best_len = -1, 99, 99
    for suit in range(4):
        mine = legal & _suit(T, contract, suit)
        his_suit = his & _suit(T, contract, suit)
        if mine == 0 or his_suit == 0:
            continue
        rounds = _null_rounds(T, mine | (partner_may & _suit(T, contract, suit)), his_suit)
        length = popcount(mine)
        if rounds < best_rounds or rounds == best_rounds and length < best_len:
            best_card = _extreme_power(mine, T, contract, False)
            best_rounds, best_len = rounds, length
    if risky >= 0 and best_rounds > 2:
        return risky
    return best_card


@hot
def _null_rounds(T, ours, his):
    """In how many leads of a suit the declarer is caught (99: never) when the defenders
    (``ours``: their cards of it) lead their lowest card each time, he ducks with his highest
    card under it, and the third card is the defenders' highest."""
    rounds = 0
    while his and ours:
        rounds += 1
        top = _extreme_power(ours, T, NULL, False)
        ours &= ~(np.int64(1) << top)
        below = his & _null_under(T, top)
        if below == 0:
            return rounds
        his &= ~(np.int64(1) << _extreme_power(below, T, NULL, True))
        if ours:
            ours &= ~(np.int64(1) << _extreme_power(ours, T, NULL, True))
    return 99
