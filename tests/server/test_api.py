"""The HTTP API over a real socket: accounts, sessions, CSRF, the lobby, histories, health."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
import websockets

from tests.server.conftest import Client, Harness
from tests.server.play import play_hand, showdown, sit


async def fresh(room: Harness) -> tuple[httpx.AsyncClient, str]:
    http = httpx.AsyncClient(base_url=room.base, timeout=30)
    csrf = (await http.get("/api/csrf")).json()["csrf"]
    return http, csrf


async def test_register_sets_a_safe_session_cookie_and_grants_chips(room: Harness) -> None:
    http, csrf = await fresh(room)
    response = await http.post(
        "/api/register",
        json={"username": "Ann_1", "password": "correct horse"},
        headers={"X-CSRF-Token": csrf},
    )
    assert response.status_code == 201
    assert response.json() == {
        "username": "Ann_1",
        "bot": False,
        "wallet": 10_000,
        "in_play": 0,
        "seats": [],
    }
    cookies = response.headers.get_list("set-cookie")
    session = next(c for c in cookies if c.startswith("ph_session="))
    assert "HttpOnly" in session and "SameSite=lax" in session
    assert (await http.get("/api/me")).json()["username"] == "Ann_1"
    # The same name in other case is taken; bad names and passwords say why.
    other, csrf2 = await fresh(room)
    for body, status, code in (
        ({"username": "ann_1", "password": "another one"}, 409, "username_taken"),
        ({"username": "a b", "password": "another one"}, 400, "bad_username"),
        ({"username": "bobby", "password": "short"}, 400, "bad_password"),
        ({"username": "bobby"}, 400, "bad_request"),
        ({"username": "bobby", "password": "x" * 10, "admin": True}, 400, "bad_request"),
    ):
        refused = await other.post("/api/register", json=body, headers={"X-CSRF-Token": csrf2})
        assert (refused.status_code, refused.json()["code"]) == (status, code), body
    assert (
        await other.post("/api/register", content=b"{", headers={"X-CSRF-Token": csrf2})
    ).json()["code"] == "bad_json"
    await http.aclose()
    await other.aclose()


async def test_login_fails_the_same_way_for_a_wrong_name_or_password(room: Harness) -> None:
    ann = await room.player("carol")
    http, csrf = await fresh(room)
    answers = []
    for body in (
        {"username": "carol", "password": "wrong password"},
        {"username": "nobody_here", "password": "correct horse battery"},
    ):
        response = await http.post("/api/login", json=body, headers={"X-CSRF-Token": csrf})
        answers.append((response.status_code, response.json()))
    assert (
        answers[0]
        == answers[1]
        == (
            401,
            {"code": "login_failed", "message": "unknown user or wrong password"},
        )
    )
    good = await http.post(
        "/api/login",
        json={"username": "CAROL", "password": "correct horse battery"},
        headers={"X-CSRF-Token": csrf},
    )
    assert good.status_code == 200 and good.json()["username"] == "carol"
    # A new token at each login; logout ends it.
    assert http.cookies.get("ph_session") != ann.http.cookies.get("ph_session")
    csrf = http.cookies.get("ph_csrf") or ""
    assert (await http.post("/api/logout", headers={"X-CSRF-Token": csrf})).status_code == 200
    assert (await http.get("/api/me")).status_code == 401
    await http.aclose()


async def test_state_changes_need_the_csrf_token_and_this_origin(room: Harness) -> None:
    http, csrf = await fresh(room)
    body = {"username": "dave", "password": "correct horse"}
    assert (await http.post("/api/register", json=body)).json()["code"] == "csrf"
    wrong = await http.post("/api/register", json=body, headers={"X-CSRF-Token": "x" + csrf})
    assert wrong.status_code == 403
    other = await http.post(
        "/api/register",
        json=body,
        headers={"X-CSRF-Token": csrf, "Origin": "https://evil.example"},
    )
    assert (other.status_code, other.json()["code"]) == (403, "bad_origin")
    # Nothing was created by the refused requests.
    ok = await http.post("/api/register", json=body, headers={"X-CSRF-Token": csrf})
    assert ok.status_code == 201
    await http.aclose()


async def test_a_cross_origin_websocket_is_refused(room: Harness) -> None:
    url = room.base.replace("http://", "ws://") + "/ws"
    with pytest.raises(websockets.InvalidStatus):
        await websockets.connect(url, origin="https://evil.example", open_timeout=30)  # type: ignore[arg-type]
    same = await websockets.connect(url, origin=room.base, open_timeout=30)  # type: ignore[arg-type]
    await same.close()


async def test_lobby_me_hands_ledger_and_health(room: Harness) -> None:
    table = room.table_id("Teen Patti")
    ann, bob = await room.player(), await room.player()
    await sit(ann, table, 0, 150)
    await sit(bob, table, 1, 150)
    await play_hand([ann, bob], table, showdown)
    lobby = (await ann.http.get("/api/tables")).json()["tables"]
    line = next(t for t in lobby if t["id"] == table)
    assert [p["name"] for p in line["players"]] == [ann.name, bob.name]
    me = (await ann.http.get("/api/me")).json()
    assert me["seats"] == [{"table": table, "seat": 0, "stack": me["seats"][0]["stack"]}]
    hands = (await ann.http.get("/api/me/hands")).json()["hands"]
    first = next(hand for hand in hands if hand["number"] == 1)
    ledger = (await ann.http.get("/api/me/ledger")).json()
    assert [line["kind"] for line in ledger["lines"]][:2] == ["grant", "buy-in"] or [
        line["kind"] for line in ledger["lines"]
    ][-2:] == ["buy-in", "grant"]
    assert ledger["wallet"] == 10_000 - 150
    history = (await ann.http.get(f"/api/hands/{first['id']}")).json()
    assert history["you"] is not None and history["history"]["view"] != "server"
    text = (await ann.http.get(f"/api/hands/{first['id']}", params={"format": "text"})).text
    assert "Teen Patti" in text
    spectator = Client(room.base, None)
    seen = await spectator.http.get(f"/api/hands/{first['id']}")
    assert seen.status_code == 200 and seen.json()["you"] is None
    assert (await spectator.http.get("/api/hands/999999")).status_code == 404
    assert (await spectator.http.get("/api/me")).status_code == 401
    health = (await spectator.http.get("/healthz")).json()
    assert health["ok"] and health["tables"] == 4
    document = (await spectator.http.get("/api/openapi.json")).json()
    assert "/api/hands/{hand_id}" in document["paths"]
    await spectator.close()


async def test_unknown_paths_wrong_methods_and_big_bodies_get_json_problems(room: Harness) -> None:
    http, csrf = await fresh(room)
    missing = await http.get("/api/nothing-here")
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")
    wrong = await http.get("/api/login")
    assert (wrong.status_code, wrong.json()["code"]) == (405, "method_not_allowed")
    assert "POST" in wrong.headers["allow"]
    huge = await http.get(f"/api/hands/{2**80}")
    assert (huge.status_code, huge.json()["code"]) == (404, "unknown_hand")
    # A body over the limit is refused whether its length is declared or streamed.
    big = b'{"username": "x", "password": "' + b"y" * 10_000 + b'"}'
    declared = await http.post("/api/login", content=big, headers={"X-CSRF-Token": csrf})
    assert (declared.status_code, declared.json()["code"]) == (413, "body_too_large")

    async def chunks() -> AsyncIterator[bytes]:
        for start in range(0, len(big), 1000):
            yield big[start : start + 1000]

    streamed = await http.post("/api/login", content=chunks(), headers={"X-CSRF-Token": csrf})
    assert (streamed.status_code, streamed.json()["code"]) == (413, "body_too_large")
    await http.aclose()
