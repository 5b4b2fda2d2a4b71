"""More labelled sentences for the standing-instruction model (issue 24, session 15, helper cons28).

The families session 13's frames (``training/instruction_templates_cons26.py``) lack, all in chat style:

- a rule said with a question tag ("…, ok?", "…, yeah?", "…好吗？", "…行不"), which reads like a question but
  asks nothing: the rules drop such a clause as a question, and the model rated it near 0.7 or lower;
- a rule given as a bare noun phrase or a "nothing with …" ("no <food> in whatever you cook up for me",
  "nothing that has <food> pls");
- "I'd rather you …", "I'd prefer it if you …", "don't ever … lol", "跟我说话的时候…", "你帮我<做事>的时候…",
  "<做事>的时候注意点<东西>", "麻烦以后…", a zh/en mix with "pls";
- a diet, allergy or health limit told as the reason of such a rule in the same sentence
  ("<limit>, so nothing with <food> ok?", "<限制>，<做事>的时候避开<东西>").

Negatives (label 0) of the same surface: a real question with a tag ("is <food> ok for someone who …?",
"can you <task now>, ok?"), a one-off request with a limit of its own ("<task now>, no <noun> this time"),
the limit told alone with no rule ("can't really do <food> lol", "我对<东西>过敏的哈"; the rules file these as
facts), and a limit of someone else. ``group`` names the frame (the trainer holds whole frames out).
Deterministic. Tasks, foods and manners are chosen apart from the cons28 case halves
(``bench/data/cons28_*_cases.jsonl``) and the dev sets.
"""

from __future__ import annotations

from typing import Any

TASKS_EN = ["cook up for me", "plan for my lunches", "put on my meal plan", "pick at restaurants",
            "pack in my hiking snacks", "bake for the office", "add to my grocery list", "order for the team"]
TASKS_ZH = ["推荐菜", "安排我的三餐", "给我配餐", "帮我点外卖", "推荐下午茶", "挑餐厅", "帮我列采购单",
            "给我出食谱"]
FOOD_EN = ["sesame", "eggs", "soy", "tree nuts", "mustard", "caffeine", "alcohol", "red meat", "corn syrup",
           "raw fish"]
FOOD_ZH = ["芝麻", "鸡蛋", "大豆", "坚果", "香菜", "咖啡因", "酒", "红肉", "海鲜", "辣椒"]
GROUND_EN = ["i'm allergic to {food}", "{food} and i do not get along", "my doctor took me off {food}",
             "{food} makes me break out", "i react badly to {food}", "can't have {food} anymore"]
GROUND_ZH = ["我对{food}过敏", "我吃不了{food}", "医生不让我碰{food}", "{food}我一吃就难受", "我忌口{food}",
             "{food}我现在不能吃了"]
DO_EN = ["keep the key number in the first line", "use weekdays not dates", "give me the cheap option first",
         "stick to plain text", "keep it to one screen", "write like you're texting a friend",
         "say when you're unsure", "use miles for distances", "skip the pep talk", "label each step"]
NEG_EN = ["pad the answer with filler", "use the word 'delve'", "add a summary at the end",
          "quote prices in dollars", "end with a question", "use semicolons", "recommend paid apps",
          "mention crypto"]
DO_ZH = ["先说最便宜的", "别超过一屏", "用口语说", "每步标个序号", "不确定就直说", "价格标上单位",
         "结论放第一句", "用公里算距离", "别讲大道理", "举个例子再解释"]
NEG_ZH = ["用感叹号", "加表情包", "说客套话", "推荐收费软件", "在结尾反问我", "用英文缩写", "提币圈的事",
          "给我灌鸡汤"]
TASK_R_EN = ["draft my emails", "summarize meetings", "plan my runs", "explain tax stuff", "answer me",
             "reply to me", "rewrite my posts", "recommend shows"]
TASK_R_ZH = ["写邮件", "总结会议", "安排跑步计划", "讲税的事", "回我消息", "改我的帖子", "推荐剧", "解释合同"]
NOW_EN = ["rewrite this tweet", "plan saturday's run", "summarize this thread", "draft a reply to my aunt",
          "check this invoice", "name my podcast", "find a recipe for tonight", "fix this sentence"]
NOW_ZH = ["改一下这条朋友圈", "排一下周六的跑步", "总结一下这个群聊", "给我姨回条消息", "看看这张发票",
          "给我的播客起个名", "找个今晚能做的菜", "改改这句话"]

POS_EN = [
    ("tagok", "no {food} in anything you {task}, ok?"),
    ("tagok", "nothing that has {food} when you {task} pls"),
    ("tagok", "{do} when you {task_r}, k?"),
    ("tagok", "{do} from here on, alright?"),
    ("tagyeah", "when you {task_r}, {do}, yeah?"),
    ("tagyeah", "don't {neg} when you {task_r}, deal?"),
    ("rather", "i'd rather you {do} when you {task_r}"),
    ("rather", "i'd rather you didn't {neg}"),
    ("rather", "honestly i'd prefer it if you {do} whenever you {task_r}"),
    ("dontever", "don't ever {neg} lol"),
    ("dontever", "pls never {neg} w me, it's a pet peeve"),
    ("ground", "{ground}, so nothing with {food} when you {task} ok?"),
    ("ground", "{ground} lol so keep {food} out of whatever you {task}"),
    ("ground", "heads up {ground}, no {food} in stuff you {task}"),
    ("bare", "{food}-free for anything you {task}, thx"),
    ("bare", "zero {food} in my meal ideas pls, always"),
]
NEG_EN_FRAMES = [
    ("qtag", "is {food} ok for someone with a sensitive stomach?"),
    ("qtag", "can you {now}, ok?"),
    ("qtag", "would {food} be a problem at a potluck, you think?"),
    ("oneoff", "{now}, no {neg_noun} this time"),
    ("oneoff", "just for today's lunch, nothing with {food}"),
    ("alone", "{ground} lol"),
    ("alone", "ugh {ground}, found out the hard way"),
    ("other", "my roommate can't have {food}, so our fridge is weird"),
    ("other", "my kid's friend is allergic to {food}, so the party menu was a pain"),
    ("ownrule", "i never {own} on weeknights"),
    ("ask", "what's a good swap for {food} in baking?"),
]
OWN_EN = ["eat after 8", "drink soda", "skip lunch", "order takeout", "snack at my desk", "cook on sundays"]
NEG_NOUN_EN = ["emojis", "jargon", "links", "bullet points", "exclamation marks", "hashtags"]

POS_ZH = [
    ("haoma", "{task}的时候别放{food}，好吗？"),
    ("haoma", "以后{task_r}都{do}，行不"),
    ("haoma", "{task_r}的时候{do}哈，可以吧"),
    ("zhuyi", "{task}的时候注意点{food}"),
    ("zhuyi", "你{task}的时候留意一下有没有{food}"),
    ("gen", "跟我说话的时候{do}"),
    ("gen", "跟我聊天别{neg}"),
    ("bang", "你帮我{task_r}的时候，{do}"),
    ("bang", "以后你帮我{task_r}的时候，先{do}再说别的"),
    ("mafan", "麻烦以后{task_r}都{do}"),
    ("qingbie", "请别再{neg}了"),
    ("ground", "{ground}，{task}的时候避开{food}"),
    ("ground", "{ground}的哈，{task}别带{food}"),
    ("mixpls", "{task_r}的时候pls {do_en}"),
    ("mixpls", "以后{task_r} always {do_en} 好吗"),
]
NEG_ZH_FRAMES = [
    ("wen", "{food}可以和牛奶一起吃吗？"),
    ("wen", "可以帮我{now}吗？好吗"),
    ("zheci", "这次{now}，别放{food}"),
    ("zheci", "今天中午的外卖别要{food}就行"),
    ("alone", "{ground}的哈"),
    ("alone", "{ground}，上次差点进医院"),
    ("other", "我室友对{food}过敏，所以家里不买"),
    ("other", "我爸吃不了{food}，每次聚餐都要挑"),
    ("ask", "{food}用什么代替比较好？"),
]


def _fill(frame: str, i: int, zh: bool) -> str:
    """One sentence of ``frame``, its slots filled by the ``i``-th pick of each list (a stride over them)."""
    if zh:
        food = FOOD_ZH[i % len(FOOD_ZH)]
        vals = {"task": TASKS_ZH[(i * 3) % len(TASKS_ZH)], "food": food,
                "ground": GROUND_ZH[(i * 5) % len(GROUND_ZH)].format(food=food),
                "do": DO_ZH[(i * 7) % len(DO_ZH)], "neg": NEG_ZH[(i * 3) % len(NEG_ZH)],
                "task_r": TASK_R_ZH[(i * 5) % len(TASK_R_ZH)], "now": NOW_ZH[(i * 3) % len(NOW_ZH)],
                "do_en": DO_EN[(i * 7) % len(DO_EN)]}
    else:
        food = FOOD_EN[i % len(FOOD_EN)]
        vals = {"task": TASKS_EN[(i * 3) % len(TASKS_EN)], "food": food,
                "ground": GROUND_EN[(i * 5) % len(GROUND_EN)].format(food=food),
                "do": DO_EN[(i * 7) % len(DO_EN)], "neg": NEG_EN[(i * 3) % len(NEG_EN)],
                "task_r": TASK_R_EN[(i * 5) % len(TASK_R_EN)], "now": NOW_EN[(i * 3) % len(NOW_EN)],
                "own": OWN_EN[i % len(OWN_EN)], "neg_noun": NEG_NOUN_EN[i % len(NEG_NOUN_EN)]}
    return frame.format(**vals)


PER_FRAME = 20  # sentences per frame


def rows() -> list[dict[str, Any]]:
    """The template rows, deterministic, without duplicates; ``group`` is ``cons28-<lang>-<frame>``."""
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for frames, label, zh in ((POS_EN, 1, False), (NEG_EN_FRAMES, 0, False), (POS_ZH, 1, True),
                              (NEG_ZH_FRAMES, 0, True)):
        for group, frame in frames:
            for i in range(PER_FRAME):
                text = _fill(frame, i, zh)
                if text not in seen:
                    seen.add(text)
                    out.append({"text": text, "label": label,
                                "group": f"cons28-{'zh' if zh else 'en'}-{group}"})
    return out
