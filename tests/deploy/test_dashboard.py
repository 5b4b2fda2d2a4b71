"""The Grafana dashboard and the Prometheus alert rules use only metrics the code exports.

The names the code exports are read from ``prometheus_client.REGISTRY`` after importing
``core.metrics`` and ``consumers.metrics`` (where metrics are defined), with the sample suffixes Prometheus
exposes per type: counters ``_total`` (``_created``), histograms ``_bucket``/``_sum``/``_count``,
gauges the bare name. Metric names are taken out of every PromQL expression (``expr`` fields of
dashboard targets, ``expr`` of alert rules) and must all be known.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from prometheus_client import REGISTRY

import consumers.metrics  # noqa: F401  (registers the consumer groups' metrics in REGISTRY)
import core.metrics  # noqa: F401  (registers every other pai-memory metric in REGISTRY)

ROOT = Path(__file__).resolve().parents[2]
DASHBOARD = ROOT / "deploy" / "grafana" / "pai-memory-dashboard.json"
ALERTS = ROOT / "deploy" / "prometheus" / "alerts.yml"
PROMETHEUS = ROOT / "deploy" / "prometheus" / "prometheus.yml"
PREFIX = "pai_memory_"
BUILTIN_SERIES = {"up"}  # synthesised by Prometheus per scrape target

_SUFFIXES = {
    "counter": ("_total", "_created"),
    "histogram": ("_bucket", "_sum", "_count", "_created"),
    "summary": ("_sum", "_count", "_created"),
    "gauge": ("",),
    "info": ("_info",),
    "stateset": ("",),
    "gaugehistogram": ("_bucket", "_gsum", "_gcount"),
    "unknown": ("",),
}


def exported_families() -> dict[str, str]:
    """pai-memory metric family name -> type, as registered by ``core.metrics``."""
    return {m.name: m.type for m in REGISTRY.collect() if m.name.startswith(PREFIX)}


def exported_series_names() -> set[str]:
    """Every sample name Prometheus can see from the pai-memory families."""
    return {name + suffix for name, kind in exported_families().items() for suffix in _SUFFIXES[kind]}


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|`[^`]*`')
_PREFIXED = re.compile(rf"(?<![A-Za-z0-9_:$]){PREFIX}[A-Za-z0-9_:]*")
_SELECTOR = re.compile(r"(?<![A-Za-z0-9_:$.])([A-Za-z_:][A-Za-z0-9_:]*)\s*[{\[]")


def metric_names(expr: str) -> set[str]:
    """Metric names a PromQL expression selects: every ``pai_memory_*`` token, plus any identifier
    directly followed by a label matcher ``{`` or a range ``[`` (``up{...}``, ``foo[5m]``).
    String literals (label values, Grafana legend text) are ignored."""
    code = _STRING.sub('""', expr)
    return set(_PREFIXED.findall(code)) | set(_SELECTOR.findall(code))


def unknown_metrics(expr: str) -> set[str]:
    """Names in ``expr`` that no pai-memory process exports (empty when the expression is fine)."""
    return metric_names(expr) - exported_series_names() - BUILTIN_SERIES


def balanced(expr: str) -> bool:
    """Brackets of an expression (outside string literals) open and close in order."""
    pairs = {")": "(", "]": "[", "}": "{"}
    stack: list[str] = []
    for ch in _STRING.sub('""', expr):
        if ch in "([{":
            stack.append(ch)
        elif ch in pairs and (not stack or stack.pop() != pairs[ch]):
            return False
    return not stack


def walk_panels(panels: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for panel in panels:
        yield panel
        yield from walk_panels(panel.get("panels", []))


@pytest.fixture(scope="module")
def dashboard() -> dict[str, Any]:
    data = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


@pytest.fixture(scope="module")
def alert_rules() -> list[dict[str, Any]]:
    data = yaml.safe_load(ALERTS.read_text(encoding="utf-8"))
    return [rule for group in data["groups"] for rule in group["rules"]]


def dashboard_exprs(dashboard: dict[str, Any]) -> list[tuple[str, str]]:
    """(panel title, expr) of every query target in the dashboard."""
    return [(p.get("title", "?"), t["expr"]) for p in walk_panels(dashboard["panels"])
            for t in p.get("targets", []) if "expr" in t]


# --- the name checker itself --------------------------------------------------------------------
def test_registry_holds_the_pai_memory_families() -> None:
    families = exported_families()
    assert families["pai_memory_events_consumed"] == "counter"
    assert families["pai_memory_freshness_seconds"] == "histogram"
    assert families["pai_memory_consumer_lag"] == "gauge"
    names = exported_series_names()
    assert {"pai_memory_events_consumed_total", "pai_memory_freshness_seconds_bucket",
            "pai_memory_freshness_seconds_count", "pai_memory_consumer_lag"} <= names


@pytest.mark.parametrize(("expr", "unknown"), [
    ("sum(rate(pai_memory_events_consumed_total[5m]))", set()),
    ('histogram_quantile(0.99, sum by (le) (rate(pai_memory_freshness_seconds_bucket{job="x"}[5m])))', set()),
    ('up{job=~"pai-memory.*"} == 0', set()),
    ("rate(pai_memory_not_a_metric_total[5m])", {"pai_memory_not_a_metric_total"}),
    ("rate(pai_memory_events_consumed[5m])", {"pai_memory_events_consumed"}),  # counter without _total
    ("pai_memory_consumer_lag_bucket", {"pai_memory_consumer_lag_bucket"}),  # a gauge has no buckets
    ("sum(rate(http_requests_total[5m]))", {"http_requests_total"}),  # a foreign metric
    ('sum by (group) (pai_memory_dlq_events_total{group="pai_memory_fake"})', set()),  # label values
])
def test_unknown_metric_detection(expr: str, unknown: set[str]) -> None:
    assert unknown_metrics(expr) == unknown


def test_a_dashboard_with_an_unknown_metric_is_rejected(dashboard: dict[str, Any]) -> None:
    broken = json.loads(json.dumps(dashboard))
    panel = next(p for p in walk_panels(broken["panels"]) if p.get("targets"))
    panel["targets"].append({"refId": "Z", "expr": "sum(rate(pai_memory_made_up_total[5m]))"})
    bad = {name for _, expr in dashboard_exprs(broken) for name in unknown_metrics(expr)}
    assert bad == {"pai_memory_made_up_total"}


# --- dashboard ----------------------------------------------------------------------------------
def test_dashboard_uses_only_exported_metrics(dashboard: dict[str, Any]) -> None:
    exprs = dashboard_exprs(dashboard)
    assert len(exprs) >= 20
    problems = {f"{title}: {expr}": unknown_metrics(expr) for title, expr in exprs if unknown_metrics(expr)}
    assert not problems, f"panels use metrics core/metrics.py does not export: {problems}"
    for title, expr in exprs:
        assert metric_names(expr), f"{title}: expression selects no metric: {expr}"
        assert balanced(expr), f"{title}: unbalanced brackets: {expr}"


def test_dashboard_shows_every_exported_metric(dashboard: dict[str, Any]) -> None:
    used = {name for _, expr in dashboard_exprs(dashboard) for name in metric_names(expr)}
    families = exported_families()
    missing = {family for family, kind in families.items()
               if not any(family + suffix in used for suffix in _SUFFIXES[kind])}
    assert not missing, f"metrics without a dashboard panel (add one): {sorted(missing)}"


def test_dashboard_structure(dashboard: dict[str, Any]) -> None:
    assert dashboard["title"] and dashboard["uid"] and isinstance(dashboard["schemaVersion"], int)
    variables = {v["name"]: v for v in dashboard["templating"]["list"]}
    source = variables["datasource"]
    assert source["type"] == "datasource" and source["query"] == "prometheus"
    panels = list(walk_panels(dashboard["panels"]))
    ids = [p["id"] for p in panels]
    assert len(ids) == len(set(ids)), "panel ids must be unique"
    for p in panels:
        grid = p["gridPos"]
        assert grid["x"] >= 0 and grid["x"] + grid["w"] <= 24 and grid["h"] > 0, p["title"]
        if p["type"] == "row":
            continue
        assert p["title"] and p["datasource"] == {"type": "prometheus", "uid": "${datasource}"}
        refs = [t["refId"] for t in p["targets"]]
        assert refs and len(refs) == len(set(refs)), p["title"]


def test_dashboard_covers_the_operations_views(dashboard: dict[str, Any]) -> None:
    """The views the operations issue asks for, each present as a query."""
    exprs = " ".join(expr for _, expr in dashboard_exprs(dashboard))
    wanted = [
        r"by \(group, outcome\) \(rate\(pai_memory_events_consumed_total",  # throughput by outcome
        r"histogram_quantile\(0\.5, sum by \(le, stage\) \(rate\(pai_memory_stage_duration_seconds_bucket",
        r"histogram_quantile\(0\.95, sum by \(le, stage\) \(rate\(pai_memory_stage_duration_seconds_bucket",
        r"by \(group, topic, partition\) \(pai_memory_consumer_lag\)",  # lag per partition
        r"pai_memory_rebalances_total", r"pai_memory_dlq_events_total",
        r"pai_memory_outbox_backlog", r"pai_memory_outbox_oldest_age_seconds",
        r"by \(status\) \(pai_memory_messages\)", r"by \(vector_status, active\) \(pai_memory_memories\)",
        r"pai_memory_llm_calls_total", r"pai_memory_llm_call_duration_seconds_bucket",
        r"pai_memory_llm_tokens_total", r"pai_memory_embedding_calls_total",
        r"pai_memory_embedding_call_duration_seconds_bucket",
        r"by \(operation, source\) \(rate\(pai_memory_memory_writes_total",
        r"histogram_quantile\(0\.5, sum by \(le\) \(rate\(pai_memory_freshness_seconds_bucket",
        r"histogram_quantile\(0\.99, sum by \(le\) \(rate\(pai_memory_freshness_seconds_bucket",
        r"sum by \(le, mode, path\) \(rate\(pai_memory_retrieval_duration_seconds_bucket",
        r"by \(status\) \(rate\(pai_memory_api_requests_total",
    ]
    missing = [w for w in wanted if not re.search(w, exprs)]
    assert not missing, f"dashboard lacks: {missing}"


# --- alert rules --------------------------------------------------------------------------------
def test_alerts_use_only_exported_metrics(alert_rules: list[dict[str, Any]]) -> None:
    for rule in alert_rules:
        expr = rule["expr"]
        assert unknown_metrics(expr) == set(), f"{rule['alert']}: unknown metrics in {expr}"
        assert metric_names(expr) and balanced(expr), rule["alert"]


def test_alert_rules_are_complete(alert_rules: list[dict[str, Any]]) -> None:
    names = [r["alert"] for r in alert_rules]
    assert len(names) == len(set(names)), "alert names must be unique"
    for rule in alert_rules:
        assert set(rule) <= {"alert", "expr", "for", "keep_firing_for", "labels", "annotations"}, rule
        assert rule["labels"]["severity"] in {"warning", "critical"}, rule["alert"]
        assert rule["annotations"]["summary"] and rule["annotations"]["description"], rule["alert"]
        if "for" in rule:
            assert re.fullmatch(r"\d+[smh]", rule["for"]), rule["alert"]
    by_metric = {name: [r for r in alert_rules if name in metric_names(r["expr"])]
                 for name in ("pai_memory_consumer_lag", "pai_memory_outbox_oldest_age_seconds",
                              "pai_memory_dlq_events_total", "pai_memory_messages", "pai_memory_memories",
                              "pai_memory_freshness_seconds_bucket", "up")}
    missing = [name for name, rules in by_metric.items() if not rules]
    assert not missing, f"no alert on {missing}"
    failed = [r["expr"] for r in by_metric["pai_memory_messages"] + by_metric["pai_memory_memories"]]
    assert all("FAILED" in e for e in failed)
    assert any("histogram_quantile" in r["expr"] for r in by_metric["pai_memory_freshness_seconds_bucket"])
    conflicts = [r for r in alert_rules if "pai_memory_message_id_conflicts_total" in metric_names(r["expr"])]
    assert conflicts, "no alert on message id conflicts (a message never dropped silently)"
    dlq = by_metric["pai_memory_dlq_events_total"]
    assert any("rate(pai_memory_dlq_events_total" in r["expr"] for r in dlq)


def test_prometheus_loads_the_rules_and_scrapes_pai_memory_jobs() -> None:
    config = yaml.safe_load(PROMETHEUS.read_text(encoding="utf-8"))
    rule_files = [PROMETHEUS.parent / f for f in config["rule_files"]]
    assert ALERTS in rule_files
    jobs = [job["job_name"] for job in config["scrape_configs"]]
    assert jobs and all(re.fullmatch(r"pai-memory.*", j) for j in jobs)  # PaiMemoryProcessDown's selector


PROMTOOL = shutil.which("promtool")
needs_promtool = pytest.mark.skipif(PROMTOOL is None, reason="promtool (Prometheus) not on PATH")


@needs_promtool
def test_promtool_accepts_config_and_rules() -> None:  # pragma: no cover - needs promtool
    assert PROMTOOL is not None
    out = subprocess.run([PROMTOOL, "check", "config", str(PROMETHEUS)], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


@needs_promtool
def test_alert_rules_fire_as_intended() -> None:  # pragma: no cover - needs promtool
    """promtool unit tests (tests/deploy/alerts_test.yml): each alert fires on a synthetic series
    history that breaks it, after its ``for`` delay, with its labels and rendered annotations, and
    stays silent on healthy or too-short histories."""
    assert PROMTOOL is not None
    cases = Path(__file__).with_name("alerts_test.yml")
    out = subprocess.run([PROMTOOL, "test", "rules", str(cases)], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


@needs_promtool
def test_dashboard_queries_parse_as_promql(dashboard: dict[str, Any], tmp_path: Path) -> None:
    """Every panel query, with Grafana's ``$__rate_interval`` set to 5m, is valid PromQL (checked as
    recording rules by promtool)."""
    assert PROMTOOL is not None
    rules = [{"record": f"dashboard:query_{i}", "expr": expr.replace("$__rate_interval", "5m")}
             for i, (_, expr) in enumerate(dashboard_exprs(dashboard))]
    path = tmp_path / "dashboard_rules.yml"
    path.write_text(yaml.safe_dump({"groups": [{"name": "dashboard", "rules": rules}]}), encoding="utf-8")
    out = subprocess.run([PROMTOOL, "check", "rules", str(path)], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
