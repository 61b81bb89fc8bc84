"""Output piped into a command that stops reading: a quiet exit, as Unix tools make."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pokerhouse.cli import EXIT_BROKEN_PIPE
from tests.history.test_wsop_razz import LOCAL

#: What the ``pokerhouse`` console script runs.
ENTRY = "import sys; from pokerhouse.cli import main; sys.exit(main())"


def run_into_closed_pipe(*args: str) -> subprocess.CompletedProcess[bytes]:
    """Run the command with stdout a pipe whose reader is already gone: every write fails."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        return subprocess.run(
            [sys.executable, "-c", ENTRY, *args],
            stdout=writer,
            stderr=subprocess.PIPE,
            timeout=120,
            check=False,
        )
    finally:
        os.close(writer)


@pytest.mark.parametrize(
    "args",
    [
        ["hand", "As Ks Qs Js Ts"],
        ["simulate", "razz", "--hands", "3", "--seed", "1", "--json"],
        ["simulate", "3x4", "--hands", "3", "--seed", "1"],
        ["replay", str(LOCAL / "wsop-2023-43-5-85-razz.phh")],
        ["analyze", "casino-holdem"],
        ["demo", "--seed", "1"],
    ],
    ids=["hand", "simulate-json", "simulate-table", "replay", "analyze", "demo"],
)
def test_a_closed_pipe_ends_the_command_quietly(args: list[str]) -> None:
    done = run_into_closed_pipe(*args)
    assert done.stderr.decode() == ""
    assert done.returncode == EXIT_BROKEN_PIPE == 141


def test_a_reader_that_stops_early_gets_the_head_and_no_traceback(tmp_path: Path) -> None:
    # `pokerhouse replay FILE | head -n 1`, with a real reader that leaves after one line.
    command = subprocess.Popen(
        [sys.executable, "-c", ENTRY, "replay", str(LOCAL / "wsop-2023-43-5-24-razz.phh")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert command.stdout is not None and command.stderr is not None
    first = command.stdout.readline()
    command.stdout.close()
    errors = command.stderr.read()
    status = command.wait(timeout=120)
    assert first.startswith(b"Razz")
    assert errors == b""
    assert status in (0, EXIT_BROKEN_PIPE)  # 0 when all fitted in the pipe before it closed
