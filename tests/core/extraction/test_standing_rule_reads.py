"""A clause the rules drop as a question, a request or for a clock time is still read alone by the
standing-instruction model when it speaks to the assistant (issue 24, session 20,
``core.extraction.rules.gate_rescue``): such a unit needs the standing model's say (``NEVER`` as its own
bar), so a one-off request or a question stays dropped. Sentences written for this test (none from an
evaluation set or a training file)."""

from __future__ import annotations

from core.extraction.candidates import ExtractionInput
from core.extraction.rules.analysis import analyse
from core.extraction.rules.gate_rescue import rescue_units
from core.extraction.rules.gate_units import NEVER
from core.extraction.standing_instruction import STANDING_ADDRESSED


def _asked(message: str) -> list[tuple[str, float]]:
    return [(u.text, u.threshold) for u in rescue_units(analyse(ExtractionInput(message))) if u.asked]


def test_a_rule_said_as_a_request_is_read_alone_by_the_standing_model_only() -> None:
    units = [(u.text, u.threshold, u.bar) for u in rescue_units(analyse(ExtractionInput(
        "记住哈，帮我挑礼物别挑香水，我同事过敏"))) if u.asked]
    # the whole run as before (the rules dropped a request in it), and the request read alone
    assert ("帮我挑礼物别挑香水", NEVER, STANDING_ADDRESSED) in units


def test_a_question_is_not_read() -> None:
    # the standing model reads Chinese questions for advice as rules: a question is never read so
    assert _asked("你有没有什么提高写作水平的建议？") == []
    assert _asked("could you leave the semicolons out of whatever you edit for me? they look stiff") == []


def test_a_rule_naming_a_clock_time_is_read_alone_with_its_lead_dropped() -> None:
    units = _asked("噢对了，以后帮我订会议室别订中午十二点到一点的，我要午休")
    assert [t for t, _ in units] == ["以后帮我订会议室别订中午十二点到一点的"]


def test_a_clause_that_does_not_speak_to_the_assistant_is_not_read() -> None:
    assert _asked("is it normal to wake up at 5am every day?") == []
    assert _asked("my brother could never sit still at dinner, could he?") == []


def test_a_rule_after_thanks_in_one_clause_keeps_the_rule_without_the_thanks() -> None:
    from core.extraction.candidates import CandidateOp, MemoryCandidate
    from core.extraction.rules.precision import precise
    from core.types import MemoryType

    def rule(content: str) -> MemoryCandidate:
        return MemoryCandidate(op=CandidateOp.UPSERT, memory_type=MemoryType.CONSTRAINT, key="constraint-x",
                               content=content, importance=5, confidence=0.85)

    data = ExtractionInput("x")
    told = "cheers, thanks a lot! oh and when you pick recipes for me, skip the cilantro"
    kept = precise([rule(told)], data)
    assert [c.content for c in kept] == ["oh and when you pick recipes for me, skip the cilantro"]
    # thanks alone, and thanks after the shift, are no rule
    assert precise([rule("thanks so much, that really helped")], data) == []
    assert precise([rule("also thanks for the help, you're the best")], data) == []


def test_a_sentence_with_a_time_window_is_not_read() -> None:
    assert _asked("ugh I have to send the invoice by 5pm today, could you check my numbers?") == []
