"""Chat-style update pairs of helper ``upd34`` (issue 24, session 19): written lines, two families.

Written one by one, as ``training/pair_chat_rows_upd29.py`` (same format, same labels: ``supersede``,
``retract``, ``refine``, ``unrelated``), never copied from an evaluation case.

- ``SCRIPT_GROUPS``: **the two sides in different scripts.** The old memory in Chinese and the line in
  English or zh-en mixed, the old memory in English and the line in Chinese or mixed, or both mixed; many
  slots (home, job, phone, pet, diet, sport, language, instructions, car, school, drink, editor, partner,
  goals) and voices. e5's cosines of a Chinese and an English text sit lower than those of two texts of one
  script, and the pair model's compact features are cosines, so these are the lines it reads worst.
- ``SECOND_GROUPS``: **a memory that names the old value as a detail.** The old memory is about another
  thing (a job, a school, a gym, a band) and names the place or thing the line moves away from ("a bakery
  in <city>" beside "moved from <city> to ..."). A line that leaves the old value behind (and usually names
  what replaced it there) supersedes this memory too; a move that keeps it (a move within the city, a
  commute back, the same job remote) is a refine or unrelated.

Each group is one old memory and its lines; ``group`` names it, so folds never split a group
(``training.train_pair_model --chat-upd34``, ``bench.pair_joint_ablation --folds``).
"""

from __future__ import annotations

from typing import Any

_REL = {"S": "supersede", "X": "retract", "R": "refine", "U": "unrelated"}

# (group, old memory, lines "L new line", L one of S X R U)
SCRIPT_GROUPS: tuple[tuple[str, str, str], ...] = (
    ("home_zh_en", "我住在杭州西湖区", """
S moved to chengdu last month, still not used to the spicy food lol
S 现在 based in Singapore 了，公司外派两年
S relocated to 深圳 for work, rented out the old flat
R my place is like a 10 min walk from the lake
R hangzhou has been home for 8 years now
U my parents live in ningbo
U the tea fields near hangzhou look amazing in spring
X pls don't keep where i live, privacy thing
"""),
    ("home_en_zh", "i live in toronto", """
S 上个月搬回北京了，toronto 太冷受不了
S 已经搬到 vancouver 啦
S 现在住温哥华，搬家累死
R 我住 toronto downtown，离地铁站很近
R 在多伦多住了快五年了
U 我表姐在 montreal
U 多伦多今天下大雪
X 住哪儿的信息别记了
"""),
    ("job_zh_mixed", "我在腾讯做测试", """
S 离职了，现在在一家 startup 做 QA lead
S 跳去 Shopee 了，做 backend
S not at tencent anymore, freelancing as a tester now
R 主要测支付那块的 feature
R 在 tencent 干了三年了
U my husband works at alibaba
U 周末公司 team building 去爬山
"""),
    ("job_en_zh", "i'm a barista at a cafe downtown", """
S 咖啡店不干了，现在在银行实习
S 转行做 UX designer 了哈哈
S got hired as a 房产中介, totally different vibe
R 我们店主打手冲
R 每天早上六点就得开店 😴
U 我室友也在咖啡店打工
U 今天拉花拉得特别好看
"""),
    ("phone_zh_en", "用的是 iPhone 12", """
S switched to a pixel 8 last week, android is weird
S 换了个 galaxy s24，屏幕大好多
S finally got a new phone, iphone 15 pro 🎉
R the battery on the 12 is kinda dying tbh
R 12 的相机还挺好用的
U my mom wants a new ipad
U 帮我查一下新款 iphone 什么时候发布
"""),
    ("pet_en_zh", "I have a golden retriever named Lucky", """
S lucky 去年走了，现在养了只柯基叫 mochi
S 狗狗送给我爸妈养了，我们现在养猫
R lucky 今年八岁了，还很能跑
R 每天晚上带 lucky 去公园遛
U 邻居家也有只金毛
U 宠物店周末打折
"""),
    ("diet_zh_en", "我吃素", """
S not vegetarian anymore, started eating fish again
S gave up the veggie thing, doctor said i need more protein
R mostly 吃素 because of the animals, 不是为了减肥
R tofu is basically my main protein lol
U my bf is vegan
U 今天中午吃了个 salad
"""),
    ("sport_en_zh", "i play badminton every weekend", """
S 羽毛球不打了，膝盖受伤，改游泳了
S 最近周末都去 climbing，badminton 好久没碰了
R 一般在学校体育馆打，双打为主
R 打羽毛球打了十年了
U 我女儿在学网球
U 昨晚的羽毛球决赛你看了吗
"""),
    ("lang_zh_en", "我在学日语", """
S dropped japanese, learning korean now for work
S japanese 暂停了，改学 spanish
R just passed N3, going for N2 next year
R 用 duolingo 每天学半小时
U my brother speaks fluent japanese
U any tips for a trip to japan?
"""),
    ("len_zh_en", "回答尽量控制在 200 字以内", """
S actually you can go up to 500 words now, i need more detail
S keep answers under 100 words from now on, even shorter
R and use bullet points, easier to read
U can you summarize this article for me
X forget the length rule, write as much as you need
"""),
    ("reply_lang_en_zh", "always reply to me in English", """
S 以后用中文回复我吧
S 换成中文回答就行，英文看着累
S 回复 switch 成繁体中文 please
R 技术名词可以保留英文原文
U 我英语四级过了
X 语言那条要求删掉吧
"""),
    ("car_zh_en", "开的是一辆 2015 年的思域", """
S sold the civic, driving a model 3 now
S traded in the old honda for a rav4 last weekend
R 思域快跑到 200k km 了
R the civic is a manual btw, love it
U my dad drives a camry
U just washed the car and now it's raining 🙄
"""),
    ("school_en_zh", "i'm a junior at UCLA studying economics", """
S 毕业了！现在在 Deloitte 上班
S transferred to 北大 this semester, still econ
S 换专业了，现在读 computer science
R 经济之外还辅修 statistics
R 今年是在 UCLA 的第三年
U 我妹妹明年申请 UCLA
U 期末考试下周，好紧张
"""),
    ("drink_zh_en", "每天早上喝一杯美式", """
S quit coffee, 改喝 matcha latte 了
S caffeine is out, it's just 热水 in the morning these days
R iced americano, no sugar
U my coworker drinks like 4 espressos a day
U this morning's americano was awful
"""),
    ("editor_en_zh", "I code in VS Code", """
S 换 neovim 了，vscode 太卡
S 现在写代码全用 cursor
R vscode 里装了 vim 插件
U 同事都用 jetbrains 全家桶
U 帮我写个 python 脚本读 csv
"""),
    ("partner_zh_en", "我单身", """
S 我有 girlfriend 了 😊
S engaged as of last weekend!!!
R 单身三年了，pretty happy about it
U my best friend just got married
U going to a friend's wedding this weekend
"""),
    ("gym_en_zh", "i go to the gym 4 times a week", """
S 健身房退卡了，现在每天早上跑步
S stopped the gym, 在家做 yoga 了
R 主要练腿和背
U 今天健身房人超多
U 我老公也想开始练
"""),
    ("music_mixed", "最喜欢听 K-pop，尤其是 BLACKPINK", """
S 现在更喜欢 indie folk 了，kpop 听腻了
S lately obsessed with jazz, kpop 基本不听了
R 最喜欢 Jennie 的 solo
U 我妹喜欢 BTS
U 下个月有个 concert 要不要一起去
"""),
    ("allergy_zh_en", "我对青霉素过敏", """
X actually delete the penicillin thing, the test came back negative
X 青霉素那个 remove 掉吧，医生说当时搞错了
R got a rash all over as a kid after a shot
U my son is allergic to peanuts
"""),
    ("goal_zh_en", "今年的目标是考 CPA", """
S 不考 CPA 了，改考 CFA
S scrapped the cpa plan, doing an MBA application instead
R 已经过了会计和税法两门
R studying for cpa every night after work
U 同事在考 PMP
"""),
    ("home_mixed", "住在 Brooklyn 的 Park Slope", """
S 搬去 Queens 了，Astoria 房租便宜
S 已经 moved to Jersey City，commute 还行
R 我们那个 block 有很多 brownstones
U 朋友住 Manhattan
X 地址别存了 pls
"""),
    ("job_en_mixed", "I'm a high school math teacher", """
S 不教书了，现在做 edtech 的 product
S left teaching, 在一家培训机构做课程研发
R 教高二的 calculus
R 学校在郊区
U 我妈以前也是老师
"""),
)

SECOND_GROUPS: tuple[tuple[str, str, str], ...] = (
    ("second_bakery", "i work at a bakery in leeds", """
S moved from leeds to york last month, got a job at a bookshop there
S left leeds for good, new flat and new job in bristol
R moved out to harrogate but still commute to the bakery in leeds
U moved flats within leeds, same job
"""),
    ("second_factory", "在苏州一家电子厂上班", """
S 离开苏州了，去成都做销售
S 从苏州搬到无锡了，换了个厂
R 搬到园区那边了，离厂近一点
U 苏州今天好热
"""),
    ("second_school", "my kids go to riverside elementary in dayton", """
S we moved out of dayton in june, the kids started at a new school in columbus
S left ohio for texas, kids are at a charter school in austin now
R moved across town but the kids stay at riverside
U dayton finally got a new library
"""),
    ("second_gym", "在北京的一家健身房办了年卡", """
S 从北京搬去上海了，卡转给朋友了
S 离开北京了，在上海找了个新健身房
R 在北京搬了个家，健身房还是那家
U 北京今天雾霾好重
"""),
    ("second_shelter", "i volunteer at the animal shelter in san diego", """
S moved away from san diego, volunteering at a food bank in phoenix now
S left SD for denver, helping out at a shelter here instead
R moved to la jolla, still drive down to the shelter on saturdays
U the san diego zoo was amazing this weekend
"""),
    ("second_grad", "在杭州读研，浙大计算机", """
S 毕业离开杭州了，在上海上班
S 研究生读完了，从杭州去了北京工作
R 搬到紫金港附近住了，离实验室近
U 杭州的秋天太舒服了
"""),
    ("second_doctor", "my doctor is at the kaiser clinic in oakland", """
S we moved from oakland to sacramento, found a new doctor near home
S since leaving the bay my gp is a local guy in reno
R moved to berkeley but i still see the same doctor in oakland
U oakland traffic is awful today
"""),
    ("second_band", "周末在成都的一个乐队当鼓手", """
S 从成都搬到重庆了，乐队那边就退了，在这边加了个新乐队
S 离开成都以后就不打鼓了，改弹吉他
R 乐队在成都玉林路那边排练
U 成都的火锅真的好吃
"""),
    ("second_club", "i'm in a running club in manchester", """
S moved from manchester to glasgow, joined a cycling club up here instead
S not in manchester anymore, run alone in london now
R the club meets tuesday nights in manchester, i never miss it
U manchester rain again, shocking
"""),
    ("second_church", "每周日去上海的一个教会做礼拜", """
S 从上海搬到苏州以后，在苏州找了个新教会
R 搬到浦东了，礼拜还是去原来那个教会
U 上海的房价又涨了
"""),
)

GROUPS: tuple[tuple[str, str, str], ...] = SCRIPT_GROUPS + SECOND_GROUPS


def _rows(groups: tuple[tuple[str, str, str], ...], family: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for group, old, lines in groups:
        for line in lines.strip().splitlines():
            label, new = line.split(" ", 1)
            rows.append({"old": old, "new": new.strip(), "relation": _REL[label], "slot": f"chat34_{group}",
                         "family": family})
    return rows


def chat_pair_rows() -> list[dict[str, Any]]:
    """The written pairs as ``train_pair_model`` rows (``old``, ``new``, ``relation``, ``slot``: the group,
    so folds keep a group together; ``family``: ``script`` or ``second``)."""
    return _rows(SCRIPT_GROUPS, "script") + _rows(SECOND_GROUPS, "second")


if __name__ == "__main__":
    from collections import Counter

    rows = chat_pair_rows()
    print(len(rows), len(GROUPS), Counter((r["family"], r["relation"]) for r in rows))
