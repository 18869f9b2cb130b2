#!/usr/bin/env python
"""Regenerate the dataset-column tables in README.md from the column specs."""

import sys
from pathlib import Path

root = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(root))

from simcards.docs import render_readme  # noqa: E402

readme = root / "README.md"
readme.write_text(render_readme(readme.read_text()))
print(f"updated {readme}")
