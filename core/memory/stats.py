"""Cheap aggregate counts of the truth, sampled into gauges by the relay process."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import text
from sqlalchemy.orm import Session


@dataclass
class TruthStats:
    messages_by_status: dict[str, int] = field(default_factory=dict)
    memories_by_vector_status: dict[tuple[str, bool], int] = field(default_factory=dict)
    outbox_backlog: int = 0
    outbox_oldest_age_seconds: float = 0.0


def sample(session: Session) -> TruthStats:
    """One round trip per table; the status columns are indexed (partial indexes on the hot values)."""
    stats = TruthStats()
    for status, n in session.execute(text("SELECT memory_status, count(*) FROM messages GROUP BY 1")):
        stats.messages_by_status[str(status)] = int(n)
    for vstatus, active, n in session.execute(text(
            "SELECT coalesce(vector_status, 'DIRTY'), coalesce(is_active, true), count(*) "
            "FROM long_term_memories GROUP BY 1, 2")):
        stats.memories_by_vector_status[(str(vstatus), bool(active))] = int(n)
    backlog, oldest = session.execute(text(
        "SELECT count(*), coalesce(extract(epoch FROM now() - min(created_at)), 0) "
        "FROM outbox WHERE published_at IS NULL")).one()
    stats.outbox_backlog, stats.outbox_oldest_age_seconds = int(backlog), float(oldest)
    return stats
