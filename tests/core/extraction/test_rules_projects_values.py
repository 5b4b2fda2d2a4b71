"""Standing rules, personal projects and what is not the user's (issue 24, session 12, ``h-cons24``): a
duration that limits a rule is no time window; a new value for a rule the user has ("make that 20")
replaces the old value in the rule's own words; "i'd rather you …" is a rule for the assistant; making a
thing over time is a project whatever the thing; a project's description after "在搞一个 side project" is
no task; someone else's advice to the user ("she keeps telling me to …") and a remark about a thing are
not the user's.
Sentences written for this test (none from an evaluation set); run through the classifier-gated extractor."""

from __future__ import annotations

from core.extraction.candidates import CandidateOp, ExistingMemory, ExtractionInput, MemoryCandidate
from core.extraction.rules import RulesExtractor, patterns
from core.extraction.rules.constraints import changed_rule
from core.extraction.rules.refine import refine_candidates
from core.extraction.rules.segment import normalise
from core.types import MemoryType


def _stored(ex: RulesExtractor, text: str,
            existing: tuple[ExistingMemory, ...] = ()) -> list[MemoryCandidate]:
    data = ExtractionInput(user_message=text, existing=existing)
    return [c for c in ex.refine(data, ex.extract(data)) if c.op is CandidateOp.UPSERT]


def _by_type(cands: list[MemoryCandidate], memory_type: MemoryType) -> str:
    return " | ".join(c.content for c in cands if c.memory_type is memory_type).lower()


def test_a_duration_that_limits_a_rule_is_no_time_window() -> None:
    for text in ("keep the recipes to 20 min max", "under 15 minutes please", "10 min tops", "max 40 min"):
        assert not patterns.TIME_HARD.search(text), text
    for text in ("see you in 20 min", "meeting in 5 mins", "i waited 40 minutes"):
        assert patterns.TIME_HARD.search(text), text


def test_a_rule_with_a_duration_limit_is_kept(ex: RulesExtractor) -> None:
    stored = _stored(ex, "when you suggest podcasts for my commute keep them to 25 min max")
    assert "25 min" in _by_type(stored, MemoryType.CONSTRAINT), stored


def test_a_new_value_replaces_the_rules_old_value_in_its_own_words() -> None:
    rule = ExistingMemory("constraint-reading", "constraint", "when you suggest novels give me 4 options")
    assert changed_rule(normalise("hmm make that 2 options"), (rule,)) == (
        "constraint-reading", "when you suggest novels give me 2 options")
    zh = ExistingMemory("constraint-dian_ying", "constraint", "给我推荐电影的时候每次五部就够了")
    assert changed_rule(normalise("还是改成三部吧"), (zh,)) == (
        "constraint-dian_ying", "给我推荐电影的时候每次三部就够了")
    # a count in words reads as one in digits, either way round
    assert changed_rule(normalise("ok make it three options"), (rule,)) == (
        "constraint-reading", "when you suggest novels give me three options")
    words = ExistingMemory("constraint-tea", "constraint",
                           "when you pick teas for me, two at a time, no more")
    assert changed_rule(normalise("make it 1 at a time"), (words,)) == (
        "constraint-tea", "when you pick teas for me, 1 at a time, no more")
    assert changed_rule(normalise("make it four options"), (rule,)) is None  # the same value
    # no rule with a number of that kind, or two of them: which rule is meant is unclear
    assert changed_rule(normalise("make that 2 options"), ()) is None
    two = (rule, ExistingMemory("constraint-music", "constraint", "recommend 3 options of albums"))
    assert changed_rule(normalise("make that 2 options"), two) is None


def test_a_count_said_in_words_is_a_value_too() -> None:
    rule = ExistingMemory("constraint-podcasts", "constraint", "suggest four podcasts at most when i ask")
    assert changed_rule(normalise("ok make it two"), (rule,)) == (
        "constraint-podcasts", "suggest two podcasts at most when i ask")
    digits = ExistingMemory("constraint-podcasts", "constraint", "suggest 4 podcasts at most when i ask")
    assert changed_rule(normalise("let's do three podcasts"), (digits,)) == (
        "constraint-podcasts", "suggest three podcasts at most when i ask")
    assert changed_rule(normalise("too many, cap it at 2"), (rule,)) == (
        "constraint-podcasts", "suggest 2 podcasts at most when i ask")
    # the same value, or a pick among options, changes nothing
    assert changed_rule(normalise("make it 4"), (rule,)) is None
    assert changed_rule(normalise("let's go with one of those"), (rule,)) is None


def test_a_changed_value_is_news_to_refine() -> None:
    from core.extraction.rules.refine import CandidateMeta

    old = ExistingMemory("constraint-reading", "constraint", "when you suggest novels give me 4 options")
    new = MemoryCandidate(op=CandidateOp.UPSERT, memory_type=MemoryType.CONSTRAINT, key="constraint-reading",
                          content="when you suggest novels give me 2 options", importance=4, confidence=0.85)
    meta = {"constraint-reading": CandidateMeta(changed=True)}
    out = refine_candidates([old], [new], meta, "make that 2 options")
    assert [c.content for c in out] == ["when you suggest novels give me 2 options"], out


def test_a_value_change_turn_rewrites_the_rule(ex: RulesExtractor) -> None:
    rule = ExistingMemory("constraint-reading", "constraint", "when you suggest novels give me 4 options")
    stored = _stored(ex, "actually make that 2 options, 4 is a lot", (rule,))
    assert any(c.key == "constraint-reading" and "2 options" in c.content and "4 options" not in c.content
               for c in stored), stored


def test_i_would_rather_you_is_a_rule_for_the_assistant(ex: RulesExtractor) -> None:
    stored = _stored(ex, "i'd rather you flag my weak arguments bluntly than be polite about them")
    assert "rather you" in _by_type(stored, MemoryType.CONSTRAINT), stored


def test_making_a_thing_over_time_is_a_project_whatever_the_thing() -> None:
    for text in ("业余在编一本我们厂的老工人回忆录", "最近在给我爸做一套家谱图",
                 "在跟几个同学一起弄校友会的公众号", "i'm putting together a songbook of my grandma's hymns",
                 "slowly transcribing my diary from the 90s"):
        assert patterns.PROJECT_MAKING.search(normalise(text)), text
    for text in ("我在做饭", "i'm making dinner", "writing to my landlord"):
        assert not patterns.PROJECT_MAKING.search(normalise(text)), text


def test_a_projects_description_after_its_frame_is_no_task(ex: RulesExtractor) -> None:
    stored = _stored(ex, "最近在搞一个小项目，写个提醒浇花的微信小程序给我奶奶用")
    assert "浇花" in _by_type(stored, MemoryType.PROJECT), stored


def test_someone_elses_advice_to_the_user_is_not_the_users(ex: RulesExtractor) -> None:
    for text in ("my cousin is a pilot, he keeps telling me to learn to fly", "她老让我去考个会计证"):
        stored = _stored(ex, text)
        assert "fly" not in " ".join(c.content for c in stored) and "会计证" not in " ".join(
            c.content for c in stored), stored


def test_a_remark_about_a_thing_is_not_rescued(ex: RulesExtractor) -> None:
    assert _stored(ex, "yeah the seagulls are the real problem lol") == []


def test_a_new_value_without_a_change_word_replaces_the_old_one(ex: RulesExtractor) -> None:
    rule = ExistingMemory("constraint-gifts", "constraint",
                          "when you suggest board games give me like 8 to pick from")
    data = ExtractionInput("8 is a lot tbh, cap it at 4", existing=(rule,))
    out = ex.refine(data, ex.extract(data))
    assert [(c.key, c.content) for c in out if c.op is CandidateOp.UPSERT] == [
        ("constraint-gifts", "when you suggest board games give me like 4 to pick from")]
