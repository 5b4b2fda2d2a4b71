"""The update judge's reading of words: which sentences of a message it judges, and what change or
retraction cue a text carries.

Contract: ``cue_statements(message, gated)`` is the ``(sentence, tail)`` pairs the judge reads, in order
(at most ``MAX_STATEMENTS``: a sentence with an update or retraction cue, ``core.extraction.pairs.has_cue``,
or one the update-intent model read as a change, ``gated``); ``cue_context`` the sentence before each. The
predicates read one text and no model: ``STRONG_CUE`` (a change cue that by itself tells a new value),
``changes`` (a change cue other than the weak ones), ``tells_new_value`` (a clause tells a new value, not
only the old value's end, ``STOP``), ``number_changed``, ``retracts`` (a retraction cue outside a reminder),
``is_anaphoric`` (a retraction pointing back: "forget that"), ``CORRECTION``, ``ADDITIVE``, ``QUESTION``, and
``from_sentence`` (a candidate's content is the sentence's).
Invariants: pure functions of their text (regexes in linear time, ``core.text.regex``); a sentence of fewer
than 3 characters is never judged; a cue sentence shorter than ``SHORT_SENTENCE`` is read with the one
after it.
"""

from __future__ import annotations

from core.extraction.candidates import MemoryCandidate
from core.extraction.pairs import NEGATION, RETRACT_CUE, UPDATE_CUE, WEAK_CUE, has_cue, overlap
from core.extraction.rules.segment import clean_content, has_cjk
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re
from core.text.salient import salient_tokens

_QUESTION_END = re.compile(r"[?？]\s*$|吗\s*$")

MAX_STATEMENTS = 4
SHORT_SENTENCE = 8  # characters: a cue sentence this short is read with the sentence after it
_SENTENCE = re.compile(r"[^。！？!?.;；\n]+[。！？!?.;；]?")
# an emoji ends a sentence in chat ("the kanji broke me 💀 picked up korean instead")
_EMOJI = re.compile("[\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF]+")
CLAUSE = re.compile(r"[^,，;；。!！?？]+")
# a clause that tells the old value's end or disposal, not the new value
STOP = re.compile(r"辞职|不再|不.{0,6}了|放一放|放弃|戒了|卖了|出二手|送人|别记|删|"
                  r"\b(?:quit|left|ditched|sold|gave up|scratch|dropping|no more|not .{1,24} anymore|"
                  r"anymore|can wait|on hold|broke me|is out|'s out|rip|passed away|so over|over it|"
                  r"fell through|cancell?ed|is off|called off|no need to|don'?t have to)\b|去世|卸载|早就不|"
                  r"不用再|不必再|无需再|离职|辞呈|裸辞|"
                  r"\b(?:resigned|handed in (?:my )?notice|put in (?:my )?(?:two weeks|notice)|laid off)\b|"
                  # a correction's wrong value: "portland maine, not oregon", "是女儿不是儿子"
                  r"^\s*(?:and |but )?not\s+[\w' -]{1,24}[.!~]*\s*$|^\s*不是\S{1,8}$", re.IGNORECASE)
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
# change cues that alone tell no change ("现在饿得发慌", "now 3 stations use it"): ``pairs.WEAK_CUE``
_WEAK_CUE = WEAK_CUE
_COUNT = re.compile(r"\d+|\b(?:one|two|three|four|five|six|seven|eight|nine|ten)\b", re.IGNORECASE)
QUESTION = re.compile(r"[?？]\s*$|吗\s*$")
# an addition to what is there, not a replacement: "into origami as well", "我也开始练书法了"
ADDITIVE = re.compile(
    r"\b(?:as well|also|besides|in addition|on top of)\b|\btoo\s*[.!~]*\s*$|(?:^|[^再])也|另外还|还有",
    re.IGNORECASE)  # "再也不用等车了" (never again) adds nothing (session 30, upd49)
# a correction of what was said or understood: "X, not Y", "typo", "i meant", "记错了", "是A不是B"
CORRECTION = re.compile(
    r"[,，]\s*not\s+\w+|\b(?:typo|i meant|meant to say)\b|记错|说错|打错|搞错|是\S{1,8}不是", re.IGNORECASE)
# "don't forget I'm allergic to peanuts", "别忘了": a reminder, not a retraction
_REMIND = re.compile(r"\b(?:don'?t|do not|never) forget\b|别忘|不要忘|记得", re.IGNORECASE)
# a retraction without a topic of its own: "forget that", "erase it", "当我没说", "那条删了"
_ANAPHOR = re.compile(r"\b(?:that|it|this)\b|那条|这条|刚才|上面", re.IGNORECASE)


def sentences(message: str) -> list[str]:
    """The message's sentences, cleaned (an emoji ends one)."""
    message = _EMOJI.sub(". ", message)
    return [t for t in (clean_content(m.group(0)) for m in _SENTENCE.finditer(message)) if t]


def cue_statements(message: str, gated: frozenset[str] = frozenset()) -> list[tuple[str, str]]:
    """``(sentence, tail)`` for the message's sentences with an update or retraction cue, in order (at
    most ``MAX_STATEMENTS``): a cue sentence shorter than ``SHORT_SENTENCE`` characters is joined with
    the one after it; ``tail`` is the sentence and the two after it (where a new value is often told:
    "not doing badminton anymore. swimming laps instead now"). ``gated``: sentences without a cue word
    the update-intent model reads as a change (``core.extraction.update_intent``), judged as well."""
    parts = sentences(message)
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
    parts = sentences(message)
    out = []
    for i, text in enumerate(parts):
        if len(text) >= 3 and (has_cue(text) or text in gated):
            out.append(parts[i - 1] if i > 0 else "")
    return out[:MAX_STATEMENTS]


def cue_sentences(message: str) -> list[str]:
    """The sentences of ``cue_statements``."""
    return [s for s, _ in cue_statements(message)]


def changes(text: str) -> bool:
    """A change cue other than the weak ones."""
    return bool(STRONG_CUE.search(text) or UPDATE_CUE.search(_WEAK_CUE.sub(" ", text)))


def tells_new_value(sentence: str) -> bool:
    """A clause of ``sentence`` tells a new value: an update cue, no retraction cue, and not only the old
    value's end ("I don't play tennis anymore, forget that" retracts; "scratch X, switching to Y" does
    not)."""
    return any(UPDATE_CUE.search(c) and not RETRACT_CUE.search(c) and not STOP.search(c)
               and (changes(c) or not NEGATION.search(c))  # "我不想让它出现在任何地方" tells nothing new
               for c in CLAUSE.findall(sentence))


def number_changed(old: str, new: str) -> bool:
    """Both state a count in digits or English words and the new one another ("5 options" -> "two";
    not "一个小程序" -> "三个站": Chinese numerals count things more often than they set a value)."""
    a = {m.lower() for m in _COUNT.findall(old)}
    b = {m.lower() for m in _COUNT.findall(new)}
    return bool(a and b and b - a)


def without_reminders(sentence: str) -> str:
    """``sentence`` with its reminders ("don't forget …", "别忘了") blanked: no retraction cue inside them."""
    return _REMIND.sub(" ", sentence)


def retracts(sentence: str) -> bool:
    """A retraction cue outside a reminder ("don't forget ...")."""
    return bool(RETRACT_CUE.search(without_reminders(sentence)))


def is_anaphoric(sentence: str) -> bool:
    """A retraction that points back ("forget that", "那条删了") rather than naming its own topic alone."""
    return bool(RETRACT_CUE.search(sentence) and _ANAPHOR.search(sentence))


def own_referent(before: str) -> bool:
    """The sentence before a retraction in the same message states something of its own, so a bare "forget
    it" after it points there, not at the previous turn ("ugh I forgot my keys at the office. forget it,
    it's fine, ..."): two salient words or more, no cue, no question."""
    return (bool(before) and not has_cue(before) and not _QUESTION_END.search(before)
            and len({t for t in salient_tokens(before) if len(t) >= 2}) >= 2)


def from_sentence(c: MemoryCandidate, sentence: str) -> bool:
    """``c``'s content is the sentence's (one holds the other, or half their words are shared)."""
    return c.content in sentence or sentence in c.content or overlap(c.content, sentence) >= 0.5
