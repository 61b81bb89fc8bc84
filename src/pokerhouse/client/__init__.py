"""A client library for bots in the room: what a bot is fed at each decision."""

from pokerhouse.client.decision import Decision

__all__ = ["Decision"]
