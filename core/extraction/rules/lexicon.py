"""Word lists of the offline rules extractor (Chinese and English).

Lists are plain data, written with ``words()`` (``|``-separated text); ``patterns.alt()`` turns one into
a regex alternation.
Topic tables map a slot suffix to the words that identify it; order matters (first match wins).
"""

from __future__ import annotations


def words(text: str) -> list[str]:
    """Split a ``|``-separated list (newlines and spaces around items ignored)."""
    return [w.strip() for w in text.replace("\n", "|").split("|") if w.strip()]


# --- places ----------------------------------------------------------------------------------
CITIES_ZH = words("""
北京|上海|天津|重庆|广州|深圳|杭州|南京|苏州|武汉|成都|西安|长沙|郑州|济南|青岛|大连|沈阳|长春|哈尔滨|
石家庄|太原|呼和浩特|合肥|福州|厦门|泉州|南昌|南宁|桂林|海口|三亚|贵阳|昆明|大理|丽江|拉萨|兰州|西宁|银川|
乌鲁木齐|宁波|温州|嘉兴|湖州|绍兴|金华|台州|义乌|无锡|常州|南通|扬州|镇江|徐州|盐城|泰州|连云港|淮安|宿迁|
芜湖|蚌埠|珠海|佛山|东莞|中山|惠州|江门|汕头|湛江|肇庆|清远|韶关|揭阳|潮州|梅州|烟台|威海|潍坊|临沂|淄博|
济宁|日照|泰安|保定|唐山|廊坊|秦皇岛|邯郸|洛阳|开封|新乡|南阳|许昌|宜昌|襄阳|荆州|十堰|岳阳|株洲|湘潭|衡阳|
常德|九江|赣州|上饶|景德镇|绵阳|德阳|宜宾|泸州|南充|乐山|遵义|柳州|北海|曲靖|包头|鄂尔多斯|吉林|大庆|
齐齐哈尔|
鞍山|抚顺|锦州|丹东|营口|延吉|漳州|莆田|龙岩|宁德|三明|舟山|丽水|衢州|马鞍山|安庆|黄山|阜阳|六安|滁州|
香港|澳门|台北|高雄|台中|新竹|
东京|大阪|京都|横滨|名古屋|福冈|札幌|首尔|釜山|新加坡|吉隆坡|曼谷|清迈|河内|胡志明市|雅加达|马尼拉|
悉尼|墨尔本|布里斯班|珀斯|奥克兰|惠灵顿|温哥华|多伦多|蒙特利尔|纽约|洛杉矶|旧金山|西雅图|波士顿|芝加哥|
华盛顿|休斯顿|奥斯汀|迈阿密|圣地亚哥|硅谷|伦敦|曼彻斯特|爱丁堡|巴黎|里昂|柏林|慕尼黑|法兰克福|汉堡|
阿姆斯特丹|鹿特丹|布鲁塞尔|苏黎世|日内瓦|维也纳|罗马|米兰|马德里|巴塞罗那|里斯本|波尔图|都柏林|哥本哈根|
斯德哥尔摩|奥斯陆|赫尔辛基|莫斯科|伊斯坦布尔|迪拜|开罗|约翰内斯堡|圣保罗|里约|布宜诺斯艾利斯|墨西哥城|
""")

COUNTRIES_ZH = words("""
中国|日本|韩国|美国|英国|法国|德国|意大利|西班牙|葡萄牙|荷兰|比利时|瑞士|瑞典|挪威|丹麦|芬兰|爱尔兰|奥地利|
俄罗斯|加拿大|澳大利亚|澳洲|新西兰|马来西亚|泰国|越南|印尼|印度尼西亚|菲律宾|印度|巴西|阿根廷|墨西哥|智利|
南非|埃及|土耳其|阿联酋|以色列|波兰|捷克|希腊|匈牙利|冰岛|柬埔寨|老挝|缅甸|尼泊尔|斯里兰卡|巴基斯坦|沙特|
卡塔尔|秘鲁|哥伦比亚|乌克兰|
""")

PROVINCES_ZH = words("""
河北|山西|辽宁|吉林|黑龙江|江苏|浙江|安徽|福建|江西|山东|河南|湖北|湖南|广东|海南|四川|贵州|云南|陕西|甘肃|
青海|台湾|内蒙古|广西|西藏|宁夏|新疆|东北|
""")

PLACES_ZH = CITIES_ZH + COUNTRIES_ZH + PROVINCES_ZH

CITIES_EN = words("""
Beijing|Shanghai|Shenzhen|Guangzhou|Hangzhou|Chengdu|Wuhan|Nanjing|Suzhou|Xiamen|Xi'an|Chongqing|Tianjin|
Hong Kong|Macau|Taipei|Tokyo|Osaka|Kyoto|Yokohama|Seoul|Busan|Singapore|Kuala Lumpur|Bangkok|Chiang Mai|
Hanoi|
Ho Chi Minh City|Saigon|Jakarta|Bali|Manila|Mumbai|Delhi|New Delhi|Bangalore|Bengaluru|Hyderabad|Chennai|
Dubai|
Abu Dhabi|Doha|Tel Aviv|Istanbul|Cairo|Nairobi|Lagos|Cape Town|Johannesburg|Sydney|Melbourne|Brisbane|Perth|
Adelaide|Auckland|Wellington|Vancouver|Toronto|Montreal|Calgary|Ottawa|Seattle|Portland|San Francisco|
Bay Area|Oakland|San Jose|Los Angeles|LA|San Diego|Las Vegas|Phoenix|Denver|Austin|Dallas|Houston|Chicago|
Minneapolis|Detroit|Boston|New York|NYC|Brooklyn|Manhattan|Philadelphia|Pittsburgh|Washington|DC|Atlanta|
Miami|Orlando|Nashville|New Orleans|Salt Lake City|Honolulu|Anchorage|Raleigh|Charlotte|Baltimore|
London|Manchester|Edinburgh|Glasgow|Bristol|Birmingham|Leeds|Liverpool|Oxford|Cambridge|Dublin|Paris|Lyon|
Marseille|Berlin|Munich|Hamburg|Frankfurt|Cologne|Amsterdam|Rotterdam|Brussels|Zurich|Geneva|Vienna|Prague|
Budapest|Warsaw|Krakow|Copenhagen|Stockholm|Oslo|Helsinki|Reykjavik|Rome|Milan|Florence|Naples|Venice|
Madrid|Barcelona|Valencia|Seville|Lisbon|Porto|Athens|Moscow|Kyiv|Mexico City|Buenos Aires|Sao Paulo|
São Paulo|Rio|Rio de Janeiro|Bogota|Lima|Santiago|Montevideo
""")

COUNTRIES_EN = words("""
China|Japan|Korea|South Korea|Taiwan|Singapore|Malaysia|Thailand|Vietnam|Indonesia|Philippines|India|
Pakistan|
Australia|New Zealand|Canada|the US|the USA|the States|USA|United States|America|Mexico|Brazil|Argentina|
Chile|
Colombia|Peru|UK|the UK|England|Scotland|Wales|Ireland|France|Germany|Italy|Spain|Portugal|Netherlands|
the Netherlands|Belgium|Switzerland|Austria|Sweden|Norway|Denmark|Finland|Iceland|Poland|Czechia|Greece|
Turkey|Israel|Egypt|South Africa|Kenya|Nigeria|Russia|Ukraine|UAE
""")

US_STATES = words("""
California|Texas|Florida|Oregon|Washington State|Colorado|Arizona|Nevada|Utah|Massachusetts|New Jersey|
Illinois|Michigan|Ohio|Georgia|North Carolina|Virginia|Pennsylvania|Minnesota|Wisconsin|Hawaii|Alaska|
Tennessee|Maryland|Connecticut|Vermont|Maine|Ontario|Quebec|British Columbia|Bavaria
""")

PLACES_EN = CITIES_EN + COUNTRIES_EN + US_STATES

# place words that are not places (deictics, generic spots)
PLACE_DEICTIC_ZH = words("这边|这里|这儿|那边|那里|那儿|本地|当地|此地")
PLACE_DEICTIC_EN = words("here|there|this city|this town")

# --- occupations -----------------------------------------------------------------------------
OCCUPATIONS_ZH = words("""
程序员|码农|工程师|软件工程师|开发|前端|后端|全栈|架构师|算法工程师|测试工程师|测试|运维|产品经理|项目经理|
设计师|UI设计师|交互设计师|平面设计师|插画师|美工|建筑师|医生|医师|大夫|护士|护士长|药剂师|药师|牙医|兽医|
中医|老师|教师|班主任|教授|讲师|辅导员|家教|律师|法官|检察官|会计|出纳|审计|财务|精算师|分析师|数据分析师|
咨询顾问|顾问|销售|业务员|客服|运营|编辑|记者|作家|编剧|导演|演员|歌手|主播|博主|UP主|摄影师|翻译|口译|
厨师|面点师|司机|快递员|外卖员|骑手|警察|消防员|军人|公务员|研究员|科学家|博士后|博士生|研究生|大学生|
本科生|高中生|初中生|学生|实习生|店长|店主|老板|创业者|自由职业者|自由职业|全职妈妈|全职爸爸|宝妈|家庭主妇|
退休|工人|电工|木匠|农民|保安|空姐|空乘|乘务员|飞行员|机长|导游|健身教练|教练|瑜伽老师|心理咨询师|
社工|HR|人事|猎头|行政|秘书|文员|跟单|外贸|主管|经理|总监|CEO|CTO|合伙人|理财师|保险|房产中介|中介|
""")

# fields / roles that follow 做/干/从事/负责 in "在X做Y"
ROLE_FIELDS_ZH = words("""
设计|开发|研发|测试|运维|运营|销售|市场|产品|前端|后端|全栈|算法|数据|数据分析|编辑|翻译|会计|财务|审计|
客服|
外贸|跟单|采购|物流|人事|HR|行政|法务|律师|咨询|投资|金融|证券|银行|保险|教育|培训|医疗|护理|药房|科研|研究|
新闻|记者|广告|策划|公关|编程|程序|软件|硬件|芯片|嵌入式|游戏|动画|影视|摄影|美术|插画|建筑|土木|装修|
室内设计|
电商|跨境电商|直播|主播|自媒体|餐饮|厨师|烘焙|物业|房产|中介|会展|外包|实施|售前|售后|技术支持|运营商|
老师|教师|医生|护士|工程师|程序员|设计师|经理|主管|总监|销售员|店员|收银|司机|快递|
""")

TEACH_SUBJECTS_ZH = words("""
语文|数学|英语|物理|化学|生物|历史|地理|政治|音乐|美术|体育|信息技术|编程|钢琴|舞蹈|书法|中文|日语|法语|
""")

OCCUPATIONS_EN = words("""
nurse|doctor|physician|surgeon|dentist|pharmacist|paramedic|EMT|therapist|psychologist|psychiatrist|
counselor|
counsellor|social worker|vet|veterinarian|teacher|professor|lecturer|tutor|instructor|coach|principal|
librarian|engineer|developer|programmer|coder|software engineer|data scientist|data analyst|analyst|
architect|designer|UX designer|UI designer|product manager|project manager|program manager|manager|director|
PM|SRE|DevOps engineer|sysadmin|QA engineer|tester|translator|interpreter|writer|author|journalist|reporter|
editor|copywriter|accountant|auditor|bookkeeper|actuary|lawyer|attorney|paralegal|judge|consultant|banker|
trader|broker|realtor|real estate agent|recruiter|HR manager|salesperson|sales rep|marketer|
marketing manager|
scientist|researcher|postdoc|PhD student|grad student|graduate student|student|undergrad|intern|
chef|cook|baker|barista|bartender|waiter|waitress|server|driver|truck driver|pilot|flight attendant|
mechanic|electrician|plumber|carpenter|contractor|firefighter|police officer|cop|detective|soldier|
artist|illustrator|photographer|musician|composer|actor|actress|dancer|streamer|youtuber|content creator|
influencer|freelancer|entrepreneur|founder|co-founder|cofounder|CEO|CTO|COO|CFO|business owner|
shop owner|farmer|retiree|homemaker|stay-at-home mom|stay-at-home dad|stay at home mom|stay at home dad|
cashier|clerk|receptionist|secretary|assistant manager|technician|lab technician|pharmacy technician|
caregiver|nanny|midwife|optometrist|radiologist|anesthesiologist|game developer|web developer|
frontend developer|backend developer|full-stack developer|full stack developer|machine learning engineer|
ML engineer|security engineer|civil engineer|mechanical engineer|electrical engineer|economist|
statistician|mathematician|physicist|chemist|biologist|geologist|archaeologist|historian|philosopher|
""")

# --- animals ---------------------------------------------------------------------------------
PETS_ZH = words("""
猫|猫咪|小猫|狗|狗狗|小狗|柯基|金毛|泰迪|柴犬|哈士奇|二哈|边牧|拉布拉多|萨摩耶|比熊|博美|法斗|柯基犬|雪纳瑞|
英短|美短|布偶|橘猫|狸花|暹罗|蓝猫|加菲|兔子|兔兔|仓鼠|鹦鹉|乌龟|金鱼|龙猫|刺猬|蜥蜴|守宫|猫猫|狗子|
缅因|无毛猫|德牧|金渐层|银渐层|马尔济斯|阿拉斯加|秋田|杜宾|巴哥|吉娃娃|腊肠|雪橇犬|八哥|羊驼|田园犬|中华田园|
""")
PETS_EN = words("""
dog|dogs|cat|cats|puppy|kitten|kitty|corgi|golden retriever|retriever|labrador|lab|poodle|beagle|husky|
terrier|bulldog|french bulldog|frenchie|german shepherd|shepherd|dachshund|chihuahua|pug|shiba|shiba inu|
border collie|collie|parrot|budgie|rabbit|bunny|hamster|guinea pig|turtle|tortoise|goldfish|gecko|snake|
ferret|horse|pony|cockatiel|chinchilla|greyhound|whippet|maine coon|ragdoll|sphynx|bengal|siamese|tabby|
persian cat|cockapoo|labradoodle|goldendoodle|doodle|pitbull|pit bull|rottweiler|doberman|great dane|
schnauzer|shih tzu|maltese|yorkie|samoyed|akita|australian shepherd|aussie|cavalier|spaniel|pomeranian|
lizard|bearded dragon|axolotl|hedgehog|pet rat|chickens|hens|tarantula|koi|rescue dog|rescue cat|mutt
""")

# --- family / relationship ---------------------------------------------------------------------
FAMILY_ZH = words("""
女儿|儿子|孩子|小孩|娃|宝宝|闺女|老婆|老公|妻子|丈夫|爱人|媳妇|爸|妈|爸爸|妈妈|父亲|母亲|父母|爸妈|
爷爷|奶奶|外公|外婆|姥姥|姥爷|哥哥|姐姐|弟弟|妹妹|哥|姐|弟|妹|双胞胎|大宝|二宝|公婆|岳父|岳母|
""")
FAMILY_EN = words("""
wife|husband|spouse|son|sons|daughter|daughters|kid|kids|child|children|baby|toddler|twins|mom|mum|mother|
dad|father|parents|brother|brothers|sister|sisters|grandma|grandpa|grandmother|grandfather|in-laws|
stepson|stepdaughter|newborn
""")
PARTNER_ZH = words("对象|男朋友|女朋友|男友|女友|未婚夫|未婚妻|另一半|npy")
PARTNER_EN = words("boyfriend|girlfriend|fiance|fiancé|fiancee|fiancée|partner")

# --- health ----------------------------------------------------------------------------------
HEALTH_ZH = words("""
糖尿病|高血压|低血压|高血脂|低血糖|血糖偏高|血糖高|哮喘|痛风|胃病|胃炎|胃溃疡|胃不好|肠胃不好|心脏病|
戒烟|戒酒|滴酒不沾|不抽烟|甲亢|甲减|贫血|抑郁症|焦虑症|抑郁|失眠|偏头痛|腰椎|颈椎|腰间盘|椎间盘|半月板|
韧带|骨折|手术|怀孕|孕期|
近视|散光|色盲|色弱|乙肝|湿疹|鼻炎|关节炎|痛经|多囊|脂肪肝|肾结石|胆结石|心律不齐|癫痫|过敏性鼻炎|
高度近视|老花|听力|耳鸣|腱鞘炎|膝盖|腰不好|腰伤|旧伤|体检|控糖|血压|尿酸|ADHD|自闭|
""")
HEALTH_EN = words("""
diabetic|diabetes|type 1|type 2|hypertension|high blood pressure|asthma|gout|celiac|coeliac|IBS|crohn's|
migraine|migraines|insomnia|ADHD|autism|autistic|depression|anxiety|bipolar|epilepsy|surgery|ACL|
meniscus|knee|back pain|herniated disc|bad back|pregnant|colorblind|color blind|nearsighted|
short-sighted|hearing loss|tinnitus|arthritis|eczema|cholesterol|heart condition|thyroid|PCOS|
chronic pain|deaf|hard of hearing|hearing aid|hearing aids|blind|visually impaired|wheelchair|disabled|
disability|dyslexia|dyslexic|ptsd|ocd|fibromyalgia|lupus|crohn|ulcerative colitis|kidney|heart surgery|
blood sugar|prediabetic|pre-diabetic|anemia|anemic|quit smoking|sober|stopped drinking
""")

# --- diet / traits ---------------------------------------------------------------------------
DIET_ZH = words("吃素|素食|素食者|素食主义|纯素|清真|不吃肉|只吃素|蛋奶素|生酮|戒糖|"
                "低碳水|不吃猪肉|不吃牛肉")
DIET_EN = words("""
vegetarian|vegan|pescatarian|pescetarian|halal|kosher|keto|gluten-free|gluten free|dairy-free|
plant-based|plant based|paleo|don't eat meat|do not eat meat|don't eat pork|no longer eat meat|
""")
# A diet the user chose (a way of eating, a taste): stored as a preference (``preference-diet``); the
# rest of DIET (religious or medical: halal, kosher, no pork, gluten-free, dairy-free) stays a fact.
DIET_CHOSEN_ZH = words("吃素|素食|素食者|素食主义|纯素|不吃肉|只吃素|蛋奶素|生酮|戒糖|低碳水")
DIET_CHOSEN_EN = words("""
vegetarian|vegan|pescatarian|pescetarian|keto|plant-based|plant based|paleo|don't eat meat|do not eat meat|
no longer eat meat|
""")
TRAITS_ZH = words("""
左撇子|左利手|右撇子|社恐|社牛|内向|外向|INTJ|INTP|INFJ|INFP|ENTJ|ENTP|ENFJ|ENFP|ISTJ|ISFJ|
ESTJ|ESFJ|ISTP|ISFP|ESTP|ESFP|i人|e人|路痴|恐高|晕车|晕船|怕冷|怕热|不会游泳|不会开车|色弱|
""")
TRAITS_EN = words("""
left-handed|left handed|lefty|right-handed|introvert|introverted|
extrovert|extroverted|INTJ|INTP|INFJ|INFP|ENTJ|ENTP|ENFJ|ENFP|ISTJ|ISFJ|ESTJ|ESFJ|ISTP|ISFP|ESTP|ESFP|
afraid of heights|scared of heights|get carsick|get seasick|can't swim|don't drive|can't drive
""")

# --- topics for preferences: slot suffix -> words -------------------------------------------
PREF_TOPICS_ZH: list[tuple[str, list[str]]] = [
    ("drink", words("""
        奶茶|咖啡|拿铁|美式|摩卡|茶|绿茶|红茶|乌龙|普洱|花茶|豆浆|牛奶|酸奶|啤酒|红酒|白酒|葡萄酒|酒|可乐|
        雪碧|饮料|果汁|气泡水|苏打水|柠檬水|椰子水|咖啡因|冰美式|星巴克|喜茶|奈雪|蜜雪
    """)),
    ("movies", words("""
        电影|影片|恐怖片|喜剧片|爱情片|动作片|科幻片|悬疑片|文艺片|纪录片|动画片|电视剧|剧集|美剧|韩剧|日剧|
        英剧|国产剧|综艺|动漫|番剧|追剧|看剧|漫威
    """)),
    ("music", words("""
        音乐|歌|摇滚|民谣|古典乐|爵士|说唱|嘻哈|流行乐|K-pop|韩流|演唱会|乐队|歌手|听歌|唱歌|rap
    """)),
    ("podcasts", words("播客|有声书|电台|广播剧")),
    ("books", words("书|小说|阅读|看书|读书|传记|漫画|网文|散文|诗|绘本|杂志|推理小说|科幻小说|武侠")),
    ("games", words("""
        游戏|打游戏|王者|原神|手游|端游|主机|switch|steam|ps5|xbox|桌游|剧本杀|狼人杀|象棋|围棋|麻将
    """)),
    ("exercise", words("""
        跑步|夜跑|晨跑|慢跑|马拉松|健身|撸铁|游泳|瑜伽|普拉提|爬山|徒步|登山|骑行|骑车|单车|篮球|足球|
        羽毛球|
        乒乓球|网球|排球|滑雪|滑板|冲浪|攀岩|拳击|跳绳|散步|快走|运动|舞蹈|跳舞|太极|钓鱼|飞盘|露营|潜水|
        划船|广场舞|骑马|射箭|健走|跑
    """)),
    ("travel", words("旅行|旅游|出去玩|自驾|自驾游|穷游|度假|出国|背包|看海|古镇")),
    ("hobby", words("""
        摄影|拍照|画画|绘画|书法|手工|编织|烘焙|做饭|下厨|园艺|养花|种花|乐高|拼图|手办|集邮|追星|逛街|
        看展|博物馆|弹吉他|吉他|钢琴|尤克里里|架子鼓|写作|写东西|收藏|模型|cosplay|汉服|茶艺|插花|折纸|
        爱好|兴趣爱好|赛车|十字绣|刺绣|钩针|做手工|手工活|读诗|写诗|木工|陶艺
    """)),
    ("tech", words("""
        mac|macbook|windows|linux|iphone|安卓|android|ipad|vim|emacs|vscode|notion|obsidian|kindle
    """)),
    ("schedule", words("早起|晚睡|熬夜|午睡|睡懒觉|作息|起床|睡觉|早睡|夜猫子|早起党|睡前|白噪音|冥想")),
    ("food", words("""
        菜|鱼|肉|饭|面|粉|粥|汤|火锅|烧烤|串|撸串|辣|甜|咸|酸|麻辣|香辣|清淡|重口|口味|香菜|葱|姜|蒜|
        洋葱|韭菜|芹菜|苦瓜|茄子|青椒|海鲜|虾|蟹|贝|生蚝|牛排|牛肉|羊肉|猪肉|鸡肉|鸡|鸭|鹅|蛋|鸡蛋|
        内脏|奶酪|芝士|寿司|刺身|拉面|披萨|汉堡|炸鸡|薯条|包子|饺子|馄饨|馒头|面包|米饭|米线|螺蛳粉|
        麻辣烫|冒菜|串串|小龙虾|烤鸭|烤肉|酸菜鱼|水煮鱼|烤鱼|早饭|早餐|午饭|午餐|晚饭|晚餐|夜宵|宵夜|
        食堂|自己做饭|零食|甜品|甜食|蛋糕|冰淇淋|巧克力|糖|水果|榴莲|芒果|西瓜|草莓|荔枝|苹果|香蕉|橙子|
        葡萄|菠萝|
        川菜|湘菜|粤菜|鲁菜|东北菜|西北菜|江浙菜|本帮菜|日料|韩料|泰国菜|泰餐|西餐|意餐|法餐|越南菜|
        印度菜|墨西哥菜|快餐|外卖|食物|吃的|美食|素菜|蔬菜|豆腐|臭豆腐|花生|坚果|辣椒|花椒|芥末|老坛|
        酸菜|折耳根|鱼腥草|香肠|腊肉|卤味|凉皮|肉夹馍|煎饼|油条|豆汁|榴莲味
    """)),
]

PREF_TOPICS_EN: list[tuple[str, list[str]]] = [
    ("drink", words("""
        coffee|latte|espresso|cappuccino|americano|cold brew|tea|green tea|matcha|oolong|boba|bubble tea|
        milk tea|beer|wine|whisky|whiskey|cocktail|cocktails|soda|juice|kombucha|caffeine|decaf|milk|
        oat milk
    """)),
    ("movies", words("""
        movie|movies|film|films|rom-com|rom-coms|romcom|romantic comedy|romantic comedies|horror|thriller|
        thrillers|comedy|comedies|documentary|documentaries|sci-fi|scifi|anime|tv show|tv shows|series|
        sitcom|sitcoms|k-drama|kdrama|netflix|marvel|musicals|cinema
    """)),
    ("music", words("""
        music|song|songs|band|bands|rock|jazz|hip hop|hip-hop|rap|classical|country music|k-pop|kpop|metal|
        lo-fi|lofi|listen to|listening to|spotify|
        punk|indie|edm|techno|concert|concerts|album|albums|playlist|vinyl|opera|
        cello|flute|saxophone|sax|trumpet|clarinet|harp|banjo|mandolin|harmonica|accordion|bass guitar
    """)),
    ("podcasts", words("podcast|podcasts|audiobook|audiobooks")),
    ("books", words("""
        book|books|novel|novels|reading|fiction|non-fiction|nonfiction|biography|biographies|memoir|memoirs|
        comics|manga|fantasy|mystery novels|poetry|audiobooks|kindle|read
    """)),
    ("games", words("""
        game|games|gaming|video games|board games|boardgames|chess|ps5|xbox|nintendo|switch|steam|rpg|rpgs|
        d&d|dnd|puzzles|crossword|crosswords|sudoku
    """)),
    ("exercise", words("""
        run|running|runs|jog|jogging|marathon|marathons|gym|workout|workouts|lifting|weightlifting|swim|
        swimming|yoga|pilates|hike|hiking|hikes|cycling|bike|biking|climbing|bouldering|ski|skiing|
        snowboarding|surf|surfing|tennis|basketball|soccer|football|volleyball|badminton|golf|boxing|
        crossfit|
        dance|dancing|walks|walking|rowing|martial arts|karate|judo|exercise|exercising|trail running|
        camping|cycle|climb|skate|skateboarding|paddleboarding|kayaking|sailing|fishing|pickleball
    """)),
    ("travel", words("""
        travel|traveling|travelling|trips|road trips|road trip|backpacking|beach vacations|cruises
    """)),
    ("hobby", words("""
        photography|painting|drawing|knitting|crochet|baking|cooking|gardening|pottery|woodworking|lego|
        guitar|piano|ukulele|drums|violin|writing|journaling|crafts|sewing|birdwatching|fishing|museums|
        hobby|hobbies|cook|bake|knit|sew|quilt|quilting|cross stitch|embroidery|scrapbooking|collect|
        collecting|collection|woodwork|paint|draw|sketch|sketching|calligraphy|origami|car racing|racing
    """)),
    ("schedule", words("""
        sleep in|wake up early|early mornings|late nights|nap|naps|bedtime|mornings|night owl|early bird|
        morning person|night person|after 10pm|late at night|early riser|meditation|meditate
    """)),
    ("food", words("""
        food|foods|cuisine|dish|dishes|spicy|sweet|savory|salty|sour|thai|thai food|chinese food|italian|
        mexican|indian|japanese food|korean food|vietnamese|sushi|sashimi|ramen|pho|pizza|burger|burgers|
        taco|tacos|curry|seafood|fish|shellfish|shrimp|crab|oysters|meat|steak|chicken|beef|pork|lamb|
        cheese|
        chocolate|dessert|desserts|sweets|candy|breakfast|brunch|lunch|dinner|snack|snacks|vegetables|
        veggies|
        salad|salads|fruit|fruits|durian|mango|cilantro|coriander|garlic|onion|onions|mushrooms|olives|
        noodles|dumplings|rice|bread|pasta|bbq|barbecue|fried chicken|fries|ice cream|cake|pastries|tofu|
        eggs|avocado|peanuts|nuts|spice|heat|hot sauce|carbs|sugar|bagels|pancakes|waffles|kimchi|hot pot|
        hotpot|dim sum|street food|takeout|fast food
    """)),
]

# --- topics for goals ------------------------------------------------------------------------
GOAL_TOPICS_ZH: list[tuple[str, list[str]]] = [
    ("civil_service_exam", words("考公|考编|公务员|国考|省考|事业编|行测|申论|选调")),
    ("grad_school", words("考研|读研|考博|读博|保研|研究生|硕士|博士|留学|出国读|申请学校")),
    ("license", words("驾照|驾驶证|科目一|科目二|科目三|飞行执照|执照")),
    ("language", words("""
        英语|日语|韩语|法语|德语|西班牙语|葡萄牙语|意大利语|俄语|阿拉伯语|粤语|N1|N2|N3|JLPT|雅思|托福|
        四级|六级|专八|口语|外语|GRE|托业|单词|背单词|词汇|听力|阅读理解
    """)),
    ("certification", words("""
        注会|注册会计师|CPA|CFA|ACCA|FRM|PMP|司考|法考|教资|教师资格证|证书|资格证|一建|二建|造价|税务师|
        中级会计|初级会计|软考|备考|考证|考试|上岸
    """)),
    ("fitness", words("""
        马拉松|半马|全马|跑进|配速|减肥|减重|瘦到|瘦下来|瘦身|体重|体脂|增肌|腹肌|引体向上|健身|斤|公斤|
        铁人三项|跑步
    """)),
    ("home_purchase", words("首付|买房|买个房|房子|两居|三居|一居|学区房|房贷|置业|买套")),
    ("savings", words("""
        存款|存钱|攒钱|攒够|存够|攒到|存到|理财|财务自由|还清|还完|负债|储蓄|副业收入|被动收入
    """)),
    ("career", [
        "re:转(?:行|岗|型|做|到|去|成)?(?:前端|后端|全栈|产品|数据|算法|运营|设计|管理|技术|开发|测试"
        "|销售|市场|ai|人工智能)",
        *words("""
        转行|转岗|跳槽|升职|晋升|加薪|创业|找工作|换工作|换个工作|换份工作|找新工作|offer|转型|转数据|
        转产品|转技术|做独立开发|当老板|开店|
        开一家|辞职创业|转做
    """)]),
    ("skill", ["re:(?:在|正在|开始|自)学(?:习)?\\s*[a-z][a-z+#.\\-]{1,15}", *words("""
        学会|学吉他|学钢琴|学编程|学画画|学游泳|学做饭|学摄影|学唱歌|学跳舞|学开车|学滑雪|学日语|
        学英语
    """)]),
    ("reading", words("读完|读书|本书")),
    ("travel", ["re:去\\S{1,6}(?:看|玩|旅|度假|徒步|自驾)",
                *words("环游|旅行|旅游|去一趟|打卡|极光|自由行|出国玩|环球")]),
]

GOAL_TOPICS_EN: list[tuple[str, list[str]]] = [
    ("license", words("""
        pilot license|pilot's license|pilot licence|driver's license|drivers license|license|licence
    """)),
    ("language", words("""
        spanish|portuguese|french|german|japanese|korean|mandarin|chinese|italian|russian|arabic|english|
        cantonese|dutch|swedish|hindi|jlpt|ielts|toefl|b1|b2|c1|c2|fluent|fluency|conversational|language|
        vocabulary|vocab|duolingo
    """)),
    ("certification", words("""
        cpa|cfa|pmp|bar exam|the bar|certification|certified|certificate|exam|exams|aws cert|cissp|mcat|
        lsat|
        gmat|gre|sat|boards|licensing exam
    """)),
    ("fitness", words("""
        marathon|half marathon|ultramarathon|triathlon|ironman|5k|10k|lose weight|pounds|lbs|kg|
        weight|pull-ups|pullups|push-ups|bench|squat|deadlift|fitness|body fat|muscle|abs|run a|sub-4|sub-3
    """)),
    ("home_purchase", words("""
        down payment|buy a house|buy a home|buy a condo|buy an apartment|first home|mortgage
    """)),
    ("savings", words("""
        retire|retirement|save up|saving up|savings|emergency fund|pay off|debt|debt-free|retire early|
        financial independence|
        fire|invest|net worth|save $
    """)),
    ("career", words("""
        career|switch careers|career change|promotion|promoted|get a job|land a job|new job|become a|
        start my own business|start a business|launch my|quit my job|data analyst|senior engineer|
        get into tech|break into
    """)),
    ("education", words("""
        master's|masters|phd|degree|grad school|graduate school|mba|college|university|apply to
    """)),
    ("skill", words("""
        learn to|learn how to|learn guitar|learn piano|learn to code|learn coding|learn to swim|
        learn|learning|pick up|get better at|improve my
    """)),
    ("reading", words("books this year|books a year|reading challenge|books in")),
    ("travel", words("visit|travel to|trip to|countries|see the northern lights|backpack")),
]

# --- topics for constraints ------------------------------------------------------------------
CONSTRAINT_TOPICS: list[tuple[str, list[str]]] = [
    ("reminder", words("""
        提醒我|提醒一下|叫我|通知我|告诉我一声|remind me|notify me|alert me|ping me|nudge me
    """)),
    ("shell", words("shell|bash|zsh|fish shell|powershell|终端|命令行|命令")),
    ("code_comments", words("注释|comments|comment|docstring|docstrings")),
    ("code_style", words("""
        代码|变量名|函数|缩进|类型注解|type hints|typescript|python|java|golang|rust|code|coding|
        variable names|
        indentation|snake_case|camelcase|tabs|spaces|semicolons|tests|unit tests
    """)),
    ("format", words("""
        列表|要点|表格|markdown|标题|格式|分点|加粗|代码块|bullet|bullets|bullet points|bulleted|table|
        tables|
        headings|headers|format|formatting|numbered|bold|plain text|latex
    """)),
    ("reply_length", words("""
        字以内|字之内|个字|字数|篇幅|长度|太长|简短|简洁|精简|啰嗦|废话|段|句话|短一点|短点|短些|长话短说|
        别太长|少说|精炼|words|word limit|paragraph|
        paragraphs|sentences|short|shorter|brief|concise|long|length|tl;dr|tldr|succinct|verbose
    """)),
    ("currency", words("""
        人民币|美元|日元|欧元|港币|汇率|换算|价格|元|rmb|cny|usd|jpy|eur|currency|price|prices|exchange rate
    """)),
    ("units", words("""
        公制|英制|摄氏|华氏|公里|英里|公斤|磅|metric|imperial|celsius|fahrenheit|kilometers|miles|kg|lbs|
        units
    """)),
    ("language", words("""
        中文|英文|英语|日语|繁体|简体|粤语|普通话|双语|语言|english|chinese|mandarin|spanish|french|german|
        japanese|british|american|spelling|language|bilingual
    """)),
    ("tone", words("""
        语气|口吻|正式|幽默|客气|直接|委婉|tone|formal|casual|polite|blunt|direct|friendly|sarcasm
    """)),
    ("sources", words("来源|出处|引用|链接|参考|sources|citations|cite|links|references")),
    ("examples", words("例子|举例|示例|examples|example")),
    # last: food rules ("never suggest recipes with meat", "推荐餐厅要避开花生") when no output topic applies
    ("food", words("""
        菜谱|食谱|餐厅|饭店|饭馆|菜品|点菜|做菜|外卖|饮食|recipe|recipes|meal|meals|food|foods|dish|dishes|
        restaurant|restaurants|menu|menus|cooking|ingredients|snacks
    """)),
]

# project nouns: word -> slug used when the project has no name
PROJECT_NOUNS_ZH: dict[str, str] = {
    "小程序": "miniapp", "app": "app", "应用": "app", "网站": "website", "网页": "website",
    "平台": "platform", "系统": "system_project", "插件": "plugin", "框架": "framework", "库": "library",
    "开源项目": "open_source",
    "开源": "open_source", "游戏": "game", "博客": "blog", "公众号": "wechat_account", "频道": "channel",
    "播客": "podcast", "网店": "online_store", "淘宝店": "online_store", "小店": "shop", "店铺": "shop",
    "工作室": "studio", "品牌": "brand", "课程": "course", "小说": "novel", "论文": "thesis",
    "毕设": "thesis",
    "毕业设计": "thesis", "机器人": "bot", "bot": "bot", "operator": "operator", "产品": "product",
    "saas": "saas", "项目": "project", "副业": "side_project", "工具": "tool", "cli": "cli", "脚本": "script",
    "视频号": "channel", "抖音号": "channel", "b站": "channel", "up主": "channel", "专栏": "column",
    "漫画": "comic", "绘本": "picture_book", "剧本": "script_writing", "书": "book",
    "模型": "model", "算法": "algorithm", "课题": "research", "研究项目": "research", "实验": "research",
    "数据集": "dataset", "nas": "homelab", "服务器": "homelab", "树莓派": "homelab", "装修": "renovation",
    "3d打印": "3d_printing", "咖啡店": "cafe", "咖啡馆": "cafe", "奶茶店": "shop", "餐馆": "restaurant",
    "餐厅": "restaurant",
    "饭店": "restaurant", "民宿": "guesthouse", "书店": "bookstore", "花店": "shop", "面包店": "bakery",
    "公司": "company", "店": "shop", "乐队": "band", "社群": "community", "社团": "club",
}
PROJECT_NOUNS_EN: dict[str, str] = {
    "project": "project", "side project": "side_project", "app": "app", "application": "app",
    "website": "website", "site": "website", "platform": "platform", "tool": "tool", "cli": "cli",
    "library": "library", "lib": "library", "framework": "framework", "plugin": "plugin",
    "extension": "extension", "bot": "bot", "operator": "operator", "game": "game", "blog": "blog",
    "podcast": "podcast", "channel": "channel", "youtube channel": "channel", "newsletter": "newsletter",
    "store": "store", "shop": "store", "etsy shop": "store", "shopify store": "store", "startup": "startup",
    "business": "business", "brand": "brand", "saas": "saas", "service": "service", "repo": "repo",
    "package": "package", "crate": "package", "novel": "novel", "book": "book", "thesis": "thesis",
    "dissertation": "thesis", "course": "course", "open-source": "open_source", "open source": "open_source",
    "company": "company", "studio": "studio", "webcomic": "comic", "comic": "comic", "mod": "mod",
    "server": "server", "homelab": "homelab", "garden": "garden", "restaurant": "restaurant", "cafe": "cafe",
    "bakery": "bakery", "clinic": "clinic", "agency": "agency", "nonprofit": "nonprofit", "band": "band",
    "zine": "zine", "api": "api", "sdk": "sdk", "model": "model", "research project": "research",
    "experiment": "research", "dataset": "dataset", "home lab": "homelab",
    "nas": "homelab", "raspberry pi": "homelab", "renovation": "renovation", "remodel": "renovation",
}
