"""The room: an ASGI app with an HTTP API and websockets, one task per table.

``pokerhouse serve`` runs :func:`pokerhouse.server.app.create_app` on uvicorn.
The engine and the table stay pure; this package adapts them: it keeps the
clocks, persists every accepted action before anyone sees it, and sends each
connection only what its viewer may know. See ``docs/protocol.md``.
"""
