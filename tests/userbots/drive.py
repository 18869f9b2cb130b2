"""Run several `simcards` commands in one process (tests/test_user_bots.py): the loky workers and
the loops compiled for a table of user bots are made once and serve every command, as in a
user's session. Usage: python drive.py '<json list of argument lists>'; prints one exit code
per command."""

import json
import sys

from simcards.cli import main

if __name__ == "__main__":
    codes = [main(args) for args in json.loads(sys.argv[1])]
    print("EXIT CODES", json.dumps(codes))
