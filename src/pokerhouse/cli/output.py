"""The terminal output the commands share.

:func:`console` is a rich console that lets a broken pipe reach
:func:`pokerhouse.cli.main`, which ends every command the same quiet way
(rich's own console would exit with status 1 instead).

>>> import io
>>> out = console(file=io.StringIO())
>>> out.print("Seat 1 wins")
>>> out.file.getvalue()
'Seat 1 wins\\n'
"""

from __future__ import annotations

from typing import Any

from rich.console import Console


class _Console(Console):
    def on_broken_pipe(self) -> None:
        raise BrokenPipeError


def console(**options: Any) -> Console:
    """A :class:`rich.console.Console` with ``options``, whose broken pipe is an exception."""
    return _Console(**options)
