"""Kinds of thing a question asks about, and kinds of thing a memory is about (issue 24: retrieval
finds what is stored).

"What are my hobbies?", "我平时有哪些兴趣爱好？", "what do I eat in the evenings?": a question about a
kind of thing should reach the memories of that kind even when their words are far from the
question's (a hobby stored as "I've got really into bouldering" is about a hobby without saying so).
``query_kinds`` finds the kinds a question names (a bilingual lexicon, Chinese and English);
``memory_kinds`` the kinds a memory is about (its key's words, its content's words, and its type: a
preference is a taste, so it answers a question about hobbies). The rerank adds a bounded bonus to a
memory sharing a kind with the question (``RerankWeights.topic``). Pure functions, provider-neutral.
"""

from __future__ import annotations

from functools import lru_cache

from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re

# kind -> (English words, Chinese words); a question or a memory naming one of them is of the kind
_LEXICON: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "hobby": (("hobby", "hobbies", "interest", "interests", "pastime", "pastimes", "free time", "spare time",
               "for fun", "leisure", "passion", "passions"),
              ("爱好", "兴趣", "业余", "空闲", "闲暇", "消遣", "娱乐", "平时喜欢")),
    "food": (("food", "foods", "eat", "eating", "dish", "dishes", "cuisine", "meal", "meals", "cook",
              "cooking", "restaurant", "restaurants", "snack", "snacks", "recipe", "recipes", "bake",
              "baking"),
             ("吃", "美食", "菜", "饭", "口味", "料理", "做饭", "餐", "零食", "烹饪", "烘焙")),
    "drink": (("drink", "drinks", "coffee", "tea", "beer", "wine", "juice"),
              ("喝", "咖啡", "茶", "酒", "饮料", "奶茶")),
    "music": (("music", "song", "songs", "band", "bands", "singer", "singers", "listen", "listening",
               "concert", "concerts", "album", "albums", "playlist"),
              ("音乐", "歌", "乐队", "演唱会", "专辑", "听")),
    "movies": (("movie", "movies", "film", "films", "show", "shows", "series", "tv", "cinema", "anime"),
               ("电影", "剧", "综艺", "动漫", "影院")),
    "books": (("book", "books", "read", "reading", "novel", "novels", "author", "authors", "poetry"),
              ("书", "阅读", "小说", "读", "诗")),
    "travel": (("travel", "travels", "travelling", "traveling", "trip", "trips", "vacation", "vacations",
                "holiday", "holidays", "visit", "visited", "abroad"),
               ("旅行", "旅游", "出游", "度假", "出国", "去过")),
    "sport": (("sport", "sports", "exercise", "workout", "workouts", "gym", "run", "running", "fitness",
               "training", "hike", "hiking", "swim", "swimming", "yoga", "climbing"),
              ("运动", "锻炼", "健身", "跑步", "球", "游泳", "爬山", "瑜伽", "徒步")),
    "work": (("work", "job", "jobs", "career", "company", "office", "colleague", "colleagues", "boss",
              "profession", "employer", "occupation"),
             ("工作", "职业", "公司", "上班", "同事", "老板", "单位", "职位")),
    "evening": (("evening", "evenings", "night", "nights", "tonight", "after work", "weekend", "weekends"),
                ("晚上", "下班", "周末", "夜里", "睡前")),
    "family": (("family", "wife", "husband", "partner", "kid", "kids", "child", "children", "son", "daughter",
                "parents", "mom", "dad", "mother", "father", "sister", "brother"),
               ("家人", "老婆", "老公", "孩子", "父母", "爸", "妈", "女儿", "儿子", "家里")),
    "pet": (("pet", "pets", "dog", "dogs", "cat", "cats", "puppy", "kitten"),
            ("宠物", "狗", "猫")),
    "home": (("live", "lives", "living", "home", "city", "hometown", "address", "neighborhood", "moved"),
             ("住", "家在", "城市", "老家", "搬")),
    "health": (("health", "allergy", "allergies", "allergic", "diet", "doctor", "illness", "medication",
                "medicine"),
               ("健康", "过敏", "饮食", "病", "身体", "药")),
    "study": (("study", "studying", "school", "university", "college", "major", "degree", "learn",
               "learning", "class", "classes", "course", "courses", "exam"),
              ("学习", "学校", "大学", "专业", "考试", "课", "学")),
}
# a memory of these types answers a question about hobbies whatever its words (a taste, a pursuit)
_HOBBY_TYPES = frozenset({"preference"})
_HOBBY_KEYS = re.compile(r"^(?:preference|goal-skill|project)")
# a chosen diet is a preference (``preference-diet``) but not a pastime: like the diet fact it was, it answers
# health and diet questions (its key), not questions about hobbies
_NOT_HOBBY_KEYS = re.compile(r"^preference-diet\b")


@lru_cache(maxsize=1)
def _patterns() -> dict[str, re.Pattern[str]]:
    out: dict[str, re.Pattern[str]] = {}
    for kind, (en, zh) in _LEXICON.items():
        words = "|".join(re.escape(w) for w in sorted(en, key=len, reverse=True))
        chars = "|".join(re.escape(w) for w in sorted(zh, key=len, reverse=True))
        out[kind] = re.compile(rf"(?:^|[^a-z])(?:{words})(?:[^a-z]|$)|{chars}")
    return out


def _kinds(text: str) -> set[str]:
    folded = " ".join(re.split(r"[\s_\-]+", text.lower()))
    return {kind for kind, rx in _patterns().items() if rx.search(folded)}


@lru_cache(maxsize=1024)
def query_kinds(question: str) -> frozenset[str]:
    """The kinds of thing ``question`` asks about (empty when it names none)."""
    return frozenset(_kinds(question[:500]))


@lru_cache(maxsize=8192)
def memory_kinds(key: str, memory_type: str, content: str) -> frozenset[str]:
    """The kinds of thing a memory is about: the words of its key and content, and its type (a
    preference, a skill goal or a project answers a question about hobbies)."""
    kinds = _kinds(f"{key} {content[:500]}")
    if (memory_type in _HOBBY_TYPES or _HOBBY_KEYS.search(key)) and not _NOT_HOBBY_KEYS.search(key):
        kinds.add("hobby")
    return frozenset(kinds)
