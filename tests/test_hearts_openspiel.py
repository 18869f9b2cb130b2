"""Cross-check against OpenSpiel's ``hearts``: random deals replayed card by card in both
engines; the legal moves at every step and the points at the end must agree.

Option mapping (simcards/games/hearts/openspiel_ref.py): pass_cards <- passing,
no_pts_on_first_trick <- no_points_first_trick, must_break_hearts <- must_break_hearts,
qs_breaks_hearts <- qs_breaks_hearts; jd_bonus, avoid_all_tricks_bonus, can_lead_any_club and
can_lead_hearts_instead_of_qs are off. OpenSpiel's points equal our deal score with
moon = "others" (a moon gives each opponent 26, the shooter 0).
"""

import pytest

pyspiel = pytest.importorskip("pyspiel")

from simcards.games.hearts.openspiel_ref import (  # noqa: E402
    bench_openspiel_hearts,
    cross_check,
    load_openspiel_hearts,
    openspiel_params,
    os_action,
    our_card,
)


def test_card_mapping_round_trips():
    assert [our_card(os_action(c)) for c in range(52)] == list(range(52))
    assert os_action(0) == 0  # 2C
    assert os_action(3 * 13 + 10) == 10 * 4 + 3  # QS


def test_openspiel_game_has_the_matched_parameters():
    game = load_openspiel_hearts(passing=False)
    params = game.get_parameters()
    assert params["pass_cards"] is False
    for key in ("jd_bonus", "avoid_all_tricks_bonus", "qs_breaks_hearts", "can_lead_any_club",
                "can_lead_hearts_instead_of_qs"):
        assert params[key] is False
    assert params["no_pts_on_first_trick"] is True and params["must_break_hearts"] is True
    assert openspiel_params({"qs_breaks_hearts": True})["qs_breaks_hearts"] is True


def test_2000_random_deals_agree_with_openspiel():
    steps = []
    problems = cross_check(2000, seed=2024, steps=steps, passing=False)
    assert problems == []
    assert steps == [52] * 2000  # every card of every deal was compared


@pytest.mark.parametrize("options", [
    {"passing": True},
    {"passing": False, "qs_breaks_hearts": True},
    {"passing": False, "must_break_hearts": False, "no_points_first_trick": False},
])
def test_variants_agree_with_openspiel(options):
    steps = []
    assert cross_check(300, seed=7, steps=steps, **options) == []
    assert steps == [52] * 300


def test_a_rule_mismatch_is_caught(monkeypatch):
    """The check has teeth: OpenSpiel with qs_breaks_hearts on, ours off, must disagree."""
    import simcards.games.hearts.openspiel_ref as ref

    original = ref.openspiel_params
    monkeypatch.setattr(ref, "openspiel_params", lambda o: {**original(o), "qs_breaks_hearts": True})
    assert ref.cross_check(200, seed=1, passing=False) != []


def test_openspiel_bench_runs():
    assert bench_openspiel_hearts(5) > 0
    assert bench_openspiel_hearts(0.05) > 0  # a float is a time budget in seconds
    assert bench_openspiel_hearts(seconds=0.05) > 0
