"""docker-compose.yml is checked against the configuration (no Docker engine needed).

Values are interpolated the way ``docker compose --env-file deploy/compose.env`` does
(``${VAR}``, ``${VAR:?message}``, ``${VAR:-default}``, ``$$``), from the committed
``deploy/compose.env.example`` with a test value put in for every (empty) secret.
"""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
import yaml

from core.config import Settings, load_settings

ROOT = Path(__file__).resolve().parents[1]
COMPOSE_FILE = ROOT / "docker-compose.yml"
ENV_EXAMPLE = ROOT / "deploy/compose.env.example"
OWN_PROCESSES = {"extractor", "commands", "relay", "indexer", "api"}
INFRA = {"kafka", "postgres", "etcd", "minio", "milvus", "prometheus"}
# variables (and URL parts) that hold a credential: their values must come from the env file
SECRET_NAME = re.compile(r"PASSWORD|SECRET|TOKEN|_KEY\b|ACCESS_KEY|PASSWD", re.I)
_VAR = re.compile(r"\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[?-])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)")


class MissingVariable(KeyError):
    """A ``${VAR:?message}`` variable is unset or empty (compose refuses to start)."""


def interpolate(value: Any, env: dict[str, str]) -> Any:
    """``value`` (parsed YAML) with compose's variable syntax replaced from ``env``."""
    if isinstance(value, dict):
        return {k: interpolate(v, env) for k, v in value.items()}
    if isinstance(value, list):
        return [interpolate(v, env) for v in value]
    if not isinstance(value, str):
        return value

    def one(m: re.Match[str]) -> str:
        if m[0] == "$$":
            return "$"
        name = m[1] or m[4]
        op, arg = m[2], m[3]
        current = env.get(name)
        if op in (":?", "?") and (current is None or (op == ":?" and current == "")):
            raise MissingVariable(f"{name}: {arg}")
        if op in (":-", "-") and (current is None or (op == ":-" and current == "")):
            return str(arg)
        return current or ""

    return _VAR.sub(one, value)


def env_file(path: Path) -> dict[str, str]:
    """``NAME=value`` lines of a compose env file (comments and blank lines skipped)."""
    out = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, sep, value = line.partition("=")
            assert sep, f"not NAME=value: {line!r}"
            out[name.strip()] = value.strip()
    return out


def raw_compose() -> dict[str, Any]:
    data = yaml.safe_load(COMPOSE_FILE.read_text())
    assert isinstance(data, dict)
    return data


def filled_env() -> dict[str, str]:
    """The example env file with a distinct test value for every variable."""
    return {name: value or f"test-{name.lower()}-0123456789abcdef"
            for name, value in env_file(ENV_EXAMPLE).items()}


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    data = interpolate(raw_compose(), filled_env())
    assert isinstance(data, dict)
    return data


def _own(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Services built from deploy/Dockerfile (the pai-memory processes and the init job)."""
    return {name: svc for name, svc in compose["services"].items()
            if svc.get("build", {}).get("dockerfile") == "deploy/Dockerfile"}


def _published(svc: dict[str, Any]) -> list[tuple[str | None, int]]:
    """(host address or None for all interfaces, host port) of each published port."""
    out: list[tuple[str | None, int]] = []
    for spec in svc.get("ports", []):
        if isinstance(spec, dict):  # long syntax
            out.append((spec.get("host_ip"), int(spec["published"])))
            continue
        parts = str(spec).split("/")[0].rsplit(":", 2)
        assert len(parts) >= 2, f"{spec!r}: a port published on a random host port"
        out.append((parts[0] if len(parts) == 3 else None, int(parts[-2])))
    return out


def _host_ports(svc: dict[str, Any]) -> list[int]:
    return [port for _, port in _published(svc)]


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
    assert not missing, f"compose runs processes `pai-memory run` does not implement: {sorted(missing)}"


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


def test_every_published_port_is_bound_to_loopback(compose: dict[str, Any]) -> None:
    published = {name: _published(svc) for name, svc in compose["services"].items() if svc.get("ports")}
    assert set(published) == {"kafka", "postgres", "minio", "milvus", "api", "prometheus"}
    for name, ports in published.items():
        for host, port in ports:
            assert host == "127.0.0.1", f"{name}: host port {port} is published on {host or 'all interfaces'}"
    advertised = compose["services"]["kafka"]["environment"]["KAFKA_ADVERTISED_LISTENERS"]
    assert "HOST://127.0.0.1:29092" in advertised  # host clients reach the loopback-bound port


def _walk(value: Any, path: str = "") -> list[tuple[str, str]]:
    if isinstance(value, dict):
        return [item for k, v in value.items() for item in _walk(v, f"{path}.{k}" if path else str(k))]
    if isinstance(value, list):
        return [item for i, v in enumerate(value) for item in _walk(v, f"{path}[{i}]")]
    return [(path, str(value))]


def test_no_literal_password_in_the_compose_file() -> None:
    """Every credential is a required variable from the env file: by name (``*PASSWORD*``,
    ``*TOKEN*``, ``*SECRET*``, ``*_KEY*``) and inside URLs (``user:password@``)."""
    required = re.compile(r"^\$\{[A-Z_]+:\?[^}]+\}$")
    checked = 0
    for path, value in _walk(raw_compose()):
        name = path.rsplit(".", 1)[-1]
        if SECRET_NAME.search(name) and not name.endswith(("_FILE", "_ID_FILE")):
            assert required.match(value), f"{path}: a literal credential ({value!r}); use ${{VAR:?...}}"
            checked += 1
        for url in re.findall(r"[a-z+]+://[^\s\"']+", _VAR.sub("VARREF", value)):
            password = urlparse(url).password
            if password is not None:
                assert password == "VARREF", f"{path}: a literal password in {url!r}"
                checked += 1
    assert checked >= 6  # POSTGRES_PASSWORD, MinIO (root and Milvus's), API_TOKEN, DATABASE_URL...
    assert "minioadmin" not in COMPOSE_FILE.read_text()


def test_secrets_come_from_an_uncommitted_env_file() -> None:
    example = env_file(ENV_EXAMPLE)
    assert all(value == "" for value in example.values()), "the example must not carry usable secrets"
    used = {m[1] for _, value in _walk(raw_compose()) for m in _VAR.finditer(value) if m[1]}
    assert used == set(example), "every variable of docker-compose.yml is in the example, and only those"
    for name in used:  # each is required: compose stops without it
        with pytest.raises(MissingVariable, match=name):
            interpolate(raw_compose(), {**filled_env(), name: ""})
    ignored = (ROOT / ".gitignore").read_text().splitlines()
    assert "deploy/compose.env" in ignored and ".env" in ignored
    if not (ROOT / ".git").exists():
        return  # not a git checkout: nothing is committed to check
    tracked = subprocess.run(["git", "ls-files", "deploy", ".env"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.split()
    assert "deploy/compose.env.example" in tracked
    assert "deploy/compose.env" not in tracked and ".env" not in tracked
