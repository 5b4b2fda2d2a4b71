# ruff: noqa: E501  (data: hand-written templates and slot values, one family per block)
"""A sixth set of hand-written templates for the precision model (issue 24, precision, session 14; ``prec27``).

Written for this repository on 2026-12-05 by the ``prec27`` helper (an AI agent session), with slot values
and sentence shapes of its own, none copied or paraphrased from an evaluation set (the dev cases,
``bench/data/*_cases.jsonl``, MemoryBank, Synthetic-Persona-Chat's test split), the issue texts or the demo
samples (``training/build_utterance_corpus.py --check`` searches every row in them). It is built into the
precision model's corpus only (``build_utterance_corpus --precision``), after the three prec24 sets: the gate's
second opinion on keep/drop, never the memory classifier's types.

What the precision sample of session 13 still read as bad, described as families (no sentence taken from it):

- drops: self-doubt and feelings told as a statement of self ("I always feel my {work} won't be good
  enough", "我感觉自己怎么努力都{fail}"); an echo of the assistant's advice ("I guess the first step is to
  {advice}", "我应该{advice}，别老{dwell}"); a reaction whose object is gone ("it really moved me", "the
  ending got me", "这些我也挺喜欢的"); a book, show or film of the moment ("I'm halfway through a novel
  called {title}, it's so {adj}", "最近在追一部叫{title}的剧"); the logistics of a coming trip (tickets,
  hotels, itineraries, sights to see there); a vague idea of the moment ("I've been toying with picking
  up something new lately", "在考虑要不要去{errand}"); a small struggle of these days ("lately I keep
  burning the rice", "最近老是拖延");
- keeps (the counterweight, so the second opinion does not learn "a sentence with a feeling is a drop"):
  a durable fact beside a mood ("rough day lol, but I've been {diet} for years"), a life event of who the
  user is (moved, a new job, a diagnosis, a pet), a standing favourite work ("{title} is my all-time
  favourite"), a hobby with its object, a struggle that is part of who the user is (a condition, a phobia).

Expansion as in the other sets: template ``t`` takes, for its ``k``-th row, slot value
``(k * step_s + t) % len(values)`` of each slot ``s`` (co-prime steps), ``PER_TEMPLATE`` rows at most,
distinct texts only.
"""

from __future__ import annotations

from typing import Any

from training.template_rows import family_rows

WORK_EN = ["paintings", "short stories", "songs", "photos", "poems", "designs", "app", "comic"]
WORK_ZH = ["画", "小说", "歌", "照片", "诗", "设计稿", "小程序", "漫画"]
FAIL_EN = ["get anywhere", "catch up", "get it right", "make any progress", "beat this slump", "feel good about it"]
FAIL_ZH = ["没什么起色", "赶不上别人", "做不好", "一点进步都没有", "走不出这个低谷", "对自己不满意"]
FEEL_EN = ["drained", "restless", "down", "on edge", "overwhelmed", "a bit lost", "cheerful", "relaxed"]
FEEL_ZH = ["累", "烦躁", "低落", "紧张", "压力大", "迷茫", "开心", "轻松"]
ADVICE_EN = ["write down a weekly plan", "talk to someone I trust", "take things one step at a time",
             "set smaller targets", "get more sleep first", "look for other chances", "be kinder to myself",
             "ask my manager for feedback"]
ADVICE_ZH = ["先列个每周计划", "找信任的人聊聊", "一步一步来", "把目标定小一点", "先把觉睡够", "多看看别的机会", "对自己宽容一点",
             "找领导要点反馈"]
DWELL_EN = ["dwelling on it", "blaming myself", "comparing myself to others", "overthinking it", "beating myself up"]
DWELL_ZH = ["纠结这件事", "怪自己", "跟别人比", "想太多", "钻牛角尖"]
TITLE_EN = ["The Salt Road", "Nine Lanterns", "Glass Harbour", "The Quiet Orchard", "Paper Moons", "North of Winter",
            "The Clockmaker's Daughter", "Blue Ferry"]
TITLE_ZH = ["《盐之路》", "《九盏灯》", "《玻璃港》", "《安静的果园》", "《纸月亮》", "《冬天以北》", "《钟表匠的女儿》", "《蓝色渡轮》"]
MEDIA_EN = ["a novel", "a TV series", "a documentary", "an anime", "a memoir", "a podcast"]
MEDIA_ZH = ["一本小说", "一部剧", "一部纪录片", "一部动漫", "一本传记", "一档播客"]
ADJ_EN = ["gripping", "so sad", "really clever", "beautiful", "hard to put down", "a bit slow"]
ADJ_ZH = ["很好看", "挺感人的", "特别烧脑", "画面很美", "停不下来", "节奏有点慢"]
CITY_EN = ["Porto", "Seoul", "Marrakech", "Vancouver", "Chiang Mai", "Krakow", "Hobart", "Valparaiso"]
CITY_ZH = ["泉州", "西宁", "敦煌", "腾冲", "北海", "哈尔滨", "黄山", "延吉"]
SIGHT_EN = ["the old fortress", "a couple of museums", "the harbour market", "some temples", "the botanical garden",
            "the cathedral"]
SIGHT_ZH = ["古城墙", "几个博物馆", "海边的集市", "几座老寺庙", "植物园", "老教堂"]
VAGUE_EN = ["picking up something new", "changing my routine", "taking a class of some sort", "getting more organised",
            "doing something creative", "learning a skill"]
VAGUE_ZH = ["学点新东西", "换换作息", "报个什么班", "把生活安排得更有条理", "做点有创意的事", "学门手艺"]
ERRAND_EN = ["seeing a doctor about it", "calling the landlord", "getting my eyes checked", "asking for a day off",
             "going to the bank about it"]
ERRAND_ZH = ["看医生", "给房东打电话", "去查查视力", "请一天假", "去银行问问"]
STRUGGLE_EN = ["I keep burning the rice", "I've been procrastinating on everything", "I can't seem to wake up on time",
               "I keep forgetting my keys", "my plants keep dying", "I've been snacking way too much"]
STRUGGLE_ZH = ["做饭老是糊锅", "干什么都拖拖拉拉", "早上总起不来", "老是忘带钥匙", "养的花一盆接一盆地死", "零食吃得太多了"]
REACT_EN = ["it really moved me", "the ending got me", "I loved the cast and the story", "that part stuck with me",
            "I was so touched by it", "it made my whole week", "I always lose at it", "those cheer me up too"]
REACT_ZH = ["真的挺打动我的", "结尾让我哭了", "演员和剧情都很喜欢", "那一段我印象特别深", "看完很感动", "这些我也挺喜欢的",
            "我每次都输", "这些也让我心情变好"]

DIET_EN = ["vegan", "vegetarian", "gluten-free", "pescatarian", "lactose-free", "teetotal"]
DIET_ZH = ["吃素", "不吃猪肉", "不吃辣", "戒糖", "不喝酒", "不吃海鲜"]
COND_EN = ["asthma", "type 1 diabetes", "a bad knee", "migraines", "ADHD", "a nut allergy"]
COND_ZH = ["哮喘", "一型糖尿病", "腰椎间盘突出", "偏头痛", "甲亢", "花生过敏"]
PET_EN = ["a beagle", "two rabbits", "an old tabby cat", "a parrot", "a corgi", "a bearded dragon"]
PET_ZH = ["一只比格犬", "两只兔子", "一只老狸花猫", "一只鹦鹉", "一只柯基", "一只蜥蜴"]
JOB_EN = ["a paramedic", "a primary school teacher", "a sous chef", "an electrician", "a UX writer", "a lab technician"]
JOB_ZH = ["急救员", "小学老师", "厨师", "电工", "会计", "实验员"]
HOBBY_EN = ["restoring old radios", "bouldering", "birdwatching", "making pottery", "playing the cello", "trail running"]
HOBBY_ZH = ["修老收音机", "抱石", "观鸟", "做陶艺", "拉大提琴", "越野跑"]
MOOD_EN = ["long day lol", "ugh, tired", "rough week tbh", "bit grumpy today haha", "so sleepy rn", "meh, rainy mood"]
MOOD_ZH = ["今天好累", "唉，心情一般", "这周好忙", "有点烦哈哈", "困死了", "下雨天没精神"]
FEAR_EN = ["heights", "deep water", "flying", "needles", "spiders"]
FEAR_ZH = ["恐高", "怕深水", "怕坐飞机", "晕针", "怕蜘蛛"]

HERO_EN = ["a retired boxer", "a young widow", "a failed chef", "two brothers", "a lonely lighthouse keeper", "a runaway teenager"]
HERO_ZH = ["一个退役拳击手", "一位年轻的寡妇", "一个落魄的厨师", "两兄弟", "一个孤独的守塔人", "一个离家出走的少年"]
LOSS_EN = ["his farm", "her savings", "his restaurant", "their father", "everything in a fire", "his memory"]
LOSS_ZH = ["农场", "全部积蓄", "餐馆", "父亲", "一场大火里的一切", "记忆"]
ARC_EN = ["slowly finds a reason to keep going", "learns to trust people again", "fights to win it back",
          "ends up helping a stranger", "travels across the country to start over"]
ARC_ZH = ["慢慢找到了活下去的理由", "重新学会了信任别人", "拼命想把它夺回来", "最后帮助了一个陌生人", "横穿全国重新开始"]
SAYING_EN = ["friendship only works if both sides try", "money can't buy peace of mind", "time heals most things",
             "hard work always pays off in the end", "you can't please everyone", "health matters more than anything"]
SAYING_ZH = ["友谊要靠双方经营", "钱买不来心安", "时间能治愈大部分事情", "努力总会有回报的", "你不可能让所有人满意", "健康比什么都重要"]
HEARD_EN = ["that show", "the new Nolan film", "that band", "the book everyone talks about", "that podcast", "the musical"]
HEARD_ZH = ["那部剧", "诺兰的新片", "那个乐队", "大家都在聊的那本书", "那档播客", "那部音乐剧"]
ARTIST_EN = ["Norah Jones", "Sufjan Stevens", "Khruangbin", "Ludovico Einaudi", "Hozier", "Radiohead"]
ARTIST_ZH = ["朴树", "许巍", "草东没有派对", "久石让", "万能青年旅店", "蔡健雅"]
WHY_EN = ["their songs are so calming", "the lyrics really speak to me", "the live versions sound even better",
          "I grew up listening to them", "their music gets me through long drives"]
WHY_ZH = ["他的歌听着特别安静", "歌词很打动我", "现场版更好听", "我是听着他的歌长大的", "开长途全靠他的歌"]
NEWHOBBY_EN = ["salsa", "kayaking", "calligraphy", "rock climbing", "the ukulele", "sourdough baking"]
NEWHOBBY_ZH = ["萨尔萨舞", "皮划艇", "书法", "攀岩", "尤克里里", "做酸面包"]

_STEPS = (1, 3, 7, 11, 13, 17, 19, 23)
PER_TEMPLATE = 6

SLOTS: dict[str, list[str]] = {
    "work_en": WORK_EN, "work_zh": WORK_ZH, "fail_en": FAIL_EN, "fail_zh": FAIL_ZH, "feel_en": FEEL_EN,
    "feel_zh": FEEL_ZH, "advice_en": ADVICE_EN, "advice_zh": ADVICE_ZH, "dwell_en": DWELL_EN, "dwell_zh": DWELL_ZH,
    "title_en": TITLE_EN, "title_zh": TITLE_ZH, "media_en": MEDIA_EN, "media_zh": MEDIA_ZH, "adj_en": ADJ_EN,
    "adj_zh": ADJ_ZH, "city_en": CITY_EN, "city_zh": CITY_ZH, "sight_en": SIGHT_EN, "sight_zh": SIGHT_ZH,
    "vague_en": VAGUE_EN, "vague_zh": VAGUE_ZH, "errand_en": ERRAND_EN, "errand_zh": ERRAND_ZH,
    "struggle_en": STRUGGLE_EN, "struggle_zh": STRUGGLE_ZH, "react_en": REACT_EN, "react_zh": REACT_ZH,
    "diet_en": DIET_EN, "diet_zh": DIET_ZH, "cond_en": COND_EN, "cond_zh": COND_ZH, "pet_en": PET_EN,
    "pet_zh": PET_ZH, "job_en": JOB_EN, "job_zh": JOB_ZH, "hobby_en": HOBBY_EN, "hobby_zh": HOBBY_ZH,
    "mood_en": MOOD_EN, "mood_zh": MOOD_ZH, "fear_en": FEAR_EN, "fear_zh": FEAR_ZH,
    "hero_en": HERO_EN, "hero_zh": HERO_ZH, "loss_en": LOSS_EN, "loss_zh": LOSS_ZH, "arc_en": ARC_EN, "arc_zh": ARC_ZH,
    "artist_en": ARTIST_EN, "artist_zh": ARTIST_ZH, "why_en": WHY_EN, "why_zh": WHY_ZH,
    "newhobby_en": NEWHOBBY_EN, "newhobby_zh": NEWHOBBY_ZH,
    "saying_en": SAYING_EN, "saying_zh": SAYING_ZH, "heard_en": HEARD_EN, "heard_zh": HEARD_ZH,
}

# (family, keep, type, [templates])
Fam = tuple[str, bool, str | None, list[str]]
FAMILIES: list[Fam] = [
    ("self_doubt", False, None, [
        "I always feel like my {work_en} won't be good enough", "I keep thinking nobody will ever like my {work_en}",
        "I feel like I've worked so hard and still can't {fail_en}", "honestly I just feel {feel_en} these days",
        "I really do feel {feel_en} right now", "sometimes I worry my {work_en} are just not that good",
        "我总觉得我的{work_zh}不会有人喜欢", "我感觉自己已经很努力了，还是{fail_zh}", "我真的觉得挺{feel_zh}的",
        "最近总是觉得很{feel_zh}", "我老担心自己的{work_zh}不够好",
    ]),
    ("advice_echo", False, None, [
        "I guess the first step is to {advice_en}", "maybe I should {advice_en} instead of {dwell_en}",
        "you're right, I should stop {dwell_en} and {advice_en}", "I'll try to {advice_en}",
        "I'll keep what you said in mind", "ok so basically {advice_en}, got it",
        "我觉得首先应该{advice_zh}", "我应该{advice_zh}，别老{dwell_zh}", "你说得对，我不该{dwell_zh}",
        "我会试着{advice_zh}", "你的话我记住了",
    ]),
    ("reaction_no_referent", False, None, [
        "{react_en}", "honestly {react_en}", "yeah {react_en}", "{react_en} haha", "{react_zh}", "是啊，{react_zh}",
        "说真的{react_zh}",
    ]),
    ("media_of_the_moment", False, None, [
        "I'm halfway through {media_en} called {title_en}, it's {adj_en}", "just started {media_en} called {title_en}",
        "I watched {title_en} last night, {adj_en}", "currently reading {title_en}, {adj_en} so far",
        "I recently picked up {media_en}, {title_en}, it's {adj_en}",
        "我最近在看{media_zh}叫{title_zh}，{adj_zh}", "昨晚看了{title_zh}，{adj_zh}", "这两天在追{title_zh}，{adj_zh}",
        "刚开始看{title_zh}，目前{adj_zh}",
    ]),
    ("trip_logistics", False, None, [
        "I've already booked the flights and a hotel for {city_en}", "I'm sorting out trains and where to stay in {city_en}",
        "I made an itinerary so I get enough time in {city_en}", "while I'm in {city_en} I plan to see {sight_en}",
        "I still need to figure out the buses around {city_en}", "I've started packing for {city_en}",
        "去{city_zh}的机票和酒店我已经订好了", "我在查{city_zh}当地的交通和住宿", "我做了个行程表，保证在{city_zh}有足够时间",
        "到{city_zh}以后我打算去看看{sight_zh}", "去{city_zh}的行李我已经开始收拾了",
    ]),
    ("vague_idea_of_the_moment", False, None, [
        "I've been toying with {vague_en} lately", "I'm thinking about {vague_en} these days",
        "been considering {errand_en}", "I'm wondering whether I should be {errand_en}", "maybe I'll try {vague_en}, not sure",
        "最近在想要不要{vague_zh}", "我在考虑要不要去{errand_zh}", "这阵子琢磨着{vague_zh}", "也许该{vague_zh}了吧，还没想好",
    ]),
    ("struggle_these_days", False, None, [
        "lately {struggle_en}", "{struggle_en} recently, it's annoying", "ugh, {struggle_en} this week",
        "最近{struggle_zh}", "这几天{struggle_zh}，好烦", "最近发现自己{struggle_zh}",
    ]),
    # second pass: what is not about the user (a story's plot, a saying) and a work only heard of
    ("story_plot", False, None, [
        "it's about {hero_en} who loses {loss_en} and {arc_en}", "{hero_en} loses {loss_en}, then {arc_en}",
        "the film follows {hero_en} who {arc_en}", "in the book {hero_en} {arc_en}",
        "讲的是{hero_zh}失去了{loss_zh}，后来{arc_zh}", "{hero_zh}失去{loss_zh}之后{arc_zh}", "电影里{hero_zh}{arc_zh}",
    ]),
    ("saying", False, None, [
        "{saying_en}", "well, {saying_en}", "I guess {saying_en}", "{saying_zh}", "毕竟{saying_zh}", "我觉得{saying_zh}吧",
    ]),
    ("heard_of_not_tried", False, None, [
        "I've heard of {heard_en} but haven't watched it yet", "heard good things about {heard_en}, never tried it",
        "I know of {heard_en}, just haven't gotten round to it", "听说过{heard_zh}，但还没看过", "{heard_zh}我听过，还没来得及看",
    ]),
    # keeps: the counterweight (durable things, often beside a mood of the day)
    ("fact_beside_mood", True, "fact", [
        "{mood_en}, but anyway I work as {job_en}", "{mood_en}. fyi I have {cond_en}",
        "{mood_en} - we adopted {pet_en} last month btw", "{mood_zh}，对了我是做{job_zh}的",
        "{mood_zh}，顺便说下我有{cond_zh}", "{mood_zh}，我们家上个月养了{pet_zh}",
    ]),
    ("diet_beside_mood", True, "preference", [
        "{mood_en}, anyway I've been {diet_en} for years", "{mood_en} but remember I'm {diet_en}",
        "{mood_zh}，我一直{diet_zh}的", "{mood_zh}，我好几年都{diet_zh}了",
    ]),
    ("who_i_am_event", True, "fact", [
        "I got diagnosed with {cond_en} a few years ago", "I started a new job as {job_en} this spring",
        "we've got {pet_en} at home", "I've worked as {job_en} for a decade",
        "我前几年查出了{cond_zh}", "我今年开始做{job_zh}了", "家里养了{pet_zh}", "我当{job_zh}十年了",
    ]),
    ("standing_favourite_work", True, "preference", [
        "{title_en} is my all-time favourite", "I've reread {title_en} so many times, it's my favourite book",
        "my favourite show ever is {title_en}", "{title_zh}是我最喜欢的书，看了好多遍", "我最爱的剧是{title_zh}",
    ]),
    ("hobby_with_object", True, "preference", [
        "{mood_en}, but my weekends are all about {hobby_en}", "I've been into {hobby_en} for years",
        "{hobby_en} is how I unwind", "{mood_zh}，不过我周末一般都在{hobby_zh}", "我{hobby_zh}好多年了", "我平时靠{hobby_zh}放松",
    ]),
    # third pass (what the second pass cost on MemoryBank en, as families: a wish to hear an artist live told
    # with its reason, a hobby taken up lately and enjoyed)
    ("artist_live_wish_with_reason", True, "preference", [
        "I'd really love to catch {artist_en} in concert one day, {why_en}", "I'd also like to see {artist_en} live since {why_en}",
        "going to a {artist_en} show is on my list, {why_en}", "我也很想去听{artist_zh}的现场，因为{why_zh}",
        "有机会想去看{artist_zh}的演出，{why_zh}",
    ]),
    ("new_hobby_enjoyed", True, "preference", [
        "I recently took up {newhobby_en} and it's really fun", "I started learning {newhobby_en} a while ago and I love it",
        "I've picked up {newhobby_en} lately, it feels great", "我最近开始学{newhobby_zh}，感觉特别有意思",
        "前阵子学了点{newhobby_zh}，越玩越喜欢",
    ]),
    ("lasting_struggle", True, "fact", [
        "I've always been scared of {fear_en}", "I have a real phobia of {fear_en}", "my whole life I've had a fear of {fear_en}",
        "我从小就{fear_zh}", "我一直都{fear_zh}",
    ]),
]


def prec27_template_rows() -> list[dict[str, Any]]:
    """Every family's templates filled ``PER_TEMPLATE`` times (distinct texts only), in a fixed order;
    ``source`` is ``template_prec27``."""
    return family_rows(FAMILIES, SLOTS, _STEPS, PER_TEMPLATE, "template_prec27")
