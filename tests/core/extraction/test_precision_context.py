"""Issue 24, precision, session 15 (``prec28``): a precision model that reads the previous turn gets it.

The gate embeds the turn before the message (the assistant's reply) in the same batch as the candidates and
passes it to the precision model only when that model reads context; a model without context is called as
before. A recording stand-in for the model checks what it was given. Sentences written for this test."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
import pytest

from core.extraction.candidates import CandidateOp, ContextMessage, ExtractionInput
from core.extraction.rules import RulesExtractor
from core.extraction.rules import extractor as extractor_module
from core.extraction.rules.gate_opinion import TURN_BAND


@dataclass
class _Recording:
    """Stands in for the precision MLP: says keep with p(drop) ``unsure`` (under ``CONTEXT_FLOOR``: no say in
    the gate's decision), and keeps the previous-turn vectors it was given."""

    context: bool
    unsure: float = 0.2
    seen: list[npt.NDArray[np.float32] | None] = field(default_factory=list)

    def predict_proba(self, vectors: npt.NDArray[np.float32], prev: npt.NDArray[np.float32] | None = None
                      ) -> npt.NDArray[np.float64]:
        self.seen.append(prev)
        out = np.zeros((len(vectors), 6))
        out[:, 0], out[:, 1] = self.unsure, 1.0 - self.unsure
        return out


def _extract(ex: RulesExtractor, model: _Recording, message: str, turn: str,
             monkeypatch: pytest.MonkeyPatch, role: str = "assistant") -> list[str]:
    assert ex.classifier is not None
    monkeypatch.setattr(extractor_module, "_precision_model", lambda: model)
    extractor = RulesExtractor(ex.classifier)
    data = ExtractionInput(message, context=(ContextMessage(role, turn),))
    return [c.content for c in extractor.extract(data) if c.op is CandidateOp.UPSERT]


def test_a_context_model_reads_the_turn_before(ex: RulesExtractor, monkeypatch: pytest.MonkeyPatch) -> None:
    assert ex.classifier is not None
    model = _Recording(context=True)
    turn = "Have you ever tried pottery? Many people find it calming."
    _extract(ex, model, "I've been making ceramic mugs on a wheel in my garage for three years.", turn,
             monkeypatch)
    given = [p for p in model.seen if p is not None]
    assert given, "the model was never given the turn before"
    expected = ex.classifier.embed([turn])[0]
    assert all(np.allclose(p, expected, atol=1e-5) for batch in given for p in batch)


def test_a_model_without_context_is_called_as_before(ex: RulesExtractor,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    model = _Recording(context=False)
    _extract(ex, model, "I've been making ceramic mugs on a wheel in my garage for three years.",
             "Have you ever tried pottery?", monkeypatch)
    assert model.seen and all(p is None for p in model.seen)



def test_the_users_own_earlier_message_is_no_turn_before(ex: RulesExtractor,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Session 19: the context models learned assistant turns; a message after the user's own earlier message
    (a case whose turns are all the user's) is read without a turn."""
    model = _Recording(context=True)
    _extract(ex, model, "I've been making ceramic mugs on a wheel in my garage for three years.",
             "ok so about my week: mostly work, nothing special.", monkeypatch, role="user")
    assert model.seen and all(p is None for p in model.seen)


def test_the_turn_is_not_embedded_when_no_reading_can_change(ex: RulesExtractor,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Session 19: a text the model reads surely without the turn (p(drop) outside ``TURN_BAND``) is read
    without it, and the turn is not embedded (one model text less per message)."""
    assert TURN_BAND[0] > 0.001 and TURN_BAND[1] < 0.999
    for sure in (0.001, 0.999):
        model = _Recording(context=True, unsure=sure)
        _extract(ex, model, "I've been making ceramic mugs on a wheel in my garage for three years.",
                 "Have you ever tried pottery? Many people find it calming.", monkeypatch)
        assert model.seen and all(p is None for p in model.seen)
