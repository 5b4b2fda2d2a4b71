"""TEST DOUBLE of an OpenAI-compatible endpoint: ``localstack.openai_double`` (re-exported here, where the
tests have always imported it) and the ``fake_openai`` fixture."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from localstack.openai_double import FakeOpenAIServer, Latency, LoadProfile, RecordedRequest, Reply

__all__ = ["FakeOpenAIServer", "Latency", "LoadProfile", "RecordedRequest", "Reply", "fake_openai"]


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAIServer]:
    """A started ``FakeOpenAIServer`` TEST DOUBLE, stopped after the test."""
    server = FakeOpenAIServer().start()
    try:
        yield server
    finally:
        server.stop()
