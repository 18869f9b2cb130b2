"""The Skat heuristic declarer's card play: golden positions written as card codes, one for each
rule of `heuristic._declarer_card` / `_declarer_follow` (the measured gain of each rule is in
the commit that added it: scripts/skat_play_ab.py)."""

import simcards

GAME = simcards.load("skat")


def _play(hands, skat, *, declarer, contract, cards=(), dealer=0, hand=False, bid=18):
    """A declared game after ``cards`` (dealer 0: forehand is seat 1 and leads); unless it is
    a ``hand`` game, the declarer laid the Skat he picked up away again."""
    state = GAME.deal(hands=hands, skat=skat, dealer=dealer, declarer=declarer, contract=contract,
                      hand=hand, discard=None if hand else skat, bid=bid)
    for code in cards:
        state.play(code)
    assert state.to_move == declarer
    return state


def test_the_declarer_knows_the_skat_he_laid_away():
    # Grand with all four jacks: AH is in his Skat, so his 10H is the master of hearts and he
    # cashes it (he used to think a defender might hold AH, and led a low club)
    hands = [["AC", "10C", "KC", "QC", "7C", "AD", "10D", "KD", "QD", "7D"],
             ["JC", "JS", "JH", "JD", "10H", "KH", "9C", "8C", "9D", "8D"],
             ["QH", "9H", "8H", "7H", "AS", "10S", "KS", "QS", "9S", "8S"]]
    state = _play(hands, ["AH", "7S"], declarer=1, contract="grand")
    assert state.suggest() == "10H"


def test_last_to_play_he_ruffs_with_the_trump_that_banks_the_most_points():
    # Hearts, rearhand declares; AS and 10S led to him, void in spades: the trick is his with
    # any trump, so the trump ace goes in (it used to be the 7H, and the ace fell to a jack later)
    hands = [["JD", "AH", "7H", "AC", "KC", "QC", "AD", "KD", "QD", "9D"],
             ["AS", "KS", "QS", "JC", "JS", "10H", "KH", "10C", "9C", "10D"],
             ["10S", "9S", "8S", "7S", "JH", "QH", "9H", "8H", "8D", "7D"]]
    state = _play(hands, ["7C", "8C"], declarer=0, contract="hearts", cards=("AS", "10S"))
    assert state.suggest() == "AH"


def test_a_ruff_counts_the_ten_he_would_throw_instead():
    # Hearts, rearhand declares; 7S and 8S (no points) led to him, void in spades, his plain
    # cards aces and tens: throwing one gives ten points away, so he ruffs (with the trump of
    # the most points that is not a jack); he used to throw 10C
    hands = [["JD", "JH", "7H", "8H", "9H", "KH", "10C", "AC", "10D", "AD"],
             ["7S", "AS", "10S", "KS", "JC", "JS", "AH", "KC", "QC", "9C"],
             ["8S", "QS", "9S", "10H", "QH", "8C", "KD", "QD", "9D", "8D"]]
    state = _play(hands, ["7C", "7D"], declarer=0, contract="hearts", cards=("7S", "8S"))
    assert state.suggest() == "KH"


def test_last_to_play_on_a_trump_lead_he_wins_with_points_and_keeps_the_jack():
    # Hearts, rearhand declares; 8H and 9H led, he holds JC and AH: both win, the ace banks
    # eleven points and the jack stays for control (he used to play JC, the fewer points)
    hands = [["JC", "AH", "AC", "KC", "QC", "AD", "KD", "QD", "AS", "KS"],
             ["8H", "JS", "JH", "JD", "10H", "KH", "10C", "9C", "10D", "9D"],
             ["9H", "QH", "7H", "10S", "QS", "9S", "8S", "7S", "8D", "7D"]]
    state = _play(hands, ["7C", "8C"], declarer=0, contract="hearts", cards=("8H", "9H"))
    assert state.suggest() == "AH"


def test_second_in_a_suit_game_he_wins_with_the_master_of_the_led_suit():
    # Hearts, middlehand declares; 9C led: his AC wins unless the last defender is void in clubs,
    # which he has not shown; he takes it (he used to duck with 7C while trumps were out)
    hands = [["QC", "QH", "9H", "8H", "7H", "7D", "QS", "9S", "8S", "7S"],
             ["9C", "10C", "KC", "JH", "JD", "KH", "10D", "9D", "10S", "KS"],
             ["AC", "7C", "JC", "JS", "AH", "10H", "AS", "AD", "KD", "QD"]]
    state = _play(hands, ["8C", "8D"], declarer=2, contract="hearts", cards=("9C",))
    assert state.suggest() == "AC"


def test_second_in_a_grand_he_ducks_a_low_lead_while_jacks_are_out():
    # the rule above is for suit games only: in a Grand (it lost a list point a game there) the
    # declarer second to a low club, holding AC and 7C with jacks out, ducks
    hands = [["QC", "QH", "9H", "8H", "7H", "7D", "QS", "9S", "8S", "7S"],
             ["9C", "10C", "KC", "JH", "JD", "KH", "10D", "9D", "10S", "KS"],
             ["AC", "7C", "JC", "JS", "AH", "10H", "AS", "AD", "KD", "QD"]]
    state = _play(hands, ["8C", "8D"], declarer=2, contract="grand", cards=("9C",))
    assert state.suggest() == "7C"


def test_a_suit_both_defenders_showed_void_in_is_not_out():
    # Hand Clubs: both defenders showed no trump on his JS, so the 7C he has not seen lies in
    # the Skat; no trump is out, and he cashes his AS instead of drawing a trump nobody holds
    # (without the rule he leads JH)
    hands = [["8S", "7S", "8H", "7H", "AD", "10D", "KD", "QD", "9D", "8D"],
             ["JC", "JS", "JH", "JD", "AC", "10C", "KC", "QC", "9C", "AS"],
             ["8C", "10S", "KS", "QS", "9S", "AH", "10H", "KH", "QH", "9H"]]
    state = _play(hands, ["7C", "7D"], declarer=1, contract="clubs", hand=True,
                  cards=("JC", "8C", "8D", "JS", "9H", "9D"))
    assert state.suggest() == "AS"


def test_in_a_grand_he_cashes_a_master_when_no_trump_is_out():
    # Hand Grand (deal 1905 of seed 15): both defenders showed no trump on his JS, so the JH
    # he has not seen lies in the Skat; after his aces the 10S is a master to cash (he used
    # to fear a ruff and lead 7D, and the defenders took the last four tricks). The Grand's
    # cash-masters rule now decides it too
    hands = [["JC", "AC", "7D", "8D", "AD", "AH", "10S", "JS", "KS", "AS"],
             ["8C", "9D", "JD", "KD", "8H", "QH", "KH", "7S", "9S", "QS"],
             ["7C", "10C", "QC", "KC", "10D", "QD", "7H", "9H", "10H", "8S"]]
    cards = ("8H", "7H", "AH", "JC", "JD", "7C", "JS", "7S", "8S", "AC", "8C", "QC",
             "AD", "9D", "QD", "AS", "9S", "9H")
    state = _play(hands, ["9C", "JH"], declarer=0, contract="grand", cards=cards, hand=True, bid=24)
    assert state.suggest() == "10S"


def test_second_and_void_he_ruffs_even_when_the_last_defender_may_overruff():
    # Hand Grand (deal 2098 of seed 15): spades led again, he is void and the last defender
    # too; no jack of his is sure (JC is out), but throwing gives the 10S and his card away
    # for certain: he ruffs low (the void rule's first form threw QC, then QH, 10D and AC to
    # the next spades; main's declarer ruffed here too, as a trick worth contest_points)
    hands = [["QC", "AC", "10D", "JD", "AD", "JH", "QH", "AH", "9S", "JS"],
             ["7C", "8C", "KC", "7D", "9D", "QD", "7H", "8H", "9H", "10H"],
             ["10C", "JC", "KD", "KH", "7S", "8S", "10S", "QS", "KS", "AS"]]
    state = _play(hands, ["9C", "8D"], declarer=0, contract="grand", cards=("AS", "9S", "10H", "10S"),
                  dealer=1, hand=True, bid=23)
    assert state.suggest() == "JD"


def test_second_and_void_in_a_suit_game_he_ruffs_a_trick_of_no_points():
    # Hearts, middlehand declares; 7S led, he is void in spades: the last defender would smear
    # a ten or an ace on his partner's trick, so he ruffs low (the void rule's first form threw
    # 7C; main's declarer ruffed with JS, a jack nobody could beat)
    hands = [["QS", "9S", "8S", "QC", "9C", "KH", "QH", "9H", "8H", "7D"],
             ["7S", "AS", "10S", "KS", "10C", "KC", "JH", "JD", "10D", "9D"],
             ["JC", "JS", "AH", "10H", "7H", "AC", "7C", "AD", "KD", "QD"]]
    state = _play(hands, ["8C", "8D"], declarer=2, contract="hearts", cards=("7S",))
    assert state.suggest() == "7H"


def test_second_on_a_trump_lead_he_wins_with_his_lowest_trump_that_does():
    # Hearts, middlehand declares; 9H led (no points): QH wins unless the last defender holds a
    # higher trump, 8H never does; he plays QH (he used to play 8H on a trick under 4 points)
    hands = [["JS", "JH", "KH", "7H", "8C", "9S", "8S", "7S", "9D", "8D"],
             ["9H", "JC", "AH", "10H", "QC", "9C", "KS", "QS", "10D", "QD"],
             ["8H", "QH", "JD", "AC", "10C", "KC", "AS", "10S", "AD", "KD"]]
    state = _play(hands, ["7C", "7D"], declarer=2, contract="hearts", cards=("9H",))
    assert state.suggest() == "QH"


def test_with_trumps_left_in_a_suit_game_he_leads_his_shortest_plain_suit():
    # Hearts, forehand declares with JD 7H: no trump to draw, no master to cash; he leads his
    # lone 7C to be void in clubs and ruff them later (he used to lead 8S, his longest suit)
    hands = [["JC", "JS", "AC", "10C", "KC", "QC", "9C", "AH", "10H", "KH"],
             ["JD", "7H", "KS", "QS", "9S", "8S", "7C", "KD", "QD", "9D"],
             ["8C", "AS", "10S", "JH", "QH", "9H", "8H", "AD", "10D", "8D"]]
    state = _play(hands, ["7S", "7D"], declarer=1, contract="hearts")
    assert state.suggest() == "7C"


def test_in_a_grand_he_cashes_a_master_even_where_a_defender_is_void():
    # Grand, forehand declares with JD; AD took the first trick, rearhand void in diamonds:
    # 10D is the master and he cashes it; a void defender can only take it with a jack (he used
    # to keep it while jacks were out, and led 9C)
    hands = [["AC", "10C", "8C", "7C", "AH", "10H", "8H", "7H", "QS", "9S"],
             ["JD", "AD", "10D", "9D", "KC", "QC", "9C", "KH", "QH", "9H"],
             ["JC", "JS", "JH", "KD", "QD", "8D", "7D", "AS", "10S", "KS"]]
    state = _play(hands, ["7S", "8S"], declarer=1, contract="grand", cards=("AD", "7D", "7C"))
    assert state.suggest() == "10D"
