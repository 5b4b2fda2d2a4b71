"""Milvus wiring: a collection with a user-scoped filtered vector search on the real server."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from pymilvus import DataType, MilvusClient

from core.config import Settings

pytestmark = pytest.mark.services
DIM = 8


@pytest.fixture
def client(settings: Settings) -> Iterator[MilvusClient]:
    token = settings.MEMORY_MILVUS_TOKEN.get_secret_value() if settings.MEMORY_MILVUS_TOKEN else ""
    c = MilvusClient(uri=settings.milvus_uri, token=token, timeout=60)  # generous: a loaded machine
    try:
        yield c
    finally:
        c.close()


def _vec(seed: int, user: int) -> list[float]:
    base = [0.0] * DIM
    base[seed % DIM] = 1.0
    base[(seed + 1) % DIM] = 0.5 + 0.01 * user  # the two users' vectors are almost identical
    return base


def test_user_scoped_filtered_search(client: MilvusClient, unique_name: Callable[[str], str]) -> None:
    name = unique_name("found_mem")
    schema = MilvusClient.create_schema(auto_id=False, enable_dynamic_field=False)
    schema.add_field("id", DataType.INT64, is_primary=True)
    schema.add_field("user_id", DataType.INT64)
    schema.add_field("embedding", DataType.FLOAT_VECTOR, dim=DIM)
    index = MilvusClient.prepare_index_params()
    index.add_index(field_name="embedding", index_type="FLAT", metric_type="COSINE")
    client.create_collection(name, schema=schema, index_params=index)
    try:
        rows = [{"id": user * 100 + i, "user_id": user, "embedding": _vec(i, user)}
                for user in (1, 2) for i in range(5)]
        assert client.insert(name, rows)["insert_count"] == 10
        client.load_collection(name)

        for user in (1, 2):
            hits = client.search(name, data=[_vec(0, user)], filter=f"user_id == {int(user)}", limit=10,
                                 output_fields=["user_id"], anns_field="embedding")[0]
            ids = [h["id"] for h in hits]
            assert sorted(ids) == [user * 100 + i for i in range(5)]
            assert ids[0] == user * 100  # nearest is the identical vector
            assert {h["entity"]["user_id"] for h in hits} == {user}

        unfiltered = client.search(name, data=[_vec(0, 1)], limit=10, anns_field="embedding")[0]
        assert {h["id"] // 100 for h in unfiltered} == {1, 2}  # without the filter both users come back

        client.delete(name, filter="user_id == 2")
        hits = client.search(name, data=[_vec(0, 2)], filter="user_id == 2", limit=10,
                             anns_field="embedding")[0]
        assert len(hits) == 0
    finally:
        client.drop_collection(name)
    assert name not in client.list_collections()
