"""Hard filters on memory keys and contents, applied at write time and again at read time.

The design (``docs/design.md#what-is-kept-and-what-is-not``) drops a known set of noise keys
(``weather-date_*``, ``tool-*``, ``system-*``, ``reminder-last_*``,
``finance-monthly_*``/``weekly_*``/``daily_*``) and noise contents (tool lists, weather snapshots,
streaming switches, system format notes) even when they slip into the candidates, and excludes them again
on every read (list, recall, consolidation) so old dirty rows never come back. Profile fields (nickname,
the AI's name, emoji) are not memories either.

Invariants:
- ``normalise_key`` always returns a non-empty string of at most 160 characters drawn from
  ``[a-z0-9._-]`` that starts and ends with ``[a-z0-9]``; it is idempotent and deterministic
  (non-ASCII text maps to a stable short hash, never to a random value).
- Every filter is a pure function of its arguments; content filters are conservative: they look
  for explicit markers, never for topics alone (a typhoon *reminder rule* is not a weather snapshot).
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from functools import lru_cache

from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re

MAX_KEY_LENGTH = 160
MAX_CONTENT_SCAN = 4000
MAX_KEY_INPUT = 1000  # longer raw keys are cut before normalising (the result is 160 chars at most)

_MEMORY_TYPES = ("preference", "fact", "goal", "project", "constraint")
_SEPARATORS = re.compile(r"[._-]+")
_DISALLOWED = re.compile(r"[^a-z0-9._-]+")
_RUNS = re.compile(r"([._-])[._-]+")
_WHITESPACE = re.compile(r"\s+")


def _hash(text: str, length: int = 10) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:length]


def _fold(raw: str) -> str:
    """NFKC, lowercase, Latin accents removed (``café`` -> ``cafe``); other scripts kept."""
    text = unicodedata.normalize("NFKC", raw).strip().lower()
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def normalise_key(raw: str) -> str:
    """A valid memory key for ``raw``: lowercase ASCII slug, ``[a-z0-9._-]``, at most 160 chars.

    ASCII words are kept (spaces and other punctuation become ``_``, separator runs collapse).
    Text in other scripts (Chinese) cannot be transliterated offline, so it contributes a stable
    10-hex hash of the whitespace-normalised text: ``fact-居住城市`` -> ``fact-<hash>``; a key with
    no ASCII at all becomes ``memory-<hash>``. Only the first 1000 characters of ``raw`` count.
    """
    text = _WHITESPACE.sub(" ", _fold((raw or "")[:MAX_KEY_INPUT]))
    ascii_part = text.encode("ascii", "ignore").decode("ascii")
    slug = _DISALLOWED.sub("_", ascii_part)
    slug = _RUNS.sub(r"\1", slug).strip("._-")
    if any(ord(ch) > 127 for ch in text):
        digest = _hash(text)
        slug = f"{slug}-{digest}" if slug else f"memory-{digest}"
    if not slug:
        slug = "memory"
    if len(slug) > MAX_KEY_LENGTH:
        slug = slug[: MAX_KEY_LENGTH - 11].rstrip("._-") + "-" + _hash(slug)
    return slug


def key_has_substance(raw: str) -> bool:
    """True when ``raw`` holds a letter or a digit (of any script), so its key is its own: keys of
    only spaces or punctuation (``"   "``, ``"!!!---"``) would all become the fallback ``memory``."""
    return any(ch.isalnum() for ch in (raw or "")[:MAX_KEY_INPUT])


def _canonical(key: str) -> str:
    """Key with every separator run mapped to ``-`` (``Weather_Date.2024`` -> ``weather-date-2024``)."""
    return _SEPARATORS.sub("-", normalise_key(key)).strip("-")


def _without_type_prefix(canonical: str) -> str:
    for memory_type in _MEMORY_TYPES:
        if canonical.startswith(memory_type + "-"):
            return canonical[len(memory_type) + 1:]
    return canonical


_NOISE_KEY = re.compile(
    r"^(?:"
    r"weather-(?:date|today|now|current|forecast|snapshot|report)"
    r"|tools?|system|sys"
    r"|reminder-last"
    r"|finance-(?:monthly|weekly|daily|month|week|day|today|yesterday)"
    r"|streaming|stream-output"
    r")(?:-|$)"
)


def is_noise_key(key: str) -> bool:
    """True for the known noise keys (``docs/design.md#what-is-kept-and-what-is-not``),
    case-insensitive, ``_``/``-``/``.`` alike, also when prefixed by a memory type
    (``fact-weather-date_0512``)."""
    canonical = _canonical(key)
    return bool(_NOISE_KEY.match(canonical) or _NOISE_KEY.match(_without_type_prefix(canonical)))


_PROFILE_TOKENS = frozenset(
    {"nickname", "nicknames", "nick", "emoji", "emojis", "avatar", "persona", "username"}
)
_NAME_KEYS = frozenset({"name", "names", "full-name", "real-name", "first-name", "last-name", "given-name"})
_PROFILE_PAIRS = re.compile(
    r"(?:^|-)(?:ai|assistant|bot|agent|model|user|display|preferred|call|my)-(?:name|nickname)(?:-|$)"
    r"|(?:^|-)call-(?:me|you)(?:-|$)"
    r"|(?:^|-)name-(?:for|of)-(?:ai|assistant|bot|me|you)(?:-|$)"
)


def is_profile_key(key: str) -> bool:
    """True for profile fields (nickname, the AI's name, emoji, avatar...), which are not memories.

    ``fact-pet_name`` is not a profile field; ``profile-*``, ``user_nickname``, ``assistant-name``,
    ``emoji`` and ``call_me`` are.
    """
    canonical = _without_type_prefix(_canonical(key))
    tokens = canonical.split("-")
    if tokens and tokens[0] == "profile":
        return True
    if canonical in _NAME_KEYS:
        return True  # the user's own name is an identity field like the nickname
    if _PROFILE_TOKENS.intersection(tokens):
        return True
    return bool(_PROFILE_PAIRS.search(canonical))


def _alt(*parts: str) -> re.Pattern[str]:
    return re.compile("|".join(parts), re.IGNORECASE)


# digit runs are bounded ({1,4}): unbounded ``\d+`` next to optional parts backtracks cubically on a
# long run of digits (a 32000-digit chat message took hours); a temperature never needs more
_TEMP_UNIT = (r"-?\d{1,4}(?:\.\d{1,3})?\s*(?:[~～\-到至]\s*-?\d{1,4}(?:\.\d{1,3})?\s*)?"
              r"(?:℃|°\s*[CF]|摄氏度|degrees?\b)")
# bare 度 only for plausible readings ("近视600度" is not weather), so never right after a digit
_TEMP_DU = r"-?\d{1,2}(?:\.\d)?\s*(?:[~～\-到至]\s*-?\d{1,2}\s*)?度"
_TEMPERATURE = rf"(?:{_TEMP_UNIT}|(?:^|[^\d]){_TEMP_DU})"  # "no digit before" consumed: yes/no searches only


def _gap_then_temperature(most: int) -> str:
    """Up to ``most`` characters, then a temperature: ``re`` wrote ``.{0,most}(?<!\\d)...``; the
    character checked before a bare 度 reading is the gap's last one (the word before has no digit)."""
    return rf"(?:.{{0,{most}}}{_TEMP_UNIT}|(?:.{{0,{most - 1}}}[^\d\n])?{_TEMP_DU})"
_WEATHER_WORD = (
    r"(?:天气|气温|多云|晴|阴天|小雨|中雨|大雨|暴雨|阵雨|雷阵雨|下雪|雾霾|湿度|风力|[东南西北]+风\d?级"
    r"|weather|sunny|cloudy|overcast|raining|rainy|pouring|snowing|humid|humidity|forecast|temperature)"
)
_NOW_WORD = r"(?:今天|今日|今早|今晚|现在|此刻|明天|这会儿?|today|tonight|right now|this morning|tomorrow)"
_TOOL_NAME = (
    r"(?:网页搜索|联网搜索|计算器|日程提醒|天气查询|代码执行|代码解释器|图片生成|文件读取"
    r"|web search|web browsing|calculator|code interpreter|image generation|file search)"
)
_RECENT = r"(?:今日|今天|本周|这周|本月|这个月|上周|上个月|昨天)"

_NOISE_CONTENT = [
    # tool lists / capabilities of the assistant
    _alt(
        r"你.{0,4}(?:可以|能够?|可)(?:调用|使用|用)的?(?:以下|这些|哪些)?(?:工具|插件)",
        r"(?:我|assistant)(?:目前|现在)?(?:可以|能够?)(?:调用|使用)(?:以下|这些)?(?:工具|插件)?[:：]",
        r"(?:工具|插件)(?:清单|列表)|(?:可用|支持)的?(?:工具|插件)",
        r"\bavailable tools\b|\btools? (?:list|available)\b",
        r"\bhave access to (?:the following |these )?tools\b",
        r"\b(?:can|could) (?:use|call) (?:the following|these) tools\b|\bfunction[- ]calling\b",
        rf"{_TOOL_NAME}.{{0,8}}{_TOOL_NAME}",
    ),
    # weather snapshots: a temperature reading next to a weather word, a "now" word next to the
    # weather, or a temperature range
    _alt(
        rf"{_TEMPERATURE}.{{0,24}}{_WEATHER_WORD}",
        _WEATHER_WORD + _gap_then_temperature(24),
        rf"{_NOW_WORD}.{{0,10}}(?:天气|气温|多云|晴|阴|小雨|大雨|阵雨|weather|sunny|cloudy|rainy)",
        _NOW_WORD + _gap_then_temperature(12),
        r"-?\d{1,4}\s*[~～]\s*-?\d{1,4}\s*(?:℃|°\s*[CF])",
    ),
    # streaming switches
    _alt(
        r"流式(?:输出|回复|响应|返回|模式|传输)|打字机效果",
        r"\bstream(?:ing)?\s+(?:output|mode|responses?|on|off)\b",
        r"\b(?:enable|disable|turn (?:on|off)) (?:the )?stream(?:ing)?\b",
    ),
    # system state, format notes and implementation details of the assistant
    _alt(
        r"系统提示词?|系统消息|(?:你的|你们的|当前)系统(?:状态|格式|配置|设置)|system (?:prompt|message)",
        r"(?:your|the assistant'?s) system (?:status|state|format)",
        r"(?:记忆|memory).{0,16}(?:向量数据库|向量库|向量索引|vector (?:database|store|db|index)|embedding)",
        r"(?:用的|使用的|调用的|用了)(?:是)?(?:啥|什么|哪个|哪种)?\s*(?:embedding|向量)(?:\s*模型)?",
        r"\bwhat (?:embedding|vector) (?:model|database|db|store)\b",
        r"你.{0,6}(?:背后|底层|用的|使用的|调用的|基于)的?(?:是)?(?:哪个|什么)?\s*(?:大?模型|model)",
        r"\b(?:which|what) (?:llm|model) (?:are you|do you use|is behind)",
        r"\btemperature\s*(?:参数|调到|设为|设成|改成|改为|调成|=|:|to)\s*[0-2](?:\.\d{1,3})?(?:[^\d.]|$)",
        r"\btop[_-]p\b|\bmax[_ ]tokens\b",
        r"上下文窗口|context window",
    ),
    # display/UI settings of the chat client (system state, not facts about the user)
    _alt(
        r"(?:字体|字号|深色模式|暗色模式|夜间模式|浅色模式|主题色|界面语言|皮肤).{0,10}(?:改|调|换|切换|设置|设为|打开|关闭|开启)"
        r"|(?:改|调|换|切换|设置|打开|关闭|开启).{0,10}(?:字体|字号|深色模式|暗色模式|夜间模式|浅色模式|主题色|皮肤)",
        r"\b(?:font size|font|dark mode|light mode|night mode|theme|ui language)\b.{0,20}"
        r"\b(?:to|on|off|bigger|smaller|larger)\b",
        r"\b(?:switch|set|change|turn on|turn off|enable|disable)\b.{0,12}"
        r"\b(?:font|dark mode|light mode|night mode|theme)\b",
    ),
    # testing the memory feature itself
    _alt(r"(?:测试|试试|test(?:ing)?)\s*(?:一下|下)?\s*(?:你的|你|the|your)?\s*(?:memory|记忆)\s*(?:功能|feature|function)",
         r"\btest(?:ing)? (?:your|the) memory\b|(?:测试|试试)(?:一下|下)?你的记忆"),
    # daily/weekly/monthly summaries and short-term finance stats
    _alt(
        rf"{_RECENT}的?(?:总结|汇总|小结|复盘|账单|开销|支出|消费)",
        r"\b(?:daily|weekly|monthly) (?:summary|recap|report|spending|expenses)\b",
        r"\brecap of my (?:day|week)\b",
        rf"{_RECENT}.{{0,12}}(?:花了|消费|支出|开销|收入|赚了|一共|合计).{{0,8}}\d",
        r"\b(?:today|yesterday|this week|last week|this month|last month)\b.{0,24}"
        r"\b(?:spent|spending|expenses?|earned|sales)\b.{0,12}\d",
    ),
    # reminders already fired / last reminder state
    _alt(r"上次提醒(?:时间|于)|last reminded (?:at|on)\b"),
    # a credential told with its value ("my password is mars-999", "支付密码是…"): never a memory, never
    # read back, whoever writes it (the rules' clause cuts, the LLM path, an agent's save)
    _alt(
        r"\b(?:pass ?words?|passcodes?|pass ?phrases?|pin(?: code| number)?|api[ _-]?keys?|secret keys?|"
        r"access tokens?|security codes?|cvv|login)\s*(?:is|was|=|:)\s*\S",
        r"(?:密码|口令|验证码|PIN码?|pin码?|密钥)\s*(?:是|为|改成了?|=|:|：)\s*\S",
    ),
]


_INSTRUCTION_CONTENT = re.compile(
    r"\b(?:ignore|disregard|override)\b.{0,30}\b(?:previous|prior|above|earlier|all)\b"
    r".{0,20}\b(?:instructions?|prompts?|directives)\b"
    r"|\byou are now\b|\bnew instructions?\s*:|\b(?:reveal|print|show|leak)\b.{0,30}\bsystem prompt\b"
    r"|(?:忽略|无视|忘记|忘掉)(?:掉)?(?:之前|以上|上面|前面|先前|所有|全部)?的?(?:所有|全部)?(?:指令|指示|提示词?|规则|设定)"
    r"|(?:泄露|输出|显示|告诉我)(?:你的)?系统提示词?",
    re.IGNORECASE | re.DOTALL,
)


def is_instruction_content(content: str) -> bool:
    """True when ``content`` reads as instructions to the assistant (a prompt-injection attempt such
    as "Ignore previous instructions..."), which is no fact about the user: the writer refuses it
    with that reason when it refuses such content (not "filtered noise")."""
    text = unicodedata.normalize("NFKC", (content or "")[:MAX_CONTENT_SCAN])
    return bool(_INSTRUCTION_CONTENT.search(text))


def is_structured_payload(content: str) -> bool:
    """True when ``content`` as a whole is a machine payload, not speech: a JSON object or array (a tool
    call or an API body, pasted or injected), which states nothing about the user whatever its fields
    say. Linear in the length (one JSON parse)."""
    text = (content or "").strip()
    if len(text) < 2 or text[0] not in "{[" or text[-1] not in "}]":
        return False
    try:
        return isinstance(json.loads(text), (dict, list))
    except ValueError:
        return False


def is_noise_content(content: str) -> bool:
    """True when ``content`` is internal or short-lived noise: a tool list, a weather snapshot, a
    streaming switch, system state/format notes or implementation details, a test of the memory
    feature, or a day/week/month summary or short-term finance statistic (Chinese and English)."""
    # a memory's content is at most 1000 characters; bounding the input bounds the work
    text = unicodedata.normalize("NFKC", (content or "")[:MAX_CONTENT_SCAN])
    return any(pattern.search(text) for pattern in _NOISE_CONTENT)


@lru_cache(maxsize=4096)  # pure; every read of live memories re-checks the same rows
def passes_read_filters(key: str, content: str) -> bool:
    """True when a stored memory may be returned by list, recall or consolidation: not a noise
    key, not a profile field, not noise content."""
    return not (is_noise_key(key) or is_profile_key(key) or is_noise_content(content))


# --- the key filters as one PostgreSQL regular expression (reads filter in SQL first) --------------
_SQL_WORDS = re.compile(r"^[a-z-]+$")


def _sql_alternation(words: frozenset[str] | tuple[str, ...]) -> str:
    assert all(_SQL_WORDS.match(w) for w in words), "only [a-z-] words need no escaping"
    return "|".join(sorted(words))


_SQL_TYPE_PREFIX = f"(?:(?:{_sql_alternation(_MEMORY_TYPES)})-)?"
SQL_FILTERED_KEY_PATTERN = (
    # is_noise_key: the noise pattern on the canonical key, with or without one memory-type prefix
    f"^{_SQL_TYPE_PREFIX}{_NOISE_KEY.pattern.removeprefix('^')}"
    # is_profile_key: anchored parts after an optional type prefix, then the tokens and pairs anywhere
    f"|^{_SQL_TYPE_PREFIX}(?:profile(?:-|$)|(?:{_sql_alternation(_NAME_KEYS)})$)"
    f"|(?:^|-)(?:{_sql_alternation(_PROFILE_TOKENS)})(?:-|$)"
    f"|{_PROFILE_PAIRS.pattern}"
)
"""PostgreSQL (ARE) pattern that matches the canonical form of a key (separator runs -> ``-``,
trimmed) exactly when ``is_noise_key(key) or is_profile_key(key)``, for keys already in normalised
form (``[a-z0-9._-]``); built from the same patterns as the Python filters. Reads use it to drop
those rows in SQL (``core.memory.reader``) and still re-check every row in Python."""
SQL_NORMALISED_KEY_PATTERN = r"^[a-z0-9._-]+$"
