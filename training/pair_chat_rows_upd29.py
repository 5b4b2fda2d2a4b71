"""Chat-style update pairs of helper ``upd29`` (issue 24, session 16): written lines, not templates.

Every other pair set of ``training/`` fills frames with slot values; these pairs are whole lines written
one by one in many voices (lower case, typos, slang, emoji, hedges, Chinese, English and zh-en mixed),
each an old memory as the store holds it and a new chat line, labelled ``supersede`` (a new value of the
same thing, with a change word or without one), ``retract`` (the old thing withdrawn), ``refine`` (a detail
of the same thing, nothing replaced) or ``unrelated``. The hard negatives are the families that look like a
change and are none: progress on a goal, a second hobby beside the first, a one-off exception to a habit or
rule, a detail of the same job or home, a mood about the same thing, a question about it. Written for this
set, never copied from an evaluation case.

Each group is one old memory and its lines; ``group`` names it, so folds never split a group
(``training.train_pair_model --chat-upd29``; the held-out folds of these rows are the test of whether the
model carries past the templates).
"""

from __future__ import annotations

from typing import Any

_REL = {"S": "supersede", "X": "retract", "R": "refine", "U": "unrelated"}

# (group, old memory, lines "L new line", L one of S X R U)
GROUPS: tuple[tuple[str, str, str], ...] = (
    ("job_nurse", "i work as a nurse at a children's hospital", """
S handed in my notice at the hospital, starting at a dental clinic front desk on monday
S not nursing anymore lol, doing admin for a shipping company now
S so i'm a pharma sales rep these days, way less night shifts
S finally left peds. school nurse at an elementary now
R night shift again this week, the ward was packed
R my unit is the NICU, mostly preemies
U my sister is a nurse too actually
U thinking about learning the ukulele
X can you not keep where i work, i'd rather it wasn't stored
"""),
    ("job_dev", "我是做前端开发的", """
S 上个月转行去做产品经理了
S 前端不干了，现在在一家咖啡店当店长
S 换工作了哈，现在搞数据分析
S 公司裁员，我目前在做外卖骑手过渡一下
R 最近在用 vue3 重写公司的后台
R 我们组就五个前端，活有点多
U 我老婆是做设计的
U 这周末打算去爬山
"""),
    ("job_mixed", "在 Shopee 做 operations", """
S 已经 join 了 Sea Money，做 product ops
S 跳去 ByteDance 了，还是 ops 但是换了 team
S quit shopee last week, taking a break before the next thing
R 最近 shopee 那边 double 11 忙疯了
R my team at shopee handles seller onboarding
U 我弟在 lazada 上班
"""),
    ("home_city", "i live in denver", """
S we moved to austin in march, still unpacking boxes
S living in portland now, the rain is a vibe
S got a job in chicago so i relocated last month
S denver's behind me, seattle since june
R my apartment in denver is near the park, love the view of the mountains
R been in denver about six years
U my parents live in phoenix
U visiting boston next weekend for a wedding
U i went to college in ohio
"""),
    ("home_zh", "我住在杭州", """
S 已经搬去苏州了
S 现在在成都定居啦
S 上周刚搬完家，新家在南京
S 离开杭州了，回老家合肥
R 我住西湖区，离公司挺近的
R 在杭州住了快八年了
U 我爸妈在温州
U 国庆打算去厦门玩几天
U 杭州今天好热啊
"""),
    ("home_mixed", "based in Singapore", """
S 上个月 relocate 到吉隆坡了
S 搬回台北了, singapore too expensive
S now in sydney for the new role
R 住在 tampines，HDB 那种
U my cousin is in singapore too
U singapore 的 chili crab 太好吃了
"""),
    ("phone", "i use an iphone 12", """
S finally caved and got a nothing phone
S switched to android, galaxy s23 now
S iphone died, using my dad's old oneplus for now
S upgraded to the 15 pro, the camera is insane
R my iphone 12 is the blue one
R the battery on my 12 barely lasts a day now
U my mom has a samsung
U thinking of getting an ipad for drawing
"""),
    ("phone_zh", "我用的是华为手机", """
S 换小米了，性价比高
S 买了台 vivo，华为给我妈用了
S 现在用荣耀 magic6
R 华为是 mate40，用了三年了
R 华为手机拍照确实好
U 我老公用的苹果
U 最近想买个平板
"""),
    ("sport_run", "i run 5k most mornings", """
S knees gave out so running's done for me, swimming laps instead
S i've moved to cycling, the running was wrecking my shins
S these days it's rowing at the gym, no more runs
R did my 5k in 24 min today, new pb
R managed the full 5k without walking this morning
R running along the river, it's prettier
U also picked up yoga on sundays
U my partner runs marathons
U skipped the run today, it was pouring
"""),
    ("sport_zh", "我每周打三次羽毛球", """
S 羽毛球不打了，改打网球
S 现在主要去游泳，羽毛球场太难约
S 最近迷上了攀岩，羽毛球基本放下了
R 一般在公司附近的球馆打羽毛球
R 这周羽毛球打了四次，累死
U 我也开始练瑜伽了，两个一起
U 今天下雨没去打球
U 我儿子在学游泳
"""),
    ("diet_veg", "i'm vegetarian", """
S i eat fish again, so pescatarian i guess
S went fully vegan in january
S not vegetarian anymore, doctor said i need more iron so i eat chicken now
R vegetarian for like 10 years
R mostly indian food since i'm veg
U had a bite of my friend's burger at the party, once won't hurt
U my husband loves steak
U trying to drink more water
"""),
    ("diet_zh", "我不吃辣", """
S 现在能吃一点辣了，微辣没问题
S 口味被湖南同事带偏了，现在一顿不吃辣都难受
S 口味变了，现在超爱吃辣
R 一点辣都不行，吃了胃疼
U 今天破例吃了火锅，微辣，还行
U 我老公特别能吃辣
"""),
    ("drink_coffee", "i drink two cups of coffee a day", """
S no more coffee for me, i do matcha in the mornings
S decaf only since the panic attacks
S down to one cup a day now
S 咖啡戒了，改喝茶
R always black, no sugar
R my coffee is from the place by my office
U had an energy drink today, big exam
U my roommate drinks like five coffees
"""),
    ("pet", "i have a golden retriever named max", """
S max crossed the rainbow bridge in the spring. we have a little terrier mix now, her name's luna
S max passed away last month
X please forget about my dog, it's too sad to see
R max is 9 now, getting grey around the face
R max loves the beach
U we got a cat as well, max is not impressed
U my neighbor has a golden too
"""),
    ("pet_zh", "家里养了一只橘猫叫胖虎", """
S 胖虎送给我妈养了，我现在养了只柯基
S 胖虎走了，现在家里没有宠物了
R 胖虎又胖了两斤
R 胖虎每天晚上跑酷
U 又养了一只布偶，和胖虎一起
U 朋友家的猫生了小猫
"""),
    ("car", "i drive an old mazda 3", """
S the mazda's gone, got a used rav4
S sold the car, bike and bus now
S picked up a hybrid kia, the mazda went to my brother
R the mazda has 180k miles on it
R my mazda is red
U my wife drives a minivan
U took an uber today, car's in the shop
"""),
    ("car_zh", "我开的是一辆卡罗拉", """
S 卡罗拉卖了，换了辆比亚迪
S 现在不开车了，每天坐地铁
R 卡罗拉开了六年了，还挺省油
U 今天车限号，打车去的
U 我爸开的是帕萨特
"""),
    ("study_lang", "i'm learning japanese", """
S too many characters for my brain lol, doing korean now
S gave up on japanese, spanish is way easier for me
S dropped japanese, doing french for my move
R n4 exam is in december, so nervous
R japanese class is on tuesdays
U also doing a little german on duolingo
U my friend speaks japanese fluently
"""),
    ("study_zh", "我在学吉他", """
S 吉他按得手指太疼，弹不动，这学期报了声乐课
S 吉他放一放了，最近在学架子鼓
R 吉他学了三个月，能弹几首简单的了
R 吉他是在网上跟着视频学的
U 也开始学画画了
U 我女儿在学钢琴
"""),
    ("goal_weight", "my goal is to lose 10 kg this year", """
S ditching the weight loss goal, training for a half marathon instead
S actually let's make it 5 kg, 10 was unrealistic
S new goal: just get my blood pressure down, forget the number on the scale
R down 3 kg so far!
R lost another kilo this week, slowly getting there
R aiming to be done by my birthday in august
U my sister wants to lose weight too
U had cake at work today oops
"""),
    ("goal_save", "目标是今年存五万", """
S 存钱目标降到三万，今年开销太大
S 存钱目标改了，先把信用卡还完
S 今年不存了，准备拿去报个课
R 已经存了两万了
R 每个月固定存四千
U 同事说他今年存了十万
U 今天又花了好多钱买衣服
"""),
    ("goal_exam", "preparing for the CPA exam", """
S change of plans, no CPA, i'm doing the CFA instead
S not doing the cpa anymore, i got into a masters program
R passed FAR! three sections to go
R study about 2 hours every night for the cpa
U my boss did the cpa years ago
U so tired today
"""),
    ("instr_len", "keep your answers under 100 words", """
S feel free to write more, around 250 words works
S those answers feel cut off, longer ones are fine now
S make it like 50 words max
R and no bullet points in those short answers please
U what's a good word for happy
U thanks that was helpful
"""),
    ("instr_lang", "请用中文回答我", """
S 以后用英文回我吧，我想练英语
S english replies from now on pls
S 中英双语回答就行
R 中文回答的时候用简体
U 帮我翻译一下这句话
U 你好
"""),
    ("instr_units", "use miles and pounds with me", """
S let's do kilometres and kilos, my new coworkers all use metric
S actually kg and km from now on
R and fahrenheit for temperatures too
U how many miles is a marathon
"""),
    ("instr_format", "give me three options when i ask for ideas", """
S just give me a couple, three is a lot
S just one suggestion, the best one
S bump it to five options
R with a short pro and con for each option
U give me ideas for dinner tonight
U that second option was great
"""),
    ("instr_tone", "回复我的时候语气正式一点", """
S 不用那么正式了，随意点就好
S 轻松一点回我就行
R 称呼我的时候用您
U 今天心情不错
"""),
    ("editor", "i code in vs code", """
S moved over to neovim, took a week to get used to
S been on jetbrains since the new job
R my vs code theme is one dark
U my coworker swears by emacs
"""),
    ("notes_app", "i keep my notes in notion", """
S all in on obsidian now
S 笔记全搬到飞书了
S notion got too slow, apple notes for everything these days
R my notion has a page for every project
U do you know any good pdf readers
"""),
    ("bedtime", "i usually go to bed around 1am", """
S trying to be in bed by 11 now, new job starts early
S 现在十点半就睡了
R and i fall asleep watching youtube most nights
U couldn't sleep last night at all
U my kid wakes up at 6
"""),
    ("partner", "my boyfriend is called tom", """
S tom and i split up in the summer, i'm dating a girl named jess now
S 我和tom分手了
R tom is a chef
R we've been together three years
U my best friend is also called tom lol
"""),
    ("relationship_zh", "我单身", """
S 我谈恋爱了！
S 上个月结婚了
R 单身好几年了，也不着急
U 我朋友刚分手
"""),
    ("commute", "i take the subway to work", """
S bike to work now, it's faster
S wfh full time since september, no commute at all
S 最近都开车通勤
R subway ride is about 40 min
U the subway was delayed again today
"""),
    ("school", "i'm a junior at ucla studying biology", """
S changed my major to nursing
S transferred to uc davis this fall
S graduated in may! 🎓
R bio is hard but i love the labs
R i'm in the marine bio track
U my brother goes to usc
"""),
    ("kid_grade", "my son is in 5th grade", """
S he just started middle school, 6th grade now
S my son is in 7th grade this year
R he's in the gifted program
U my daughter is in kindergarten
"""),
    ("music", "我最喜欢听摇滚", """
S 摇滚听不动了，现在偏爱民谣
S 这阵子耳机里全是古典乐
R 最喜欢的乐队是万能青年旅店
U 我也挺喜欢周杰伦的
U 今天去听了个 livehouse
"""),
    ("game", "i play a lot of valorant", """
S uninstalled valorant, it's all baldur's gate 3 these days
S quit valorant, too toxic. playing stardew now
R i main jett in valorant
R hit diamond last night!!
U my brother plays league
U pulled an all nighter gaming with friends
"""),
    ("habit_smoke", "我每天抽半包烟", """
S 烟戒了三个月了
S 现在改抽电子烟了
R 一般晚饭后抽得多
U 我老公也抽烟
U 今天加班太累了
"""),
    ("habit_zh", "我每天早上六点起床晨跑", """
S 晨跑改成晚上跑了，早上起不来
S 现在早上改成跳绳了
R 一般跑五公里
R 今天跑了七公里，破纪录
U 今天下雨没跑
U 我老公不爱运动
"""),
    ("sensitive", "i'm on sertraline for anxiety", """
X pls take the meds thing out of your notes
X please don't keep anything about my meds
S my doctor switched me to lexapro
S off the meds since march, doing therapy instead
R the dose is 50mg
U my friend also has anxiety
"""),
    ("landlord_zh", "我租的房子在朝阳区", """
S 买房了，搬去通州了
S 换了个房子，现在住海淀
R 两室一厅，月租八千
U 朋友在朝阳区开了家店
"""),
    ("manager", "my manager is sarah", """
S sarah left the company, my new manager is dev
S reporting to priya now after the reorg
R sarah is really supportive
U my wife's manager is a nightmare
"""),
    ("shift", "i work night shifts at the warehouse", """
S moved to day shift finally, sleeping like a human again
S 现在上白班了
R nights are 10pm to 6am
U warehouse was chaos today
"""),
    ("carrier", "my phone plan is with verizon", """
S switched to mint mobile, half the price
S 换成移动了，联通信号太差
R unlimited plan, kinda pricey
U my parents are on t-mobile
"""),
    ("team", "i support arsenal", """
S honestly i follow spurs now, my kid made me
R been a gooner since 2004
U watched the city game last night
"""),
    ("pref_food", "我最爱吃火锅", """
S 现在更爱吃烤肉了，火锅吃腻了
R 最爱牛油锅底
U 今天中午吃的火锅
U 我女朋友喜欢吃日料
"""),
    ("allergy", "i'm allergic to peanuts", """
X actually remove the allergy thing, i was wrong, it was the shellfish test that came back positive
R it's a severe one, i carry an epipen
U my son is allergic to cats
"""),
    ("hobby_en", "i'm really into pottery", """
S pottery's on hold, getting into bouldering now
S haven't touched clay in months, it's all about gardening now
R i made my first bowl on the wheel!
R i take a pottery class on thursdays
U also started knitting, both are relaxing
U my aunt does pottery too
"""),
    ("hobby_mixed", "周末喜欢去 hiking", """
S 现在周末改去 surfing 了
S hiking 不去了，周末都在家 gaming
R 最喜欢去 macritchie 那条 trail
R 上周末 hike 了十公里
U 也开始玩 frisbee 了
U 今天天气很适合 hiking
"""),
)


def chat_pair_rows() -> list[dict[str, Any]]:
    """The written pairs as ``train_pair_model`` rows (``old``, ``new``, ``relation``, ``slot``: the
    group, so the holdouts and folds keep a group together)."""
    rows: list[dict[str, Any]] = []
    for group, old, lines in GROUPS:
        for line in lines.strip().splitlines():
            label, new = line.split(" ", 1)
            rows.append({"old": old, "new": new.strip(), "relation": _REL[label], "slot": f"chat_{group}"})
    return rows


if __name__ == "__main__":
    from collections import Counter

    rows = chat_pair_rows()
    print(len(rows), len(GROUPS), Counter(r["relation"] for r in rows))
