"""Places in user text for the rules extractor: the gazetteer scan (``places_in``), validation of a
Chinese place name and canonical English place names (capitalised or from the gazetteer)."""

from __future__ import annotations

from core.extraction.rules import lexicon, patterns
from core.extraction.rules.segment import normalise
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re

PLACE_EN_CANON = {p.lower(): p for p in lexicon.PLACES_EN}
_PLACE_ZH_SET = set(lexicon.PLACES_ZH)
# not inside a word
_PLACE_EN_SCAN = re.compile(rf"(?:^|[^a-z])(?P<core>{patterns.PLACE_EN_ALT})(?:[^a-z]|$)")
_PLACE_ZH_SCAN = re.compile(patterns.PLACE_ZH_ALT)
# English place patterns run on case-preserving text (capitalised names are places)
LOC_EN_I = [re.compile(rx.pattern, re.IGNORECASE) for rx in patterns.LOC_EN]
HOMETOWN_EN_I = [re.compile(rx.pattern, re.IGNORECASE) for rx in patterns.HOMETOWN_EN]
_AMBIGUOUS_PLACES = {"la", "dc", "rio", "uk"}
DEICTIC_PLACES = set(lexicon.PLACE_DEICTIC_ZH) | set(lexicon.PLACE_DEICTIC_EN)


def places_in(text: str) -> list[str]:
    """Gazetteer places named in ``text``, in order (English ones in their canonical spelling)."""
    norm = normalise(text)
    found = [m.group(0) for m in _PLACE_ZH_SCAN.finditer(norm)]
    scanned = [norm[b:e] for b, e in re.finditer_core(_PLACE_EN_SCAN, norm)]
    found += [PLACE_EN_CANON.get(p, p) for p in scanned if p not in _AMBIGUOUS_PLACES]
    return found


def valid_place_zh(place: str) -> bool:
    """``place`` is a Chinese place name: in the gazetteer or of a generic form (…市, …省, …县)."""
    return place in _PLACE_ZH_SET or bool(re.fullmatch(patterns.PLACE_ZH_GENERIC, place))


def canon_place_en(raw: str) -> str | None:
    """A gazetteer or capitalised place name from ``raw`` (original case), else None."""
    text = raw.strip(" .,'-")
    low = text.lower()
    m = re.match(rf"(?P<p>{patterns.PLACE_EN_ALT})(?:[^a-z]|$)", low)
    if m:
        return PLACE_EN_CANON.get(m.group("p"), text[: m.end("p")])
    words = text.split()
    caps: list[str] = []
    for word in words[:3]:
        if word[:1].isupper() and word.isalpha():
            caps.append(word)
        else:
            break
    if caps and caps[0].lower() not in {"the", "a", "an", "my", "our", "i"}:
        return " ".join(caps)
    return None


# "living in leicester" typed in lower case: a town the gazetteer does not know, said after "live/living/
# based in" and alone in its clause (one or two words, nothing after them); not one of the words people
# "live in" that are no place
_LOWER_PLACE = re.compile(r"^(?:(?:and|also|currently|now|i|i'm|im|we|we're)\s+)*(?:live|living|based|"
                          r"residing)\s+(?:in|out of)\s+(?P<p>[a-z][a-z'-]{3,19}(?: [a-z][a-z'-]{2,14})?)"
                          r"(?:\s+(?:now|atm|rn|these days))?[.!]*$")
_NOT_PLACES = frozenset({
    "fear", "denial", "hope", "peace", "harmony", "sin", "squalor", "poverty", "luxury", "comfort",
    "chaos", "style", "hiding", "limbo", "hell", "heaven", "paradise", "pain", "misery", "constant",
    "bliss", "dread", "terror", "shame", "secret", "silence", "isolation", "sweatpants", "pyjamas",
    "pajamas", "hoodies", "shorts", "jeans", "town", "city", "country", "suburbs", "village",
    "countryside", "flat", "apartment", "dorm", "dorms", "house", "home", "studio", "basement", "attic",
    "van", "tent", "caravan", "trailer", "shared", "halls",
})


def lowercase_place_en(clause_nf: str) -> str | None:
    """The place of a lower-case "living in leicester" clause (title-cased), else None."""
    m = _LOWER_PLACE.search(clause_nf.strip())
    if not m or m.group("p") != m.group("p").lower():
        return None
    words = m.group("p").split()
    if any(w in _NOT_PLACES for w in words) or words[0] in {"the", "a", "an", "my", "our", "his", "her"}:
        return None
    return " ".join(w.capitalize() for w in words)
