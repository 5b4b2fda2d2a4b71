# ruff: noqa: E501  (data: hand-written templates and slot values, one family per block)
"""A fifth set of hand-written templates for the utterance corpus (issue 24, precision, session 12; ``h-prec24c``).

Written for this repository on 2026-12-05 by the ``h-prec24c`` helper (an AI agent session), with slot values
and sentence shapes of its own, none copied or paraphrased from an evaluation set (the dev cases,
``bench/data/*_cases.jsonl``, MemoryBank, Synthetic-Persona-Chat's test split), the issue texts or the demo
samples (``training/build_utterance_corpus.py --check`` searches every row in them).

Meant to be built in together with ``utterance_templates_prec24.py`` (the companion-chat drops) and
``utterance_templates_prec24b.py`` (their counterweight of keeps). Session 11's retrain with those two alone
(r4 in ``bench/RESULTS.md``) read the most good memories on the precision sample but lost a held-out case
(a two-day conditional reminder stored as a constraint) and a dev3 case (a weekend habit glued to an
abstention), and still kept trip plans of the moment, complaints of these days and chat requests. This set:

- drops: a trip of the coming weeks and its wishes ("thinking of a few days in {city} next month to
  unwind", "想趁年假去{city}转几天"), told as a plan, not a dream of a lifetime; a complaint or worry of
  these days (bored at work, thinking about the future, needing a break); a request to chat about a
  topic ("can we talk about my hobbies for a bit"); thanks for the assistant's support; a job hunt of the
  moment (applications sent, no reply yet); a reminder bound to a short window or a one-off condition
  ("if it rains tomorrow remind me to take an umbrella", "这两天要是降温提醒我加衣服");
- keeps: a standing reminder (every time, whenever: a constraint); a habit told with an abstention
  after it ("weekends I'm usually climbing, and I barely drink", each clause a taste); an abstention alone
  ("烟不抽，酒也很少喝"); live music or a show as a taste told with a wish to go more often; a trip as a
  habit ("every spring I go somewhere new").

**Not wired into the corpus.** Retrained with the three sets (``build_utterance_corpus.build`` taking
``*prec24b_template_rows(), *prec24_template_rows(), *prec24c_template_rows()`` after the chat set: 10,450
rows; ``train_memory_classifier --l2 1e-5 --cache C`` then ``train_memory_mlp --cache C``), the held-out
reminder case came back (66 of 68, as shipped), but MemoryBank typed recall fell (cn 0.853 -> 0.765, en 0.853
-> 0.794, Persona-Chat 0.849 -> 0.830) and dev3 / dev4 / the update sets lost 1 / 3 / 2 + 4 cases: the
classifier kept more "lately" sentences, and the update judge let one of them replace a whole hobby list
(fixed in ``judge._a_list``), and shifted several update decisions. With that fix and the reply rule that
retrain read 81 good of 120 on a fresh precision sample (65 shipped). The second pass below (keep rows for
what it lost; 664 rows, corpus 10,632) won MemoryBank cn back (0.882) but not Persona-Chat (0.830), lost two
dev4 and three dev-updates-3 cases, and read only 63 of 120: the keeps undid the drops
(``bench/RESULTS.md``, issue 24, session 12). To try it: add the three calls to the row list of
``build_utterance_corpus.build`` and retrain.

Expansion as in the other sets: template ``t`` takes, for its ``k``-th row, slot value
``(k * step_s + t) % len(values)`` of each slot ``s`` (co-prime steps), ``PER_TEMPLATE`` rows at most,
distinct texts only.
"""

from __future__ import annotations

from typing import Any

from training.template_rows import family_rows

CITY_EN = ["Lisbon", "Kyoto", "Hanoi", "Edinburgh", "Guilin", "Tallinn", "Cusco", "Da Nang", "Bruges", "Luang Prabang"]
CITY_ZH = ["桂林", "大理", "青岛", "洱海边", "婺源", "张家界", "喀什", "涠洲岛", "景德镇", "阿那亚"]
WHEN_EN = ["next month", "over the long weekend", "in a couple of weeks", "after this project wraps up",
           "during the October break", "this coming weekend"]
WHEN_ZH = ["下个月", "国庆", "这个周末", "年假的时候", "等忙完这阵", "过两周"]
WISH_EN = ["mostly to eat and wander the old streets", "to see a couple of temples and the night market",
           "just to switch off for a bit", "to try the street food and maybe a cooking class",
           "and hopefully catch a sunset from the hills", "and stay in a small guesthouse instead of a hotel"]
WISH_ZH = ["主要是吃吃逛逛", "看看古建筑，逛逛夜市", "就是想换个环境散散心", "想尝尝当地的小吃", "顺便看个日落",
           "想住当地人开的民宿"]
GRIPE_EN = ["work has felt pretty pointless this month", "I've been stuck on the same tasks at work for ages and I'm bored",
            "I keep worrying about where my life is heading", "I really need a break from everything",
            "my motivation has been at rock bottom", "my job has been wearing me out lately",
            "I've been overthinking my future a lot recently", "everything feels a bit flat right now"]
GRIPE_ZH = ["这个月上班越来越没劲", "天天重复一样的活，有点腻了", "最近老在想以后该怎么办", "真想什么都不管歇几天",
            "这阵子干什么都提不起劲", "工作把我累得够呛", "最近总琢磨自己的将来", "最近日子过得有点平淡"]
TALK_EN = ["my hobbies", "movies", "travel", "something fun", "books", "music", "food", "anything but work"]
TALK_ZH = ["我的爱好", "电影", "旅行", "开心的事", "书", "音乐", "吃的", "工作以外的事"]
SUPPORT_EN = ["you're always there when I need to vent", "you always know what to say to me",
              "I'm glad I can talk to you about this stuff", "you've helped me a lot these past weeks",
              "it's nice having someone to talk to at night", "you always give me good pointers"]
SUPPORT_ZH = ["每次我想吐槽你都在", "你总知道怎么安慰我", "有你能聊这些真好", "这几周你帮了我很多", "晚上能有人说说话挺好的",
              "你给的建议总是很实用"]
JOBAPP_EN = ["I sent out four applications this week and heard nothing back", "I applied for a junior designer opening yesterday",
             "still waiting to hear back about that interview", "I have a second-round interview on Thursday",
             "I've been refreshing my inbox all day waiting for a reply", "I put in an application at a bookshop down the road"]
JOBAPP_ZH = ["这周投了四份简历，都没回音", "昨天投了一个设计助理的岗位", "上次那个面试还没消息", "周四有个二面",
             "一整天都在刷邮箱等回复", "我给楼下的书店投了份简历"]
SOON_EN = ["tomorrow", "tonight", "on Friday", "this afternoon", "over the next two days", "this week"]
SOON_ZH = ["明天", "今晚", "周五", "下午", "这两天", "这周"]
COND_EN = ["it rains", "it gets cold", "the package arrives", "my sister calls", "the meeting runs late", "it snows"]
COND_ZH = ["下雨", "降温", "快递到了", "我姐来电话", "会开得晚", "下雪"]
DO_EN = ["to take an umbrella", "to wear a thicker coat", "to check the front door", "to call her back",
         "to cancel the gym", "to leave early"]
DO_ZH = ["带伞", "多穿件外套", "去门口拿一下", "给她回个电话", "把健身课取消", "早点出门"]
EVERY_EN = ["whenever the forecast says rain", "every time it drops below freezing", "any time I mention a deadline",
            "every Sunday evening", "whenever I ask for a recipe", "every time I book a flight"]
EVERY_ZH = ["以后只要预报有雨", "每次气温降到零下", "以后我一提截止日期", "每个周日晚上", "以后我问菜谱的时候", "以后每次订机票"]
STAND_EN = ["remind me to bring an umbrella", "remind me to cover the balcony plants", "remind me to block out time for it",
            "remind me to plan the week's meals", "list the ingredients first", "remind me about travel insurance"]
STAND_ZH = ["都提醒我带伞", "都提醒我把阳台的花搬进来", "都提醒我留出时间", "都提醒我安排下周的饭", "都先列出要买的食材",
            "都提醒我买旅行保险"]
HABIT_EN = ["climbing", "out on my bike", "at the pool", "hiking in the hills", "playing football", "at the climbing wall"]
HABIT_ZH = ["去爬山", "骑车", "去游泳", "去郊外徒步", "踢球", "去攀岩馆"]
ABST_EN = ["I barely drink", "I don't smoke at all", "I stay away from coffee", "I hardly eat sweets", "I gave up soda years ago",
           "I don't really drink alcohol"]
ABST_ZH = ["酒基本不碰", "烟从来不抽", "咖啡很少喝", "甜食几乎不吃", "碳酸饮料早戒了", "酒喝得很少"]
LIVE_EN = ["live music", "jazz gigs", "the theatre", "stand-up comedy nights", "orchestra concerts", "folk festivals"]
LIVE_ZH = ["现场音乐", "爵士演出", "话剧", "脱口秀", "交响乐音乐会", "民谣音乐节"]

BRANCH_EN = ["the navy", "the army", "the coast guard", "the air force", "the marines", "the reserves"]
BRANCH_ZH = ["海军", "陆军", "武警", "空军", "海军陆战队", "预备役"]
FUTURE_EN = ["veterinarian", "midwife", "architect", "marine biologist", "pharmacist", "physical therapist",
             "court interpreter", "airline pilot"]
FUTURE_ZH = ["兽医", "助产士", "建筑师", "海洋生物学家", "药剂师", "康复治疗师", "同声传译", "民航飞行员"]
SPORT_EN = ["badminton", "five-a-side football", "volleyball", "table tennis", "basketball", "frisbee"]
SPORT_ZH = ["羽毛球", "五人制足球", "排球", "乒乓球", "篮球", "飞盘"]
SPARE_EN = ["reading", "sketching", "baking bread", "doing jigsaw puzzles", "gardening", "writing short stories"]
SPARE_ZH = ["看书", "画速写", "烤面包", "拼拼图", "侍弄花草", "写短篇小说"]
SINGER_EN = ["Faye Wong", "Adele", "Eason Chan", "Coldplay", "Jay Chou", "Norah Jones"]
SINGER_ZH = ["王菲", "陈奕迅", "五月天", "孙燕姿", "李健", "莫文蔚"]

_STEPS = (1, 3, 7, 11, 13, 17, 19, 23)
PER_TEMPLATE = 8

SLOTS: dict[str, list[str]] = {
    "city_en": CITY_EN, "city_zh": CITY_ZH, "when_en": WHEN_EN, "when_zh": WHEN_ZH, "wish_en": WISH_EN,
    "wish_zh": WISH_ZH, "gripe_en": GRIPE_EN, "gripe_zh": GRIPE_ZH, "talk_en": TALK_EN, "talk_zh": TALK_ZH,
    "support_en": SUPPORT_EN, "support_zh": SUPPORT_ZH, "jobapp_en": JOBAPP_EN, "jobapp_zh": JOBAPP_ZH,
    "soon_en": SOON_EN, "soon_zh": SOON_ZH, "cond_en": COND_EN, "cond_zh": COND_ZH, "do_en": DO_EN, "do_zh": DO_ZH,
    "every_en": EVERY_EN, "every_zh": EVERY_ZH, "stand_en": STAND_EN, "stand_zh": STAND_ZH, "habit_en": HABIT_EN,
    "habit_zh": HABIT_ZH, "abst_en": ABST_EN, "abst_zh": ABST_ZH, "live_en": LIVE_EN, "live_zh": LIVE_ZH,
    "branch_en": BRANCH_EN, "branch_zh": BRANCH_ZH, "future_en": FUTURE_EN, "future_zh": FUTURE_ZH,
    "sport_en": SPORT_EN, "sport_zh": SPORT_ZH, "spare_en": SPARE_EN, "spare_zh": SPARE_ZH,
    "singer_en": SINGER_EN, "singer_zh": SINGER_ZH,
}

# (family, keep, type, [templates])
Fam = tuple[str, bool, str | None, list[str]]
FAMILIES: list[Fam] = [
    ("trip_of_coming_weeks", False, None, [
        "thinking of a few days in {city_en} {when_en} to unwind", "I might head to {city_en} {when_en}, {wish_en}",
        "planning a little getaway to {city_en} {when_en}", "{when_en} I want to pop over to {city_en} {wish_en}",
        "I'm considering a short trip {when_en}, maybe {city_en}", "when I'm in {city_en} I'd like to go {wish_en}",
        "we're looking at flights to {city_en} {when_en}", "I want to get out of town {when_en}, {wish_en}",
        "我想{when_zh}去{city_zh}玩几天，{wish_zh}", "{when_zh}打算去趟{city_zh}放松下", "正在考虑{when_zh}出去走走，可能去{city_zh}",
        "到了{city_zh}我想{wish_zh}", "{when_zh}想找个地方透透气，{wish_zh}", "我在看{when_zh}去{city_zh}的机票",
    ]),
    ("gripe_these_days", False, None, [
        "{gripe_en}", "ugh, {gripe_en}", "honestly {gripe_en}", "{gripe_en}, not sure what to do",
        "{gripe_zh}", "唉，{gripe_zh}", "说实话{gripe_zh}", "{gripe_zh}，不知道怎么办",
    ]),
    ("chat_request", False, None, [
        "can we talk about {talk_en} for a bit", "let's chat about {talk_en}", "I want to talk about {talk_en} today",
        "tell me something about {talk_en}", "咱们聊聊{talk_zh}吧", "今天想跟你聊{talk_zh}", "陪我聊会儿{talk_zh}好不好",
        "你给我讲讲{talk_zh}",
    ]),
    ("support_thanks", False, None, [
        "{support_en}", "thanks, {support_en}", "{support_en}, really", "{support_zh}", "谢谢你，{support_zh}",
        "{support_zh}，真的",
    ]),
    ("job_hunt_moment", False, None, [
        "{jobapp_en}", "ugh, {jobapp_en}", "{jobapp_en}, fingers crossed", "{jobapp_zh}", "唉，{jobapp_zh}",
        "{jobapp_zh}，希望有戏",
    ]),
    ("reminder_short_window", False, None, [
        "if {cond_en} {soon_en}, remind me {do_en}", "{soon_en}, if {cond_en}, remind me {do_en}",
        "could you remind me {do_en} {soon_en} if {cond_en}", "remind me {do_en} {soon_en}",
        "{soon_zh}要是{cond_zh}就提醒我{do_zh}", "如果{soon_zh}{cond_zh}，记得叫我{do_zh}", "{soon_zh}提醒我{do_zh}",
        "万一{soon_zh}{cond_zh}，提醒我{do_zh}一下",
    ]),
    ("standing_reminder", True, "constraint", [
        "{every_en}, {stand_en}", "from here on, {every_en}, {stand_en}", "{every_zh}，{stand_zh}",
        "规矩是{every_zh}{stand_zh}",
    ]),
    ("habit_with_abstention", True, "preference", [
        "weekends I'm usually {habit_en}, and {abst_en}", "I'm {habit_en} most Saturdays; {abst_en}",
        "{abst_en}, but I'm {habit_en} every chance I get", "{abst_en}", "to be honest {abst_en}",
        "周末我一般{habit_zh}，{abst_zh}", "平时常{habit_zh}，{abst_zh}", "{abst_zh}", "我这人{abst_zh}",
    ]),
    ("live_show_taste", True, "preference", [
        "I love {live_en}, I wish I could go more often", "{live_en} is my thing, I'd like to catch a few more this year",
        "I'm a big fan of {live_en} and go whenever I can afford it", "nothing beats {live_en} for me",
        "我很喜欢{live_zh}，可惜去得不多", "{live_zh}是我最爱的消遣，今年想多去几场", "一有空我就去看{live_zh}",
    ]),
    # second pass: what the first retrain with this set lost (a past identity, a career goal, a weekly
    # group sport, free time spent on a hobby, a singer the user would love to hear live)
    ("past_identity", True, "fact", [
        "I served in {branch_en} for six years before this", "I was in {branch_en} back in my twenties",
        "I'm a veteran, {branch_en}", "spent eight years in {branch_en}, retired now",
        "我以前在{branch_zh}服役过", "我年轻时当过{branch_zh}", "我是{branch_zh}退伍的",
    ]),
    ("career_goal", True, "goal", [
        "I want to become a {future_en} one day", "my goal is to work as a {future_en}",
        "I'm hoping to be a {future_en} after school", "ever since I was little I've wanted to be a {future_en}",
        "我以后想当{future_zh}", "我的目标是成为一名{future_zh}", "我从小就想做{future_zh}",
    ]),
    ("weekly_group_sport", True, "preference", [
        "my coworkers and I started a {sport_en} club, we play every weekend", "a few friends and I play {sport_en} every Saturday",
        "we have a {sport_en} group at work that meets weekly", "我和同事组了个{sport_zh}群，每个周末都打",
        "我们几个朋友每周六一起打{sport_zh}",
    ]),
    ("free_time_hobby", True, "preference", [
        "I spend a lot of my free time {spare_en}", "most of my spare time goes to {spare_en}",
        "when I'm not working I'm usually {spare_en}", "我空闲时间大多用来{spare_zh}", "不上班的时候我一般都在{spare_zh}",
    ]),
    ("singer_live_wish", True, "preference", [
        "I'd love to see {singer_en} live someday, I love their songs", "I'd really like to go to a {singer_en} concert, their music is beautiful",
        "我很想去听{singer_zh}的演唱会，他们的歌太好听了", "有机会一定要去看{singer_zh}的现场",
    ]),
    ("trip_habit_taste", True, "preference", [
        "every spring I go somewhere I've never been", "I travel solo at least once a year, it's my thing",
        "I love slow travel, a week in one small town", "我每年春天都会去一个没去过的地方", "我喜欢慢旅行，在一个小镇待一周",
        "每年至少一个人出去旅行一次，这是我的习惯",
    ]),
]


SECOND_PASS = frozenset({"past_identity", "career_goal", "weekly_group_sport", "free_time_hobby",
                         "singer_live_wish"})
"""The families of the second pass (keeps written against the first retrain's losses)."""


def prec24c_template_rows(second_pass: bool = True) -> list[dict[str, Any]]:
    """Every family's templates filled ``PER_TEMPLATE`` times (distinct texts only), in a fixed order;
    ``source`` is ``template_prec24c``. ``second_pass=False``: the first pass alone (482 rows), the set the
    precision model is trained with (``training/build_utterance_corpus.py --precision``)."""
    return family_rows(FAMILIES, SLOTS, _STEPS, PER_TEMPLATE, "template_prec24c",
                       skip=() if second_pass else SECOND_PASS)
