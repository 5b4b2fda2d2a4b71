"""The LLM path learns the families of issue 24, one test per family against the OpenAI TEST DOUBLE:
the system prompt the provider sends states the family's rule with its Chinese and English example,
and the provider carries the model's answer for that family through unchanged in meaning (an update
keeps ``supersedes``, a retraction is a delete of the existing key, the day's events and sarcasm give
nothing, a hedged or habitual taste stays a preference, an instruction stays whole, one memory holds
one thing). The double answers as a model following the prompt would; sentences written for this test."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from pydantic import SecretStr

from core.extraction.candidates import CandidateOp, ExistingMemory, ExtractionInput, MemoryCandidate
from core.extraction.openai_provider import OpenAIExtractor
from core.extraction.prompts import FAMILIES, Family
from core.prompt_data import read_block
from core.types import MemoryType
from tests.support.fake_openai import FakeOpenAIServer  # the `fake_openai` fixture: tests/core/conftest.py


def _family(name: str) -> Family:
    return next(f for f in FAMILIES if name in f.name)


@dataclass(frozen=True)
class Case:
    family: str
    message: str
    reply: list[dict[str, Any]]
    expected: list[tuple[str, str, str | None]]  # (op, key, supersedes) of what the provider returns
    existing: tuple[ExistingMemory, ...] = ()
    stage: str = "extract"
    contains: dict[str, str] = field(default_factory=dict)  # key -> words its content keeps


def up(memory_type: str, key: str, content: str, supersedes: str | None = None) -> dict[str, Any]:
    """An upsert the double answers."""
    return {"op": "upsert", "memory_type": memory_type, "key": key, "content": content,
            "supersedes": supersedes}


def gone(memory_type: str, key: str) -> dict[str, Any]:
    """A retraction the double answers."""
    return {"op": "delete", "memory_type": memory_type, "key": key, "content": "", "supersedes": key}


CASES = [
    Case("updates", "I quit the bakery job, I'm a barista at a roastery now",
         [up("fact", "work-job", "The user is a barista at a roastery", "work-job")],
         [("upsert", "work-job", "work-job")],
         (ExistingMemory("work-job", "fact", "The user works at a bakery"),), "refine",
         {"work-job": "barista"}),
    Case("updates", "以后给我两个选项就够了，不用三个",
         [up("constraint", "reply-options", "每次给两个选项", "reply-options")],
         [("upsert", "reply-options", "reply-options")],
         (ExistingMemory("reply-options", "constraint", "每次给三个选项"),), "refine",
         {"reply-options": "两个"}),
    Case("retractions", "please forget the part about my blood pressure pills",
         [gone("fact", "health-medication")],
         [("delete", "health-medication", "health-medication")],
         (ExistingMemory("health-medication", "fact", "The user takes blood pressure pills"),), "refine"),
    Case("the day's events", "刚和朋友吃完一顿火锅，今天真开心，谢谢你推荐的店！", [], []),
    Case("the day's events", "went for a long walk by the river this evening, feeling calm now", [], []),
    Case("hedged and habitual preferences", "我平时基本都穿深色的衣服，还是习惯用机械键盘",
         [up("preference", "style-clothes", "平时基本都穿深色衣服"),
          up("preference", "tools-keyboard", "习惯用机械键盘")],
         [("upsert", "style-clothes", None), ("upsert", "tools-keyboard", None)]),
    Case("hedged and habitual preferences", "I guess I sort of like rowing? I always pick the window seat",
         [up("preference", "sport-rowing", "likes rowing"),
          up("preference", "travel-seat", "always picks the window seat")],
         [("upsert", "sport-rowing", None), ("upsert", "travel-seat", None)]),
    Case("sarcasm", "Oh I just LOVE when the train is 40 minutes late, truly the highlight of my day",
         [], []),
    Case("sarcasm", "我可太喜欢周末加班了呢🙃",
         [up("preference", "work-overtime", "不喜欢周末加班")],
         [("upsert", "work-overtime", None)], contains={"work-overtime": "不喜欢"}),
    Case("whole instructions", "以后你帮我改论文的时候，先指出逻辑问题，再改语法",
         [up("constraint", "review-thesis", "帮我改论文时先指出逻辑问题，再改语法")],
         [("upsert", "review-thesis", None)], contains={"review-thesis": "先指出逻辑问题，再改语法"}),
    Case("whole instructions", "keep corporate buzzwords out of anything you write for me",
         [up("constraint", "writing-no_buzzwords",
             "Keep corporate buzzwords out of anything written for the user")],
         [("upsert", "writing-no_buzzwords", None)], contains={"writing-no_buzzwords": "buzzwords"}),
    Case("one memory, one thing", "The plot twist at the end of that film was wild",
         [], [], (ExistingMemory("food-vegetables", "preference", "Likes light vegetables like zucchini"),),
         "refine"),
    Case("one memory, one thing", "I keep two Arabian horses. I love riding them.",
         [up("fact", "pets-horses", "keeps two Arabian horses"),
          up("preference", "hobby-riding", "loves riding the Arabian horses")],
         [("upsert", "pets-horses", None), ("upsert", "hobby-riding", None)],
         contains={"hobby-riding": "Arabian horses"}),
]


def _extractor(server: FakeOpenAIServer) -> OpenAIExtractor:
    return OpenAIExtractor(base_url=server.base_url, model="fake-llm", timeout=5.0, max_retries=1,
                           backoff_base=0.01, api_key=SecretStr("sk-test"))


@pytest.mark.parametrize("case", CASES, ids=[f"{c.family}-{i}" for i, c in enumerate(CASES)])
def test_each_family_through_the_model_double(fake_openai: FakeOpenAIServer, case: Case) -> None:
    fake_openai.chat_json({"candidates": case.reply})
    extractor = _extractor(fake_openai)
    data = ExtractionInput(user_message=case.message, existing=case.existing)
    if case.stage == "extract":
        got = extractor.extract(data)
    else:
        proposed = [MemoryCandidate(memory_type=MemoryType.PREFERENCE, key="proposed", content=case.message)]
        got = extractor.refine(data, proposed)
    assert [(c.op.value, c.key, c.supersedes) for c in got] == case.expected
    for key, words in case.contains.items():
        assert words in next(c.content for c in got if c.key == key)
    assert all(c.op is CandidateOp.DELETE or c.content for c in got)
    # the request carried the family (rule and both examples) and the user's message as data
    request = fake_openai.chat_requests()[0]
    system, user = request["messages"][0]["content"], request["messages"][1]["content"]
    family = _family(case.family)
    assert family.rule in system and family.example_zh in system and family.example_en in system
    assert read_block(user, "current_user_message")[0]["content"] == case.message
