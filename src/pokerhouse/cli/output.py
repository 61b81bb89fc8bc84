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
from rich.progress import BarColumn, Progress, ProgressColumn, TextColumn, TimeElapsedColumn


class _Console(Console):
    def on_broken_pipe(self) -> None:
        raise BrokenPipeError


def console(**options: Any) -> Console:
    """A :class:`rich.console.Console` with ``options``, whose broken pipe is an exception."""
    return _Console(**options)


def progress(out: Console, counter: ProgressColumn) -> Progress:
    """A progress bar (description, bar, ``counter``, time taken) that leaves nothing
    behind, and shows nothing off a terminal (where it would leave a blank line)."""
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        counter,
        TimeElapsedColumn(),
        console=out,
        transient=True,
        disable=not out.is_terminal,
    )
