"""The process wiring passes the dead-letter limit and the poll interval from the settings (no network:
nothing connects before ``ConsumerLoop.run``)."""

from __future__ import annotations

from consumers.commands import CommandStrategy
from consumers.extractor import ExtractorStrategy, max_poll_interval_ms
from consumers.processes import commands_loop, dead_letter_publisher, extractor_loop
from consumers.steps.dlq_limit import DlqLimit
from core.config import Settings
from tests.consumers.test_extractor_steps import BlockingProcessor


def test_the_groups_take_their_dead_letter_limit_and_poll_interval_from_the_settings() -> None:
    cfg = Settings(_env_file=None, CONSUMER_DLQ_LIMIT_SHARE=0.8, CONSUMER_DLQ_LIMIT_WINDOW=50,  # type: ignore[call-arg]
                   CONSUMER_DLQ_LIMIT_MIN_RECORDS=20, CONSUMER_DLQ_LIMIT_CONSECUTIVE=7,
                   CONSUMER_REVOKE_TIMEOUT_SEC=500)
    commands = commands_loop(cfg)
    assert isinstance(commands.strategy, CommandStrategy)
    limit = commands.strategy.dead_letters.limit.limit
    assert limit == DlqLimit(0.8, 50, 20, 7) == DlqLimit.from_settings(cfg)
    strategy = ExtractorStrategy(BlockingProcessor(), dead_letter_publisher(cfg, cfg.GROUP_EXTRACTOR),  # type: ignore[arg-type]
                                 debounce_sec=0.0)
    loop = extractor_loop(cfg, strategy=strategy)
    assert loop._config()["max.poll.interval.ms"] == max_poll_interval_ms(500, 30) == 590_000
    strategy.close()
