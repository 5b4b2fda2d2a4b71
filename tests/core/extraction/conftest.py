"""Fixtures of the extraction tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from core.extraction.classifier import MemoryClassifier
from core.extraction.pairs import RELATIONS, PairModel, shipped_pair_model
from core.extraction.rules import RulesExtractor


@pytest.fixture(scope="session")
def ex() -> RulesExtractor:
    """The rules extractor as the factory builds it (``MEMORY_EXTRACTOR_RULES_CLASSIFIER`` on); a module that
    tests the rules alone defines its own ``ex``."""
    return RulesExtractor(MemoryClassifier())


@pytest.fixture
def saved_random_pair_model(tmp_path: Path) -> Callable[[int], PairModel]:
    """A pair model of random weights reading ``width`` features (the shipped centre), saved and loaded
    back: what an arm's weights look like to ``PairModel.load``."""
    def build(width: int) -> PairModel:
        rng = np.random.default_rng(0)
        k, center = len(RELATIONS), shipped_pair_model().center
        model = PairModel(rng.normal(size=(width, 8)).astype(np.float32), np.zeros(8, np.float32),
                          rng.normal(size=(8, k)).astype(np.float32), np.zeros(k, np.float32),
                          np.zeros(width, np.float32), np.ones(width, np.float32), center)
        path = tmp_path / "pair.npz"
        model.save(path)
        return PairModel.load(path)
    return build
