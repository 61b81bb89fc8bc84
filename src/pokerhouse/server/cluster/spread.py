"""How a room of several nodes spreads its tables: each node runs about its share.

Every round of its lease loop a node reads every table's lease and the
names of the live nodes (from the bus), and works out the **share** of each:
the tables divided by the live nodes, rounded up. A node takes a free table
(never run, given up, or lapsed) only while it runs fewer than its share, so
the least-loaded nodes take them; a node that runs more than its share while
another runs less gives one table up each round, between two hands, for
that node to take. So the first node to start takes every table, and each
node that joins draws its share from the others within a few rounds.

A node whose leases lapsed (it died) is not live, even while the bus still
lists it: the others take its tables at once, as many as they need.

>>> from pokerhouse.store import TableLease
>>> def lease(table: int, owner: str | None, free: bool = False) -> TableLease:
...     return TableLease(table, owner, 1, None, free)
>>> leases = {1: lease(1, "a"), 2: lease(2, "a"), 3: lease(3, "a"), 4: lease(4, None, True)}
>>> share("a", leases, others=["b"])
2
>>> over("a", leases, others=["b"])  # a runs 3 of a share of 2, and b runs none
True
>>> leases[4] = lease(4, "dead", free=True)  # "dead" let its lease lapse
>>> share("b", leases, others=["a", "dead"])
2
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping

from pokerhouse.store import TableLease


def live(me: str, leases: Mapping[int, TableLease], others: Iterable[str]) -> set[str]:
    """The nodes that run the room now: this one, every holder of a running lease, and
    the other nodes on the bus but those whose leases lapsed."""
    lapsed = {lease.owner for lease in leases.values() if lease.free and lease.owner}
    running = {lease.owner for lease in leases.values() if not lease.free and lease.owner}
    return {me} | running | (set(others) - lapsed)


def loads(leases: Mapping[int, TableLease]) -> Counter[str]:
    """Tables each node runs."""
    return Counter(lease.owner for lease in leases.values() if not lease.free and lease.owner)


def share(me: str, leases: Mapping[int, TableLease], others: Iterable[str]) -> int:
    """The tables each live node should run: all of them over the live nodes, rounded up."""
    return math.ceil(len(leases) / len(live(me, leases, others)))


def over(me: str, leases: Mapping[int, TableLease], others: Iterable[str]) -> bool:
    """Whether ``me`` runs more than its share while another live node runs less (then it
    gives a table up)."""
    nodes = live(me, leases, others)
    fair = math.ceil(len(leases) / len(nodes))
    counts = loads(leases)
    return counts[me] > fair and any(counts[node] < fair for node in nodes - {me})
