"""Fixtures of the extraction tests."""

from __future__ import annotations

import pytest

from core.extraction.classifier import MemoryClassifier
from core.extraction.rules import RulesExtractor


@pytest.fixture(scope="session")
def ex() -> RulesExtractor:
    """The rules extractor as the factory builds it (``MEMORY_EXTRACTOR_RULES_CLASSIFIER`` on); a module that
    tests the rules alone defines its own ``ex``."""
    return RulesExtractor(MemoryClassifier())
