"""Bring your own bot: a user's Python or Numba bot at a simcards table.

A config names a user's bot by import path::

    [[bots]]
    kind = "python"                    # a Python class, one method per decision
    entry = "mybots.kraak:MyBot"
    params = { kraak_margin = 5 }      # keyword arguments of MyBot(...); `simcards tune` searches them

    [[bots]]
    kind = "numba"                     # an @njit card function, run inside a compiled loop
    entry = "mybots.fast:choose_card"
    params = { contest_points = 12 }   # the game's bot parameters, plus the module's own PARAMS

and may mix them with built-in bots at one table (a list of one spec per seat). The module is
imported from ``sys.path`` and the current working directory (set PYTHONPATH otherwise; a Dask
cluster needs it installed on every worker).

Python bots
-----------
``entry`` names a class (any callable) called with the config's ``params`` as keyword
arguments; its keyword defaults are the parameters' defaults. A **fresh instance** plays each
seat of each deal, so nothing carries over from one deal to the next: that is what keeps runs
reproducible, resumable and identical whatever the worker count. A bot may keep notes within a
deal on ``self``. It must not keep state elsewhere (module globals, class attributes, files),
and its randomness must come from ``view.rng``: a `random.Random` seeded by (seed, deal index,
seat), the same in every run of the config.

The bot has one method per decision of the ruleset (`simcards rulesets NAME` lists them; see
`Support.decisions` of each game):

- ``play(view) -> str``: the card to play, a code of ``view.legal`` ("JC", "10H");
- ``choose_trump(view) -> str``: a suit letter "C", "D", "H" or "S" (Klaverjassen and Kraken,
  forced trump: forehand names it);
- ``declare(view) -> str | None``: Klaverjassen with free trump selection: a suit to play the
  game in, or None to pass;
- ``bid(view) -> bool``: Kraken: make the bid ``view.bid`` (kraak, rekraak, ...) or not;
- ``pass_cards(view) -> list[str]``: Hearts and Hartenjagen: the cards to pass;
- ``game(view) -> str``: Doppelkopf, before play: "normal", a solo ("queen", "clubs", ...), or
  with both club queens "marriage" or "silent_marriage";
- ``announce(view) -> bool``: Doppelkopf: make ``view.announcement`` (Re/Kontra or the next
  Absage, while it is in time) or not;
- Skat (skat/userbot.py): ``bid(view) -> bool`` says or holds the value ``view.bid`` (False
  passes); ``take_skat(view) -> bool`` (True picks the Skat up, False plays Hand);
  ``discard(view) -> list[str]`` (two of the twelve); ``declare(view) -> str`` (the game, one of
  ``view.legal``: "C", "G hand schneider", "N ouvert", ...); ``kontra`` and ``re`` (-> bool,
  with the house rule ``kontra``).

Only ``play`` is required: a decision the class does not define is made by the built-in
heuristic with the game's default parameters for that seat. An illegal answer, a wrong type or
an exception inside the bot stops the run with one `BotError` naming the bot, the seat, the
deal (seed, index), the decision and the legal choices (the CLI exits 2; finished parts stay).

The view
--------
Each method receives a read-only `View`: exactly what that seat may know, as card codes and
plain Python values (tuples, ints, strings). Every view has ``seat``, ``decision``, ``deal``
((seed, index); None in an interactive deal), ``legal``, ``hand``, ``dealer``, ``rng`` and
``n_seats``; a card-play view adds ``trick`` ((seat, code) so far, leader first), ``leader``,
``tricks`` (the completed tricks: (leader, ((seat, code), ...), winner)), ``played`` (every card
played, in order, with its seat), ``voids`` (per seat, the suits it has shown it lacks, "trump"
for trumps) and ``trick_no``; each game adds its contract, bids and scores (docs/own-bot.md,
"The view", lists them per ruleset). ``view.fields()`` returns them all as a dict. A view never
holds another seat's hidden cards.

Numba bots
----------
``entry`` names an ``@njit`` function with the signature of the built-in card choice,
``choose_card(kind, legal, st, T, params_row, rng) -> card id``: ``legal`` is the legal mask,
``st`` the deal state (the shared slots of `simcards.engine`, the game's own from its public
modules, e.g. `simcards.games.klaverjas.family`; read only what
the seat may know: its own hand, the public slots), ``T`` the rule tables, ``params_row`` the
seat's parameter row (the game's parameters, then the module's ``PARAMS``: a tuple of
(name, default, meaning) whose first entry sits at index ``len(game.bots.params)``), ``rng`` the
seat's stream (`simcards.rng.randint`). The game builds its batch loop around the function
(`Support.build`), cached on disk under a hash of the bot's code (`loops.user_code_key`): it
compiles once per machine and bot version (docs/own-bot.md, "A Numba bot", gives the cost). The seat's other
decisions (trump, bids, passes, games, announcements) are the heuristic's with its parameter
row. A card id outside ``legal`` is the same one `BotError` (bot, seat, deal, legal cards): the
loop raises it with the seat, and `simcards.games.seating.with_bots` plays the batch once more
with the deal hooks on to name the deal.

Both kinds record a hash of their module's source in the run's manifest; a run whose bot
source changed is not resumed without ``--force``.

The package
-----------
- `specs`: importing an entry, a spec's parameters and problems, the source hash, `BotError`;
- `loops`: a game's compiled loops rebuilt around the table's bots (`rebuild`, `card_chain`,
  the deal and play hooks);
- `callbacks`: what the compiled loops call in Python (`ask_card`, `ask_int`, `note`), and the
  decision and event ids the games' kernels pass (`DECISION_IDS`, `EVENT_IDS`);
- `views`: the `View` a Python bot receives;
- `table`: the `Table` of one bot spec (`make_table`) and a ruleset's `Support`.
"""

from simcards.games.botspec import NUMBA_KIND, PYTHON_KIND, USER_KINDS, is_user_spec, user_entries
from simcards.games.userbots.callbacks import (
    DECISION_IDS,
    DECISIONS,
    EVENT_IDS,
    EVENTS,
    EXPECTS,
    active,
    ask_int,
    note,
)
from simcards.games.userbots.loops import (
    Build,
    card_chain,
    hooked_deal,
    hooked_play,
    rebuild,
    scratch_play_loop,
    seat_of,
    suggesting,
    with_scratch,
)
from simcards.games.userbots.specs import (
    BotError,
    DealNotNoted,
    numba_extra_params,
    source_hash,
    source_hashes,
    unsupported,
    user_param_defaults,
    user_spec_problems,
)
from simcards.games.userbots.table import FirstLegal, Support, Table, make_table
from simcards.games.userbots.views import SUITS, View, codes_of, play_fields

__all__ = [
    "NUMBA_KIND", "PYTHON_KIND", "USER_KINDS", "is_user_spec", "user_entries",
    "DECISION_IDS", "DECISIONS", "EVENT_IDS", "EVENTS", "EXPECTS", "active", "ask_int", "note",
    "Build", "card_chain", "hooked_deal", "hooked_play", "rebuild", "scratch_play_loop", "seat_of",
    "suggesting", "with_scratch",
    "BotError", "DealNotNoted", "numba_extra_params", "source_hash", "source_hashes",
    "unsupported", "user_param_defaults", "user_spec_problems",
    "FirstLegal", "Support", "Table", "make_table",
    "SUITS", "View", "codes_of", "play_fields",
]
