"""Hand-written chat lines for the standing-instruction model (issue 24, session 31, helper cons50).

Session 30's lines (``training/instruction_lines_cons49.py``) read the rules with the object first higher,
but lifted the sentences near ``STANDING_RESCUE`` that are no rule with them: a counterfactual wish, a
reminder with a two-day window. These lines are the look-alike negatives of those registers, about as many
as the positives of both sessions together, each written once in its own voice: wishes ("要是…就好了",
"if only i had …"), reminders and conditions with a short window ("这两天…就提醒我", "if it rains
tomorrow …"), questions about what the assistant usually does ("你平时写代码会加注释吗"), and plans of the
user's own said with "以后" that ask nothing of the assistant. Beside them a few more rules in strangers'
wording: the object first, the reason first, units and formats "going forward". Label 1: a rule the
assistant follows from now on. ``group`` names the family (the trainer holds whole families out). Written
from the brief's family list, apart from the sentences of the case halves, the dev sets (``dev_cons50``
included) and the training rows.
"""

from __future__ import annotations

from typing import Any

from training.template_rows import written_rows

POSITIVE: dict[str, list[str]] = {
    "objectfirstzh": [
        "芒果我一吃就过敏，以后你给我推荐的甜品里都别带",
        "那种长篇大论的开场白我没耐心看，回答我的时候直接省掉",
        "被动语态读着别扭，你帮我改文章的时候尽量都换成主动句",
        "蘑菇的口感我受不了，给我出的菜单一律拿掉",
        "恐怖的图片我晚上会做噩梦，发给我的资料里这类的都过滤掉",
        "乱七八糟的颜文字我看不习惯，以后回我都不要加",
    ],
    "objectfirsten": [
        "anchovies. nope. never put them in anything you cook up for me",
        "the little recap paragraph at the end of your replies - lose it from now on",
        "gluten wrecks my stomach so swap it out of any meal ideas you give me",
        "horror movies, not for me at all. keep them off every watchlist you make me",
        "all-caps headings feel like yelling, tone them down in whatever you write for me",
        "fish sauce i cant stand the smell of. leave it out of the thai recipes you send",
    ],
    "unitsmixed": [
        "以后说温度都用摄氏度，华氏度我换算不过来",
        "金额以后统一写人民币，别给我美元了",
        "going forward give me times in 24h format, am/pm trips me up",
        "from here on out, distances in km please, miles mean zip to me",
        "以后给我列数字的时候用阿拉伯数字，别写汉字的一二三",
        "heights in cm from now on pls, feet and inches are lost on me",
    ],
}

NEGATIVE: dict[str, list[str]] = {
    "wishzh": [
        "要是我家楼下有个健身房就好了，每天都能去练",
        "真希望我会游泳，夏天去海边只能看着别人玩",
        "要是能天天睡到自然醒就好了",
        "如果我有个姐姐就好了，可以一起逛街",
        "唉，要是工资再高点就好了，想换个大点的房子",
        "要是我小时候学了钢琴就好了，现在想弹都不会",
        "如果公司离家近一点就好了，通勤太折磨人了",
        "要是我也能像他们那样说走就走就好了",
    ],
    "wishen": [
        "if only i had a car, the bus takes forever",
        "wish i could speak french, the trip would be so much easier",
        "would be nice if i had a garden to grow tomatoes in",
        "man if only i could sleep through the night without waking up",
        "i wish my apartment had a balcony, i'd be out there all summer",
        "if only i'd kept up with guitar, i'd be decent by now",
    ],
    "windowzh": [
        "明后天要是下雨的话提醒我带伞",
        "这两天如果快递到了就跟我说一声",
        "下周要是降温就提醒我把厚外套拿出来",
        "这几天我在减肥，晚饭别给我推荐太油的",
        "周末之前要是还没收到回复你提醒我催一下",
        "这个月信用卡快到期了，月底前提醒我还款",
        "出差这一周早上七点叫我起床",
    ],
    "windowen": [
        "if it snows tomorrow remind me to leave early",
        "for the next couple days, ping me if my package shows up",
        "this week only, keep my lunch ideas under 500 calories",
        "while i'm traveling till sunday, skip the gym reminders",
        "remind me tonight to text my landlord back",
        "if the meeting moves again this week let me know right away",
    ],
    "askhabitzh": [
        "你平时写代码会加注释吗",
        "你推荐菜谱的时候一般会放香菜吗？",
        "这个菜里的花椒可以不放吗",
        "你回答问题一般会写多长啊",
        "你给别人写文案也会用感叹号吗",
        "你们通常推荐的电影会有恐怖片吗",
    ],
    "askhabiten": [
        "do you usually include dairy in these smoothie recipes?",
        "is the bacon optional in this one or does it need it",
        "do you always add a summary at the end of answers?",
        "can the onions be skipped in this soup or will it taste off",
        "do your workout plans usually have burpees in them?",
        "would this cake still work without eggs?",
    ],
    "ownplanzh": [
        "以后我打算每天早上跑五公里",
        "以后周末我想多陪陪爸妈",
        "以后我尽量少点外卖，自己做饭",
        "以后我要早点睡了，熬不动了",
    ],
}


def rows() -> list[dict[str, Any]]:
    """The lines as trainer rows (``text``, ``label``, ``group``: ``cons50-<family>``), no duplicates."""
    return written_rows(POSITIVE, NEGATIVE, "cons50")
