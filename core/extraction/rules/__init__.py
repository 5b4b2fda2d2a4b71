"""Offline, rule-based extraction provider for Chinese and English (no model, no network).

Public name: ``RulesExtractor`` (``name = "rules"``), a ``CandidateExtractor``.
"""

from core.extraction.rules.extractor import RulesExtractor

__all__ = ["RulesExtractor"]
