"""Older pages of ``/api/me/ledger`` and ``/api/me/hands`` over a real socket: keyset paging."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.conftest import Client, Harness
from tests.server.play import play_hand, showdown, sit


async def _all_pages(client: Client, path: str, key: str, limit: int) -> list[dict[str, Any]]:
    """Every page of ``path`` from the newest, following ``next`` until it is null."""
    pages, params = [], {"limit": str(limit)}
    while True:
        response = await client.http.get(path, params=params)
        assert response.status_code == 200, response.text
        body = response.json()
        assert len(body[key]) <= limit
        pages.append(body)
        if body["next"] is None:
            return pages
        params = {"limit": str(limit), "before": str(body["next"])}


async def test_the_statement_pages_back_to_the_grant(room: Harness) -> None:
    ann = await room.player()
    store = room.site.store
    user = await store.users.get(ann.name)
    for n in range(9):
        await store.ledger.top_up(user, n + 1, key=f"paging-top-up:{n}")
    whole = (await ann.http.get("/api/me/ledger")).json()
    assert len(whole["lines"]) == 10 and whole["next"] is None
    pages = await _all_pages(ann, "/api/me/ledger", "lines", 4)
    assert [len(page["lines"]) for page in pages] == [4, 4, 2]
    # Each page is oldest first; the pages run newest first; together, the whole statement.
    stitched = [line for page in reversed(pages) for line in page["lines"]]
    assert stitched == whole["lines"]
    assert stitched[0]["kind"] == "grant"
    assert [line["balance"] for line in stitched] == [
        10_000 + sum(range(1, n + 1)) for n in range(10)
    ]
    # next is the oldest line's entry: the page after starts below it.
    assert pages[0]["next"] == pages[0]["lines"][0]["entry"]
    assert all(page["wallet"] == whole["wallet"] for page in pages)


async def test_hands_page_newest_first_with_next(room: Harness) -> None:
    table = room.table_id("Teen Patti")
    ann, bob = await room.player(), await room.player()
    await sit(ann, table, 0, 150)
    await sit(bob, table, 1, 150)
    for _ in range(3):
        await play_hand([ann, bob], table, showdown)
    # No hand begins while the list is read (a fourth may have: it waits for its players).
    for who in (ann, bob):
        await who.send({"type": "sit_out", "table": table})
    await room.settle()
    whole = (await ann.http.get("/api/me/hands")).json()
    assert whole["next"] is None
    pages = await _all_pages(ann, "/api/me/hands", "hands", 2)
    stitched = [hand for page in pages for hand in page["hands"]]
    assert stitched == whole["hands"] and len(stitched) >= 3  # a fourth may have begun
    ids = [hand["id"] for hand in stitched]
    assert ids == sorted(ids, reverse=True)
    assert pages[0]["next"] == pages[0]["hands"][-1]["id"]
    # Past the oldest hand: an empty page, nothing older.
    empty = (await ann.http.get("/api/me/hands", params={"before": str(ids[-1])})).json()
    assert empty == {"hands": [], "next": None}


@pytest.mark.parametrize(
    ("path", "params", "code"),
    [
        ("/api/me/ledger", {"limit": "0"}, "bad_limit"),
        ("/api/me/ledger", {"limit": "501"}, "bad_limit"),
        ("/api/me/ledger", {"limit": "ten"}, "bad_limit"),
        ("/api/me/ledger", {"limit": ""}, "bad_limit"),
        ("/api/me/ledger", {"before": "0"}, "bad_before"),
        ("/api/me/ledger", {"before": "-3"}, "bad_before"),
        ("/api/me/ledger", {"before": "9223372036854775808"}, "bad_before"),
        ("/api/me/ledger", {"before": "1e3"}, "bad_before"),
        ("/api/me/ledger", {"before": "\u0661"}, "bad_before"),  # an Arabic-Indic one
        ("/api/me/hands", {"limit": "201"}, "bad_limit"),
        ("/api/me/hands", {"limit": "+5"}, "bad_limit"),
        ("/api/me/hands", {"before": " 7"}, "bad_before"),
        ("/api/me/hands", {"before": "7.0"}, "bad_before"),
    ],
)
async def test_a_bad_limit_or_before_is_a_400_problem(
    room: Harness, path: str, params: dict[str, str], code: str
) -> None:
    ann = await room.player()
    response = await ann.http.get(path, params=params)
    assert response.status_code == 400
    assert response.json()["code"] == code and response.json()["message"]


async def test_the_largest_limits_and_before_are_taken(room: Harness) -> None:
    ann = await room.player()
    for path, most in (("/api/me/ledger", 500), ("/api/me/hands", 200)):
        params = {"limit": str(most), "before": str(2**63 - 1)}
        response = await ann.http.get(path, params=params)
        assert response.status_code == 200, response.text
        assert response.json()["next"] is None
    # Signed out, paging changes nothing: sign in first.
    outsider = Client(room.base, None)
    assert (await outsider.http.get("/api/me/ledger", params={"limit": "0"})).status_code == 401
    await outsider.close()
