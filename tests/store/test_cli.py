"""The store's commands: db upgrade, accounts create, ledger check and ledger show, tables."""

from __future__ import annotations

import asyncio
import io
import json
import os
import sqlite3
from pathlib import Path

import pytest

from pokerhouse.cli import main
from pokerhouse.store import Store, TableConfig
from pokerhouse.store.migrate import head_revision
from tests.conftest import FAST_HASHER


def _stdin(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))


def test_create_show_and_check(
    db_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _stdin(monkeypatch, "correct horse\n")
    assert main(["accounts", "create", "Ann", "--password-stdin", "--database-url", db_url]) == 0
    assert "created player Ann (user 1) with 10,000 chips" in capsys.readouterr().out
    assert (
        main(["accounts", "create", "robo_bot", "--bot", "--grant", "50", "--database-url", db_url])
        == 0
    )
    capsys.readouterr()
    assert main(["ledger", "show", "ann", "--database-url", db_url]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Ann (user 1): wallet 10,000, at tables 0, total 10,000")
    assert "grant" in out and "+10,000" in out
    assert main(["ledger", "show", "ROBO_BOT", "--json", "--database-url", db_url]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["wallet"] == 50 and data["lines"][0]["kind"] == "grant"
    assert main(["ledger", "check", "--database-url", db_url]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and out[0].startswith("ledger ok: 2 transactions, 4 entries")


async def test_ledger_show_pages_back(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    store = await Store.open(db_url, password_hasher=FAST_HASHER)
    try:
        ann = await store.users.create("ann", None, bot=True, grant=100)
        for n in range(4):
            await store.ledger.top_up(ann, n + 1, key=f"top-up:ann:{n}")
    finally:
        await store.close()
    show = ["ledger", "show", "ann", "--json", "--limit", "2", "--database-url", db_url]
    assert await asyncio.to_thread(main, show) == 0
    newest = json.loads(capsys.readouterr().out)
    assert [line["amount"] for line in newest["lines"]] == [3, 4]
    before = ["--before", str(newest["older"])]
    assert await asyncio.to_thread(main, [*show, *before]) == 0
    older = json.loads(capsys.readouterr().out)
    assert [line["amount"] for line in older["lines"]] == [1, 2]
    assert older["lines"][-1]["balance"] == 103 and older["older"] is not None
    text = ["ledger", "show", "ann", "--limit", "2", "--database-url", db_url]
    assert await asyncio.to_thread(main, text) == 0
    assert f"older lines: --before {newest['older']}" in capsys.readouterr().out
    assert await asyncio.to_thread(main, [*show, "--before", "0"]) == 2
    assert "[bad_before]" in capsys.readouterr().err


def test_bad_input_is_exit_2_with_a_code(
    db_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    cases = [
        (["accounts", "create", "a b", "--bot"], "[bad_username]"),
        (["accounts", "create", "ann", "--password-stdin"], "[bad_password]"),
        (["accounts", "create", "ann"], "[no_terminal]"),
        (["accounts", "create", "ann_bot", "--bot", "--grant", "-1"], "[negative_amount]"),
        (["accounts", "create", "ann", "--bot"], "[bad_username]"),
        (["accounts", "create", "Ada_bot", "--bot"], "[bad_username]"),
        (["accounts", "create", "x_bot", "--bot", "--owner", "nobody"], "[unknown_user]"),
        (["accounts", "create", "ann", "--owner", "bob"], "[bad_owner]"),
        (["accounts", "create", "x_bot", "--bot", "--password-stdin"], "[bad_password]"),
        (["accounts", "token", "nobody_bot"], "[unknown_bot]"),
        (["accounts", "revoke", "a b"], "[unknown_bot]"),
        (["ledger", "show", "nobody"], "[unknown_user]"),
        (["ledger", "show", "nobody", "--limit", "0"], "[unknown_user]"),
        (["tables", "chat", "999", "off"], "[unknown_table]"),
    ]
    for args, code in cases:
        _stdin(monkeypatch, "")
        assert main([*args, "--database-url", db_url]) == 2, args
        assert code in capsys.readouterr().err, args
    assert main(["accounts", "create", "ann_bot", "--bot", "--database-url", db_url]) == 0
    assert main(["accounts", "create", "ANN_bot", "--bot", "--database-url", db_url]) == 2
    assert "[username_taken]" in capsys.readouterr().err


@pytest.mark.breaks_ledger
def test_ledger_check_exits_1_naming_the_first_violation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'room.db'}"
    assert main(["accounts", "create", "ann_bot", "--bot", "--database-url", url]) == 0
    with sqlite3.connect(tmp_path / "room.db") as conn:
        conn.execute("UPDATE ledger_accounts SET balance = balance + 7 WHERE key = 'wallet:1'")
    capsys.readouterr()
    assert main(["ledger", "check", "--database-url", url]) == 1
    out = capsys.readouterr().out.strip()
    assert out.startswith("ledger check failed (balances equal entries): account wallet:1")
    assert "10007" in out


def test_db_upgrade_and_status(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'fresh.db'}"
    assert main(["db", "status", "--database-url", url]) == 1
    assert "needs `pokerhouse db upgrade`" in capsys.readouterr().out
    assert main(["db", "upgrade", "--database-url", url]) == 0
    head = head_revision()
    assert f"upgraded from an empty database to revision {head}" in capsys.readouterr().out
    assert main(["db", "upgrade", "--database-url", url]) == 0
    assert f"already at revision {head}" in capsys.readouterr().out
    assert main(["db", "status", "--database-url", url]) == 0


def test_the_url_comes_from_the_environment_or_the_default_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("POKERHOUSE_DATABASE_URL", raising=False)
    assert main(["accounts", "create", "ann_bot", "--bot"]) == 0
    assert (tmp_path / "var" / "pokerhouse.db").exists()
    monkeypatch.setenv("POKERHOUSE_DATABASE_URL", f"sqlite:///{tmp_path / 'other.db'}")
    assert main(["accounts", "create", "ann_bot", "--bot"]) == 0
    assert os.path.exists(tmp_path / "other.db")
    assert main(["ledger", "check", "--database-url", "mysql://x/y"]) == 2
    assert "[bad_url]" in capsys.readouterr().err


def test_a_bot_accounts_token_is_printed_once_renewed_and_revoked(
    db_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _stdin(monkeypatch, "correct horse\n")
    assert main(["accounts", "create", "ann", "--password-stdin", "--database-url", db_url]) == 0
    capsys.readouterr()
    made = ["accounts", "create", "deep_bot", "--bot", "--owner", "ann", "--database-url", db_url]
    assert main(made) == 0
    out = capsys.readouterr().out
    assert "created bot deep_bot" in out
    first = out.rsplit(": ", 1)[1].strip()
    assert main(["accounts", "token", "DEEP_bot", "--database-url", db_url]) == 0
    out = capsys.readouterr().out
    assert "(1 ended; shown once)" in out
    second = out.rsplit(": ", 1)[1].strip()
    assert second != first

    async def signed_in() -> list[str | None]:
        store = await Store.open(db_url, password_hasher=FAST_HASHER)
        try:
            found = [await store.users.session_user(token) for token in (first, second)]
            owner = await store.users.get("ann")
            owned = await store.bots.owned(owner)
            assert [bot.username for bot in owned] == ["deep_bot"]
            return [None if user is None else user.username for user in found]
        finally:
            await store.close()

    assert asyncio.run(signed_in()) == [None, "deep_bot"]
    assert main(["accounts", "revoke", "deep_bot", "--database-url", db_url]) == 0
    assert "deep_bot: 1 token ended" in capsys.readouterr().out
    assert asyncio.run(signed_in()) == [None, None]


def test_tables_are_listed_and_their_bots_chat_turned_off_and_on(
    db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    async def make() -> int:
        async with await Store.open(db_url, password_hasher=FAST_HASHER) as store:
            await store.tables.create(TableConfig("Razz nights", "razz", bots=2))
            return (await store.tables.create(TableConfig("Quiet 3x4", "3x4", bots=3))).id

    quiet = asyncio.run(make())
    assert main(["tables", "list", "--database-url", db_url]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith("Razz nights  (razz, 6 seats, 2 pro bots, chat on)")
    assert out[1].endswith("Quiet 3x4  (3x4, 6 seats, 3 pro bots, chat on)")
    assert main(["tables", "chat", str(quiet), "off", "--database-url", db_url]) == 0
    assert "Quiet 3x4  (3x4, 6 seats, 3 pro bots, chat off)" in capsys.readouterr().out

    async def setting() -> bool:
        async with await Store.open(db_url, password_hasher=FAST_HASHER) as store:
            return (await store.tables.get(quiet)).config.bot_chat

    assert asyncio.run(setting()) is False
    assert main(["tables", "chat", str(quiet), "on", "--database-url", db_url]) == 0
    assert asyncio.run(setting()) is True
    with pytest.raises(SystemExit):
        main(["tables", "chat", str(quiet), "maybe", "--database-url", db_url])
    assert asyncio.run(setting()) is True
