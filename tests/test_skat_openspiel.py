"""Cross-check against OpenSpiel's ``skat``: random deals of mixed contracts played card by card
in both engines with the same deal, declarer, contract and discard; the player to move, the
legal cards at every step, every trick winner, the end of a Null at the declarer's first trick
and the final card points must agree (mapping: simcards/games/skat/openspiel_ref.py)."""

import pytest

pyspiel = pytest.importorskip("pyspiel")

from simcards.games.skat import openspiel_ref as ref  # noqa: E402


def test_card_mapping_round_trips():
    assert [ref.our_card(ref.os_card(c)) for c in range(32)] == list(range(32))
    assert ref.os_card(0 * 8 + 4) == 3 * 8 + 7  # JC: OpenSpiel clubs (3), jack (7)
    assert ref.os_card(1 * 8 + 3) == 0 * 8 + 5  # 10D: diamonds (0), ten (5)


def test_2000_random_games_of_mixed_contracts_agree_with_openspiel():
    steps = []
    problems = ref.cross_check(2000, seed=2024, steps=steps)
    assert problems == []
    assert len(steps) == 2000
    full = [s for g, s in enumerate(steps) if g % 6 != 5]
    assert full == [30] * len(full)  # every card of every suit and Grand game was compared
    nulls = [s for g, s in enumerate(steps) if g % 6 == 5]
    assert min(nulls) < 30 and max(nulls) == 30  # stopped Nulls and Nulls played out


def test_a_rule_mismatch_is_caught(monkeypatch):
    """The check has teeth: swapping the ten and the king in the mapping must disagree."""
    monkeypatch.setattr(ref, "OS_RANK", (0, 1, 2, 4, 7, 3, 5, 6))
    monkeypatch.setattr(ref, "OUR_RANK", tuple((0, 1, 2, 4, 7, 3, 5, 6).index(r) for r in range(8)))
    assert ref.cross_check(60, seed=1) != []


def test_openspiel_bench_runs():
    assert ref.bench_openspiel_skat(3) > 0
    assert ref.bench_openspiel_skat(0.05) > 0
