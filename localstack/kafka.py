"""Apache Kafka, single node in KRaft mode, from the official broker jars.

The jars (``org.apache.kafka:kafka_2.13`` and its runtime dependencies, plus a log4j2 binding) are
resolved once by Maven into ``<cache>/kafka-<version>/libs`` and run with the machine's Java 17+.
The broker listens on loopback only; data lives in ``<PAI_MEMORY_HOME>/kafka``.
"""

from __future__ import annotations

import base64
import os
import re
import shutil
import subprocess
import uuid
from pathlib import Path

from core.config import LOCAL_KAFKA_PORT, Settings
from localstack.base import LOOPBACK, Service
from localstack.process import (
    StackError,
    ensure_port_free,
    is_alive,
    log_hint,
    spawn_detached,
    stop_pid,
    wait_ready,
)
from localstack.topics import ensure_topics, kafka_probe

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


class KafkaService(Service):
    name = "kafka"
    marker = "kafka.Kafka"

    @property
    def external(self) -> bool:
        return self.settings.KAFKA_BOOTSTRAP_SERVERS.strip() != self._default_local_address()

    @staticmethod
    def _default_local_address() -> str:
        return f"{LOOPBACK}:{LOCAL_KAFKA_PORT}"

    @property
    def address(self) -> str:
        return self.settings.KAFKA_BOOTSTRAP_SERVERS if self.external else f"{LOOPBACK}:{self.ports.kafka}"

    @property
    def local_port(self) -> int:
        return self.ports.kafka

    def _client_settings(self) -> Settings:
        return self.settings.model_copy(update={"KAFKA_BOOTSTRAP_SERVERS": self.address})

    def probe(self, timeout: float = 3.0) -> str | None:
        return kafka_probe(self._client_settings(), timeout)

    def server_properties(self) -> str:
        data = self.dir / "data"
        return "\n".join([
            "process.roles=broker,controller",
            "node.id=1",
            f"controller.quorum.voters=1@{LOOPBACK}:{self.ports.kafka_controller}",
            f"listeners=PLAINTEXT://{LOOPBACK}:{self.ports.kafka},CONTROLLER://{LOOPBACK}:{self.ports.kafka_controller}",
            f"advertised.listeners=PLAINTEXT://{LOOPBACK}:{self.ports.kafka}",
            "controller.listener.names=CONTROLLER",
            "inter.broker.listener.name=PLAINTEXT",
            "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
            f"log.dirs={data}",
            "num.partitions=1",
            "default.replication.factor=1",
            "min.insync.replicas=1",
            "offsets.topic.replication.factor=1",
            "offsets.topic.num.partitions=12",
            "transaction.state.log.replication.factor=1",
            "transaction.state.log.min.isr=1",
            "transaction.state.log.num.partitions=4",
            "share.coordinator.state.topic.replication.factor=1",
            "share.coordinator.state.topic.min.isr=1",
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
            fmt = subprocess.run(
                [java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", f"-Dlog4j2.configurationFile={log4j}",
                 "-cp", classpath, "kafka.tools.StorageTool",
                 "format", "-t", new_cluster_id(), "-c", str(props)],
                capture_output=True, text=True, timeout=120)
            if fmt.returncode != 0:
                output = (fmt.stderr or fmt.stdout).strip()[-500:]
                raise StackError(f"formatting the Kafka storage failed: {output}")
        cmd = [java, *JVM_OPTIONS, f"-Dlog4j2.configurationFile={log4j}", f"-Dkafka.logs.dir={self.dir}",
               "-cp", classpath, "kafka.Kafka", str(props)]
        for attempt in range(1, BIND_ATTEMPTS + 1):
            for port in (self.ports.kafka, self.ports.kafka_controller):
                ensure_port_free(LOOPBACK, port, "Kafka", "set KAFKA_BOOTSTRAP_SERVERS")
            log_size = self.log_path.stat().st_size if self.log_path.exists() else 0
            pid = spawn_detached(cmd, self.log_path, cwd=self.dir)
            try:
                wait_ready(lambda: self.probe(2.0), 90, "Kafka", alive=lambda: is_alive(pid),  # noqa: B023
                           log_path=self.log_path)
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

    def after_up(self) -> str:
        created = ensure_topics(self._client_settings())
        return f"topics created: {', '.join(created)}" if created else "topics present"
