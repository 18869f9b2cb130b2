"""Rebuilding a game's compiled loops around a table's user bots: the card choice chained
through the Numba bots, and, with Python bots, the hooks that tell the table which deal and
which position it is in."""

from __future__ import annotations

import hashlib
import sys
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from simcards._jit import bound_modules
from simcards.engine import state as S
from simcards.games.botspec import PYTHON_KIND
from simcards.games.userbots.callbacks import ask_card, note_deal, note_play


@dataclass(frozen=True)
class Build:
    """How a table's loops are rebuilt. ``python``: Python bots sit at the table, so the loops
    carry the callbacks' hooks and Numba's reference counting (the callbacks hand the loop's
    arrays to Python; it would cost the fast path a factor of four, so a table of Numba bots
    keeps the original setting). ``tag``: the name the rebuilt functions are cached under, set
    only when the build holds no user code (a table of Python bots: its loops are the same for
    every Python bot, so they compile once per machine), or when a hash of the user code it
    binds is part of it (a Numba bot's build: `user_code_key`)."""

    python: bool
    tag: str | None = None


def user_code_key(links: tuple[tuple[int, Any], ...]) -> str:
    """A hash of what the Numba user bots ``links`` [(kind id, function)] compile into a loop: the
    kind ids, the functions' names, the source files of the modules outside simcards that they
    and the functions they reach (globals, closures) are defined in, and the values of the
    plain constants they read. It names the loops' cache entries, so a changed bot compiles
    anew and an unchanged one loads. (simcards' own modules are keyed by `simcards._jit`; a
    constant read as a module attribute, ``consts.X``, is covered through that module's file.)"""
    digest = hashlib.sha256(b"user-code 2")
    seen: set[int] = set()
    files: set[tuple[str, str]] = set()

    def constant(name: str, value) -> bool:
        """Hash a plain constant or an array (Numba freezes both into the loop); False for
        anything else."""
        if isinstance(value, (bool, int, float, complex, str, bytes, tuple, type(None))):
            digest.update(f"\n{name}={value!r}".encode())
        elif hasattr(value, "tobytes") and hasattr(value, "dtype"):
            digest.update(f"\n{name}={value.dtype}{value.shape}".encode())
            digest.update(value.tobytes())
        else:
            return False
        return True

    def visit(value, depth: int = 0) -> None:
        func = getattr(value, "py_func", value)
        if isinstance(value, types.ModuleType):
            if id(value) in seen or depth > 50:
                return
            seen.add(id(value))
            if _module_file(value.__name__, files):  # user code: what its functions reach too
                for member in list(vars(value).values()):
                    if getattr(getattr(member, "py_func", member), "__module__", None) == value.__name__:
                        visit(member, depth + 1)
            return
        if not isinstance(func, types.FunctionType) or id(func) in seen or depth > 50:
            return
        seen.add(id(func))
        _module_file(func.__module__, files)
        digest.update(f"\n{func.__module__}.{func.__qualname__}".encode())
        codes = [func.__code__]
        while codes:
            code = codes.pop()
            # the compiled code itself: a function without a source file (a notebook's) counts too
            digest.update(code.co_code)
            for c in code.co_consts:
                if isinstance(c, types.CodeType):
                    codes.append(c)
                else:
                    constant("const", c)
            for name in code.co_names:
                if name in func.__globals__ and not constant(name, func.__globals__[name]):
                    visit(func.__globals__[name], depth + 1)
        # closure values: two bots from one factory differ only here (`make(2)`, `make(5)`)
        for name, cell in zip(func.__code__.co_freevars, func.__closure__ or ()):
            try:
                value = cell.cell_contents
            except ValueError:  # an empty cell
                continue
            if not constant(name, value):
                visit(value, depth + 1)

    for kind_id, user in links:
        digest.update(f"\nlink {kind_id}".encode())
        visit(user)
    for name, path in sorted(files):  # by module name and content: a moved clone still loads
        digest.update(f"\n{name} ".encode() + hashlib.sha256(Path(path).read_bytes()).digest())
    return digest.hexdigest()[:16]


def _module_file(name: str, files: set[tuple[str, str]]) -> bool:
    """Add module ``name`` and its source file to ``files`` when it is user code: not simcards
    (keyed by its import graph), not an installed package or the standard library. True when it
    is user code."""
    module = sys.modules.get(name)
    path = getattr(module, "__file__", None)
    if not path or name.partition(".")[0] == "simcards" or not path.endswith(".py"):
        return False
    resolved = str(Path(path).resolve())
    if "site-packages" in resolved or "dist-packages" in resolved or \
            resolved.startswith(str(Path(sys.base_prefix).resolve()) + "/lib"):
        return False
    files.add((name, resolved))
    return True


def rebuild(dispatcher, build: Build, **replace):
    """The njit function of ``dispatcher``'s source with some of its global names bound to other
    functions (``replace``): the same code, compiled anew. This is how a game's batch loop is
    built around a user's bot without a copy of the loop."""
    func = dispatcher.py_func
    namespace = dict(func.__globals__)
    missing = [name for name in replace if name not in func.__code__.co_names]
    if missing:
        raise AssertionError(f"{func.__name__} does not call {', '.join(missing)}")
    namespace.update(replace)
    clone = types.FunctionType(func.__code__, namespace, func.__name__, func.__defaults__,
                               func.__closure__)
    clone.__doc__ = func.__doc__
    clone.__simcards_modules__ = bound_modules([func, *replace.values()])  # its cache key (_jit.py)
    options = {k: v for k, v in dispatcher.targetoptions.items() if k not in ("cache", "nopython")}
    if build.python:
        options["_nrt"] = True
    if build.tag is not None and func.__closure__ is None:
        # its own cache entry: Numba names a cache file after the function's qualified name
        clone.__qualname__ = f"{func.__qualname__}__{build.tag}"
        options["cache"] = True
    return njit(**options)(clone)


def card_chain(builtin, links: tuple[tuple[int, Any], ...], build: Build):
    """A card function of the built-in signature that asks the Numba bots ``links``
    [(kind id, function)] for their kinds, the Python bots (with ``build.python``) for theirs
    and ``builtin`` for every other kind."""
    chosen = rebuild(_python_or_builtin, build, builtin_card=builtin) if build.python else builtin
    for kind_id, user in links:
        chosen = _link(kind_id, user, chosen, build.python)
    return chosen


@njit(forceinline=True)
def _python_or_builtin(kind, legal, st, T, params, rng):
    """(A template for `rebuild`: ``builtin_card`` is bound there.)"""
    if kind == PYTHON_KIND:
        return ask_card(st, legal, st[S.S_TO_MOVE])
    return builtin_card(kind, legal, st, T, params, rng)  # noqa: F821


NUMBA_ILLEGAL = "a Numba user bot returned a card id that is not in its legal mask"


@njit(cache=True, _nrt=True)
def numba_illegal(seat, card, legal):
    """Raise the illegal-card error with its seat, card and legal mask. A call of its own (never
    inlined): an exception carrying values needs Numba's reference counting, which the fast
    loops around it run without."""
    raise ValueError(NUMBA_ILLEGAL, seat, card, legal)


def _link(kind_id: int, user, rest, nrt: bool):
    @njit(forceinline=True, _nrt=nrt)
    def choose(kind, legal, st, T, params, rng):
        if kind == kind_id:
            card = user(kind, legal, st, T, params, rng)
            if card < 0 or card > 63 or not (legal >> card) & 1:
                numba_illegal(seat_of(params), np.int64(card), legal)
            return card
        return rest(kind, legal, st, T, params, rng)

    return choose


@njit(cache=True, forceinline=True)
def seat_of(params_row):
    """The seat a parameter row belongs to at a user-bot table (its last slot)."""
    return np.int64(params_row[params_row.shape[0] - 1])


@njit
def _hooked_deal(seed, index, hands, deck, rng):
    out = inner_deal(seed, index, hands, deck, rng)  # noqa: F821 (bound by rebuild)
    note_deal(seed, index, hands)
    return out


def hooked_deal(inner, build: Build):
    """A game's ``deal_cards(seed, index, hands, deck, rng)`` that tells the table which deal
    begins (its (seed, index) and the dealt hands)."""
    return rebuild(_hooked_deal, build, inner_deal=inner)


@njit
def _hooked_play(st, T, bot_kind, bot_params, rng, trace):
    note_play(st, trace)
    inner_play(st, T, bot_kind, bot_params, rng, trace)  # noqa: F821 (bound by rebuild)


@njit
def _hooked_play_scratch(st, T, bot_kind, bot_params, rng, trace, work):
    note_play(st, trace)
    inner_play(st, T, bot_kind, bot_params, rng, trace, work)  # noqa: F821 (bound by rebuild)


def hooked_play(inner, build: Build, scratch: bool = False):
    """A game's ``play_out(st, T, kinds, params, rng, trace)`` that hands the table live views
    of the state and the trace first (the views' played cards, in order). ``scratch``: the
    game's ``play_out`` takes a scratch array ``work`` after the trace (a search bot's)."""
    return rebuild(_hooked_play_scratch if scratch else _hooked_play, build, inner_play=inner)


def with_scratch(chain, builtin_card, search_kind: int):
    """The table's card choice in the signature of a batch loop whose ``play_out`` takes a
    scratch array: seats of the game's search bot (``search_kind``: pimc) use the loop's scratch
    and ``builtin_card`` (the game's card choice), every other kind the user bots' ``chain``."""
    @njit(forceinline=True)
    def choose(kind, legal, st, T, params, rng, work):
        if kind == search_kind:
            return builtin_card(kind, legal, st, T, params, rng, work)
        return chain(kind, legal, st, T, params, rng)

    return choose


def scratch_play_loop(links, build: Build, play_out, builtin_card, without_scratch, search_kind: int):
    """``play_out`` (a game's play loop with a scratch array ``work``) with the table's card
    choice (`with_scratch`; ``without_scratch``: the built-in card of the kinds that need no
    scratch, in the user bots' signature) and, with Python bots, the play hook. (Loops built
    around user bots may not allocate: a search bot gets the loop's scratch.)"""
    chain = card_chain(without_scratch, links, build)
    play = rebuild(play_out, build, choose_card=with_scratch(chain, builtin_card, search_kind))
    return hooked_play(play, build, scratch=True) if build.python else play


def suggesting(choose_card, scratch):
    """`state.suggest`'s card for a game whose batch loop plays ``choose_card`` with a scratch
    array: any built-in kind, a search bot with a scratch of its own (``scratch(kinds)``: None
    for a kind that does not search, so a heuristic suggestion compiles no search)."""
    def suggested(kind, legal, st, T, params, rng):
        work = scratch(np.array([kind], dtype=np.int64))
        return choose_card(kind, legal, st, T, params, rng, work)

    return suggested
