"""schemathesis against a real ``pokerhouse serve``'s ``/api/openapi.json``.

Every operation of the document gets cases generated from its schema
(bodies, headers, path and query parameters, valid and not), sent signed in
and signed out, with the right CSRF token and without. The server must never
answer 5xx, and every answer must be one the document declares: its status,
content type, headers and body schema. The default run sends
``POKERHOUSE_SCHEMA_EXAMPLES`` (default 10) cases an operation; the slow suite
sends more.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import checks

from pokerhouse.store import Store
from tests.server.process import ServeProcess

EXAMPLES = int(os.environ.get("POKERHOUSE_SCHEMA_EXAMPLES", "10"))
PASSWORD = "correct horse battery"
CHECKS = [
    checks.not_a_server_error,
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_headers_conformance,
    checks.response_schema_conformance,
]

ROOM = """
[room]
metrics = true
hand_pause = 0.0
bot_think = [0.0, 0.0]

[[tables]]
name = "3x4 schema"
game = "3x4"
options = { ante = 1, small_bet = 2 }
seats = 2
bots = 0
min_buy_in = 20
max_buy_in = 1000
"""


@pytest.fixture
def served(db_url: str, tmp_path: Path) -> Iterator[ServeProcess]:
    config = tmp_path / "room.toml"
    config.write_text(ROOM)
    server = ServeProcess(db_url, config)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def new_session(url: str, name: str) -> requests.Session:
    """A browser signed in as ``name``, its session made by the store directly."""

    async def make() -> str:
        store = await Store.open(url, upgrade=False)
        try:
            return await store.users.new_session(await store.users.get(name))
        finally:
            await store.close()

    session = requests.Session()
    session.cookies.set("ph_session", asyncio.run(make()))
    session.cookies.set("ph_csrf", "csrf-of-a-new-session")
    return session


def signed_in(base: str, name: str) -> requests.Session:
    """A session signed in as a new account ``name``."""
    session = requests.Session()
    csrf = session.get(f"{base}/api/csrf", timeout=10).json()["csrf"]
    response = session.post(
        f"{base}/api/register",
        json={"username": name, "password": PASSWORD},
        headers={"X-CSRF-Token": csrf},
        timeout=10,
    )
    assert response.status_code == 201, response.text
    return session


def test_every_answer_matches_the_document_and_none_is_a_server_error(
    served: ServeProcess,
) -> None:
    run_schema(served, EXAMPLES)


@pytest.mark.slow
def test_the_document_with_a_bigger_budget(served: ServeProcess) -> None:
    run_schema(served, int(os.environ.get("POKERHOUSE_SCHEMA_SLOW_EXAMPLES", "150")))


def run_schema(served: ServeProcess, examples: int) -> None:
    base = served.base
    schema = schemathesis.openapi.from_url(f"{base}/api/openapi.json")
    players = {"in": signed_in(base, "schema_ann"), "out": requests.Session()}
    ran: dict[str, int] = {}
    for result in schema.get_all_operations():
        operation = result.ok()
        ran[operation.label] = 0
        fuzz_operation(operation, served, players, ran, examples)
    total = sum(ran.values())
    print(f"schemathesis: {total} cases over {len(ran)} operations: {ran}")
    assert len(ran) >= 12 and total >= len(ran)  # schemathesis skips the document itself


def fuzz_operation(
    operation: Any,
    served: ServeProcess,
    players: dict[str, requests.Session],
    ran: dict[str, int],
    examples: int,
) -> None:
    """Send ``examples`` cases of one operation and check each answer."""

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy(), who=st.sampled_from(["in", "out"]), csrf=st.booleans())
    def check(case: Any, who: str, csrf: bool) -> None:
        session = players[who]
        headers = {}
        if csrf and session.cookies.get("ph_csrf"):
            headers["X-CSRF-Token"] = session.cookies["ph_csrf"]
        response = case.call(base_url=served.base, session=session, headers=headers, timeout=10)
        case.validate_response(response, checks=CHECKS)
        ran[operation.label] += 1
        if who == "in" and session.cookies.get("ph_session") is None:
            # A fuzzed logout ended the session: a new one for what follows (from the store,
            # since the fuzzed failed logins have this address waiting).
            players["in"] = new_session(served.database_url, "schema_ann")

    check()
