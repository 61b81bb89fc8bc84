"""Crash points: a debug hook that kills the room at a named moment, for the crash tests.

``POKERHOUSE_CRASH_AT=settle-after:3`` makes the process SIGKILL itself the
third time it passes the point ``settle-after``. The points are where a
crash hurts most:

- ``commit-before``: a group commit is about to be written;
- ``commit-after``: a group commit is written, no table has heard so yet;
- ``settle-before``: a group commit holding a hand's settlement is about to be written;
- ``settle-after``: that settlement is written, before its cash-outs and any client is told.

Without the variable (as in any real room) a point costs one comparison.

>>> plan("settle-after:3")
('settle-after', 3)
>>> plan(None) is None
True
"""

from __future__ import annotations

import os
import signal

#: The environment variable naming the crash point and how many passes it allows.
ENV = "POKERHOUSE_CRASH_AT"
POINTS = frozenset({"commit-before", "commit-after", "settle-before", "settle-after"})


def plan(value: str | None) -> tuple[str, int] | None:
    """``"point:n"`` as ``(point, n)``; ``None`` when unset; ValueError when malformed."""
    if not value:
        return None
    point, _, count = value.partition(":")
    if point not in POINTS or not count.isdigit() or int(count) < 1:
        raise ValueError(f"{ENV} is point:n with a point of {sorted(POINTS)}, not {value!r}")
    return point, int(count)


_plan = plan(os.environ.get(ENV))
_passes: dict[str, int] = {}


def crash_point(name: str) -> None:
    """Die here (SIGKILL, nothing flushed) if the plan says this pass of ``name`` is the one."""
    if _plan is None or _plan[0] != name:
        return
    _passes[name] = _passes.get(name, 0) + 1
    if _passes[name] >= _plan[1]:
        os.kill(os.getpid(), signal.SIGKILL)
