"""More pair families for the update/retraction pair model (issue 24, second pass, helper ``upd24``).

Twelve slot families none of the earlier templates cover (a barber, an insurer, a browser, a game
console, a podcast, a grocery store, a team supported, a skincare product, running shoes, an
instrument, a show being watched, a bedtime), in Chinese and English, worded the way people write in
chat: indirect cues of change ("ever since", "these days", "so over", "gave up", "ditched", "traded",
"picked up", "caved and got", "I'm a X person now", "后来", "如今", "早就不", "已经", "最近", "卸载了"),
old values named or not, typos and slang; retractions in many words ("get rid of", "take out",
"ignore what i said about", "leave out", "就当没听过", "去掉", "别留着"); and refinements that carry a
weak cue ("现在已经...", "now with...", progress, a detail of the same value) as hard negatives, so that
"now" alone is not read as a new value. Generated from slot lists of their own, never from a case set.
``family_rows`` in ``training.pair_templates`` pairs them like the other families (same language,
the other language one in three, every other family as ``unrelated``).
"""

from __future__ import annotations

from training.pair_family import Family, _f

FAMILIES_UPD24: list[Family] = [
    _f(
        "barber",
        [
            "Tony's on 5th",
            "a salon near work",
            "Supercuts",
            "my cousin's shop",
            "Great Clips",
            "a Korean salon",
        ],
        [
            "楼下那家理发店",
            "公司旁边的沙龙",
            "老街的剃头铺",
            "商场里的快剪",
            "朋友开的工作室",
            "小区门口的发廊",
        ],
        (
            ["i get my hair cut at {a}", "been going to {a} for haircuts for years", "{a} does my hair lol"],
            ["我一般在{a}剪头发", "剪头发都去{a}", "我的发型一直是{a}弄的"],
        ),
        (
            [
                "ever since my guy retired i go to {b}",
                "switched barbers, it's {b} these days",
                "done with {a} tbh, {b} does it way better",
                "found a new place, {b}, never going back",
                "{b} now for haircuts, {a} got too pricey",
                "i'm a {b} regular now lol",
            ],
            [
                "后来换了{b}剪头发",
                "如今都去{b}了",
                "{a}早就不去了，现在去{b}",
                "最近改去{b}剪了，便宜",
                "理发换成{b}了",
                "{a}关门了，后来一直在{b}",
            ],
        ),
        (
            [
                "get rid of the haircut stuff",
                "ignore what i said about my barber",
                "take out the hair salon thing",
            ],
            ["理发那个就当没听过吧", "剪头发的事去掉", "理发店那条别留着"],
        ),
        (
            ["{a}, usually every 6 weeks", "{a}, they remember my name now", "{a} and i always tip"],
            ["{a}，一般一个月去一次", "{a}，现在老板都认识我了", "{a}，每次都办卡打折"],
        ),
    ),
    _f(
        "insurer",
        ["Geico", "State Farm", "Allstate", "Progressive", "Lemonade", "Aviva"],
        ["平安", "太平洋保险", "人保", "众安", "泰康", "中国人寿"],
        (
            ["my car insurance is with {a}", "insured with {a} rn", "{a} covers my car"],
            ["我的车险买的是{a}", "保险在{a}买的", "车险一直是{a}"],
        ),
        (
            [
                "ditched {a}, went with {b} for way less",
                "{b} these days, {a} hiked my rate",
                "moved my policy over to {b}",
                "i'm with {b} now after the renewal mess",
                "caved and switched to {b}",
            ],
            [
                "车险后来换成{b}了",
                "今年改买{b}了",
                "{a}不续了，换到{b}",
                "已经转到{b}了，便宜好几百",
                "如今买的是{b}",
            ],
        ),
        (
            ["forget my insurance company", "leave out the insurance thing pls", "don't save who insures me"],
            ["保险那个删了吧", "车险的事别记", "保险公司那条去掉"],
        ),
        (
            ["{a}, full coverage", "{a}, renewal is in june", "{a}, and they now include roadside help"],
            ["{a}，全险", "{a}，每年六月续保", "{a}，现在还送道路救援"],
        ),
    ),
    _f(
        "browser",
        ["Chrome", "Firefox", "Safari", "Arc", "Brave", "Edge"],
        ["Chrome", "火狐", "Safari", "Edge", "夸克", "360浏览器"],
        (
            ["i use {a} for everything", "{a} is my browser", "all my tabs live in {a}"],
            ["我平时用{a}上网", "浏览器用的是{a}", "我一直用{a}"],
        ),
        (
            [
                "ditched {a} for {b}, way less ram",
                "i'm a {b} person now",
                "gave up on {a}, it's {b} these days",
                "moved all my bookmarks to {b}",
                "been on {b} ever since the update broke {a}",
            ],
            [
                "{a}卸载了，改用{b}",
                "后来换成{b}了",
                "如今用{b}，{a}太卡",
                "已经全面转到{b}了",
                "浏览器最近换成{b}了",
            ],
        ),
        (
            ["never mind the browser thing", "wipe what i said about my browser", "drop the browser bit"],
            ["浏览器那个忘掉吧", "用什么浏览器的别存", "浏览器的事就当我没说"],
        ),
        (
            ["{a} with like 40 tabs open", "{a}, with an adblocker", "{a}, now synced with my phone"],
            ["{a}，开一堆标签页", "{a}，装了广告拦截", "{a}，现在手机电脑同步了"],
        ),
    ),
    _f(
        "console",
        ["a PS5", "a Switch", "an Xbox", "a Steam Deck", "a gaming PC", "a PS4"],
        ["PS5", "Switch", "Xbox", "Steam Deck", "游戏本", "PS4"],
        (
            ["i game on {a}", "{a} is my main console", "mostly play on {a}"],
            ["我平时用{a}打游戏", "主力游戏机是{a}", "游戏都在{a}上玩"],
        ),
        (
            [
                "traded in {a} for {b}",
                "sold {a}, {b} is my thing now",
                "picked up {b}, haven't touched {a} since",
                "i'm on {b} these days",
                "got {b} for my bday so {a} is retired",
            ],
            [
                "{a}出掉了，后来买了{b}",
                "现在改玩{b}了",
                "如今主要在{b}上玩",
                "{a}早就吃灰了，一直玩{b}",
                "最近入了{b}，{a}送人了",
            ],
        ),
        (
            ["forget the console stuff", "take out what i said about gaming", "scrap the gaming thing"],
            ["游戏机那个删掉", "打游戏的事别记了", "游戏机那条去掉吧"],
        ),
        (
            ["{a}, mostly co-op with friends", "{a}, now with a second controller", "{a}, only on weekends"],
            ["{a}，主要跟朋友联机", "{a}，现在多买了个手柄", "{a}，一般周末才玩"],
        ),
    ),
    _f(
        "podcast",
        ["Serial", "Hardcore History", "Radiolab", "Lex Fridman", "99% Invisible", "Conan"],
        ["得到", "日谈公园", "忽左忽右", "随机波动", "故事FM", "声东击西"],
        (
            ["my fav podcast is {a}", "i listen to {a} on my walks", "{a} is always in my ears"],
            ["我最爱听的播客是{a}", "通勤一般听{a}", "我一直在听{a}"],
        ),
        (
            [
                "so over {a}, hooked on {b} now",
                "unsubscribed from {a}, {b} these days",
                "lately it's all {b}",
                "gave up on {a} after the host change, {b} instead",
            ],
            ["{a}不听了，后来迷上了{b}", "如今只听{b}", "最近改听{b}了", "{a}早就取关了，现在听{b}"],
        ),
        (
            ["don't remember my podcasts", "ignore what i said about podcasts", "drop the podcast thing"],
            ["听播客那个别记", "播客的事忘了吧", "播客那条删了"],
        ),
        (
            ["{a}, the new season is out now", "{a}, mostly on the train", "{a}, at 1.5x speed"],
            ["{a}，现在更新到第三季了", "{a}，一般地铁上听", "{a}，都开1.5倍速"],
        ),
    ),
    _f(
        "grocery",
        ["Trader Joe's", "Costco", "Aldi", "Whole Foods", "Tesco", "Lidl"],
        ["盒马", "山姆", "永辉", "叮咚买菜", "朴朴", "菜市场"],
        (
            ["i do my grocery run at {a}", "{a} is where i buy food", "i shop at {a} every week"],
            ["我一般在{a}买菜", "买菜都去{a}", "每周去{a}采购"],
        ),
        (
            [
                "ever since the move i shop at {b}",
                "ditched {a}, {b} is way cheaper",
                "{b} these days for groceries",
                "i'm a {b} shopper now lol",
                "stopped going to {a}, it's {b} now",
            ],
            [
                "后来都在{b}买了",
                "{a}不去了，改去{b}",
                "如今买菜都用{b}",
                "最近换成{b}了，送货快",
                "{a}早就不用了，现在{b}",
            ],
        ),
        (
            ["leave out where i shop", "get rid of the grocery store thing", "forget where i buy food"],
            ["买菜那个去掉吧", "在哪买菜的别存", "超市那条就当没听过"],
        ),
        (
            ["{a}, usually on sundays", "{a}, now with a membership", "{a}, for the frozen stuff mostly"],
            ["{a}，一般周日去", "{a}，现在办了会员", "{a}，主要买冻品"],
        ),
    ),
    _f(
        "team",
        ["Arsenal", "the Lakers", "the Yankees", "Real Madrid", "the Packers", "Celtic"],
        ["国安", "申花", "湖人", "皇马", "广州队", "山东泰山"],
        (
            ["i support {a}", "die hard {a} fan", "{a} till i die lol"],
            ["我是{a}的球迷", "我支持{a}", "从小就看{a}"],
        ),
        (
            [
                "i'm a {b} fan now, don't judge",
                "gave up on {a} after that season, {b} these days",
                "ditched {a}, following {b} instead",
                "switched allegiance to {b} lol",
            ],
            [
                "{a}早就不追了，后来改看{b}",
                "如今支持{b}",
                "最近开始追{b}了，{a}太让人失望",
                "现在是{b}球迷了",
            ],
        ),
        (
            [
                "wipe the sports team thing",
                "never mind what i said about my team",
                "take out the football stuff",
            ],
            ["球队那个删了", "支持哪个队的别记", "球迷那条当没听见吧"],
        ),
        (
            ["{a}, i have a season ticket", "{a}, now i even watch the youth games", "{a}, since i was 8"],
            ["{a}，有季票", "{a}，现在连青年队都看", "{a}，八岁就开始看了"],
        ),
    ),
    _f(
        "skincare",
        ["CeraVe", "The Ordinary", "La Roche-Posay", "Cetaphil", "Neutrogena", "Clinique"],
        ["薇诺娜", "珀莱雅", "兰蔻", "理肤泉", "大宝", "玉泽"],
        (
            ["my moisturizer is {a}", "i use {a} on my face", "{a} is my skincare go-to"],
            ["我护肤用{a}", "面霜一直用{a}", "我用的是{a}的乳液"],
        ),
        (
            [
                "broke out from {a} so i use {b} now",
                "ditched {a}, {b} these days",
                "replaced my {a} stuff with {b}",
                "been on {b} ever since my derm said so",
            ],
            ["{a}用着过敏，后来换成{b}了", "如今用{b}", "最近改用{b}，{a}停了", "护肤已经换成{b}了"],
        ),
        (
            ["forget my skincare stuff", "drop the skincare bit", "don't keep the face cream thing"],
            ["护肤那个别存", "用什么护肤品的删掉吧", "护肤那条去掉"],
        ),
        (
            ["{a}, twice a day", "{a}, now with sunscreen on top", "{a}, the fragrance free one"],
            ["{a}，早晚各一次", "{a}，现在还加了防晒", "{a}，无香款"],
        ),
    ),
    _f(
        "shoes",
        ["Hokas", "Brooks", "Nikes", "Asics", "On Clouds", "New Balance"],
        ["亚瑟士", "耐克", "李宁", "安踏", "特步", "Hoka"],
        (
            ["i run in {a}", "my running shoes are {a}", "{a} for all my runs"],
            ["我跑步穿{a}", "跑鞋一直是{a}", "我的跑鞋是{a}"],
        ),
        (
            [
                "traded my {a} for {b}, knees are happier",
                "{b} now, {a} gave me blisters",
                "i'm a {b} convert now",
                "got {b} and never looked back",
            ],
            ["跑鞋后来换成{b}了", "{a}不穿了，现在穿{b}", "如今跑步穿{b}", "最近改穿{b}了"],
        ),
        (
            ["ignore the shoe stuff", "forget what i run in", "leave out my shoes"],
            ["跑鞋那个就当没说", "穿什么鞋的别记", "跑鞋那条删了吧"],
        ),
        (
            ["{a}, size 10", "{a}, my second pair now", "{a}, the wide fit"],
            ["{a}，42码", "{a}，现在已经是第二双了", "{a}，宽楦版"],
        ),
    ),
    _f(
        "instrument",
        ["the guitar", "the piano", "the violin", "the drums", "the ukulele", "the cello"],
        ["吉他", "钢琴", "小提琴", "架子鼓", "尤克里里", "古筝"],
        (
            ["i play {a}", "been learning {a} for a while", "i practice {a} most evenings"],
            ["我在学{a}", "我会弹{a}", "晚上一般练{a}"],
        ),
        (
            [
                "gave up {a}, picked up {b} instead",
                "i'm all about {b} these days",
                "switched from {a} to {b}",
                "sold my {a}, learning {b} now",
            ],
            ["{a}不练了，后来学了{b}", "如今在学{b}", "{a}早就放下了，现在弹{b}", "最近迷上了{b}"],
        ),
        (
            ["take out the music stuff", "get rid of the instrument thing", "forget i play anything"],
            ["乐器那个删了", "学琴的事别记了", "乐器那条去掉"],
        ),
        (
            ["{a}, mostly pop songs", "{a}, now with a teacher once a week", "{a}, grade 4"],
            ["{a}，主要弹流行歌", "{a}，现在每周上一节课", "{a}，考到四级了"],
        ),
    ),
    _f(
        "show",
        ["Severance", "The Bear", "Succession", "Friends reruns", "Love Island", "Bluey"],
        ["繁花", "狂飙", "甄嬛传", "漫长的季节", "乘风破浪", "庆余年"],
        (
            ["currently watching {a}", "{a} is my comfort show", "i'm hooked on {a}"],
            ["我最近在追{a}", "下饭剧是{a}", "我在看{a}"],
        ),
        (
            ["done with {a}, on to {b}", "so over {a}, it's {b} now", "dropped {a}, bingeing {b} these days"],
            ["{a}看完了，后来开始追{b}", "如今在看{b}", "{a}弃了，最近追{b}"],
        ),
        (
            ["never mind my shows", "ignore what i said about tv", "don't remember what i watch"],
            ["追剧那个别存", "看什么剧的删了吧", "追剧那条就当没听过"],
        ),
        (
            ["{a}, one episode a night", "{a}, now on season 2", "{a}, with my partner"],
            ["{a}，一晚一集", "{a}，现在看到第二季了", "{a}，跟对象一起看"],
        ),
    ),
    _f(
        "bedtime",
        ["midnight", "1am", "10pm", "11pm", "2am", "9:30"],
        ["十二点", "一点", "十点", "十一点", "两点", "九点半"],
        (
            ["i usually go to bed around {a}", "lights out at {a} for me", "bedtime is {a}"],
            ["我一般{a}睡", "我每天{a}左右睡觉", "{a}上床是常态"],
        ),
        (
            [
                "ever since the new job i'm in bed by {b}",
                "bedtime's {b} these days",
                "i go to sleep at {b} now, not {a}",
                "moved my bedtime to {b}",
            ],
            ["后来改成{b}睡了", "如今{b}就睡了", "最近都{b}睡，{a}太晚了", "已经调成{b}睡觉了"],
        ),
        (
            ["forget my sleep schedule", "get rid of the bedtime thing", "leave out when i sleep"],
            ["几点睡那个别记", "作息的事删了吧", "睡觉时间那条去掉"],
        ),
        (
            ["{a}, earlier on weekdays", "{a}, now with no phone in bed", "{a}, after a shower"],
            ["{a}，工作日早一点", "{a}，现在睡前不看手机了", "{a}，洗完澡就睡"],
        ),
    ),
]
