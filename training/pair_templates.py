"""Generated (old memory, new statement) pairs for the update/retraction pair model, broadened for issue 24.

``training.utterance_templates.PAIR_SLOTS`` (the first ten slots) plus ``FAMILIES`` below: 25 slot
families in Chinese and English (job, home, phone, computer, editor, car, commute, shift, school,
sport, hobby, drink, diet, sleep, pet, reply language, units, format, option count, answer length,
summary points, study goal, savings goal, fitness goal, and sensitive topics), each with old-memory
templates, supersede statements (with a change cue, without one, naming the old value or not, "scratch
the X goal, switching to Y" and "X 那个先放一放" are supersedes, not retractions), retractions ("forget
the X part", "that was my sister, not me"), refinements (a detail, nothing replaced), and as
``unrelated`` every other family's statements. Blob memories (two families' statements in one memory)
pair with a retraction or a change of either part. Plain statements of another slot (no cue at all) are
``unrelated`` too. Chat style: lowercase, slang, emoji, typos.

Each template has ``{a}`` (the old value) and ``{b}`` (the new value); a family's values are lists per
language and every old value is paired with a different new value. Deterministic.
"""

from __future__ import annotations

import itertools
from typing import Any

from training.pair_family import Family, _f

FAMILIES: list[Family] = [
    _f(
        "job2",
        [
            "a line cook",
            "a paralegal",
            "a bank teller",
            "a data analyst",
            "a yoga teacher",
            "a pharmacist",
            "an electrician",
            "a social worker",
        ],
        ["护士", "银行柜员", "会计", "程序员", "健身教练", "外卖骑手", "小学老师", "销售"],
        (
            ["i work as {a}", "i'm {a}, been doing it for years", "{a} by day lol", "my job: {a}"],
            ["我是{a}", "我在做{a}", "我的工作是{a}", "干{a}好几年了"],
        ),
        (
            [
                "quit being {a}, i'm {b} now",
                "welp, left the {a} gig. {b} now 🎉",
                "i'm {b} these days",
                "career change!! now working as {b}",
                "not {a} anymore, started as {b} last month",
                "switched jobs, {b} now",
                "ok update: i'm {b} now, way better hours",
                "new job — {b}!",
            ],
            [
                "我辞职了，现在是{b}",
                "不当{a}了，改行做{b}",
                "我转行了，现在做{b}",
                "跟你说，我现在是{b}啦",
                "工作换了，现在做{b}",
                "已经不干{a}了，在做{b}",
                "我跳槽了，去做{b}了",
                "换工作啦，{b}",
            ],
        ),
        (
            [
                "forget what i said about my job",
                "delete the job thing pls",
                "don't store where i work",
                "can u wipe the work stuff",
            ],
            ["工作那条别记了", "我做什么的别存", "职业那个删掉吧", "工作的事你忘了吧"],
        ),
        (
            [
                "i'm {a}, mostly night shifts",
                "as {a} i work weekends too",
                "been {a} for like 6 years",
                "{a}, at a small place near home",
            ],
            ["{a}做了五年了", "我是{a}，主要上夜班", "{a}，在家附近的单位", "做{a}挺累的但是稳定"],
        ),
    ),
    _f(
        "home2",
        ["Leeds", "Bristol", "Austin", "Chicago", "Seattle", "Lisbon", "Vancouver", "Glasgow"],
        ["南京", "合肥", "青岛", "深圳", "苏州", "成都", "昆明", "天津"],
        (
            ["i live in {a}", "based in {a} rn", "home is {a} for now", "i'm in {a} with my partner"],
            ["我住在{a}", "我现在在{a}生活", "我家在{a}", "目前住{a}"],
        ),
        (
            [
                "moved to {b}!! new flat is tiny but cute",
                "im in {b} these days",
                "we relocated to {b}",
                "left {a}, living in {b} now",
                "finally made the move to {b}",
                "{b} now, {a} winters broke me",
                "just moved, {b} is home now",
                "we moved back to {b} last month",
            ],
            [
                "我搬到{b}了",
                "现在住{b}了",
                "我们家搬去{b}了",
                "已经不在{a}了，来{b}了",
                "年初搬到{b}的",
                "我现在在{b}了哈",
                "从{a}搬走了，现在在{b}",
                "换城市了，在{b}",
            ],
        ),
        (
            [
                "forget where i live",
                "delete my address pls",
                "don't keep my city on file",
                "wipe the location stuff",
            ],
            ["地址别存了", "我住哪别记", "住址那条删掉", "城市的信息不要存"],
        ),
        (
            [
                "i live in {a}, near the park",
                "{a}, close to downtown",
                "been in {a} about 5 yrs",
                "in {a}, the east side",
            ],
            ["住{a}，离地铁近", "在{a}住了好多年了", "{a}的老城区", "我在{a}，靠近公司"],
        ),
    ),
    _f(
        "device",
        ["an iPhone 12", "a Pixel 8", "a Galaxy S23", "a OnePlus", "an old iPhone SE"],
        ["小米手机", "华为Mate", "iPhone", "OPPO", "vivo"],
        (
            ["i'm on {a}", "my phone is {a}", "using {a}, battery is meh", "i have {a}"],
            ["我用的是{a}", "我的手机是{a}", "手机是{a}，用了三年", "一直用{a}"],
        ),
        (
            [
                "switched to {b} over the weekend",
                "got {b} now, android takes getting used to",
                "ditched {a} for {b}",
                "new phone: {b}",
                "upgraded to {b} finally",
                "i'm on {b} now",
            ],
            [
                "手机换成{b}了",
                "换了个{b}",
                "新手机是{b}",
                "{a}给我妈了，我现在用{b}",
                "入手了{b}，旧的出了",
                "现在用{b}",
            ],
        ),
        (
            ["forget my phone model", "dont need to remember what phone i use", "delete the phone thing"],
            ["手机型号不用记", "别记我用什么手机", "手机那条删了"],
        ),
        (
            ["{a}, the 128gb one", "my {a} has a cracked screen lol", "{a} in blue"],
            ["{a}，128G的", "{a}屏幕有点裂了", "{a}是蓝色的"],
        ),
    ),
    _f(
        "computer",
        ["a Windows laptop", "a MacBook Air", "a ThinkPad", "a gaming PC", "a Chromebook"],
        ["Windows 笔记本", "MacBook", "ThinkPad", "台式机", "华为笔记本"],
        (
            ["i code on {a}", "my computer is {a}", "work laptop is {a}"],
            ["我平时用{a}写代码", "我的电脑是{a}", "办公用{a}"],
        ),
        (
            [
                "switched to {b}, sold the old one",
                "got {b} now",
                "i'm on {b} these days",
                "replaced it with {b}",
            ],
            ["电脑换成{b}了", "换了{b}，旧的出二手了", "现在用{b}", "新电脑是{b}"],
        ),
        (["forget my computer setup", "delete the laptop thing"], ["电脑那条别记了", "用什么电脑不用存"]),
        (["{a} with 16gb ram", "{a}, a bit old but fine"], ["{a}，16G内存", "{a}，有点旧但能用"]),
    ),
    _f(
        "editor",
        ["VS Code", "Neovim", "PyCharm", "Emacs", "Sublime"],
        ["VS Code", "Vim", "PyCharm", "IntelliJ", "记事本"],
        (
            ["i code in {a} mostly", "{a} is my editor", "i use {a} for everything"],
            ["我写代码用{a}", "编辑器一直用{a}", "我习惯用{a}"],
        ),
        (
            [
                "been on {b} for a month now, not going back",
                "moved to {b}",
                "{b} now, {a} felt slow",
                "i use {b} these days",
            ],
            ["最近改用{b}了", "编辑器换成{b}了", "现在用{b}，回不去了", "不用{a}了，改用{b}"],
        ),
        (["forget the editor thing", "don't need to know my editor"], ["编辑器那条删了", "别记我用啥编辑器"]),
        (["{a} with vim keys", "{a}, dark theme"], ["{a}配深色主题", "{a}装了很多插件"]),
    ),
    _f(
        "car",
        ["a white Corolla", "an old Civic", "a Model 3", "a Jeep"],
        ["白色卡罗拉", "二手思域", "比亚迪", "大众朗逸"],
        (["i drive {a}", "my car is {a}", "{a} gets me to work"], ["我开{a}", "我的车是{a}", "家里有辆{a}"]),
        (
            ["sold the car, got {b}", "traded it in for {b}", "i drive {b} now", "new car: {b}!!"],
            ["车卖了，换了{b}", "现在开{b}了", "换车了，{b}", "{a}卖了，买了{b}"],
        ),
        (["forget the car thing", "delete my car info"], ["车的事别记了", "车那条删掉"]),
        (["{a}, 2015 model", "{a}, silver"], ["{a}，开了六年了", "{a}，手动挡"]),
    ),
    _f(
        "commute",
        ["drive to work", "take the bus", "bike to work", "take the subway"],
        ["开车上班", "坐公交上班", "骑车上班", "坐地铁通勤"],
        (["i {a} every day", "usually i {a}"], ["我每天{a}", "平时{a}"]),
        (
            ["these days i {b}", "stopped driving, i {b} now", "i {b} instead now"],
            ["现在改成{b}了", "不开车了，现在{b}", "最近{b}"],
        ),
        (["forget how i commute"], ["通勤的事不用记"]),
        (["i {a}, takes 40 min", "i {a} unless it rains"], ["{a}，单程四十分钟", "{a}，下雨就打车"]),
    ),
    _f(
        "shift",
        ["night shifts", "early shifts", "weekend shifts", "day shifts"],
        ["夜班", "早班", "周末班", "白班"],
        (["i work {a} at the warehouse", "on {a} at the hospital"], ["我上{a}", "我一直是{a}"]),
        (
            ["good news, moved to {b}!", "i'm on {b} now", "switched to {b}, 7 to 3"],
            ["调成{b}了", "现在改上{b}了", "不上{a}了，换成{b}"],
        ),
        (["forget my schedule"], ["排班的事别记"]),
        (["{a}, four a week", "{a} mostly"], ["{a}，一周四天", "{a}，偶尔加班"]),
    ),
    _f(
        "school",
        ["a junior studying accounting", "a grad student", "in nursing school", "a first-year at uni"],
        ["大三学生", "研究生", "在读护理专业", "大一新生"],
        (["i'm {a}", "currently {a}"], ["我是{a}", "我现在是{a}"]),
        (
            [
                "graduated!! working as an auditor now",
                "done with school, i'm a nurse now",
                "finished my degree, got a job",
            ],
            ["我已经毕业了，现在上班了", "毕业啦，在事务所做审计", "不读了，出来工作了"],
        ),
        (["forget the school stuff"], ["学校的事别记了"]),
        (["{a}, graduating next year", "{a} at a state school"], ["{a}，明年毕业", "{a}，学校在郊区"]),
    ),
    _f(
        "sport2",
        ["badminton", "tennis", "running 5k", "swimming laps", "bouldering", "spin class", "pilates"],
        ["羽毛球", "网球", "跑步", "游泳", "攀岩", "瑜伽", "飞盘"],
        (
            ["i play {a} every tuesday", "{a} is my thing", "i do {a} 3x a week"],
            ["我每周都去{a}", "我平时{a}", "我喜欢{a}"],
        ),
        (
            [
                "not doing {a} anymore, {b} instead",
                "{a}'s out, my knee hates it. {b} now",
                "i'm into {b} these days",
                "gave up {a}, took up {b}",
                "doing {b} now 💪",
                "{b} > {a}, switched last month",
            ],
            [
                "{a}不玩了，改成{b}了",
                "现在改{b}了",
                "最近迷上{b}，{a}不去了",
                "不{a}了，膝盖疼，换成{b}",
                "现在主要{b}",
                "{a}放弃了，去{b}了",
            ],
        ),
        (["forget the {a} thing", "scratch what i said about {a}"], ["{a}那条删了吧", "别记我{a}了"]),
        (
            ["{a} with friends from work", "{a}, mostly mornings", "been doing {a} since college"],
            ["{a}一般周末去", "{a}都是跟同事一起", "{a}好几年了"],
        ),
    ),
    _f(
        "hobby",
        ["painting", "knitting", "pottery", "chess", "gaming", "baking"],
        ["画画", "织毛衣", "做陶艺", "下棋", "打游戏", "烘焙"],
        (
            ["my hobby is {a}", "i'm really into {a}", "{a} is how i relax"],
            ["我的爱好是{a}", "我喜欢{a}", "没事就{a}"],
        ),
        (
            ["kinda over {a}, it's all {b} now", "{b} is my new thing", "been doing {b} instead lately"],
            ["现在不怎么{a}了，迷上{b}", "最近爱上{b}了", "{a}不玩了，改{b}"],
        ),
        (["forget the {a} hobby"], ["{a}那个爱好别记了"]),
        (["{a}, mostly on sundays", "{a} with my mom"], ["{a}，周末才有空", "跟我妈一起{a}"]),
    ),
    _f(
        "drink",
        ["4 cups of coffee a day", "black coffee", "energy drinks", "bubble tea", "soda"],
        ["美式咖啡", "奶茶", "可乐", "全糖奶茶", "浓茶"],
        (
            ["i drink {a}", "i live on {a}", "{a} every morning"],
            ["我每天喝{a}", "离不开{a}", "早上必须来杯{a}"],
        ),
        (
            [
                "quit {a}, matcha now 🍵",
                "switched to green tea",
                "cut out {a}, just water these days",
                "no more {a}, decaf only",
            ],
            ["戒了{a}，现在喝茶", "不喝{a}了，改喝燕麦奶", "现在只喝白水了", "{a}戒了"],
        ),
        (["forget the coffee thing"], ["喝什么的那条删了"]),
        (["{a}, no sugar", "{a}, like two a day"], ["{a}要少冰", "{a}一天两杯"]),
    ),
    _f(
        "diet2",
        ["vegetarian", "vegan", "keto", "gluten-free"],
        ["吃素", "不吃辣", "不吃牛肉", "戒糖"],
        (["i'm {a}", "been {a} since college"], ["我{a}", "我一直{a}"]),
        (
            [
                "plot twist, eating fish again, pescatarian now",
                "not {a} anymore",
                "started eating meat again lol",
            ],
            ["现在能吃辣了", "我不{a}了", "现在什么都吃了", "以前{a}，现在不忌口了"],
        ),
        (["forget the diet thing"], ["饮食那条别记"]),
        (["{a}, but eggs are ok", "{a} for health reasons"], ["{a}，鸡蛋可以", "{a}主要为了健康"]),
    ),
    _f(
        "sleep",
        ["stay up till 2am", "wake up at 5", "nap every afternoon"],
        ["熬夜到两点", "五点起床", "每天午睡"],
        (["i usually {a}", "i always {a}"], ["我每天{a}", "我习惯{a}"]),
        (
            [
                "i don't {a} anymore, in bed by 11",
                "fixed my sleep, 11pm now",
                "stopped doing that, i sleep at 10 now",
            ],
            ["现在不再{a}了，十一点就睡", "作息改了，十点睡", "我现在十一点前睡"],
        ),
        (["forget my sleep schedule"], ["作息那条删了"]),
        (["{a}, even on weekends", "{a} since uni"], ["周末也{a}", "大学开始就{a}"]),
    ),
    _f(
        "pet2",
        ["a hamster called Nugget", "a cat named Tofu", "a beagle called Biscuit"],
        ["一只叫豆豆的柯基", "一只叫咪咪的猫", "一只叫球球的仓鼠"],
        (["we have {a}", "i have {a}"], ["我养了{a}", "家里有{a}"]),
        (
            [
                "rip 😢 we adopted a kitten last week",
                "our old pet passed away, got a puppy now",
                "gave it to my sister, we have a rabbit now",
            ],
            ["它去世了，现在养了只兔子", "送人了，现在养猫", "走了😢，新领养了一只狗"],
        ),
        (
            ["forget the pet thing", "please remove the pet, it passed away"],
            ["宠物那条删了吧", "别记我养宠物了"],
        ),
        (["{a}, she's 3", "{a}, super clingy"], ["{a}，三岁了", "{a}特别黏人"]),
    ),
    _f(
        "lang",
        ["English", "Chinese", "Japanese"],
        ["英文", "中文", "日语"],
        (
            ["reply in {a} from now on", "always answer me in {a}", "use {a} with me pls"],
            ["以后用{a}回复我", "回答都用{a}", "跟我说话用{a}"],
        ),
        (
            [
                "switch back to {b}",
                "{b} is easier, use that instead",
                "make it {b} going forward",
                "nah just {b} pls",
            ],
            ["还是改回{b}吧", "以后改成{b}回复", "换成{b}吧，{a}太累", "不用{a}了，用{b}"],
        ),
        (["forget the language rule", "you can drop the {a} thing"], ["语言那条不用管了", "不用限制语言了"]),
        (
            ["{a}, but keep code comments short", "{a}, casual tone"],
            ["{a}，语气随意点", "用{a}，代码注释也一样"],
        ),
    ),
    _f(
        "units",
        ["Fahrenheit", "miles", "pounds", "12-hour time"],
        ["华氏度", "英里", "磅", "12小时制"],
        (["use {a} pls", "give temps in {a}", "always {a} for me"], ["用{a}", "单位用{a}", "以后都用{a}"]),
        (
            [
                "switch to celsius from now on, i moved",
                "metric please going forward",
                "km instead of {a}",
                "use 24h time now",
            ],
            ["改成摄氏度吧", "以后用公制", "换成公里", "改成24小时制"],
        ),
        (["forget the units thing"], ["单位那条不用了"]),
        (["{a}, rounded", "{a}, one decimal"], ["{a}，保留一位小数", "{a}，取整就行"]),
    ),
    _f(
        "format",
        ["bullet points", "a table", "numbered steps", "one short paragraph"],
        ["分点", "表格", "编号步骤", "一段话"],
        (
            ["please always answer me in {a}", "use {a} for answers", "i like {a}, stick to that"],
            ["回答用{a}", "以后都用{a}回复我", "给我{a}的格式"],
        ),
        (
            [
                "going forward drop the {a}, normal paragraphs pls",
                "no more {a}, just plain text",
                "switch to {b} instead",
                "{b} from now on",
            ],
            ["别用{a}了，正常写就行", "改成{b}吧", "以后用{b}", "不要{a}了，直接说"],
        ),
        (["forget the formatting rule"], ["格式那条删了"]),
        (["{a}, max five", "{a} with bold titles"], ["{a}，最多五条", "{a}加粗标题"]),
    ),
    _f(
        "count",
        ["three", "five", "four", "two", "ten"],
        ["三个", "五个", "四个", "两个", "十个"],
        (
            [
                "give me {a} options when you suggest stuff",
                "whenever you recommend restaurants give me {a} options",
                "always list {a} ideas",
            ],
            ["推荐东西给我{a}选项", "每次推荐{a}", "给我列{a}方案"],
        ),
        (
            [
                "actually {b} options is plenty",
                "make it {b} from now",
                "{b} is enough, {a} is too many",
                "just {b} pls, i can't decide with more",
            ],
            ["改成{b}就够了", "{a}太多了，{b}就行", "以后推荐{b}吧", "{b}就好，别给那么多"],
        ),
        (
            ["forget the options rule", "you don't need to give a fixed number anymore"],
            ["数量那条不用管了", "不用限定数量了"],
        ),
        (["{a} options, with prices", "{a} options, cheapest first"], ["{a}，带上价格", "{a}，便宜的放前面"]),
    ),
    _f(
        "length",
        ["300 words", "200 words", "5 sentences", "100 words"],
        ["300字", "200字", "五句话", "100字"],
        (["keep answers under {a}", "max {a} per answer pls"], ["回答控制在{a}以内", "每次回答不超过{a}"]),
        (
            ["still too long, make it {b}", "{b} max from now", "go for {b} instead"],
            ["还是太长了，改成{b}以内", "以后{b}以内", "缩到{b}吧"],
        ),
        (["forget the length limit", "no word limit needed anymore"], ["字数限制不用了", "长度那条删了"]),
        (["{a}, unless it's code", "{a}, summaries included"], ["{a}以内，代码除外", "{a}，总结也算"]),
    ),
    _f(
        "points",
        ["three key points", "five takeaways", "a tl;dr"],
        ["三条要点", "五个要点", "一句总结"],
        (["end every answer with {a}", "always sum up with {a}"], ["每次回答最后帮我总结{a}", "最后列{a}"]),
        (
            ["one point is enough, {a} is wordy", "just give {b} at the end now"],
            ["要点改成一条就够了", "总结改成{b}"],
        ),
        (["forget the summary rule"], ["总结那条不用了"]),
        (["{a}, bolded", "{a} in plain words"], ["{a}，加粗", "{a}，简单点"]),
    ),
    _f(
        "goal_study",
        ["the CPA exam", "grad school", "learning Spanish", "an AWS cert", "the bar exam"],
        ["考研", "考公", "考CPA", "学日语", "考教师资格证"],
        (
            ["my goal this year is {a}", "working toward {a}", "big goal: {a}"],
            ["今年的目标是{a}", "我的目标是{a}", "在准备{a}"],
        ),
        (
            [
                "scratch the {a} goal, switching to {b}",
                "dropping {a}, going for {b} instead",
                "{a} is on hold, now it's {b}",
                "change of plans, {b} now",
                "new goal is {b}",
            ],
            [
                "不{a}了，目标换成{b}",
                "{a}那个先放一放，现在目标改成{b}",
                "目标改了，{b}",
                "放弃{a}了，改{b}",
                "现在的目标是{b}",
            ],
        ),
        (
            ["nvm {a}, not doing it", "forget the {a} goal", "{a} is off the list", "cancel that goal"],
            ["{a}那个目标删了", "{a}不弄了，别记了", "别再提{a}了", "{a}的计划取消了"],
        ),
        (["{a}, exam in june", "{a}, studying 2h a day"], ["{a}，明年六月考", "为了{a}每天学两小时"]),
    ),
    _f(
        "goal_money",
        ["a Tesla", "a trip to Japan", "a new gaming rig", "a wedding"],
        ["买车", "去日本旅游", "换电脑", "结婚"],
        (["saving up for {a}", "my goal is to save for {a}"], ["在攒钱{a}", "目标是存钱{a}"]),
        (
            [
                "the car can wait, saving for a house deposit instead now",
                "saving for {b} now",
                "forget {a}, it's {b} now",
            ],
            ["不攒{a}了，改成存首付", "现在存钱是为了{b}", "目标换成{b}了"],
        ),
        (["never mind the savings goal"], ["攒钱那个目标不用记"]),
        (["{a}, about 500 a month", "{a} by next year"], ["{a}，每月存两千", "{a}，明年前"]),
    ),
    _f(
        "goal_fit",
        ["a full marathon", "losing 10kg", "100 pushups", "a half marathon"],
        ["跑全马", "减十斤", "练出腹肌", "跑半马"],
        (["my big goal is {a}", "goal for this year: {a}"], ["今年目标是{a}", "我想{a}"]),
        (
            [
                "scratch {a}, knees can't, doing a triathlon instead",
                "switching from {a} to {b}",
                "new plan: {b}",
            ],
            ["{a}不搞了，改成{b}", "目标从{a}换成{b}", "现在想{b}"],
        ),
        (
            ["forget the fitness goal", "{a}'s not happening, drop it"],
            ["健身目标删了吧", "{a}那个算了，别记"],
        ),
        (["{a} by october", "{a}, training 4x a week"], ["{a}，十月前", "{a}，每周练四次"]),
    ),
    _f(
        "sensitive2",
        [
            "sertraline for anxiety",
            "blood pressure pills",
            "a salary of 85k",
            "credit card debt",
            "ADHD",
            "a divorce",
            "my ex Priya",
            "therapy with Dr. Lin",
        ],
        ["降压药", "抗焦虑的药", "三万多信用卡欠款", "月薪一万二", "信佛", "在戒烟", "离婚", "看心理医生"],
        (["i'm on {a}", "dealing with {a} rn", "btw {a}"], ["我在吃{a}", "我有{a}", "跟你说{a}"]),
        (["i'm off {a} now", "{a} is behind me, all good now"], ["{a}已经停了", "{a}的事解决了"]),
        (
            [
                "can you forget the medication part?",
                "delete the salary thing",
                "wipe the {a} bit from memory",
                "forget i mentioned {a}",
                "that part about {a}, pls don't keep it",
                "erase that from ur memory pls 💀",
                "never mind, that was my sister not me, forget it",
            ],
            [
                "吃药那个事你别记了",
                "工资那条删了",
                "{a}那条删了吧",
                "{a}的事当我没说",
                "{a}那个你就别记了",
                "涉及隐私，{a}别存",
                "哦不对，是我表妹不是我，那条删了吧",
            ],
        ),
        (["{a}, doing better though", "{a} since last year"], ["{a}，最近好多了", "{a}，去年开始的"]),
    ),
]


def _vals(fam: Family, lang: str, k: int) -> tuple[str, str]:
    vals = fam.values[lang]
    a = vals[k % len(vals)]
    b = vals[(k + 1 + k // len(vals)) % len(vals)]
    if b == a:
        b = vals[(k + 2) % len(vals)]
    return a, b


def family_rows(fillings: int = 4, more: bool = False, upd24c: bool = False) -> list[dict[str, Any]]:
    """Pairs over ``FAMILIES`` (and ``pair_templates_upd24.FAMILIES_UPD24`` with ``more``,
    ``pair_templates_upd24c.FAMILIES_UPD24C`` with ``upd24c``): each old
    memory against its family's statements (same language and the
    other), every other family's statements as ``unrelated``, and blob memories (see module doc)."""
    out: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()

    def add(old: str, new: str, relation: str, slot: str) -> None:
        if old != new and (old, new) not in seen:
            seen.add((old, new))
            out.append({"old": old, "new": new, "relation": relation, "slot": slot})

    def statements(fam: Family, lang: str, k: int) -> list[tuple[str, str]]:
        a, b = _vals(fam, lang, k)
        rows = [("supersede", t.format(a=a, b=b)) for t in fam.sups[lang]]
        rows += [("retract", t.format(a=a, b=b)) for t in fam.rets[lang]]
        rows += [("refine", t.format(a=a, b=b)) for t in fam.refs[lang]]
        return rows

    from training.pair_templates_upd24 import FAMILIES_UPD24
    from training.pair_templates_upd24c import FAMILIES_UPD24C

    # issue 24, session 12: the upd24c families (new values told beside a negation of the old), not shipped:
    # every model trained with them passed fewer update dev cases (bench/RESULTS.md, "Issue 24: session 12,
    # updates (helper upd24c)"); their cue-bearing statements as ``unrelated`` against every other family
    # pushed the supersede probabilities of real updates down, so they meet the others one time in three
    base = FAMILIES + FAMILIES_UPD24C if upd24c else FAMILIES
    sparse = {f.slot for f in FAMILIES_UPD24C}
    families = base + FAMILIES_UPD24 if more else base
    langs = ("en", "zh")
    for fi, fam in enumerate(families):
        for k in range(fillings):
            for lang in langs:
                a, _ = _vals(fam, lang, k)
                for ot in fam.olds[lang]:
                    old = ot.format(a=a)
                    for rel, new in statements(fam, lang, k):
                        add(old, new, rel, fam.slot)
                    # the same family told in the other language (mixed chats), one in three
                    other = "zh" if lang == "en" else "en"
                    for rel, new in statements(fam, other, k)[k % 3 :: 3]:
                        if rel != "refine":  # a refinement names the old value in its own language
                            add(old, new, rel, fam.slot)
                    for oj, ofam in enumerate(families):
                        if oj == fi or ((fam.slot in sparse or ofam.slot in sparse) and (fi + oj + k) % 3):
                            continue  # the upd24c families meet the others one time in three (see below)
                        stm = statements(ofam, lang, k + oj)
                        for _rel, new in stm[(k + oj) % 4 :: 4]:
                            add(old, new, "unrelated", fam.slot)
                        # a plain statement of another slot, no cue at all ("我住在宁波" after a pet)
                        oa, _ = _vals(ofam, lang, k + oj)
                        plain = ofam.olds[lang][(k + oj) % len(ofam.olds[lang])]
                        add(old, plain.format(a=oa), "unrelated", fam.slot)
    # blobs: two families' statements in one memory; a retraction or a change of one part
    for fi, fam in enumerate(families):
        for lang in langs:
            for k in range(2):
                ofam = families[(fi + 5 + 3 * k) % len(families)]
                a, _ = _vals(fam, lang, k)
                oa, _ = _vals(ofam, lang, k)
                sep = "，" if lang == "zh" else ", and "
                old = (
                    fam.olds[lang][k % len(fam.olds[lang])].format(a=a)
                    + sep
                    + ofam.olds[lang][k % len(ofam.olds[lang])].format(a=oa)
                )
                for rel, new in statements(ofam, lang, k)[::2]:
                    add(old, new, rel, fam.slot + "+" + ofam.slot)
                for rel, new in statements(fam, lang, k)[1::2]:
                    add(old, new, rel, fam.slot + "+" + ofam.slot)
    return out


def all_pair_rows(more: bool = False, upd24c: bool = False, upd26: bool = False) -> list[dict[str, Any]]:
    """The first ten slots (``utterance_templates.pair_rows``) and ``family_rows`` (``more``: also the
    twelve families of ``training.pair_templates_upd24``; not shipped: with them the judge passed fewer
    dev cases, bench/RESULTS.md "Issue 24, updates and retractions on other people's wording"; ``upd24c``:
    also the eight families of ``training.pair_templates_upd24c``, not shipped for the same reason,
    "Issue 24: session 12, updates (helper upd24c)"); ``upd26``: also ``training.pair_templates_upd26``'s
    rows (one more item of a kind that holds many, as ``unrelated``; one more of a counted thing, as
    ``supersede``), not shipped: "Issue 24: session 13, updates (helper upd26)")."""
    from training.pair_templates_upd26 import additive_rows, count_rows
    from training.utterance_templates import pair_rows

    extra = additive_rows() + count_rows() if upd26 else []
    return pair_rows() + family_rows(more=more, upd24c=upd24c) + extra


if __name__ == "__main__":
    from collections import Counter

    rows = all_pair_rows()
    print(len(rows), Counter(r["relation"] for r in rows))
    print(len({r["old"] for r in rows} | {r["new"] for r in rows}), "texts")
    _ = itertools
