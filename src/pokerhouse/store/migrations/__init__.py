"""Alembic migrations of the store's schema (run by ``pokerhouse db upgrade``)."""
