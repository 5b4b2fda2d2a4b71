"""Template rows for the lasting-statement head, second pass (issue 24, session 23, helper keep42).

Session 22's head (``lasting_rows_miss41.py``, 607 lines) read fragments, names and companion-chat
complaints as lasting ("I don't", "I'm Gary", "没有时间来陪我") and had few chat-style new values among its
lasting lines. These families are frames crossed with fillers (deterministic: frame ``i`` takes the fillers at
positions ``(i * 7 + k * 3) % len``), en / zh / mixed, each frame written here and not taken from a case file
(``python -m training.lasting_rows_keep42 --check FILES`` looks for copies):

- label 1 (lasting, the user's own): a new device, service, employer, car or sport told in chat words
  ("my phone's a {device} these days", "换成{device}了", "carrier 换成 {carrier} 了"); work told as a fragment
  or in passing ("{job} by trade"); a body's limit or a fear said casually ("{food} and me don't get along");
  a habit or a hedged taste without a taste word ("usually end up {activity} on weekends");
- label 0, in the same words: the same things for today only, someone else's, being weighed or asked about,
  an outage or a one-off; fragments and bare answers ("I don't", "not really", "还行吧"); a name given
  ("I'm {name}", "我叫{name}": a profile field, not a memory); companion-chat complaints and moods of these
  days ("nobody has time for me lately", "孩子们都忙，没空陪我").
"""

from __future__ import annotations

import sys
from pathlib import Path

from training.hand_rows import check_command, copies

DEVICES = ["fairphone 5", "galaxy s23", "iphone 13 mini", "thinkpad t14", "framework laptop",
           "steam deck", "kobo clara", "garmin forerunner", "oneplus 12", "surface pro",
           "mac mini", "xiaomi 14"]
DEVICES_ZH = ["小米14", "华为mate60", "iPad mini", "kindle", "荣耀平板", "vivo X100",
              "MacBook Pro", "任天堂switch", "大疆pocket3", "机械键盘", "电纸书", "OPPO Find X7"]
SERVICES = ["proton mail", "apple music", "obsidian", "todoist", "bitwarden", "brave", "signal",
            "youtube music", "notion calendar", "duolingo max", "feedly", "linear"]
SERVICES_ZH = ["网易云音乐", "飞书", "滴答清单", "印象笔记", "QQ音乐", "夸克", "语雀", "百词斩",
               "微信读书", "钉钉", "小红书", "得到"]
CARRIERS = ["mint mobile", "visible", "giffgaff", "three", "lebara", "vodafone"]
CARRIERS_ZH = ["移动", "电信", "广电", "小米移动", "移动宽带", "电信宽带"]
EMPLOYERS = ["a small design agency", "a logistics startup", "the city council", "a dental clinic",
             "an insurance company", "a bike shop", "a game studio", "the local hospital"]
EMPLOYERS_ZH = ["字节", "美团", "一家外企", "一家律所", "区医院", "一家小设计公司", "京东",
                "一家做芯片的公司"]
CARS = ["used corolla", "model 3", "mazda 3", "ioniq 5", "old golf", "honda fit"]
CARS_ZH = ["小鹏P7", "理想L6", "二手卡罗拉", "五菱宏光", "零跑C11", "问界M5"]
SPORTS = ["bouldering", "squash", "rowing", "pickleball", "kickboxing", "open water swimming",
          "trail running", "badminton"]
SPORTS_ZH = ["羽毛球", "攀岩", "飞盘", "游泳", "乒乓球", "普拉提", "骑行", "拳击"]
JOBS = ["dental nurse", "electrician", "court stenographer", "line cook", "bus driver",
        "accountant", "physiotherapist", "sound engineer", "welder", "primary school teacher"]
JOBS_ZH = ["会计", "护士", "厨师", "程序员", "中学老师", "快递员", "设计师", "药剂师", "律师",
           "电工"]
FOODS = ["dairy", "gluten", "shellfish", "spicy food", "raw onion", "coffee after noon",
         "red wine", "peanuts"]
FOODS_ZH = ["牛奶", "海鲜", "辣的", "芒果", "花生", "生冷的东西", "酒", "咖啡"]
FEARS = ["heights", "deep water", "dogs", "needles", "crowds", "thunderstorms"]
FEARS_ZH = ["打针", "坐飞机", "狗", "高的地方", "深水", "打雷"]
ACTIVITIES = ["baking bread", "fixing old radios", "sketching in the park", "doing jigsaw puzzles",
              "watching old kung fu movies", "tinkering with my bike", "reading sci-fi",
              "gardening"]
ACTIVITIES_ZH = ["烤面包", "拼乐高", "去公园写生", "看老电影", "钓鱼", "逛菜市场", "练字",
                 "养多肉"]
NAMES = ["Gary", "Priya", "Tom", "Lena", "Marcus", "Aiko", "Susan", "Diego"]
NAMES_ZH = ["小王", "李娜", "阿强", "王芳", "老张", "陈静"]

# (frames, fillers, label, group); a frame holds one ``{}``
_FAMILIES: list[tuple[list[str], list[str], int, str]] = [
    (["my phone's a {} these days", "on a {} now, loving it so far", "the {} is my daily driver now",
      "bought a {} in the spring, use it for everything", "ditched my old phone, {} gang now lol"],
     DEVICES, 1, "new_device_en"),
    (["换成{}了，用着还行", "最近入了台{}，天天在用", "现在主力是{}了", "终于换了{}，旧的送人了"],
     DEVICES_ZH, 1, "new_device_zh"),
    (["finally switched to {}", "moved everything over to {} last month", "it's all {} for me now",
      "been on {} since spring, not going back"], SERVICES, 1, "new_service_en"),
    (["现在都用{}了", "换到{}了，之前那个太难用", "这半年一直在用{}"], SERVICES_ZH, 1, "new_service_zh"),
    (["we're with {} now, way cheaper", "carrier 换成 {} 了", "号码转到 {} 了"], CARRIERS + CARRIERS_ZH, 1,
     "new_carrier_mixed"),
    (["started at {} a few weeks ago", "been working at {} since march", "new job at {}, still settling in"],
     EMPLOYERS, 1, "new_employer_en"),
    (["上个月去{}上班了", "现在在{}上班", "跳槽到{}了"], EMPLOYERS_ZH, 1, "new_employer_zh"),
    (["got myself a {} a few weeks back", "driving a {} now", "提了辆{}", "现在开的是{}"], CARS + CARS_ZH, 1,
     "new_car_mixed"),
    (["been doing {} instead of the gym lately", "it's {} twice a week for me now",
      "got really into {} this year", "现在每周都去{}", "最近迷上{}了", "改成{}了，跑步太伤膝盖"],
     SPORTS + SPORTS_ZH, 1, "new_sport_mixed"),
    (["{} by trade", "work as a {}", "i'm a {}, been doing it ten years", "做{}的", "我是{}，干了好几年了"],
     JOBS + JOBS_ZH, 1, "job_in_passing"),
    (["{} and me don't get along", "can't really do {}, my stomach hates it", "{}不太行，吃了就难受",
      "我碰不了{}"], FOODS + FOODS_ZH, 1, "body_limit"),
    (["kinda scared of {} tbh", "never been good with {}", "有点怕{}", "从小就怕{}"], FEARS + FEARS_ZH, 1,
     "fear"),
    (["usually end up {} on weekends", "nothing beats {} after a long week", "i'm a {} person honestly",
      "周末一般都在{}", "没事就喜欢{}", "下班后基本都在{}"], ACTIVITIES + ACTIVITIES_ZH, 1, "habit_taste"),
    # the same words, not lasting or not the user's
    (["borrowed my friend's {} today, kinda slow", "my brother just got a {}", "should i get the {}?",
      "saw the new {} at the store, pretty but pricey", "thinking about a {}, not sure yet"],
     DEVICES, 0, "device_moment_en"),
    (["今天借了朋友的{}玩了一下", "我哥刚买了{}", "在纠结要不要买{}", "今天在商场看到{}，有点贵"],
     DEVICES_ZH, 0, "device_moment_zh"),
    (["{} was down all morning ugh", "my sister swears by {}", "is {} any good?",
      "{} logged me out again today"], SERVICES, 0, "service_moment_en"),
    (["今天{}又崩了", "同事一直推荐{}", "{}好用吗", "{}今天更新了，界面好丑"], SERVICES_ZH, 0,
     "service_moment_zh"),
    (["my cousin started at {} today", "had an interview at {} this morning", "drove past {} on the way home",
      "朋友今天去{}面试了", "同事跳槽去{}了"], EMPLOYERS + EMPLOYERS_ZH, 0, "employer_other"),
    (["test drove a {} today, still thinking", "my neighbour bought a {}", "今天试驾了{}，还在考虑",
      "我爸想买{}"], CARS + CARS_ZH, 0, "car_moment"),
    (["played {} with coworkers today, so tired", "watched some {} on tv tonight", "今天陪朋友玩了一下午{}",
      "我女儿今天第一次去{}"], SPORTS + SPORTS_ZH, 0, "sport_moment"),
    (["my dad was a {}", "my roommate is a {}", "我妈以前是{}", "我表哥是{}"], JOBS + JOBS_ZH, 0,
     "job_of_others"),
    (["had too much {} last night, ugh", "skipping {} today, feeling off", "今天吃了{}，有点撑",
      "晚饭点了{}"], FOODS + FOODS_ZH, 0, "food_today"),
    (["i'm {}", "hi, i'm {}", "my name's {}", "call me {}", "我叫{}", "你可以叫我{}"], NAMES + NAMES_ZH, 0,
     "name_given"),
    (["spent the afternoon {}, it was nice", "might try {} this weekend", "my wife is into {}",
      "今天下午{}，挺开心", "我老公最近在{}"], ACTIVITIES + ACTIVITIES_ZH, 0, "activity_moment"),
]

_FRAGMENTS = """\
i don't
i do
i guess
maybe later
me neither
i don't have enough time
i don't know
no idea
sort of
kind of
not sure
yes i am
no i'm not
that's it
nothing much
same as always
还行吧
没有
不知道
算了
就那样
也还好
没什么
嗯嗯
是的
不是
随便吧
"""
_COMPLAINTS = """\
nobody has time for me lately
my kids never call anymore
i feel so alone these days
everyone's too busy to talk to me
no one listens to me at home
my husband never helps with anything
i'm always the one who has to apologize
work has been crushing me this month
can't seem to catch a break lately
孩子们都忙，没空陪我
没有人愿意听我说话
最近总觉得很孤单
老公从来不帮忙做家务
家里人都不理解我
最近工作压得我喘不过气
没有时间来陪我，我有点难过
他们总是忙自己的事
"""


def rows() -> list[dict[str, object]]:
    """The trainer's rows: ``text``, ``label`` (1 lasting and the user's own), ``group`` (``keep42_``...)."""
    out: list[dict[str, object]] = []
    for frames, fillers, label, group in _FAMILIES:
        for i, frame in enumerate(frames):
            for k in range(min(len(fillers), 6)):
                out.append({"text": frame.format(fillers[(i * 7 + k * 3) % len(fillers)]), "label": label,
                            "group": "keep42_" + group})
    for block, group in ((_FRAGMENTS, "fragment"), (_COMPLAINTS, "complaint")):
        out += [{"text": line.strip(), "label": 0, "group": "keep42_" + group}
                for line in block.splitlines() if line.strip()]
    return list({str(r["text"]): r for r in reversed(out)}.values())[::-1]  # each text once, first kept


def check(paths: list[Path]) -> list[str]:
    """Rows whose flattened text (8+ characters) occurs inside a case file's flattened text (copies)."""
    return copies((str(r["text"]) for r in rows()), paths, min_chars=8)


def main(argv: list[str] | None = None) -> int:
    return check_command(argv, __doc__.splitlines()[0], check)


if __name__ == "__main__":
    sys.exit(main())
