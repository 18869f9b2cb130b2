# Sourced by demo.sh and test.sh: create .venv if missing and install simcards into it.
# Usage: install_simcards [extras]   e.g. install_simcards test
install_simcards() {
    local extras="${1:-}"
    if [ ! -x .venv/bin/python ]; then
        echo "creating .venv" >&2
        python3 -m venv .venv
        .venv/bin/python -m pip install --quiet --upgrade pip
    fi
    local target="."
    if [ -n "$extras" ]; then target=".[$extras]"; fi
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e "$target"
}
