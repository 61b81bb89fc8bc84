"""Units of work: database transactions written once, run on SQLite or PostgreSQL.

A unit of work is a generator that yields :class:`Op` values (a statement,
its parameters, what to fetch) and receives each one's result; what it
returns is the unit's result. The store's logic (checks, balances, the
ledger's rules) lives in such units and never touches a driver; a driver in
:mod:`pokerhouse.store.database` runs a unit inside one transaction: on
SQLite the whole unit in one hop to the connection's thread, on PostgreSQL
one ``await`` per statement on an asyncpg connection. This is the store's hot
path, so the store talks to the drivers directly (sqlite3 and asyncpg;
SQLAlchemy builds the schema and runs the migrations, and nothing else):
each statement's named parameters are turned into the driver's own
(``?``, ``$1``) once, when it is defined, and every statement is prepared
against a migrated database of each kind by the tests, so a misspelt table
or column fails there.

>>> stmt = Stmt("SELECT balance FROM ledger_accounts WHERE id = :id")
>>> stmt.sqlite
('SELECT balance FROM ledger_accounts WHERE id = ?', ('id',))
>>> stmt.postgresql
('SELECT balance FROM ledger_accounts WHERE id = $1', ('id',))
>>> def unit(ctx):
...     row = yield one(stmt, id=1)
...     return row
>>> op = next(unit(None))
>>> op.mode == ONE, op.params
(True, {'id': 1})
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

T = TypeVar("T")

#: What to do with a statement's result.
ONE: Final = 0  # the first row or None
ALL: Final = 1  # every row
RUN: Final = 2  # the number of rows changed
MANY: Final = 3  # executemany over a list of parameter sets; returns None

Compiled = tuple[str, tuple[str, ...]]

#: A ``:name`` parameter outside a quoted string (a ``::`` cast is not one).
_PARAMETER = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")

#: Every statement defined, for the test that prepares each one on both databases.
STATEMENTS: list[Stmt] = []


def _compile(sql: str, dialect: str) -> Compiled:
    """``sql`` with its ``:name`` parameters in the driver's style, and their names in order.

    SQLite's are ``?`` in order of appearance; PostgreSQL's ``$n``, one number
    a name however often it appears.

    >>> _compile("SELECT :a, 'x:y', :b, :a", "sqlite")
    ("SELECT ?, 'x:y', ?, ?", ('a', 'b', 'a'))
    >>> _compile("SELECT :a, 'x:y', :b, :a", "postgresql")
    ("SELECT $1, 'x:y', $2, $1", ('a', 'b'))
    """
    names: list[str] = []

    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        if dialect == "sqlite":
            names.append(name)
            return "?"
        if name not in names:
            names.append(name)
        return f"${names.index(name) + 1}"

    # Quoted strings (every other piece, split on single quotes) keep their text.
    pieces = sql.split("'")
    for index in range(0, len(pieces), 2):
        pieces[index] = _PARAMETER.sub(replace, pieces[index])
    return "'".join(pieces), tuple(names)


class Stmt:
    """One SQL statement with ``:name`` parameters, compiled for both databases.

    ``postgresql`` is the statement's PostgreSQL text where the two differ
    (row locks, arrays); a list parameter is passed to SQLite as JSON text
    (read with ``json_each``) and to PostgreSQL as an array. ``only`` names
    the one database a statement is for (PostgreSQL's one-round-trip forms).
    """

    __slots__ = ("only", "pg_args", "postgresql", "sqlite", "sqlite_args", "sqlite_arrays")

    def __init__(self, sql: str, postgresql: str | None = None, *, only: str | None = None) -> None:
        self.only = only
        self.sqlite: Compiled = _compile(sql, "sqlite")
        self.postgresql: Compiled = _compile(
            postgresql if postgresql is not None else sql, "postgresql"
        )
        #: Positions of the SQLite parameters read with ``json_each`` (passed as JSON).
        self.sqlite_arrays = tuple(
            i for i, name in enumerate(self.sqlite[1]) if f"json_each(:{name})" in sql
        )
        #: Parameter dict -> positional tuple, for each driver (one C call a row).
        self.sqlite_args = _getter(self.sqlite[1])
        self.pg_args = _getter(self.postgresql[1])
        STATEMENTS.append(self)

    def __repr__(self) -> str:
        return f"Stmt({self.sqlite[0]!r})"


def _getter(names: tuple[str, ...]) -> Callable[[dict[str, Any]], tuple[Any, ...]]:
    if not names:
        return lambda params: ()
    if len(names) == 1:
        name = names[0]
        return lambda params: (params[name],)
    return operator.itemgetter(*names)


@dataclass(frozen=True, slots=True)
class Op:
    """A statement to run, its parameters and what to return (:data:`ONE` ...)."""

    stmt: Stmt
    params: Any
    mode: int


def one(stmt: Stmt, **params: Any) -> Op:
    """Run ``stmt``; the unit receives its first row (a tuple) or ``None``."""
    return Op(stmt, params, ONE)


def all_rows(stmt: Stmt, **params: Any) -> Op:
    """Run ``stmt``; the unit receives a list of rows."""
    return Op(stmt, params, ALL)


def run(stmt: Stmt, **params: Any) -> Op:
    """Run ``stmt``; the unit receives how many rows it changed."""
    return Op(stmt, params, RUN)


def many(stmt: Stmt, rows: Sequence[dict[str, Any]]) -> Op:
    """Run ``stmt`` once per parameter set, in one driver call."""
    return Op(stmt, rows, MANY)


@dataclass(slots=True)
class Context:
    """What a unit may know besides the database: the dialect, the time, cached ids.

    Account ids never change once created, so units look them up in
    ``account_ids`` first; ids a unit learns or creates go to ``new_ids`` and
    join the cache only once the transaction has committed.
    """

    dialect: str
    now: float
    account_ids: dict[str, int]
    new_ids: dict[str, int] = field(default_factory=dict)

    def account_id(self, key: str) -> int | None:
        """A cached account id, or ``None``."""
        found = self.new_ids.get(key)
        return found if found is not None else self.account_ids.get(key)


#: A unit of work returning ``T``.
Unit = Generator[Op, Any, T]

#: What :meth:`Database.write` takes: a function making a fresh unit (run
#: again from the start if PostgreSQL reports a deadlock).
UnitFactory = Callable[[Context], Unit[T]]


def nothing() -> Unit[None]:
    """A unit that runs no statement (for ``yield from`` in optional steps)."""
    return None
    yield  # pragma: no cover - makes this a generator
