"""Standing instructions vs requests of the moment (issue 24, session 13,
``core.extraction.standing_instruction``): the learned decision keeps a rule phrased without "from now on"
and drops a request typed as a rule; a sentence the user disowns is no memory; a retraction the intent model
only leans to, that is no rule, is a retraction. Sentences written for this test (none from an evaluation
set)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from core.extraction.candidates import CandidateOp, ExistingMemory, ExtractionInput, MemoryCandidate
from core.extraction.rules import RulesExtractor
from core.extraction.rules.others import without_denials
from core.extraction.rules.precision import precise
from core.extraction.standing_instruction import STANDING_DROP, STANDING_KEEP, shipped_standing_model
from core.types import MemoryType

SENT = datetime(2025, 9, 3, 20, 15, tzinfo=UTC)


def _rule(content: str) -> MemoryCandidate:
    return MemoryCandidate(op=CandidateOp.UPSERT, memory_type=MemoryType.CONSTRAINT, key="constraint-test",
                           content=content, importance=3, confidence=0.85)


def test_the_shipped_model_loads_and_separates_rules_from_requests(ex: RulesExtractor) -> None:
    shipped_standing_model()
    rules = ["whenever you plan my hikes, list the water stops", "以后帮我订酒店都先看能不能免费取消"]
    requests = ["can you knock out a quick limerick about my cat", "帮我把这段话改得正式一点"]
    p = ex.standing(rules + requests)
    assert min(p[:2]) > max(p[2:])  # ranked apart (the Chinese rule sits below STANDING_KEEP: weaker in zh)
    assert p[0] >= STANDING_KEEP


def test_precision_keeps_what_the_model_calls_a_rule_and_drops_a_request() -> None:
    data = ExtractionInput("x", sent_at=SENT)
    # "记得" is also "I remember": the rules' recall words
    recall_worded = _rule("记得每次给我整理书单都按出版年份排")
    kept = precise([recall_worded], data, lambda texts: [STANDING_KEEP] * len(texts))
    assert [c.content for c in kept] == [recall_worded.content]
    assert precise([recall_worded], data) == []  # without the model, the recall words drop it
    request = _rule("whip up a bash one-liner that renames every png in this folder")
    assert precise([request], data, lambda texts: [STANDING_DROP] * len(texts)) == []


@pytest.mark.parametrize("text", ["我可没说我喜欢熬夜啊", "谁说我爱喝奶茶了", "i never said i like karaoke",
                                  "who said i'm into crossword puzzles"])
def test_a_statement_the_user_disowns_is_cut(text: str) -> None:
    assert without_denials(text) == ""


@pytest.mark.parametrize("text", ["我说我喜欢熬夜", "I said I like karaoke"])
def test_a_statement_the_user_owns_stays(text: str) -> None:
    assert without_denials(text) == text


def test_a_disowned_taste_is_not_stored(ex: RulesExtractor) -> None:
    out = ex.extract(ExtractionInput("我可没说我喜欢熬夜啊，别乱记", sent_at=SENT))
    assert not [c for c in out if c.op is CandidateOp.UPSERT and "熬夜" in c.content]


def test_a_leaning_retraction_that_is_no_rule_withdraws_the_part(ex: RulesExtractor) -> None:
    existing = (ExistingMemory(key="fact-health", memory_type="fact",
                               content="my physio thinks my back pain is posture related"),
                ExistingMemory(key="preference-games", memory_type="preference",
                               content="i'm really into chess puzzles"))
    data = ExtractionInput("eh, nix the physio + back pain part", existing=existing, sent_at=SENT)
    out = ex.refine(data, ex.extract(data))
    assert any(c.op is CandidateOp.DELETE and c.key == "fact-health" for c in out)
    assert not any(c.key == "preference-games" and c.op is CandidateOp.DELETE for c in out)

