"""Accounts over HTTP: signing up and in, sessions, the wallet and its statement, top-ups."""
