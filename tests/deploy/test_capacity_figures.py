"""deploy/k8s follows the capacity model: the figures ``bench/capacity_model.py`` computes for the 100
messages/s row from the measured unit costs (``bench/results/unit_costs.json``) are the ones the manifests
set (partitions, KEDA ceilings and lag thresholds, the API's HorizontalPodAutoscaler, CPU requests), so the
manifests cannot drift from the model (docs/capacity.md "The deployment uses these figures"). Refresh the
unit costs and this test names every manifest figure to change. No cluster needed.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
import yaml

from bench import capacity_model as model
from core.config import Settings, load_settings

ROOT = Path(__file__).resolve().parents[2]
K8S = ROOT / "deploy" / "k8s"
COMPOSE = ROOT / "docker-compose.yml"


def _docs() -> list[dict[str, Any]]:
    return [d for path in sorted(K8S.glob("*.yaml"))
            for d in yaml.safe_load_all(path.read_text(encoding="utf-8")) if d is not None]


def _by(docs: list[dict[str, Any]], kind: str) -> dict[str, dict[str, Any]]:
    return {d["metadata"]["labels"]["app.kubernetes.io/component"]: d for d in docs
            if d["kind"] == kind and "app.kubernetes.io/component" in d["metadata"]["labels"]}


def _millicores(value: str) -> int:
    return int(value[:-1]) if value.endswith("m") else round(float(value) * 1000)


def _mebibytes(value: str) -> float:
    units = {"Mi": 1.0, "Gi": 1024.0}
    assert value[-2:] in units, value
    return float(value[:-2]) * units[value[-2:]]


@pytest.fixture(scope="module")
def docs() -> list[dict[str, Any]]:
    return _docs()


@pytest.fixture(scope="module")
def config(docs: list[dict[str, Any]]) -> Settings:
    """The settings every process runs with: the ConfigMap over the defaults."""
    (configmap,) = [d for d in docs if d["kind"] == "ConfigMap"]
    return load_settings(_env_file=None, **configmap["data"])


@pytest.fixture(scope="module")
def figures(config: Settings) -> dict[str, Any]:
    computed = model.deployment(model.load(), debounce_sec=config.LONG_TERM_MEMORY_DEBOUNCE_SEC,
                                index_flush_wait_sec=config.MEMORY_INDEX_FLUSH_WAIT_SEC,
                                index_batch_size=config.MEMORY_INDEX_WORKER_BATCH_SIZE)
    assert model.deploy_figures(model.load()) == computed  # what `capacity_model --deploy` prints
    return computed


def test_the_model_reads_the_committed_unit_costs_and_the_row_it_sizes(figures: dict[str, Any]) -> None:
    assert model.UNIT_COSTS == ROOT / "bench" / "results" / "unit_costs.json" and model.UNIT_COSTS.is_file()
    row = next(r for r in model.rate_rows(model.load()) if r["rate"] == model.DEPLOY_RATE)
    assert figures["partitions"] == row["partitions"]
    assert figures["extractor"]["needed"] == row["extractors"]
    assert figures["indexer"]["needed"] == row["indexers"]
    assert figures["api"]["needed"] == row["api"]
    # the lag threshold is Little's law at one process's full rate: KEDA's target is the model's count
    for group in ("extractor", "indexer"):
        f = figures[group]
        rate_per_message = 1.0 if group == "extractor" else (
            model.MEMORY_WRITES_PER_MESSAGE + model.TOOL_WRITES_PER_MESSAGE + model.EPISODES_PER_MESSAGE)
        steady_lag = model.DEPLOY_RATE * rate_per_message * f["hold_sec"]
        keda_target = math.ceil(steady_lag / f["lag_threshold"])
        assert f["needed"] - 1 <= keda_target <= f["needed"], group  # the threshold is rounded up


def test_partitions_follow_the_model(docs: list[dict[str, Any]], config: Settings,
                                     figures: dict[str, Any]) -> None:
    assert figures["partitions"] == config.KAFKA_TOPIC_PARTITIONS
    # the init Job creates the topics from that setting (`pai-memory stack up`: KAFKA_TOPIC_PARTITIONS each)
    (job,) = [d for d in docs if d["kind"] == "Job"]
    (container,) = job["spec"]["template"]["spec"]["containers"]
    assert "pai-memory stack up" in container["command"][2]
    assert container["envFrom"] == [{"configMapRef": {"name": "pai-memory-config"}}]
    from localstack.topics import service_topics

    assert set(service_topics(config).values()) == {figures["partitions"]}


def test_keda_ceilings_and_lag_thresholds_follow_the_model(docs: list[dict[str, Any]], config: Settings,
                                                           figures: dict[str, Any]) -> None:
    # an extractor holds its threshold's records without pausing its partitions (backpressure at the
    # buffer's limit, resumed at half of it), and commits them well inside the sweeper's re-drive grace
    assert figures["extractor"]["lag_threshold"] < config.CONSUMER_EXTRACTOR_MAX_BUFFERED_RECORDS / 2
    from core.memory.redrive import message_redrive_grace

    assert figures["extractor"]["hold_sec"] < message_redrive_grace(config)
    scaled = _by(docs, "ScaledObject")
    assert set(scaled) == {"extractor", "indexer"}
    for group, obj in scaled.items():
        spec, f = obj["spec"], figures[group]
        assert spec["maxReplicaCount"] == f["max"], f"{group}: maxReplicaCount should be {f['max']}"
        assert f["needed"] <= spec["maxReplicaCount"] <= figures["partitions"], group
        (trigger,) = spec["triggers"]
        assert trigger["metadata"]["lagThreshold"] == str(f["lag_threshold"]), (
            f"{group}: lagThreshold should be {f['lag_threshold']} ({f['per_process_rate']:.1f}/s x "
            f"{f['hold_sec']:.2f} s)")


def test_the_api_scales_on_cpu_within_the_models_bounds(docs: list[dict[str, Any]],
                                                        figures: dict[str, Any]) -> None:
    deployment = _by(docs, "Deployment")["api"]
    assert "replicas" not in deployment["spec"], "the HorizontalPodAutoscaler owns the API's count"
    (hpa,) = [d for d in docs if d["kind"] == "HorizontalPodAutoscaler"]
    assert hpa["apiVersion"] == "autoscaling/v2"
    spec, f = hpa["spec"], figures["api"]
    target = spec["scaleTargetRef"]
    assert (target["apiVersion"], target["kind"], target["name"]) == (
        deployment["apiVersion"], deployment["kind"], deployment["metadata"]["name"])
    assert (spec["minReplicas"], spec["maxReplicas"]) == (f["min"], f["max"])
    assert f["min"] <= f["needed"] <= f["max"]
    (metric,) = spec["metrics"]
    assert metric["type"] == "Resource" and metric["resource"]["name"] == "cpu"
    assert metric["resource"]["target"] == {"type": "Utilization",
                                            "averageUtilization": f["cpu_target_percent"]}
    # the PodDisruptionBudget leaves at least one pod up at the HPA's floor
    pdb = _by(docs, "PodDisruptionBudget")["api"]
    assert pdb["spec"]["minAvailable"] < spec["minReplicas"]


def test_cpu_requests_follow_the_unit_costs(docs: list[dict[str, Any]], figures: dict[str, Any]) -> None:
    deployments = _by(docs, "Deployment")
    for process in ("extractor", "indexer", "api", "relay"):
        (container,) = deployments[process]["spec"]["template"]["spec"]["containers"]
        resources = container["resources"]
        assert _millicores(resources["requests"]["cpu"]) == figures[process]["cpu_m"], process
        # no CPU limit: a throttled consumer lags and a throttled API answers late; the autoscalers
        # work from the requests. Memory has both (not in the unit costs: the soak's RSS, with headroom)
        assert "cpu" not in resources.get("limits", {}), process
        assert 0 < _mebibytes(resources["requests"]["memory"]) <= _mebibytes(resources["limits"]["memory"])
    assert deployments["relay"]["spec"]["replicas"] == figures["relay"]["replicas"]


def test_single_machine_stacks_keep_the_default_partitions() -> None:
    """docker-compose (one host) keeps the product's default, which the model's floor is: the cluster's
    16 is the ConfigMap's alone (docs/capacity.md)."""
    default = Settings.model_fields["KAFKA_TOPIC_PARTITIONS"].default
    assert default == model.MIN_PARTITIONS
    compose = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    assert compose["x-pai-env"]["KAFKA_TOPIC_PARTITIONS"] == str(default)
