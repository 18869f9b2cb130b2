#!/usr/bin/env bash
# Set up .venv (if missing) with simcards and its test extras, then run the tests.
# Extra arguments go to pytest, e.g. ./scripts/test.sh -m "not slow" -x
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/_venv.sh
install_simcards test
exec .venv/bin/python -m pytest "$@"
