"""Pair families of helper ``upd24c`` (issue 24, session 12): new values told beside a negation of the old.

The update judge's failures on new people's wording (``bench/data/dev_updates*_cases.jsonl``) had one
learned part in common: a statement that tells the new value *and* says the old one is over with a
negation and no retraction cue ("Notion 太卡了 已经不用了，全部搬到 Obsidian 了", "not going back",
"不用飞了", "guitar 基本不碰了") was split by the pair model between ``supersede`` and ``retract`` (the
earlier templates tie a negation to retractions), and a short "i'm a X now" / "i'm on X now" was
called ``unrelated``. These families, on slots of their own (a musical instrument, a notes app, a
board game, a bedtime habit, a language being learnt, a reading target, a morning routine, a way of
working), give supersede statements with a negation of the old value and no retraction cue, in
Chinese, English and zh-en mixed chat; refinements (a detail of the same value, nothing replaced; none
with a negation: such rows pulled "现在能吃辣了" and "芝麻后来送去我妈那儿养了" towards refine); and
retractions with a retraction cue. Generated from slot lists of their own, never from a case set.
``family_rows`` in ``training.pair_templates`` pairs them like the other families with ``upd24c``
(``python -m training.train_pair_model --upd24c-families``), meeting the other families one time in
three; not shipped: every model trained with them passed fewer update dev cases (bench/RESULTS.md).
"""

from __future__ import annotations

from training.pair_family import Family, _f

FAMILIES_UPD24C: list[Family] = [
    _f(
        "instrument",
        ["the cello", "bass guitar", "the violin", "the trumpet", "the accordion", "the banjo"],
        ["古筝", "二胡", "小提琴", "钢琴", "架子鼓", "尤克里里"],
        (
            ["i play {a}", "been playing {a} since high school", "{a} is my thing, i practice most nights"],
            ["我在学{a}", "我弹{a}好多年了", "业余时间练{a}"],
        ),
        (
            [
                "{a} is collecting dust, i'm on {b} now",
                "haven't touched {a} in months, learning {b} instead",
                "not really a {a} person anymore, {b} all the way",
                "gave {a} away lol, {b} these days",
                "{b} now. {a} just wasn't it for me",
                "my teacher moved so no more {a}, picked up {b}",
            ],
            [
                "{a}基本不碰了，最近在练{b}",
                "不学{a}了，改学{b}",
                "{a}先放一放，现在学{b}",
                "现在主要弹{b}，{a}好久没摸了",
                "{a}太难了不练了，转到{b}",
                "最近 switch 到 {b} 了，{a} 不碰了",
            ],
        ),
        (
            ["forget the instrument thing", "don't keep what i said about music lessons"],
            ["乐器那条别记了", "学乐器的事删掉吧"],
        ),
        (
            [
                "{a}, mostly jazz standards",
                "{a} is hard on my fingers but i love it",
                "{a} lessons got moved to thursdays",
                "my {a} teacher says i'm not bad lol",
            ],
            ["{a}，每周上一节课", "{a}考到六级了", "练{a}练得手疼，不过挺开心", "{a}老师说我进步挺快"],
        ),
    ),
    _f(
        "notes_app",
        ["Notion", "Evernote", "OneNote", "Apple Notes", "Bear", "Google Keep"],
        ["Notion", "印象笔记", "OneNote", "备忘录", "语雀", "飞书文档"],
        (
            ["i keep all my notes in {a}", "{a} is where my whole life lives", "i use {a} for notes"],
            ["我习惯用{a}记东西", "笔记都在{a}里", "我一直用{a}做笔记"],
        ),
        (
            [
                "{a} got way too slow, moved everything to {b}",
                "not using {a} anymore, {b} is so much better",
                "been on {b} for a month now, not going back",
                "deleted {a}, it's {b} for me now",
                "{a} is dead to me lol, {b} all the way",
                "i don't use {a} these days, all my notes are in {b}",
            ],
            [
                "{a}太卡了已经不用了，全部搬到{b}了",
                "现在笔记都用{b}，{a}不用了",
                "{a}卸载了，改用{b}",
                "不用{a}了，{b}好用多了",
                "{a}受不了了，现在 full time 用{b}",
                "最近都在{b}上记，{a}没再打开过",
            ],
        ),
        (
            ["forget which notes app i use", "drop the notes app thing"],
            ["笔记软件那条删了吧", "用什么记笔记别存了"],
        ),
        (
            [
                "{a}, with a template for each project",
                "i pay for {a} premium",
            ],
            ["{a}，每个项目一个页面", "{a}开了会员", "{a}里建了读书清单"],
        ),
    ),
    _f(
        "board_game",
        ["chess", "poker", "scrabble", "mahjong", "bridge", "backgammon"],
        ["象棋", "围棋", "麻将", "斗地主", "五子棋", "桥牌"],
        (
            ["i play a lot of {a} online", "big {a} player here", "{a} with my friends every friday"],
            ["我平时爱下{a}", "周末经常玩{a}", "我{a}玩得挺好"],
        ),
        (
            [
                "been off {a} for months tbh, {b} is my game now",
                "{a} got boring, i play {b} with the guys at the park now",
                "not into {a} anymore, it's {b} these days",
                "i'm a {b} guy now lol",
                "swapped {a} for {b}, way more fun",
            ],
            [
                "{a}不下了，现在迷上{b}了",
                "最近都在玩{b}，{a}好久没碰",
                "{a}玩腻了，改玩{b}",
                "现在是{b}爱好者了哈哈",
                "不怎么玩{a}了，{b}更有意思",
            ],
        ),
        (["forget the game stuff", "ignore what i said about {a}"], ["下棋那个别记了", "玩{a}的事删掉"]),
        (
            ["{a}, mostly blitz", "{a} rating went up this week", "{a}, i lose a lot lol"],
            ["{a}，一般下快棋", "{a}最近老输", "{a}，跟老同学一起玩"],
        ),
    ),
    _f(
        "bedtime_habit",
        ["scrolling tiktok", "watching youtube", "gaming", "reading on my kindle", "listening to podcasts"],
        ["刷抖音", "看B站", "打游戏", "看小说", "听播客"],
        (
            ["i'm always {a} before bed", "every night it's {a} until 1am", "i fall asleep {a}"],
            ["我每天睡前都要{a}", "晚上习惯{a}到很晚", "睡前一般{a}"],
        ),
        (
            [
                "no more {a} in bed, i'm {b} instead and sleeping way better",
                "stopped {a} at night, it's {b} now",
                "i don't do {a} before bed anymore, {b} these days",
                "deleted the app lol, {b} before sleep now",
                "{b} before bed now, {a} was wrecking my sleep",
            ],
            [
                "睡前不{a}了，改成{b}",
                "{a}戒了，现在睡前{b}",
                "现在睡前{b}，不再{a}了",
                "app卸载了，睡前改{b}，睡得好多了",
                "已经不{a}了，换成{b}",
            ],
        ),
        (
            ["forget my bedtime stuff", "don't keep the sleep habit thing"],
            ["睡前那个习惯别记了", "作息那条删掉"],
        ),
        (
            ["{a}, usually for an hour", "{a} with the lights off"],
            ["{a}，一般一个小时", "{a}，一般看到十二点"],
        ),
    ),
    _f(
        "lang_learning",
        ["japanese", "korean", "german", "italian", "french", "arabic"],
        ["日语", "韩语", "德语", "法语", "西班牙语", "意大利语"],
        (
            ["i'm learning {a}", "studying {a} on duolingo every day", "trying to get good at {a}"],
            ["我在学{a}", "每天背{a}单词", "最近在自学{a}"],
        ),
        (
            [
                "the grammar defeated me lol. doing {b} now",
                "dropped {a}, it's {b} on duolingo now, 40 day streak",
                "not learning {a} anymore, switched to {b}",
                "{b} is way more my speed, gave up on {a}",
                "i'm a {b} learner now haha",
            ],
            [
                "{a}太难了放弃了，现在学{b}",
                "不学{a}了，改学{b}",
                "{a}先不学了，报了个{b}班",
                "现在在学{b}，{a}坚持不下去",
                "{a}没学下去，换成{b}了",
            ],
        ),
        (["forget the language learning thing"], ["学语言那条删了"]),
        (
            ["{a}, about 20 min a day", "{a} is going slow but i like it", "{a}, with a tutor on weekends"],
            ["{a}，每天半小时", "{a}学到第三课了", "{a}，周末找了个老师"],
        ),
    ),
    _f(
        "job3",
        ["a welder", "a flight attendant", "a call centre agent", "a sous chef", "a cashier", "a nanny"],
        ["空乘", "药剂师", "客服", "厨师", "收银员", "保安"],
        (
            ["i work as {a}", "{a}, it pays the bills", "i'm {a} at a big company"],
            ["我是{a}", "我在做{a}", "干{a}三年了"],
        ),
        (
            [
                "handed in my notice last month. i'm {b} now",
                "put in my two weeks lol, starting as {b}",
                "i'm {b} now!! never looking back",
                "so i'm {b} now, normal hours finally",
                "no longer {a}, working as {b}",
                "not doing the {a} thing anymore, {b} now",
            ],
            [
                "不干{a}了，现在是{b}",
                "{a}不做了，转行做{b}",
                "辞了，现在在做{b}",
                "officially 转行 😅 现在做{b}，不用再当{a}了",
                "现在是{b}了，{a}不干了",
                "已经不是{a}了，改做{b}",
            ],
        ),
        (["forget my job", "delete the work info"], ["工作那个别记", "职业信息删掉"]),
        (
            ["{a}, mostly weekends", "{a}, the pay got a bit better", "{a} for six years now"],
            ["{a}，主要上晚班", "{a}，最近涨了点工资", "{a}，干得还行"],
        ),
    ),
    _f(
        "reading_goal",
        ["20 books", "12 books", "50 books", "30 books", "one book a month"],
        ["20本书", "12本书", "50本书", "30本书", "一个月一本书"],
        (
            ["my goal is to read {a} this year", "trying to hit {a} this year"],
            ["我的目标是今年读完{a}", "今年打算读{a}"],
        ),
        (
            [
                "make the reading goal {b}, {a} is not realistic",
                "lowering my reading target to {b}",
                "{b} is plenty for the reading goal",
                "bump the reading goal up to {b}",
            ],
            ["读书目标改成{b}吧，{a}不现实", "阅读目标调到{b}", "目标改为{b}，{a}太多了", "今年读{b}就够了"],
        ),
        (["forget the reading goal"], ["读书目标那条删了"]),
        (["{a}, mostly fiction", "{a}, i'm at 7 so far"], ["{a}，以小说为主", "{a}，已经读了五本"]),
    ),
    _f(
        "work_mode",
        ["remote", "in the office", "hybrid", "on site at the plant"],
        ["远程办公", "坐班", "混合办公", "驻场"],
        (["i work {a}", "i'm {a} five days a week"], ["我是{a}", "我一直{a}"]),
        (
            [
                "no more {a}, i'm {b} now",
                "company changed the policy so i'm {b} these days",
                "not {a} anymore, {b} since march",
                "we moved to {b} and honestly it's fine",
            ],
            ["现在不{a}了，改成{b}", "公司改政策了，现在{b}", "已经不{a}了，{b}", "从三月开始{b}了"],
        ),
        (["forget how i work"], ["办公方式那条别记"]),
        (["{a}, but mondays in person", "{a} with a 9am standup"], ["{a}，周一要开会", "{a}，每天九点打卡"]),
    ),
]
