# ruff: noqa: E501  (data: hand-written templates and slot values, one family per block)
"""A third set of hand-written templates for the utterance corpus (issue 24, precision; ``h-prec24``).

Written for this repository on 2026-12-05 by the ``h-prec24`` helper (an AI agent session), with slot
values and sentence shapes of its own, none copied or paraphrased from an evaluation set (the dev cases,
the team's held-out cases, ``bench/data/dev2_cases.jsonl``, MemoryBank, Synthetic-Persona-Chat's test
split), the issue texts or the demo samples (``training/build_utterance_corpus.py --check`` searches every
row in them). What the precision sample of stored memories showed the classifier keeping that the seed's
boundary drops, in the long, polite register of a user talking to a companion over many evenings:

- drops: the day's outing told at length ("went to the riverside market with my cousin and saw..."),
  the day's impression of it ("it made me appreciate..."), moods and self-assessments of the moment
  ("lately I've been feeling drained and can't focus", "我最近总是觉得提不起精神"), replies to the
  assistant's advice ("I'll keep that in mind", "这些建议都不错，不过我不太感兴趣"), thanks and
  wishes to keep chatting, plans of the moment ("I'm off to practise now, bye", "我打算出去散散心"),
  remarks on a film's or a book's content, a purchase of the day;
- keeps: the same people's durable tastes and habits in the same register, so the drops do not take
  hobbies with them ("I go bouldering almost every weekend", "我一直很喜欢在湖边拍照", "我每天都会练半小时字").

**Not wired into the corpus yet.** One retrain with these rows (``build_utterance_corpus.py`` taking
``prec24_template_rows()`` after the chat set: 8,985 rows; ``train_memory_classifier --l2 1e-5`` then
``train_memory_mlp``) stored 13-20 % fewer memories on MemoryBank but lost two dev2 cases (a job told
with a remark after it, a secondhand canoe being restored: "picked up" was a drop here) and one
dev-updates item, and a rising-tone hedged taste fell just under the override threshold (0.967 < 0.97);
see ``bench/RESULTS.md`` (issue 24, session 10). To try it: add ``*prec24_template_rows()`` to the row
list of ``build_utterance_corpus.build`` and retrain.

Expansion is deterministic like the other sets': template ``t`` takes, for its ``k``-th row, slot value
``(k * step_s + t) % len(values)`` of each slot ``s`` (co-prime steps), ``PER_TEMPLATE`` rows at most,
distinct texts only.
"""

from __future__ import annotations

from typing import Any

from training.template_rows import family_rows

PLACE_EN = ["the riverside market", "an old bookshop downtown", "the botanical garden", "a pottery studio open day",
            "the new science center", "a lakeside trail", "the flower show", "a jazz bar near my office",
            "the harbor boardwalk", "a temple fair", "the county museum", "a food festival in the square"]
PLACE_ZH = ["江边的夜市", "市里新开的科技馆", "植物园", "老城区的书店", "湖边的步道", "一个陶艺体验馆", "海边栈道",
            "庙会", "省博物馆", "一个美食节", "郊区的花海", "新开的商场"]
SAW_EN = ["a street band playing old tunes", "lots of tiny succulents", "a giant whale skeleton",
          "hand-painted lanterns everywhere", "some ducks fighting over bread", "an exhibit on early printing",
          "kids flying kites", "a chef making noodles by hand"]
SAW_ZH = ["很多手工灯笼", "一只很大的鲸鱼骨架", "一群小朋友在放风筝", "有人现场拉面", "很多可爱的多肉", "一个关于古代印刷的展",
          "街头乐队在唱老歌", "几只鸭子在抢面包"]
WHO_EN = ["my cousin", "a coworker", "two old classmates", "my neighbor", "my sister", "a friend from the gym"]
WHO_ZH = ["表姐", "同事", "两个老同学", "邻居", "妹妹", "健身房认识的朋友"]
MOOD_EN = ["drained", "kind of empty", "restless", "unmotivated", "overwhelmed at work", "low on energy",
           "a bit lost", "stuck", "irritable", "like nothing I do is good enough"]
MOOD_ZH = ["提不起精神", "有点空虚", "心里很乱", "没什么动力", "被工作压得喘不过气", "浑身没劲", "有点迷茫",
           "做什么都不顺", "脾气很差", "自己做什么都不够好"]
SELF_EN = ["I've been putting things off a lot", "I can't seem to focus on anything", "I keep doubting myself",
           "I haven't been sleeping well", "my confidence has taken a hit", "I've been comparing myself to others"]
SELF_ZH = ["我最近老是拖延", "我最近注意力很难集中", "我总是怀疑自己", "我这几天睡得不好", "我最近有点不自信",
           "我总忍不住跟别人比较"]
ADVICE_EN = ["I'll keep that in mind from now on", "that's good advice, I'll give it a try", "makes sense, I'll try that",
             "I'll remember what you said", "ok I'll think about it", "those are nice ideas but I'm not really feeling it",
             "you're right, I should relax a bit", "I'll try to be more patient with myself"]
ADVICE_ZH = ["好的，我会记住你说的", "这个建议不错，我试试看", "有道理，我回头试一下", "我知道了，以后会注意",
             "好吧，我考虑一下", "这些建议都挺好，不过我没什么兴趣", "你说得对，我应该放松一点", "我会试着对自己耐心一些"]
THANK_EN = ["thanks for listening to me tonight", "you always cheer me up, I hope we keep chatting",
            "thank you, talking to you really helps", "I appreciate your suggestions and your care",
            "you're so thoughtful, thanks a lot", "thanks, that was really inspiring"]
THANK_ZH = ["谢谢你今晚陪我聊天", "你总能让我开心起来，希望以后还能常聊", "谢谢你，和你聊聊感觉好多了", "谢谢你一直这么关心我",
            "你真贴心，太感谢了", "谢谢，挺受启发的"]
NOW_EN = ["I'm going to go practise now, see you", "I'm heading out for a bit to clear my head",
          "I think I'll take a short trip to unwind", "I'll look for a small gift for her later",
          "I'm going to make dinner now", "I might go see a movie this evening to relax"]
NOW_ZH = ["我现在要去练琴了，回头聊", "我打算出去走走散散心", "我想去短途旅行放松一下", "我晚点去给她挑个小礼物",
          "我现在去做饭了", "我今晚可能去看场电影放松一下"]
WORK_EN = ["the lead's change over the story", "how the ending ties everything together", "the way the city is filmed",
           "the side characters", "the letters between the two sisters", "the quiet scenes in the kitchen"]
WORK_ZH = ["主角前后的变化", "结局的处理", "城市的拍法", "几个配角", "两姐妹之间的书信", "厨房里那些安静的镜头"]
BUY_EN = ["a new pair of running shoes", "a green wool scarf", "a secondhand camera lens", "a set of paint brushes",
          "a linen shirt", "a cheap desk lamp"]
BUY_ZH = ["一双新跑鞋", "一条绿色围巾", "一个二手镜头", "一套画笔", "一件亚麻衬衫", "一盏便宜的台灯"]
DISH_EN = ["dumplings", "a tomato egg stir-fry", "lemon cake", "braised pork", "a big pot of curry", "banana bread"]
DISH_ZH = ["饺子", "番茄炒蛋", "柠檬蛋糕", "红烧肉", "一大锅咖喱", "香蕉面包"]

HOBBY_EN = ["bouldering", "birdwatching", "playing the cello", "sketching people on the train", "trail running",
            "making dumplings from scratch", "fly fishing", "playing chess online", "growing tomatoes",
            "night photography", "learning Japanese songs", "table tennis"]
HOBBY_ZH = ["攀岩", "观鸟", "拉大提琴", "画速写", "越野跑", "包饺子", "钓鱼", "下围棋", "种番茄", "拍夜景", "打乒乓球",
            "练毛笔字"]
WHERE_EN = ["near the lake", "in the mountains", "at the old harbor", "in quiet parks", "on rooftops", "by the sea"]
WHERE_ZH = ["湖边", "山里", "老码头", "安静的公园", "楼顶", "海边"]
GENRE_EN = ["old detective novels", "war documentaries", "slow indie films", "travel memoirs", "sci-fi short stories",
            "classical guitar pieces"]
GENRE_ZH = ["老派侦探小说", "战争纪录片", "慢节奏的文艺片", "旅行游记", "科幻短篇", "古典吉他曲"]

_STEPS = (1, 3, 7, 11, 13, 17, 19, 23)
PER_TEMPLATE = 8

SLOTS: dict[str, list[str]] = {
    "place_en": PLACE_EN, "place_zh": PLACE_ZH, "saw_en": SAW_EN, "saw_zh": SAW_ZH, "who_en": WHO_EN,
    "who_zh": WHO_ZH, "mood_en": MOOD_EN, "mood_zh": MOOD_ZH, "self_en": SELF_EN, "self_zh": SELF_ZH,
    "advice_en": ADVICE_EN, "advice_zh": ADVICE_ZH, "thank_en": THANK_EN, "thank_zh": THANK_ZH,
    "now_en": NOW_EN, "now_zh": NOW_ZH, "work_en": WORK_EN, "work_zh": WORK_ZH, "buy_en": BUY_EN,
    "buy_zh": BUY_ZH, "dish_en": DISH_EN, "dish_zh": DISH_ZH, "hobby_en": HOBBY_EN, "hobby_zh": HOBBY_ZH,
    "where_en": WHERE_EN, "where_zh": WHERE_ZH, "genre_en": GENRE_EN, "genre_zh": GENRE_ZH,
}

# (family, keep, type, [templates])
Fam = tuple[str, bool, str | None, list[str]]
FAMILIES: list[Fam] = [
    ("day_outing", False, None, [
        "I went to {place_en} with {who_en} and saw {saw_en}", "Today I visited {place_en}, there was {saw_en}",
        "We went to {place_en} this afternoon and it was lovely", "I recently went to {place_en}, it was beautiful",
        "Yesterday {who_en} and I walked around {place_en}", "I took a stroll through {place_en} and saw {saw_en}",
        "I just got back from {place_en}, it was really crowded", "We saw {saw_en} at {place_en}",
        "Over the weekend I went to {place_en} and had a great time",
        "我今天和{who_zh}去了{place_zh}，看到了{saw_zh}", "我最近去了{place_zh}，非常漂亮", "昨天我去{place_zh}逛了逛",
        "下午和{who_zh}去了一趟{place_zh}，人特别多", "我们在{place_zh}看到了{saw_zh}", "周末去了{place_zh}，玩得很开心",
        "我刚从{place_zh}回来，感觉挺不错的", "我前两天去了{place_zh}，看到{saw_zh}",
    ]),
    ("day_impression", False, None, [
        "It made me appreciate the little things even more", "Standing there, I suddenly felt very calm",
        "I felt like the trip broadened my horizons a bit", "There were so many different styles that I got lost in it",
        "Walking around there really put me in a good mood", "it was one of those days that make you feel light",
        "站在那里的时候，我突然觉得心情很平静", "这次出去让我开阔了眼界", "那里的氛围让我觉得很放松",
        "看完之后我对传统文化多了一些敬意", "我在那儿待了一下午，完全沉浸其中", "那天过得特别充实",
    ]),
    ("mood_self_assessment", False, None, [
        "Lately I've been feeling {mood_en}", "I feel {mood_en} these days", "Recently I've felt {mood_en} and I don't know why",
        "{self_en}", "{self_en} and it's wearing me down", "Honestly I've been feeling {mood_en} this week",
        "I'm feeling much better now", "I've been under a lot of pressure lately and feel {mood_en}",
        "我最近总是觉得{mood_zh}", "这几天我感觉{mood_zh}", "最近不知道为什么，{mood_zh}", "{self_zh}",
        "{self_zh}，挺烦的", "跟你说完我心里舒服多了", "最近压力很大，感觉{mood_zh}", "我觉得自己最近{mood_zh}",
    ]),
    ("advice_reply", False, None, [
        "{advice_en}", "Ok, {advice_en}", "Thanks, {advice_en}", "Hmm, {advice_en}",
        "{advice_zh}", "嗯，{advice_zh}", "好的，{advice_zh}",
    ]),
    ("thanks_wish", False, None, [
        "{thank_en}", "Aw, {thank_en}", "{thank_en}, good night", "{thank_zh}", "嗯嗯，{thank_zh}", "{thank_zh}，晚安",
    ]),
    ("plan_of_moment", False, None, [
        "{now_en}", "Ok, {now_en}", "Alright, {now_en}", "{now_zh}", "好啦，{now_zh}", "那{now_zh}",
    ]),
    ("work_content_remark", False, None, [
        "I think the most touching part was {work_en}", "What stayed with me was {work_en}",
        "The best thing about it is {work_en}", "I kept thinking about {work_en} afterwards",
        "我觉得最打动我的是{work_zh}", "让我印象最深的是{work_zh}", "看完以后我一直在想{work_zh}",
    ]),
    ("day_purchase_meal", False, None, [
        "I bought {buy_en} today", "I got {buy_en} on sale today", "I made {dish_en} for dinner tonight",
        "Today I tried cooking {dish_en} and burnt it a bit", "我今天买了{buy_zh}", "刚入手了{buy_zh}",
        "今晚我做了{dish_zh}", "今天试着做了{dish_zh}，有点糊了",
    ]),
    ("preference_habitual_register", True, "preference", [
        "I go {hobby_en} almost every weekend", "{hobby_en} has been my hobby for years",
        "I really enjoy {hobby_en}, I try to do it whenever I have free time", "In my spare time I'm usually {hobby_en}",
        "I like taking photos {where_en}, the scenery there is always calm", "I've always loved {genre_en}",
        "I usually unwind with {genre_en}", "My favorite way to spend a Sunday is {hobby_en}",
        "我每个周末几乎都会去{hobby_zh}", "{hobby_zh}是我坚持了好几年的爱好", "我很喜欢{hobby_zh}，有空就会去",
        "我平时空闲的时候一般在{hobby_zh}", "我一直很喜欢在{where_zh}拍照，那里的风景很安静", "我一直都很喜欢{genre_zh}",
        "我通常会看{genre_zh}来放松", "我最喜欢的周末活动就是{hobby_zh}",
        # "lately" with a pastime is no mood: what the user spends free time on these days
        "Lately I've been spending most of my free time {hobby_en}", "These days I spend my evenings {hobby_en}",
        "I've been into {hobby_en} lately, it's hard but I enjoy it", "Recently I've been learning {hobby_en} and loving it",
        "最近我闲暇时间基本都在{hobby_zh}", "这段时间下班后我一般都在{hobby_zh}", "我最近在学{hobby_zh}，虽然有点难但挺有意思",
        "最近迷上了{hobby_zh}，有空就练", "我会听{genre_zh}、{hobby_zh}来放松", "I unwind with {genre_en} and {hobby_en}",
    ]),
]


def prec24_template_rows() -> list[dict[str, Any]]:
    """Every family's templates filled ``PER_TEMPLATE`` times (distinct texts only), in a fixed order;
    ``source`` is ``template_prec24``."""
    return family_rows(FAMILIES, SLOTS, _STEPS, PER_TEMPLATE, "template_prec24")
