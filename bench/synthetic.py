"""Synthetic memories and queries (Chinese and English, deterministic from a seed) for the benchmarks.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from core.memory.text import embedding_text

_EN_SUBJECTS = [
    "jazz",
    "rock climbing",
    "sourdough baking",
    "chess",
    "marathon training",
    "watercolor painting",
    "Rust programming",
    "bird watching",
    "vegan cooking",
    "photography",
    "Japanese",
    "gardening",
    "cycling",
    "piano",
    "board games",
    "yoga",
    "home brewing",
    "astronomy",
    "salsa dancing",
    "kayaking",
]


_EN_CITIES = [
    "Lisbon",
    "Osaka",
    "Toronto",
    "Nairobi",
    "Berlin",
    "Chengdu",
    "Austin",
    "Melbourne",
    "Oslo",
    "Seoul",
    "Hangzhou",
    "Dublin",
    "Lyon",
    "Kyoto",
    "Denver",
]


_EN_FOODS = ["peanuts", "shellfish", "gluten", "soy", "dairy", "eggs", "sesame", "mango"]


_EN_JOBS = [
    "backend engineer",
    "nurse",
    "high-school teacher",
    "data analyst",
    "chef",
    "architect",
    "product manager",
    "pharmacist",
    "civil engineer",
    "translator",
]


_EN_PETS = [("cat", "Mochi"), ("dog", "Pepper"), ("parrot", "Kiwi"), ("rabbit", "Tofu"), ("dog", "Biscuit")]


_ZH_SUBJECTS = [
    "古典音乐",
    "登山",
    "烘焙",
    "围棋",
    "长跑",
    "书法",
    "摄影",
    "养花",
    "游泳",
    "日语",
    "钓鱼",
    "茶道",
    "骑行",
    "吉他",
    "桌游",
    "瑜伽",
    "露营",
    "天文",
    "剪纸",
    "滑雪",
]


_ZH_CITIES = ["武汉", "成都", "杭州", "大理", "青岛", "西安", "厦门", "苏州", "昆明", "南京", "重庆", "长沙"]


_ZH_FOODS = ["花生", "海鲜", "芒果", "牛奶", "香菜", "辣椒", "鸡蛋"]


_ZH_JOBS = ["后端工程师", "护士", "小学老师", "会计", "建筑师", "产品经理", "药剂师", "翻译"]


_ZH_PETS = [("橘猫", "团子"), ("柯基", "豆豆"), ("鹦鹉", "小绿"), ("兔子", "雪球")]


_EN_QUERIES = [
    "What does the user like to do on weekends?",
    "Where does the user live?",
    "Any food allergies I should know about before suggesting a recipe?",
    "What is their job?",
    "Where do they want to travel?",
    "What are they building?",
    "Do they have pets?",
    "How should I format my answers?",
    "What are they trying to learn this year?",
    "When can I call them?",
]


_ZH_QUERIES = [
    "用户周末喜欢做什么？",
    "他住在哪个城市？",
    "推荐菜谱前要注意什么过敏？",
    "他是做什么工作的？",
    "他想去哪里旅行？",
    "他最近在做什么项目？",
    "他养宠物吗？",
    "回答应该用什么风格？",
    "他今年想学什么？",
    "什么时候方便打电话？",
]


@dataclass(frozen=True)
class SynthMemory:
    user: str
    key: str
    memory_type: str
    content: str
    lang: str

    @property
    def embedded_text(self) -> str:
        """The text the product computes this memory's vector from (``core.memory.text.embedding_text``), so a
        bare-embedder baseline embeds exactly what the pipeline does."""
        return embedding_text(self.memory_type, self.key, self.content)


def _en_memory(rng: random.Random, i: int) -> tuple[str, str, str]:
    kind = i % 10
    subject = rng.choice(_EN_SUBJECTS)
    if kind == 0:
        return (
            "preference",
            f"hobby-{subject.replace(' ', '_')}",
            f"Enjoys {subject} on weekends and has done it for {rng.randint(2, 15)} years",
        )
    if kind == 1:
        city = rng.choice(_EN_CITIES)
        return "fact", "home-city", f"Lives in {city} with a partner and two kids"
    if kind == 2:
        food = rng.choice(_EN_FOODS)
        return (
            "constraint",
            f"diet-allergy_{food}",
            f"Allergic to {food}; never suggest recipes that contain it",
        )
    if kind == 3:
        job = rng.choice(_EN_JOBS)
        return "fact", "work-job", f"Works as a {job} at a mid-size company, mostly remote"
    if kind == 4:
        city = rng.choice(_EN_CITIES)
        return "goal", f"travel-{city.lower()}", f"Wants to visit {city} next spring and see the old town"
    if kind == 5:
        return (
            "project",
            f"project-{subject.replace(' ', '_')}_app",
            f"Is building a small app to track {subject} progress, written in Python",
        )
    if kind == 6:
        kind_, name = rng.choice(_EN_PETS)
        return "fact", f"pet-{kind_}", f"Has a {kind_} named {name} who is {rng.randint(1, 12)} years old"
    if kind == 7:
        return (
            "preference",
            "answer-style",
            rng.choice(
                [
                    "Prefers short answers with bullet points and no emojis",
                    "Likes detailed explanations with code examples",
                    "Wants replies in English even when asking in Chinese",
                ]
            ),
        )
    if kind == 8:
        return (
            "goal",
            f"learn-{subject.replace(' ', '_')}",
            f"Plans to get much better at {subject} this year, practising three times a week",
        )
    return "constraint", "schedule-calls", f"Cannot take calls before {rng.randint(8, 11)} am on weekdays"


def _zh_memory(rng: random.Random, i: int) -> tuple[str, str, str]:
    kind = i % 10
    subject = rng.choice(_ZH_SUBJECTS)
    sid = _ZH_SUBJECTS.index(subject)
    if kind == 0:
        return "preference", f"hobby-{sid}", f"周末喜欢{subject}，已经坚持{rng.randint(2, 15)}年了"
    if kind == 1:
        return "fact", "home-city", f"住在{rng.choice(_ZH_CITIES)}，和家人一起生活"
    if kind == 2:
        food = rng.choice(_ZH_FOODS)
        return "constraint", f"diet-allergy_{_ZH_FOODS.index(food)}", f"对{food}过敏，推荐菜谱时一定要避开"
    if kind == 3:
        return "fact", "work-job", f"职业是{rng.choice(_ZH_JOBS)}，平时工作比较忙"
    if kind == 4:
        city = rng.choice(_ZH_CITIES)
        return "goal", f"travel-{_ZH_CITIES.index(city)}", f"计划明年春天去{city}旅行，想看看老城区"
    if kind == 5:
        return "project", f"project-{sid}", f"正在用 Python 做一个记录{subject}进度的小程序"
    if kind == 6:
        pet, name = rng.choice(_ZH_PETS)
        return "fact", f"pet-{_ZH_PETS.index((pet, name))}", f"养了一只{pet}，名字叫{name}"
    if kind == 7:
        styles = ["希望回答简洁，先给结论再给理由", "喜欢详细的解释和代码示例", "回答一律使用简体中文"]
        return "preference", "answer-style", rng.choice(styles)
    if kind == 8:
        return "goal", f"learn-{sid}", f"今年想把{subject}练得更好，每周练三次"
    return "constraint", "schedule-calls", f"工作日早上{rng.randint(8, 11)}点之前不接电话"


def synthetic_memories(n: int, users: int, seed: int = 20240601, prefix: str = "u") -> list[SynthMemory]:
    """``n`` realistic memories spread round-robin over ``users`` users (half zh, half en by user).

    Deterministic for a seed; keys are unique per user (a numeric suffix is added), so every item
    is a new memory (a create, not an overwrite).
    """
    rng = random.Random(seed)
    out: list[SynthMemory] = []
    per_user: dict[int, int] = {}
    for i in range(n):
        u = i % users
        j = per_user.get(u, 0)
        per_user[u] = j + 1
        lang = "zh" if u % 2 else "en"
        mtype, key, content = (_zh_memory if lang == "zh" else _en_memory)(rng, j + u)
        out.append(SynthMemory(f"{prefix}{u:05d}", f"{key}_{j}", mtype, content, lang))
    return out


def synthetic_queries(users: Sequence[str], n: int, seed: int = 7) -> list[tuple[str, str]]:
    """``n`` (user, query) pairs over ``users``; each query text is unique (a counter is appended in
    words, so no cache can serve a repeat) and in the user's language."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        user = rng.choice(list(users))
        zh = int(user[-5:]) % 2 == 1 if user[-5:].isdigit() else False
        base = rng.choice(_ZH_QUERIES if zh else _EN_QUERIES)
        out.append((user, f"{base} (#{i})"))
    return out
