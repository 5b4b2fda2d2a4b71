"""Pure helpers of the local Kafka service (no broker needed)."""

from __future__ import annotations

import base64
import uuid
from unittest import mock

from localstack.kafka import new_cluster_id


def test_cluster_id_is_a_base64_uuid() -> None:
    cluster_id = new_cluster_id()
    assert len(cluster_id) == 22
    assert uuid.UUID(bytes=base64.urlsafe_b64decode(cluster_id + "=="))


def test_cluster_id_never_starts_with_a_dash() -> None:
    """An id such as ``-abc...`` is read as an option by the storage tool's parser."""
    dash_first = uuid.UUID(bytes=b"\xfb" + bytes(15))  # base64 "-w..."
    plain = uuid.UUID(bytes=bytes(16))
    assert base64.urlsafe_b64encode(dash_first.bytes).decode().startswith("-")
    with mock.patch("localstack.kafka.uuid.uuid4", side_effect=[dash_first, dash_first, plain]):
        assert new_cluster_id() == "A" * 22
