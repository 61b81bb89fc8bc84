"""Home games: private tables, their host, invitations and session ledger."""
