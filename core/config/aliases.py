"""Renamed variables: each old name stays accepted from the environment (and ``.env``, and as a keyword
of ``load_settings``) as a deprecated alias of its new name, and using it logs one warning naming the new
variable. The new name wins when both are set. The rule the new names follow is in ``core.config``."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable
from pathlib import Path

from dotenv import dotenv_values
from pydantic import AliasChoices

log = logging.getLogger("core.config")

# old name -> new name (issue 29: names aligned to one prefix per component and `_SEC` for seconds)
RENAMED: dict[str, str] = {
    "EXTRACTOR_MAX_IN_FLIGHT": "CONSUMER_EXTRACTOR_MAX_IN_FLIGHT",
    "EXTRACTOR_MAX_BUFFERED_RECORDS": "CONSUMER_EXTRACTOR_MAX_BUFFERED_RECORDS",
    "COMMANDS_MAX_BATCH": "CONSUMER_COMMANDS_MAX_BATCH",
    "MILVUS_TOKEN": "MEMORY_MILVUS_TOKEN",
    "MILVUS_TIMEOUT_SEC": "MEMORY_MILVUS_TIMEOUT_SEC",
    "EXTRACTION_BURST_BUDGET_SEC": "MEMORY_EXTRACTOR_BURST_BUDGET_SEC",
    "MEMORY_RULES_CLASSIFIER": "MEMORY_EXTRACTOR_RULES_CLASSIFIER",
    "INDEXER_MAX_IN_FLIGHT_BATCHES": "MEMORY_INDEX_MAX_IN_FLIGHT_BATCHES",
    "API_INGEST_TIMEOUT_SECONDS": "API_INGEST_TIMEOUT_SEC",
    "API_JOBS_POLL_SECONDS": "API_JOBS_POLL_SEC",
    "API_JOBS_LEASE_SECONDS": "API_JOBS_LEASE_SEC",
    "TRUSTED_PROXIES": "CONSOLE_TRUSTED_PROXIES",
}


def old_names_of(new: str) -> list[str]:
    return [old for old, renamed in RENAMED.items() if renamed == new]


def accepts_old_name(new: str) -> AliasChoices:
    """The ``validation_alias`` of a renamed field: its new name first, then its old names."""
    olds = old_names_of(new)
    if not olds:
        raise KeyError(f"{new} has no old name in RENAMED")
    return AliasChoices(new, *olds)


def warn_old_names(given: Iterable[str], env_file: str | Path | None) -> list[str]:
    """Log one deprecation warning per old name set in ``given`` (keyword arguments), the environment or
    ``env_file``; return those old names (sorted)."""
    names = {name.upper() for name in given} | {name.upper() for name in os.environ}
    if env_file is not None and Path(env_file).is_file():
        names |= {name.upper() for name in dotenv_values(env_file)}
    used = sorted(old for old in RENAMED if old in names)
    for old in used:
        log.warning("%s is deprecated and will be removed: set %s instead (the old name is still read; "
                    "the new one wins when both are set)", old, RENAMED[old])
    return used
