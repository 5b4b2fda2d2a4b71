"""``pai-memory eval``'s turn-by-turn publishing: segments and pacing (no services: the publisher is
driven through its callables, the pipeline's answer "final" is simulated by the test)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

import pytest

from cli.eval_cmd import case_segments, publish_paced
from core.evaluation import EvalCase
from schemas import ChatMessageData

NOW = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)


def _case(cid: str, n: int) -> EvalCase:
    turns = []
    for i in range(n):
        turns += [{"role": "user", "content": f"{cid} u{i}"}, {"role": "assistant", "content": f"{cid} a{i}"}]
    return EvalCase.model_validate({"id": cid, "conversation": turns})


def test_case_segments_ids_times_and_sessions() -> None:
    case = EvalCase.model_validate({"id": "x", "conversation": [
        {"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"},
        {"role": "user", "content": "later", "session": "day2"}]})
    segs = case_segments(case, "run1", 12.0, now=NOW)
    flat = [m for s in segs for m in s]
    assert [len(s) for s in segs] == [2, 1]
    assert [m.message_id for m in flat] == ["eval-run1-x:0", "eval-run1-x:1", "eval-run1-x:2"]
    assert {m.user_id for m in flat} == {"eval-run1-x"}
    assert [m.conversation_id for m in flat] == ["eval-run1-x-c", "eval-run1-x-c", "eval-run1-x-c-day2"]
    assert flat[-1].created_at < NOW and flat[0].created_at < flat[1].created_at < flat[2].created_at


def test_publish_paced_waits_for_each_segment_and_runs_cases_side_by_side() -> None:
    plans = {c.id: case_segments(c, "r", 12.0, now=NOW) for c in (_case("a", 3), _case("b", 1))}
    sent: list[ChatMessageData] = []
    done: set[str] = set()
    log: list[list[str]] = []

    def final(ids: Iterable[str]) -> set[str]:
        # the "pipeline" finishes every user message published so far, one poll later
        ready = set(ids) & done
        done.update(m.message_id for m in sent if m.role == "user")
        log.append(sorted(m.content for m in sent))
        return ready

    stats = publish_paced(plans, sent.append, lambda: None, final, timeout=5, sleep=lambda _: None)
    assert stats == {"segments": 4, "messages": 8, "user_messages": 4, "max_user_messages_per_segment": 1}
    # first poll: only each case's first segment is out; a's second goes out after its first is final
    assert log[0] == ["a a0", "a u0", "b a0", "b u0"]
    order = [m.content for m in sent if m.user_id.endswith("-a")]
    assert order == ["a u0", "a a0", "a u1", "a a1", "a u2", "a a2"]


def test_publish_paced_times_out_naming_the_waiting_cases() -> None:
    plans = {"stuck": case_segments(_case("stuck", 2), "r", 12.0, now=NOW)}
    ticks = iter(range(100))
    with pytest.raises(TimeoutError, match="stuck"):
        publish_paced(plans, lambda m: None, lambda: None, lambda ids: set(), timeout=3,
                      clock=lambda: float(next(ticks)), sleep=lambda _: None)
