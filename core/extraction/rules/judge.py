"""The learned update/retraction decision in the rules provider's refine stage.

``UpdateJudge.apply`` runs after the rules' refine (``refine_candidates``) on messages carrying an
update or retraction cue (``core.extraction.pairs.has_cue``; other messages cost nothing). Each cue
sentence of the message (at most ``MAX_STATEMENTS``; a short one is read with the sentence after it:
"我辞职啦！现在在...") is paired with the user's ``MAX_PAIRS`` most similar live memories (cosine of
``passage:`` vectors, from the shared cache) and the pair model (``core.extraction.pairs.PairModel``)
decides:

- ``retract`` with p >= ``RETRACT_P`` and a retraction cue in the sentence: a ``delete`` of that
  memory (naming it in ``supersedes``), unless a candidate of the message already writes it; of the
  other paired memories, those the sentence names a word of (``shares_value``) with the same
  certainty go too ("信佛吃素的事别记了"). A bare "forget that" reads the previous user turn as its
  topic: the memory that turn stated is paired first, and its retraction probability is the larger of
  the sentence's own topic and that turn as the topic. A memory of
  several clauses ("i'm a nurse, and i make about 85k") loses only the clauses the pair model also
  calls retracted against the sentence (p >= ``PART_P``): an upsert of the rest naming the memory in
  ``supersedes`` ("forget the salary thing" keeps "i'm a nurse") when the rest is a memory alone (memory
  classifier p_keep >= ``REST_KEEP``), else the whole memory goes;
- ``supersede`` with p >= ``SUPERSEDE_P``: the candidate of the memory's key that refine merged into
  it is rewritten with the new statement alone; else the candidate the sentence produced (its content
  overlaps the sentence; of the memory's type; never another named slot)
  names the memory in ``supersedes``; else, with p >= ``STATEMENT_P``, an update cue and no question,
  the sentence itself becomes the memory's new content (``new_part``: without the clauses about the
  old value, "quit coffee, matcha now" -> "matcha now") when it has a strong change cue (``STRONG_CUE``)
  and the memory classifier does not call it, with p >= ``STATEMENT_KEEP``, a memory of another type
  (p of the memory's type < ``OTHER_TYPE_P``). A refine merge into the memory's own key is rewritten
  only with a strong change cue. The upsert deactivates or overwrites the old memory and its history
  says which message superseded which;
- ``refine`` / ``unrelated``: nothing changes.

Since issue 24's session 11: a supersede acts at ``CUED_SUPERSEDE_P`` with a strong change cue for the
most similar memory, at ``SURE_P`` with only a weak cue when the memory classifier sees the new value as a
memory of the slot's type (``_of_type``); a correction ("X, not Y", "记错了") reads supersede and refine
together; a second memory stating the old value the sentence moves from goes with the first
(``_old_value``); a retraction naming one part keeps the rest even over the rules' delete (``_PART_CUE``,
a keep clause, ``drop_conjunct``), its topic is its retraction clause (``retraction_topic``), and a topic
naming a word of the memory acts at ``NAMED_RETRACT_P``; "don't forget ..." is no retraction (``_REMIND``).

Since issue 24's session 12: a candidate the sentence produced that tells the change under another slot or
type than the memory (the rules typed "现在开车上班" a fact beside a commute stored as a preference) keeps its
own key and type and retires the memory (``supersedes``), where it used to block the supersede, when both
are facts or preferences (``_STATES``: a goal is never a fact's new value); a dated
life event telling the new value is taken over at ``CROSS_P``; a count the old memory states told with
another value is no weak cue (``_weak``); a "so" / "所以" clause is cut before the new value it introduces
(``_split_therefore``); and a slug key naming the old value's words gets a slug of the new value
(``_fresh_key``: "constraint-..._notion" no longer holds "Obsidian").

The upsert stage records ``superseded by message N`` / ``retracted by message N``
(``core.memory.upsert._linked``). Deterministic.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from core.extraction.candidates import CandidateOp, ExistingMemory, MemoryCandidate
from core.extraction.classifier import MemoryClassifier
from core.extraction.pairs import (
    NEGATION,
    RELATIONS,
    RETRACT_CUE,
    UPDATE_CUE,
    PairModel,
    bare_cue,
    has_cue,
    overlap,
    shares_value,
    topic_text,
)
from core.extraction.retraction_intent import INTENT_P as WITHDRAWAL_P
from core.extraction.retraction_intent import RetractionIntent
from core.extraction.rules.coherence import LIST_SLOTS
from core.extraction.rules.events import is_event_key
from core.extraction.rules.keys import content_slug
from core.extraction.rules.patterns import REQUEST
from core.extraction.rules.refine import without_past
from core.extraction.rules.segment import clean_content, has_cjk
from core.extraction.rules.slots import is_known_slot
from core.extraction.update_intent import UPDATE_INTENT_P
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re
from core.text.salient import salient_tokens
from core.types import MemoryType
from schemas.events import MAX_MEMORY_CONTENT_CHARS

MAX_STATEMENTS = 4
MAX_PAIRS = 3
MAX_EXISTING = 40  # the most recent live memories compared (bounded work per message)
RETRACT_P = 0.80
SUPERSEDE_P = 0.80
STATEMENT_P = 0.80  # the sentence itself becomes the new content only this sure
STATEMENT_KEEP = 0.8  # ... unless the memory classifier is this sure it is a memory
OTHER_TYPE_P = 0.5  # ... and gives the memory's own type less than this
REST_KEEP = 0.5  # the clauses a partial retraction keeps must be a memory alone (classifier p_keep)
PART_P = 0.50  # a clause of a retracted memory goes with it at this retract probability (privacy first:
# a detail of the retracted thing goes too, "考公那件事" takes "行测老是做不完" with it)
MIN_COSINE = 0.80  # a memory less similar than this to the sentence is never its pair
CROSS_SCRIPT_COSINE = 0.76  # ... when one of the two is Chinese and the other not (e5's cosines across
# languages sit lower: "I'm based in Singapore" / "上个月 relocate 到吉隆坡了" 0.78)
CUED_SUPERSEDE_P = 0.70  # ... with a strong change cue, for the most similar memory ("注释改成中文吧")
SURE_P = 0.93  # a supersede this sure tells a new value with a weak cue alone ("been at the new
# apartment about a month now", "现在只能每天挤地铁上班")
NAMED_RETRACT_P = 0.5  # a retraction whose topic names a word of the memory is enough at this probability
PART_MARGIN = 0.25  # a clause goes with a partial retraction only this close to the surest clause's
# probability (a short topic, "salary", sits near every clause of the memory in e5's space)
WEAK_TYPE_P = 0.5  # a new value told with a weak cue alone must be of the memory's type this surely
# (classifier), and a memory (p_keep), else it is no value of that slot ("现在才4万出头" is no job)
# a retraction of one part: "the adderall part", "salary 那部分", "the debt number"
_PART_CUE = re.compile(r"\b(?:part|bit|piece|detail|details|number|section)\b|部分|那块|那段|那点|那句",
                       re.IGNORECASE)
# a latin-script clause completing the new value's clause: a noun phrase ("a mazda 3 hatchback")
_APPOSITIVE = re.compile(r"^\s*(?:a|an|the|my|called|named|like|at|in|with)\b", re.IGNORECASE)
STRONG_P = 0.85  # a supersede this sure tells a new value without a strong cue word ("traded the civic")
CROSS_P = 0.90  # a supersede this sure takes over a candidate the sentence produced under another slot or
# type ("switched majors to public health" keyed fact-health replaces fact-education's value)
SHORT_TAIL = 12  # characters: a clause this short after the new value's clause completes it ("，叫年糕")
SHORT_TAIL_LATIN = 24  # ... in a script of short letters ("i got my own car, a mazda 3 hatchback")
SHORT_SENTENCE = 8  # characters: a cue sentence this short is read with the sentence after it
_SENTENCE = re.compile(r"[^。！？!?.;；\n]+[。！？!?.;；]?")
# an emoji ends a sentence in chat ("the kanji broke me 💀 picked up korean instead")
_EMOJI = re.compile("[\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF]+")
_CLAUSE = re.compile(r"[^,，;；。!！?？]+")
_AND = re.compile(r",? and (?:i|i'm|my)\b", re.IGNORECASE)
# a clause that tells the old value's end or disposal, not the new value
_STOP = re.compile(r"辞职|不再|不.{0,6}了|放一放|放弃|戒了|卖了|出二手|送人|别记|删|"
                   r"\b(?:quit|left|ditched|sold|gave up|scratch|dropping|no more|not .{1,24} anymore|"
                   r"anymore|can wait|on hold|broke me|is out|'s out|rip|passed away|so over|over it|"
                   r"fell through|cancell?ed|is off|called off|no need to|don'?t have to)\b|去世|卸载|早就不|"
                   r"不用再|不必再|无需再|离职|辞呈|裸辞|"
                   r"\b(?:resigned|handed in (?:my )?notice|put in (?:my )?(?:two weeks|notice)|laid off)\b|"
                   # a correction's wrong value: "portland maine, not oregon", "是女儿不是儿子"
                   r"^\s*(?:and |but )?not\s+[\w' -]{1,24}[.!~]*\s*$|^\s*不是\S{1,8}$", re.IGNORECASE)
# a retraction without a topic of its own: "forget that", "erase it", "当我没说", "那条删了"
_ANAPHOR = re.compile(r"\b(?:that|it|this)\b|那条|这条|刚才|上面", re.IGNORECASE)
ANAPHOR_P = 0.50  # retract probability enough when the previous turn names the memory
ANAPHOR_OVERLAP = 0.5  # the previous turn stated the memory (Dice overlap of their words)
# a change cue that by itself tells a new value (not "now" / "现在" alone: "现在饿得发慌")
STRONG_CUE = re.compile(
    r"改成|改为|改用|改回|换成|换了|搬到|搬去|搬家|搬走|转行|转岗|改行|辞职|跳槽|不再|已经不|戒了|卖了|放弃|毕业|"
    r"调成|就够了|就行|缩到|现在.{0,6}了|去世|送人了|"
    r"\b(?:switched|switching|switch to|moved|quit|instead|no longer|anymore|these days|going forward|"
    r"from now|"
    r"make it|ditched|sold|graduated|took up|relocated|upgraded|is plenty|is enough|not going back|gave up|"
    r"used to|change of plans|plot twist|rip|passed away|new (?:job|place|phone|goal|car|flat|home)|"
    r"ever since|so over|no more|not any ?more|traded|picked up|getting into|caved|cancell?ed|fell through|"
    r"replaced|(?:i'm|im|i am) (?:a |an )?\S+ now|bump(?:ed)?|rais(?:e|ed)|lower(?:ed)?|increas(?:e|ed)|"
    r"transferr(?:ed|ing)|relocat(?:e|ed|ing)|is back|back on|typo|i meant|meant to say|"
    r"got (?:a|an|my) (?:new|own)|no need to|don'?t have to|(?:you|u) can (?:\w+ ){1,3}now|"
    r"(?:is|are) (?:fine|ok|okay) now)\b|后来|如今|早就|卸载|迷上|switch ?到|换到|转到|"
    r"调到|提到|提高到|降到|加到|减到|涨到|转学|恢复|记错|说错|打错|搞错|不用再|不必再|无需再|"
    r"改(?:坐|乘|骑|开|吃|喝|去|学|练|做|看|玩|听)|离职|辞呈|裸辞|搬回|搬来|"
    r"\b(?:resigned|handed in (?:my )?notice|put in (?:my )?(?:two weeks|notice)|laid off|moved back)\b",
    re.IGNORECASE)
# change cues that alone tell no change ("现在饿得发慌", "now 3 stations use it")
_WEAK_CUE = re.compile(r"现在|已经|最近|\b(?:now|actually|nah|new|lately|nowadays)\b", re.IGNORECASE)
_COUNT = re.compile(r"\d+|\b(?:one|two|three|four|five|six|seven|eight|nine|ten)\b", re.IGNORECASE)
_QUESTION = re.compile(r"[?？]\s*$|吗\s*$")
# an addition to what is there, not a replacement: "into origami as well", "我也开始练书法了"
_ADDITIVE = re.compile(
    r"\b(?:as well|also|besides|in addition|on top of)\b|\btoo\s*[.!~]*\s*$|也|另外还|还有", re.IGNORECASE)


def _tells_new_value(sentence: str) -> bool:
    """A clause of ``sentence`` tells a new value: an update cue, no retraction cue, and not only the old
    value's end ("I don't play tennis anymore, forget that" retracts; "scratch X, switching to Y" does
    not)."""
    return any(UPDATE_CUE.search(c) and not RETRACT_CUE.search(c) and not _STOP.search(c)
               and (_changes(c) or not NEGATION.search(c))  # "我不想让它出现在任何地方" tells nothing new
               for c in _CLAUSE.findall(sentence))


def _sentences(message: str) -> list[str]:
    message = _EMOJI.sub(". ", message)
    return [t for t in (clean_content(m.group(0)) for m in _SENTENCE.finditer(message)) if t]


def cue_statements(message: str, gated: frozenset[str] = frozenset()) -> list[tuple[str, str]]:
    """``(sentence, tail)`` for the message's sentences with an update or retraction cue, in order (at
    most ``MAX_STATEMENTS``): a cue sentence shorter than ``SHORT_SENTENCE`` characters is joined with
    the one after it; ``tail`` is the sentence and the two after it (where a new value is often told:
    "not doing badminton anymore. swimming laps instead now"). ``gated``: sentences without a cue word
    the update-intent model reads as a change (``core.extraction.update_intent``), judged as well."""
    parts = _sentences(message)
    out = []
    for i, text in enumerate(parts):
        if len(text) >= 3 and (has_cue(text) or text in gated):
            if len(text) < SHORT_SENTENCE and i + 1 < len(parts):
                text = f"{text}{'，' if has_cjk(text) else ', '}{parts[i + 1]}"
            sep = "，" if has_cjk(text) else ", "
            out.append((text, sep.join(parts[i:i + 3])))
    return out[:MAX_STATEMENTS]


def cue_context(message: str, gated: frozenset[str] = frozenset()) -> list[str]:
    """For each of ``cue_statements(message)``, the message's sentence before it ("" for the first):
    where the old value's end is often told ("tore my acl so no more hoops. swimming for rehab now")."""
    parts = _sentences(message)
    out = []
    for i, text in enumerate(parts):
        if len(text) >= 3 and (has_cue(text) or text in gated):
            out.append(parts[i - 1] if i > 0 else "")
    return out[:MAX_STATEMENTS]


def retraction_topic(sentence: str) -> str:
    """What a retraction withdraws: the topic of its clauses with a retraction cue, when other clauses
    say what to keep ("don't keep the pregnancy thing, just the kids" -> "pregnancy"); else
    ``topic_text(sentence)``."""
    if not RETRACT_CUE.search(sentence):
        return topic_text(sentence)
    parts = [p for p in _CLAUSE.findall(sentence) if p.strip()]
    cued = [p for p in parts if RETRACT_CUE.search(p)]
    if not cued or len(cued) == len(parts):
        return topic_text(sentence)
    joined = " ".join(cued)
    if bare_cue(joined):
        return topic_text(sentence)  # "forget that, it was about my ex": the other clause is the topic
    return topic_text(joined)


def drop_conjunct(content: str, topic: str) -> str:
    """``content`` without the conjunct the ``topic`` names, when the memory joins two things with
    "and" / "和" ("i love horror movies and true crime podcasts" - "true crime" -> "i love horror
    movies"; "我对花生和芒果过敏" - "芒果" -> "我对花生过敏"); "" when there is no such conjunct."""
    words = [t for t in salient_tokens(topic) & salient_tokens(content) if len(t) >= 2]
    if not words:
        return ""
    low = content.lower()
    if has_cjk(content):
        for w in sorted(words, key=len, reverse=True):
            for pat in (f"[和与跟、及]{w}", f"{w}[和与跟、及]"):
                m = re.search(pat, low)
                if m:
                    return clean_content(content[:m.start()] + content[m.end():])
        return ""
    m = re.search(r"\s(?:and|&)\s", low)
    if not m or re.search(r"\s(?:and|&)\s", low[m.end():]):
        return ""  # none, or a list of three: not one conjunct
    left, right = low[:m.start()], low[m.end():]
    end = _CLAUSE.match(right)
    right_end = m.end() + (end.end() if end else len(right))
    in_right = any(re.search(rf"\b{re.escape(w)}", right) for w in words)
    in_left = [i for i in (re.search(rf"\b{re.escape(w)}", left) for w in words) if i]
    if in_right and not in_left:
        return clean_content(content[:m.start()] + content[right_end:])
    if in_left and not in_right:
        start = min(i.start() for i in in_left)
        if len(left[:start].split()) < 1:
            return ""
        return clean_content(content[:start] + content[m.end():])
    return ""


def cue_sentences(message: str) -> list[str]:
    """The sentences of ``cue_statements``."""
    return [s for s, _ in cue_statements(message)]


def _shares_value(clause: str, old: str) -> bool:
    return any(len(t) >= 2 for t in salient_tokens(clause) & salient_tokens(old))


def _value_clauses(text: str) -> list[str]:
    """``text``'s clauses as a value is read: split at clause marks and before "so"/"所以"."""
    return [q.strip() for p in _CLAUSE.findall(text) for q in _split_therefore(p) if q.strip()]


def without_requests(value: str) -> str:
    """``value`` without its clauses that ask the assistant for something ("今天的工作总结帮我列一下", the
    next message of a burst glued to a new value); the value itself when every clause asks. Applied after
    the update is decided, so what is decided never depends on it."""
    parts = _value_clauses(value)
    kept = [p for p in parts if not REQUEST.search(p)]
    if not kept or len(kept) == len(parts):
        return value
    return clean_content(("，" if has_cjk(value) else ", ").join(kept))


def new_part(statement: str, old: str, implicit: bool = False, correction: bool = False) -> str:
    """The clauses of an update ``statement`` about the new value: those with a change cue that do not
    tell the old value's end (nor name it, when another cue clause does not), each with a short clause
    completing it; else those that neither tell its end nor name a word of the ``old``
    memory; else all. A clause of cue words alone ("你记错了") is no value. ``implicit``: the change is
    only implied (a weak cue: "the commute from astoria is way better, been at the new apartment a month
    now"): the new value is in the clauses without a cue too, so all clauses but the old value's.
    ``correction``: the new value names the slot's words ("portland MAINE, not oregon"): all clauses but
    the wrong value's."""
    text = without_past(statement)
    parts = _value_clauses(text)
    if len(parts) < 2:
        return clean_content(text)
    kept = []
    if correction:
        kept = [p for p in parts if not _STOP.search(p) and not bare_cue(p)]
        if kept:
            return clean_content(("，" if has_cjk(text) else ", ").join(kept))
    if implicit:
        kept = [p for p in parts if not _STOP.search(p) and not _shares_value(p, old) and not bare_cue(p)]
        if kept:
            return clean_content(("，" if has_cjk(text) else ", ").join(kept))
    for i, p in enumerate(parts):
        if UPDATE_CUE.search(p) and not _STOP.search(p) and not (
                _shares_value(p, old) and not _number_changed(old, p)
                and any(UPDATE_CUE.search(q) and not _shares_value(q, old) and not _STOP.search(q)
                        for q in parts)):
            kept.append(p)  # a cue clause naming the old value ("芝麻后来送去我妈那儿了") gives way to
            # one that does not, unless it states a new number ("bump the budget to $250")
            if bare_cue(p) and _POSTFIX_CUE.search(p) and i > 0 and not _STOP.search(parts[i - 1]):
                kept.insert(len(kept) - 1, parts[i - 1])  # "目标变成 save 5万，就行": the value is before
                continue
            nxt = parts[i + 1] if i + 1 < len(parts) else ""
            short = SHORT_TAIL if has_cjk(nxt) or not _APPOSITIVE.search(nxt) else SHORT_TAIL_LATIN
            if nxt and not _STOP.search(nxt) and (
                    _no_value(p) or (len(nxt) <= short and not _shares_value(nxt, old))):
                kept.append(nxt)  # "From now on, keep answers short": the cue alone says nothing;
                # "现在家里这只是新领养的橘猫，叫年糕": a short clause completes the new value
    kept = [p for p in dict.fromkeys(kept) if not _no_value(p)]  # "是女儿啊，你记错了": no value
    if not kept:
        kept = [p for p in parts if not _STOP.search(p) and not _shares_value(p, old) and not bare_cue(p)]
    if not kept:
        kept = [p for p in parts if not _STOP.search(p)] or parts
        kept = [p for p in kept if not bare_cue(p)] or kept
    return clean_content(("，" if has_cjk(text) else ", ").join(kept))


# the small words a disposal clause ends on ("traded it in", "gave it away"): with a pronoun and the cue
# they name nothing
_PARTICLE = re.compile(r"\b(?:in|on|up|away|off|out|over|back|down)\b", re.IGNORECASE)


def _no_value(clause: str) -> bool:
    """``clause`` is cue words, fillers and a pronoun's particle only ("traded it in", "sold it off"): it
    names no value, old or new; the clause after it tells the new one ("traded it in, got an X")."""
    return bare_cue(clause) or bare_cue(_PARTICLE.sub(" ", clause))


# a cue that closes the clause telling the new value ("5万就行", "三个就够了"): alone as a clause, it
# completes the clause before it, not the one after
_POSTFIX_CUE = re.compile(r"^\s*(?:就行|就够了|就好|即可)")


# a clause telling why, then the new value: "the ferry route got cut so i bike over the bridge now"
_THEREFORE = re.compile(r"\s+so\s+((?:i|i'm|im|we|now)\b)|所以()|于是()", re.IGNORECASE)


def _split_therefore(clause: str) -> list[str]:
    """``clause`` cut before the new value a "so" / "所以" introduces."""
    out, start = [], 0
    for m in _THEREFORE.finditer(clause):
        out.append(clause[start:m.start()])
        start = m.start(1) if m.group(1) else m.end()
    return [*out, clause[start:]]


def clauses_of(content: str) -> list[str]:
    """A memory's clauses ("i'm a nurse, and i make about 85k" -> two)."""
    return [p.strip() for p in _CLAUSE.findall(_AND.sub(", i", content)) if len(p.strip()) >= 2]


class UpdateJudge:
    """Applies the pair model to one message's candidates against the user's live memories."""

    def __init__(self, classifier: MemoryClassifier, model: PairModel,
                 intent: RetractionIntent | None = None, withdrawal: RetractionIntent | None = None) -> None:
        """``intent``: the update-intent model (``core.extraction.update_intent``); with it a sentence
        without a change word that it reads as a change (p >= ``UPDATE_INTENT_P``) is judged too, as if
        it carried a strong change cue, for the most similar memory only, never a list or an addition.
        ``withdrawal``: the retraction-intent model (``core.extraction.retraction_intent``); a sentence it
        reads as a withdrawal (p >= its ``INTENT_P``) is never gated ("leave the X out of your notes")."""
        self.classifier = classifier
        self.model = model
        self.intent = intent
        self.withdrawal = withdrawal

    def gated(self, message: str) -> frozenset[str]:
        """The message's sentences without a change word that the update-intent model reads as a change
        (no question, no addition: "also into X", "我也在学Y")."""
        if self.intent is None or _retracts(message):
            return frozenset()  # a message withdrawing something: its other sentences tell no new value
        plain = [t for t in _sentences(message) if len(t) >= 3 and not has_cue(t)
                 and not _ADDITIVE.search(t) and not _QUESTION.search(t)]
        if not plain:
            return frozenset()
        vectors = self.classifier.embed(plain)
        p = self.intent.predict_proba(vectors)
        w = self.withdrawal.predict_proba(vectors) if self.withdrawal is not None else np.zeros(len(plain))
        return frozenset(t for t, q, r in zip(plain, p, w, strict=True)
                         if q >= UPDATE_INTENT_P and r < WITHDRAWAL_P)

    def apply(self, message: str, existing: tuple[ExistingMemory, ...],
              candidates: list[MemoryCandidate], previous: str | None = None) -> list[MemoryCandidate]:
        """``candidates`` with the pair model's retractions and supersessions; ``previous``: the user's
        previous turn, the referent of a bare "forget that" / "当我没说"."""
        live = [m for m in existing if m.content.strip()][-MAX_EXISTING:]
        gated = self.gated(message) if live else frozenset()
        statements = cue_statements(message, gated) if live else []
        if not statements:
            return candidates
        sentences = [s for s, _ in statements]
        # "forget that" reaches back to the previous turn only when the rules found nothing this message
        # withdraws ("I don't watch horror movies anymore, forget that" names its own thing)
        rules_deleted = any(c.op is CandidateOp.DELETE for c in candidates)
        anaphoric = (previous is not None and not rules_deleted
                     and any(_is_anaphoric(s) for s in sentences))
        topics = [retraction_topic(s) for s in sentences]
        befores = cue_context(message, gated)
        texts = [*sentences, *topics, *(m.content for m in live)]
        if anaphoric and previous:
            texts.append(previous)
        vectors = self.classifier.embed(texts)
        n = len(sentences)
        s_vec, t_vec, m_vec = vectors[:n], vectors[n:2 * n], vectors[2 * n:2 * n + len(live)]
        out = list(candidates)
        written = {c.key for c in out if c.op is not CandidateOp.DELETE}
        deleted = {c.key for c in out if c.op is CandidateOp.DELETE}
        done: set[str] = set()
        for i, (sentence, tail) in enumerate(statements):
            sims = m_vec @ s_vec[i]
            order = [int(j) for j in np.argsort(-sims, kind="stable")[:MAX_PAIRS]
                     if sims[j] >= _min_cosine(sentence, live[int(j)].content)]
            anaphor = anaphoric and _is_anaphoric(sentence)
            if anaphor and previous:
                # "forget that": the memory the previous turn stated is the referent
                ref = m_vec @ vectors[-1]
                j = int(np.argmax(ref))
                if ref[j] >= MIN_COSINE and overlap(live[j].content, previous) >= ANAPHOR_OVERLAP:
                    if _other_part(sentence, topics[i], previous, live[j].content):
                        anaphor = False  # "don't keep my address, delete that bit": the address, not the job
                    else:
                        order = [j] + [k for k in order if k != j]
            order = [j for j in order if live[j].key not in done]
            if not order:
                continue
            feats = self.model.features(m_vec[order], np.repeat(s_vec[i:i + 1], len(order), axis=0),
                                        [live[j].content for j in order], [sentence] * len(order),
                                        np.repeat(t_vec[i:i + 1], len(order), axis=0),
                                        self.classifier.embed)
            probs = self.model.predict_proba(feats)
            retract = probs[:, RELATIONS.index("retract")]
            if anaphor:  # "forget that": its topic may be the previous turn, whichever the model finds surer
                feats = self.model.features(m_vec[order], np.repeat(s_vec[i:i + 1], len(order), axis=0),
                                            [live[j].content for j in order], [sentence] * len(order),
                                            np.repeat(vectors[-1:], len(order), axis=0),
                                            self.classifier.embed)
                retract = np.maximum(retract, self.model.predict_proba(feats)[:, RELATIONS.index("retract")])
            if _retracts(sentence) and not _tells_new_value(sentence):
                # what the retraction sentence itself produced ("depression 那句 remove 掉吧" merged into
                # the memory) writes nothing of its own
                echoed = {c.key for c in out if c.op is CandidateOp.UPSERT and _from(c, sentence)
                          and RETRACT_CUE.search(c.content)
                          and not any(c.content.startswith(m.content) for m in live if m.key == c.key)}
                for rank, j in enumerate(order):
                    memory = live[j]
                    named = bool(shares_value(memory.content, topics[i]))
                    sure = bool(retract[rank] >= RETRACT_P
                                or (named and topics[i] != sentence and retract[rank] >= NAMED_RETRACT_P)
                                or (anaphor and rank == 0 and retract[rank] >= ANAPHOR_P))
                    if (memory.key in written and memory.key not in echoed) or memory.key in done or (
                            rank > 0 and not (sure and named)):
                        continue  # a second memory goes only when the sentence names a word of it
                    if memory.key in deleted:
                        # a delete the rules made stands (the whole thing withdrawn), unless the sentence
                        # names one part of the memory and the rest is a memory alone
                        if anaphor or topics[i] == sentence or not (
                                _PART_CUE.search(sentence) or _keeps_some(sentence)
                                or drop_conjunct(memory.content, topics[i])):
                            continue
                        part = self._retraction(memory, sentence, s_vec[i], t_vec[i], float(retract[rank]),
                                                True, topic=topics[i])
                        if part is None or part.op is CandidateOp.DELETE:
                            continue
                        out = [c for c in out if c.key != memory.key]
                        out.insert(0, part)
                        done.add(memory.key)
                        continue
                    cand = self._retraction(memory, sentence, s_vec[i], t_vec[i], float(retract[rank]), sure,
                                            whole=anaphor and topics[i] == sentence, topic=topics[i])
                    if cand is None:
                        continue
                    # neither the memory's own candidates nor what the retraction sentence itself produced
                    # ("ignore what i said about X" typed as a rule) stay
                    out = [c for c in out if c.key != memory.key and not (
                        c.op is CandidateOp.UPSERT and _from(c, sentence) and RETRACT_CUE.search(c.content))]
                    out.insert(0, cand)
                    deleted.add(memory.key)
                    done.add(memory.key)
                continue
            intent = not has_cue(sentence)  # judged on the update-intent model's word alone
            best = int(np.argmax(probs.max(axis=1) * (probs.argmax(axis=1) > 0)))
            relation = RELATIONS[int(probs[best].argmax())]
            p = float(probs[best].max())
            memory = live[order[best]]
            if intent and memory.memory_type == MemoryType.GOAL.value:
                continue  # a goal changes with a word of change; without one, news of it is progress
            if (_CORRECTION.search(sentence) or intent) and best == 0 and relation in ("supersede", "refine"):
                # a correction ("portland MAINE, not oregon"): the model, never trained on corrections,
                # splits it between supersede and refine; together they are the change
                relation = "supersede"
                p = float(probs[best, RELATIONS.index("supersede")] + probs[best, RELATIONS.index("refine")])
            elif best == 0 and relation == "supersede" and not _retracts(sentence) \
                    and STRONG_CUE.search(sentence) and _tells_new_value(sentence):
                # the old value's end and a new value in one sentence without a retraction word ("X学不
                # 下去了，现在改学Y"): the model, surest of a supersede, gives the rest to retract; both say
                # the old value no longer holds, and the sentence tells what holds instead (not when retract
                # is the surer reading: "汇率用个 rough estimate 就行" refines a rule, read retract 0.84)
                relation = "supersede"
                p = float(probs[best, RELATIONS.index("supersede")] + probs[best, RELATIONS.index("retract")])
            if relation == "retract" and p >= RETRACT_P and _retracts(sentence):
                if memory.key in written or memory.key in deleted:
                    continue
                cand = self._retraction(memory, sentence, s_vec[i], t_vec[i], p, True)
                if cand is not None:
                    out.insert(0, cand)
                    deleted.add(memory.key)
                    done.add(memory.key)
            elif (relation == "supersede" and memory.key not in done and not _ADDITIVE.search(sentence)
                  and not (_a_list(memory) and not STRONG_CUE.search(sentence))
                  and (p >= SUPERSEDE_P or (p >= CUED_SUPERSEDE_P and best == 0
                                            and STRONG_CUE.search(sentence)))):
                # a bare delete the rules made for this memory gives way to the new value, when one is told
                kept = [c for c in out if c.key != memory.key or c.op is not CandidateOp.DELETE]
                replaced = self._supersede(kept, sentence, tail, memory, p, befores[i], intent)
                if replaced is not None:
                    # the sentence only telling the old value's end ("the trip fell through so i ditched
                    # french") is no memory of its own once the new value replaces the old
                    out = [c for c in replaced if not (
                        c.op is CandidateOp.UPSERT and c.supersedes is None and _from(c, sentence)
                        and all(_STOP.search(x) for x in _CLAUSE.findall(c.content) if x.strip()))]
                    written.add(memory.key)
                    done.add(memory.key)
                    for rank, j in enumerate(order):  # another memory stating the old value the sentence
                        other = live[j]  # names ("从深圳搬去厦门了": "现在在深圳工作" beside "常住深圳")
                        sup = float(probs[rank, RELATIONS.index("supersede")])
                        if rank == best or sup < SUPERSEDE_P or other.key in written | done | deleted \
                                or not _old_value(sentence, memory.content, other.content):
                            continue
                        out.insert(0, MemoryCandidate(
                            op=CandidateOp.DELETE, memory_type=_type(other), key=other.key,
                            content=other.content[:MAX_MEMORY_CONTENT_CHARS], importance=3,
                            confidence=round(sup, 3), supersedes=other.key))
                        deleted.add(other.key)
                        done.add(other.key)
        return out

    def _retraction(self, memory: ExistingMemory, sentence: str, s_vec: npt.NDArray[np.float32],
                    t_vec: npt.NDArray[np.float32], p: float, sure: bool,
                    whole: bool = False, topic: str = "") -> MemoryCandidate | None:
        """A ``delete`` of ``memory`` (when ``sure``), or an upsert of the clauses the sentence does not
        retract (when some clause is retracted with p >= ``PART_P``, or ``RETRACT_P`` when not ``sure``);
        None when nothing is retracted. ``whole``: a bare "forget that" (no topic of its own) takes the
        whole memory."""
        parts = [] if whole else clauses_of(memory.content)
        kept: list[str] = []
        if len(parts) >= 2:
            c_vec = self.classifier.embed(parts)
            feats = self.model.features(c_vec, np.repeat(s_vec[None, :], len(parts), axis=0), parts,
                                        [sentence] * len(parts),
                                        np.repeat(t_vec[None, :], len(parts), axis=0),
                                        self.classifier.embed)
            retract = self.model.predict_proba(feats)[:, RELATIONS.index("retract")]
            gone = (retract >= (PART_P if sure else RETRACT_P)) & (retract >= retract.max() - PART_MARGIN)
            if gone.any() and not gone.all():
                kept = [c for c, g in zip(parts, gone, strict=True) if not g]
            elif not sure and gone.all():
                sure = True
            if len(kept) == 1 and topic and topic != sentence and not whole:
                kept = [drop_conjunct(kept[0], topic) or kept[0]]
        elif topic and topic != sentence and not whole:
            rest = drop_conjunct(memory.content, topic)  # "i love horror movies and true crime podcasts"
            kept = [rest] if rest else []
        if kept:
            if memory.content.startswith("我") and not kept[0].startswith(("我", "I ", "i ")):
                kept[0] = f"我{kept[0]}"  # the subject the cut clause carried ("我工资..., 在 Shopee 做...")
            content = ("，" if has_cjk(memory.content) else ", ").join(kept)[:MAX_MEMORY_CONTENT_CHARS]
            if self.classifier.predict([content])[0].p_keep >= REST_KEEP:
                return MemoryCandidate(op=CandidateOp.UPSERT, memory_type=_type(memory), key=memory.key,
                                       content=content, importance=3, confidence=round(max(p, 0.8), 3),
                                       supersedes=memory.key)
            sure = True  # the rest is no memory alone ("一次能干掉半个"): all of it goes
        if not sure:
            return None
        return MemoryCandidate(op=CandidateOp.DELETE, memory_type=_type(memory), key=memory.key,
                               content=memory.content[:MAX_MEMORY_CONTENT_CHARS], importance=3,
                               confidence=round(max(p, 0.8), 3), supersedes=memory.key)

    def _of_type(self, content: str, memory: ExistingMemory) -> bool:
        """The memory classifier sees ``content`` as a memory of ``memory``'s type."""
        seen = self.classifier.predict([content])[0]
        mine = seen.p_type(_type(memory))
        return seen.p_keep >= WEAK_TYPE_P and (
            mine >= WEAK_TYPE_P or all(mine >= seen.p_type(t) for t in MemoryType))  # ... or its likeliest

    def _supersede(self, out: list[MemoryCandidate], sentence: str, tail: str, memory: ExistingMemory,
                   p: float, before: str = "", intent: bool = False) -> list[MemoryCandidate] | None:
        """``out`` with the candidate that replaces ``memory`` naming it (see the module doc), or None
        when nothing replaces it. ``intent``: the sentence has no change word, the update-intent model
        reads it as a change: that stands for a strong change cue (a fragment told against the old value,
        "入了个X", is no memory alone for the classifier, so its type is not asked)."""
        out = list(out)
        for k, c in enumerate(out):
            if c.op is CandidateOp.UPSERT and c.key == memory.key:
                # refine merged the new statement into the old memory: the new statement alone replaces it
                content = c.content
                if content.startswith(memory.content) and len(content) > len(memory.content):
                    content = content[len(memory.content):].lstrip("；; ,，")
                if not (intent or _strong(tail, p, memory.content, before)) or (
                        _weak(tail, before, memory.content) and not intent
                        and not self._of_type(new_part(content, memory.content), memory)):
                    return None  # a detail of the same thing ("一般就小区里溜两圈"): the merge stands
                # the tail keeps the sentences apart where the merge glued them ("...for me 😭 been
                # getting into pickleball tho"): its new part, when the merge came from it
                # without a cue word no clause marks the new value: the statement is kept whole
                mine = content if intent else new_part(content, memory.content) or content
                rule = memory.memory_type == MemoryType.CONSTRAINT.value
                theirs = new_part(tail, memory.content) \
                    if overlap(content, tail) >= 0.5 and not intent else ""
                told_there = bool(theirs and _changes(theirs) and not UPDATE_CUE.search(mine))
                content = theirs if told_there or (theirs and mine in theirs) else mine  # ... or more of it
                content = content if rule else without_requests(content)
                out[k] = c.model_copy(update={"content": content, "supersedes": memory.key,
                                              "key": _fresh_key(memory, content),
                                              "confidence": max(c.confidence, round(p, 3))})
                return out
        told = False  # the sentence produced a candidate that tells a change (of this slot or not)
        taken: list[int] = []  # ... under another slot or type, which a sure supersede takes over
        retire: list[int] = []  # ... or which keeps its own slot and retires the old memory
        for k, c in enumerate(out):
            if c.op is not CandidateOp.UPSERT or not _from(c, sentence):
                continue
            if not (intent or UPDATE_CUE.search(c.content)):
                continue  # a side fact of the sentence ("膝盖不行"), not the new value
            told = True
            if is_event_key(c.key):
                if p >= CROSS_P and (intent or _tells_new_value(c.content)):
                    taken.append(k)  # "band broke up, i'm teaching myself drums now": the new value,
                    # told as the day's news
                continue  # else a dated life event replaces nothing
            named = is_known_slot(c.key) and is_known_slot(memory.key)
            other = c.memory_type is not _type(memory) or (c.key != memory.key and named)
            if c.supersedes is not None or other:
                two_slots = (named and c.memory_type is _type(memory)  # e.g. a length rule, a diet rule
                             and not shares_value(memory.content, topic_text(sentence)))  # ... unless the
                # sentence names the memory's own words ("bump the grocery budget to $120")
                if p >= CROSS_P and c.supersedes in (None, memory.key) and (intent or _changes(c.content)) \
                        and not two_slots:
                    taken.append(k)  # sure: the slot the rules guessed for the new value gives way
                elif p >= CROSS_P and c.supersedes is None and not two_slots \
                        and (intent or _tells_new_value(c.content)) \
                        and {c.memory_type, _type(memory)} <= _STATES:
                    retire.append(k)  # the new value keeps the slot and type it was read as ("现在开车上班"
                    # typed a fact beside a commute stored as a preference); the old memory retires. Across
                    # slots only as sure as a take-over (CROSS_P): at 0.87 "跟了一位新的瑜伽教练" retired a
                    # hobby list and "最近一直在考虑工作上的问题" the user's temperament (MemoryBank cn)
                continue  # else two named slots never replace each other
            content = c.content if intent else new_part(c.content, memory.content) or c.content
            key = _fresh_key(memory, content) if c.key == memory.key else c.key
            out[k] = c.model_copy(update={"content": content, "supersedes": memory.key, "key": key,
                                          "confidence": max(c.confidence, round(p, 3))})
            return out
        if told and not taken and retire:
            k = retire[0]
            c = out[k]
            out[k] = c.model_copy(update={"content": new_part(c.content, memory.content) or c.content,
                                          "supersedes": memory.key,
                                          "confidence": max(c.confidence, round(p, 3))})
            return out
        if told and not taken:
            return None  # what the sentence tells is stored under its own key: it is not this memory's value
        if (p < STATEMENT_P and not (p >= CUED_SUPERSEDE_P and STRONG_CUE.search(sentence))) \
                or not (intent or UPDATE_CUE.search(sentence)) or _QUESTION.search(sentence):
            return None
        weak = not intent and _weak(tail, before, memory.content)  # the intent model stands for the cue
        corr = bool(_CORRECTION.search(sentence))
        content = sentence if intent else new_part(tail, memory.content, weak, corr)
        content = content[:MAX_MEMORY_CONTENT_CHARS]
        if len(content) < 2 or not (intent or _strong(tail, p, memory.content, before)) or not (
                intent or _tells_new_value(tail) or _CORRECTION.search(sentence)):
            return None  # "现在饿得发慌" tells no change of anything
        if weak and not self._of_type(content, memory):
            return None
        if not taken:
            seen = self.classifier.predict([content])[0]
            p_mine = seen.p_type(_type(memory))
            if seen.p_keep >= STATEMENT_KEEP and p_mine < OTHER_TYPE_P and any(
                    seen.p_type(t) > p_mine for t in MemoryType):
                return None  # the memory classifier sees a memory of another type: not this slot's value
        out = [c for k, c in enumerate(out) if k not in taken]
        if memory.memory_type != MemoryType.CONSTRAINT.value:
            content = without_requests(content)  # after every check: what is decided never depends on it
        out.append(MemoryCandidate(op=CandidateOp.UPSERT, memory_type=_type(memory),
                                   key=_fresh_key(memory, content), content=content, importance=3,
                                   confidence=round(max(p, SUPERSEDE_P), 3), supersedes=memory.key))
        return out


# the types a new value read under another slot may move between ("现在开车上班" typed a fact, the commute
# stored as a preference); a goal is no new value of a fact ("存款要攒到10万，现在才4万出头" beside a job,
# "准备转行做心理咨询师" beside two children)
_STATES = frozenset({MemoryType.FACT, MemoryType.PREFERENCE})


def _fresh_key(memory: ExistingMemory, content: str) -> str:
    """The key the new value of ``memory``'s slot is written under: the memory's own, unless that key is
    a slug of the old value's words (no named slot) of which the new value holds none
    ("constraint-xie_dong_xi_yong_notion" for "最近 all in Obsidian 了"): then a slug of the new value
    (the upsert retires the old key through ``supersedes``)."""
    if is_known_slot(memory.key) or "-" not in memory.key:
        return memory.key
    prefix, slug = memory.key.split("-", 1)
    old_words = set(content_slug(memory.content).split("_"))
    new_words = set(content_slug(content).split("_"))
    named = {w for w in slug.split("_") if len(w) >= 3 and w in old_words}
    if not named or named & new_words:
        return memory.key
    return f"{prefix}-{content_slug(content)}"


def _old_value(sentence: str, old: str, other: str) -> bool:
    """The sentence names, in a clause about the old value's end or where it moved from, a word that both
    the superseded memory and ``other`` hold."""
    words = salient_tokens(old) & salient_tokens(other)
    clauses = [c for c in _CLAUSE.findall(sentence) if _STOP.search(c) or _FROM.search(c)]
    return any(len(w) >= 2 and w in salient_tokens(c) for c in clauses for w in words)


_FROM = re.compile(r"从|\bfrom\b|\bleft\b|\bout of\b", re.IGNORECASE)


# a correction of what was said or understood: "X, not Y", "typo", "i meant", "记错了", "是A不是B"
_CORRECTION = re.compile(
    r"[,，]\s*not\s+\w+|\b(?:typo|i meant|meant to say)\b|记错|说错|打错|搞错|是\S{1,8}不是", re.IGNORECASE)


# "don't forget I'm allergic to peanuts", "别忘了": a reminder, not a retraction
_REMIND = re.compile(r"\b(?:don'?t|do not|never) forget\b|别忘|不要忘|记得", re.IGNORECASE)


def _a_list(memory: ExistingMemory) -> bool:
    """A memory that lists items of one kind (a hobby or skill list, "徒步、长跑、打篮球和攀岩", "painting,
    playing piano and tea tasting"): one more item told, or one of them told again ("最近我还在学习攀岩",
    "最近我在玩一个棋牌类游戏"), is no new value of it; only a strong change cue replaces the list."""
    if memory.key.split("-", 1)[-1] in LIST_SLOTS:
        return True
    if memory.memory_type != MemoryType.PREFERENCE.value:  # "a paralegal at a firm, it's fine, pays rent"
        return False
    return memory.content.count("、") >= 2 or bool(_EN_LIST.search(memory.content))


_EN_LIST = re.compile(r"\w+, [\w' ]+,? and \w+")  # "jazz, soul, and old funk records"


def _retracts(sentence: str) -> bool:
    """A retraction cue outside a reminder ("don't forget ...")."""
    return bool(RETRACT_CUE.search(_REMIND.sub(" ", sentence)))


def _weak(tail: str, before: str, old: str = "") -> bool:
    """Only a weak change cue tells the change (``_strong`` passed on ``SURE_P``); a count the ``old``
    memory states told with another value is no weak cue ("under 100 words" -> "you can go up to 250
    words now": an instruction's value changed)."""
    return not (STRONG_CUE.search(tail) or (before and STRONG_CUE.search(before)) or _changes(tail)
                or (old and _number_changed(old, tail)))


def _keeps_some(sentence: str) -> bool:
    """A clause of the retraction says what to keep ("..., just the kids", "只留工作那部分")."""
    return any(not RETRACT_CUE.search(c) and _KEEP.search(c) for c in _CLAUSE.findall(sentence))


_KEEP = re.compile(r"\b(?:just|only|but keep|keep the)\b|只留|保留|只记", re.IGNORECASE)


def _strong(tail: str, p: float, old: str = "", before: str = "") -> bool:
    """The text tells a new value: a strong change cue (in it or in the sentence ``before`` it: "no more
    hoops for me. swimming now"), or a supersede of ``STRONG_P`` or more with a change cue other than a
    bare "now" / "现在" / "已经" ("现在已经有三个站在试用了" is progress) or a changed number ("keep it to
    two next time"), or of ``SURE_P`` or more with any change cue."""
    if STRONG_CUE.search(tail) or (before and STRONG_CUE.search(before)):
        return True
    if p >= SURE_P and UPDATE_CUE.search(tail):
        return True
    return p >= STRONG_P and (_changes(tail) or _number_changed(old, tail))


def _changes(text: str) -> bool:
    """A change cue other than the weak ones."""
    return bool(STRONG_CUE.search(text) or UPDATE_CUE.search(_WEAK_CUE.sub(" ", text)))


def _number_changed(old: str, new: str) -> bool:
    """Both state a count in digits or English words and the new one another ("5 options" -> "two";
    not "一个小程序" -> "三个站": Chinese numerals count things more often than they set a value)."""
    a = {m.lower() for m in _COUNT.findall(old)}
    b = {m.lower() for m in _COUNT.findall(new)}
    return bool(a and b and b - a)


def _min_cosine(a: str, b: str) -> float:
    return MIN_COSINE if has_cjk(a) == has_cjk(b) else CROSS_SCRIPT_COSINE


def _from(c: MemoryCandidate, sentence: str) -> bool:
    return c.content in sentence or sentence in c.content or overlap(c.content, sentence) >= 0.5


def _other_part(sentence: str, topic: str, previous: str, memory: str) -> bool:
    """The retraction names a part of the previous turn that ``memory`` does not hold ("my address is
    ..., and i'm a teacher" / "don't keep my address, delete that bit"): its "that" is that part."""
    return topic != sentence and bool(shares_value(previous, topic)) and not shares_value(memory, topic)


def _is_anaphoric(sentence: str) -> bool:
    return bool(RETRACT_CUE.search(sentence) and _ANAPHOR.search(sentence))


def _type(memory: ExistingMemory) -> MemoryType:
    try:
        return MemoryType(memory.memory_type)
    except ValueError:
        return MemoryType.FACT
