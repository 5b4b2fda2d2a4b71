"""``MessageProcessor.warm_up`` loads the provider's models through the provider decorators."""

from __future__ import annotations

from sqlalchemy.orm import sessionmaker

from core.config import load_settings
from core.extraction.budget import BudgetedExtractor
from core.extraction.candidates import ExtractionInput, MemoryCandidate
from core.extraction.instrumented import InstrumentedExtractor
from core.memory.processing import MessageProcessor


class ModelProvider:
    """A provider with a model to load (counts the loads)."""

    name = "model-provider"

    def __init__(self) -> None:
        self.loads = 0

    def warm_up(self) -> None:
        self.loads += 1

    def extract(self, data: ExtractionInput) -> list[MemoryCandidate]:
        return []

    def refine(self, data: ExtractionInput, candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
        return candidates


def test_warm_up_reaches_the_provider_through_its_decorators() -> None:
    inner = ModelProvider()
    wrapped = InstrumentedExtractor(BudgetedExtractor(inner, 5.0))
    MessageProcessor(load_settings(), sessionmaker(), wrapped, None).warm_up()
    assert inner.loads == 1

