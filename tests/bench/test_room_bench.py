"""``bench/room.py --quick`` runs to its end: every window without an error, the books sound."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "room.py"


@pytest.mark.slow
def test_quick_load_run_has_no_errors_and_a_sound_ledger() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--quick", "--tables", "3", "--procs", "1"],
        capture_output=True,
        text=True,
        timeout=900,  # its clients wait up to 600 s for a loaded machine's room to open
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    runs = [line for line in lines if "run" in line]
    assert [run["run"] for run in runs] == ["bare", "room"]
    for run in runs:
        assert run["actions"] > 0, run
        assert run["errors"] == {} and run["sockets_closed"] == 0, run
    room = runs[1]
    assert room["connections"] == 18
    assert room["server_actions_per_s"] > 0 and room["tables_per_commit"] >= 1
    (verdict,) = [line["ledger_check"] for line in lines if "ledger_check" in line]
    assert verdict.startswith("ok: ledger ok"), verdict
