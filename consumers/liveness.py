"""Group-membership liveness: find a member left without partitions that nobody else owns.

After a coordinator outage (a broker restart, "partitions lost"), librdkafka can leave a member
subscribed but outside the group for good (a known class of client reports: it keeps waiting for a
coordinator or a join that never completes). Nothing fails, nothing is consumed, lag grows.

The rule, in two parts so that a member idle by design is left alone:

- ``AssignmentWatchdog`` (pure timing): a check is due once the member has held no partition for
  ``after_sec`` seconds, and again every ``after_sec`` seconds while that lasts. ``after_sec`` 0
  disables it.
- ``partitions_without_owner`` (one broker read): the partitions of the member's topics that no
  member of its group owns, read from the group's description. A member idle because the group has
  more members than partitions finds every partition owned and does nothing; so does a member whose
  group is rebalancing (the description is only trusted in the ``STABLE`` and ``EMPTY`` states).

When a check finds unowned partitions, the loop replaces its client with a fresh one (a new join);
see ``ConsumerLoop``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from confluent_kafka import ConsumerGroupState, KafkaException
from confluent_kafka.admin import AdminClient

TopicPartitionKey = tuple[str, int]
TRUSTED_STATES = (ConsumerGroupState.STABLE, ConsumerGroupState.EMPTY)


class GroupUnreadable(RuntimeError):
    """The broker could not describe the group or its topics now (down, timeout, rebalancing)."""


@dataclass
class AssignmentWatchdog:
    """When to look: after ``after_sec`` without any partition, then every ``after_sec``."""

    after_sec: float
    _unassigned_since: float | None = None
    _last_check: float | None = None

    def due(self, assigned: bool, now: float) -> bool:
        """Feed the member's state each loop turn; True when a check should run now."""
        if self.after_sec <= 0 or assigned:
            self._unassigned_since = None
            self._last_check = None
            return False
        if self._unassigned_since is None:
            self._unassigned_since = now
        if now - self._unassigned_since < self.after_sec:
            return False
        return self._last_check is None or now - self._last_check >= self.after_sec

    def checked(self, now: float) -> None:
        """A check ran at ``now`` (whatever it found): the next one is ``after_sec`` later."""
        self._last_check = now

    def rejoined(self, now: float) -> None:
        """The member rejoined at ``now``: give the new join a whole ``after_sec``."""
        self._unassigned_since = now
        self._last_check = None


def unowned(partitions: Iterable[TopicPartitionKey],
            owned: Iterable[TopicPartitionKey]) -> set[TopicPartitionKey]:
    """The partitions no member owns."""
    return set(partitions) - set(owned)


def partitions_without_owner(admin: AdminClient, group: str, partitions: Iterable[TopicPartitionKey],
                             timeout: float = 5.0) -> set[TopicPartitionKey]:
    """Which of ``partitions`` no member of ``group`` owns, by the broker's group description.

    Raises ``GroupUnreadable`` when the broker cannot answer or the group is between states (a
    rebalance in progress owns nothing yet and must not look like an orphaned member)."""
    try:
        desc = admin.describe_consumer_groups([group], request_timeout=timeout)[group].result()
    except KafkaException as exc:
        raise GroupUnreadable(f"describe group {group}: {exc}") from exc
    if desc.state not in TRUSTED_STATES:
        raise GroupUnreadable(f"group {group} is {desc.state.name}")
    owned = [(tp.topic, tp.partition) for m in desc.members
             for tp in (m.assignment.topic_partitions if m.assignment else [])]
    return unowned(partitions, owned)
