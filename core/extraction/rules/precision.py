"""The last word of the rules extractor on what it proposes (issue 24: precision over volume).

Applied to the candidates of stage 1 after the classifier gate, piece by piece (a piece is one
statement of a candidate's content, the parts ``build`` joined with "; " / "；"):

- thanks and praise are never a constraint or a goal ("every time I talk to you I feel inspired",
  "谢谢你一直帮我");
- a one-off request to the assistant is no constraint and no goal ("in the future can I ask you to
  help me find recipes", "I want to talk to you about my career", "帮我找几部电影") unless it states
  how the assistant should always work ("以后你帮我看合同的时候，先列风险点" is kept whole);
- a passing mood is no goal, no constraint, no preference and no fact ("I feel lost lately", "感觉自己很没有
  出路"; a diagnosis, a condition or a trait stays a fact); thanks are no taste and no fact; a
  remembered detail of the day is no rule ("I vaguely remember using vinegar");
- a remark about a film's or book's content is no preference unless it states a liking ("I think
  the most interesting part is the main character's change");
- the user's own plan said politely is no rule ("以后我会早点睡，请监督我"), unless it says how the
  assistant should work;
- a thing never done, seen or met is no memory of any type ("I've never played golf", "I've never been
  to Ohio", "我从来没去过厦门": a reply about the other speaker's world); an abstention stays ("I've never
  smoked");
- a momentary want is no goal ("I want to find some movies to watch", "我想出去走走"), unless it names a
  horizon beyond the day ("I'd like to get my Dutch to C1 eventually", "want to get certified by 2027",
  "今年想买辆车": a goal);
- a trip of the moment is no goal: its logistics ("I plan to stay in homestays during my trip", "到了那边先去
  夜市") or a getaway to unwind ("I plan to go on a trip to relax", "我打算去旅游一下放松一下自己"); a
  travel dream ("someday I want to see the northern lights") stays;
- a statement of a goal or of a fact under no catalogue slot that the horizon model
  (``core.extraction.horizon``, given as ``horizon``: the probability that a text is of this day, week or
  trip) reads at ``HORIZON_DROP`` or more is no memory: a plan of the moment, a trip's itinerary, a thing
  done today or what the user is doing right now ("gotta pick up my dry cleaning before 6", "刚从健身房回
  来"); a long-run aim, a big goal with a near date and an activity of these months stay, and a fact a slot
  detector recognised (a job, a home, an allergy, a pet, a car) or a life event (``fact-event-…``) is never
  read;
- a reply to the assistant's advice is no memory of any type: a message that opens with an
  acknowledgement ("ok", "great", "you're right", "好的", "我知道了") and a statement of the user's that
  says they will act on it ("I will practice more and learn the basics", "我将尝试一些冥想和呼吸练习",
  "以后我也会注意这些细节");
- sarcasm is no taste: a preference said in a sentence that carries an eye-roll, an upside-down
  face, "/s" or "(not)" / "（才怪）" ("I just adore queueing at the post office 🙄") is not stored;
- what is not about the user is not the user's memory, whatever its type (``others``): another
  person's fact outside the household, a wish for someone else, a plan considered and rejected; a
  denied identity ("no, I'm not vegan") is cut out of the piece; a mocking self-claim ("sure, and I'm
  also an astronaut 🙄") is no fact; a claim taken back as a joke ("… lmao. jk i'm a line cook", "开玩笑的")
  is no memory, and the marker is no part of what follows it;
- a memory never loses its referent (``referent``): a statement that leans on a thing named outside it (a
  pronoun or a demonstrative with no antecedent in the memory: "I love riding them", "我超爱骑它们", "each
  book is great", "I love their music") takes the nearest sentence before it in the message that names a
  thing, else the user's previous turn, as its referent; without one it is not stored. The referent only
  supplies the thing: the statement stays in its own words through every later reading (its type and slot,
  keep or drop, the update judge, the match of a candidate to a sentence of the message), and the referent
  is joined before it in what is stored (``precise_parts`` keeps them apart, ``with_referents`` joins them
  once refine has judged; ``precise`` does both at once). A constraint keeps
  its words (its pronoun is what the assistant writes: "when you suggest podcasts keep them short"), and so
  does a statement of a message that retracts (``retraction.cued``: its pronoun is what it withdraws).

With the standing-instruction model (``core.extraction.standing_instruction``, given as ``standing``: the
probability that a text is a rule the assistant follows from now on), a constraint is read as a whole first:
at ``STANDING_KEEP`` or more it is a standing instruction however it is phrased ("记得每次给我列清单都按…
分"), and the recall and own-plan words above do not drop it (the one-off-request words still do: "如果你有
推荐的话就告诉我吧" reads like a rule to the model); at ``STANDING_DROP`` or less it is a request of the
moment ("can u whip up a script to …") and is dropped.

A candidate whose every piece is dropped is dropped. A goal that tells what the user usually does with no
intent ("我会听古典音乐、阅读和做饭来放松", "I usually go climbing to unwind") is a habit, and one that tells
what the user likes doing with no word of intent ("I love learning about the past") a liking: either
becomes a preference under its topic. Deletions pass untouched. Pure function.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from core.extraction.candidates import CandidateOp, ExtractionInput, MemoryCandidate
from core.extraction.day_news import DAY_NEWS_DROP
from core.extraction.horizon import HORIZON_DROP
from core.extraction.rules import others, patterns, referent, retraction
from core.extraction.rules.events import is_event_key
from core.extraction.rules.segment import clean_content, has_cjk, normalise
from core.extraction.rules.slots import is_known_slot, spec
from core.extraction.rules.topics import topic_of
from core.extraction.standing_instruction import STANDING_DROP, STANDING_KEEP, STANDING_RESCUE
from core.filters import normalise_key
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re
from core.text.salient import salient_tokens
from core.types import MemoryType
from schemas.events import MAX_MEMORY_CONTENT_CHARS

_PIECES = re.compile(r"；|; ")
_THANKS = re.compile(
    r"\b(?:thanks?|thank you|thx|grateful|appreciate[sd]?|you(?:'re| are) (?:so |really )?(?:helpful|"
    r"great|the best|amazing)|(?:you(?:'ve| have)?|that|this) (?:really |truly )?"
    r"help(?:ed|s)(?: me)?(?: a lot)?$|"
    r"feel (?:so |really )?(?:inspired|helped|supported)|inspired and helped)\b|"
    r"谢谢|感谢|多谢|谢啦|受益匪浅|帮了我(?:很多|大忙)|对我(?:很|非常|特别)?有帮助|很有启发|你真(?:好|棒|厉害)")
_MANNER = re.compile(
    r"\b(?:reply|replies|respond|answer|answers|format|tone|language|english|chinese|bullet|list|"
    r"first|before|always|never|keep|use|write|call me|metric|units?|short|brief|concise|detail(?:ed)?|"
    r"remind|warn|flag|mention|avoid|don'?t|do not|no more than|at most|only)\b|"
    r"回答|回复|格式|语气|中文|英文|先|总是|每次|一律|不要|别|只|列|提醒|称呼|叫我|简短|详细|用|标出|注明")
# a rule's recurring condition on the assistant's task ("each time you give me a workout, include a warm up",
# "每次你给我推荐电影，都告诉我片长"; since session 26 also "when you …" and "给我推荐…的时候"): its
# request words ("give me a") are the task the rule is about, not a request of the moment, when the
# standing model reads the rule at ``STANDING_RESCUE`` or more
_EVERY_TIME_YOU = re.compile(r"^(?:(?:and|also|oh|btw|pls|please)[, ]+)*"
                             r"(?:(?:each|every|any) ?time|whenever|when) (?:you|u)\b|"
                             r"^(?:以后)?(?:每次|每当)你|"
                             # "给我推荐电影的时候…", "你帮我挑酒店时…": the condition names the task
                             r"^(?:以后)?(?:你)?(?:给我|帮我|替我)[^，,。]{1,10}?(?:的时候|时)")
_ONE_OFF_REQUEST = re.compile(
    r"\b(?:can|could|would|will) (?:you|i ask you)\b|\bcan i\b|\b(?:help me (?:to )?(?:find|pick|choose|"
    r"get|make|plan|with)|tell me (?:about|some|a)|give me (?:some|a)|recommend(?: me)? (?:some|a)|"
    r"suggest (?:some|a))\b|\b(?:i )?(?:want|wanna|would like|'d like) to (?:talk|chat|ask|discuss|hear|"
    r"know|find out|share|tell you)\b|"
    r"帮我(?:找|推荐|选|挑|想|查|搜)|给我推荐|推荐(?:一下|几|些|点)|告诉我|你能不能|能不能帮|可以帮我|"
    r"想(?:和|跟|同)你(?:聊|谈|说|讨论)|问你")
_MOOD = re.compile(
    r"^(?:(?:but|and|so|um|uh|well|recently|lately|sometimes)[, ]+)*(?:i(?:'m| am)? (?:feel(?:ing)?|felt)|"
    r"i(?:'m| am) (?:so |really |a bit |kind of |pretty )?(?:confused|lost|sad|down|tired|stressed|bored|"
    r"anxious|upset|depressed|frustrated|overwhelmed|worried|not very confident|lonely|exhausted)|feeling|"
    r"i(?:'ve| have) been (?:feeling|(?:so |really |a bit |a little |kind of |pretty )?(?:confused|lost|sad|"
    r"down|tired|stressed|bored|anxious|upset|frustrated|overwhelmed|worried|lonely|exhausted)))\b|"
    r"^(?:我|最近|现在|的确|确实|真的|有时候?|总是|经常|常常|也|还)*(?:感觉|觉得|感到|心情|有点|好|很|特别)(?:自己|身体)?(?:很|好|有点|特别|非常|越来越)?"
    r"(?:迷茫|没有?出路|累|烦|难过|焦虑|郁闷|无聊|失落|沮丧|压力(?:很|好)?大|不开心|没方向|没有方向|困惑|低落|疲劳|疲惫|"
    r"没有?精神|没劲|孤独|寂寞|空虚|紧张|不自信|好多了|舒服多了)")
_MOOD_ANYWHERE = re.compile(
    r"\bi (?:feel|felt) (?:like )?(?:i (?:have|had) no (?:direction|way out|future)|lost|stuck|hopeless|"
    r"useless|confused)\b|感觉自己(?:很|好|有点|特别)?(?:没有?出路|没用|迷茫|失败|没方向)|"
    r"(?:心情|情绪)(?:很|好|有点|特别)?(?:差|低落|不好)")
_INTENT = re.compile(r"\bi(?:'m| am)? (?:really |also )?(?:want|plan|planning|hope|going to|decided|will)\b|"
                     r"\bmy goal|我(?:也|还|一直|很|真的)?(?:想|要|打算|计划|希望|决定)|我的目标")
_RECALL = re.compile(r"^(?:(?:um|uh|well|oh)[, ]+)*i (?:vaguely |still |kind of )?remember\b|"
                     r"^(?:我)?(?:隐约|好像)?记得")
_MOMENTARY_WANT = re.compile(
    r"\b(?:i )?(?:want|wanna|would like|'d like|need) to (?:find|watch|see|eat|grab|get|buy|hear|know|"
    r"relax|rest|take a break|go out|chill|sleep|read) (?:some|a|an|something|anything|more)?\b|"
    r"想(?:找|看|吃|喝|买|听|知道|休息|放松|出去(?:走走|玩玩|逛逛)|睡)(?:一下|一些|几|点|个)")
# a remark about a film's or a book's content is no taste of the user's unless a liking is stated
_WORK_REMARK = re.compile(r"\b(?:main character|protagonist|the plot|the ending|the story|the scene|"
                          r"plot twist)\b|主角|主人公|剧情|情节|结局")
_LIKING = re.compile(r"\b(?:like|likes|love|loves|enjoy|enjoys|prefer|prefers|favou?rite|fan of|into)\b|"
                     r"喜欢|爱看|爱读|最爱|偏爱")
# what makes a feeling a lasting fact: a diagnosis, a condition, a trait
_LASTING_STATE = re.compile(r"\b(?:diagnos\w*|disorder|condition|chronic|therapy|medication|always been|"
                            r"by nature|person)\b|确诊|诊断|查出|抑郁症|焦虑症|慢性|吃药|性格|一直是|天生")
# the user's own plan ("going forward I'll cycle to work, please wish me luck", "以后我会早点睡，请监督我"):
# about what the user will do, not how the assistant should work
_OWN_PLAN = re.compile(r"\b(?:i'll|i will|i'm going to|i am going to|we'll|we will)\b|"
                       r"我们?(?:会|要|打算|准备)")
_GOAL_OR_RULE = (MemoryType.GOAL, MemoryType.CONSTRAINT)
# a trip of the moment: its logistics, or a getaway to unwind
_TRIP_OF_MOMENT = re.compile(
    r"\b(?:during|on|for) (?:my|the|this|our) (?:trip|holiday|vacation|journey)\b|\bwhen i get there\b|"
    r"\b(?:trip|getaway|vacation|holiday) to (?:relax|unwind|de-?stress|clear my head)\b|"
    r"旅途中|这次旅行|这趟旅行|这次出行|到了那(?:里|边)|(?:旅游|旅行|出去玩)(?:一下|一趟)?(?:来)?(?:放松|散散?心|解压)")
# a reply to advice: the message opens with an acknowledgement ...
_ACK = re.compile(r"^(?:ok(?:ay)?|great|alright|all right|sure|well|yes|yeah|good|fine|got it|i see|"
                  r"thanks?|thank you(?: (?:so|very) much)?|you'?re right|that'?s (?:very |really )?"
                  r"(?:helpful|useful|a good idea|good advice|a great idea|great advice|right|true))\b|"
                  r"^(?:好的|好吧|好啊|嗯嗯?|行|可以|谢谢你?|你说得(?:对|有道理|很对)|有道理|我知道了|明白了|知道了)")
# ... and the statement says the user will act on it (try, practise, mind, look into...)
_WILL_ACT = re.compile(
    r"^(?:(?:ok(?:ay)?|great|alright|sure|well|yes|yeah|thanks?|you'?re right)[,.! ]+)*"
    r"i(?:'ll| will| am going to|'m going to)(?: definitely| also| try to)? (?:try|practi[cs]e|study|look|"
    r"check|keep|remember|think|give|follow|pay attention|consider|read|watch|search|take|enjoy|"
    r"work on|make sure|learn|be more|start|stop|focus)\b|"
    r"^(?:(?:好的|好吧|嗯|行|我知道了|明白了)[，, ]*)?(?:以后)?我(?:也|一定|还|就)?(?:会|将)(?:去|多|好好)?"
    r"(?:试|尝试|注意|努力|坚持|多|参考|考虑|记住|看看|搜|查|读|好好|按照|根据|继续|把|调整|改)")
# what the user usually does (a habit, not an intent)
HABIT_CUE = re.compile(r"来放松|来解压|\bto (?:relax|unwind)\b|平时|通常|一般(?:都|会)|经常|"
                        r"\busually\b|\boften\b|"
                        r"每(?:天|周|个周末|晚)|\bevery (?:day|week|weekend|evening|night|morning)\b")
# a liking of doing something, said in the present ("I love learning about the past", "我很喜欢研究历史"):
# a taste, not a goal, unless an intent is said beside it (below)
_LIKES_DOING = re.compile(
    r"\bi (?:really |also |just |absolutely |truly )?(?:love|like|enjoy|adore) (?:\w+ing\b|to \w+)|"
    r"^(?:我)?(?:也|还|真的|一直)?(?:很|特别|非常|超)?(?:喜欢|热爱|爱)(?:学|学习|了解|研究|看|读|听|做|玩)")
# any word of an intent: "I love folk music and hope to make it big someday" stays a goal
_ANY_INTENT = re.compile(r"\b(?:want|wants|wanna|plan|plans|planning|hope|hopes|hoping|dream|dreams|goal|"
                         r"goals|"
                         r"someday|some day|one day|wish|going to|gonna|will|'ll|'d|would|trying to|aim)\b|"
                         r"想|要|打算|计划|希望|梦想|目标|准备|以后|将来")
# an instrument the user learns or plays: with no intent and no date ("I'm learning to play the cello in
# my spare time", "最近也在学钢琴", "改学架子鼓了") a pastime, a taste, as the writers of five independent
# sets file it; with one ("trying to learn the guitar this year", "年底前考到钢琴八级") it stays a goal
_INSTRUMENT = re.compile(
    r"\b(?:guitar|piano|violin|viola|cello|ukulele|uke|drums?|drum kit|bass guitar|saxophone|sax|flute|"
    r"clarinet|trumpet|trombone|bassoon|oboe|harp|banjo|mandolin|accordion|harmonica)\b|"
    r"吉他|钢琴|小提琴|中提琴|大提琴|尤克里里|架子鼓|爵士鼓|萨克斯|长笛|笛子|单簧管|小号|长号|竖琴|二胡|古筝|琵琶|"
    r"扬琴|口琴|手风琴|电子琴|贝斯")
_DATED = re.compile(r"\b(?:this|next) (?:year|month|summer|spring|fall|autumn|winter)\b|\bby (?:the )?\w+|"
                    r"\bbefore\b|\bgrade \d|\bexam\b|"
                    r"今年|明年|年底|年前|之前|考级|[一二三四五六七八九十\d]级|比赛|演出")
# what marks a sentence as sarcastic (read on the raw message: the clauses have their emoji stripped)
# (in Chinese chat "[微笑]" / "（微笑）" are a sneer, and so is the smiling face 🙂 after an overstated
# liking, "太…了", "可太…", "真是…", "最爱"; "呵呵" at either end)
_SARCASM = re.compile("[\U0001f644\U0001f643\U0001f612\U0001f611]|(?:^|\\s)/s\\b|\\((?:not|jk)\\)|"
                      "[（(](?:才怪|并不|反话)[）)]|呵呵[。！!]*$|^呵呵|\\b(?:yeah right|not!)|"
                      "[（(\\[]微笑[）)\\]]|(?:太|可太|真是|最爱|最喜欢)[^.!?。！？\\n]{0,20}\U0001f642")
_SARCASM_END = re.compile(r"[.!?。！？\n]")
_SARCASM_EMOJI = re.compile("[\U0001f644\U0001f643\U0001f612\U0001f611]")
# a thing the user has never done, seen or met ("I've never played golf", "I've never been to Ohio",
# "我从来没去过厦门"): a reply about the other speaker's world, no memory; a lasting abstention ("I've never
# smoked", "never been married") names none of these verbs and stays
_NEVER_DONE = re.compile(
    r"^(?:(?:oh|well|no|nope|yes|yeah|haha|wow|actually|honestly|but|and|so|sadly|unfortunately)[, ]+)*"
    r"i(?:['’]ve| have)? (?:actually |honestly |personally )?never (?:been (?:to|on|in|inside)\b|"
    r"been (?:diving|skiing|camping|fishing|hunting|surfing|sailing|skydiving|bowling)|"
    r"(?:met|heard|seen|tried|played|made|done|read|watched|visited|gone|had the chance)\b)|"
    r"^(?:我)?(?:从来|从|还|一直)?没(?:有)?(?:去过|见过|玩过|试过|做过|听说过|看过|读过)")
# a horizon beyond the day: a want with one is a goal, never a momentary want ("I'd like to get X eventually")
HORIZON_CUE = re.compile(
    r"\b(?:eventually|someday|some day|one day|long[- ]term|in the long run|in the future|this year|"
    r"next year|by (?:the end of )?(?:19|20)\d\d|by (?:the end of )?(?:next|this) (?:year|summer|spring|"
    r"fall|autumn|winter)|before i(?:'m| am| turn) \d+|"
    r"within (?:the next )?(?:a|an|one|two|three|few|couple(?: of)?|\d+) (?:\w+ )?(?:years?|months)|"
    r"in (?:a|one|two|three|\d+) (?:years?|months))\b|"
    r"今年|明年|年底|年内|(?:\d+|[一二三四五六七八九十]+)(?:岁|年)(?:之前|以前|前)|将来|总有一天|有朝一日|以后|长期")
SARCASM_WINDOW = 80


def _dropped(piece: str, memory_type: MemoryType, standing: bool = False) -> bool:
    """``piece`` (normalised) is not a memory of ``memory_type``: see the module doc. ``standing``: the
    standing-instruction model calls the constraint a rule from now on (no recall and no own plan)."""
    if _NEVER_DONE.search(piece):
        return True
    if memory_type is MemoryType.PREFERENCE:  # a remark on a film, a mood or thanks is no taste
        return bool(_WORK_REMARK.search(piece) or _MOOD.search(piece) or _THANKS.search(piece)) \
            and not _LIKING.search(piece)
    if memory_type is MemoryType.FACT:  # a mood or thanks is no fact; a diagnosis is
        return bool(_MOOD.search(piece) or _MOOD_ANYWHERE.search(piece) or _THANKS.search(piece)) \
            and not _LASTING_STATE.search(piece)
    if memory_type not in _GOAL_OR_RULE:
        return False
    if _THANKS.search(piece) or _MOOD.search(piece):
        return True
    if _MOOD_ANYWHERE.search(piece) and not _INTENT.search(piece):
        return True
    rule = memory_type is MemoryType.CONSTRAINT
    if _ONE_OFF_REQUEST.search(piece) and not (rule and (_MANNER.search(piece)
                                                         or (standing and _EVERY_TIME_YOU.search(piece)))):
        return True
    if rule:
        return not standing and bool(_RECALL.search(piece) or (_OWN_PLAN.search(piece)
                                                                and not _MANNER.search(piece)))
    momentary = _MOMENTARY_WANT.search(piece) and not HORIZON_CUE.search(piece)
    return bool(momentary or _TRIP_OF_MOMENT.search(piece))


def _after_thanks(piece: str) -> str:
    """A rule told after thanks in the same clause ("haha thanks for the tips btw whenever you …",
    "谢啦～另外以后…"): the part from the topic shift on (``patterns.TOPIC_SHIFT``) when the thanks are
    before it and not after; else ``piece``. The thanks are no part of the rule, which ``_dropped`` would
    drop whole for them."""
    if not _THANKS.search(normalise(piece)):
        return piece
    for i in range(1, len(piece)):
        before = piece[i - 1]
        if not (before.isspace() or before in "，,。.!！~～、;；" or "\u4e00" <= before <= "\u9fff"):
            continue
        rest = piece[i:].strip()
        if patterns.TOPIC_SHIFT.search(normalise(rest)):
            return piece if _THANKS.search(normalise(rest)) else rest
    return piece


def _reply_to_advice(piece: str, message: str) -> bool:
    """``piece`` (normalised) says the user will act on advice, in a message that opens with an
    acknowledgement (see the module doc)."""
    return bool(_WILL_ACT.search(piece) and _ACK.search(normalise(message).lstrip()))


def _sarcastic(piece: str, message: str, claim: bool = False) -> bool:
    """The sentence of ``message`` that ``piece`` comes from carries a sarcasm marker (see module doc);
    an eye-roll before ``piece`` ends the sentence it closes ("sure, and I'm an astronaut 🙄 I work at a
    garden centre": the job is said straight). ``claim``: a statement of fact, sarcastic only when the
    text before it agrees mockingly ("sure, and I'm also a billionaire 🙄", ``others.mocking``)."""
    probe = piece[:24]
    at = message.find(probe) if probe else -1
    if at < 0:
        return False
    start = at
    while start > 0 and not _SARCASM_END.match(message[start - 1]) and at - start < SARCASM_WINDOW:
        if _SARCASM_EMOJI.match(message[start - 1]):
            break
        start -= 1
    tail = message[at + len(probe):at + len(probe) + SARCASM_WINDOW * 2]
    end = _SARCASM_END.search(tail)
    stop = at + len(probe) + (end.end() + 3 if end else len(tail))
    if not _SARCASM.search(message[start:stop]):
        return False
    return not claim or others.mocking(normalise(message[start:at]))


ChooseReferent = Callable[[str, str, str | None], str | None]
"""(statement, message, the user's previous turn) -> the sentence naming what the statement leans on, or None:
the learned chooser (``core.extraction.rules.referent_choice``) in place of ``referent.referent_for``."""


def _referent(piece: str, message: str, previous: str | None, before: Sequence[str],
              choose: ChooseReferent | None = None) -> str | None:
    """The sentence naming what ``piece`` leans on (``referent``), the empty string when it names its own
    thing, or ``None`` when it leans on a thing named nowhere near; ``previous``: the user's previous turn;
    ``before``: the pieces of the same memory kept before it (a pronoun whose antecedent they name needs
    nothing more)."""
    if not referent.leans(piece):
        return ""
    if before and not referent.leans("; ".join([*before, piece])):
        return ""
    return (choose or referent.referent_for)(piece, message, previous)


@dataclass(frozen=True)
class Precise:
    """What the precision pass keeps: ``candidates`` in the statements' own words (what the later
    stages type, judge and match against the message read), and ``referents``: for a kept statement
    that leans on a thing named outside it, the sentence that names it (``with_referents`` joins it
    before the statement in what is stored, so the memory stays findable by its thing)."""

    candidates: list[MemoryCandidate]
    referents: dict[str, str] = field(default_factory=dict)


def with_referents(candidates: Sequence[MemoryCandidate], referents: Mapping[str, str],
                   message: str | None = None) -> list[MemoryCandidate]:
    """``candidates`` with each statement of ``referents`` that their content holds preceded by the
    sentence it leans on ("<referent>. <statement>"), unless what the content says before it, of ``message``
    (the words the message told; an older memory refine merged it into names no thing of this message),
    names the thing already ("I drive a Tesla now, my husband hates it": refine joined the two)."""
    if not referents:
        return list(candidates)
    out: list[MemoryCandidate] = []
    for cand in candidates:
        content = cand.content
        if cand.op is not CandidateOp.DELETE:
            for piece, named in referents.items():
                at = content.find(piece)
                if at < 0 or named in content:
                    continue
                told = [p for p in _PIECES.split(content[:at]) if p.strip()
                        and (message is None or p.strip(" ,，") in message)]
                if not referent.leans("; ".join([*told, piece])):
                    continue  # what this message says before it in the memory names the thing already
                sep = "，" if has_cjk(piece) else ". "
                content = f"{content[:at]}{named}{sep}{content[at:]}"
        if content != cand.content:
            cand = cand.model_copy(update={"content": content[:MAX_MEMORY_CONTENT_CHARS]})
        out.append(cand)
    return out


def precise(candidates: Sequence[MemoryCandidate], data: ExtractionInput,
            standing: Callable[[list[str]], list[float]] | None = None,
            choose: ChooseReferent | None = None,
            horizon: Callable[[list[str]], list[float]] | None = None) -> list[MemoryCandidate]:
    """``precise_parts`` with the referents joined in: the candidates as they would be stored."""
    kept = precise_parts(candidates, data, standing, choose, horizon)
    return with_referents(kept.candidates, kept.referents, data.user_message)


def precise_parts(candidates: Sequence[MemoryCandidate], data: ExtractionInput,
                  standing: Callable[[list[str]], list[float]] | None = None,
                  choose: ChooseReferent | None = None,
                  horizon: Callable[[list[str]], list[float]] | None = None,
                  listed: frozenset[str] = frozenset(),
                  day_news: Callable[[list[str]], list[float]] | None = None,
                  fact_horizon: Callable[[list[str]], list[float]] | None = None) -> Precise:
    """``candidates`` without thanks, one-off requests, passing moods and momentary wants typed as
    a goal or constraint, and without statements that lean on a referent named nowhere near; the
    referent of each statement that leans on one named near is kept apart (``Precise``).
    ``standing``: P(standing instruction) per text (the standing-instruction model), read on constraints;
    ``choose``: the learned referent chooser in place of the rule's choice (off by default); ``horizon``:
    P(of this day, week or trip) per text (the horizon model), read on each statement of a goal or a fact;
    ``listed``: the keys of candidates holding an item of a list-style message, which the horizon model,
    trained on whole statements, does not read (the list fragment model read the verbless item);
    ``day_news``: P(the day's news) per text (``core.extraction.day_news``), read on each statement of a goal,
    a taste or a fact (``reads_day_news``); ``fact_horizon``: ``horizon`` for the statements of a fact, when a
    model of its own reads them (``core.extraction.horizon.HOME_ROWS_FACTS``)."""
    if standing is not None:
        candidates = _grounded_rules(candidates, standing)
    rules = [c for c in candidates if c.op is CandidateOp.UPSERT and c.memory_type is MemoryType.CONSTRAINT]
    p_rule = dict(zip([c.content for c in rules], standing([c.content for c in rules]), strict=True)) \
        if standing is not None and rules else {}
    moment = _of_the_moment([c for c in candidates if c.key not in listed], horizon, fact_horizon)
    news = _day_news([c for c in candidates if c.key not in listed], day_news, _told_before(data), standing) \
        if day_news is not None else frozenset()
    message = data.user_message or ""
    retracts = retraction.cued(message)
    previous = next((m.content for m in reversed(data.context) if m.role == "user" and m.content.strip()),
                    None)
    out: list[MemoryCandidate] = []
    referents: dict[str, str] = {}
    for cand in candidates:
        if cand.op is not CandidateOp.UPSERT:
            out.append(cand)
            continue
        p = p_rule.get(cand.content) if cand.memory_type is MemoryType.CONSTRAINT else None
        if p is not None and p <= STANDING_DROP:
            continue  # a request of the moment typed as a rule
        standing_rule = p is not None and (p >= STANDING_KEEP or (
            p >= STANDING_RESCUE and bool(_EVERY_TIME_YOU.search(normalise(cand.content)))))
        told = [p for p in _PIECES.split(cand.content) if p.strip()]
        pieces = [_after_thanks(p) for p in told] if cand.memory_type is MemoryType.CONSTRAINT else told
        claim = cand.memory_type is MemoryType.FACT
        taste_or_claim = claim or cand.memory_type is MemoryType.PREFERENCE
        kept = [p for p in (others.without_joke_mark(others.without_others(others.without_denials(p)))
                            for p in pieces) if p
                and not others.taken_back(p, message)
                and not _dropped(normalise(p), cand.memory_type, standing_rule)
                and not (p in moment and _read_horizon(cand))
                and not (p in news and reads_day_news(cand))
                and not others.someone_elses(normalise(p))
                and not _reply_to_advice(normalise(p), message)
                and not (taste_or_claim and _sarcastic(p, message, claim=claim))]
        resolved: list[str] = []
        # a rule keeps its object as told ("keep them short" is about what the assistant writes), and a
        # retraction's pronoun is the memory it withdraws (the retraction path reads it)
        as_told = cand.memory_type is MemoryType.CONSTRAINT or retracts
        for piece in kept:
            named = "" if as_told else _referent(piece, message, previous, resolved, choose)
            if named is None:
                continue  # it leans on a thing named nowhere near: not stored
            if named:
                referents.setdefault(piece, named)
            resolved.append(piece)
        if not resolved:
            continue
        if resolved != told:
            sep = "；" if has_cjk(cand.content) else "; "
            cand = cand.model_copy(update={"content": sep.join(resolved)[:MAX_MEMORY_CONTENT_CHARS]})
        out.append(_habit_as_taste(cand))
    return Precise(out, referents)


def _read_horizon(cand: MemoryCandidate) -> bool:
    """The horizon model reads a goal (not one that tells a habit, "我会听音乐和做饭来放松":
    ``_habit_as_taste``, a taste) and a fact under no catalogue slot (``fact-personal``, a topic key): a
    fact a slot detector of the rules recognised (a job, a home, an allergy, a pet, a car, a relative:
    "对芒果过敏", "换了一辆比亚迪海豹") or a life event (``fact-event-…``) is not read: the slot detectors
    are precise (the gate too drops one only at ``GATE_DROP_SLOT``)."""
    if cand.memory_type is MemoryType.GOAL:
        return _habit_as_taste(cand) is cand
    return cand.memory_type is MemoryType.FACT and not is_known_slot(cand.key) and not is_event_key(cand.key)


def _of_the_moment(candidates: Sequence[MemoryCandidate],
                   horizon: Callable[[list[str]], list[float]] | None,
                   fact_horizon: Callable[[list[str]], list[float]] | None = None) -> frozenset[str]:
    """The statements of the candidates the horizon model reads (``_read_horizon``) that it reads as of this
    day, week or trip (``HORIZON_DROP`` or more), read in one call per model (``fact_horizon``, when given,
    reads the statements of a fact); a statement that names a horizon beyond the day (``HORIZON_CUE``:
    "明年想去 X 徒步", "next year", "eventually") is never of the moment."""
    if horizon is None:
        return frozenset()
    read = [c for c in candidates if c.op is CandidateOp.UPSERT and _read_horizon(c)]
    split = fact_horizon is not None
    groups = ((horizon, [c for c in read if not (split and c.memory_type is MemoryType.FACT)]),
              (fact_horizon, [c for c in read if split and c.memory_type is MemoryType.FACT]))
    moment: set[str] = set()
    for model, group in groups:
        pieces = list(dict.fromkeys(p for c in group for p in _PIECES.split(c.content) if p.strip()))
        if model is None or not pieces:
            continue
        moment.update(p for p, q in zip(pieces, model(pieces), strict=True)
                      if q >= HORIZON_DROP and not HORIZON_CUE.search(normalise(p)))
    return frozenset(moment)


def reads_day_news(cand: MemoryCandidate) -> bool:
    """The day's-news head reads a goal, a taste and a fact, not a single slot of who the user is (a job, a
    home, a name) nor a life event (``fact-event-…``): those slot detectors are precise."""
    if cand.memory_type not in (MemoryType.GOAL, MemoryType.PREFERENCE, MemoryType.FACT):
        return False
    return not is_event_key(cand.key) and not (is_known_slot(cand.key) and spec(cand.key).single)


_TOPIC_KINDS = ("preference", "goal", "constraint")
DAY_NEWS_RULE = 0.50  # the standing-instruction model's even odds: a statement it reads at or over this is
# rather a rule for the assistant than the day's news, and the day's-news head has no say on it


def _told_before(data: ExtractionInput) -> Callable[[str], bool]:
    """Whether a statement names a topic (``topics.topic_of``) a live memory of the user names: news of a
    thing the user told before is a change the update judge reads ("spicy is back on the menu" after "no
    spicy food recs pls"), never the day's news."""
    told = {(kind, t) for m in data.existing for kind in _TOPIC_KINDS
            if (t := topic_of(kind, normalise(m.content))) is not None}
    return lambda piece: any((kind, topic_of(kind, normalise(piece))) in told for kind in _TOPIC_KINDS)


def _day_news(candidates: Sequence[MemoryCandidate], day_news: Callable[[list[str]], list[float]] | None,
              told: Callable[[str], bool] = lambda piece: False,
              standing: Callable[[list[str]], list[float]] | None = None) -> frozenset[str]:
    """The statements of the candidates the day's-news head reads (``reads_day_news``) that it reads as the
    day's news (``DAY_NEWS_DROP`` or more), read in one call; a statement that names a horizon beyond the day
    (``HORIZON_CUE``) or tells what the user does every day or usually (``HABIT_CUE``: a rule of a trip,
    "每天下午两点前得回酒店午休", read 0.94), or that ``told`` says names a topic the user told before
    (``_told_before``), is never the day's news; nor is one the standing-instruction model (``standing``)
    reads at ``DAY_NEWS_RULE`` or more, rather a rule for the assistant than not ("no spicy food recs pls, my
    stomach can't handle it": 0.57, read 0.89 by the head; the day's news of the public stores reads 0.31 or
    less: at ``STANDING_DROP``, 0.15, it kept them all)."""
    if day_news is None:
        return frozenset()
    pieces = list(dict.fromkeys(p for c in candidates if c.op is CandidateOp.UPSERT and reads_day_news(c)
                                for p in _PIECES.split(c.content) if p.strip()))
    if not pieces:
        return frozenset()
    news = [p for p, q in zip(pieces, day_news(pieces), strict=True)
            if q >= DAY_NEWS_DROP and not HORIZON_CUE.search(normalise(p))
            and not HABIT_CUE.search(normalise(p)) and not told(p)]
    if standing is not None and news:
        news = [p for p, r in zip(news, standing(news), strict=True) if r < DAY_NEWS_RULE]
    return frozenset(news)


_GROUND_KEYS = frozenset({"fact-allergy", "fact-diet", "preference-diet", "fact-health"})
_CLAUSE_SPLIT = re.compile(r"[，,；;。]\s*|\.\s+")


_SO = re.compile(r"\bso\b|所以")

GROUNDED_RULE = STANDING_RESCUE
"""The standing model's P(rule) at which a "so …" / "所以…" run after a diet, allergy or health fact makes it
that rule (``_grounded_rules``; a plain later clause still needs ``STANDING_KEEP``): the bar for a rule said
in chat words (``STANDING_RESCUE``; session 24, helper cons43: "…so no milk in recipes please" reads 0.68; a
consequence the user tells, "so i take insulin every day", "so i avoid bread", reads 0.15 or less)."""


GROUNDED_KEEPS_FACT = False
"""The fact a rule grounds on stays a memory of its own beside the rule, its words before the rule clause
("I've been vegetarian for 8 years, so no meat recipes pls": the diet, and the rule with its reason; session
24, helper cons43; before and by default: the rule alone). Off: written after the session's guard run,
measured on written probes only (no time for a second guard run)."""


def _later_clauses(content: str) -> dict[str, float]:
    """The clauses of ``content`` after its first (at commas and stops), each with the bar at which the
    standing model's reading makes it a rule: ``STANDING_KEEP``; and each "so …" / "所以…" run inside a clause
    (to its end: "im lactose intolerant so no milk in recipes please"), a rule told as the fact's consequence,
    at ``GROUNDED_RULE``. (A plain later clause at ``GROUNDED_RULE`` also took "我左耳听力不太好，打电话一般都
    用右耳" for a rule: dev2 -1.)"""
    parts = [p for p in _CLAUSE_SPLIT.split(content) if p.strip()]
    out = {p: STANDING_KEEP for p in parts[1:]}
    for part in parts:
        for m in _SO.finditer(part):
            run = part[m.start():].strip()
            if m.start() > 0 or part is not parts[0]:
                out[run] = min(out.get(run, GROUNDED_RULE), GROUNDED_RULE)
    return out


def _grounded_rules(candidates: Sequence[MemoryCandidate],
                    standing: Callable[[list[str]], list[float]]) -> list[MemoryCandidate]:
    """A diet, allergy or health fact whose later clause the standing-instruction model calls a rule
    (``GROUNDED_RULE``) is that rule, its content keeping the fact as its reason ("我对X过敏的哈，推荐零食
    的时候注意点", "i'm off Y doctor's orders, watch it in any recipe"): the rules grouped the instruction,
    said without a frame word, into the fact as its continuation. With ``GROUNDED_KEEPS_FACT`` the fact's own
    words before the rule clause stay a memory under the fact's key. The fact told alone stays a fact."""
    grounds = [c for c in candidates if c.op is CandidateOp.UPSERT and c.key in _GROUND_KEYS]
    later = {id(c): _later_clauses(c.content) for c in grounds}
    texts = list(dict.fromkeys(t for c in grounds for t in later[id(c)]))
    if not texts:
        return list(candidates)
    p_rule = dict(zip(texts, standing(texts), strict=True))
    out: list[MemoryCandidate] = []
    for cand in candidates:
        ruled = [t for t, bar in later.get(id(cand), {}).items() if p_rule[t] >= bar]
        if ruled:
            at = min((i for i in (cand.content.find(t) for t in ruled) if i > 0), default=-1)
            fact = clean_content(cand.content[:at]).strip(" ,，;；") if at > 0 else ""
            if GROUNDED_KEEPS_FACT and len(salient_tokens(fact)) >= 1:
                out.append(cand.model_copy(update={"content": fact}))  # the diet or allergy stays, alone
            key = normalise_key(f"constraint-{topic_of('constraint', normalise(cand.content)) or 'food'}")
            target = spec(key)
            cand = cand.model_copy(update={"key": key, "memory_type": MemoryType.CONSTRAINT,
                                           "importance": target.importance, "ttl_days": target.ttl_days})
        out.append(cand)
    return out


def _habit_as_taste(cand: MemoryCandidate) -> MemoryCandidate:
    """A goal that tells what the user usually does, with no intent ("我会听古典音乐、阅读和做饭来放松"),
    is a habit, and one that tells what the user likes doing, with no word of intent at all ("I love
    learning about the past"), a liking: either way a preference under its topic (``preference-hobby``
    without one). An instrument learned or played with no intent and no date (``_INSTRUMENT``) is a pastime:
    ``preference-music``."""
    norm = normalise(cand.content)
    if cand.memory_type is not MemoryType.GOAL or _INTENT.search(norm):
        return cand
    if _INSTRUMENT.search(norm) and not _ANY_INTENT.search(norm) and not _DATED.search(norm):
        key = "preference-music"
    elif not (HABIT_CUE.search(norm) or (_LIKES_DOING.search(norm) and not _ANY_INTENT.search(norm))):
        return cand
    else:
        key = normalise_key(f"preference-{topic_of('preference', norm) or 'hobby'}")
    target = spec(key)
    return cand.model_copy(update={"key": key, "memory_type": MemoryType.PREFERENCE,
                                   "importance": target.importance, "ttl_days": target.ttl_days})
