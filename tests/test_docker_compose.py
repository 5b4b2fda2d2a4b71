"""docker-compose.yml is checked against the configuration (no Docker engine needed)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
import yaml

from core.config import Settings, load_settings

ROOT = Path(__file__).resolve().parents[1]
OWN_PROCESSES = {"extractor", "commands", "relay", "indexer", "api"}
INFRA = {"kafka", "postgres", "etcd", "minio", "milvus", "prometheus"}


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    data = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    assert isinstance(data, dict)
    return data


def _own(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Services built from deploy/Dockerfile (the pai-memory processes and the init job)."""
    return {name: svc for name, svc in compose["services"].items()
            if svc.get("build", {}).get("dockerfile") == "deploy/Dockerfile"}


def _host_ports(svc: dict[str, Any]) -> list[int]:
    return [int(str(p).split(":")[0]) for p in svc.get("ports", [])]


def test_service_names(compose: dict[str, Any]) -> None:
    assert set(compose["services"]) == INFRA | OWN_PROCESSES | {"init"}
    assert set(_own(compose)) == OWN_PROCESSES | {"init"}


def test_own_processes_run_their_subcommand(compose: dict[str, Any]) -> None:
    for name in OWN_PROCESSES:
        assert compose["services"][name]["command"] == ["pai-memory", "run", name]
        init = compose["services"][name]["depends_on"]["init"]
        assert init["condition"] == "service_completed_successfully"


def test_run_subcommands_exist() -> None:
    from cli.run_cmd import PROCESSES

    missing = OWN_PROCESSES - set(PROCESSES)
    if missing:
        pytest.skip(f"`pai-memory run` does not implement {sorted(missing)} yet")


def test_environment_names_are_settings_fields_and_valid(compose: dict[str, Any]) -> None:
    fields = set(Settings.model_fields)
    for name, svc in _own(compose).items():
        env = {k: str(v) for k, v in svc["environment"].items()}
        unknown = set(env) - fields
        assert not unknown, f"{name}: variables not in core.config.Settings: {sorted(unknown)}"
        settings = load_settings(_env_file=None, **env)
        assert not settings.database_is_local and not settings.milvus_is_local


def test_addresses_match_the_infrastructure(compose: dict[str, Any]) -> None:
    services = compose["services"]
    env = services["extractor"]["environment"]
    db = urlparse(env["DATABASE_URL"])
    pg_env = services["postgres"]["environment"]
    assert db.hostname == "postgres" and db.port == 5432
    assert (db.username, db.password, db.path.lstrip("/")) == (
        pg_env["POSTGRES_USER"], pg_env["POSTGRES_PASSWORD"], pg_env["POSTGRES_DB"])
    host, port = env["KAFKA_BOOTSTRAP_SERVERS"].split(":")
    assert host == "kafka"
    kafka_env = services["kafka"]["environment"]
    assert f"PLAINTEXT://kafka:{port}" in kafka_env["KAFKA_ADVERTISED_LISTENERS"]
    assert "controller" in kafka_env["KAFKA_PROCESS_ROLES"]  # KRaft, no ZooKeeper
    assert str(kafka_env["KAFKA_AUTO_CREATE_TOPICS_ENABLE"]) == "false"
    assert services["kafka"]["image"].startswith("apache/kafka:")
    milvus = urlparse(env["MEMORY_MILVUS_URI"])
    assert milvus.hostname == "milvus" and milvus.port == 19530
    assert services["milvus"]["command"][-1] == "standalone"
    assert services["milvus"]["environment"]["ETCD_ENDPOINTS"].split(":")[0] in services
    assert services["milvus"]["environment"]["MINIO_ADDRESS"].split(":")[0] in services


def test_host_ports(compose: dict[str, Any]) -> None:
    services = compose["services"]
    ports = [p for svc in services.values() for p in _host_ports(svc)]
    assert len(ports) == len(set(ports)), "a host port is published twice"
    assert _host_ports(services["kafka"]) == [29092]
    assert _host_ports(services["postgres"]) == [5432]
    assert _host_ports(services["milvus"]) == [19530]
    assert _host_ports(services["prometheus"]) == [9090]
    api_env = services["api"]["environment"]
    assert _host_ports(services["api"]) == [int(api_env["API_PORT"])]
    assert api_env["API_HOST"] == "0.0.0.0"


def test_prometheus_scrapes_every_process(compose: dict[str, Any]) -> None:
    config = yaml.safe_load((ROOT / "deploy/prometheus/prometheus.yml").read_text())
    targets = {t for job in config["scrape_configs"] for sc in job["static_configs"] for t in sc["targets"]}
    metrics_port = compose["services"]["extractor"]["environment"]["METRICS_PORT"]
    # every process, the API included, is scraped on METRICS_PORT (the API port's /metrics needs a token)
    assert targets == {f"{name}:{metrics_port}" for name in OWN_PROCESSES}


def test_dockerfile_copies_every_package() -> None:
    dockerfile = (ROOT / "deploy/Dockerfile").read_text()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    packages = {p.rstrip("*") for p in project["tool"]["setuptools"]["packages"]["find"]["include"]}
    copied = set(re.findall(r"^COPY (\w+) ", dockerfile, flags=re.M))
    assert packages <= copied, f"not copied into the image: {sorted(packages - copied)}"
