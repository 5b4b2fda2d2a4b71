"""One memory, one thing in a message that tells several (issue 24, session 21): a rule's item of a list-style
introduction is read like the list's other items. Lines written for this test (none from an evaluation set),
through ``RulesExtractor``'s public interface."""

from __future__ import annotations

from core.extraction.candidates import ExtractionInput
from core.extraction.rules import RulesExtractor


def test_a_rule_item_of_a_list_is_read_like_the_lists_other_items(ex: RulesExtractor) -> None:
    # a diet said as one item among a job, a city and a pet: kept, as the other items are
    out = ex.extract(ExtractionInput("about me: bus driver, 51. leeds. two grandkids. Nut-free (allergy). "
                                     "learning welsh"))
    assert any("Nut-free" in c.content for c in out if c.memory_type.value == "fact")

