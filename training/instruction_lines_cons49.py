"""Hand-written chat lines for the standing-instruction model (issue 24, session 30, helper cons49).

Each line is written once, in its own voice (Chinese, English, mixed), not frame x slot. They target the
surface session 20's weights read at 0.30-0.60 (cons48's "still weak"): a rule about what to leave out said
with its object or its reason first and the leave-out verb last ("韭菜我闻着就难受，以后做饭的方子里都拿掉",
"peanut butter - allergic. keep it out of whatever you bake for me"), and the lines that use the same
words and are no rule: a cut for this one text or this one time ("这份合同里把第三条删掉再发我"), and a
request to forget what was said ("工资那条删掉，别存"). Label 1: a rule the assistant follows from now on.
``group`` names the family (the trainer holds whole families out). Written from the issue's family list, apart
from the sentences of the case halves, the dev sets (``dev_cons49`` included) and the development cases of
this session.
"""

from __future__ import annotations

from typing import Any

from training.template_rows import written_rows

POSITIVE: dict[str, list[str]] = {
    "leaveoutzh": [
        "韭菜我闻着就难受，以后做饭的方子里都拿掉",
        "花生我过敏，你给我列的零食清单里都删了吧",
        "肥肉我是一口都吃不下，推荐菜的时候都去掉",
        "我胃不好，以后给我的食谱里生冷的都去掉",
        "辣椒我现在不能碰，做菜的建议里都别放",
        "我在控制体重，给我配的早餐里油炸的都删掉",
        "感叹号看着太吵了，以后你写的文案里都去掉",
        "那些网络流行语我不喜欢，帮我写东西的时候都删掉",
        "客套话没必要，以后你回我的时候开头那段寒暄都省了",
        "我老婆不吃牛肉，以后推荐的家常菜里牛肉都去掉",
        "英文缩写我经常看不懂，以后给我解释东西的时候都换成中文",
        "我最近在戒糖，帮我做菜单的时候甜品都拿掉",
        "广告腔太重的词我受不了，以后改稿子都给我删了",
        "奶制品我喝了肚子疼，以后早餐推荐里都去掉",
        "结尾那句总结每次都多余，你以后回答都去掉吧",
        "我家孩子对鸡蛋过敏，以后给我的辅食方子里鸡蛋都删掉",
        "代码里的 print 调试语句我不要，以后给我写的都删干净",
        "markdown 的标题我这边显示不出来，以后回复里都去掉",
    ],
    "leaveouten": [
        "peanut butter - allergic. keep it out of whatever you bake for me",
        "exclamation marks drive me nuts, strip them from anything you write for me",
        "pork, i don't eat it. leave it out of every recipe from now on",
        "the disclaimers at the end of your answers, drop them for good, i know the risks",
        "coconut is a hard no for me so cut it from any dessert you suggest",
        "buzzwords make me cringe. take them out of anything you edit for me going forward",
        "i'm off caffeine now, so leave coffee drinks out of the menus you plan",
        "hashtags look spammy to me, leave them off every caption you write for me",
    ],
}

NEGATIVE: dict[str, list[str]] = {
    "oneoffcutzh": [
        "这份合同里把第三条删掉再发我",
        "刚才那段开头太啰嗦了，删掉重写一下",
        "这个菜谱我家没有香叶，这次就去掉吧",
        "把这张表里重复的行都删掉",
        "今天的会议纪要里把我的名字去掉",
        "这条朋友圈把最后那句删了再给我看看",
        "这篇稿子里的错别字帮我改一下，多余的空格都删掉",
        "这次做汤不放葱了，家里刚好用完",
        "把简历里实习那一段先拿掉，投这家用不上",
        "这个 PPT 第五页删掉吧，时间不够",
    ],
    "oneoffcuten": [
        "drop the third paragraph from this essay, it repeats itself",
        "can you strip the timestamps out of this log before i share it",
        "leave the salt out of this batch, my dad's visiting",
        "take my phone number off that flyer you just made",
        "remove the last two rows from the table above",
        "for this toast, cut the joke about my boss",
    ],
    "ifonly": [
        "要是我有个院子的话，肯定天天在外面种菜",
        "如果我会开车，周末一定到处自驾",
        "要是我住海边的话，估计每天都去游泳",
        "假如我有钱，我肯定每年出国玩两次",
        "要是我不上班的话，肯定天天睡到中午",
        "如果家里有烤箱，我肯定每周都烤面包",
        "要是我有狗的话，每天早上都会带它去跑步",
        "假如我再年轻十岁，肯定去学街舞",
        "if i had a bigger kitchen i'd bake every single weekend",
        "if i lived closer to the mountains i'd ski every day",
        "if i had a dog i'd take it to the beach all the time",
        "if money weren't a thing i'd travel every month for sure",
        "honestly if i had more free time i'd read a book a week",
        "if i could sing i'd be doing karaoke every friday lol",
    ],
    "dropmemoryzh": [
        "我住哪个小区那个删掉，不想让你记着",
        "工资那条删掉，别存",
        "刚才说我在看心理医生的，去掉吧",
        "我前男友那段你删了吧，不想提",
        "体检结果那个别记了，删掉",
        "之前说我要辞职的那条拿掉，还没定",
        "我女儿学校的名字你去掉，隐私",
        "那个欠款的事你帮我删了，当我没说",
    ],
    "dropmemoryen": [
        "delete the bit about my surgery, i'd rather you didn't keep it",
        "take my address out of your memory please",
        "the thing i said about my ex, drop it, don't save that",
        "scrap what i told you about my salary, keep that private",
        "remove the part about my court date from what you remember",
        "forget the gambling stuff i mentioned, wipe it",
    ],
}


def rows() -> list[dict[str, Any]]:
    """The lines as trainer rows (``text``, ``label``, ``group``: ``cons49-<family>``), no duplicates."""
    return written_rows(POSITIVE, NEGATIVE, "cons49")
