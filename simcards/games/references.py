"""Published figures a report sets beside the bots' (human play, other programs): each names
its source and its sample size, or says that the source gives none. A figure without a source
is not shown. Computed marks (break-even lines, exact odds) are not references."""

from __future__ import annotations

from dataclasses import dataclass

NO_SAMPLE_SIZE = "the source gives no sample size"


@dataclass(frozen=True)
class Reference:
    """One published figure or set of figures: a short ``name`` for labels, what it says, who
    published it where, and on how many games or deals (``sample``, or `NO_SAMPLE_SIZE`)."""

    name: str
    figures: str
    source: str
    sample: str

    @property
    def label(self) -> str:
        """The name for a table column or a chart legend, with the sample size."""
        return f"{self.name} ({self.sample})"

    def __str__(self) -> str:
        return f"{self.name}: {self.figures} Source: {self.source}; {self.sample}."
