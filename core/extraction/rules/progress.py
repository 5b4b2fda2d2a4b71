"""A project's later progress updates the project (issue 24): one memory per project, never a second copy.

"I'm refurbishing an old Vespa scooter, stripping the rust off the frame", and a week later "update on the
Vespa: frame is repainted and the engine finally starts!": the second message is news of the live project,
whatever the rules or the classifier made of it (a fact about the scooter, a second project under another
key, the same key with the news alone). ``with_progress`` finds the user's live project that the message
names -- a salient word of the project's first statement (its identity: the object being made or learned)
in the message -- and files the message's candidates that name it under that project's key, its content
the project's first statement and the newest progress ("<first statement>; <latest news>"), so the project
keeps its referent and does not grow by every turn. Only what the rules and the classifier kept is news
(the day's sales beside the shop's name are not), and only a project or a fact is news (a taste or a goal
naming the same thing stays its own memory); a standing rule, a deletion, a question, a message that says
nothing new, a message that replaces the thing ("switched to …", "cancelled …, moved everything over to
…": the update judge's), and a message naming two projects are left alone.
Pure function over its inputs; deterministic.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.extraction.candidates import CandidateOp, ExistingMemory, ExtractionInput, MemoryCandidate
from core.extraction.rules import patterns
from core.extraction.rules.answers import _NOT_AN_ANSWER
from core.extraction.rules.followup import _AFFIRM
from core.extraction.rules.gate_units import OWN_SUBJECT, owner_of
from core.extraction.rules.questions import is_question
from core.extraction.rules.refine import contained, gives_up_old
from core.extraction.rules.segment import (
    Clause,
    clean_content,
    has_cjk,
    join_clauses,
    normalise,
    split_clauses,
)
from core.extraction.rules.slots import is_known_slot, spec
from core.filters import normalise_key
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re
from core.text.salient import salient_tokens
from core.types import MemoryType
from schemas.events import MAX_MEMORY_CONTENT_CHARS

PROGRESS_MAX_CHARS = 160  # the newest news kept beside the project's first statement
CONFIDENCE = 0.85
_PIECES = re.compile(r"；|; ")
# what news of a project is read as: the project itself, or a fact about the thing being made; a taste or a
# goal that names it ("I like to make all kinds of crafts" beside "making some crafts") is a memory of its own
_NEWS = (MemoryType.PROJECT, MemoryType.FACT)
# what a word shared with any statement of the moment says nothing of which project it is: the activity's
# verb form ("restoring", "learning", "学"), time and degree words ("现在", "已经", "every", "weekend")
# a message that replaces the thing rather than telling of its progress ("switched to Mint Mobile",
# "cancelled spotify, moved everything over to apple music", "carpool 没了 现在只能 uber"): the update judge's
_REPLACED = re.compile(r"\b(?:switch(?:ed)? (?:over )?to|moved (?:\w+ )?(?:over )?to|instead|no longer|"
                       r"any ?more|cancel+ed|quit|gave up|dropped|sold|traded in|replaced)\b|"
                       r"换(?:成|了|到|回)|改(?:成|为|用)|不再|已经不|没了|只能|算了|放弃|取消|switch")
_GENERIC_EN = re.compile(r"^(?:\w+ing|\w+ed|week\w*|day\w*|month\w*|year\w*|hour\w*|minute\w*|weekend|"
                         r"every|first|last|next|new|old|little|bit|done|finally|update|progress|right|"
                         r"start\w*|finish\w*|project|side|working|work)$")
_GENERIC_ZH = re.compile(r"现在|已经|每天|每周|开始|最近|进展|进度|一个|两个|时间|周末|晚上|早上|第|完|"
                         r"终于|项目|做|弄|搞|写|学|练")


def _identity(tokens: set[str]) -> set[str]:
    return {t for t in tokens if not (_GENERIC_ZH.search(t) if has_cjk(t) else _GENERIC_EN.match(t))}


def _head(content: str) -> str:
    pieces = [p for p in _PIECES.split(content) if p.strip()]
    return pieces[0].strip() if pieces else content.strip()


def _named(message_tokens: set[str], project: ExistingMemory) -> set[str]:
    return _identity(salient_tokens(_head(project.content))) & message_tokens


def with_progress(message: str, existing: Sequence[ExistingMemory],
                  candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
    """``candidates`` with the message filed as news of the live project it names (see the module doc)."""
    projects = [m for m in existing if m.memory_type == MemoryType.PROJECT.value]
    if not projects or not message.strip() or is_question(normalise(message)) \
            or gives_up_old(message) or _REPLACED.search(normalise(message)):
        return candidates
    tokens = salient_tokens(message)
    named = [(p, _named(tokens, p)) for p in projects]
    named = [(p, shared) for p, shared in named if shared]
    if len(named) != 1:
        return candidates  # no project named, or two (which one the news is of is unclear)
    project, shared = named[0]
    if any(c.op is CandidateOp.DELETE or (c.supersedes and normalise_key(c.supersedes) != project.key)
           for c in candidates):
        return candidates  # a withdrawal or a change of another value is the judge's, not news
    if any(c.op is CandidateOp.UPSERT and c.memory_type is MemoryType.CONSTRAINT
           and salient_tokens(c.content) & shared for c in candidates):
        return candidates  # a standing rule about the project stays a rule
    about = [c for c in candidates
             if c.op is CandidateOp.UPSERT and c.memory_type in _NEWS
             and (normalise_key(c.key) == normalise_key(project.key) or salient_tokens(c.content) & shared)]
    if not about:
        return candidates  # nothing of the message is worth keeping (the day's sales, a question): no news
    sep = "；" if has_cjk(project.content + message) else "; "
    head = _head(project.content)
    # each clause once: a candidate refine already merged with the project repeats the head
    pieces = [p.strip() for c in about for p in _PIECES.split(c.content) if p.strip()]
    news = clean_content(sep.join(p for i, p in enumerate(pieces)
                                  if not contained(p, head) and p not in pieces[:i]))
    if not news or contained(news, project.content):
        return candidates
    kept = [c for c in candidates if c not in about]
    content = (head + sep + news[:PROGRESS_MAX_CHARS])[:MAX_MEMORY_CONTENT_CHARS]
    target = spec(project.key)
    kept.append(MemoryCandidate(op=CandidateOp.UPSERT, memory_type=MemoryType.PROJECT, key=project.key,
                                content=content, importance=target.importance, confidence=CONFIDENCE,
                                ttl_days=target.ttl_days))
    return kept


# a reply this thin tells no news ("it really is", "是啊 挺累的", "yeah it's a lot of work")
NEWS_MIN_TOKENS = 3  # salient words of an English reply
NEWS_MIN_TOKENS_CJK = 4  # salient character pairs of a Chinese one (five characters)
NEWS_MAX_CHARS = 200  # a longer message tells more than the next thing about the project


def _previous_user(data: ExtractionInput) -> str | None:
    for msg in reversed(data.context):
        if msg.role == "user" and msg.content.strip():
            return msg.content
    return None


def _reply_body(message: str) -> list[Clause]:
    """The reply's clauses without its opening acknowledgements ("yeah", "嗯", "haha", "好消息")."""
    clauses = split_clauses(message)
    while clauses and ((_AFFIRM.match(clauses[0].text) and len(salient_tokens(clauses[0].text)) <= 1)
                       or not salient_tokens(clauses[0].text)):
        clauses = clauses[1:]
    return clauses


def told_next(data: ExtractionInput, candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
    """The user's next turn after telling of a project, when it goes on about it without naming it (the
    engine turned over, the tiles are laid, "营业执照办下来了", "some of the letters are from the 1950s"), is
    news of that project, filed under its key as "<first statement>; <news>" -- whatever the rules and the
    classifier made of it (dropped as the day's news, a fact of a generic key, the project's key with the
    news alone, which would lose the project). Only when the previous user turn stated exactly one live
    memory and it is a project; never a question, a withdrawal or change, a reply too thin to tell anything
    (see ``NEWS_MIN_TOKENS``), a reply opening with a subject of its own (the user, a named person, a
    relative: a statement of its own), nor one the pipeline filed under a catalogue slot or as a taste, goal
    or rule (understood on its own). Pure function over its inputs; deterministic."""
    message = (data.user_message or "").strip()
    previous = _previous_user(data)
    if not message or len(message) > NEWS_MAX_CHARS or previous is None or not data.existing:
        return candidates
    norm = normalise(message)
    if is_question(norm) or gives_up_old(message) or _REPLACED.search(norm):
        return candidates
    stated = [m for m in data.existing
              if contained(m.content, previous) or contained(_head(m.content), previous)]
    if len(stated) != 1 or stated[0].memory_type != MemoryType.PROJECT.value:
        return candidates
    project = stated[0]
    key = normalise_key(project.key)
    if any(c.op is CandidateOp.DELETE or (c.supersedes and {normalise_key(c.supersedes), normalise_key(c.key)}
                                           != {key}) for c in candidates):
        return candidates  # a withdrawal, a change of another value, or a new thing replacing the project
    body = _reply_body(message)
    if not body:
        return candidates
    first = body[0]
    if OWN_SUBJECT.search(first.norm) or owner_of(first) is not None or _NOT_AN_ANSWER.search(first.norm):
        return candidates
    told = [first]
    for clause in body[1:]:  # up to a statement of its own ("…, also my daughter started school")
        if OWN_SUBJECT.search(clause.norm) or owner_of(clause) is not None:
            break
        told.append(clause)
    news = clean_content(join_clauses(message, told, has_cjk(message)))
    tokens = salient_tokens(news)
    if len(tokens) < (NEWS_MIN_TOKENS_CJK if has_cjk(news) else NEWS_MIN_TOKENS) \
            or contained(news, project.content):
        return candidates
    head = _head(project.content)
    if any(c.op is CandidateOp.UPSERT and normalise_key(c.key) == key and contained(head, c.content)
           for c in candidates):
        return candidates  # already filed under the project (an answer to the assistant's question, news)
    about: list[MemoryCandidate] = []
    for cand in candidates:
        same = normalise_key(cand.key) == key
        if cand.op is not CandidateOp.UPSERT or not (
                same or contained(cand.content, news) or contained(news, cand.content)):
            continue
        own_fact = cand.memory_type is MemoryType.FACT and is_known_slot(cand.key) \
            and patterns.FIRST_PERSON.search(norm)
        if not same and (cand.memory_type not in _NEWS or own_fact):
            return candidates  # understood on its own: a taste, a goal, a rule, or the user's own fact
        about.append(cand)
    sep = "；" if has_cjk(project.content + message) else "; "
    content = (head + sep + news[:PROGRESS_MAX_CHARS])[:MAX_MEMORY_CONTENT_CHARS]
    target = spec(project.key)
    kept = [c for c in candidates if c not in about]
    kept.append(MemoryCandidate(op=CandidateOp.UPSERT, memory_type=MemoryType.PROJECT, key=project.key,
                                content=content, importance=target.importance, confidence=CONFIDENCE,
                                ttl_days=target.ttl_days))
    return kept
