"""Apache Kafka in KRaft mode from the official broker jars: one node, or a cluster of N nodes.

The jars (``org.apache.kafka:kafka_2.13`` and its runtime dependencies, plus a log4j2 binding) are
resolved once by Maven into ``<cache>/kafka-<version>/libs`` and run with the machine's Java 17+.
Every node listens on loopback only. One node (the default) keeps its data in ``<PAI_MEMORY_HOME>/kafka``;
a cluster (``stack up --brokers N``) is N node configurations, node ``i`` in ``<PAI_MEMORY_HOME>/kafka-<i>``
with its own ports, all formatted with one cluster id.
"""

from __future__ import annotations

import base64
import os
import re
import shutil
import subprocess
import uuid
from pathlib import Path

from confluent_kafka import KafkaException

from core.config import LOCAL_KAFKA_PORT, Settings
from localstack.base import LOOPBACK, LocalPorts, Service, StackPaths
from localstack.process import (
    StackError,
    ensure_port_free,
    is_alive,
    log_hint,
    spawn_detached,
    stop_pid,
    wait_ready,
)
from localstack.topics import admin_client, ensure_topics, fewer_partitions, kafka_probe

KAFKA_VERSION = "4.1.1"
SCALA_VERSION = "2.13"
SLF4J_VERSION = "2.0.16"
LOG4J_VERSION = "2.24.3"
MIN_JAVA = 17
BIND_ATTEMPTS = 3  # the local ports lie in the ephemeral range: a start can lose a race for one
# A small dev broker: bounded heap; C1-only JIT and serial GC start noticeably faster on few cores.
JVM_OPTIONS = ["-Xms256m", "-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto"]

POM = f"""<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>pai-memory</groupId><artifactId>kafka-broker</artifactId><version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka_{SCALA_VERSION}</artifactId>
      <version>{KAFKA_VERSION}</version></dependency>
    <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-api</artifactId>
      <version>{SLF4J_VERSION}</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-slf4j2-impl</artifactId>
      <version>{LOG4J_VERSION}</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-core</artifactId>
      <version>{LOG4J_VERSION}</version></dependency>
  </dependencies>
</project>
"""

LOG4J2_YAML = """Configuration:
  Appenders:
    Console:
      name: STDOUT
      PatternLayout:
        pattern: "[%d] %p %m (%c)%n"
  Loggers:
    Root:
      level: WARN
      AppenderRef:
        - ref: STDOUT
    Logger:
      - name: kafka.server.KafkaRaftServer
        level: INFO
      - name: kafka.server.BrokerServer
        level: INFO
"""


def java_version(java: str) -> int:
    """Major version of ``java`` (raises ``StackError`` when it cannot be run)."""
    try:
        out = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=30, check=True)
    except (OSError, subprocess.SubprocessError) as exc:
        raise StackError(f"cannot run {java} -version: {exc}") from exc
    match = re.search(r'version "(\d+)(?:\.(\d+))?', out.stderr + out.stdout)
    if not match:
        raise StackError(f"cannot read the Java version from: {out.stderr.strip()[:200]}")
    major = int(match.group(1))
    return int(match.group(2) or 0) if major == 1 else major


def find_java() -> str:
    """``$JAVA_HOME/bin/java`` or ``java`` on PATH, version 17 or newer."""
    home = os.environ.get("JAVA_HOME")
    java = str(Path(home) / "bin" / "java") if home and (Path(home) / "bin" / "java").exists() else (
        shutil.which("java"))
    if not java:
        raise StackError("Java 17+ is needed for the local Kafka broker: install it "
                         "(e.g. apt-get install openjdk-17-jre-headless) or set KAFKA_BOOTSTRAP_SERVERS")
    major = java_version(java)
    if major < MIN_JAVA:
        raise StackError(f"Java {MIN_JAVA}+ is needed for the local Kafka broker, found {major} at {java}")
    return java


def resolve_jars(cache: Path, timeout: float = 900) -> Path:
    """The ``libs`` folder with the broker's jars, resolving them with Maven on first use.

    Safe to call concurrently: resolution happens in a temporary folder renamed into place.
    """
    root = cache / f"kafka-{KAFKA_VERSION}"
    libs = root / "libs"
    if (libs / ".complete").exists():
        return libs
    mvn = shutil.which("mvn")
    if not mvn:
        raise StackError("Maven (mvn) is needed once to fetch the Kafka broker jars: install it "
                         "(e.g. apt-get install maven) or set KAFKA_BOOTSTRAP_SERVERS")
    root.mkdir(parents=True, exist_ok=True)
    work = root / f"resolve-{os.getpid()}"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    (work / "pom.xml").write_text(POM)
    log = root / "mvn.log"
    cmd = [mvn, "-q", "-B", "dependency:copy-dependencies", "-DoutputDirectory=libs",
           "-DincludeScope=runtime"]
    with open(log, "wb") as out:
        try:
            rc = subprocess.run(cmd, cwd=work, stdout=out, stderr=subprocess.STDOUT, timeout=timeout,
                                stdin=subprocess.DEVNULL).returncode
        except subprocess.TimeoutExpired as exc:
            raise StackError(f"Maven did not resolve the Kafka jars within {timeout:.0f} s"
                             f"{log_hint(log)}") from exc
    jars = list((work / "libs").glob("*.jar"))
    if rc != 0 or not any(j.name.startswith(f"kafka_{SCALA_VERSION}-") for j in jars):
        raise StackError(f"Maven failed to resolve org.apache.kafka:kafka_{SCALA_VERSION}:{KAFKA_VERSION} "
                         f"(exit {rc}){log_hint(log)}")
    (work / "libs" / ".complete").write_text(f"{len(jars)} jars\n")
    if not (libs / ".complete").exists():
        shutil.rmtree(libs, ignore_errors=True)
        try:
            (work / "libs").rename(libs)
        except OSError:
            if not (libs / ".complete").exists():
                raise
    shutil.rmtree(work, ignore_errors=True)
    return libs


def new_cluster_id() -> str:
    """A Kafka cluster id: a random UUID, URL-safe base64 without padding (22 chars).

    Never starts with ``-`` (as Kafka's own ``Uuid.randomUuid``): the storage tool's
    argument parser would read such an id as an option (1 in 64 ids did, and failed
    ``stack up``).
    """
    while True:
        cluster_id = base64.urlsafe_b64encode(uuid.uuid4().bytes).rstrip(b"=").decode()
        if not cluster_id.startswith("-"):
            return cluster_id


def cluster_addresses(ports: LocalPorts, nodes: int) -> str:
    """Bootstrap list of a local cluster of ``nodes`` nodes (every node's broker listener)."""
    return ",".join(f"{LOOPBACK}:{ports.kafka_node(i)[0]}" for i in range(1, nodes + 1))


def shared_cluster_id(path: Path) -> str:
    """The cluster id every node of one local cluster is formatted with: created once at ``path``
    (atomically, so nodes formatted in parallel agree), read back afterwards."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.{uuid.uuid4().hex[:6]}")
        tmp.write_text(new_cluster_id())
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass
        finally:
            tmp.unlink(missing_ok=True)
    return path.read_text().strip()


class KafkaService(Service):
    """One KRaft node (combined broker + controller) of the local Kafka.

    ``nodes == 1``: the default single broker ``kafka`` (replication 1). ``nodes > 1``: node ``node_id`` of
    a cluster (service name ``kafka-<id>``, folder ``<home>/kafka-<id>``), the controller quorum on all
    nodes, replication ``min(3, nodes)`` and ``min.insync.replicas`` one less (at least 1) for the
    service topics and the internal ones. Clients of the cluster use ``bootstrap`` (every node).
    """

    marker = "kafka.Kafka"

    def __init__(self, settings: Settings, paths: StackPaths, ports: LocalPorts,
                 node_id: int = 1, nodes: int = 1) -> None:
        super().__init__(settings, paths, ports)
        if not 1 <= node_id <= nodes:
            raise ValueError(f"node_id {node_id} is not in 1..{nodes}")
        self.node_id = node_id
        self.nodes = nodes
        self.name = "kafka" if nodes == 1 else f"kafka-{node_id}"

    @property
    def replication(self) -> int:
        """Replication factor of every topic on this local Kafka."""
        return min(3, self.nodes)

    @property
    def min_insync(self) -> int:
        return max(1, self.replication - 1)

    @property
    def bootstrap(self) -> str:
        """What clients of the local Kafka use: every node's broker address."""
        return cluster_addresses(self.ports, self.nodes)

    @property
    def external(self) -> bool:
        given = self.settings.KAFKA_BOOTSTRAP_SERVERS.strip()
        return given not in (self._default_local_address(), self.bootstrap)

    @staticmethod
    def _default_local_address() -> str:
        return f"{LOOPBACK}:{LOCAL_KAFKA_PORT}"

    @property
    def address(self) -> str:
        return self.settings.KAFKA_BOOTSTRAP_SERVERS if self.external else f"{LOOPBACK}:{self.local_port}"

    @property
    def local_port(self) -> int:
        return self.ports.kafka_node(self.node_id)[0]

    @property
    def controller_port(self) -> int:
        return self.ports.kafka_node(self.node_id)[1]

    def _client_settings(self, everyone: bool = False) -> Settings:
        """Settings of a client of this node (``everyone``: of the whole local Kafka, with its
        replication factor)."""
        if self.external:
            return self.settings
        if not everyone:
            return self.settings.model_copy(update={"KAFKA_BOOTSTRAP_SERVERS": self.address})
        replication = max(self.settings.KAFKA_TOPIC_REPLICATION, self.replication)
        return self.settings.model_copy(update={"KAFKA_BOOTSTRAP_SERVERS": self.bootstrap,
                                                "KAFKA_TOPIC_REPLICATION": replication})

    def probe(self, timeout: float = 3.0) -> str | None:
        return kafka_probe(self._client_settings(), timeout)

    def server_properties(self) -> str:
        data = self.dir / "data"
        voters = ",".join(f"{i}@{LOOPBACK}:{self.ports.kafka_node(i)[1]}" for i in range(1, self.nodes + 1))
        rf, isr = self.replication, self.min_insync
        return "\n".join([
            "process.roles=broker,controller",
            f"node.id={self.node_id}",
            f"controller.quorum.voters={voters}",
            f"listeners=PLAINTEXT://{LOOPBACK}:{self.local_port},CONTROLLER://{LOOPBACK}:{self.controller_port}",
            f"advertised.listeners=PLAINTEXT://{LOOPBACK}:{self.local_port}",
            "controller.listener.names=CONTROLLER",
            "inter.broker.listener.name=PLAINTEXT",
            "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
            f"log.dirs={data}",
            "num.partitions=1",
            f"default.replication.factor={rf}",
            f"min.insync.replicas={isr}",
            f"offsets.topic.replication.factor={rf}",
            "offsets.topic.num.partitions=12",
            f"transaction.state.log.replication.factor={rf}",
            f"transaction.state.log.min.isr={isr}",
            "transaction.state.log.num.partitions=4",
            f"share.coordinator.state.topic.replication.factor={rf}",
            f"share.coordinator.state.topic.min.isr={isr}",
            "unclean.leader.election.enable=false",
            "group.initial.rebalance.delay.ms=0",
            "auto.create.topics.enable=false",
            "log.retention.hours=168",
            "",
        ])

    def start(self) -> int:
        java = find_java()
        libs = resolve_jars(self.paths.cache)
        self.dir.mkdir(parents=True, exist_ok=True)
        props = self.dir / "server.properties"
        props.write_text(self.server_properties())
        log4j = self.dir / "log4j2.yaml"
        log4j.write_text(LOG4J2_YAML)
        classpath = f"{libs}/*"
        if not (self.dir / "data" / "meta.properties").exists():
            cluster_id = (new_cluster_id() if self.nodes == 1
                          else shared_cluster_id(self.paths.home / "kafka-cluster.id"))
            fmt = subprocess.run(
                [java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", f"-Dlog4j2.configurationFile={log4j}",
                 "-cp", classpath, "kafka.tools.StorageTool",
                 "format", "-t", cluster_id, "-c", str(props)],
                capture_output=True, text=True, timeout=120)
            if fmt.returncode != 0:
                output = (fmt.stderr or fmt.stdout).strip()[-500:]
                raise StackError(f"formatting the Kafka storage failed: {output}")
        cmd = [java, *JVM_OPTIONS, f"-Dlog4j2.configurationFile={log4j}", f"-Dkafka.logs.dir={self.dir}",
               "-cp", classpath, "kafka.Kafka", str(props)]
        # a cluster node answers only once a quorum of controllers runs (the others start in parallel)
        ready_timeout = 90 if self.nodes == 1 else 180
        for attempt in range(1, BIND_ATTEMPTS + 1):
            for port in (self.local_port, self.controller_port):
                ensure_port_free(LOOPBACK, port, "Kafka", "set KAFKA_BOOTSTRAP_SERVERS")
            log_size = self.log_path.stat().st_size if self.log_path.exists() else 0
            pid = spawn_detached(cmd, self.log_path, cwd=self.dir)
            try:
                wait_ready(lambda: self.probe(2.0), ready_timeout, self.name,
                           alive=lambda: is_alive(pid), log_path=self.log_path)  # noqa: B023
                return pid
            except StackError:
                stop_pid(pid, self.marker, 10)
                if attempt == BIND_ATTEMPTS or not self._bind_failed(log_size):
                    raise
        raise StackError(f"Kafka did not start in {BIND_ATTEMPTS} attempts")  # BIND_ATTEMPTS < 1

    def _bind_failed(self, offset: int) -> bool:
        """Whether the broker's log since ``offset`` shows a lost race for a port."""
        with open(self.log_path, "rb") as log:
            log.seek(offset)
            return b"Address already in use" in log.read()

    def wait_brokers(self, timeout: float = 180.0) -> None:
        """Wait until every node of the local cluster is a registered broker (``StackError`` if not)."""
        settings = self._client_settings(everyone=True)

        def registered() -> str | None:
            try:
                count = len(admin_client(settings, 3.0).list_topics(timeout=3.0).brokers)
            except KafkaException as exc:
                return str(exc)
            return None if count >= self.nodes else f"{count} of {self.nodes} brokers registered"

        wait_ready(registered, timeout, "the Kafka cluster")

    def after_up(self) -> str:
        if self.node_id != 1:
            return ""  # the first node prepares the cluster's topics once every node is registered
        if self.nodes > 1 and not self.external:
            self.wait_brokers()
        settings = self._client_settings(everyone=True)
        created = ensure_topics(settings)
        replication = f" (replication {settings.KAFKA_TOPIC_REPLICATION})" if self.nodes > 1 else ""
        note = f"topics created: {', '.join(created)}{replication}" if created else "topics present"
        short = fewer_partitions(settings)
        if short:  # KAFKA_TOPIC_PARTITIONS raised over an existing cluster: topics are never altered here
            note += (f"; fewer partitions than KAFKA_TOPIC_PARTITIONS={settings.KAFKA_TOPIC_PARTITIONS} "
                     "(add them: docs/operations.md \"Adding partitions\"): "
                     + ", ".join(f"{name} {have}" for name, (have, _) in sorted(short.items())))
        return note
