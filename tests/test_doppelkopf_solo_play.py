"""Doppelkopf solo play (bots.py, module docstring "Solo play"): one golden position per rule,
in card codes, with the card the heuristic plays there."""

import simcards

GAME = simcards.load("doppelkopf")

# A queen solo of seat 0 (trumps: the eight queens), forehand (seat 0) to lead: the soloist
# holds six queens and three plain aces; seats 1 and 2 hold one queen of diamonds each.
DRAW = [["QC", "QC", "QS", "QS", "QH", "QH", "AH", "AS", "AD", "10C", "9S", "9D"],
        ["QD", "9C", "9C", "JC", "JC", "10D", "10D", "9H", "9H", "10S", "10S", "JS"],
        ["QD", "10C", "KC", "KC", "JD", "JD", "10H", "10H", "JH", "JH", "KS", "KS"],
        ["AC", "AC", "9D", "KD", "KD", "AD", "KH", "KH", "AH", "9S", "JS", "AS"]]

# A queen solo of seat 2; seat 1 (forehand) leads. The soloist has no hearts.
RUFF = [["QS", "QH", "QH", "KC", "10S", "JS", "KS", "KS", "10D", "JD", "KD", "KD"],
        ["AH", "9H", "10H", "JH", "KH", "9C", "10C", "JC", "9S", "10S", "9D", "10D"],
        ["QC", "QC", "QS", "QD", "QD", "AC", "AC", "AS", "AS", "AD", "AD", "10C"],
        ["AH", "9H", "10H", "JH", "KH", "9C", "JC", "KC", "9S", "JS", "9D", "JD"]]


def solo(hands, declarer, dealer, game_type="queen_solo"):
    return GAME.deal(hands=hands, dealer=dealer, game_type=game_type, declarer=declarer)


def test_the_soloist_draws_trumps_while_the_defenders_hold_some():
    state = solo(DRAW, declarer=0, dealer=3)
    assert state.suggest() in ("QC", "QS", "QH")  # a queen nobody can beat


def test_the_soloist_stops_drawing_once_the_defenders_are_out_of_trumps():
    state = solo(DRAW, declarer=0, dealer=3)
    for card in ("QC", "QD", "QD", "AC"):  # both defenders' queens fall to the first trick
        state.play(card)
    assert state.last_winner == 0
    # the old play led its queens to the end; now its aces win: nobody can ruff them
    assert state.suggest() in ("AH", "AS", "AD")


def test_with_far_fewer_trumps_than_the_defenders_the_soloist_keeps_its_top_trump():
    hands = [["QC", "QS", "AH", "AH", "AS", "AS", "AD", "AD", "AC", "AC", "10C", "10C"],
             ["QC", "QS", "QH", "9C", "JC", "KC", "9D", "10D", "9H", "10H", "9S", "10S"],
             ["QH", "QD", "9C", "JC", "KC", "9D", "10D", "JD", "9H", "10H", "JH", "9S"],
             ["QD", "JD", "KD", "KD", "JH", "KH", "KH", "10S", "JS", "JS", "KS", "KS"]]
    state = solo(hands, declarer=0, dealer=3)
    # two queens against six (2 < 6 + solo_draw_margin): an ace, not the club queen
    assert state.suggest() in ("AH", "AS", "AD", "AC")
    assert solo(hands, 0, 3).suggest(params={"solo_draw_margin": -10}) == "QC"


def test_the_soloist_ruffs_a_plain_lead_with_its_cheapest_winning_trump():
    state = solo(RUFF, declarer=2, dealer=0)
    state.play("AH")
    # nine hearts unseen, two defenders still to follow suit: the queen of diamonds will hold
    # (the old play took the 11 Augen with the cheapest queen nobody could beat)
    assert state.suggest() == "QD"
    assert state.suggest(params={"solo_ruff_cards": 99}) == "QS"


def test_a_defender_leads_a_plain_winner_not_its_trumps():
    # seat 2 plays a queen solo; seat 0 (forehand) defends with six queens, the top ones
    hands = [["QC", "QC", "QS", "QS", "QH", "QH", "AH", "KC", "10S", "JS", "KD", "KD"],
             ["QD", "9H", "10H", "JH", "KH", "9C", "10C", "JC", "9S", "10S", "9D", "10D"],
             ["QD", "AC", "AC", "AS", "AS", "AD", "AD", "10C", "JD", "JD", "KS", "KS"],
             ["AH", "9H", "10H", "JH", "KH", "10D", "9C", "JC", "KC", "9S", "JS", "9D"]]
    state = solo(hands, declarer=2, dealer=3)
    assert state.to_move == 0
    # the old play drew trumps with six of them; a defender now cashes its ace of hearts
    assert state.suggest() == "AH"


def test_a_defender_adds_its_augen_once_the_soloist_has_played():
    hands = [["QD", "9C", "9C", "JC", "JC", "KC", "9H", "9H", "JH", "9S", "9S", "JS"],
             ["KH", "QC", "QS", "10C", "AC", "9D", "10D", "JD", "10S", "KS", "AS", "KD"],
             ["AH", "10H", "JH", "QC", "QS", "QH", "10C", "KC", "9D", "10D", "10S", "KS"],
             ["QH", "QD", "AC", "10H", "KH", "AH", "JS", "AS", "JD", "KD", "AD", "AD"]]
    state = solo(hands, declarer=0, dealer=3)
    state.play("9H")     # the soloist leads
    state.play("KH")     # a defender wins it for now; an ace or ten of hearts could still beat it
    # only seat 3, a partner, plays after seat 2: the old play kept its ace (JH), now it adds it
    assert state.suggest() == "AH"
