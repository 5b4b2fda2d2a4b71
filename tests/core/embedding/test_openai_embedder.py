"""OpenAIEmbedder against the local OpenAI TEST DOUBLE server."""

from __future__ import annotations

import time

import numpy as np
import pytest

from core.embedding.base import EmbeddingError
from core.embedding.openai_embedder import OpenAIEmbedder
from tests.support.fake_openai import FakeOpenAIServer  # the `fake_openai` fixture: tests/core/conftest.py


def _embedder(server: FakeOpenAIServer, **kw: object) -> OpenAIEmbedder:
    params: dict[str, object] = {"base_url": server.base_url, "model": "fake-embed", "dim": 16,
                                 "timeout": 5.0, "max_retries": 2, "backoff_base": 0.01}
    params.update(kw)
    return OpenAIEmbedder(**params)  # type: ignore[arg-type]


def test_embeddings_in_input_order_normalised(fake_openai: FakeOpenAIServer) -> None:
    texts = ["[fact] a: 用户住在杭州", "[preference] b: likes tea", "[goal] c: 跑马拉松"]
    emb = _embedder(fake_openai, batch_size=2)
    vecs = emb.embed_passages(texts)
    assert vecs.shape == (3, 16) and vecs.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    # The double answers in reverse order; the embedder must sort by index.
    for text, vec in zip(texts, vecs, strict=True):
        np.testing.assert_allclose(vec, FakeOpenAIServer.vector_for(text, 16), atol=1e-5)
    assert fake_openai.embedding_calls == 2  # batches of 2
    np.testing.assert_allclose(emb.embed_queries(texts[:1]), vecs[:1], atol=1e-6)
    assert emb.embed_passages([]).shape == (0, 16)
    assert emb.total_tokens > 0


def test_dimension_mismatch_is_an_embedding_error(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.embedding_fault(dim=8)
    with pytest.raises(EmbeddingError, match="dimension 8"):
        _embedder(fake_openai).embed_passages(["x"])
    assert fake_openai.embedding_calls == 1  # not retried: retrying cannot fix the model


def test_dimensions_requested_for_text_embedding_3(fake_openai: FakeOpenAIServer) -> None:
    _embedder(fake_openai, model="text-embedding-3-small", dim=32).embed_passages(["x"])
    _embedder(fake_openai).embed_passages(["x"])
    bodies = [r.body for r in fake_openai.requests]
    assert bodies[0]["dimensions"] == 32 and "dimensions" not in bodies[1]


def test_transient_errors_are_retried(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.embedding_fault(status=500)
    fake_openai.embedding_fault(status=429)
    vecs = _embedder(fake_openai, max_retries=2).embed_passages(["hello"])
    assert vecs.shape == (1, 16) and fake_openai.embedding_calls == 3


def test_http_200_with_a_non_json_body_is_retried_then_an_embedding_error(
        fake_openai: FakeOpenAIServer) -> None:
    """Found by the fault suite: the client raises json.JSONDecodeError (not an OpenAIError) for a 200
    whose body is not JSON; it used to escape and crash the indexer/extractor."""
    fake_openai.embedding_fault(raw=b"<html>warming up</html>")
    assert _embedder(fake_openai, max_retries=1).embed_passages(["x"]).shape == (1, 16)
    fake_openai.embedding_fault(raw=b"<html>warming up</html>", repeat=2)
    with pytest.raises(EmbeddingError, match="unreadable body after 2 attempts"):
        _embedder(fake_openai, max_retries=1).embed_passages(["x"])


def test_persistent_failure_and_client_errors(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.embedding_fault(status=503, repeat=5)
    with pytest.raises(EmbeddingError, match="after 2 attempts"):
        _embedder(fake_openai, max_retries=1).embed_passages(["hello"])
    fake_openai.embedding_fault(status=400)
    with pytest.raises(EmbeddingError, match="400"):
        _embedder(fake_openai, max_retries=3).embed_passages(["hello"])


def test_timeout_is_bounded(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.embedding_fault(delay=3.0, repeat=3)
    started = time.monotonic()
    with pytest.raises(EmbeddingError):
        _embedder(fake_openai, timeout=0.5, max_retries=1).embed_passages(["hello"])
    assert time.monotonic() - started < 2.5


def test_unreachable_endpoint_is_an_embedding_error() -> None:
    emb = OpenAIEmbedder(base_url="http://127.0.0.1:9/v1", model="m", dim=4, timeout=1, max_retries=0)
    with pytest.raises(EmbeddingError):
        emb.embed_queries(["x"])
