"""Process plumbing every part of a running room uses: its clock, queues, stopping tasks,
logs, metrics, crash points, the collector, the listening socket.
"""
