"""Hand-written groups for the list-item reading of retractions (issue 24, session 22, helper forget41).

Each group is a memory that lists things and the object phrases of retractions a user might send against it,
each with what it names: an item (its index in ``retract_items.memory_list(content).items``) named by another
word than the memory's (a synonym, a hypernym of that item alone, a paraphrase, another script), ``WHOLE``
(a category of the whole list: "the health stuff" for three allergies) or ``NONE`` (a thing of the same kind
the user never listed: "fishing" against hiking, chess and bread; the memory must stay whole). Phrases that
share a word with the memory are left out: words decide those before meaning is read.

Written once each, zh / en / mixed, apart from the case halves' and the dev sets' sentences and from the
probes of ``tests/core/extraction/test_retract_items.py``. ``python -m training.calibrate_retraction_item``
reads them.
"""

from __future__ import annotations

from dataclasses import dataclass

WHOLE = -1
NONE = -2


@dataclass(frozen=True)
class ItemGroup:
    """A list memory and (object phrase, what it names) pairs."""

    content: str
    phrases: tuple[tuple[str, int], ...]


def _g(content: str, *phrases: tuple[str, int]) -> ItemGroup:
    return ItemGroup(content, tuple(phrases))


GROUPS: tuple[ItemGroup, ...] = (
    _g("我下班后喜欢打篮球、弹吉他和看推理小说",
       ("球赛", 0), ("乐器", 1), ("侦探故事", 2), ("游泳", NONE), ("画画", NONE), ("业余生活", WHOLE)),
    _g("i'm into rock climbing, sourdough baking and birdwatching",
       ("bouldering", 0), ("bread making", 1), ("watching birds", 2), ("surfing", NONE), ("knitting", NONE),
       ("my hobbies", WHOLE)),
    _g("我家养了一只橘猫、两只仓鼠和一缸金鱼",
       ("猫咪", 0), ("小老鼠", 1), ("鱼缸", 2), ("狗", NONE), ("鹦鹉", NONE), ("宠物", WHOLE)),
    _g("i have a golden retriever, a parrot and two rabbits",
       ("the dog", 0), ("the bird", 1), ("the bunnies", 2), ("the cat", NONE), ("the lizard", NONE),
       ("my pets", WHOLE)),
    _g("我对青霉素、海鲜和猫毛过敏",
       ("抗生素", 0), ("虾蟹", 1), ("宠物毛发", 2), ("花粉", NONE), ("牛奶", NONE), ("过敏史", WHOLE)),
    _g("i'm allergic to shellfish, pollen and ibuprofen",
       ("prawns", 0), ("hay fever", 1), ("painkillers", 2), ("dairy", NONE), ("dust mites", NONE),
       ("my health stuff", WHOLE)),
    _g("我会说粤语、日语和一点西班牙语",
       ("广东话", 0), ("日文", 1), ("西语", 2), ("法语", NONE), ("韩语", NONE), ("语言能力", WHOLE)),
    _g("i speak portuguese, mandarin and a bit of german",
       ("brazilian", 0), ("chinese", 1), ("deutsch", 2), ("french", NONE), ("russian", NONE),
       ("the languages", WHOLE)),
    _g("我平时听爵士乐、古典乐和说唱",
       ("jazz", 0), ("交响乐", 1), ("嘻哈", 2), ("摇滚", NONE), ("民谣", NONE), ("音乐口味", WHOLE)),
    _g("i watch anime, cooking competitions and nature documentaries",
       ("cartoons", 0), ("bake off type shows", 1), ("wildlife films", 2), ("football", NONE),
       ("sitcoms", NONE), ("my tv stuff", WHOLE)),
    _g("我早餐一般吃包子、豆浆和茶叶蛋",
       ("馒头", 0), ("豆奶", 1), ("鸡蛋", 2), ("油条", NONE), ("面包", NONE), ("早饭", WHOLE)),
    _g("i usually have oatmeal, black coffee and a banana for breakfast",
       ("porridge", 0), ("the espresso", 1), ("the fruit", 2), ("eggs", NONE), ("pancakes", NONE),
       ("what i eat in the morning", WHOLE)),
    _g("我在吃二甲双胍、阿司匹林和维生素D",
       ("降糖药", 0), ("止痛药", 1), ("保健品", 2), ("安眠药", NONE), ("抗抑郁药", NONE),
       ("用药情况", WHOLE)),
    _g("i take metformin, lisinopril and fish oil",
       ("the diabetes pill", 0), ("the blood pressure med", 1), ("omega 3", 2), ("antidepressants", NONE),
       ("sleeping pills", NONE), ("my medications", WHOLE)),
    _g("我周末常去健身房、图书馆和菜市场",
       ("撸铁", 0), ("看书的地方", 1), ("买菜", 2), ("电影院", NONE), ("酒吧", NONE), ("周末行程", WHOLE)),
    _g("i volunteer at a food bank, an animal shelter and a hospice",
       ("the charity kitchen", 0), ("the dog rescue", 1), ("palliative care", 2), ("a school", NONE),
       ("a museum", NONE), ("my volunteering", WHOLE)),
    _g("我喜欢吃火锅、烤鸭和小龙虾",
       ("涮锅", 0), ("北京菜", 1), ("麻小", 2), ("寿司", NONE), ("披萨", NONE), ("爱吃的东西", WHOLE)),
    _g("i love thai curry, ramen and tacos",
       ("green curry", 0), ("noodle soup", 1), ("mexican food", 2), ("pizza", NONE), ("sushi", NONE),
       ("food favourites", WHOLE)),
    _g("我在学油画、书法和尤克里里",
       ("画画", 0), ("毛笔字", 1), ("小吉他", 2), ("钢琴", NONE), ("舞蹈", NONE), ("学的东西", WHOLE)),
    _g("i collect stamps, vintage cameras and vinyl",
       ("philately", 0), ("old film cameras", 1), ("records", 2), ("coins", NONE), ("comics", NONE),
       ("the collections", WHOLE)),
    _g("我玩原神、王者荣耀和塞尔达",
       ("米哈游的游戏", 0), ("手游moba", 1), ("任天堂那个", 2), ("英雄联盟", NONE), ("我的世界", NONE),
       ("游戏", WHOLE)),
    _g("i play tennis, volleyball and squash",
       ("racket sport on grass", 0), ("beach ball", 1), ("the indoor court thing", 2), ("golf", NONE),
       ("rugby", NONE), ("sports", WHOLE)),
    _g("我老家有爷爷、奶奶和一个表妹",
       ("祖父", 0), ("祖母", 1), ("亲戚家的妹妹", 2), ("舅舅", NONE), ("哥哥", NONE), ("家里人", WHOLE)),
    _g("my kids are into lego, swimming and minecraft",
       ("building blocks", 0), ("the pool", 1), ("that block game", 2), ("ballet", NONE), ("piano", NONE),
       ("the kids' stuff", WHOLE)),
    _g("我在准备雅思、驾照和教资",
       ("英语考试", 0), ("学车", 1), ("教师资格证", 2), ("考研", NONE), ("公务员", NONE),
       ("考试安排", WHOLE)),
    _g("i'm saving for a new laptop, a trip to japan and a wedding dress",
       ("the computer", 0), ("the tokyo holiday", 1), ("the bridal outfit", 2), ("a car", NONE),
       ("a house deposit", NONE), ("my savings goals", WHOLE)),
    _g("我喜欢喝拿铁和柠檬茶",
       ("咖啡", 0), ("柠檬水", 1), ("奶茶", NONE), ("啤酒", NONE), ("喝的", WHOLE)),
    _g("i like sci-fi novels and true crime podcasts",
       ("space books", 0), ("murder shows", 1), ("poetry", NONE), ("audiobooks", NONE),
       ("what i read and listen to", WHOLE)),
    _g("我周末会去爬山、打网球和逛二手市场",
       ("登山", 0), ("球拍运动", 1), ("淘旧货", 2), ("钓鱼", NONE), ("露营", NONE), ("周末安排", WHOLE)),
    _g("i'm learning the cello, python and sign language",
       ("the string instrument", 0), ("coding", 1), ("asl", 2), ("spanish", NONE), ("drawing", NONE),
       ("what i'm learning", WHOLE)),
)
