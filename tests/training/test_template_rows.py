from __future__ import annotations

from training.template_rows import family_rows, fill

SLOTS = {"food": ["rice", "noodles", "bread"], "city": ["Oslo", "Lima"]}
FAMILIES = [("taste", True, "preference", ["I love {food}", "I love {food} in {city}", "no slots here"]),
            ("chat", False, None, ["ok {food}"])]


def test_fill_steps_each_slot_by_its_own_stride() -> None:
    assert fill("I love {food} in {city}", SLOTS, (1, 3), 0, 0) == "I love rice in Oslo"
    # slots in name order: city strides 1, food strides 3
    assert fill("I love {food} in {city}", SLOTS, (1, 3), 1, 0) == "I love rice in Lima"
    assert fill("I love {food} in {city}", SLOTS, (1, 3), 1, 1) == "I love noodles in Oslo"


def test_rows_are_distinct_ordered_and_labelled() -> None:
    rows = family_rows(FAMILIES, SLOTS, (1, 3), 4, "template_test")
    texts = [r["text"] for r in rows]
    assert len(texts) == len(set(texts))
    assert texts.count("no slots here") == 1
    assert rows == family_rows(FAMILIES, SLOTS, (1, 3), 4, "template_test")  # deterministic
    assert {(r["family"], r["keep"], r["type"], r["source"]) for r in rows} == {
        ("taste", True, "preference", "template_test"), ("chat", False, None, "template_test")}


def test_skip_and_typed() -> None:
    rows = family_rows(FAMILIES, SLOTS, (1,), 2, "s", skip={"chat"},
                       typed=lambda text, keep, kind: "fact" if "Oslo" in text else kind)
    assert {r["family"] for r in rows} == {"taste"}
    assert all(r["type"] == ("fact" if "Oslo" in r["text"] else "preference") for r in rows)
