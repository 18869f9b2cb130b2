#!/usr/bin/env bash
# Set up .venv (if missing), simulate configs/demo.toml (a million Klaverjassen deals) and write
# its report. Rerunning resumes the run; pass --force to start over.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/_venv.sh
install_simcards
.venv/bin/simcards run configs/demo.toml "$@"
.venv/bin/simcards report results/demo
echo "open reports/demo/report.html (or reports/demo/report.md)"
