"""Published references (human play, other programs) name their source and their sample size,
or say that the source gives none, in every game; reference columns of report tables are named
by their source and sample size."""

import re

import simcards
from simcards.games.references import NO_SAMPLE_SIZE, Reference


def has_sample_size(reference: Reference) -> bool:
    return reference.sample == NO_SAMPLE_SIZE or re.search(r"\d", reference.sample) is not None


def test_every_published_reference_names_its_source_and_sample_size():
    for name in simcards.rulesets():
        for reference in simcards.load(name).published_references:
            assert isinstance(reference, Reference), (name, reference)
            assert reference.name and reference.figures and reference.source, (name, reference)
            assert has_sample_size(reference), (name, reference)
            shown = str(reference)
            assert reference.source in shown and reference.sample in shown
    assert has_sample_size(Reference("x", "1%", "somebody", NO_SAMPLE_SIZE))
    assert not has_sample_size(Reference("x", "1%", "somebody", "many games"))


def test_the_unsourced_doppelkopf_sentence_is_gone():
    shown = " ".join(map(str, simcards.load("doppelkopf").published_references))
    assert "strong tables" not in shown.lower()


def test_reference_columns_carry_source_and_sample_size():
    from simcards.games.skat import report, stats

    assert stats.SKAT_ONLINE.sample == "17,967,106 games"
    assert report.REF_COLUMN == "Skat-Online (17,967,106 games)"
    assert "skatblog.com" in stats.SKAT_ONLINE.source and "skatblog.com" in report.REF
