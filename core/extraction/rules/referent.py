"""A memory never loses its referent (issue 24): whether a statement leans on a thing named outside it,
and where that thing is named.

``leans(text)``: the statement's subject, object or possessor is a pronoun or a demonstrative whose
antecedent is not in the statement itself: an object pronoun ("I love riding them", "我超爱骑它们", "I want
to learn from him"), a pronoun subject ("they always ask me to make it", "它们特别可爱"), a demonstrative or
distributive noun phrase ("each book is great", "这种气质", "每本书都很不错", "those things"), a possessive
("I love their music"). An object pronoun or a demonstrative finds its antecedent in an earlier clause of
the statement ("I keep bees, I love them", "我养了一只猫，它很可爱"; "my kids love it" leans), a possessive in
its own clause ("the dog loves its toys"), a noun-like word of either script
("我在做一个drone，想让它…"). It does not lean when the demonstrative names a time ("this year",
"这个周末", "那些年"), when "it" is a dummy, weather or situation subject ("it's hard to find time",
"it depends", "when it's quiet"), when "every X" or a 每-phrase inside a clause quantifies ("a map of
every trail"), or when a Chinese pronoun follows its noun ("我对<X>那个味道").
The words read are closed classes (pronouns, demonstratives, time nouns, interjections, the commonest
verbs and light nouns that name no antecedent): no list of things.

``referent_for(piece, message, previous_user)``: the sentence that names what ``piece`` leans on: the
nearest sentence before it in the same message that has a noun-like word of its own and does not lean
itself, else the user's previous turn when it is short and has one (a question is no referent: it names
nothing the user has), else the thing the user's previous turn asked the assistant about (``asked_thing``:
"do u know much about alpacas?" then "we've got four of them": the user names the thing in a question and
tells what they have of it next; only a question whether the assistant knows, has heard of, or has tried,
had, seen, read, played or been to a named thing, never a request for one, "any pets?" or "what ...");
``None`` when none does (the caller then does not store the fragment: it stays findable as an episode).
Pure functions.
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_left

from core.extraction.rules.segment import has_cjk
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re
from core.text.salient import EN_STOP, ZH_STOP_RX, normalize

REFERENT_MAX_CHARS = 200
READ_MAX_CHARS = 1000  # a statement longer than a memory is read up to the length of one
_OPENER = r"^(?:(?:and|but|so|oh|yeah|yes|also|well|honestly|plus|then)[, ]+)*"
# a pronoun or a demonstrative as the subject that opens the statement
_EN_SUBJECT = re.compile(_OPENER + r"(?:(?:it|they|both(?: of them)?|all of them|"
                         r"he|she)\b|"
                         r"(?:those|these|each) (?P<next>[a-z]+)|(?:this|that)(?:'s| is| was| has| will)\b)")
# "it" as a dummy subject: "it's hard to …", "it depends", "it's been a while", "it feels like …"
_DUMMY_IT = re.compile(_OPENER + r"it(?:'s| is| was| has been| had been|'s been| will be| would be)?"
                       r"(?: (?:really|so|very|quite|pretty|a bit|kind of|not|always|never|just|too))*"
                       r" (?:[a-z]+ )?(?:to|that|when|if|how|whether|for)\b|" + _OPENER +
                       r"it (?:depends|seems|takes|feels like|looks like|turns out|happens)\b|" + _OPENER +
                       r"it(?:'s| is| gets)? (?:rain\w*|snow\w*|cold|hot|freezing|below|above|sunny|"
                       r"windy|dark|late|early|dry|wet|warm|cool|humid|cloudy|foggy|icy)\b|" + _OPENER +
                       r"it(?:'s| is| has) been\b")
# "that"/"this" opening a remark about the conversation ("that's why", "this is my first time") is no thing
_DEICTIC_OPEN = re.compile(_OPENER + r"(?:that|this)(?:'s| is| was) (?:why|because|how|what|when|my first)\b")
# a demonstrative or distributive determiner before a noun that is not a time
_EN_DETERMINER = re.compile(r"\b(?:these|those|this)\s+(?P<noun>[a-z]+)")
_TIME_WORDS = (
    "year years month months week weeks weekend weekends morning mornings evening evenings night nights day "
    "days time times summer winter spring fall autumn season moment point semester term afternoon "
    "afternoons hour hours minute minutes monday tuesday wednesday thursday friday saturday sunday weekday "
    "weekdays"
)
_TIME_NOUN = frozenset(_TIME_WORDS.split())
# after "this"/"each"/…: no noun at all ("this is", "each other", "those ones")
_NO_NOUN = frozenset(["once", "one", "ones", "other", "kind", "sort", "type", "way", "is", "was", "are",
                      "were", "so", "much"])
# an object or possessive pronoun anywhere in the statement
_EN_OBJECT = re.compile(r"\b(?:them|it|him|her|their|its|his|they|he|she)\b")
# the commonest verbs and verb-like words: a word before a pronoun that is no antecedent of it
_VERB_WORDS = (
    "ride play watch read eat cook bake feed walk train miss buy wear visit see call find learn go take "
    "bring pair match share show ask try keep own adore hate prefer enjoy need put listen sing draw paint "
    "fix build collect grow drive help meet follow hear work pick wash sell lose win started start finish "
    "finished kept felt feel look looks loved liked enjoyed tried bought saw found made went took brought "
    # light nouns that frame a thing without naming it ("the way they look", "the best part of it")
    "way part bit kind sort fact idea reason lot"
)
_EN_VERBS = frozenset(_VERB_WORDS.split())
_ZH_ANAPHOR = re.compile(r"它们|它|这个|那个|这些|那些|这种|那种|这样的|那样的|这部|那部|这本|那本|这款|那款|"
                         r"这家|那家|这位|那位|每本|每部|每个|每一个|每一本|每一部|他们|她们|他|她|里面的|其中")
# after a demonstrative: a time or an abstract frame, not a thing
_ZH_TIME_AFTER = re.compile(r"^(?:时候|时|年|月|天|周|星期|礼拜|周末|阶段|时间|季节|世界|社会|样子|方面|"
                            r"问题|人)")
# before a pronoun: characters that make it part of another word (其他, 其它, 吉他, 她们 handled as one)
_ZH_WORD_BEFORE = frozenset("其吉")
# common verbs and adverbs: a run of only these before a pronoun names no antecedent
_ZH_VERBISH = re.compile(r"^[骑玩吃看养学习做用穿买听读写配搭陪遛喂带跟和同与觉得认为"
                         r"真超最更特别挺好蛮都也还就很常经一起每天今明昨平时总]*$")
# a question said without its mark ("what else do you like to do", "你呢")
_QUESTION_OPEN = re.compile(r"^(?:(?:and|so|oh|well)[, ]+)?(?:what|which|who|where|when|why|how|do|does|did|"
                            r"are|is|can|could|would|will|have|has)\b.*\byou\b|你呢|吗$|呢$")
# "it" naming the situation in a condition ("cycling in when it's quiet", "if it's cheap enough")
_SITUATION_IT = re.compile(r"\b(?:when|whenever|if|unless|until|once|while) it$")
# the run of Chinese characters right before a pronoun, after its last function character
_APPOSED = re.compile(r"[\u3400-\u9fff]+$")
_DUMMY_SPAN = 80  # characters after an "it" read for a dummy subject
_SENTENCE_END = re.compile(r"[.!?。！？\n]+")
_EN_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")
# interjections and bare evaluations: words that name nothing ("haha yes", "cool", "so true")
_EN_EMPTY = re.compile(r"^(?:(?:ha)+h?|(?:he)+|lol|lmao|omg|wow|yay|hmm+|ugh|cool|nice|great|awesome|sure|"
                       r"right|true|good|fine|totally|definitely|exactly|absolutely|agreed|glad|happy)$")
# where a clause ends inside a statement: an antecedent named in an earlier clause counts
_CLAUSE_BREAK = re.compile(r"[,，;；:：、.!?。！？()（）—–]|\s-\s|"
                           r"\b(?:and|but|so|because|since|which|while|although)\b")
_CJK_RUN = re.compile(r"[\u3400-\u9fff]+")


def _en_word_names(word: str) -> bool:
    return not (len(word) < 3 or word in EN_STOP or word in _EN_VERBS or "'" in word
                or word.endswith(("ing", "ed", "ly")) or bool(_EN_EMPTY.match(word)))


def _zh_part_names(part: str) -> bool:
    return len(part) >= 2 and not _ZH_VERBISH.match(part)


def _en_noun_end(text: str) -> int:
    """Where the first English word that may name a thing ends in ``text`` (normalised; no function word,
    no common verb, no -ing or -ed form, no interjection), or -1."""
    for m in _EN_WORD.finditer(text):
        if _en_word_names(m.group(0)):
            return m.end()
    return -1


def _zh_noun_end(text: str) -> int:
    """Where the first run of Chinese characters that may name a thing ends (function characters,
    pronouns, common verbs and adverbs cut out), or -1."""
    for run in _CJK_RUN.finditer(text):
        cursor = run.start()
        for stop in ZH_STOP_RX.finditer(run.group(0)):
            if _zh_part_names(text[cursor:run.start() + stop.start()]):
                return run.start() + stop.start()
            cursor = run.start() + stop.end()
        if _zh_part_names(text[cursor:run.end()]):
            return run.end()
    return -1


def nounlike(text: str) -> bool:
    """``text`` names something a pronoun could lean on (English or Chinese)."""
    norm = normalize(text)
    return _en_noun_end(norm) >= 0 or _zh_noun_end(norm) >= 0


class _Read:
    """One statement read once: its clause breaks and where its first noun-like word ends, so each
    pronoun is checked in constant time (a long message with a pronoun at every turn stays linear)."""

    def __init__(self, norm: str) -> None:
        self.norm = norm
        self.breaks = [m.start() for m in _CLAUSE_BREAK.finditer(norm)]
        self.en_noun = _en_noun_end(norm)
        self.zh_noun = _zh_noun_end(norm)

    def clause_start(self, at: int) -> int:
        """The start of the last clause break before ``at`` (0 when none)."""
        i = bisect_left(self.breaks, at)
        return self.breaks[i - 1] if i > 0 else 0

    def named_before(self, at: int, same_clause: bool = False) -> bool:
        """A noun-like word of either script ends before the clause holding ``at`` (``same_clause``: before
        ``at``): a mixed message names its thing in either ("我在做一个drone，想让它…")."""
        limit = at if same_clause else self.clause_start(at)
        return 0 <= self.en_noun <= limit or 0 <= self.zh_noun <= limit


def _en_leans(read: _Read) -> bool:
    norm = read.norm
    subject = _EN_SUBJECT.search(norm)
    if subject and subject.group("next") not in _TIME_NOUN and not _DUMMY_IT.search(norm) \
            and not _DEICTIC_OPEN.search(norm):
        return True
    for m in _EN_DETERMINER.finditer(norm):
        noun = m.group("noun")
        if noun not in _TIME_NOUN and noun not in _NO_NOUN and not read.named_before(m.start()):
            return True
    for m in _EN_OBJECT.finditer(norm):
        if m.start() == 0:
            continue  # a subject, read above
        if m.group(0) == "it" and (_DUMMY_IT.search(norm[m.start():m.start() + _DUMMY_SPAN])
                                   or _SITUATION_IT.search(norm[max(0, m.start() - 12):m.end()])):
            continue
        # a possessive reads back to a noun of its own clause ("the dog loves its toys"), an object
        # pronoun to one of an earlier clause ("I keep bees, I love them"; "my kids love it" leans)
        possessive = m.group(0) in ("their", "its", "his")
        if not read.named_before(m.start(), same_clause=possessive):
            return True
    return False


def _zh_leans(read: _Read) -> bool:
    norm = read.norm
    for m in _ZH_ANAPHOR.finditer(norm):
        if m.start() > 0 and norm[m.start() - 1] in _ZH_WORD_BEFORE:
            continue
        if m.group(0).startswith(("这", "那")) and _ZH_TIME_AFTER.search(norm[m.end():m.end() + 4]):
            continue
        opened = norm[read.clause_start(m.start()):m.start()].strip("，,;；:：、.!?。！？ ")
        if m.group(0).startswith("每") and opened:
            continue  # "every X" inside a clause quantifies ("画遍每个步道"); opening one it refers back
        apposed = _APPOSED.search(norm[max(0, m.start() - 8):m.start()])
        if apposed is not None and _zh_noun_end(apposed.group(0)) >= 0:
            continue  # a pronoun right after its noun ("我对<食物>那个味道…"): the noun is named
        if not read.named_before(m.start()):
            return True
    return False


def leans(text: str) -> bool:
    """``text`` leans on a referent named outside it (see the module doc)."""
    norm = normalize(text[:READ_MAX_CHARS]).strip()
    if not norm:
        return False
    read = _Read(norm)
    return _en_leans(read) or _zh_leans(read)


def _statements(text: str) -> list[str]:
    """The sentences of ``text`` that are no question (a question names nothing the user has)."""
    out: list[str] = []
    start = 0
    for end in [*_SENTENCE_END.finditer(text), None]:
        sentence = text[start:end.start() if end else len(text)].strip()
        asked = end is not None and ("?" in end.group(0) or "？" in end.group(0))
        if sentence and not asked and not _QUESTION_OPEN.search(normalize(sentence)):
            out.append(sentence)
        start = end.end() if end else len(text)
    return out


# a question whether the assistant knows or has met a named thing: "do u know much about X?", "have you
# ever had X?", "ever heard of X?", "are you familiar with X?", "你听说过X吗", "你吃过X没". Closed classes of
# verbs; the thing is whatever the question names after them
_ASK_OPEN = r"^(?:(?:so|and|oh|hey|btw|ok|okay|also|random question|quick question)[, ]+)*"
_EN_ASKED = re.compile(
    _ASK_OPEN + r"(?:(?:do|did|have|has) (?:you|u|ya)(?: guys)? |(?:you|u) )?(?:ever |even )?"
    r"(?:know(?: much| anything| a lot| a thing)?(?: about| of)?|(?:heard|hear) (?:of|about)|tried|try|had|"
    r"eaten|tasted|seen|watched|read|played|been to|visited|used) (?P<thing>.+)$|"
    + _ASK_OPEN + r"(?:are|r) (?:you|u) familiar with (?P<familiar>.+)$|"
    + _ASK_OPEN + r"what do (?:you|u) know about (?P<about>.+)$", re.IGNORECASE)
_ZH_ASKED = re.compile(r"(?:你|您)(?:有)?(?:听说过|听过|知道|了解|吃过|喝过|去过|玩过|看过|用过|见过|试过|"
                       r"读过)(?P<thing>.+?)(?:吗|么|嘛|没有|没|不)?$")
# what follows the verb is no named thing: a request ("any good books", "what to do"), the user's own
# ("my name"), a demonstrative, a clause
_NOT_A_THING = re.compile(r"^(?:any|anything|some|something|what|how|where|when|why|who|whom|which|if|"
                          r"whether|that|this|these|those|it|them|me|my|mine|a good|good|about|of|the answer|"
                          r"you)\b|^(?:什么|怎么|哪|为什么|多少|几|我|这|那|一些|有没有|有什么|谁)",
                          re.IGNORECASE)
_ASKED_TAIL = re.compile(r"(?:\s+(?:at all|before|yet|lol|haha|tho|though|by any chance|much))+$",
                         re.IGNORECASE)
ASKED_MAX_CHARS = 60  # a thing asked about is a short noun phrase
_LAST_SENTENCE = re.compile(r"[^.!?。！？\n]+$")


def asked_thing(turn: str) -> str | None:
    """The thing the user's question ``turn`` asks the assistant about, when it asks whether the assistant
    knows, has heard of, or has tried, had, seen, read, played or been to a named thing (module doc); else
    ``None``. The last question of the turn is read."""
    text = unicodedata.normalize("NFKC", turn or "").replace("’", "'").strip()
    if not (text.endswith("?") or (has_cjk(text) and text.endswith(("吗", "么", "嘛")))):
        return None  # (NFKC folds the full-width mark)
    question = _LAST_SENTENCE.search(text.rstrip("?!. "))
    if question is None:
        return None
    question = question.group(0).strip()
    thing = None
    en = _EN_ASKED.search(question)
    if en is not None:
        thing = en.group("thing") or en.group("familiar") or en.group("about")
        thing = _ASKED_TAIL.sub("", thing or "").strip(" ,")
    else:
        zh = _ZH_ASKED.search(question)
        if zh is not None:
            thing = zh.group("thing").strip(" ，,")
    if not thing or len(thing) > ASKED_MAX_CHARS or _NOT_A_THING.search(thing) or not nounlike(thing) \
            or leans(thing):
        return None
    return thing


def _names_it(sentence: str, piece: str) -> bool:
    """``sentence`` can be the referent of ``piece``: short, naming a thing of its own, not leaning itself."""
    return len(sentence) <= REFERENT_MAX_CHARS and nounlike(sentence) and not leans(sentence) \
        and normalize(sentence) not in normalize(piece)


def referent_for(piece: str, message: str, previous_user: str | None) -> str | None:
    """The sentence naming what ``piece`` leans on, or ``None`` (see the module doc)."""
    probe = piece[:24]
    at = message.find(probe) if probe else -1
    if at > 0:
        for sentence in reversed(_statements(message[max(0, at - READ_MAX_CHARS):at])):
            if _names_it(sentence, piece):
                return sentence.rstrip("，,;；:：、 ")
    if previous_user and len(previous_user.strip()) <= REFERENT_MAX_CHARS:
        told = _statements(previous_user)
        joined = ". ".join(told) if told and not has_cjk(previous_user) else "，".join(told)
        if joined and nounlike(joined) and not leans(joined):
            return joined
        return asked_thing(previous_user)
    return None


def sentences_before(piece: str, message: str) -> list[str]:
    """Every sentence of ``message`` before ``piece``, nearest first, questions included (the candidates
    of the learned chooser, ``core.extraction.rules.referent_choice``)."""
    probe = piece[:24]
    at = message.find(probe) if probe else -1
    if at <= 0:
        return []
    head = message[max(0, at - READ_MAX_CHARS):at]
    out: list[str] = []
    start = 0
    for end in [*_SENTENCE_END.finditer(head), None]:
        sentence = head[start:end.end() if end else len(head)].strip().rstrip("，,;；:：、 ")
        if sentence:
            out.append(sentence)
        start = end.end() if end else len(head)
    return out[::-1]
