#!/usr/bin/env bash
# Set up .venv (if missing) with simcards and its test extras, then run the tests on every core
# (pytest-xdist), the slowest 15 listed at the end. Extra arguments go to pytest, e.g.
#   ./scripts/test.sh -m "not slow and not e2e" -x
# First the kernels of every ruleset are compiled into the cache in up to two processes
# (scripts/warm_cache.py; seconds when the cache is warm), so no two test workers compile one
# kernel; WARM=0 skips that (a single test file on a cold cache).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/_venv.sh
install_simcards test
if [ "${WARM:-1}" != 0 ]; then
    .venv/bin/python scripts/warm_cache.py
fi
exec .venv/bin/python -m pytest -n auto --durations=15 "$@"
