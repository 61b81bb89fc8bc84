"""One table in the room: its task and the room's rules around its hands, its clocks and
timers, what it stores (recorder, committer) and tells (outbox, views), its house bots.
"""
