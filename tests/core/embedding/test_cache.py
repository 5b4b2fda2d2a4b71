"""The process-wide passage-vector cache: one model call per distinct text, per model, bounded."""

from __future__ import annotations

import numpy as np
import pytest

from core.embedding.base import Vectors
from core.embedding.cache import PassageVectorCache


class Recorder:
    """Deterministic vectors (the text's length and first code point), recording what it is asked."""

    def __init__(self) -> None:
        self.asked: list[list[str]] = []

    def __call__(self, texts: list[str]) -> Vectors:
        self.asked.append(list(texts))
        return np.array([[len(t), ord(t[0]), 1.0] for t in texts], dtype=np.float32)


def test_only_the_distinct_missing_texts_reach_the_model_once() -> None:
    cache, model = PassageVectorCache(), Recorder()
    first, sent = cache.vectors("m", 3, ["ab", "c", "ab"], model)
    assert model.asked == [["ab", "c"]] and sent == 2
    assert first.tolist() == [[2, 97, 1], [1, 99, 1], [2, 97, 1]]

    again, sent = cache.vectors("m", 3, ["c", "ab", "def"], model)
    assert model.asked == [["ab", "c"], ["def"]] and sent == 1
    assert again.tolist() == [[1, 99, 1], [2, 97, 1], [3, 100, 1]]

    none, sent = cache.vectors("m", 3, ["ab"], model)
    assert sent == 0 and len(model.asked) == 2 and none.tolist() == [[2, 97, 1]]


def test_a_vector_serves_only_the_model_that_made_it() -> None:
    cache, model = PassageVectorCache(), Recorder()
    cache.vectors("model-a", 3, ["same text"], model)
    cache.vectors("model-b", 3, ["same text"], model)
    assert model.asked == [["same text"], ["same text"]]
    assert cache.get("model-a", "same text") is not None and cache.get("model-c", "same text") is None


def test_bounded_least_recently_used_first_out_and_read_only() -> None:
    cache, model = PassageVectorCache(size=2), Recorder()
    cache.vectors("m", 3, ["a", "b"], model)
    cache.get("m", "a")  # "b" is now the least recently used
    cache.vectors("m", 3, ["c"], model)
    assert len(cache) == 2 and cache.get("m", "b") is None
    kept = cache.get("m", "a")
    assert kept is not None
    with pytest.raises(ValueError):
        kept[0] = 5.0  # a caller cannot change what another caller will be served


def test_empty_input_and_mismatched_rows() -> None:
    cache, model = PassageVectorCache(), Recorder()
    empty, sent = cache.vectors("m", 3, [], model)
    assert empty.shape == (0, 3) and sent == 0 and model.asked == []
    with pytest.raises(ValueError, match="2 texts but 1 vectors"):
        cache.put_many("m", ["a", "b"], np.zeros((1, 3), dtype=np.float32))
    with pytest.raises(ValueError):
        PassageVectorCache(size=0)
