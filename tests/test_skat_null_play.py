"""The Skat heuristic's Null play: golden positions written as card codes, one for each rule of
`heuristic._null_defence` / `_null_ouvert_lead` (the measured gain of each rule is in the
commit that added it: scripts/skat_null_defence.py)."""

import simcards

GAME = simcards.load("skat")


def _null(hands, skat, *, declarer, cards=(), ouvert=True):
    """A Null (Ouvert) game, dealer 0 (forehand, seat 1, leads), after ``cards``; the declarer
    laid the Skat he picked up away again."""
    state = GAME.deal(hands=[h.split() for h in hands], skat=skat.split(), dealer=0,
                      declarer=declarer, contract="null", ouvert=ouvert, discard=skat.split(),
                      bid=46 if ouvert else 23)
    for code in cards:
        state.play(code)
    return state


def test_the_lead_under_his_lowest_card_goes_where_the_partner_cannot_cover_it():
    # Null Ouvert, seat 2 declares and plays second: 7C and 7D are both under his lowest card
    # of their suit, but the partner holds only clubs over his 8C (he would have to cover it),
    # and no diamond: 7D makes him take the trick (it used to be 7C, the first suit)
    state = _null(["JC QC KC AC QH KH AH 10S JS QS",
                   "7C 10C 7D 10D JD QD KD AD 10H JH",
                   "8C 9C 8D 9D 7H 8H 9H 7S 8S 9S"], "KS AS", declarer=2)
    assert state.to_move == 1
    assert state.suggest() == "7D"


def test_with_no_catch_the_lead_goes_to_the_suit_that_catches_him_soonest():
    # Null Ouvert, seat 2 declares: no card of ours is under his lowest of its suit. 8S then
    # 9S catches his 7S 10S on the second lead (he ducks the first with 7S); the shortest suit
    # (10C against his 7C 8C 9C) never does. It used to be 10C
    state = _null(["JC QC KC AC 7D 8D 9D QH KH AH",
                   "10C 8S 9S JS 10D JD QD KD AD JH",
                   "7C 8C 9C 7H 8H 9H 10H 7S 10S QS"], "KS AS", declarer=2)
    assert state.to_move == 1
    assert state.suggest() == "8S"


def test_second_before_the_declarer_we_stay_under_the_partners_lead():
    # Null Ouvert, seat 0 declares and plays last: the partner leads 10H, which the declarer
    # can duck (8H). Our 9H stays under it and keeps 7H, the lead under his 8H, for later (we
    # used to play our lowest card, 7H)
    state = _null(["8H QH 7C 8C 9C 7D 8D 9D 7S 8S",
                   "10H 10C JC QC KC 10D JD QD 9S 10S",
                   "7H 9H KH AC KD AD JH JS QS KS"], "AH AS", declarer=0, cards=("10H",))
    assert state.to_move == 2
    assert state.suggest() == "9H"


def test_third_after_the_declarer_ducked_we_shed_our_highest_card():
    # Null Ouvert, seat 2 declares and plays second: 10H led, he ducks with 8H; the trick is
    # ours whatever we play, so AH goes and 7H stays as a lead under his next heart (we used
    # to play the lowest card, 7H)
    state = _null(["7H 9H AH 7C 8C 9C 7D 8D 9D 7S",
                   "10H JH QH 10C JC QC 10D JD QD 10S",
                   "8H KH KC AC KD AD 8S 9S JS QS"], "KS AS", declarer=2, cards=("10H", "8H"))
    assert state.to_move == 0
    assert state.suggest() == "AH"


def test_the_declarer_leads_his_highest_card_under_all_the_defenders_cards_of_its_suit():
    # Null Ouvert, seat 1 declares and leads: 7C 8C 9C are all under every club the defenders
    # may hold (his Skat, KD AD, is his), so 9C is a sure exit and 7C stays for later; 10D is
    # not (9D is out). He used to lead his lowest card, 7C
    state = _null(["10C JC QC 9S 10S JS 9H 10H JH 9D",
                   "7C 8C 9C 7S 8S 7H 8H 7D 8D 10D",
                   "KC AC QS KS AS QH KH AH JD QD"], "KD AD", declarer=1)
    assert state.to_move == 1
    assert state.suggest() == "9C"
