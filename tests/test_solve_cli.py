"""`simcards solve`: perfect play from a deal or position given on the command line, checked
against the Python solvers (themselves checked against brute-force minimax in test_klaverjas_solver.py
and test_skat_solver.py) and on a golden hand whose value follows from the cards."""

from __future__ import annotations

import pytest

import simcards
from simcards.cli import main
from simcards.games.klaverjas import solve as klaverjas_solve
from simcards.games.skat import solve as skat_solve

# seat 0 holds every heart: with hearts trump, team 0 takes every trick whatever anyone plays
ALL_TRUMPS = ["JH 9H AH 10H KH QH 8H 7H", "AC 10C KC QC JC 9C 8C 7C",
              "AD 10D KD QD JD 9D 8D 7D", "AS 10S KS QS JS 9S 8S 7S"]


def _solve(capsys, *args) -> tuple[int, str, str]:
    code = main(["solve", *map(str, args)])
    out = capsys.readouterr()
    return code, out.out, out.err


def _findings(stdout: str) -> dict[str, str]:
    """The lines after "perfect play from here", label -> value."""
    tail = stdout.split("perfect play from here", 1)[1].splitlines()[1:]
    return dict(line.strip().rsplit(": ", 1) for line in tail)  # labels may hold ": "


def test_a_golden_hand_every_trump_in_one_hand(capsys):
    """Team 0 takes all 162 card points and the pit bonus (100) whatever is played; the
    defenders can keep every four of a kind out of the tricks (each holds one suit), so the
    margin is 262 after every card."""
    code, out, _ = _solve(capsys, "klaverjas-rotterdam", "--hands", *ALL_TRUMPS,
                          "--deal", "trump=H", "--deal", "declarer=0", "--deal", "dealer=0")
    assert code == 0
    f = _findings(out)
    assert f["final margin of the declaring team (team 0: seats 0 and 2)"] == "262"
    assert f["the declaring team is nat"] == "no"
    assert f["best cards for seat 1"] == "7C 8C 9C 10C JC QC KC AC"
    assert f["final margin after each legal card"] == ", ".join(
        f"{c} 262" for c in "7C 8C 9C 10C JC QC KC AC".split())
    assert f["card points on one perfect line (team 0, team 1)"] == "162, 0"
    assert "seat 0: 7H 8H 9H 10H JH QH KH AH" in out
    assert "seat 1 to play; legal: 7C 8C 9C 10C JC QC KC AC" in out


@pytest.mark.parametrize("name", ["klaverjas-rotterdam", "kraken-contra"])
def test_a_position_after_played_cards_matches_the_python_solver(capsys, name):
    game = simcards.load(name)
    state = game.deal(seed=3, index=2)
    first = state.legal_moves()[0]
    state.play(first)
    second = state.legal_moves()[-1]
    state.play(second)
    want = klaverjas_solve(state, values=True)
    code, out, err = _solve(capsys, name, "--seed", 3, "--index", 2, "--play", f"{first} {second}")
    assert code == 0 and "solving with all hands open" in err
    f = _findings(out)
    team = state.declarer & 1
    assert f[f"final margin of the declaring team (team {team}: seats {team} and {team + 2})"] == str(want.margin)
    assert f[f"best cards for seat {state.to_move}"] == " ".join(want.best)
    assert f["final margin after each legal card"] == ", ".join(f"{c} {v}" for c, v in want.values.items())
    assert f["the declaring team is nat"] == ("yes" if want.nat else "no")
    assert f"trick so far: {first} {second}" in out
    assert "2 cards played" in out


def test_a_skat_game_matches_the_python_solver(capsys):
    game = simcards.load("skat")
    state = game.deal(seed=1, index=4)  # spades, declared by the bots
    first = state.legal_moves()[0]
    state.play(first)
    want = skat_solve(state, values=True)
    code, out, _ = _solve(capsys, "skat", "--seed", 1, "--index", 4, "--play", first)
    assert code == 0
    f = _findings(out)
    assert f["the declarer's final card points (the Skat included)"] == str(want.points)
    assert f["the declarer wins the game"] == ("yes" if want.wins else "no")
    assert f[f"best cards for seat {state.to_move}"] == " ".join(want.best)
    assert "1 card played" in out


def test_a_skat_null_game_declared_on_the_command_line(capsys):
    code, out, _ = _solve(capsys, "skat", "--seed", 1, "--index", 4, "--deal", "contract=null",
                          "--deal", "bid=23", "--deal", "hand=true")
    assert code == 0 and "null by seat 2 at 23" in out
    state = simcards.load("skat").deal(seed=1, index=4, contract="null", bid=23, hand=True)
    want = skat_solve(state, values=True)
    f = _findings(out)
    assert f["the declarer wins the Null game (takes no trick)"] == ("yes" if want.wins else "no")
    assert f["after each legal card (1: the declarer still wins)"] == ", ".join(
        f"{c} {v}" for c, v in want.values.items())


@pytest.mark.parametrize("args, needles", [
    (["hartenjagen", "--seed", "1", "--index", "0"],
     ["simcards solve", "hartenjagen has no double-dummy solver", "klaverjas-rotterdam", "skat"]),
    (["klaverjas-rotterdam", "--seed", "1", "--index", "0", "--deal", "colour=H"],
     ["--deal colour", "settings: dealer, trump, declarer"]),
    (["klaverjas-rotterdam", "--seed", "1", "--index", "0", "--deal", "trump"], ["--deal 'trump'", "KEY=VALUE"]),
    (["klaverjas-rotterdam", "--seed", "1", "--index", "0", "--play", "7H"],
     ["--play 7H", "is not in the hand of seat 1", "legal: 10C"]),
    (["klaverjas-rotterdam", "--seed", "1"], ["--hands", "--seed S --index I"]),
    (["klaverjas-rotterdam", "--seed", "1", "--index", "0", "--hands", *ALL_TRUMPS], ["either as --hands"]),
    (["klaverjas-rotterdam", "--hands", *ALL_TRUMPS[:3]], ["--hands: give 4 hands", "got 3"]),
    (["klaverjas-rotterdam", "--seed", "1", "--index", "0", "--rule", "table_roem=maybe"],
     ["table_roem", "true or false"]),
    (["skat", "--hands", "JC", "JS", "JH"], ["hand 0 has 1 cards", "10"]),
    (["kraken-contra", "--seed", "3", "--index", "2", "--rule", "hand_roem_suit_order=S,H,C"],
     ["hand_roem_suit_order", "the four suits"]),
    (["no-such-game", "--seed", "1", "--index", "0"], ["unknown ruleset", "klaverjas-rotterdam"]),
])
def test_bad_input_is_refused_with_exit_2(capsys, args, needles):
    code, out, err = _solve(capsys, *args)
    assert code == 2, (out, err)
    assert err.startswith("simcards: error: ") and "Traceback" not in err
    for needle in needles:
        assert needle in err, (needle, err)


def test_rule_options_reach_the_solver(capsys):
    """``--rule`` sets the ruleset's options, a list option from space-separated items."""
    code, out, _ = _solve(capsys, "klaverjas-rotterdam", "--hands", *ALL_TRUMPS, "--deal", "trump=H",
                          "--deal", "declarer=0", "--rule", "table_roem=false", "--rule", "pit_bonus=0")
    assert code == 0
    assert _findings(out)["final margin of the declaring team (team 0: seats 0 and 2)"] == "162"
    code, out, _ = _solve(capsys, "kraken-contra", "--seed", 3, "--index", 2,
                          "--rule", "hand_roem_suit_order=H S C D")
    game = simcards.load("kraken-contra", hand_roem_suit_order=["H", "S", "C", "D"])
    want = klaverjas_solve(game.deal(seed=3, index=2))
    assert code == 0 and f": {want.margin}\n" in out


def test_solving_after_the_last_card_is_refused(capsys):
    state = simcards.load("klaverjas-rotterdam").deal(seed=1, index=0)
    cards = []
    while not state.is_over:
        cards.append(state.legal_moves()[0])
        state.play(cards[-1])
    code, _, err = _solve(capsys, "klaverjas-rotterdam", "--seed", 1, "--index", 0, "--play", " ".join(cards))
    assert code == 2 and "no card play left to solve" in err
    code, _, err = _solve(capsys, "klaverjas-rotterdam", "--seed", 1, "--index", 0, "--play", " ".join(cards + ["AH"]))
    assert code == 2 and "--play AH: the deal is over before this card" in err
