"""Converters from public dialogue sets to the evaluation-case format (``core.evaluation``).

Not a test. Pure functions (no services, no files but the ones passed in), used by
``bench/bench_public.py`` and unit-tested on tiny inputs in ``tests/bench/``.

MemoryBank (``memorybank/eval_data/{cn,en}/memory_bank_{cn,en}.json``): 15 simulated users per
language chat with an AI companion over ten days. One case per user: every day is a session (its own
conversation) with the day's date on each turn (user turns a minute apart, the reply 10 s after
its question). Ground truth is the user's ``meta_information.hobbies``: each hobby the user
actually mentions (one of its terms appears in a user turn) is an expected ``preference`` and a
query "what are my hobbies?" that must retrieve it; hobbies never mentioned are counted, not
expected. A hobby's terms are the phrase itself, its object without the leading verb ("playing
the piano" -> "piano", "打羽毛球" -> "羽毛球") and its singular, plus a few listed aliases
(``ALIASES``).

Synthetic-Persona-Chat (``synthetic_persona_chat/data/*.csv``): speaker 1 ("User 1") is the user,
speaker 2 the assistant. A speaker-1 persona sentence is expected when one statement of a speaker-1
turn (a sentence that is not a question) says a good part of it (at least half of its content words,
by a light stem); its terms are the shared stems, its type is guessed from its verb
(want/plan/hope/dream -> ``goal``; like/love/enjoy/favorite, or a hobby or habit such as "my hobby
is", "I collect", "I listen to", "in my spare time" -> ``preference``, the seed's "stable
preferences and habits"; else ``fact``), and a type-specific question must retrieve it. Since issue 24's
session 11 the verb is read first in the user's statement that says the sentence (``expected_type``):
"I like to volunteer at a soup kitchen" said for "I volunteer at a soup kitchen" is a taste; a statement
that names no kind ("On weekends I quilt" for "I like to quilt") leaves the persona sentence's type
(``types="persona"``: the persona sentence's type always, the rule before).
Each speaker-2 persona sentence gives one forbidden term: of its content words that speaker 1
never says nor has in their persona, the rarest among the file's persona sentences (then the
longest), so "ultimate frisbee" rather than "sport". The first ``n`` conversations of the file (in
order) with at least one expected sentence are used.
"""

from __future__ import annotations

import csv
import math
import re
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

# --- MemoryBank -------------------------------------------------------------------------------------
_SPLIT = re.compile(r"\s*(?:[,，、;；]|\band\b)\s*", re.IGNORECASE)
_EN_VERBS = re.compile(
    r"^(?:playing|taking|drinking|studying|watching|listening to|eating|reading|tasting|doing|going)\s+",
    re.IGNORECASE,
)
_ARTICLE = re.compile(r"^(?:the|a|an)\s+", re.IGNORECASE)
_ZH_VERBS = ("弹", "打", "玩", "听", "看", "吃", "读", "品", "做", "写")
# hobbies whose words a user says differently; every term is a substring to look for
ALIASES: dict[str, list[str]] = {
    "唱歌跳舞": ["唱歌", "跳舞"],
    "军事史研究": ["军事史", "军事历史"],
    "品茶": ["茶"],
    "美酒": ["酒"],
    "棋牌": ["棋", "牌"],
    "studying military history": ["military history"],
    "working out": ["workout", "work out", "fitness", "gym"],
    "eating delicious food": ["food"],
    "drinking tea": ["tea"],
    "tasting tea": ["tea"],
    "taking walks": ["walk"],
    "mountaineering": ["mountain climbing", "mountaineer"],
    "reading": ["read"],
    "writing": ["write"],
    "swimming": ["swim"],
    "cooking": ["cook"],
    "coding": ["code", "programming"],
    "sprinting": ["sprint"],
    "singing": ["sing"],
    "traveling": ["travel"],
    "photography": ["photo"],
    "hiking": ["hike"],
    "dancing": ["dance"],
    "street dancing": ["street dance"],
    "阅读": ["读书", "看书"],
    "读书": ["阅读", "看书"],
    "旅游": ["旅行"],
    "旅行": ["旅游"],
}
MB_QUERY = {"cn": "我平时有哪些兴趣爱好？", "en": "What are my hobbies?"}
MB_K = 6


def hobby_terms(hobby: str) -> list[str]:
    """The substrings any of which means ``hobby`` (see the module docstring)."""
    h = hobby.strip()
    terms = [h, *ALIASES.get(h, ALIASES.get(h.lower(), []))]
    if re.search(r"[\u4e00-\u9fff]", h):
        for verb in _ZH_VERBS:
            if h.startswith(verb) and len(h) - len(verb) >= 2:
                terms.append(h[len(verb):])
    else:
        obj = _ARTICLE.sub("", _EN_VERBS.sub("", h)).strip()
        terms.append(obj)
        if obj.endswith("s") and len(obj) > 4 and not obj.endswith("ss"):
            terms.append(obj[:-1])
    out: list[str] = []
    for t in terms:
        if t and t.lower() not in (o.lower() for o in out):
            out.append(t)
    return out


def split_hobbies(text: str) -> list[str]:
    return [h.strip() for h in _SPLIT.split(text) if h.strip()]


def memorybank_cases(data: Mapping[str, Any], lang: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Cases for one language's ``memory_bank_<lang>.json`` (a dict user -> record) and counts."""
    cases: list[dict[str, Any]] = []
    unmentioned: list[str] = []
    hobbies_total = 0
    for n, (raw_name, record) in enumerate(data.items()):
        name = raw_name.strip()
        conversation: list[dict[str, Any]] = []
        said: list[str] = []
        for day in sorted(record.get("history") or {}):
            start = datetime.fromisoformat(day).replace(hour=19, tzinfo=UTC)
            for i, pair in enumerate(record["history"][day]):
                at = start + timedelta(minutes=i)
                query, response = (pair.get("query") or "").strip(), (pair.get("response") or "").strip()
                if query:
                    conversation.append({"role": "user", "content": query, "created_at": at.isoformat(),
                                         "session": day})
                    said.append(query.lower())
                if response:
                    reply_at = (at + timedelta(seconds=10)).isoformat()
                    conversation.append({"role": "assistant", "content": response, "created_at": reply_at,
                                         "session": day})
        expect, queries = [], []
        for hobby in split_hobbies((record.get("meta_information") or {}).get("hobbies", "")):
            hobbies_total += 1
            terms = hobby_terms(hobby)
            if not any(t.lower() in s for t in terms for s in said):
                unmentioned.append(f"{name}: {hobby}")
                continue
            expect.append({"type": "preference", "any_of": terms})
            queries.append({"query": MB_QUERY[lang], "expect_any_of": terms, "k": MB_K})
        cases.append({"id": f"mb-{lang}-{n:02d}", "lang": "zh" if lang == "cn" else "en", "user": name,
                      "conversation": conversation, "expect": expect, "forbid": [], "queries": queries})
    counts = {
        "users": len(cases),
        "user_turns": sum(1 for c in cases for t in c["conversation"] if t["role"] == "user"),
        "hobbies": hobbies_total,
        "hobbies_mentioned": hobbies_total - len(unmentioned),
        "hobbies_never_mentioned": unmentioned,
    }
    return cases, counts


# --- Synthetic-Persona-Chat ------------------------------------------------------------------------
_WORD = re.compile(r"[a-z][a-z'-]*[a-z]|[a-z]")
_STOP_TEXT = """
about also always been being best both could does doing done each even ever every from going gonna good
great have having here into just know like liked likes love loved loves lot lots make many more most much
need never nice other over really some something than that their them then there these they thing things
this those time times very want wants well were what when where which while will with would your yours
enjoy enjoys enjoyed favorite favourite able used still only year years people person day days week
"""
STOPWORDS = frozenset(_STOP_TEXT.split())
# "into" as a liking ("I'm really into horses"), not a movement ("I just moved into my first home")
_PREF = re.compile(r"\b(like|likes|love|loves|enjoy|enjoys|favou?rite|prefer|hate|fan of)\b|"
                   r"(?:'m|\bam|\bare|'re|\bis|\breally|\bso|\btotally|\bsuper|\bbig) into\b", re.I)
_HABIT = re.compile(
    r"\b(hobby|hobbies|pastime|collect|collects|collecting|listen to|listens to|spare time|free time)\b", re.I
)
# one sentence of a turn, with its closing punctuation (a question keeps its "?")
_STATEMENT = re.compile(r"[^.!?]+[.!?]*")
_GOAL = re.compile(
    r"\b(want|wants|plan|plans|planning|hope|hoping|dream|goal|someday|wish|saving up)\b", re.I
)
PERSONA_QUERY = {
    "preference": "What do I like?",
    "goal": "What are my plans and goals?",
    "fact": "What do you know about me, my work, family, pets and home?",
}
PERSONA_K = 6


def stem(word: str) -> str:
    """A light stem: "horse"/"horses" -> "hors", "dance"/"dancing"/"dancer" -> "danc"."""
    w = word.lower().strip("'-")
    for suffix, keep in (("ies", "y"), ("ing", ""), ("ers", ""), ("er", ""), ("ed", ""), ("s", "")):
        if suffix == "s" and w.endswith(("ss", "us", "is")):
            break
        if w.endswith(suffix) and len(w) - len(suffix) >= 4:
            w = w[: len(w) - len(suffix)] + keep
            break
    return w[:-1] if w.endswith("e") and len(w) > 4 else w


def content_stems(text: str) -> dict[str, str]:
    """Content words of ``text`` (longer than 3 letters, not stopwords): stem -> first surface form."""
    out: dict[str, str] = {}
    for w in _WORD.findall(text.lower()):
        if len(w) > 3 and w not in STOPWORDS and "'" not in w:
            out.setdefault(stem(w), w)
    return out


def persona_type(sentence: str) -> str:
    """goal (a plan or wish), preference (a taste, or a hobby or habit: the seed's preference is "stable
    preferences and habits"), else fact."""
    if _GOAL.search(sentence):
        return "goal"
    if _PREF.search(sentence) or _HABIT.search(sentence):
        return "preference"
    return "fact"


def parse_conversation(text: str) -> list[tuple[int, str]]:
    """``(speaker 1|2, text)`` for the lines ``User 1: ...`` / ``User 2: ...`` (others skipped)."""
    out = []
    for line in text.splitlines():
        m = re.match(r"\s*User\s*([12])\s*:\s*(.+)", line)
        if m and m.group(2).strip():
            out.append((int(m.group(1)), m.group(2).strip()))
    return out


def said_statement(sentence: str, turns: Iterable[str]) -> tuple[list[str], str] | None:
    """The stems of ``sentence`` one statement of ``turns`` shares, when it shares at least half of them,
    and that statement (the first that shares the most). A statement is a sentence of a turn that is not a
    question: "what's it like to be a senior in high school?" does not say "I never finished high
    school"."""
    mine = content_stems(sentence)
    if not mine:
        return None
    need = max(1, math.ceil(len(mine) / 2))
    best: list[str] = []
    said = ""
    for turn in turns:
        for statement in _STATEMENT.findall(turn):
            if statement.rstrip().endswith("?"):
                continue
            theirs = content_stems(statement)
            shared = [s for s in mine if s in theirs]
            if len(shared) > len(best):
                best, said = shared, statement.strip()
    return (best, said) if len(best) >= need else None


def said_terms(sentence: str, turns: Iterable[str]) -> list[str] | None:
    """The stems of ``sentence`` one statement of ``turns`` shares (``said_statement``), or ``None``."""
    found = said_statement(sentence, turns)
    return found[0] if found else None


def statement_type(statement: str) -> str | None:
    """The type a user's statement says in so many words: ``goal`` (a plan or wish), ``preference`` (a
    liking, a hobby or habit word), else ``None`` (it names no kind: the persona sentence's type holds)."""
    if _GOAL.search(statement):
        return "goal"
    if _PREF.search(statement) or _HABIT.search(statement):
        return "preference"
    return None


_CLAUSE = re.compile(r"\s*(?:[,;:]|\band\b|\bbut\b)\s*", re.IGNORECASE)


def saying_clause(sentence: str, statement: str) -> str:
    """The clause of ``statement`` (split at commas, "and", "but") sharing the most content stems with
    ``sentence`` (the first of those)."""
    mine = content_stems(sentence)
    clauses = [c for c in _CLAUSE.split(statement) if c.strip()] or [statement]
    return max(clauses, key=lambda c: sum(1 for s in content_stems(c) if s in mine))


def expected_type(sentence: str, statement: str, types: str = "said") -> str:
    """The expected type of a persona ``sentence`` the user said in ``statement``. ``types`` ``said``: the
    kind the clause that says it names in its own words when it names one ("I like to volunteer at a soup
    kitchen" is a taste, whatever the persona's "I volunteer at a soup kitchen"; in "I'm a teacher, I like
    to cook" only the second clause is a taste), else the persona sentence's (``persona_type``: "On
    weekends I quilt" for "I like to quilt", or "run a dog obedience school" in "I like to dance, run a dog
    obedience school, ..." names no kind); ``persona``: always the persona sentence's (the converter's
    rule before issue 24's session 11)."""
    said = statement_type(saying_clause(sentence, statement)) if types == "said" else None
    return said or persona_type(sentence)


def persona_case(
    row: Mapping[str, str], case_id: str, df: Mapping[str, int] | None = None, types: str = "said"
) -> tuple[dict[str, Any], dict[str, int]]:
    """One case; ``df``: in how many persona sentences each stem occurs (picks forbidden terms); ``types``:
    how an expected item's type is chosen (``expected_type``)."""
    turns = parse_conversation(row["Best Generated Conversation"])
    own = [t for s, t in turns if s == 1]
    own_personas = [p.strip() for p in row["user 1 personas"].splitlines() if p.strip()]
    other_personas = [p.strip() for p in row["user 2 personas"].splitlines() if p.strip()]
    expect, queries = [], []
    for sentence in own_personas:
        found = said_statement(sentence, own)
        if found:
            terms, statement = found
            mtype = expected_type(sentence, statement, types)
            expect.append({"type": mtype, "any_of": terms, "persona": sentence})
            queries.append({"query": PERSONA_QUERY[mtype], "expect_any_of": terms, "k": PERSONA_K})
    user_words = set(content_stems(" ".join(own + own_personas)))
    user_text = " ".join(own + own_personas).lower()
    forbid = []
    for sentence in other_personas:
        candidates = [
            (s, w) for s, w in content_stems(sentence).items() if s not in user_words and s not in user_text
        ]
        if candidates:
            best = min(candidates, key=lambda sw: ((df or {}).get(sw[0], 0), -len(sw[1]), sw[1]))
            forbid.append(best[0])
    conversation = [
        {"role": "user" if s == 1 else "assistant", "content": t} for s, t in turns
    ]
    case = {"id": case_id, "lang": "en", "conversation": conversation, "expect": expect,
            "forbid": sorted(set(forbid)), "queries": queries}
    return case, {"persona_sentences": len(own_personas), "said": len(expect)}


def persona_cases(rows: Iterable[Mapping[str, str]], n: int,
                  types: str = "said") -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The first ``n`` conversations with at least one expected sentence, and counts; ``types``: see
    ``expected_type``."""
    rows = list(rows)
    df: dict[str, int] = {}
    for row in rows:
        for col in ("user 1 personas", "user 2 personas"):
            for sentence in row[col].splitlines():
                for s in content_stems(sentence):
                    df[s] = df.get(s, 0) + 1
    cases: list[dict[str, Any]] = []
    sentences = said = skipped = 0
    for i, row in enumerate(rows):
        if len(cases) >= n:
            break
        case, c = persona_case(row, f"spc-{i:04d}", df, types)
        if not case["expect"]:
            skipped += 1
            continue
        cases.append(case)
        sentences += c["persona_sentences"]
        said += c["said"]
    counts = {
        "conversations": len(cases),
        "skipped_without_said_persona": skipped,
        "user_turns": sum(1 for c in cases for t in c["conversation"] if t["role"] == "user"),
        "persona_sentences": sentences,
        "expected_said": said,
        "forbidden_terms": sum(len(c["forbid"]) for c in cases),
    }
    return cases, counts


def read_persona_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))
