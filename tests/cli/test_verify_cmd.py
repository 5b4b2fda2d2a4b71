"""``pai-memory verify`` end to end: report, exit code, ``--repair --wait`` with relay + indexer running."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

import pytest
from sqlalchemy import Engine, select, update
from sqlalchemy.orm import Session

from cli.main import main as cli_main
from consumers.processes import build_tools
from core.config import Settings
from core.memory.tools import ToolWrite
from core.storage.models import LongTermMemory
from tests.support.ops import drop_collections, export_settings, index_pipeline, wait_settled
from tests.support.pipeline import isolated_settings

pytestmark = pytest.mark.services


@pytest.fixture
def cfg(settings: Settings, clean_db: Engine, unique_name: Callable[[str], str],
        monkeypatch: pytest.MonkeyPatch) -> Iterator[Settings]:
    isolated = isolated_settings(settings, unique_name, MEMORY_MILVUS_COLLECTION=unique_name("t_vcli"),
                                 MEMORY_INDEX_WORKER_ENABLED=True, MEMORY_MILVUS_ENABLED=True)
    export_settings(isolated, monkeypatch)
    try:
        yield isolated
    finally:
        drop_collections(isolated, clean_db)


def last_json(out: str) -> dict:  # type: ignore[type-arg]
    return json.loads(out.strip().splitlines()[-1])


def test_verify_reports_drift_and_repair_fixes_it(cfg: Settings, clean_db: Engine,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    tools = build_tools(cfg)
    for key, content in [("city", "Lives in Hangzhou"), ("tea", "Drinks green tea every morning")]:
        tools.memory_save(ToolWrite("vcli-u", key, content))
    with index_pipeline(cfg):
        wait_settled(clean_db)
    assert cli_main(["verify"]) == 0
    assert "OK: no drift" in capsys.readouterr().out

    with Session(clean_db) as s, s.begin():
        tea = s.scalar(select(LongTermMemory.id).where(LongTermMemory.memory_key == "tea"))
        s.execute(update(LongTermMemory).where(LongTermMemory.id == tea).values(content="Drinks jasmine tea"))
    assert cli_main(["verify", "--json", "--user", "vcli-u"]) == 1
    report = last_json(capsys.readouterr().out)["report"]
    assert report["counts"] == {"unsynced": 0, "orphaned": 0, "missing": 0, "stale": 1}
    assert report["samples"]["stale"] == [tea]

    with index_pipeline(cfg):
        assert cli_main(["verify", "--repair", "--wait", "60", "--json"]) == 0
    out = last_json(capsys.readouterr().out)
    assert out["repair"]["enqueued"] == {"overwrite": 1} and out["caught_up"] is True
    assert out["after"]["drift"] == 0 and out["after"]["indexable"] == 2

    # the readiness condition after a bulk load or a reindex: served from sealed, indexed segments
    assert cli_main(["verify", "--served", "--wait", "30", "--json"]) == 0
    served = last_json(capsys.readouterr().out)
    assert served["ready"] is True
    state = served["served"][cfg.MEMORY_MILVUS_COLLECTION]
    assert state["ready"] and state["total_rows"] == state["indexed_rows"] == 2

    assert cli_main(["verify", "--user", "nobody"]) == 2
    assert "no user" in capsys.readouterr().err
