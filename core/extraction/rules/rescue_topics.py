"""The topics a rescued memory may be filed under (a data table of ``core.extraction.rules.gate_keys``)."""

from __future__ import annotations

from core.types import MemoryType

# Topics a rescued memory may be filed under, per type: key suffix -> bilingual descriptions or
# example sentences ("|"-separated, each embedded once per process; the nearest one names the
# topic). Suffixes that are catalogue slots reuse the slot (a new job statement overwrites the old
# job, a pet joins the pets); a single slot is only chosen with a clear margin (FACT_MARGIN).
TOPICS: dict[MemoryType, dict[str, str]] = {
    MemoryType.PREFERENCE: {
        "food": "喜欢吃的菜 口味 美食 food cuisine dishes taste eating",
        "drink": "咖啡 茶 奶茶 饮料 coffee tea drinks beverages",
        "music": "音乐 歌手 乐器 吉他 钢琴 music songs bands instruments guitar piano",
        "movies": "电影 电视剧 动画 综艺 movies films tv shows anime",
        "books": "书 小说 阅读 books novels reading",
        "games": "游戏 桌游 电竞 video games board games",
        "exercise": "运动 健身 跑步 游泳 球类 瑜伽 sports exercise running swimming fitness yoga",
        "outdoors": "户外 爬山 露营 钓鱼 观鸟 骑行 hiking camping fishing birdwatching outdoors",
        "crafts": "手工 编织 十字绣 陶艺 木工 折纸 crafts knitting sewing quilting pottery woodworking",
        "art": "绘画 书法 摄影 写作 painting drawing calligraphy photography writing poetry",
        "collecting": "收藏 邮票 乐高 模型 collecting stamps lego models",
        "travel": "旅行 旅游 景点 出行方式 travel trips destinations seats",
        "schedule": "作息 早起 熬夜 睡觉 sleep schedule mornings night owl",
        "style": "穿搭 衣服 颜色 家居 风格 clothes fashion colors home decor style",
        "social": "安静 独处 聚会 社交 quiet alone socializing parties crowds",
        "tech": "手机 电脑 软件 数码 phones computers software gadgets apps",
        "animals": "猫 狗 宠物 动物 cats dogs pets animals",
    },
    MemoryType.FACT: {
        "job": "我是一名护士，在医院上班|我在工厂做技术员，干了五年了|I work as a nurse at a hospital|"
               "I'm a carpenter, I build furniture for a living",
        "health": "我有高血压，一直在吃药|我腰不好，不能久坐|I have asthma and a bad knee|"
                  "I'm allergic to penicillin",
        "family": "我有两个孩子，老大上小学|我老婆是做设计的|I have two kids and a husband|"
                  "my mom lives with us",
        "pets": "我养了一只猫，叫年糕|我家有条金毛|I have a dog named Max|we have two cats at home",
        "home_city": "我住在上海浦东|我现在定居在成都|I live in Denver|home is Seattle for me",
        "education": "我在读大学，学计算机|我研究生学的是化学|I studied biology in college|"
                     "I'm a grad student",
        "background": "我老家是四川的|我是在海边长大的|I grew up in Texas|I'm originally from Lagos",
        "personal": "我今年三十岁|我是左撇子，性格比较内向|I'm left-handed and pretty shy|I'm 41 years old",
    },
    MemoryType.GOAL: {
        "career": "职业发展 升职 转行 创业 career promotion job change start a company",
        "education": "考试 考研 留学 学位 exams graduate school degree study abroad",
        "language": "学外语 英语 日语 learn a language English Japanese Spanish",
        "fitness": "减肥 健身 跑马拉松 lose weight fitness marathon",
        "savings": "存钱 还贷 理财 save money pay off debt financial",
        "home_purchase": "买房 首付 buy a house down payment",
        "travel": "去旅行 环游世界 travel the world visit places",
        "skill": "学会 技能 乐器 游泳 learn a skill instrument swimming cooking",
        "habit": "习惯 早睡 戒烟 habits sleep early quit smoking",
    },
    MemoryType.PROJECT: {
        "software": "开发 应用 程序 网站 代码 building an app website software code",
        "writing": "写书 小说 论文 播客 写作 writing a book novel thesis podcast",
        "renovation": "装修 翻新 改造 renovating restoring a house car boat",
        "research": "研究 课题 实验 research study experiment",
        "business": "开店 创业 网店 business shop startup store",
        "event": "筹备 婚礼 活动 organizing a wedding event club",
        "media": "拍摄 纪录片 视频 账号 filming documentary videos channel",
    },
    MemoryType.CONSTRAINT: {
        "reply_length": "回答简短 字数 short answers length",
        "format": "格式 列表 编号 format bullet points lists tables",
        "language": "用中文 用英文回答 reply language Chinese English",
        "tone": "语气 正式 随意 tone formal casual",
        "recommendations": "推荐的时候 避开 不要推荐 recommendations avoid suggest",
        "reminder": "提醒我 每次 每天 remind me every time whenever",
        "units": "单位 货币 时间格式 units currency date format",
        "code_style": "代码 注释 编程语言 code comments programming language",
    },
}
