#!/usr/bin/env python
"""Deals per second per ruleset (random and heuristic bots), the ratio to OpenSpiel, and the
end-to-end pipeline. `python scripts/bench.py --help` for options; `--json` for one JSON object."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from simcards.bench import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
