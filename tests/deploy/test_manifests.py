"""deploy/k8s is checked against the code: kinds and Kubernetes schemas, environment variable names
(core.config.Settings fields), process commands (``pai-memory run <process>``), metrics ports and
probes, and the KEDA ScaledObjects (topics, groups, replica ceiling <= partitions). No cluster needed.
The capacity figures (partitions, ceilings, lag thresholds, the API's autoscaler, CPU requests) are
``test_capacity_figures.py``'s.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml
from pydantic import SecretStr

from core.config import Settings, load_settings

ROOT = Path(__file__).resolve().parents[2]
K8S = ROOT / "deploy" / "k8s"
NAMESPACE = "pai-memory"
K8S_VERSION = "1.30.0"  # schemas checked against this Kubernetes release (kubernetes-validate)
# `pai-memory run` processes; relay/indexer/api are accepted while their helpers land them
PROCESS_NAMES = {"extractor", "commands", "relay", "indexer", "api"}
STANDARD_ENV = {"PYTHONUNBUFFERED"}  # read by Python itself, not by Settings
CORE_KINDS = {"Namespace", "ConfigMap", "Secret", "Deployment", "Service", "PodDisruptionBudget", "Job",
              "HorizontalPodAutoscaler"}
CRD_KINDS = {"ScaledObject", "TriggerAuthentication"}
SCALED = {"extractor": ("TOPIC_CHAT_MESSAGES", "GROUP_EXTRACTOR"),
          "indexer": ("TOPIC_MEMORY_DIRTY", "GROUP_INDEXER")}
LOOP_JOIN_TIMEOUT_SEC = Settings.model_fields["CONSUMER_SHUTDOWN_TIMEOUT_SEC"].default  # the drain on SIGTERM
PLACEHOLDER = "CHANGE_ME"


def _load() -> list[tuple[str, dict[str, Any]]]:
    docs: list[tuple[str, dict[str, Any]]] = []
    for path in sorted(K8S.glob("*.yaml")):
        for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")):
            if doc is not None:
                docs.append((path.name, doc))
    return docs


@pytest.fixture(scope="module")
def docs() -> list[tuple[str, dict[str, Any]]]:
    loaded = _load()
    assert loaded, "no manifests under deploy/k8s"
    return loaded


def _of(docs: list[tuple[str, dict[str, Any]]], kind: str) -> list[dict[str, Any]]:
    return [d for _, d in docs if d["kind"] == kind]


def _one(docs: list[tuple[str, dict[str, Any]]], kind: str) -> dict[str, Any]:
    found = _of(docs, kind)
    assert len(found) == 1, f"expected one {kind}, found {len(found)}"
    return found[0]


def _component(obj: dict[str, Any]) -> str:
    return str(obj["metadata"]["labels"]["app.kubernetes.io/component"])


def _deployments(docs: list[tuple[str, dict[str, Any]]]) -> dict[str, dict[str, Any]]:
    return {_component(d): d for d in _of(docs, "Deployment")}


def _pod_specs(docs: list[tuple[str, dict[str, Any]]]) -> list[tuple[str, dict[str, Any]]]:
    return [(d["metadata"]["name"], d["spec"]["template"]["spec"]) for d in
            _of(docs, "Deployment") + _of(docs, "Job")]


def _literal_env(container: dict[str, Any]) -> dict[str, str]:
    return {e["name"]: e["value"] for e in container.get("env", []) if "value" in e}


def _secret_fields() -> set[str]:
    return {name for name, f in Settings.model_fields.items()
            if f.annotation in (SecretStr, SecretStr | None)}


# --- shape ----------------------------------------------------------------------------------------
def test_kinds_and_namespace(docs: list[tuple[str, dict[str, Any]]]) -> None:
    kinds = {d["kind"] for _, d in docs}
    assert kinds - {"Kustomization"} <= CORE_KINDS | CRD_KINDS
    assert {"Namespace", "ConfigMap", "Secret", "Deployment", "Service", "ScaledObject"} <= kinds
    for name, d in docs:
        if d["kind"] in ("Kustomization", "Namespace"):
            continue
        assert d["metadata"]["namespace"] == NAMESPACE, f"{name}: {d['kind']} {d['metadata']['name']}"
        assert d["metadata"]["labels"]["app.kubernetes.io/name"] == "pai-memory"
    assert _one(docs, "Namespace")["metadata"]["name"] == NAMESPACE


def test_core_objects_match_the_kubernetes_schemas(docs: list[tuple[str, dict[str, Any]]]) -> None:
    checked = 0
    for name, d in docs:
        if d["kind"] in CORE_KINDS:
            try:
                kubernetes_validate.validate(d, K8S_VERSION, strict=True)
            except kubernetes_validate.ValidationError as exc:
                pytest.fail(f"{name}: {d['kind']} {d['metadata']['name']}: {exc}")
            checked += 1
    assert checked >= 10


def test_schema_check_catches_a_typo(docs: list[tuple[str, dict[str, Any]]]) -> None:
    deployment = yaml.safe_load(yaml.safe_dump(_of(docs, "Deployment")[0]))
    deployment["spec"]["template"]["spec"]["containers"][0]["comand"] = ["pai-memory"]
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(deployment, K8S_VERSION, strict=True)


def test_kustomization_lists_every_manifest(docs: list[tuple[str, dict[str, Any]]]) -> None:
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text(encoding="utf-8"))
    files = {p.name for p in K8S.glob("*.yaml")} - {"kustomization.yaml"}
    assert set(kustomization["resources"]) == files
    assert kustomization["namespace"] == NAMESPACE
    images = {i["name"] for i in kustomization.get("images", [])}
    for _, spec in _pod_specs(docs):
        for container in spec["containers"]:
            assert container["image"].split(":")[0] in images, container["image"]


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl not installed")
def test_kustomize_renders(docs: list[tuple[str, dict[str, Any]]]) -> None:  # pragma: no cover
    out = subprocess.run(["kubectl", "kustomize", str(K8S)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    rendered = [d for d in yaml.safe_load_all(out.stdout) if d]
    assert len(rendered) == len([d for _, d in docs if d["kind"] != "Kustomization"])


# --- configuration --------------------------------------------------------------------------------
def test_configmap_and_env_names_are_settings_fields(docs: list[tuple[str, dict[str, Any]]]) -> None:
    fields = set(Settings.model_fields)
    config = _one(docs, "ConfigMap")
    assert set(config["data"]) <= fields, sorted(set(config["data"]) - fields)
    assert not set(config["data"]) & _secret_fields(), "secrets belong in the Secret, not the ConfigMap"
    for name, spec in _pod_specs(docs):
        for container in spec["containers"]:
            names = {e["name"] for e in container.get("env", [])}
            unknown = names - fields - STANDARD_ENV
            assert not unknown, f"{name}: variables not in core.config.Settings: {sorted(unknown)}"
            for source in container.get("envFrom", []):
                assert source["configMapRef"]["name"] == config["metadata"]["name"], name


def test_secret_template_holds_only_placeholders(docs: list[tuple[str, dict[str, Any]]]) -> None:
    secret = _one(docs, "Secret")
    data = secret["stringData"]
    assert "data" not in secret, "base64 data would hide real values: use stringData placeholders"
    assert set(data) <= _secret_fields(), sorted(set(data) - _secret_fields())
    assert {"DATABASE_URL", "API_TOKEN"} <= set(data)
    for key, value in data.items():
        assert PLACEHOLDER in value, f"{key} must be a {PLACEHOLDER} placeholder"
    text = (K8S / "secret.template.yaml").read_text(encoding="utf-8")
    for key in ("KAFKA_SASL_PASSWORD", "LLM_API_KEY", "MEMORY_MILVUS_TOKEN"):  # documented optional keys
        assert f"# {key}: {PLACEHOLDER}" in text


def test_secret_references(docs: list[tuple[str, dict[str, Any]]]) -> None:
    secret = _one(docs, "Secret")
    present = set(secret["stringData"])
    for name, spec in _pod_specs(docs):
        for container in spec["containers"]:
            for env in container.get("env", []):
                ref = env.get("valueFrom", {}).get("secretKeyRef")
                if ref is None:
                    continue
                assert env["name"] == ref["key"] and ref["key"] in _secret_fields(), f"{name}: {env}"
                assert ref["name"] == secret["metadata"]["name"], f"{name}: {env}"
                assert ref.get("optional") or ref["key"] in present, f"{name}: required {ref['key']} missing"
            assert "DATABASE_URL" in {e["name"] for e in container.get("env", [])}, name


def _effective(docs: list[tuple[str, dict[str, Any]]], container: dict[str, Any]) -> Settings:
    env = {**_one(docs, "ConfigMap")["data"], **_literal_env(container)}
    for k, v in _one(docs, "Secret")["stringData"].items():
        if k in {e["name"] for e in container.get("env", [])}:
            env[k] = v
    env = {k: v for k, v in env.items() if k not in STANDARD_ENV}
    return load_settings(_env_file=None, **env)


def test_every_process_gets_valid_production_settings(docs: list[tuple[str, dict[str, Any]]]) -> None:
    local_kafka = Settings.model_fields["KAFKA_BOOTSTRAP_SERVERS"].default
    for name, spec in _pod_specs(docs):
        for container in spec["containers"]:
            settings = _effective(docs, container)
            assert not settings.database_is_local and not settings.milvus_is_local, name
            assert local_kafka != settings.KAFKA_BOOTSTRAP_SERVERS, name
    api = _deployments(docs)["api"]["spec"]["template"]["spec"]["containers"][0]
    from api.auth import check_bind

    settings = _effective(docs, api)
    assert settings.API_HOST == "0.0.0.0" and settings.API_TOKEN is not None
    check_bind(settings.API_HOST, settings.API_TOKEN.get_secret_value())  # would raise without a token


# --- processes ------------------------------------------------------------------------------------
def test_deployments_run_the_pai_memory_processes(docs: list[tuple[str, dict[str, Any]]]) -> None:
    from cli.run_cmd import PROCESSES

    known = set(PROCESSES) | PROCESS_NAMES
    deployments = _deployments(docs)
    assert set(deployments) == PROCESS_NAMES
    for component, d in deployments.items():
        spec = d["spec"]
        assert spec["selector"]["matchLabels"].items() <= spec["template"]["metadata"]["labels"].items()
        (container,) = spec["template"]["spec"]["containers"]
        assert container["command"] == ["pai-memory", "run", component] and component in known
        assert container["image"].startswith("pai-memory:")


def test_init_job_runs_existing_subcommands(docs: list[tuple[str, dict[str, Any]]]) -> None:
    from cli.main import build_parser

    parser = build_parser()
    (job,) = _of(docs, "Job")
    (container,) = job["spec"]["template"]["spec"]["containers"]
    assert container["command"][:2] == ["sh", "-c"]
    steps = [shlex.split(step) for step in container["command"][2].split("&&")]
    assert [s[:2] for s in steps] == [["pai-memory", "stack"], ["pai-memory", "db"]]
    for step in steps:
        parser.parse_args(step[1:])  # SystemExit on an unknown subcommand


def test_metrics_ports_scrape_annotations_and_probes(docs: list[tuple[str, dict[str, Any]]]) -> None:
    config = _one(docs, "ConfigMap")["data"]
    assert config["METRICS_HOST"] == "0.0.0.0"  # reachable by Prometheus and the kubelet
    for component, d in _deployments(docs).items():
        template = d["spec"]["template"]
        (container,) = template["spec"]["containers"]
        port = int(_literal_env(container)["METRICS_PORT"])
        ports = {p["name"]: p["containerPort"] for p in container["ports"]}
        assert ports["metrics"] == port, component
        notes = template["metadata"]["annotations"]
        assert notes["prometheus.io/scrape"] == "true" and int(notes["prometheus.io/port"]) == port
        assert notes["prometheus.io/path"] == "/metrics"
        probe = container["livenessProbe"]["httpGet"]
        if component == "api":
            assert probe == {"path": "/healthz", "port": "http"}
            assert ports["http"] == int(_literal_env(container)["API_PORT"])
            script = container["readinessProbe"]["exec"]["command"][2]
            compile(script, "readinessProbe", "exec")
            assert "/readyz" in script and "API_TOKEN" in script
        else:
            assert probe == {"path": "/metrics", "port": "metrics"}, component


def test_grace_period_covers_the_drain(docs: list[tuple[str, dict[str, Any]]]) -> None:
    for component, d in _deployments(docs).items():
        grace = d["spec"]["template"]["spec"]["terminationGracePeriodSeconds"]
        minimum = 20 if component == "api" else LOOP_JOIN_TIMEOUT_SEC + 15
        assert grace >= minimum, f"{component}: {grace}s does not cover the drain"


def test_service_and_disruption_budgets_select_pods(docs: list[tuple[str, dict[str, Any]]]) -> None:
    deployments = _deployments(docs)
    service = _one(docs, "Service")
    api = deployments["api"]["spec"]["template"]
    assert service["spec"]["selector"].items() <= api["metadata"]["labels"].items()
    ports = {p["name"] for p in api["spec"]["containers"][0]["ports"]}
    assert {p["targetPort"] for p in service["spec"]["ports"]} <= ports
    for pdb in _of(docs, "PodDisruptionBudget"):
        selector = pdb["spec"]["selector"]["matchLabels"]
        assert any(selector.items() <= d["spec"]["template"]["metadata"]["labels"].items()
                   for d in deployments.values()), pdb["metadata"]["name"]


# --- KEDA -----------------------------------------------------------------------------------------
def test_keda_scales_extractor_and_indexer_on_lag(docs: list[tuple[str, dict[str, Any]]]) -> None:
    config = _one(docs, "ConfigMap")["data"]
    deployments = _deployments(docs)
    scaled = {_component(s): s for s in _of(docs, "ScaledObject")}
    assert set(scaled) == set(SCALED)
    for component, obj in scaled.items():
        assert obj["apiVersion"] == "keda.sh/v1alpha1"
        spec = obj["spec"]
        assert spec["scaleTargetRef"]["name"] == deployments[component]["metadata"]["name"]
        assert "replicas" not in deployments[component]["spec"], "KEDA owns the replica count"
        assert 1 <= spec["minReplicaCount"] <= spec["maxReplicaCount"]
        assert spec["maxReplicaCount"] <= int(config["KAFKA_TOPIC_PARTITIONS"])
        (trigger,) = spec["triggers"]
        assert trigger["type"] == "kafka"
        meta = trigger["metadata"]
        topic_var, group_var = SCALED[component]
        assert meta["bootstrapServers"] == config["KAFKA_BOOTSTRAP_SERVERS"]
        assert meta["topic"] == config[topic_var] == Settings.model_fields[topic_var].default
        assert meta["consumerGroup"] == config[group_var] == Settings.model_fields[group_var].default
        assert isinstance(meta["lagThreshold"], str) and int(meta["lagThreshold"]) > 0
        assert meta["offsetResetPolicy"] == "earliest"  # the consumers' auto.offset.reset
        assert all(isinstance(v, str) for v in meta.values()), "KEDA trigger metadata values are strings"
    text = (K8S / "keda-scaledobjects.yaml").read_text(encoding="utf-8")
    assert "partition" in text.split("apiVersion")[0], "the header comment explains the replica ceiling"
