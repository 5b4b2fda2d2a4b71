# ruff: noqa: E501  (data: hand-written templates and slot values, one family per block)
"""A second set of hand-written chat-style templates for the utterance corpus (issue 24, ``h-quality24p``).

Written for this repository on 2026-12-05 by the ``h-quality24p`` helper (an AI agent session), with
slot values and sentence shapes of its own, none copied or paraphrased from an evaluation set (the dev
cases, the team's held-out cases, the second dev set ``bench/data/dev2_cases.jsonl``), the issue texts
or the demo samples (``training/build_utterance_corpus.py --check`` searches every row in them). The
first set (``utterance_templates.py``) stays as it is; this one adds what the first runs showed the
gate lacking: hedged and habitual tastes in many more shapes, standing instructions with their object
and no "from now on", personal projects of many kinds, the clauses of a self-introduction ("quick intro:
a welder, 29, based in Tulsa"), and as drops: sarcasm, requests for code and one-off tasks, the day's
events, thanks, moods, and fragments without their referent ("been doing it for years now").

Expansion is deterministic like the first set's: template ``t`` takes, for its ``k``-th row, slot
value ``(k * step_s + t) % len(values)`` of each slot ``s`` (co-prime steps), ``PER_TEMPLATE`` rows at
most, distinct texts only.
"""

from __future__ import annotations

from typing import Any

# ---------------------------------------------------------------------------------------------
# slot values (new ones: the first set's lists are not reused)
HOBBY_EN = ["salsa dancing", "geocaching", "restoring old radios", "playing the harmonica", "disc golf",
            "watercolor sketching", "competitive sudoku", "foraging mushrooms", "roller skating",
            "making hot sauce", "stargazing", "calligraphy", "indoor rowing", "speedcubing",
            "volunteering at the animal shelter", "beekeeping", "magic tricks", "cold-water swimming"]
HOBBY_ZH = ["跳广场舞", "玩魔方", "钓路亚", "写书法", "做皮具", "种兰花", "打台球", "玩飞盘", "剪纸", "看星星",
            "唱昆曲", "做木工", "玩滑板", "织毛衣", "拍胶片", "跑越野", "泡温泉", "学茶艺"]
DISH_EN = ["the pad see ew", "a spicy tuna roll", "the veggie burger", "shakshuka", "the fish tacos",
           "a flat white", "the mushroom risotto", "chicken katsu", "an iced americano", "the falafel wrap"]
DISH_ZH = ["肠粉", "凉皮", "烤冷面", "酸辣粉", "清汤面", "卤肉饭", "生煎", "烧麦", "冰美式", "杨枝甘露"]
CHOICE_EN = ["the front row", "a standing desk", "the night bus", "paper books over kindle", "decaf",
             "the bottom bunk", "manual transmission", "a hardshell suitcase", "the corner table",
             "mechanical pencils", "the scenic route", "window blinds open"]
CHOICE_ZH = ["靠窗的位置", "高铁二等座", "手动挡", "纸质笔记本", "无糖可乐", "双肩背包", "早班公交", "静音模式",
             "深色主题", "竖屏看视频"]
STYLE_ZH2 = ["工装裤配T恤", "一身黑", "棉麻的衣服", "运动鞋加卫裤", "简单的白衬衫", "oversize的外套"]
STYLE_EN = ["all black", "flannel and jeans", "linen everything", "sneakers with everything",
            "plain tees", "oversized hoodies"]
GENRE_EN = ["lo-fi", "bluegrass", "k-pop", "synthwave", "old soul records", "film scores", "city pop",
            "sea shanties"]
GENRE_ZH = ["民谣", "古风歌", "后摇", "爵士钢琴", "粤语老歌", "电子乐", "说唱", "轻音乐"]
HABIT_ZH = ["睡前看半小时书", "早上喝一杯温水", "饭后散步二十分钟", "周日晚上做下周计划", "每天写两行日记"]
HABIT_EN = ["read before bed", "walk after dinner", "stretch first thing in the morning",
            "plan the week on sunday nights", "journal a few lines at night"]

JOB2_EN = ["welder", "speech therapist", "air traffic controller", "pastry chef", "actuary", "farrier",
           "park ranger", "crane operator", "sign language interpreter", "hospice nurse", "glassblower",
           "radiology tech", "tour bus driver", "piano tuner", "arborist", "patent clerk"]
JOB2_ZH = ["电焊工", "康复治疗师", "列车乘务员", "私人教练", "精算师", "兽医助理", "导游", "塔吊司机", "手语翻译",
           "中医推拿师", "调音师", "园林工人", "审计助理", "外贸业务员", "小学美术老师", "房产中介"]
CITY2_EN = ["Tulsa", "Bergen", "Adelaide", "Winnipeg", "Cork", "Nagoya", "Bilbao", "Omaha", "Graz",
            "Wellington", "Brno", "Savannah", "Quebec City", "Aarhus"]
CITY2_ZH = ["洛阳", "桂林", "无锡", "泉州", "绵阳", "扬州", "秦皇岛", "宜昌", "丽江", "潍坊", "佛山", "赣州",
            "呼和浩特", "乌鲁木齐"]
AGE_EN = ["27", "31", "45", "52", "38", "29", "60", "23"]
AGE_ZH = ["二十七岁", "三十一岁", "四十五了", "快五十了", "二十九", "刚满二十三"]
KIDS_EN = ["one kid", "two kids", "three teenagers", "a toddler", "no kids yet", "a newborn"]
REL_EN = ["my husband", "my wife", "my girlfriend", "my boyfriend", "two roommates", "my mom"]

UNITS2_EN = ["miles and pounds", "the metric system", "centigrade", "military time", "yen prices",
             "kilojoules not calories", "dd/mm/yyyy dates"]
UNITS2_ZH = ["公里和公斤", "摄氏温度", "24小时制时间", "人民币价格", "年月日的日期格式"]
WORDS2_EN = ["em dashes", "the word 'synergy'", "smiley faces", "rhetorical questions", "exclamation points",
             "marketing speak", "filler phrases like 'in today's world'"]
WORDS2_ZH = ["网络热梗", "表情符号", "客套话", "排比句", "感叹号", "英文缩写"]
FORMAT_EN = ["give me a tl;dr line first", "keep it to three bullets", "put the answer before the explanation",
             "use numbered steps", "end with a one-line summary", "keep it under 100 words",
             "show the math step by step", "include a source link for every claim"]
FORMAT_ZH = ["先给结论再解释", "分点列出来，不超过五点", "每段不超过三句话", "最后加一句总结", "用表格对比",
             "先写一句话摘要"]
DOMAIN2 = [("code reviews", "point out security issues first"), ("travel plans", "include train options before flights"),
           ("workout plans", "keep my bad knee in mind"), ("book recs", "skip anything over 400 pages"),
           ("budgets", "round everything to whole dollars"), ("my essays", "only fix grammar, don't rewrite"),
           ("recipes", "list the prep time up top"), ("gift ideas", "keep them under 50 bucks")]
DOMAIN2_ZH = [("周报", "只改错别字，别动结构"), ("旅行计划", "把高铁方案放在前面"), ("食谱", "标出每道菜的热量"),
              ("健身计划", "避开伤膝盖的动作"), ("合同条款", "先标出对我不利的地方"), ("代码", "变量名用英文全称"),
              ("理财问题", "先讲风险再讲收益"), ("论文摘要", "控制在两百字以内")]
CODE_RULE_EN = ["add type hints", "use tabs not spaces", "comment every function", "stick to python 3.11",
                "avoid external libraries", "write tests too"]

PROJ2_EN = ["a board game about tide pools", "a quilt from my dad's old work shirts",
            "a field guide to the lichens in our park", "an oral history of my grandparents' village",
            "a 1970s moped that barely runs", "a little free library box for our block",
            "a fan translation of a korean webcomic", "a budgeting spreadsheet for my parents' shop",
            "a photo zine about the city's bus stops", "a hand-drawn trail map of our valley",
            "a vintage sewing machine i found at a flea market", "a family tree going back five generations",
            "a short documentary about the last cobbler in town", "a kit-built harpsichord",
            "a tabletop rpg campaign setting", "a rain garden in the backyard"]
PROJ2_ZH = ["给村里的老人录一本口述史", "修一台八十年代的老式缝纫机", "给家乡画一张手绘旅游地图", "自己做一个记录方言的公众号",
            "把爷爷的老照片扫描整理成相册", "在楼顶搭一个小温室", "翻修一辆老款的二八自行车", "给孩子写一本睡前故事集",
            "做一个帮社区老人买菜的小程序", "拍一部关于菜市场的纪录短片", "整理一份我们镇上的老店地图", "自己设计一套桌游"]
PROG_EN = ["working on", "chipping away at", "putting together", "slowly making", "fixing up", "building"]

ANNOY_EN = ["the printer jams right before a meeting", "my train gets cancelled", "the wifi dies mid-call",
            "someone replies-all to the whole company", "it rains on my day off", "the self-checkout yells at me",
            "my neighbor starts drilling at 7am", "the bus skips my stop"]
ANNOY_ZH = ["周末被叫回去加班", "快递又送错了", "地铁挤成沙丁鱼", "电脑在交稿前死机", "楼上大清早装修", "排队两小时办个证",
            "开会开到饭点", "下班前老板来个新需求"]
CHORE_EN = ["two-hour status meeting", "tax form", "dentist drill session", "group project", "mandatory team-building day",
            "45 minutes on hold"]

TASK2_EN = ["dedupe a list of emails", "convert a csv to json", "resize a folder of images",
            "find the longest word in a file", "ping a url every minute", "count words in a pdf",
            "sort a dict by value", "validate phone numbers"]
TASK2_ZH = ["把Excel里的重复行删掉", "统计一段文字的字数", "把图片批量压缩", "抓取一个网页的标题", "把CSV转成JSON",
            "计算两个日期相差几天", "检查邮箱格式对不对"]
LANG2 = ["python", "js", "bash", "go", "kotlin", "c#", "ruby", "php"]
ONEOFF_EN = ["find me a cheap flight to boston", "what's a good name for a goldfish",
             "draft a birthday message for my aunt", "proofread this cover letter",
             "give me 5 ideas for a team lunch", "pick a movie for tonight", "convert 30 euros to dollars",
             "explain how mortgages work", "make me a grocery list for tacos"]
ONEOFF_ZH = ["帮我查一下明天去广州的高铁", "给我想几个团建的点子", "帮我润色一下这段自我介绍", "推荐一部今晚看的电影",
             "帮我算一下房贷月供", "帮我列个露营要带的东西", "给我讲讲什么是通货膨胀"]
DAY_EN = ["went for a jog by the canal", "had a burrito for lunch", "cleaned out the fridge", "got my hair cut",
          "took the dog to the vet", "watched half a movie and fell asleep", "went grocery shopping",
          "finished a puzzle", "called my grandma", "sat in the park for a bit"]
DAY_ZH = ["去河边走了一圈", "中午吃了碗米线", "把冰箱清理了一遍", "去剪了头发", "带狗去打疫苗", "看了半部电影就睡着了",
          "去超市囤了点菜", "拼完了一幅拼图", "给奶奶打了个电话", "在公园坐了一会儿"]
MOOD2_EN = ["kinda wiped", "super anxious", "lowkey sad", "cranky", "burnt out", "a little lonely", "restless",
            "so done"]
MOOD2_ZH = ["有点emo", "心累", "烦躁得很", "有点失落", "特别困", "莫名低落", "焦虑爆了", "提不起劲"]

THING2_ZH = ["写字", "记笔记", "通勤", "听歌", "拍照", "做饭", "看书", "打游戏"]
THING2_EN = ["notes", "coffee", "commuting", "music", "travel", "work bags"]
REL2_EN = ["roommate", "sister", "husband", "coworker", "best friend", "dad", "girlfriend", "son"]
REL2_ZH = ["室友", "姐姐", "老公", "同事", "闺蜜", "爸爸", "女朋友", "儿子"]

WORK_EN = ["Past Lives", "Hades", "The Martian", "Severance", "Fleabag", "Interstellar", "Celeste", "The Overstory",
           "Outer Wilds", "Moonlight"]
WORK_ZH = ["漫长的季节", "繁花", "流浪地球", "山海情", "长安的荔枝", "隐秘的角落", "人世间", "我的阿勒泰"]
ADJ_EN = ["clever", "gorgeous", "weird", "moving", "funny", "tense"]
KIND_EN = ["film", "show", "game", "book", "story"]

_STEPS = (1, 3, 7, 11, 13, 17, 19, 23)
PER_TEMPLATE = 8

SLOTS: dict[str, list[str]] = {
    "hobby_en": HOBBY_EN, "hobby_zh": HOBBY_ZH, "dish_en": DISH_EN, "dish_zh": DISH_ZH,
    "choice_en": CHOICE_EN, "choice_zh": CHOICE_ZH, "style_zh": STYLE_ZH2, "style_en": STYLE_EN,
    "genre_en": GENRE_EN, "genre_zh": GENRE_ZH, "habit_zh": HABIT_ZH, "habit_en": HABIT_EN,
    "job_en": JOB2_EN, "job_zh": JOB2_ZH, "city_en": CITY2_EN, "city_zh": CITY2_ZH,
    "city2_en": CITY2_EN[5:] + CITY2_EN[:5], "city2_zh": CITY2_ZH[5:] + CITY2_ZH[:5], "age_en": AGE_EN,
    "age_zh": AGE_ZH, "kids_en": KIDS_EN, "rel_en": REL_EN, "units_en": UNITS2_EN, "units_zh": UNITS2_ZH,
    "words_en": WORDS2_EN, "words_zh": WORDS2_ZH, "format_en": FORMAT_EN, "format_zh": FORMAT_ZH,
    "code_rule_en": CODE_RULE_EN, "proj_en": PROJ2_EN, "proj_zh": PROJ2_ZH, "prog_en": PROG_EN,
    "annoy_en": ANNOY_EN, "annoy_zh": ANNOY_ZH, "chore_en": CHORE_EN, "task_en": TASK2_EN,
    "task_zh": TASK2_ZH, "lang": LANG2, "oneoff_en": ONEOFF_EN, "oneoff_zh": ONEOFF_ZH, "day_en": DAY_EN,
    "day_zh": DAY_ZH, "mood_en": MOOD2_EN, "mood_zh": MOOD2_ZH, "thing_zh": THING2_ZH, "thing_en": THING2_EN,
    "rel2_en": REL2_EN, "rel2_zh": REL2_ZH, "work_en": WORK_EN, "work_zh": WORK_ZH, "adj_en": ADJ_EN,
    "kind_en": KIND_EN,
}

# (family, keep, type, [templates])
Fam = tuple[str, bool, str | None, list[str]]
FAMILIES: list[Fam] = [
    ("preference_hedged_habitual", True, "preference", [
        "idk, i think i'm kinda into {hobby_en} these days", "i guess {hobby_en} is sort of my thing now",
        "{hobby_en} really took hold of me this year", "ngl i'm low-key hooked on {hobby_en}",
        "i'd say i'm more of a {genre_en} person", "mostly {genre_en} on my playlists, always has been",
        "i pretty much always get {dish_en}", "{dish_en} is my go-to, every single time",
        "if there's a choice i end up with {choice_en} lol", "{choice_en} for me, every time",
        "i usually go for {choice_en} if i can", "not obsessed or anything but i do like {hobby_en}",
        "i tend to unwind with {hobby_en}", "my default is {choice_en}, just works for me",
        "i basically live in {style_en}", "i try to {habit_en}, it's a thing i've always done",
        "i'm the kind of person who likes {hobby_en} i suppose", "honestly {hobby_en} is what i do to relax",
        "我好像还挺喜欢{hobby_zh}的", "{hobby_zh}大概算是我的爱好吧", "我一般都点{dish_zh}，雷打不动",
        "用惯了{choice_zh}，换别的不习惯", "我平常穿衣服多半是{style_zh}", "周末我多数时候在{hobby_zh}",
        "说不上多爱，但{hobby_zh}挺解压的", "我属于那种爱{hobby_zh}的人吧", "听歌的话我更偏向{genre_zh}",
        "我每次都选{choice_zh}，习惯了", "我习惯{habit_zh}，好多年了", "我应该是比较喜欢{genre_zh}的",
        "emm 我可能算是{hobby_zh}爱好者？", "我基本上每次都点{dish_zh}",
        "我一般都 pick {choice_en}", "周末 usually 会去{hobby_zh}", "我 kind of 喜欢{hobby_zh}",
        "{hobby_en} 是我最近最上头的事",
    ]),
    ("constraint_standing", True, "constraint", [
        "moving forward, {units_en} please", "going forward, use {units_en} with me",
        "from here on out keep {words_en} out of my drafts", "no {words_en} in anything you write for me pls",
        "when you summarize stuff for me, {format_en}", "for future answers, {format_en}",
        "whenever i ask about {domain_en}, {do_en}", "when you help me with {domain_en}, {do_en}",
        "any time you write code for me, {code_rule_en}", "heads up for later: {format_en}",
        "just a standing thing: {units_en} only", "default to {units_en} when you answer me",
        "please keep {words_en} out of my emails, always",
        "以后你帮我看{domain_zh}的时候，{do_zh}", "每次帮我弄{domain_zh}，都{do_zh}",
        "我问你{domain_zh}相关的问题时，{do_zh}", "今后回答我的时候{format_zh}", "回答我请{format_zh}，一直这样",
        "给我写东西别用{words_zh}", "跟我说数字的时候统一用{units_zh}", "你给我的{domain_zh}，{do_zh}",
        "以后凡是{domain_zh}，记得{do_zh}", "给我回复不要带{words_zh}",
        "以后 {domain_zh} 的事，{do_zh}", "reply 我的时候 {format_zh}",
    ]),
    ("project_ongoing", True, "project", [
        "i've been {prog_en} {proj_en}", "working on {proj_en} in my spare time, slow but steady",
        "my current thing is {proj_en}", "these days i'm deep into {proj_en}",
        "side project: {proj_en}, maybe a third done", "been at {proj_en} since the summer",
        "evenings are for {proj_en} lately", "still {prog_en} {proj_en}, it's taking forever lol",
        "我最近在{proj_zh}", "业余时间都在{proj_zh}，进度三分之一", "这一年我一直在{proj_zh}",
        "手上在忙一个事：{proj_zh}", "下班回家就{proj_zh}，慢慢来", "我在{proj_zh}，还差一点收尾",
        "最近 side project 是{proj_zh}", "我这阵子在 {prog_en} {proj_en}",
    ]),
    ("self_intro", True, "fact", [
        "quick intro: {job_en}, {age_en}, based in {city_en}", "about me: {job_en}, live in {city_en}, {kids_en}",
        "{job_en}, {age_en}", "{job_en} in {city_en}", "live in {city_en} with {rel_en}",
        "based in {city_en}, originally from {city2_en}", "{age_en}, {job_en}, {kids_en}",
        "by day i'm a {job_en}", "{job_en} by trade", "i'm a {job_en} out of {city_en}",
        "been a {job_en} for about ten years", "home base is {city_en} these days",
        "简单介绍下自己：{job_zh}，住{city_zh}，{age_zh}", "我的情况：在{city_zh}做{job_zh}，老家{city2_zh}",
        "{job_zh}，{age_zh}", "在{city_zh}上班，做{job_zh}", "常驻{city_zh}", "老家{city2_zh}的，现在在{city_zh}",
        "我是个{job_zh}", "干{job_zh}这行快八年了", "我在{city_zh}定居了",
        "我是 {job_en}，base 在{city_zh}",
    ]),
    ("project_ongoing", True, "project", [
        "这几个月一直在{proj_zh}，纯属兴趣", "我在{proj_zh}，已经弄了小半年了", "{proj_zh}，打算做完送给朋友",
        "我这半年业余都在{proj_zh}，还差最后一点", "最近迷上了{proj_zh}，每天下班弄一会儿", "我自己在{proj_zh}，没人催，慢慢做",
        "在家{proj_zh}，进度大概一半", "i'm {prog_en} {proj_en}, just for fun, maybe i'll gift it",
    ]),
    ("preference_hedged_habitual", True, "preference", [
        "{thing_zh}的话我一直都用{choice_zh}，别的用着别扭", "我一直都是{choice_zh}，换了反而不习惯", "出门我习惯了{choice_zh}",
        "吃饭我一般都点{dish_zh}，别的不太爱", "for {thing_en} i always stick with {choice_en}, anything else feels off",
    ]),
    ("preference_work_liked", True, "preference", [
        'I really enjoyed "{work_en}", such a {adj_en} {kind_en}', 'loved "{work_en}", {adj_en} {kind_en} honestly',
        'just finished "{work_en}" and loved it', '"{work_en}" was so good, one of my favorites now',
        'i adored "{work_en}", easily a top {kind_en} for me', "我特别喜欢《{work_zh}》，太好看了",
        "《{work_zh}》真的好看，我超爱", "最近看完《{work_zh}》，太喜欢了", '我超爱 "{work_en}" 这部',
    ]),
    ("third_party_relationship", True, "fact", [
        "my {rel2_en} is a {job_en}, works crazy hours", "my {rel2_en} is vegetarian so we cook a lot of beans",
        "my {rel2_en} is obsessed with {hobby_en}", "my {rel2_en} lives in {city_en}", "my {rel2_en} can't eat gluten",
        "我{rel2_zh}是{job_zh}，经常加班", "我{rel2_zh}不吃辣，所以我们家做菜都很清淡", "我{rel2_zh}特别迷{hobby_zh}",
        "我{rel2_zh}住在{city_zh}", "我{rel2_zh}对海鲜过敏", "我 {rel2_en} 是个{job_zh}，作息跟我反着",
    ]),
    ("sarcasm", False, None, [
        "i just LOVE when {annoy_en}", "oh great, another {chore_en}, exactly what i wanted",
        "nothing better than when {annoy_en}, said no one ever", "best. day. ever. {annoy_en} again",
        "my absolute favorite thing is when {annoy_en} /s", "wow i adore a good {chore_en}, can't get enough",
        "so thrilled that {annoy_en}, really made my week", "love love LOVE a {chore_en} on a friday",
        "我简直太喜欢{annoy_zh}了，真的", "{annoy_zh}，人生巅峰啊", "哇，又{annoy_zh}，好幸福哦",
        "我最爱{annoy_zh}了呢", "{annoy_zh}真是太棒了，谢谢生活", "能{annoy_zh}真是我的荣幸呵呵",
    ]),
    ("task_request", False, None, [
        "write a {lang} function that will {task_en}", "could you whip up {lang} code to {task_en}",
        "need a quick {lang} snippet to {task_en}", "how do i {task_en} in {lang}?",
        "show me {lang} for how to {task_en}", "can u {oneoff_en}", "{oneoff_en} pls", "quick favor: {oneoff_en}",
        "帮我写个脚本{task_zh}", "用{lang}实现一下：{task_zh}", "给我一段能{task_zh}的{lang}代码",
        "{oneoff_zh}", "能不能{oneoff_zh}", "麻烦{oneoff_zh}，谢谢", "帮我用 {lang} {task_zh}",
    ]),
    ("day_event", False, None, [
        "just {day_en}", "{day_en} earlier, pretty chill", "this morning i {day_en}", "ok so i {day_en} today",
        "刚{day_zh}", "今天{day_zh}", "下午{day_zh}，有点累", "早上{day_zh}，然后就回家了",
        "today i {day_en}, 还不错", "刚刚{day_zh} lol",
    ]),
    ("mood_transient", False, None, [
        "feeling {mood_en} tonight", "i'm {mood_en} today ngl", "ugh, {mood_en} this week", "so {mood_en} rn",
        "今天{mood_zh}", "这两天{mood_zh}", "唉 {mood_zh}", "今天真的 {mood_en}",
    ]),
    ("thanks_ack", False, None, [
        "ty, that's perfect", "omg thank u", "legend, thanks", "that works, cheers", "ok cool got it",
        "appreciate it a ton", "awesome, will do", "yup makes sense", "谢谢你呀", "收到，感谢", "好嘞，懂了",
        "okk 谢啦", "明白了，辛苦了", "太好了，就这样", "thx bro", "nice nice 谢谢",
    ]),
    ("chat_lead", False, None, [
        "ok a short intro then", "so, a bit about me", "some background first", "context real quick", "about me lol",
        "我先来个自我介绍吧", "hi 我先自我介绍一下哈", "说下我的情况", "简单讲讲我自己吧", "背景是这样的",
        "ok so here's the deal", "嗯 先说一下背景", "let me introduce myself real quick", "介绍一下我自己哈",
    ]),
    ("vague_no_referent", False, None, [
        "kinda addictive once you start", "been doing it for years now", "they're the best honestly", "same tbh",
        "that one's my favorite", "i do it every weekend", "so calming, seriously", "still at it after all this time",
        "还挺好玩的", "我也是", "一直都这样", "每周都去", "特别解压", "就那样吧", "yeah every time lol",
        "这个我超爱",
    ]),
]


def _fill(template: str, k: int, t: int) -> str:
    names = sorted({part.split("}")[0] for part in template.split("{")[1:]})
    values: dict[str, str] = {}
    for s, name in enumerate(names):
        if name in ("domain_en", "do_en"):
            dom, do = DOMAIN2[(k * _STEPS[s % 8] + t) % len(DOMAIN2)]
            values.update(domain_en=dom, do_en=do)
        elif name in ("domain_zh", "do_zh"):
            dom, do = DOMAIN2_ZH[(k * _STEPS[s % 8] + t) % len(DOMAIN2_ZH)]
            values.update(domain_zh=dom, do_zh=do)
        else:
            vals = SLOTS[name]
            values[name] = vals[(k * _STEPS[s % 8] + t) % len(vals)]
    return template.format(**values)


def chat_template_rows() -> list[dict[str, Any]]:
    """Every family's templates filled ``PER_TEMPLATE`` times (distinct texts only), in a fixed order;
    ``source`` is ``template_chat``."""
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for family, keep, memory_type, templates in FAMILIES:
        for t, template in enumerate(templates):
            n = PER_TEMPLATE if "{" in template else 1
            for k in range(n):
                text = _fill(template, k, t)
                if text in seen:
                    continue
                seen.add(text)
                out.append({"text": text, "keep": keep, "type": memory_type, "family": family,
                            "relation": None, "source": "template_chat"})
    return out
