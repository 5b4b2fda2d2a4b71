"""The one pipeline harness without services: what it derives from its environment, and that closing a
pipeline that started nothing touches nothing. (The fault suite and the benchmarks run it for real.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.common import BENCH_METRICS_BASE
from bench.stack import BenchMetricsPorts
from harness.pipeline import Pipeline


def _env(home: Path) -> dict[str, str]:
    return {"DATABASE_URL": "postgresql+psycopg://u:p@127.0.0.1:9/pai_harness_x",
            "KAFKA_BOOTSTRAP_SERVERS": "127.0.0.1:9", "MEMORY_MILVUS_URI": "http://127.0.0.1:9",
            "PAI_MEMORY_HOME": str(home), "KAFKA_TOPIC_PARTITIONS": "4", "API_PORT": "9"}


def test_a_pipeline_reads_its_names_from_its_environment(tmp_path: Path) -> None:
    pipe = Pipeline(_env(tmp_path), "t", users=3)
    assert pipe.database_name == "pai_harness_x" and pipe.partitions == 4
    assert pipe.users == ["t-u0", "t-u1", "t-u2"] and pipe.api_url == "http://127.0.0.1:9"
    assert pipe.metrics_ports == {} and pipe.crashed() == []
    with pytest.raises(RuntimeError, match="PrivateStack"):
        _ = pipe.stack
    pipe.close()  # started nothing, made no client: nothing to reach


def test_bench_metrics_ports_count_up_from_the_base() -> None:
    ports = BenchMetricsPorts()
    first, second = ports("extractor", 0), ports("extractor", 1)
    assert BENCH_METRICS_BASE <= first < second
