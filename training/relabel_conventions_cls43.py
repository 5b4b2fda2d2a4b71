"""Relabel the memory corpus's rows by the writers' type conventions (issue 24, session 24, helper cls43).

Session 23 (helper type42, ``bench/RESULTS.md``) counted the case writers of the independent readable sets
and moved the product's types to what they agree on: a diet the user chose is a taste
(``preference-diet``), the phone or computer the user has is a fact (``fact-devices``), an instrument the
user plays or learns with no intent and no date is a taste (``preference-music``), work told as what one
does is a fact. The rules' slots say so; the memory classifier's rows
(``training/data/memory_utterances/utterances.jsonl``) still said otherwise in places (the hand rows "I'm
vegetarian, no meat or fish" and "我是素食者" as facts, the weak Persona-Chat rows "I play the violin and the
guitar." as facts), so the type head, which the gate, the rescue and the update judge read, taught the old
convention.

This script changes only the ``type`` of kept rows that match one of the rules below (a row's text, its
keep flag and every other field stay); it is idempotent, and ``--dry-run`` prints what it would change:

- ``diet``: a first-person statement naming a chosen diet (``patterns.DIET_CHOSEN``), with no reason of
  faith or health (``patterns.DIET_GROUNDED``), not about someone else (``THIRD``), not a job ("vegetarian
  chef") nor a rule for the assistant, typed ``fact`` -> ``preference``;
- ``instrument``: a first-person "I play / I like to play / 我会弹 / 在学" naming an instrument, with no
  intent, no date or level, no job or teaching word and no past or starting-age story ("since I was
  three", "used to"), not about someone else, typed ``fact`` -> ``preference``;
- ``device``: a first-person switch to or use of a named phone, computer, tablet or reader (``DEVICE``)
  with no word of taste ("prefer", "over", "偏好", "喜欢") typed ``preference`` -> ``fact``;

A row that also tells a fact of another kind ("I'm married and I'm a vegetarian", "I work as a custodian …
but I also play the piano": ``OTHER_FACT``) keeps its label. Work told as what one does needs no relabel:
no row of the corpus types a job as a project (every ``project`` row naming "我在 … 做" makes a thing:
数据看板, 自动喂食器); the family is thin in chat words instead, which ``utterance_rows_conv43.py`` adds to.

    .venv/bin/python -m training.relabel_conventions_cls43 [--dry-run] [--corpus PATH]

then retrain (``training/README.md``: ``train_memory_classifier`` then ``train_memory_mlp``).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from core.extraction.rules import patterns
from training.train_memory_classifier import CORPUS

FIRST_EN = re.compile(r"(?:^|[,;.!?]\s*|\band\s+|\bbut\s+|\bso\s+)(?:i|i'm|i am|i've|i have|i'd|me)\b", re.I)
FIRST_ZH = re.compile(r"我(?!们家的|儿子|女儿|老公|老婆|妈|爸|哥|姐|弟|妹|室友|同事|朋友)")
THIRD = re.compile(r"\bmy (?:\w+ )?(?:mom|mother|dad|father|parents?|sister|brother|son|daughter|husband|"
                   r"wife|boss|friend|best friend|roommate|coworker|girlfriend|boyfriend|partner|kids?|"
                   r"family)\b|"
                   r"\bmeet|\bmet\b|another vegan|"
                   r"我(?:的)?(?:儿子|女儿|老公|老婆|妈妈?|爸爸?|室友|同事|朋友|家人)", re.I)
RULE = re.compile(r"\b(?:when|whenever|only|please|suggest|recommend|remind|don't give|avoid)\b|"
                  r"推荐|提醒|别给|只给", re.I)
# faith words ``patterns.DIET_GROUNDED`` lacks ("我是佛教徒，初一十五吃素": a diet of faith, a fact)
FAITH = re.compile(r"\b(?:buddhist|hindu|muslim|jewish|jain)\b|佛教|印度教|穆斯林|回民", re.I)
DIET_JOB = re.compile(r"\b(?:chef|cook|dancer|blogger|restaurant)\b|厨师|餐厅", re.I)
INSTRUMENT_ZH = ("吉他|钢琴|小提琴|中提琴|大提琴|尤克里里|架子鼓|爵士鼓|萨克斯|长笛|笛子|单簧管|"
                 "小号|长号|竖琴|二胡|古筝|琵琶|扬琴|口琴|手风琴|电子琴|贝斯")
INSTRUMENT = re.compile(
    r"\b(?:guitar|piano|violin|viola|cello|ukulele|uke|drums?|bass guitar|saxophone|sax|flute|clarinet|"
    r"trumpet|trombone|bassoon|oboe|harp|banjo|mandolin|accordion|harmonica|instruments?)\b|" + INSTRUMENT_ZH,
    re.I)
PLAYS = re.compile(r"\bi (?:\w+ )?(?:play|playing|learn|learning)\b|"
                   r"\bi (?:\w+ )?(?:like|love|enjoy) (?:to )?play|"
                   r"(?:弹|拉|打|吹|学)(?:一点|点)?(?:" + INSTRUMENT_ZH + ")", re.I)
INSTRUMENT_NOT = re.compile(
    r"\b(?:teach|teacher|teaching|lessons?|tuner|tune|musician|professional(?:ly)?|perform|performing|band|"
    r"since|started|used to|when i was|years? old|grew up|want|wanna|plan|hope|dream|goal|going to|gonna|"
    r"will|would|trying to|someday|this year|next year|by)\b|"
    r"老师|教|调律|乐手|演出|比赛|考级|\d级|[一二三四五六七八九十]级|"
    r"想|要|打算|计划|希望|梦想|目标|准备|今年|明年|年底|小时候|以前",
    re.I)
DEVICE = re.compile(r"\b(?:iphone|pixel|galaxy|macbook|thinkpad|ipad|kindle|chromebook|oneplus|"
                    r"android phone)\b|"
                    r"华为|小米\s*\d|苹果手机|荣耀\s*\d|vivo|oppo|安卓手机", re.I)
DEVICE_USE = re.compile(r"\b(?:switched|switch|moved|use|using|daily drive|got|have|on)\b|用|换", re.I)
TASTE = re.compile(r"\b(?:prefer|over|favou?rite|love|like)\b|偏好|喜欢|偏爱|离不开|选", re.I)
OTHER_FACT = re.compile(r"\b(?:married|work|works|job|single|divorced|retired)\b|结婚|工作|上班", re.I)


def first_person(text: str) -> bool:
    return bool(FIRST_EN.search(text) or FIRST_ZH.search(text))


def rule_of(row: dict[str, Any]) -> str | None:
    """Which convention relabels this row (None: it stays as labelled)."""
    if not row.get("keep"):
        return None
    text, kind = row["text"], row.get("type")
    low = text.lower()
    if THIRD.search(text) or OTHER_FACT.search(text) or not first_person(text):
        return None
    if kind == "fact" and patterns.DIET_CHOSEN.search(low) and not patterns.DIET_GROUNDED.search(low) \
            and not FAITH.search(text) \
            and not DIET_JOB.search(text) and not RULE.search(text):
        return "diet"
    if kind == "fact" and INSTRUMENT.search(text) and PLAYS.search(text) and not INSTRUMENT_NOT.search(text):
        return "instrument"
    if kind == "preference" and DEVICE.search(text) and DEVICE_USE.search(text) and not TASTE.search(text):
        return "device"
    return None


NEW_TYPE = {"diet": "preference", "instrument": "preference", "device": "fact"}


def relabel(rows: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """Change the rows in place; the (rule, row) pairs changed."""
    changed = []
    for row in rows:
        rule = rule_of(row)
        if rule is not None and row["type"] != NEW_TYPE[rule]:
            row["type"] = NEW_TYPE[rule]
            changed.append((rule, row))
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args(argv)
    lines = [line for line in args.corpus.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows = [json.loads(line) for line in lines]
    changed = relabel(rows)
    for rule, row in changed:
        print(f"{rule:10s} {row['id']} {row['source']:18s} -> {row['type']:10s} {row['text']}")
    print(f"{len(changed)} rows relabelled: {dict(Counter(rule for rule, _ in changed))}")
    if not args.dry_run:
        text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
        args.corpus.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
