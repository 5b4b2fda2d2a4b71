"""Chooses the extraction provider from configuration."""

from __future__ import annotations

from core.config import ExtractorProvider, Settings
from core.extraction.candidates import CandidateExtractor


def build_extractor(settings: Settings) -> CandidateExtractor:
    """``openai`` when configured (or an LLM endpoint is set), else the offline ``rules`` extractor."""
    if settings.extractor_provider is ExtractorProvider.OPENAI:
        from core.extraction.openai_provider import OpenAIExtractor

        return OpenAIExtractor(settings)
    from core.extraction.rules import RulesExtractor

    return RulesExtractor()
