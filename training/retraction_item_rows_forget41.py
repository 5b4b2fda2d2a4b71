"""Hand-written groups for the list-item reading of retractions (issue 24, session 22, helper forget41).

Each group is a memory that lists things and the object phrases of retractions a user might send against it,
each with what it names: an item (its index in ``retract_items.memory_list(content).items``) named by another
word than the memory's (a synonym, a hypernym of that item alone, a paraphrase, another script), ``WHOLE``
(a category of the whole list: "the health stuff" for three allergies) or ``NONE`` (a thing of the same kind
the user never listed: "fishing" against hiking, chess and bread; the memory must stay whole). Phrases that
share a word with the memory are left out: words decide those before meaning is read.

Written once each, zh / en / mixed, apart from the case halves' and the dev sets' sentences and from the
probes of ``tests/core/extraction/test_retract_items.py``: 30 groups first, then 20 more (more domains,
categories in plain words, near siblings) whose held-out figures replaced the first batch's optimistic
ones; the shipped fit reads all 50. ``python -m training.train_retraction_item`` reads them.
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
    # -- session 22, second batch: more domains, categories in plain words, near siblings
    _g("我养了一条柯基和两只鹦鹉",
       ("狗狗", 0), ("小鸟", 1), ("兔子", NONE), ("乌龟", NONE), ("动物", WHOLE), ("养的小家伙", WHOLE)),
    _g("i own a bearded dragon and three goldfish",
       ("the lizard", 0), ("the fish tank", 1), ("the puppy", NONE), ("a kitten", NONE),
       ("the animals", WHOLE)),
    _g("我有高血压、胃溃疡和轻度焦虑",
       ("血压", 0), ("胃病", 1), ("情绪问题", 2), ("哮喘", NONE), ("糖尿病", NONE), ("身体状况", WHOLE),
       ("病史", WHOLE)),
    _g("i have asthma, eczema and a bad knee",
       ("breathing problems", 0), ("the skin thing", 1), ("joint pain", 2), ("migraines", NONE),
       ("diabetes", NONE), ("medical history", WHOLE), ("health conditions", WHOLE)),
    _g("我每周去跑步、打乒乓球和练拳击",
       ("慢跑", 0), ("乒乓", 1), ("格斗", 2), ("滑雪", NONE), ("攀岩", NONE), ("健身安排", WHOLE)),
    _g("i do pilates, rowing and kickboxing",
       ("core workouts", 0), ("the erg", 1), ("martial arts", 2), ("cycling", NONE), ("yoga", NONE),
       ("my workouts", WHOLE), ("exercise routine", WHOLE)),
    _g("我爱吃榴莲、螺蛳粉和臭豆腐",
       ("水果之王", 0), ("柳州米粉", 1), ("长沙小吃", 2), ("香菜", NONE), ("火锅", NONE),
       ("重口味的东西", WHOLE)),
    _g("i can't stand olives, cilantro and blue cheese",
       ("the black ones on pizza", 0), ("coriander", 1), ("stinky cheese", 2), ("mushrooms", NONE),
       ("onions", NONE), ("foods i hate", WHOLE)),
    _g("我追《繁花》、《漫长的季节》和《狂飙》",
       ("上海那部剧", 0), ("东北悬疑剧", 1), ("扫黑剧", 2), ("甄嬛传", NONE), ("综艺", NONE),
       ("在追的剧", WHOLE)),
    _g("i read stephen king, agatha christie and terry pratchett",
       ("horror novels", 0), ("poirot", 1), ("discworld", 2), ("tolkien", NONE), ("jane austen", NONE),
       ("my favourite authors", WHOLE)),
    _g("我女儿在学钢琴、围棋和游泳",
       ("弹琴", 0), ("下棋", 1), ("水里的课", 2), ("跳舞", NONE), ("英语", NONE), ("孩子的兴趣班", WHOLE)),
    _g("my son plays soccer, trumpet and chess",
       ("football", 0), ("the brass instrument", 1), ("the board game", 2), ("basketball", NONE),
       ("violin", NONE), ("his activities", WHOLE)),
    _g("我去过冰岛、摩洛哥和秘鲁",
       ("北欧", 0), ("北非", 1), ("马丘比丘", 2), ("日本", NONE), ("埃及", NONE), ("去过的国家", WHOLE),
       ("旅行经历", WHOLE)),
    _g("i've lived in lisbon, seoul and toronto",
       ("portugal", 0), ("korea", 1), ("canada", 2), ("berlin", NONE), ("sydney", NONE),
       ("the places i lived", WHOLE)),
    _g("我用 notion、飞书和 figma 工作",
       ("笔记软件", 0), ("字节的办公软件", 1), ("设计工具", 2), ("钉钉", NONE), ("excel", NONE),
       ("工具", WHOLE)),
    _g("i drink oat milk lattes, kombucha and sparkling water",
       ("the coffee", 0), ("fermented tea", 1), ("fizzy water", 2), ("beer", NONE), ("orange juice", NONE),
       ("drinks", WHOLE)),
    _g("我在还房贷、车贷和助学贷款",
       ("房子的贷款", 0), ("买车的钱", 1), ("学生贷款", 2), ("信用卡", NONE), ("花呗", NONE),
       ("欠的钱", WHOLE),
       ("财务情况", WHOLE)),
    _g("i'm paying off a mortgage, a car loan and some credit card debt",
       ("the house", 0), ("the auto financing", 1), ("the visa balance", 2), ("student loans", NONE),
       ("medical bills", NONE), ("my money stuff", WHOLE), ("finances", WHOLE)),
    _g("我周末会去教堂、养老院做义工和上陶艺课",
       ("礼拜", 0), ("照顾老人", 1), ("捏泥巴", 2), ("健身房", NONE), ("钓鱼", NONE), ("周末做的事", WHOLE)),
    _g("i grow tomatoes, basil and chillies on my balcony",
       ("the veg", 0), ("herbs", 1), ("hot peppers", 2), ("roses", NONE), ("strawberries", NONE),
       ("my plants", WHOLE), ("the garden stuff", WHOLE)),
)
