"""The public-set converters (bench/convert_public.py) on tiny inputs written here (no ../shared data),
and the scoring of an eval run's output (bench/bench_public.py)."""

from __future__ import annotations

from pathlib import Path

from bench import bench_public, convert_public
from core.evaluation import EvalCase

REPO = Path(__file__).resolve().parents[2]

MEMORYBANK = {
    " Ann ": {
        "meta_information": {"name": "Ann", "hobbies": "playing the piano, drinking tea, skiing and chess"},
        "history": {
            "2023-04-28": [{"query": "I had tea with a friend.", "response": "Lovely."}],
            "2023-04-27": [{"query": "Hi, I'm Ann.", "response": "Hello Ann!"},
                           {"query": "I practise piano every evening.", "response": "Great."}],
        },
    },
    "李雷": {
        "meta_information": {"hobbies": "打羽毛球，品茶"},
        "history": {"2023-04-27": [{"query": "我周末常去打羽毛球。", "response": "不错！"}]},
    },
}


def test_hobby_terms() -> None:
    assert convert_public.hobby_terms("playing the piano") == ["playing the piano", "piano"]
    assert convert_public.hobby_terms("taking walks") == ["taking walks", "walk", "walks"]
    assert convert_public.hobby_terms("打羽毛球") == ["打羽毛球", "羽毛球"]
    assert convert_public.hobby_terms("品茶") == ["品茶", "茶"]
    assert convert_public.split_hobbies("a, b and c，d、e") == ["a", "b", "c", "d", "e"]


def test_memorybank_cases() -> None:
    cases, counts = convert_public.memorybank_cases(MEMORYBANK, "en")
    ann = EvalCase.model_validate(cases[0])  # valid evaluation cases
    assert cases[0]["id"] == "mb-en-00" and cases[0]["user"] == "Ann"
    # days in date order, each its own session, user then reply
    assert [(t.session, t.role) for t in ann.conversation] == [
        ("2023-04-27", "user"), ("2023-04-27", "assistant"), ("2023-04-27", "user"),
        ("2023-04-27", "assistant"), ("2023-04-28", "user"), ("2023-04-28", "assistant")]
    assert ann.conversation[0].created_at is not None and ann.conversation[0].created_at.hour == 19
    # piano and tea are said, skiing and chess are not: counted, not expected
    assert [e.any_of[-1] for e in ann.expect] == ["piano", "tea"]
    assert all(e.type == "preference" for e in ann.expect)
    assert [q.expect_any_of for q in ann.queries] == [e.any_of for e in ann.expect]
    assert counts["hobbies"] == 6 and counts["hobbies_mentioned"] == 3
    assert counts["hobbies_never_mentioned"] == ["Ann: skiing", "Ann: chess", "李雷: 品茶"]
    assert counts["user_turns"] == 4


def _row(p1: str, p2: str, conv: str) -> dict[str, str]:
    return {"user 1 personas": p1, "user 2 personas": p2, "Best Generated Conversation": conv}


def test_persona_case_expected_forbidden_and_types() -> None:
    row = _row(
        "I am a horse trainer.\nI like to cross stitch and quilt.\nI want to visit Japan.\n"
        "I have three sisters.",
        "I have a turtle named Timothy.\nMy favorite sport is ultimate frisbee.",
        "User 1: Hi! I train horses for a living.\nUser 2: I have a turtle named Timothy.\n"
        "(The next day)\nUser 1: On weekends I quilt, and cross stitch too.\nUser 2: Nice!\n"
        "User 1: Someday I will visit Japan, I really want to.\nUser 1: We can play ultimate frisbee!",
    )
    case, counts = convert_public.persona_case(row, "spc-0001")
    EvalCase.model_validate(case)
    roles = ["user", "assistant", "user", "assistant", "user", "user"]
    assert [c["role"] for c in case["conversation"]] == roles
    got = [(e["type"], e["any_of"]) for e in case["expect"]]
    assert got == [("fact", ["hors", "train"]), ("preference", ["cross", "stitch", "quilt"]),
                   ("goal", ["visit", "japan"])]
    assert counts == {"persona_sentences": 4, "said": 3}  # the sisters are never said
    # Timothy is speaker 2's; the frisbee sentence's rare words are said by speaker 1, "sport" is left
    assert case["forbid"] == ["sport", "timothy"]
    assert {q["query"] for q in case["queries"]} == set(convert_public.PERSONA_QUERY.values())


def test_persona_sentence_is_said_by_a_statement_not_a_question() -> None:
    turns = ["What did you do for work in high school?", "Ha. I worked at a mall in high school, it was fun."]
    persona = "I worked at hollister in high school."
    assert convert_public.said_terms(persona, turns[:1]) is None
    assert convert_public.said_terms(persona, turns) == ["work", "high", "school"]


def test_persona_hobbies_and_habits_are_preferences() -> None:
    for sentence in ("My hobby is walking.", "I collect vintage cameras.", "I listen to rap music.",
                     "When I have some spare time I read.", "I love dogs."):
        assert convert_public.persona_type(sentence) == "preference", sentence
    assert convert_public.persona_type("I want to visit Japan someday.") == "goal"
    assert convert_public.persona_type("I work as a nurse.") == "fact"


def test_persona_cases_deterministic_selection() -> None:
    said = _row("I have a poodle named Rexford.", "I am a nurse.",
                "User 1: My poodle Rexford is great.\nUser 2: Cool.")
    unsaid = _row("I have a poodle named Rexford.", "I am a nurse.", "User 1: Hello.\nUser 2: Hi.")
    cases, counts = convert_public.persona_cases([unsaid, said, said, said], 2)
    assert [c["id"] for c in cases] == ["spc-0001", "spc-0002"]
    assert counts["skipped_without_said_persona"] == 1 and counts["expected_said"] == 2
    assert cases[0]["forbid"] == ["nurs"]


def test_score_run_counts_typed_and_untyped_recall_and_forbidden_users() -> None:
    cases = [{"id": "a", "expect": [{"type": "preference", "any_of": ["piano"]},
                                    {"type": "preference", "any_of": ["tea"]}], "forbid": ["timothy"]},
             {"id": "b", "expect": [{"type": "fact", "any_of": ["horse"]}], "forbid": []}]
    run = {"cases": [
        {"id": "a", "expect_hits": [True, False], "query_hits": [True, False],
         "forbid_violations": ["timothy"],
         "memories": ["[preference] preference-piano: plays piano", "[fact] fact-drink: drinks tea",
                      "[fact] fact-pet: Timothy the turtle"]},
        {"id": "b", "expect_hits": [False], "query_hits": [], "forbid_violations": [], "memories": []}],
        "summary": {"expect_recall": 0.3333}}
    r = bench_public.score_run(cases, run)
    assert r["expect_recall"] == round(1 / 3, 4) and r["expect_recall_any_type"] == round(2 / 3, 4)
    assert r["query_hit_at_k"] == 0.5
    assert r["users_with_forbidden"] == 1 and r["users_with_forbidden_rate"] == 0.5
    assert r["memories_by_type"] == {"preference": 1, "fact": 2} and r["forbidden_terms"] == 1
    assert bench_public.parse_memory("[goal] goal-x: a: b") == ("goal", "goal-x", "a: b")


def test_persona_expected_type_is_the_kind_the_statement_names() -> None:
    # the user's own words name a taste: a taste, whatever the persona sentence's verb
    assert convert_public.expected_type("I volunteer at a soup kitchen.",
                                        "I like to volunteer at a soup kitchen.") == "preference"
    # a statement that names no kind leaves the persona sentence's type, both ways
    assert convert_public.expected_type("I like to cross stitch and quilt.",
                                        "On weekends I quilt, and cross stitch too.") == "preference"
    assert convert_public.expected_type("Gymnastics is my favorite sport.",
                                        "I competed in gymnastics.") == "preference"
    # the rule before session 11: the persona sentence alone
    assert convert_public.expected_type("I volunteer at a soup kitchen.",
                                        "I like to volunteer at a soup kitchen.", "persona") == "fact"
    # "into" is a liking only as one ("I'm really into horses"), not a movement
    assert convert_public.persona_type("I just moved into my first home.") == "fact"
    assert convert_public.persona_type("I'm really into horses.") == "preference"
