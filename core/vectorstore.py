"""Milvus adapter for the memory index, and the registry of collections in PostgreSQL.

Milvus only recalls ids; content is always read back from PostgreSQL. One entity per memory:
``id`` INT64 primary key (= ``long_term_memories.id``), ``user_id`` INT64, ``memory_type`` VARCHAR,
``vector`` FLOAT_VECTOR(dim), COSINE metric, index ``index_type`` (FLAT by default: an exact scan of
the one user's rows a search is scoped to), Strong consistency for reads and writes except
retrieval searches (``search_consistency``, Bounded by default).

Invariants:
- Every filter this module sends to Milvus is built by ``user_scope_filter`` (or ``_id_filter``)
  from values validated as plain ``int`` in the INT64 range; nothing user-supplied is ever
  interpolated as text (Milvus Lite has no ``filter_params`` templating).
- Every search is scoped to one user: by the filter, and in a collection made with user buckets
  (``user_partitions``, ``core.vector_buckets``) also to the user's partition; writes go to that
  partition, deletes by id reach every partition.
- No network in constructors: the client connects on first use. Connection failures and
  timeouts raise ``VectorStoreUnavailable`` (so retrieval can fall back to a lexical scan); other
  server errors raise ``VectorStoreError``.
- A collection's dimension and the registry's model/dimension must match the configured embedder;
  a difference raises ``IndexModelMismatch`` instead of mixing vector spaces.
"""

from __future__ import annotations

import functools
import math
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from core import vector_buckets
from core.config import Settings
from core.milvus_client import (
    GRPC_OPTIONS,
    ClientHolder,
    IndexModelMismatch,
    VectorStoreError,
    VectorStoreUnavailable,
    is_not_loaded,
    is_unavailable,
)
from core.milvus_serving import ServingState, read_state, wait_until_ready
from core.storage.models import VectorCollection

__all__ = ["GRPC_OPTIONS", "IndexModelMismatch", "IndexRow", "MilvusMemoryIndex", "ServingState",
           "VectorStoreError", "VectorStoreUnavailable", "user_scope_filter", "validated_int64"]

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
MEMORY_TYPE_MAX_LEN = 40
MAX_SEARCH_LIMIT = 16384  # Milvus top-k ceiling
_UPSERT_CHUNK = 512
INDEX_TYPES = frozenset({"FLAT", "AUTOINDEX", "HNSW", "IVF_FLAT"})
_COLLECTION_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,254}$")
LAYOUT_RECHECK_SEC = 30.0
"""How long a view trusts the bucket layout it read (writes always read it again)."""

T = TypeVar("T")


@dataclass(frozen=True)
class IndexRow:
    """One memory's index entry. ``vector`` must have the collection's dimension."""

    id: int
    user_id: int
    memory_type: str
    vector: Sequence[float] | npt.NDArray[np.float32]


def validated_int64(value: object, what: str = "id") -> int:
    """``value`` if it is a plain ``int`` (not ``bool``) in the INT64 range, else ``ValueError``."""
    if type(value) is not int and not isinstance(value, np.integer):
        raise ValueError(f"{what} must be an int, got {type(value).__name__}")
    number = int(value)
    if not INT64_MIN <= number <= INT64_MAX:
        raise ValueError(f"{what} out of INT64 range: {number}")
    return number


def user_scope_filter(user_id: int) -> str:
    """The Milvus filter restricting an operation to one user: ``user_id == <int>``.

    The only place a user scope is turned into filter text; ``user_id`` is validated as an int.
    """
    return f"user_id == {validated_int64(user_id, 'user_id')}"


def _id_filter(ids: Sequence[int]) -> str:
    return "id in [" + ", ".join(str(validated_int64(i)) for i in ids) + "]"


def _validated_collection(name: str) -> str:
    if not isinstance(name, str) or not _COLLECTION_RE.match(name):
        raise ValueError(f"invalid Milvus collection name: {name!r}")
    return name


class MilvusMemoryIndex:
    """The memory index in one Milvus collection (``collection``, dimension ``dim``)."""

    def __init__(self, uri: str, collection: str, dim: int, *, token: str | None = None,
                 timeout: float = 10.0, index_type: str = "FLAT", search_consistency: str = "Bounded",
                 _shared: ClientHolder | None = None) -> None:
        if dim < 1:
            raise ValueError("dim must be >= 1")
        if index_type not in INDEX_TYPES:
            raise ValueError(f"index_type must be one of {sorted(INDEX_TYPES)}, got {index_type!r}")
        self.uri = uri
        self.index_type = index_type
        self.search_consistency = search_consistency
        # > 0: collections this view creates get this many user buckets, real partitions
        # (``core.vector_buckets``), so a user-scoped search scans one (the episodes' collection)
        self.user_partitions = 0
        self._layout: tuple[int, float] | None = None  # (bucket count read, monotonic time read)
        self.collection = _validated_collection(collection)
        self.dim = dim
        self.timeout = timeout
        self._holder = _shared or ClientHolder(uri, token, timeout)

    @classmethod
    def from_settings(cls, settings: Settings, collection: str | None = None,
                      dim: int | None = None) -> MilvusMemoryIndex:
        secret = settings.MEMORY_MILVUS_TOKEN
        token = secret.get_secret_value() if secret is not None else None
        return cls(settings.milvus_uri, collection or settings.MEMORY_MILVUS_COLLECTION,
                   dim or settings.embedding_dim, token=token, timeout=settings.MEMORY_MILVUS_TIMEOUT_SEC,
                   index_type=settings.MEMORY_MILVUS_INDEX_TYPE,
                   search_consistency=settings.MEMORY_MILVUS_SEARCH_CONSISTENCY)

    def for_collection(self, collection: str, dim: int | None = None) -> MilvusMemoryIndex:
        """The same server connection, another collection (e.g. the target of a reindex)."""
        return MilvusMemoryIndex(self.uri, collection, dim or self.dim, timeout=self.timeout,
                                 index_type=self.index_type, search_consistency=self.search_consistency,
                                 _shared=self._holder)

    # --- collections ----------------------------------------------------------------------------
    def ensure_collection(self, name: str | None = None, dim: int | None = None) -> None:
        """Create the collection if absent (schema above) and make sure it is loaded.

        Raises ``IndexModelMismatch`` if it exists with another dimension or vector field.
        """
        name = _validated_collection(name or self.collection)
        dim = dim or self.dim

        def op(client: Any) -> None:
            if client.has_collection(name, timeout=self.timeout):
                existing = self._describe_dim(client, name)
                if existing != dim:
                    raise IndexModelMismatch(
                        f"Milvus collection {name!r} has vector dimension {existing}, the configured "
                        f"embedder produces {dim}; reindex into a new collection")
                state = client.get_load_state(name, timeout=self.timeout)
                if "NotLoad" in str(state.get("state")):
                    client.load_collection(name, timeout=self.timeout)
                return
            from pymilvus import DataType, MilvusClient

            schema = MilvusClient.create_schema(auto_id=False, enable_dynamic_field=False)
            schema.add_field("id", DataType.INT64, is_primary=True)
            schema.add_field("user_id", DataType.INT64)
            schema.add_field("memory_type", DataType.VARCHAR, max_length=MEMORY_TYPE_MAX_LEN)
            schema.add_field("vector", DataType.FLOAT_VECTOR, dim=dim)
            index_params = client.prepare_index_params()
            index_params.add_index(field_name="vector", index_type=self.index_type, metric_type="COSINE")
            client.create_collection(name, schema=schema, index_params=index_params,
                                     consistency_level="Strong", timeout=self.timeout)

        self._call(op)
        if self.user_partitions > 0 and self.has_collection(name):
            self._call(functools.partial(self._ensure_buckets, name))

    def _ensure_buckets(self, name: str, client: Any) -> None:
        """Create the missing user buckets of a new collection, or of one whose creation stopped half-way
        (one with other partitions, e.g. a partition key, is left alone: ``pai-memory reindex``)."""
        present = set(client.list_partitions(name, timeout=self.timeout))
        wanted = vector_buckets.all_partitions(self.user_partitions)
        if present - {"_default"} - set(wanted):
            return
        missing = [partition for partition in wanted if partition not in present]
        for partition in missing:
            client.create_partition(name, partition, timeout=self.timeout)
        if missing:
            client.load_collection(name, timeout=self.timeout)  # partitions made after the load, too
        if name == self.collection:
            self._layout = None

    def layout(self, refresh: bool = False) -> int:
        """The collection's user-bucket count (``core.vector_buckets.layout_of``; 0: none, searched
        whole). Read again after ``LAYOUT_RECHECK_SEC``, after a failed call, or when ``refresh``."""
        cached = self._layout
        if not refresh and cached is not None and time.monotonic() - cached[1] < LAYOUT_RECHECK_SEC:
            return cached[0]
        names = self._call(lambda c: c.list_partitions(self.collection, timeout=self.timeout))
        buckets = vector_buckets.layout_of(names)
        self._layout = (buckets, time.monotonic())
        return buckets

    def _scope(self, user_id: int, refresh: bool = False) -> dict[str, Any]:
        """``partition_names`` of a search or query of ``user_id`` (empty when the layout has none)."""
        buckets = self.layout(refresh)
        return {"partition_names": [vector_buckets.partition_of(user_id, buckets)]} if buckets else {}

    def has_collection(self, name: str | None = None) -> bool:
        name = _validated_collection(name or self.collection)
        return bool(self._call(lambda c: c.has_collection(name, timeout=self.timeout)))

    def drop_collection(self, name: str | None = None) -> None:
        name = _validated_collection(name or self.collection)
        self._call(lambda c: c.drop_collection(name, timeout=self.timeout))
        self._layout = None

    def describe_dim(self, name: str | None = None) -> int | None:
        """The collection's vector dimension, or ``None`` if it does not exist."""
        name = _validated_collection(name or self.collection)

        def op(client: Any) -> int | None:
            if not client.has_collection(name, timeout=self.timeout):
                return None
            return self._describe_dim(client, name)

        return self._call(op)

    def _describe_dim(self, client: Any, name: str) -> int:
        desc = client.describe_collection(name, timeout=self.timeout)
        for field in desc.get("fields", []):
            if field.get("name") == "vector":
                return int(field.get("params", {}).get("dim", -1))
        raise IndexModelMismatch(f"Milvus collection {name!r} has no 'vector' field; not a memory index")

    # --- entities -------------------------------------------------------------------------------
    def upsert(self, rows: Sequence[IndexRow]) -> int:
        """Insert or replace the entries of ``rows`` (by memory id). Returns the number written."""
        if not rows:
            return 0
        data = [self._entity(row) for row in rows]
        buckets = self.layout(refresh=True)  # a write never goes by a stale layout (the row would hide)
        groups: dict[str | None, list[dict[str, Any]]] = {}
        for entity in data:
            part = vector_buckets.partition_of(entity["user_id"], buckets) if buckets else None
            groups.setdefault(part, []).append(entity)
        for part, group in sorted(groups.items(), key=lambda kv: kv[0] or ""):
            for start in range(0, len(group), _UPSERT_CHUNK):
                self._call(functools.partial(self._upsert_chunk, group[start:start + _UPSERT_CHUNK], part))
        return len(data)

    def _upsert_chunk(self, chunk: list[dict[str, Any]], partition: str | None, client: Any) -> None:
        where = {"partition_name": partition} if partition else {}
        client.upsert(self.collection, chunk, timeout=self.timeout, **where)

    def _delete_chunk(self, chunk: list[int], client: Any) -> None:
        client.delete(self.collection, ids=chunk, timeout=self.timeout)

    def _entity(self, row: IndexRow) -> dict[str, Any]:
        vector = np.asarray(row.vector, dtype=np.float32).reshape(-1)
        if vector.shape[0] != self.dim:
            raise ValueError(f"memory {row.id}: vector has dimension {vector.shape[0]}, index has {self.dim}")
        if not np.all(np.isfinite(vector)):
            raise ValueError(f"memory {row.id}: vector has non-finite values")
        memory_type = str(row.memory_type)
        if len(memory_type) > MEMORY_TYPE_MAX_LEN:
            raise ValueError(f"memory {row.id}: memory_type longer than {MEMORY_TYPE_MAX_LEN}")
        return {"id": validated_int64(row.id), "user_id": validated_int64(row.user_id, "user_id"),
                "memory_type": memory_type, "vector": vector.tolist()}

    def delete(self, ids: Sequence[int]) -> None:
        """Remove the entries of these memory ids, from whatever partition (absent ids are ignored)."""
        clean = [validated_int64(i) for i in ids]
        for start in range(0, len(clean), _UPSERT_CHUNK):
            self._call(functools.partial(self._delete_chunk, clean[start:start + _UPSERT_CHUNK]))

    def flush(self) -> None:
        """Seal the collection's growing segments (written rows become indexed segments)."""
        self._call(lambda c: c.flush(self.collection, timeout=self.timeout))

    def serving_state(self) -> ServingState:
        """Is the collection served only from sealed, indexed segments (``core.milvus_serving``)?"""
        return self._call(lambda c: read_state(c, self.collection, self.timeout))

    def wait_served(self, timeout: float, poll: float = 2.0) -> tuple[ServingState, float]:
        """Flush, then wait up to ``timeout`` seconds until the collection is ``ready``
        (``core.milvus_serving``): the readiness condition after a bulk load or a reindex. Returns the
        last state and the seconds waited; a state still not ready after ``timeout`` is the caller's to
        report (searches work meanwhile, only slower)."""
        self.flush()
        return wait_until_ready(self.serving_state, timeout, poll)

    def search(self, user_id: int, vector: Sequence[float] | npt.NDArray[np.float32],
               limit: int) -> list[tuple[int, float]]:
        """Top ``limit`` ``(memory_id, cosine score)`` of this user only, best first (in the user's
        bucket when the collection has them, and always by the user filter)."""
        scope = user_scope_filter(user_id)
        if not 1 <= limit <= MAX_SEARCH_LIMIT:
            raise ValueError(f"limit must be in 1..{MAX_SEARCH_LIMIT}")
        query = np.asarray(vector, dtype=np.float32).reshape(-1)
        if query.shape[0] != self.dim:
            raise ValueError(f"query vector has dimension {query.shape[0]}, index has {self.dim}")
        where = self._scope(user_id)
        result = self._call(lambda c: c.search(
            self.collection, data=[query.tolist()], filter=scope, limit=limit, output_fields=["id"],
            search_params={"metric_type": "COSINE"}, consistency_level=self.search_consistency,
            timeout=self.timeout, **where))
        hits: list[tuple[int, float]] = []
        for hit in result[0] if result else []:
            score = float(hit.get("distance", 0.0))
            hits.append((int(hit["id"]), score if math.isfinite(score) else 0.0))
        return hits

    def count(self, user_id: int | None = None, *, anywhere: bool = False) -> int:
        """Number of entries (of one user: in their bucket, or in every partition with ``anywhere``; or
        all)."""
        flt = user_scope_filter(user_id) if user_id is not None else ""
        where = self._scope(user_id) if user_id is not None and not anywhere else {}
        rows = self._call(lambda c: c.query(self.collection, filter=flt, output_fields=["count(*)"],
                                            timeout=self.timeout, **where))
        return int(rows[0]["count(*)"]) if rows else 0

    def list_ids(self, user_id: int | None = None, batch_size: int = 1000, *,
                 anywhere: bool = False) -> list[int]:
        """All memory ids in the index (of one user: in their bucket, or in every partition with
        ``anywhere``; or all), ascending. For verify/repair and erasure."""
        flt = user_scope_filter(user_id) if user_id is not None else f"id >= {INT64_MIN}"
        where = self._scope(user_id, refresh=True) if user_id is not None and not anywhere else {}

        def op(client: Any) -> list[int]:
            iterator = client.query_iterator(self.collection, batch_size=batch_size, filter=flt,
                                             output_fields=["id"], timeout=self.timeout, **where)
            out: list[int] = []
            try:
                while True:
                    batch = iterator.next()
                    if not batch:
                        break
                    out.extend(int(r["id"]) for r in batch)
            finally:
                iterator.close()
            return out

        return sorted(self._call(op))

    def misplaced_ids(self, user_id: int | None = None, batch_size: int = 1000) -> list[int]:
        """Ids of entries (of one user, or all) outside their user's bucket: a search does not find them.
        Empty for a collection without buckets. A scan of the whole collection: for verify."""
        buckets = self.layout(refresh=True)
        if not buckets:
            return []
        flt = user_scope_filter(user_id) if user_id is not None else f"id >= {INT64_MIN}"

        def op(client: Any) -> list[int]:
            out: list[int] = []
            for part in client.list_partitions(self.collection, timeout=self.timeout):
                iterator = client.query_iterator(self.collection, batch_size=batch_size, filter=flt,
                                                 output_fields=["id", "user_id"], partition_names=[part],
                                                 timeout=self.timeout)
                try:
                    while batch := iterator.next():
                        out.extend(int(r["id"]) for r in batch
                                   if vector_buckets.partition_of(int(r["user_id"]), buckets) != part)
                finally:
                    iterator.close()
            return out

        return sorted(self._call(op))

    def get_user_ids(self, ids: Sequence[int]) -> dict[int, int]:
        """``memory_id -> user_id`` for the given ids present in the index."""
        if not ids:
            return {}
        flt = _id_filter(ids)
        rows = self._call(lambda c: c.query(self.collection, filter=flt, output_fields=["id", "user_id"],
                                            timeout=self.timeout))
        return {int(r["id"]): int(r["user_id"]) for r in rows}

    def ping(self) -> None:
        """Raise ``VectorStoreUnavailable`` if the server cannot be reached."""
        self._call(lambda c: c.list_collections(timeout=self.timeout))

    def close(self) -> None:
        self._holder.close()

    # --- plumbing -------------------------------------------------------------------------------
    def _call(self, op: Callable[[Any], T]) -> T:
        try:
            client = self._holder.get()
            try:
                return op(client)
            except Exception as exc:
                if not is_not_loaded(exc):
                    raise
                # A restarted Milvus (Lite) comes back with collections released: load and retry once.
                client.load_collection(self.collection, timeout=self.timeout)
                return op(client)
        except (VectorStoreError, ValueError):
            raise
        except Exception as exc:
            self._layout = None  # e.g. a partition gone with a rebuilt collection: read it again
            if is_unavailable(exc):
                self._holder.reset()
                raise VectorStoreUnavailable(f"Milvus at {self.uri} unavailable: {exc}") from exc
            raise VectorStoreError(f"Milvus operation failed on {self.collection!r}: {exc}") from exc


# --- the registry of collections (PostgreSQL ``vector_collections``) ----------------------------
def active_collection(session: Session) -> VectorCollection | None:
    """The collection currently serving reads and writes, if one is registered."""
    return session.scalars(select(VectorCollection).where(VectorCollection.active.is_(True))).first()


def register_collection(session: Session, name: str, model: str, dim: int, *,
                        activate: bool = True) -> VectorCollection:
    """Record ``name`` as holding vectors of ``model``/``dim`` (next version number); optionally
    make it the active one (deactivating the previous). Runs in the caller's transaction."""
    name = _validated_collection(name)
    row = session.get(VectorCollection, name)
    if row is not None and (row.model != model or row.dim != dim):
        raise IndexModelMismatch(
            f"collection {name!r} is registered for model {row.model!r}/dim {row.dim}, not {model!r}/{dim}")
    if row is None:
        version = (session.scalar(select(func.max(VectorCollection.version))) or 0) + 1
        row = VectorCollection(name=name, model=model, dim=dim, version=version, active=False)
        session.add(row)
        session.flush()
    if activate and not row.active:
        session.execute(update(VectorCollection).where(VectorCollection.active.is_(True))
                        .values(active=False))
        session.flush()
        row.active = True
        session.flush()
    return row


def check_collection_matches(row: VectorCollection, model: str, dim: int) -> None:
    """Raise ``IndexModelMismatch`` if the registered collection was built for another model/dim."""
    if row.model != model or row.dim != dim:
        raise IndexModelMismatch(
            f"active vector collection {row.name!r} holds {row.model!r} vectors of dim {row.dim}, but the "
            f"configured embedder is {model!r} with dim {dim}; run a reindex into a new collection "
            f"(or configure the matching embedder)")


def ensure_active_collection(session: Session, index: MilvusMemoryIndex, model: str,
                             dim: int) -> MilvusMemoryIndex:
    """Start-up check used by the indexer and retrieval.

    If no collection is registered, registers ``index.collection`` for ``model``/``dim`` as active
    (version 1) and creates it in Milvus. Otherwise the active collection must match ``model``/``dim``
    (``IndexModelMismatch`` if not), and exists in Milvus with that dimension. Returns the index view
    bound to the active collection.
    """
    row = active_collection(session)
    if row is None:
        row = register_collection(session, index.collection, model, dim, activate=True)
    check_collection_matches(row, model, dim)
    view = index if row.name == index.collection and index.dim == dim else index.for_collection(row.name, dim)
    view.ensure_collection()
    return view
