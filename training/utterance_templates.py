# ruff: noqa: E501  (data: hand-written templates and slot values, one family per block)
"""Hand-written templates x hand-written slot values for the utterance corpus and the pair corpus.

Written for this repository (December 2026, the ``h-learn24`` helper), none copied or paraphrased
from an evaluation set, the issue texts or the demo samples (``training/build_utterance_corpus.py``
checks every generated row against them). Expansion is deterministic: template ``t`` of a family
takes, for its ``k``-th row, slot value ``(k * step_s + t) % len(values)`` of each slot ``s``
(co-prime steps), so rows vary without any random generator.

``template_rows()``: single utterances (keep/drop, type, family, relation) for the classifier.
``pair_rows()``: (old memory, new statement, relation) pairs for the update/retraction model, relation
one of ``supersede``, ``retract``, ``refine``, ``unrelated``.
"""

from __future__ import annotations

import itertools
from typing import Any

# ---------------------------------------------------------------------------------------------
# slot values
CITY_ZH = ["成都", "杭州", "西安", "青岛", "厦门", "长沙", "昆明", "大连", "苏州", "南京", "武汉", "重庆",
           "合肥", "贵阳", "哈尔滨", "深圳", "珠海", "兰州", "南宁", "烟台"]
CITY_EN = ["Denver", "Portland", "Austin", "Leeds", "Lyon", "Osaka", "Melbourne", "Toronto", "Dublin",
           "Lisbon", "Boise", "Tucson", "Glasgow", "Halifax", "Perth", "Porto", "Raleigh", "Malmo",
           "Valencia", "Calgary"]
JOB_ZH = ["幼儿园老师", "外卖站长", "牙科护士", "仓库管理员", "景观设计师", "保险理赔员", "地铁司机", "婚礼策划",
          "实验室技术员", "中学物理老师", "游戏测试", "民宿老板", "宠物美容师", "法务专员", "数据标注组长",
          "面包师", "空调维修工", "图书编辑"]
JOB_EN = ["dental hygienist", "bus driver", "payroll clerk", "sound engineer", "zookeeper", "court reporter",
          "line cook", "wind turbine technician", "school librarian", "claims adjuster", "tattoo artist",
          "hvac installer", "museum guide", "locksmith", "paramedic", "UX researcher", "barista trainer",
          "forklift operator"]
COMPANY_EN = ["a logistics startup", "the county hospital", "a bike shop", "a small law firm", "the city zoo",
              "a solar company", "a bakery downtown", "a game studio", "the public library", "a vet clinic"]
COMPANY_ZH = ["一家物流公司", "区医院", "一家车行", "一家律所", "动物园", "一家新能源公司", "一家烘焙店", "一个游戏工作室",
              "市图书馆", "一家宠物医院"]
PET_ZH = [("猫", "豆包"), ("柯基", "土豆"), ("仓鼠", "芝麻"), ("鹦鹉", "阿黄"), ("兔子", "雪球"), ("边牧", "可乐"),
          ("乌龟", "慢慢"), ("布偶猫", "奶盖"), ("金毛", "大福"), ("柴犬", "小米")]
PET_EN = [("cat", "Miso"), ("beagle", "Pickles"), ("rabbit", "Clover"), ("parrot", "Kiwi"), ("husky", "Bolt"),
          ("gecko", "Noodle"), ("tabby", "Waffles"), ("greyhound", "Pepper"), ("hamster", "Bean"),
          ("border collie", "Juniper")]
COND_ZH = ["二型糖尿病", "甲减", "哮喘", "腰椎间盘突出", "过敏性鼻炎", "高血压", "乳糖不耐受", "偏头痛", "焦虑症", "痛风"]
COND_EN = ["type 2 diabetes", "celiac disease", "asthma", "a herniated disc", "hypothyroidism", "ADHD",
           "high blood pressure", "migraines", "sleep apnea", "IBS"]
ACT_ZH = ["爬山", "钓鱼", "做手账", "拼乐高", "打羽毛球", "看悬疑剧", "弹尤克里里", "养多肉", "逛菜市场", "写毛笔字",
          "玩桌游", "骑车兜风", "烤面包", "听播客", "打麻将", "练瑜伽"]
ACT_EN = ["bouldering", "birdwatching", "baking sourdough", "doing crosswords", "playing chess online",
          "thrift shopping", "kayaking", "watching old westerns", "building model trains", "gardening",
          "playing pickleball", "journaling", "pottery", "trail running", "karaoke", "fly fishing"]
THING_ZH = ["机械键盘", "安卓手机", "钢笔", "纸质书", "五笔输入法", "双肩包", "Vim", "Excel", "保温杯", "搪瓷杯"]
THING_EN = ["a paper planner", "dark mode", "the window seat", "oat milk", "the stairs", "a fountain pen",
            "black coffee", "the aisle seat", "Firefox", "vinyl records", "public transit", "the early shift"]
STYLE_ZH = ["运动风", "黑白灰", "宽松的卫衣", "格子衬衫", "帆布鞋", "素色的裙子"]
FOOD_ZH = ["麻辣烫", "牛肉面", "饺子", "螺蛳粉", "煲仔饭", "炸鸡", "酸菜鱼", "沙拉", "炒饭", "馄饨"]
FOOD_EN = ["tacos", "ramen", "a burrito bowl", "leftover pizza", "pho", "a grilled cheese", "pad thai",
           "a poke bowl", "chili", "pancakes"]
FILM_EN = ["a horror movie", "the new Pixar film", "a documentary", "some old sitcom reruns", "the game"]
FILM_ZH = ["一部恐怖片", "新上映的动画", "一个纪录片", "老电视剧", "球赛"]
MOOD_EN = ["meh", "kinda wiped out", "super restless", "a bit down", "weirdly hyped", "grumpy", "drained"]
MOOD_ZH = ["有点丧", "超级烦躁", "累得不想动", "莫名开心", "心里空空的", "有点焦虑", "懒洋洋的"]
PLACE_EN = ["the DMV", "airport security", "the pharmacy line", "traffic", "a two hour meeting",
            "the doctor's waiting room", "customer service hold music"]
PLACE_ZH = ["堵车", "排队挂号", "开三个小时的会", "等外卖", "改第十版方案", "周末加班", "挤早高峰地铁"]
TASK_EN = ["parse this CSV and sum column B", "rename every file in a folder", "scrape a weather page",
           "validate email addresses", "merge two sorted lists", "convert a date string to ISO",
           "count words in a text file", "resize a batch of images"]
LANG_EN = ["python", "bash", "javascript", "SQL", "rust", "go"]
TASK_ZH = ["把这个列表去重", "读取一个Excel并求和", "批量重命名文件", "判断一个数是不是质数", "把时间戳转成日期",
           "统计一段文字的词频", "合并两个字典"]
LANG_ZH = ["Python", "Java", "JS", "SQL", "Go"]
UNITS_EN = ["metric units", "Celsius", "kilometers", "24-hour time", "euros", "grams not cups"]
WORDS_EN = ["emojis", "exclamation marks", "corporate buzzwords", "the word 'delve'", "slang", "hashtags"]
DOMAIN_ZH = [("菜谱", "把热量标出来"), ("合同", "先把风险点列出来"), ("论文", "先给一句话总结"),
             ("旅行攻略", "把预算写清楚"), ("代码", "注释写中文"), ("新闻", "只说要点"), ("邮件", "语气客气一点"),
             ("体检报告", "用大白话解释")]
PROJ_EN = ["a zine about our neighborhood's old shops", "a cargo bike from spare parts",
           "a family recipe book for my cousins", "a podcast about bad sci-fi movies", "a treehouse for my nephews",
           "a walking map of the town's murals", "a 1970s sailboat I bought cheap", "a board game about trains",
           "an archive of my grandpa's letters", "a small herb farm on the roof"]
PROJ_ZH = ["给村里编一本老照片集", "翻修一辆老嘉陵摩托", "做一个记录方言的小程序", "在阳台搭一个鱼菜共生系统",
           "给我们小区写一本口述史", "自己装修一间茶室", "拍一部关于外婆的纪录短片", "整理爷爷留下的书信",
           "做一套自己设计的桌游", "把旧衣服改成一床百家被"]
SPORT_ZH = ["跑步", "游泳", "打篮球", "骑行", "打网球", "跳绳", "练拳击", "划船机"]
SPORT_EN = ["running", "swimming", "basketball", "cycling", "tennis", "rowing", "boxing", "climbing"]
DIET_ZH = ["吃素", "戒糖", "低碳水", "不吃辣", "只喝黑咖啡", "轻断食"]
DIET_EN = ["vegetarian", "vegan", "keto", "gluten-free", "pescatarian", "dairy-free"]
PHONE = ["138 1234 5678", "139 8765 4321", "150 2468 1357", "186 1122 3344", "555-0142", "555-0199", "555-0173"]
SENSITIVE_EN = ["medication", "therapy", "debt", "divorce", "blood test", "salary", "surgery"]
SENSITIVE_ZH = ["吃药", "看心理医生", "欠款", "离婚", "体检结果", "工资", "手术"]
GOAL_EN = ["the marathon", "learning Japanese", "the CPA exam", "losing 10 kilos", "the bakery idea",
           "getting a pilot license", "writing a novel", "the master's degree"]
GOAL_ZH = ["考研", "学日语", "考CPA", "减肥十斤", "开面包店", "考驾照", "写小说", "跑全马"]
N_EN = ["two", "three", "four", "five"]
N_ZH = ["两", "三", "四", "五"]

# ---------------------------------------------------------------------------------------------
# single utterances: (family, keep, type, relation, lang, [templates])
Fam = tuple[str, bool, str | None, str | None, list[str]]

FAMILIES: list[Fam] = [
    ("identity_event", True, "fact", None, [
        "我上个月搬到{city_zh}了，还在适应", "刚在{city_zh}安顿下来，以后就住这边了", "我们家去年搬去了{city_zh}",
        "我结婚啦，老公是{city_zh}人", "我下周一起就是{company_zh}的{job_zh}了", "我跳槽了，现在在{company_zh}当{job_zh}",
        "医生说我有{cond_zh}，以后得注意了", "体检查出来{cond_zh}，现在每天吃药", "我们领养了一只{pet_zh}，叫{name_zh}",
        "家里新添了一只{pet_zh}，名字叫{name_zh}", "我当妈妈了，宝宝刚满月", "我离职了，准备自己在{city_zh}开店",
        "我被{company_zh}录用了，做{job_zh}", "我刚拿到{city_zh}的户口", "我研究生毕业了，留在{city_zh}工作",
        "just moved to {city_en}, boxes everywhere lol", "we relocated to {city_en} for good last spring",
        "got married in june!! still not used to saying husband", "i start at {company_en} monday as a {job_en}",
        "new job: {job_en} at {company_en}", "doc diagnosed me with {cond_en} so i'm figuring that out",
        "turns out i have {cond_en}, found out last month", "we adopted a {pet_en} named {name_en}",
        "say hi to {name_en}, my new {pet_en}", "i'm a dad now, our daughter was born in may",
        "finally got my {city_en} apartment, living alone for the first time", "i got hired as a {job_en}",
        "我 just moved to {city_zh}，新家离公司很近", "我现在在 {company_en} 上班了，做 {job_en}",
    ]),
    ("day_event", False, None, None, [
        "中午吃了{food_zh}，还挺好吃", "刚从公园散步回来", "今晚打算看{film_zh}", "今天去超市买了一堆东西",
        "刚洗完澡准备睡了", "下午跑去剪了个头发", "早上吃了两个包子", "晚饭点了{food_zh}外卖", "刚遛完狗回来，累死",
        "今天坐地铁坐过站了哈哈", "周六陪我妈逛了一下午街", "刚下班，路上好堵",
        "had {food_en} for lunch, solid", "just got back from a walk around the lake", "watching {film_en} tonight",
        "grabbed {food_en} on the way home", "just finished my laundry finally", "went to the dentist this morning",
        "took the long way home today, nice weather", "spent the afternoon cleaning the garage",
        "we're ordering {food_en} tonight", "just woke up from a nap lol", "stuck in traffic for like an hour today",
        "今天 lunch 吃了{food_zh}", "tonight 要去看{film_zh}",
    ]),
    ("mood_transient", False, None, None, [
        "今天{mood_zh}", "这会儿{mood_zh}，不想说话", "唉，今天{mood_zh}", "下午开完会{mood_zh}",
        "i am feeling {mood_en} at the moment", "ugh i'm {mood_en} rn", "honestly {mood_en} this afternoon",
        "kinda {mood_en} after that call", "today's a {mood_en} kind of day",
    ]),
    ("thanks_ack", False, None, None, [
        "谢谢啦，帮大忙了", "好的收到", "懂了懂了，感谢", "这个回答很有用，谢了", "哈哈好的", "行，我试试",
        "thx that helped a ton", "perfect, ta!", "ok got it", "appreciate it, that's exactly it",
        "cool cool, will try that", "nice, that works", "ty!! lifesaver", "makes sense, thank you",
    ]),
    ("support_talk_pleasantry", False, None, None, [
        "every time we chat i end up {feel_en}", "talking to you always leaves me {feel_en}",
        "each time i vent to you i feel {feel_en}", "you always manage to make me feel {feel_en}",
        "whenever i talk this stuff through with you i'm {feel_en}", "chatting with you every night keeps me {feel_en}",
        "每次跟你聊完我都{feel_zh}", "和你说说话总是让我{feel_zh}", "每回找你吐槽完都{feel_zh}", "你总能让我{feel_zh}",
    ]),
    ("task_request", False, None, None, [
        "write me a {lang_en} script to {task_en}", "can u give me {lang_en} code that will {task_en}",
        "quick one: {lang_en} snippet to {task_en}?", "need a {lang_en} function to {task_en}, no comments",
        "help me draft an email to my landlord about the heater", "make a packing list for a 3 day trip",
        "summarize this article in five bullet points", "translate this paragraph into french for me",
        "帮我写个{lang_zh}函数，{task_zh}", "用{lang_zh}写一段代码{task_zh}", "给我一段{lang_zh}代码：{task_zh}",
        "帮我把这段话翻译成英文", "帮我列个周末的购物清单", "帮我写一封请假邮件", "给我出五道小学数学题",
        "帮我用 {lang_en} {task_zh}",
    ]),
    ("sarcasm", False, None, None, [
        "oh i absolutely adore {place_en}, best part of my week /s", "wow, {place_en} again, living the dream",
        "nothing says fun like {place_en} for three hours", "yeah i'm SO thrilled about {place_en} 🙃",
        "my favorite hobby? sitting in {place_en} apparently", "love that for me. more {place_en}. great.",
        "我可太爱{place_zh}了呢，呵呵", "真开心啊，又是{place_zh}的一天", "{place_zh}真是我的人生乐趣，笑死",
        "我最喜欢{place_zh}了（才怪）", "好耶，又可以{place_zh}了，真棒呢",
    ]),
    ("preference_hedged_habitual", True, "preference", None, [
        "I kinda like {act_en}, I think", "{act_en} is probably my thing tbh", "i usually end up picking {thing_en}",
        "i tend to go for {thing_en} every time", "not gonna lie, {act_en} is pretty fun for me",
        "i'm more of a {act_en} person i guess", "i mostly stick with {thing_en}", "i've always leaned toward {thing_en}",
        "我应该算是挺喜欢{act_zh}的吧", "我一般都用{thing_zh}，用惯了", "平常我多半会选{thing_zh}",
        "我基本上都穿{style_zh}", "说不上特别爱，但{act_zh}还挺舒服的", "我好像一直偏爱{act_zh}",
        "我习惯了{act_zh}，周末不干这个就难受", "我一向比较喜欢{style_zh}", "我还是离不开{thing_zh}",
        "我大概算半个{act_zh}爱好者", "周末我多半在{act_zh}", "我一般 weekend 都会去{act_zh}",
        "I really liked \"{work_en}\", such a good one", "honestly \"{work_en}\" is one of my all-time faves",
        "我特别喜欢《{work_zh}》，看了好几遍",
    ]),
    ("constraint_standing", True, "constraint", None, [
        "use {units_en} with me, always", "please stick to {units_en} when you answer me",
        "no {words_en} in anything you draft for me", "leave {words_en} out of my stuff please",
        "when you plan meals for me skip anything with peanuts", "answers in bullet points work best for me, keep doing that",
        "always give me {n_en} options max", "keep replies under {n_en} sentences for me",
        "with me, {units_en} only", "don't ever use {words_en} when writing for me",
        "你帮我看{domain_zh}的时候，{do_zh}", "以后给我看{domain_zh}，记得{do_zh}", "给我推荐东西最多{n_zh}个就行",
        "跟我说话别用{words_zh}", "给我写东西一律用{units_zh}", "凡是{domain_zh}，都请{do_zh}",
        "回答我的时候控制在{n_zh}句话以内", "替我写的东西不要带表情包",
    ]),
    ("project_ongoing", True, "project", None, [
        "been putting together {proj_en}", "slowly working through {proj_en}, it's my evening thing",
        "my side thing right now is {proj_en}", "i've been chipping away at {proj_en} for months",
        "still plugging away on {proj_en}", "weekends are for {proj_en} these days",
        "我最近一直在{proj_zh}", "下班以后我在{proj_zh}，进度一半了", "这半年我都在{proj_zh}",
        "我手头有个事，就是{proj_zh}", "周末基本都花在{proj_zh}上了", "我在慢慢{proj_zh}",
    ]),
    ("update", True, "fact", "supersedes", [
        "i left {company_en}, i'm a {job_en} now", "not in {city_en} anymore, moved to {city2_en}",
        "new number is {phone}, the old one is dead", "i switched jobs, i'm a {job_en} at {company_en} now",
        "我不在{city_zh}了，现在住{city2_zh}", "我换号码了，新号{phone}", "我已经不干{job_zh}了，现在做{job2_zh}",
        "我搬家了，从{city_zh}搬到了{city2_zh}", "现在改在{company_zh}上班了",
    ]),
    ("update", True, "preference", "supersedes", [
        "i quit {sport_en}, i'm into {sport2_en} now", "dropped {sport_en} for {sport2_en} this year",
        "i'm {diet_en} now, not {diet2_en} anymore", "swapped {thing_en} for {thing2_en}, way better",
        "我不{sport_zh}了，改{sport2_zh}了", "最近从{sport_zh}换成{sport2_zh}了", "我现在{diet_zh}，不再{diet2_zh}了",
        "以前爱{act_zh}，现在更喜欢{act2_zh}",
    ]),
    ("update", True, "constraint", "supersedes", [
        "actually make it {n_en} options, not {n2_en}", "change of plan: {n_en} bullet points instead of {n2_en}",
        "switch to {units_en} instead for me", "推荐改成{n_zh}个吧，别{n2_zh}个了", "以后改用{units_zh}",
    ]),
    ("update", True, "goal", "supersedes", [
        "scrap {goal_en}, i'm going after {goal2_en} instead", "forget {goal_en} as a goal, {goal2_en} is the new one",
        "{goal_zh}不搞了，改成{goal2_zh}", "目标换了，不{goal_zh}了，现在想{goal2_zh}",
    ]),
    ("retraction", False, None, "retracts", [
        "drop the {sensitive_en} stuff i told you", "please don't keep the {sensitive_en} thing on file",
        "erase what i said about my {sensitive_en}", "the {sensitive_en} bit, wipe it", "nvm about {goal_en}, not doing it",
        "{goal_en} is off, don't track it", "关于{sensitive_zh}那个，你别记了", "把我{sensitive_zh}的事删掉",
        "{sensitive_zh}那部分当我没说", "{goal_zh}不弄了，那条删了吧", "之前说的{goal_zh}作废",
        "{goal_zh}那个目标算了，太不现实", "那个目标算了吧，我坚持不下来", "之前定的{goal_zh}就算了吧",
        "that goal's done for, {goal_en} isn't realistic",
        "别再记着我{sensitive_zh}的事了",
    ]),
]

SLOTS: dict[str, list[str]] = {
    "city_zh": CITY_ZH, "city2_zh": CITY_ZH[7:] + CITY_ZH[:7], "city_en": CITY_EN,
    "city2_en": CITY_EN[5:] + CITY_EN[:5], "job_zh": JOB_ZH, "job2_zh": JOB_ZH[4:] + JOB_ZH[:4],
    "job_en": JOB_EN, "job2_en": JOB_EN[5:] + JOB_EN[:5], "company_zh": COMPANY_ZH, "company_en": COMPANY_EN, "cond_zh": COND_ZH,
    "cond_en": COND_EN, "act_zh": ACT_ZH, "act2_zh": ACT_ZH[5:] + ACT_ZH[:5], "act_en": ACT_EN,
    "thing_zh": THING_ZH, "thing_en": THING_EN, "thing2_en": THING_EN[3:] + THING_EN[:3], "style_zh": STYLE_ZH,
    "food_zh": FOOD_ZH, "food_en": FOOD_EN, "film_zh": FILM_ZH, "film_en": FILM_EN, "mood_zh": MOOD_ZH,
    "mood_en": MOOD_EN, "place_zh": PLACE_ZH, "place_en": PLACE_EN, "task_zh": TASK_ZH, "task_en": TASK_EN,
    "lang_zh": LANG_ZH, "lang_en": LANG_EN, "units_en": UNITS_EN, "units_zh": ["公制单位", "摄氏度", "人民币",
                                                                              "24小时制", "公斤"],
    "words_en": WORDS_EN, "words_zh": ["网络流行语", "英文缩写", "感叹号", "颜文字", "官腔"],
    "proj_en": PROJ_EN, "proj_zh": PROJ_ZH, "sport_zh": SPORT_ZH, "sport2_zh": SPORT_ZH[3:] + SPORT_ZH[:3],
    "sport_en": SPORT_EN, "sport2_en": SPORT_EN[3:] + SPORT_EN[:3], "diet_zh": DIET_ZH,
    "diet2_zh": DIET_ZH[2:] + DIET_ZH[:2], "diet_en": DIET_EN, "diet2_en": DIET_EN[2:] + DIET_EN[:2],
    "phone": PHONE, "sensitive_en": SENSITIVE_EN, "sensitive_zh": SENSITIVE_ZH, "goal_en": GOAL_EN,
    "goal2_en": GOAL_EN[3:] + GOAL_EN[:3], "goal_zh": GOAL_ZH, "goal2_zh": GOAL_ZH[3:] + GOAL_ZH[:3],
    "feel_en": ["calmer", "less alone", "way lighter", "more hopeful", "less stressed", "in a better mood"],
    "feel_zh": ["轻松多了", "没那么孤单了", "心情好一点", "安心很多", "不那么焦虑了", "开心起来"],
    "work_en": ["Paddington 2", "Dune", "The Remains of the Day", "Spirited Away", "Moneyball", "Station Eleven"],
    "work_zh": ["活着", "大话西游", "三体", "请回答1988", "边城", "霸王别姬"],
    "n_en": N_EN, "n2_en": N_EN[1:] + N_EN[:1], "n_zh": N_ZH, "n2_zh": N_ZH[1:] + N_ZH[:1],
}
_STEPS = (1, 3, 7, 11, 13, 17, 19, 23)
PER_TEMPLATE = 10  # rows per template (fewer when its slots have fewer distinct combinations)


def _fill(template: str, k: int, t: int) -> str:
    names = sorted({part.split("}")[0] for part in template.split("{")[1:]})
    values: dict[str, str] = {}
    for s, name in enumerate(names):
        if name in ("pet_zh", "name_zh"):
            pet, nm = PET_ZH[(k * _STEPS[s % 8] + t) % len(PET_ZH)]
            values.update(pet_zh=pet, name_zh=nm)
        elif name in ("pet_en", "name_en"):
            pet, nm = PET_EN[(k * _STEPS[s % 8] + t) % len(PET_EN)]
            values.update(pet_en=pet, name_en=nm)
        elif name in ("domain_zh", "do_zh"):
            dom, do = DOMAIN_ZH[(k * _STEPS[s % 8] + t) % len(DOMAIN_ZH)]
            values.update(domain_zh=dom, do_zh=do)
        else:
            vals = SLOTS[name]
            values[name] = vals[(k * _STEPS[s % 8] + t) % len(vals)]
    return template.format(**values)


def template_rows() -> list[dict[str, Any]]:
    """Every family's templates filled ``PER_TEMPLATE`` times (distinct texts only), in a fixed order."""
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for family, keep, memory_type, relation, templates in FAMILIES:
        for t, template in enumerate(templates):
            n = PER_TEMPLATE if "{" in template else 1
            for k in range(n):
                text = _fill(template, k, t)
                if text in seen:
                    continue
                seen.add(text)
                out.append({"text": text, "keep": keep, "type": memory_type, "family": family,
                            "relation": relation, "source": "template"})
    return out


# ---------------------------------------------------------------------------------------------
# pairs: (old memory content, new statement) -> relation
PAIR_SLOTS: list[tuple[str, list[str], list[str], list[str], list[str]]] = [
    # slot, old memory templates, supersede templates, retract templates, refine templates
    ("home", ["我住在{city_zh}", "I live in {city_en}", "home is {city_en}", "我现在定居{city_zh}"],
     ["我搬到{city2_zh}了", "我已经不住{city_zh}了，现在在{city2_zh}", "moved to {city2_en} last month",
      "we're in {city2_en} now, left {city_en}", "现在住{city2_zh}啦", "new place is in {city2_en}"],
     ["别记我住哪了", "forget where i live", "住址那条删了吧", "please drop my home city"],
     ["我住在{city_zh}的老城区，离地铁近", "in {city_en}, near the river", "我在{city_zh}住了快十年了",
      "been in {city_en} about six years"]),
    ("job", ["我是{job_zh}", "I work as a {job_en}", "我在{company_zh}上班", "i'm a {job_en} at {company_en}"],
     ["我辞职了，现在做{job2_zh}", "不干{job_zh}了，转行做{job2_zh}", "i'm not a {job_en} anymore, i run a food truck now",
      "switched careers, i'm a {job2_en} now", "换工作了，去了{company_zh}", "left that job, now at {company_en}"],
     ["工作那条别记了", "forget what i said about my job", "don't keep my job on file", "我的职业信息删掉吧"],
     ["我做{job_zh}已经五年了", "been a {job_en} for six years, mostly nights", "我在{company_zh}负责夜班",
      "i'm a {job_en}, mostly weekends"]),
    ("phone", ["我的电话是{phone}", "my number is {phone}", "手机号{phone}", "reach me at {phone}"],
     ["换号了，新号{phone2}", "new number: {phone2}", "我手机号改成{phone2}了", "use {phone2} now, old one's gone"],
     ["把我电话删了", "forget my phone number", "电话号码那条不要存", "remove my number please"],
     ["这个号白天一般都能打通", "that number has whatsapp too", "这个号码也是微信号", "text is better than calling that number"]),
    ("sport", ["我喜欢{sport_zh}", "i love {sport_en}", "我每周{sport_zh}三次", "{sport_en} is my main workout"],
     ["我不{sport_zh}了，改{sport2_zh}了", "gave up {sport_en}, doing {sport2_en} now", "现在改成{sport2_zh}了",
      "i've moved on from {sport_en} to {sport2_en}", "膝盖不行了，不{sport_zh}了，换成{sport2_zh}",
      "{sport2_en} instead of {sport_en} these days"],
     ["运动那条删了吧", "forget the {sport_en} thing", "不用记我{sport_zh}", "scratch what i said about {sport_en}"],
     ["我{sport_zh}一般在早上", "i do {sport_en} mostly on weekends", "我{sport_zh}好几年了",
      "been doing {sport_en} with a club"]),
    ("diet", ["我{diet_zh}", "i'm {diet_en}", "我饮食上{diet_zh}", "{diet_en} for three years now"],
     ["我不{diet_zh}了，现在{diet2_zh}", "not {diet_en} anymore, i'm {diet2_en} now", "改成{diet2_zh}了",
      "switched from {diet_en} to {diet2_en}"],
     ["饮食那条不用记了", "forget the diet stuff", "别记我{diet_zh}了", "you can drop the {diet_en} note"],
     ["我{diet_zh}，但偶尔吃点鸡蛋", "{diet_en}, but i do eat eggs", "我{diet_zh}主要是为了健康",
      "{diet_en} mostly for health reasons"]),
    ("habit", ["我习惯早上六点起", "i usually wake up at 6", "我每天晚上写日记", "i journal every night"],
     ["我现在都八点起了，不早起了", "i sleep in now, no more 6am", "不写日记了，改成画速写", "stopped journaling, i sketch instead"],
     ["作息那条删了吧", "forget my sleep schedule", "别记我写日记的事", "drop the journaling thing"],
     ["早起以后我会先跑步", "after waking i make tea first", "日记一般写十分钟", "i journal in a paper notebook"]),
    ("pet", ["我养了一只{pet_zh}叫{name_zh}", "i have a {pet_en} called {name_en}"],
     ["{name_zh}送人了，现在养了一只兔子", "{name_en} went to my sister's, i have a rabbit now"],
     ["{name_zh}去世了，宠物那条删了吧", "{name_en} passed away, please remove that", "别记我养{pet_zh}了",
      "forget the {pet_en}"],
     ["{name_zh}今年三岁了，特别黏人", "{name_en} is three and super clingy", "{name_zh}是从救助站领养的",
      "{name_en} came from a shelter"]),
    ("instruction", ["推荐东西给我{n_zh}个选项", "give me {n_en} options when you recommend things",
                     "回答控制在{n_zh}段", "keep it to {n_en} bullet points"],
     ["改成{n2_zh}个就够了", "make it {n2_en} options from now", "以后{n2_zh}段就行", "{n2_en} bullets, not {n_en}"],
     ["选项数量那条不用管了", "forget the options rule", "不用限制段落了", "drop the bullet point rule"],
     ["{n_zh}个选项，最好带价格", "{n_en} options, with prices", "每段别太长", "bullets with short titles"]),
    ("goal", ["我的目标是{goal_zh}", "i'm working toward {goal_en}", "今年想{goal_zh}", "goal: {goal_en}"],
     ["{goal_zh}不搞了，改成{goal2_zh}", "scrapping {goal_en}, going for {goal2_en}", "目标换成{goal2_zh}了",
      "new goal is {goal2_en}, the old one's done"],
     ["{goal_zh}那个目标删了", "nvm {goal_en}, not doing it", "别再提{goal_zh}了", "{goal_en} is off the list"],
     ["{goal_zh}打算明年完成", "{goal_en} by next summer hopefully", "为了{goal_zh}我每天学两小时",
      "doing an hour a day for {goal_en}"]),
    ("sensitive", ["我在吃抗抑郁的药", "i take meds for my anxiety", "我在看心理医生", "i see a therapist weekly",
                   "我有一笔网贷还没还清", "i'm paying off credit card debt"],
     ["药已经停了，医生说好了", "i'm off the meds now", "不看心理医生了，好多了", "done with therapy, feeling good",
      "网贷还完了", "debt's paid off finally"],
     ["吃药那部分删掉", "the meds detail, please wipe it", "看心理医生的事别记", "remove the therapy bit",
      "欠钱的事你别存", "erase the debt stuff"],
     ["药是早上吃一片", "one pill in the morning", "心理医生每两周见一次", "therapy is every other week",
      "网贷还剩一万多", "about 3k of debt left"]),
]


def pair_rows() -> list[dict[str, Any]]:
    """(old, new, relation, slot) pairs over ``PAIR_SLOTS``: for each slot, each old memory against each
    supersede / retract / refine statement of the same slot (several slot fillings), and against statements
    of other slots as ``unrelated``. Deterministic order."""
    extra = {**SLOTS, "phone2": PHONE[3:] + PHONE[:3]}
    out: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()

    def fill(template: str, k: int) -> str:
        names = sorted({part.split("}")[0] for part in template.split("{")[1:]})
        values: dict[str, str] = {}
        for name in names:
            if name in ("pet_zh", "name_zh"):
                values.update(zip(("pet_zh", "name_zh"), PET_ZH[k % len(PET_ZH)], strict=True))
            elif name in ("pet_en", "name_en"):
                values.update(zip(("pet_en", "name_en"), PET_EN[k % len(PET_EN)], strict=True))
            else:
                values[name] = extra[name][k % len(extra[name])]
        return template.format(**values)

    def add(old: str, new: str, relation: str, slot: str) -> None:
        if (old, new) not in seen:
            seen.add((old, new))
            out.append({"old": old, "new": new, "relation": relation, "slot": slot})

    for si, (slot, olds, sups, rets, refs) in enumerate(PAIR_SLOTS):
        for k in range(4):
            for old_t in olds:
                old = fill(old_t, k)
                for rel, temps in (("supersede", sups), ("retract", rets), ("refine", refs)):
                    for new_t in temps:
                        add(old, fill(new_t, k), rel, slot)
                # unrelated: the other slots' statements of every kind
                for oj, other in enumerate(PAIR_SLOTS):
                    if oj == si:
                        continue
                    for new_t in itertools.islice(itertools.chain(other[2], other[3], other[4]), k, None, 5):
                        add(old, fill(new_t, k + oj), "unrelated", slot)
    return out
