"""The one registry of PostgreSQL advisory-lock namespaces (the first key of the two-key form).

Every advisory lock the service takes is ``pg_(try_)advisory_xact_lock(<namespace>, <key>)`` with a
namespace from here, so two features can never collide on a number. A new lock gets a new member.
"""

from __future__ import annotations

from enum import IntEnum


class AdvisoryLock(IntEnum):
    """Advisory-lock namespaces, one per kind of lock; the second key says which instance."""

    USER_WRITES = 7411
    """Writers of one user's memories (key: the user's internal id), ``core.memory.store.lock_user``."""
    SWEEPER_LEADER = 7412
    """The sweeper's leader locks (key: which scan), ``core.memory.redrive``."""
    RELAY_USER_CLAIM = 7413
    """The outbox relay's per-user claim (key: ``hashtext(message_key)``), ``producers.outbox_relay``."""
    REINDEX = 7414
    """One whole index rebuild at a time (key 1), ``core.reindex``."""
