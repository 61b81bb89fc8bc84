"""``bench/stats.py`` on a small player runs to its end on SQLite and prints both contenders."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "stats.py"


def test_a_short_stats_run_prints_both_contenders_and_the_goal() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--hands", "400", "--rounds", "5", "--no-postgresql"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert any("kept figures" in line and "p99" in line for line in lines), done.stdout
    assert any("read every hand / kept figures" in line for line in lines), done.stdout
