"""Written rows for the list fragment model (issue 24, session 21, helper multi40): items of a
self-introduction that list34's rows left thin.

A list-style introduction also tells, in a few words, a fear ("terrified of heights tbh"), a condition with
what follows from it ("bad back so no long drives pls"), a diet with its reason in brackets ("no pork
(religious)"), a job with a hedge ("qa, mostly manual testing"). The list fragment model read such items as
drops (a fear as an item: p(keep) 0.49 at best), so they were lost from lists whose other items were kept.
The drops beside them are items of the same shape that tell the moment ("nervous about tomorrow tbh",
"knackered today"), so the fragment model learns the lasting kind, not the surface. Fed to the list fragment
trainer only (``training/train_list_fragment.py``); the list-item head's rows are unchanged.

Every line was written for this module, in many voices (English, Chinese, mixed; lowercase, typos, emoji,
brackets); none was copied, translated or paraphrased from an evaluation set (the bench case files, the
shared dev cases, the public benchmarks): ``python -m training.list_item_rows40 --check FILES`` looks for
copies.
"""

from __future__ import annotations

import sys
from pathlib import Path

from training.hand_rows import check_command, copies

P, F, G, J, C = "preference", "fact", "goal", "project", "constraint"
DROP = "drop"

_ITEMS = """\
F|terrified of heights tbh
F|scared of dogs since a kid
F|massive fear of needles
F|spiders = nope, proper phobia
F|claustrophobic, lifts are hard
F|afraid of deep water, can't swim
F|nervous driver, avoid motorways
F|hate the dark, always a nightlight lol
F|恐高
F|怕狗，小时候被咬过
F|有幽闭恐惧症
F|特别怕打针
F|不会游泳，怕水
F|bad back so no long drives pls
F|dodgy hip, stairs are a pain
F|migraines, bright screens set them off
F|epileptic so no flashing stuff
F|hay fever every spring
F|tinnitus (left ear)
F|chronic fatigue, pacing myself
F|anxiety, on meds for it
F|adhd (diagnosed late)
F|wear hearing aids
F|颈椎不好，低头久了就疼
F|有哮喘，闻不了烟味
F|胃不好，吃不了辣
F|痛风，海鲜基本不碰
F|偏头痛，经常犯
F|no pork (religious)
F|halal only
F|nut allergy, the serious kind
F|pescatarian (for the planet)
F|dairy free bc of eczema
F|low fodmap diet (ibs)
F|吃素，信佛
F|清真
F|花生过敏，很严重
F|不吃牛肉（家里习惯）
F|qa, mostly manual testing
F|junior dev, backend
F|bus driver, early shifts
F|vet nurse at a farm practice
F|stay at home mum of three
F|phd student, linguistics
F|barista + part time uni
F|做测试的，主要点点点
F|小学数学老师
F|在银行柜台
F|宝妈，全职带娃
F|medically retired (ex army)
P|big on board games
P|vinyl collector
P|def not an early riser
P|long walks w the dog
P|喜欢钓鱼
P|追剧狂魔
G|trying to quit smoking
G|saving for a deposit
G|想考个教师资格证
DROP|nervous about tomorrow tbh
DROP|knackered today
DROP|bit hungover lol
DROP|scared about the interview later
DROP|stressed this week
DROP|今天好累
DROP|有点紧张明天的面试
DROP|刚吃完饭
DROP|anyway
DROP|that's about it
DROP|idk what else
DROP|差不多就这些""".splitlines()

_TYPES = {"P": P, "F": F, "G": G, "J": J, "C": C, "DROP": DROP}


def items() -> list[tuple[str, str]]:
    """(text, type or ``drop``) of every item written here."""
    out = []
    for line in _ITEMS:
        kind, text = line.split("|", 1)
        out.append((text, _TYPES[kind]))
    return out


def check(paths: list[Path]) -> list[str]:
    """Rows whose flattened text (8+ characters) occurs inside a case file's flattened text (copies)."""
    return copies((text for text, _ in items()), paths, min_chars=8)


def main(argv: list[str] | None = None) -> int:
    return check_command(argv, __doc__.splitlines()[0], check)


if __name__ == "__main__":
    sys.exit(main())
