# ruff: noqa: E501  (data: hand-written templates and slot values, one family per block)
"""A fourth set of hand-written templates for the utterance corpus (issue 24, precision, session 11; ``h-prec24``).

Written for this repository on 2026-12-05 by the ``h-prec24`` helper (an AI agent session, second pass), with
slot values and sentence shapes of its own, none copied or paraphrased from an evaluation set (the dev cases,
``bench/data/*_cases.jsonl``, MemoryBank, Synthetic-Persona-Chat's test split), the issue texts or the demo
samples (``training/build_utterance_corpus.py --check`` searches every row in them).

``training/utterance_templates_prec24.py`` (the companion-chat drops: the day's outings, moods, replies to
advice, thanks, plans of the moment) cost recall when it was trained in alone, on shapes it taught the
classifier to drop by a surface cue ("recently", "today", "secondhand", a remark after a statement, a
rising tone). This set is the counterweight, and a few more drops of the same register:

- keeps: a job told with a remark after it ("I'm a locksmith, people always laugh when I say so",
  "我是做{job}的，一般人听了都挺意外"); an old or secondhand thing being restored over weeks (a project);
  a durable thing of the user's told as changed "now" ("I use a Kindle now, got rid of the old one",
  "我现在上夜班了"; the older statement's replacement, read by the update judge); a weekend habit ("Saturdays are for {hobby}", "周末基本都用来{hobby}"); a travel dream of a lifetime (a goal: "I'd love to see the northern lights one day"), which the trips of the
  moment of both sets must not take with them;
  a hedged taste said with a rising tone ("I think I'm kinda into {hobby} now?"); a work the user loved (a
  taste, not a remark on its content); a life change told with a recent-time marker (moved, a new job, a
  pet, a diagnosis: "I recently moved to {city}", "我最近刚换了工作，现在在{place}上班"); a long-term goal or an
  ongoing project told with "lately" ("lately I've been studying for the bar exam");
- drops: a trip's logistics of the moment (flights, a rental car, the first day's sight), trivial
  remarks on the other speaker's world ("I wouldn't last a day as a beekeeper"), fragments that lean on a
  referent said elsewhere ("mine looks kind of like that one"), resolutions that only answer the
  assistant's advice ("fair point, I'll stop overthinking it").

**Not wired into the corpus.** Retrained with both sets (``build_utterance_corpus.build`` taking
``*prec24b_template_rows(), *prec24_template_rows()`` after the chat set: 9,968 rows; ``train_memory_classifier
--l2 1e-5 --cache C`` then ``train_memory_mlp --cache C``), the models fixed what the prec24 rows alone broke
(the restored canoe, a travel dream split from a long intro), stored 14-24 % fewer MemoryBank memories and
read 75 good of 120 on the labelled sample (63 before), but lost a dev3 case and a held-out case (a two-day
conditional reminder stored as a constraint) (``bench/RESULTS.md``, issue 24, session 11). To try it: add the two calls to the
row list of ``build_utterance_corpus.build`` and retrain.

Expansion as in the other sets: template ``t`` takes, for its ``k``-th row, slot value
``(k * step_s + t) % len(values)`` of each slot ``s`` (co-prime steps), ``PER_TEMPLATE`` rows at most,
distinct texts only.
"""

from __future__ import annotations

from typing import Any

from training.template_rows import family_rows

JOB_EN = ["locksmith", "night-shift baker", "museum guard", "crane operator", "tax auditor", "piano tuner",
          "wedding photographer", "veterinary nurse", "sewer inspector", "school bus driver", "perfume tester",
          "claims adjuster"]
JOB_ZH = ["开锁师傅", "面包师", "博物馆保安", "塔吊司机", "审计", "调音师", "婚礼摄影", "宠物医院护士", "管道检修",
          "校车司机", "调香师", "保险理赔"]
REMARK_EN = ["people always look surprised when I tell them", "not glamorous but it pays the bills",
             "most people have no idea what that involves", "it's weirder than it sounds",
             "my friends tease me about it", "been doing it for about eight years now",
             "honestly it's pretty chill most days", "long hours but I like it"]
REMARK_ZH = ["很多人听了都挺意外的", "不算体面，但能养活自己", "很多人都不知道具体干啥", "说起来有点奇怪",
             "朋友们老拿这个开玩笑", "已经干了快八年了", "其实大部分时候挺轻松", "工作时间长，但我挺喜欢"]
THING_EN = ["rowing boat", "vintage motorbike", "1970s camper van", "player piano", "walnut writing desk",
            "rusty road bike", "old sailboat", "grandfather clock", "pinball machine", "tube radio"]
THING_ZH = ["小木船", "老摩托车", "房车", "立式钢琴", "橡木书桌", "生锈的公路车", "旧帆船", "落地座钟", "弹球机",
            "电子管收音机"]
GOT_EN = ["I found at a flea market", "I bought used off a neighbor", "I got for almost nothing online",
          "I inherited from my uncle", "I rescued from a scrapyard", "that came with the house"]
GOT_ZH = ["从跳蚤市场淘来的", "邻居便宜转给我的", "在网上几乎白捡的", "舅舅留给我的", "从废品站救回来的", "买房时附送的"]
STAGE_EN = ["about a third of the way done", "almost finished", "still stripping the old paint",
            "waiting on parts", "slow going but getting there", "should be done by spring"]
STAGE_ZH = ["弄了三分之一", "快完工了", "还在打磨旧漆", "在等零件", "进度很慢但在推进", "争取春天前弄完"]
HOBBY_EN = ["ice skating", "birding", "sourdough baking", "knitting socks", "disc golf", "watercolor",
            "stand-up paddling", "chess puzzles", "salsa dancing", "foraging mushrooms", "origami", "archery"]
HOBBY_ZH = ["攀岩", "观鸟", "烤酸面包", "织袜子", "飞盘高尔夫", "水彩", "桨板", "下象棋", "跳萨尔萨", "采蘑菇", "折纸",
            "射箭"]
TITLE_EN = ["Paper Lanterns", "The Long Winter Road", "Salt and Iron", "Night Ferry", "The Orchard Keeper's Son",
            "Blue Hour", "A Map of Small Towns", "Quiet Engines"]
TITLE_ZH = ["《纸灯笼》", "《漫长的冬路》", "《盐与铁》", "《夜渡》", "《果园守夜人》", "《蓝调时刻》", "《小镇地图》",
            "《安静的引擎》"]
KIND_EN = ["film", "novel", "album", "series", "documentary", "play"]
KIND_ZH = ["电影", "小说", "专辑", "剧", "纪录片", "话剧"]
CITY_EN = ["Porto", "Dalian", "Leeds", "Chengdu", "Halifax", "Kunming", "Adelaide", "Xiamen", "Tucson", "Qingdao"]
CITY_ZH = ["大连", "成都", "昆明", "厦门", "青岛", "苏州", "西安", "珠海", "兰州", "烟台"]
PET_EN = ["a three-legged cat", "a retired greyhound", "two guinea pigs", "a parrot", "a beagle puppy", "a tortoise"]
PET_ZH = ["一只三条腿的猫", "一只退役的灵缇犬", "两只豚鼠", "一只鹦鹉", "一只比格幼犬", "一只乌龟"]
COND_EN = ["type 2 diabetes", "celiac disease", "a thyroid condition", "asthma", "high blood pressure", "ADHD"]
COND_ZH = ["二型糖尿病", "乳糜泻", "甲状腺的毛病", "哮喘", "高血压", "多动症"]
STUDY_EN = ["the bar exam", "a nursing license", "the GRE", "a pilot's license", "my CPA exams", "a sommelier course"]
STUDY_ZH = ["司法考试", "护士资格证", "考研", "飞行执照", "注册会计师", "品酒师课程"]
LONG_EN = ["a family cookbook of my grandma's recipes", "a board game about trains", "a small podcast about local history",
           "a website for my sister's bakery", "a photo book of our street", "a kids' story about a lost kite"]
LONG_ZH = ["一本收集奶奶菜谱的家庭食谱", "一个关于火车的桌游", "一档讲本地历史的小播客", "给姐姐的面包店做网站",
           "一本记录我们这条街的影集", "一个关于风筝走丢的儿童故事"]
COUNTRY_EN = ["Portugal", "Vietnam", "Norway", "Peru", "Morocco", "Iceland", "Georgia", "Chile"]
COUNTRY_ZH = ["葡萄牙", "越南", "挪威", "秘鲁", "摩洛哥", "冰岛", "格鲁吉亚", "智利"]
NDAYS_EN = ["ten days", "about a week", "five nights", "two weeks", "four days", "a long weekend"]
NDAYS_ZH = ["十天", "一个星期左右", "五个晚上", "两周", "四天", "一个小长假"]
SIGHT_EN = ["the old fortress", "the night market", "a hot spring", "the glacier lagoon", "the cathedral", "a wine cellar"]
SIGHT_ZH = ["老城堡", "夜市", "温泉", "冰川湖", "大教堂", "酒窖"]
ROLE_EN = ["beekeeper", "stunt double", "glassblower", "lighthouse keeper", "sommelier", "tattoo artist",
           "park ranger", "puppeteer"]
ROLE_ZH = ["养蜂人", "替身演员", "吹玻璃的师傅", "灯塔看守", "侍酒师", "纹身师", "护林员", "木偶戏艺人"]
DREAM_EN = ["walk the whole Great Wall", "see the northern lights", "sail across the Atlantic", "cycle the length of Japan",
            "hike the Pacific Crest Trail", "visit every national park", "climb Kilimanjaro", "ride the Trans-Siberian railway"]
DREAM_ZH = ["徒步走完长城", "去看一次极光", "驾帆船横渡大西洋", "骑车穿越日本", "走一遍川藏线", "去遍所有国家公园", "爬上乞力马扎罗",
            "坐一趟西伯利亚铁路"]
FIX_EN = ["sanding down", "rewiring", "re-upholstering", "repainting", "patching up", "stripping and oiling"]
FIX_ZH = ["打磨", "重新布线", "换面料", "重新上漆", "修补", "刷油保养"]
NEW_EN = ["a Pixel phone", "an e-bike for commuting", "a standing desk", "a Kindle", "a Linux laptop", "a prepaid SIM plan",
          "a small hatchback", "a rowing machine"]
NEW_ZH = ["安卓手机", "电动自行车通勤", "升降桌", "电子阅读器", "Linux 笔记本", "预付费套餐", "一辆小两厢车", "划船机"]
SHIFT_EN = ["early", "late", "weekend", "overnight", "morning", "split"]
SHIFT_ZH = ["早班", "晚班", "周末班", "夜班", "白班", "两头班"]
TOPIC_EN = ["how budgets work", "basic statistics", "time management", "sleep hygiene", "public speaking", "loops in Python"]
TOPIC_ZH = ["预算怎么做", "基础统计", "时间管理", "睡眠习惯", "公开演讲", "Python 的循环"]

_STEPS = (1, 3, 7, 11, 13, 17, 19, 23)
PER_TEMPLATE = 8

SLOTS: dict[str, list[str]] = {
    "job_en": JOB_EN, "job_zh": JOB_ZH, "remark_en": REMARK_EN, "remark_zh": REMARK_ZH, "thing_en": THING_EN,
    "thing_zh": THING_ZH, "got_en": GOT_EN, "got_zh": GOT_ZH, "stage_en": STAGE_EN, "stage_zh": STAGE_ZH,
    "hobby_en": HOBBY_EN, "hobby_zh": HOBBY_ZH, "title_en": TITLE_EN, "title_zh": TITLE_ZH, "kind_en": KIND_EN,
    "kind_zh": KIND_ZH, "city_en": CITY_EN, "city_zh": CITY_ZH, "pet_en": PET_EN, "pet_zh": PET_ZH,
    "cond_en": COND_EN, "cond_zh": COND_ZH, "study_en": STUDY_EN, "study_zh": STUDY_ZH, "long_en": LONG_EN,
    "long_zh": LONG_ZH, "country_en": COUNTRY_EN, "country_zh": COUNTRY_ZH, "ndays_en": NDAYS_EN,
    "ndays_zh": NDAYS_ZH, "sight_en": SIGHT_EN, "sight_zh": SIGHT_ZH, "role_en": ROLE_EN, "role_zh": ROLE_ZH,
    "topic_en": TOPIC_EN, "topic_zh": TOPIC_ZH, "dream_en": DREAM_EN, "dream_zh": DREAM_ZH, "fix_en": FIX_EN,
    "fix_zh": FIX_ZH, "new_en": NEW_EN, "new_zh": NEW_ZH, "shift_en": SHIFT_EN, "shift_zh": SHIFT_ZH,
}

# (family, keep, type, [templates])
Fam = tuple[str, bool, str | None, list[str]]
FAMILIES: list[Fam] = [
    ("job_with_remark", True, "fact", [
        "I'm a {job_en}, {remark_en}", "I work as a {job_en}, {remark_en}", "I'm a {job_en} by trade, {remark_en}",
        "for work I'm a {job_en} lol, {remark_en}", "I do {job_en} work for a living, {remark_en}",
        "my job? {job_en}. {remark_en}", "I've been a {job_en} since college, {remark_en}",
        "我是做{job_zh}的，{remark_zh}", "我的工作是{job_zh}，{remark_zh}", "我在一家公司当{job_zh}，{remark_zh}",
        "我干{job_zh}这行，{remark_zh}", "说出来你别笑，我是{job_zh}，{remark_zh}", "我本职是{job_zh}，{remark_zh}",
    ]),
    ("restoring_old_thing", True, "project", [
        "I'm restoring a {thing_en} {got_en}, {stage_en}", "weekends I'm fixing up an old {thing_en} {got_en}",
        "been rebuilding a {thing_en} {got_en}, {stage_en}", "I picked up a beat-up {thing_en} cheap and I'm bringing it back to life, {stage_en}",
        "my side project is a {thing_en} {got_en}, {stage_en}", "evenings I'm repainting a secondhand {thing_en}, {stage_en}",
        "I'm slowly refurbishing a {thing_en} {got_en}",
        "我在修一辆{got_zh}{thing_zh}，{stage_zh}", "周末我在翻新一个{got_zh}{thing_zh}，{stage_zh}",
        "最近下班就在收拾那台{got_zh}{thing_zh}，{stage_zh}", "我在慢慢修复一个二手的{thing_zh}，{stage_zh}",
        "我淘了个旧{thing_zh}自己翻新，{stage_zh}",
    ]),
    ("hedged_rising_taste", True, "preference", [
        "I think I'm kinda into {hobby_en} now?", "I've sort of gotten into {hobby_en} lately?",
        "honestly I might actually like {hobby_en}?", "turns out I'm into {hobby_en}? who knew",
        "I guess {hobby_en} is kind of my thing now?", "is it weird that I really enjoy {hobby_en}?",
        "我好像有点喜欢上{hobby_zh}了？", "我最近是不是迷上{hobby_zh}了？", "感觉自己挺喜欢{hobby_zh}的？",
        "说真的我好像挺爱{hobby_zh}的？",
    ]),
    ("loved_work", True, "preference", [
        "I absolutely loved the {kind_en} {title_en}", "{title_en} is my favorite {kind_en}, I've gone back to it so many times",
        "I really liked the {kind_en} {title_en}, it's one of my all-time favorites", "I'm a huge fan of {title_en}",
        "我特别喜欢{kind_zh}{title_zh}，看了好多遍", "{title_zh}是我最喜欢的{kind_zh}", "我一直很爱{title_zh}这部{kind_zh}",
    ]),
    ("life_change_recent_marker", True, "fact", [
        "I recently moved to {city_en}", "I just moved to {city_en} last month for good", "we recently relocated to {city_en}",
        "I recently started a new job as a {job_en}", "I just got hired as a {job_en}", "I recently adopted {pet_en}",
        "we just brought home {pet_en}, she's ours now", "I was recently diagnosed with {cond_en}",
        "I found out this year that I have {cond_en}", "today I signed the lease, I live in {city_en} now",
        "我最近搬到{city_zh}了", "我上个月刚搬去{city_zh}定居", "我最近换了工作，现在做{job_zh}", "我刚入职，当{job_zh}",
        "我最近领养了{pet_zh}", "家里最近多了{pet_zh}", "我最近查出来有{cond_zh}", "今天拿到诊断，确定是{cond_zh}",
    ]),
    ("goal_project_recent_marker", True, None, [
        "lately I've been studying for {study_en}", "these days I'm preparing for {study_en}",
        "recently I started working on {long_en}", "I've been putting together {long_en} lately",
        "最近在准备{study_zh}", "我这段时间在备考{study_zh}", "最近开始做{long_zh}", "这阵子我一直在弄{long_zh}",
    ]),
    ("travel_dream_goal", True, "goal", [
        "I'd love to {dream_en} one day", "someday I really want to {dream_en}", "it's always been a dream of mine to {dream_en}",
        "before I turn fifty I want to {dream_en}", "one of these years I'm going to {dream_en}", "bucket list: {dream_en}",
        "我一直想有一天能{dream_zh}", "这辈子一定要{dream_zh}", "我的心愿是以后能{dream_zh}", "总有一天我要{dream_zh}",
    ]),
    ("weekend_restoring", True, "project", [
        "weekends I'm {fix_en} a {thing_en} I got secondhand, {stage_en}", "evenings I'm {fix_en} an old {thing_en}, {stage_en}",
        "most Saturdays I'm out in the garage {fix_en} a {thing_en} {got_en}", "lately I'm {fix_en} a {thing_en} I bought used, {stage_en}",
        "周末我都在{fix_zh}一个二手的{thing_zh}，{stage_zh}", "晚上下班回来我就{fix_zh}那个旧{thing_zh}，{stage_zh}",
    ]),
    ("weekend_habit", True, "preference", [
        "Saturdays are for {hobby_en}", "my weekends mostly go to {hobby_en}", "Sunday mornings are {hobby_en}, rain or shine",
        "weekends are usually {hobby_en} if it's not too cold", "most weekends you'll find me {hobby_en}",
        "free weekends = {hobby_en}", "周末基本都用来{hobby_zh}", "每个周六上午雷打不动去{hobby_zh}",
        "天气好的周末我一般去{hobby_zh}", "我的周末差不多都给了{hobby_zh}",
    ]),
    ("update_now", True, "fact", [
        "switched over to {new_en} a while back, that's what I use now", "I use {new_en} now, got rid of the old one",
        "ditched my old one, it's {new_en} for me now", "finally traded up, I'm on {new_en} now",
        "changed jobs, I'm on the {shift_en} shift now", "they moved me to the {shift_en} shift, that's my schedule now",
        "现在改用{new_zh}了，之前那个不用了", "换成{new_zh}了，现在一直用这个", "我现在上{shift_zh}了，作息全变了",
        "后来换了，现在用的是{new_zh}", "公司把我调到{shift_zh}了，以后就是这个点",
    ]),
    ("trip_logistics", False, None, [
        "the flight lands late so day one in {country_en} is basically gone", "I'm renting a car for the first part of the trip",
        "we fly into {country_en} and then take a night train south", "{ndays_en} there, then we see how the money holds up",
        "I still have to print the train tickets and sort out travel insurance", "plan is {sight_en} on day two if the weather is ok",
        "我们先飞{country_zh}，然后坐夜车往南走", "落地以后先去酒店放行李", "车我打算到了再租", "第二天天气好的话去{sight_zh}",
        "这趟{country_zh}差不多{ndays_zh}，钱够的话再多待两天", "我还得把车票打印出来，再买个旅行保险",
    ]),
    ("trivial_remark", False, None, [
        "no way, a {role_en} in real life", "huh, I wouldn't have guessed people still do {role_en} work",
        "I wouldn't last a day as a {role_en}", "a {role_en}? that's a first for me", "being a {role_en} must make for good stories",
        "哇，{role_zh}啊，好少见", "我可干不了{role_zh}这活", "{role_zh}？头一回听说身边有人干这个", "当{role_zh}应该有不少故事吧",
    ]),
    ("lost_referent_fragment", False, None, [
        "yeah I'd go back there again for sure", "mine looks kind of like that one", "it reminds me of the one we had before",
        "same here, most days anyway", "that part always gets me", "I'd probably pick the second one", "the blue one, definitely",
        "it's better with the lights off honestly",
        "我也差不多是这样", "那个我以前也试过", "跟我家那个挺像的", "第二个更合我心意", "那段每次看都有感觉", "还是蓝色那个好",
    ]),
    ("advice_resolution", False, None, [
        "alright, I'll give {topic_en} another go tonight", "fair point, I'll stop overthinking it",
        "ok I'll look into {topic_en} more seriously", "guess I'll sleep on it and see how I feel",
        "I'll watch a couple of videos on {topic_en} then", "mm ok, I'll try to go easier on myself this week",
        "好，我今晚再试试{topic_zh}", "行吧，我不想那么多了", "那我先去看两个讲{topic_zh}的视频", "嗯，这周我对自己宽容一点",
        "我回头再琢磨琢磨{topic_zh}", "先睡一觉再说吧",
    ]),
]


def _goal_or_project(text: str) -> str:
    """The typed family of mixed rows: studying for an exam is a goal, making a thing a project."""
    return "goal" if any(w in text for w in ("studying", "preparing", "准备", "备考")) else "project"


def _typed(text: str, keep: bool, memory_type: str | None) -> str | None:
    """A kept row of a mixed family (no type of its own) is typed by its text."""
    return memory_type if memory_type or not keep else _goal_or_project(text)


def prec24b_template_rows() -> list[dict[str, Any]]:
    """Every family's templates filled ``PER_TEMPLATE`` times (distinct texts only), in a fixed order;
    ``source`` is ``template_prec24b``."""
    return family_rows(FAMILIES, SLOTS, _STEPS, PER_TEMPLATE, "template_prec24b", typed=_typed)
