"""User buckets: the fixed set of real Milvus partitions a collection's users are spread over.

A collection created with ``n`` buckets (``EPISODE_MILVUS_USER_PARTITIONS`` for the episodes') has the
partitions ``ub<n>_0000`` .. ``ub<n>_<n-1>``; a user's entities live in exactly one of them, chosen by
``bucket_of``: a stable hash of the user id (BLAKE2b of its 8 bytes, never Python's ``hash()``, which
may change between versions), so every process, run and version maps a user to the same partition.
A user-scoped search then names that partition and scans about ``1/n`` of the collection: on Milvus
Lite a search's cost grows with the rows it scans, and a partition *key* (one physical collection,
filtered) did not cut it (``bench/RESULTS.md``).

The bucket count is a property of the collection, read back from its partition names
(``layout_of``); changing the setting applies to collections created afterwards (``pai-memory
reindex`` rebuilds one of another layout). A collection without a complete set of buckets (created
before, or with a partition key) has layout 0: it is searched whole, by the user filter alone.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re

MAX_BUCKETS = 1023
"""Milvus allows 1024 partitions per collection, one of them ``_default``."""

_NAME_RE = re.compile(r"^ub([1-9][0-9]{0,3})_([0-9]{4})$")


def _checked(buckets: int) -> int:
    if type(buckets) is not int or not 1 <= buckets <= MAX_BUCKETS:
        raise ValueError(f"bucket count must be an int in 1..{MAX_BUCKETS}, got {buckets!r}")
    return buckets


def bucket_of(user_id: int, buckets: int) -> int:
    """The bucket (0..buckets-1) of ``user_id`` (a signed 64-bit id)."""
    digest = hashlib.blake2b(int(user_id).to_bytes(8, "big", signed=True), digest_size=8).digest()
    return int.from_bytes(digest, "big") % _checked(buckets)


def bucket_name(bucket: int, buckets: int) -> str:
    """The partition name of bucket ``bucket`` in a collection of ``buckets`` buckets."""
    if not 0 <= bucket < _checked(buckets):
        raise ValueError(f"bucket {bucket} outside 0..{buckets - 1}")
    return f"ub{buckets}_{bucket:04d}"


def partition_of(user_id: int, buckets: int) -> str:
    """The partition holding ``user_id``'s entities in a collection of ``buckets`` buckets."""
    return bucket_name(bucket_of(user_id, buckets), buckets)


def all_partitions(buckets: int) -> list[str]:
    """Every bucket partition of a collection of ``buckets`` buckets, in order."""
    return [bucket_name(i, buckets) for i in range(_checked(buckets))]


def layout_of(partition_names: Iterable[str]) -> int:
    """The bucket count of a collection with these partitions: ``n`` if all of ``ub<n>_*`` are present
    (and no other count's), else 0 (searched whole)."""
    seen: dict[int, set[int]] = {}
    for name in partition_names:
        match = _NAME_RE.match(name)
        if match:
            n, i = int(match.group(1)), int(match.group(2))
            if n <= MAX_BUCKETS and i < n:
                seen.setdefault(n, set()).add(i)
    if len(seen) != 1:
        return 0
    ((n, present),) = seen.items()
    return n if len(present) == n else 0
