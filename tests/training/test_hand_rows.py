"""``training.hand_rows``: the flattening and the copy check every hand-written rows module shares."""

from __future__ import annotations

from pathlib import Path

from training.hand_rows import copies, flat


def test_flat_drops_case_width_and_punctuation() -> None:
    assert flat("ＡＢＣ, d_e！ 你好。") == "abcde你好"


def test_copies_are_found_inside_a_case_file_above_the_length_floor(tmp_path: Path) -> None:
    case = tmp_path / "cases.jsonl"
    case.write_text('{"content": "I am a night-shift nurse in Leeds!"}\n', encoding="utf-8")
    texts = ["night shift nurse", "nurse", "a welder in Oslo"]
    assert copies(texts, [case]) == ["night shift nurse", "nurse"]
    assert copies(texts, [case], min_chars=8) == ["night shift nurse"]
