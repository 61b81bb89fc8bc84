"""Tournaments in the room: their tasks, tables, relay between nodes, pages and API."""
