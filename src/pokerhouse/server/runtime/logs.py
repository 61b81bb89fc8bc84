"""Structured logs: one JSON line per request, per action and per hand.

Each line names what it is about (``table``, ``hand``, ``conn``...) so an
operator can follow one hand or one connection through the room. A line
never carries a hole card or a password: the fields are chosen here, not
dumped from objects, and :func:`record` refuses a field named after a
secret.

>>> import io, logging
>>> stream = io.StringIO()
>>> handler = logging.StreamHandler(stream)
>>> handler.setFormatter(JsonFormatter())
>>> logger = logging.getLogger("pokerhouse.demo")
>>> logger.addHandler(handler); logger.setLevel(logging.INFO); logger.propagate = False
>>> record(logger, "action", table=3, hand=12, seat=1, kind="raise", amount=40)
>>> json.loads(stream.getvalue())["event"], json.loads(stream.getvalue())["amount"]
('action', 40)
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

#: Field names that would mean a secret is about to be logged: refused outright.
_SECRETS = frozenset({"cards", "hole", "deck", "deck_order", "password", "token", "cookie"})

events = logging.getLogger("pokerhouse.events")


def record(logger: logging.Logger, event: str, **fields: Any) -> None:
    """Log one structured line: ``event`` and its fields (plain values only)."""
    bad = _SECRETS.intersection(fields)
    if bad:
        raise ValueError(f"refusing to log secret fields {sorted(bad)}")
    if logger.isEnabledFor(logging.INFO):
        logger.info(event, extra={"fields": fields})


class JsonFormatter(logging.Formatter):
    """Each record as one JSON object: time, level, logger, event or message, fields."""

    def format(self, entry: logging.LogRecord) -> str:
        data: dict[str, Any] = {
            "time": round(entry.created, 3),
            "level": entry.levelname.lower(),
            "logger": entry.name,
        }
        fields = getattr(entry, "fields", None)
        if isinstance(fields, dict):
            data["event"] = entry.getMessage()
            data.update(fields)
        else:
            data["message"] = entry.getMessage()
        if entry.exc_info:
            data["error"] = self.formatException(entry.exc_info)
        return json.dumps(data, default=str, separators=(",", ":"))


#: The logger redis-py writes the messages pushed to a subscriber to.
REDIS_PUSHES = "push_response"


def configure(level: str = "info", fmt: str = "json") -> None:
    """Send the room's logs to stderr, as JSON lines (``fmt="json"``) or text."""
    handler = logging.StreamHandler()
    if fmt == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    # The room writes its own request lines; uvicorn's access log would repeat them.
    logging.getLogger("uvicorn.access").disabled = True
    # redis-py logs every message pushed to a subscriber, whole (at debug; at info in some
    # versions): the bus's carry hole cards on their way to a player's node.
    logging.getLogger(REDIS_PUSHES).setLevel(logging.WARNING)


def now_ms(started: float) -> float:
    """Milliseconds since ``started`` (a ``time.perf_counter()`` reading)."""
    return round((time.perf_counter() - started) * 1000, 3)
