"""Test collection settings shared by the test suite and the doctests."""

# The migrations run inside Alembic only (env.py reads Alembic's context).
collect_ignore = ["src/pokerhouse/__main__.py", "src/pokerhouse/store/migrations"]
