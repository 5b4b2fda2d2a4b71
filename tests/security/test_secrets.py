"""Credentials come only from the environment and are never logged (issue 7, "Isolation and access").

The whole service runs as real processes (``python -m cli.main -v run extractor|commands|relay|
indexer|api``, DEBUG logging) on private topics with planted secrets in every credential setting:
``API_TOKEN``, ``LLM_API_KEY``, ``MEMORY_EMBEDDING_API_KEY``, ``MEMORY_MILVUS_TOKEN`` (Milvus Lite accepts
and ignores it) and a password inside ``DATABASE_URL`` (the test PostgreSQL trusts local
connections, so the password is accepted and ignored). The LLM and embedding endpoints are the
OpenAI-compatible TEST DOUBLE, scripted to fail first (401, 500, garbage) so error paths log too.

Every process also gets ``KAFKA_CLIENT_OPTIONS`` with each sensitive librdkafka option planted
(``ssl.key.pem``, ``ssl.key.password``, ``ssl.keystore.password``, ``sasl.password``,
``sasl.oauthbearer.config``, ``sasl.oauthbearer.client.secret``: the PLAINTEXT broker ignores them,
but every Kafka client is created with them).

Traffic: chat messages (one malformed), memory commands (one rejected), the whole HTTP corpus
(bad tokens, a token in the query string, oversized bodies...) replayed against the real uvicorn
server, dense retrieval once the indexer has caught up, and a memory save whose content (personal
data, planted) makes PostgreSQL fail (a CHECK constraint added for the test): the API logs the
database error, which must name neither the bound parameter nor the row. Then
``pai-memory config show`` (also with tokens as URL user-info and key-like query parameters in
every URL setting), a configuration error that contains the database password, and
``pai-memory stack status`` against a Milvus URI with credentials that does not answer. Every
captured output is grepped for each secret (and for a distinctive fragment of it). The test also
proves the secrets were *used*: the test double saw both API keys, the API accepted the token,
PostgreSQL accepted the URL, the database refused the planted content.
"""

from __future__ import annotations

import contextlib
import json
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import Engine, make_url, select
from sqlalchemy import text as sql_text
from sqlalchemy.orm import Session

from core.config import Settings
from core.storage.models import LongTermMemory, Message
from core.vectorstore import MilvusMemoryIndex
from localstack.process import free_port, wait_until
from producers.client import MemoryEventProducer
from producers.kafka_config import client_config
from schemas import ChatMessageData, MemorySaveData
from tests.hostile.cases import load_http_cases
from tests.support.env import PIPELINE_ENV, clean_env, service_env
from tests.support.fake_openai import FakeOpenAIServer, Reply
from tests.support.pipeline import isolated_settings

pytestmark = pytest.mark.services

PROCESSES = ("extractor", "commands", "relay", "indexer", "api")
EMBED_DIM = 16
# protocol-level cases the HTTP server (uvicorn/h11) may answer before the application, without our
# error body: they must still never be a 5xx
PROTOCOL_LEVEL = {"headers_bad_content_length"}
KAFKA_SECRET_OPTIONS = ("ssl.key.pem", "ssl.key.password", "ssl.keystore.password", "sasl.password",
                        "sasl.oauthbearer.config", "sasl.oauthbearer.client.secret")
URL_PARAMS = ("api-key", "api_key", "key", "token", "access_token", "sig", "signature", "password", "secret")
DIARY_MARKER = "sec-diary-entry"  # the CHECK constraint refuses contents holding it


def planted(name: str) -> str:
    return f"planted{name}{uuid.uuid4().hex}"


def fragments(secret: str) -> list[str]:
    """The secret and distinctive 12-character pieces of it (catches truncated or partial prints)."""
    core = secret[-32:]
    return [secret, core[:12], core[10:22], core[20:]]


@contextlib.contextmanager
def login_role(engine: Engine, password: str) -> Iterator[str]:
    """A PostgreSQL login role with ``password`` and every right on the test database's tables (the local
    stack checks passwords with scram-sha-256, so a planted password must really be the role's); dropped
    at the end."""
    role = f"pai_secrets_{uuid.uuid4().hex[:8]}"
    literal = password.replace("'", "''")
    with engine.begin() as conn:
        conn.execute(sql_text(f"CREATE ROLE {role} LOGIN PASSWORD '{literal}'"))
        db_name = conn.execute(sql_text("SELECT current_database()")).scalar_one()
        for grant in (f'GRANT ALL ON DATABASE "{db_name}" TO {role}', f"GRANT ALL ON SCHEMA public TO {role}",
                      f"GRANT ALL ON ALL TABLES IN SCHEMA public TO {role}",
                      f"GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO {role}"):
            conn.execute(sql_text(grant))
    try:
        yield role
    finally:  # no new logins, end the open ones, then drop (a leftover role is harmless, never an error)
        with contextlib.suppress(Exception), engine.begin() as conn:
            conn.execute(sql_text(f"ALTER ROLE {role} NOLOGIN"))
            conn.execute(sql_text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                  "WHERE usename = :role"), {"role": role})
            conn.execute(sql_text(f"DROP OWNED BY {role}"))
            conn.execute(sql_text(f"DROP ROLE {role}"))


def child_env(cfg: Settings, secrets: dict[str, str], fake: FakeOpenAIServer, api_port: int,
              collection: str, home: Path, db_user: str) -> dict[str, str]:
    """The children's environment: the test's services with the planted credentials (``db_user`` logs
    in with the planted database password), the LLM and the embedder on the OpenAI-compatible test
    double."""
    url = make_url(cfg.database_url).set(username=db_user, password=secrets["db_password"])
    return clean_env(service_env(cfg, home, **{
        **PIPELINE_ENV,
        "DATABASE_URL": url.render_as_string(hide_password=False),
        "MEMORY_MILVUS_TOKEN": secrets["milvus"],
        "MEMORY_MILVUS_COLLECTION": collection,
        "LONG_TERM_MEMORY_RETRIEVE_MODE": "dense",
        "RETRIEVAL_DENSE_TIMEOUT_SEC": "10",
        "RETRIEVAL_DENSE_COOLDOWN_SEC": "0",
        "MEMORY_EXTRACTOR_PROVIDER": "openai",
        "LLM_BASE_URL": fake.base_url,
        "LLM_API_KEY": secrets["llm"],
        "LLM_MAX_RETRIES": "0",
        "MEMORY_MESSAGE_MAX_ATTEMPTS": "10",
        "MEMORY_EMBEDDING_PROVIDER": "openai",
        "MEMORY_EMBEDDING_BASE_URL": fake.base_url,
        "MEMORY_EMBEDDING_API_KEY": secrets["embedding"],
        "MEMORY_EMBEDDING_MODEL": "fake-embed",
        "MEMORY_EMBEDDING_DIM": str(EMBED_DIM),
        "MEMORY_EMBEDDING_MAX_RETRIES": "0",
        "API_TOKEN": secrets["api"],
        "API_PORT": str(api_port),
        "KAFKA_CLIENT_OPTIONS": json.dumps({o: secrets[o] for o in KAFKA_SECRET_OPTIONS}),
    }))


def url_secret_env(env: dict[str, str], secrets: dict[str, str], dead_port: int) -> dict[str, str]:
    """``env`` with tokens as URL user-info and key-like query parameters in every URL setting
    (Milvus at a port nothing listens on, so `stack status` reports it as not answering)."""
    params = "&".join(f"{p}={secrets['param:' + p]}" for p in URL_PARAMS)
    db = make_url(env["DATABASE_URL"]).render_as_string(hide_password=False)
    return {**env,
            "LLM_BASE_URL": f"https://{secrets['llm_url_token']}@llm.example/v1?{params}",
            "MEMORY_EMBEDDING_BASE_URL": f"https://u:{secrets['embed_url_password']}@embed.example/v1?{params}",
            "DATABASE_URL": f"{db}?password={secrets['param:password']}",
            "MEMORY_MILVUS_URI": f"http://root:{secrets['milvus_url_password']}@127.0.0.1:{dead_port}"
                                 f"?token={secrets['param:token']}"}


@pytest.fixture
def children(tmp_path: Path) -> Iterator[Callable[..., subprocess.Popen[bytes]]]:
    """``start(args, env, log_name)``: ``python -m cli.main *args`` with stdout and stderr in
    ``tmp_path/log_name``; killed at the end if the test left it running."""
    procs: list[subprocess.Popen[bytes]] = []

    def start(args: list[str], env: dict[str, str], log_name: str) -> subprocess.Popen[bytes]:
        with (tmp_path / log_name).open("wb") as out:
            proc = subprocess.Popen([sys.executable, "-m", "cli.main", *args], cwd=tmp_path, env=env,
                                    stdout=out, stderr=subprocess.STDOUT)
        procs.append(proc)
        return proc

    try:
        yield start
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)


def raw_request(port: int, method: str, target: str, headers: list[tuple[bytes, bytes]],
                body: bytes | None) -> tuple[int, bytes]:
    """Send exactly these bytes over TCP (no client-side normalisation); return (status, body)."""
    names = {k.lower() for k, _ in headers}
    lines = [f"{method} {target} HTTP/1.1".encode(), b"host: 127.0.0.1", b"connection: close"]
    lines += [k + b": " + v for k, v in headers]
    if b"content-length" not in names and body is not None:
        lines.append(b"content-length: " + str(len(body)).encode())
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(b"\r\n".join(lines) + b"\r\n\r\n")
        chunks = []
        if b"content-length" in names or len(body or b"") > 65536:
            sock.settimeout(0.5)  # the server may answer from the headers alone (413): then stop there
            try:
                chunks.append(sock.recv(65536))
            except TimeoutError:
                sock.settimeout(30)
                sock.sendall(body or b"")
            sock.settimeout(30)
        else:
            sock.sendall(body or b"")
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    head, _, payload = b"".join(chunks).partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), payload


def replay_http_corpus(port: int, token: str) -> dict[str, int]:
    """Every HTTP corpus case, byte for byte, against the real server; returns name -> status."""
    statuses: dict[str, int] = {}
    for case in load_http_cases():
        status, payload = raw_request(port, case.method, case.url(token), case.request_headers(token),
                                      case.body)
        statuses[case.name] = status
        assert status < 500, (case.name, payload[:300])
        assert token.encode() not in payload
        if case.name not in PROTOCOL_LEVEL:
            assert status == case.expect_status, (case.name, status, payload[:300])
        if status >= 400 and case.name not in PROTOCOL_LEVEL:
            assert set(json.loads(payload)) == {"error"}, (case.name, payload[:300])
    return statuses


def test_planted_secrets_never_appear_in_any_output(
    settings: Settings, clean_db: Engine, unique_name: Callable[[str], str], tmp_path: Path,
    children: Callable[..., subprocess.Popen[bytes]], request: pytest.FixtureRequest,
) -> None:
    secrets = {"api": planted("ApiToken"), "llm": "sk-" + planted("LlmKey"), "embedding": planted("EmbedKey"),
               "milvus": planted("MilvusToken"), "db_password": planted("DbPw"),
               "llm_url_token": planted("LlmUrlToken"), "embed_url_password": planted("EmbedUrlPw"),
               "milvus_url_password": planted("MilvusUrlPw"), "user_content": planted("UserDiary"),
               **{o: planted(o.replace(".", "")) for o in KAFKA_SECRET_OPTIONS},
               **{f"param:{p}": planted(p.replace("-", "").replace("_", "")) for p in URL_PARAMS}}
    fake = FakeOpenAIServer(embedding_dim=EMBED_DIM).start()
    collection = unique_name("t_secrets")
    try:
        # the LLM fails first (bad key, server error, garbage), then answers; so does the embedder
        fake.chat(status=401)
        fake.chat(status=500)
        fake.chat(raw=b"<html>not json</html>")
        fake.default_chat = Reply(content=json.dumps({"candidates": [{
            "op": "upsert", "memory_type": "fact", "key": "fact-home_city", "content": "Lives in Chengdu",
            "importance": 4, "confidence": 0.95}]}))
        fake.embedding_fault(status=401)
        cfg = isolated_settings(settings, unique_name, KAFKA_TOPIC_PARTITIONS=1)
        port = free_port()
        role_scope = login_role(clean_db, secrets["db_password"])
        role = role_scope.__enter__()
        request.addfinalizer(lambda: role_scope.__exit__(None, None, None))
        env = child_env(cfg, secrets, fake, port, collection, tmp_path, role)
        procs = {name: children(["-v", "run", name], env, f"{name}.log") for name in PROCESSES}
        # the CLI's configuration output, and a configuration error that contains the DB password
        bad_env = {**env, "DATABASE_URL": f"mysql://root:{secrets['db_password']}@127.0.0.1/x"}
        shown = children(["config", "show"], env, "config-show.out")
        broken = children(["config", "show"], bad_env, "config-error.out")
        url_env = url_secret_env(env, secrets, free_port())
        shown_urls = children(["config", "show"], url_env, "config-url-secrets.out")
        status = children(["-v", "stack", "status"], url_env, "stack-status.out")
        base = f"http://127.0.0.1:{port}"
        auth = {"Authorization": f"Bearer {secrets['api']}"}

        def api_up() -> bool:
            assert procs["api"].poll() is None, (tmp_path / "api.log").read_text()
            try:
                ready = httpx.get(f"{base}/readyz", headers=auth, timeout=2, trust_env=False)
                return ready.status_code == 200
            except httpx.TransportError:
                return False

        marks = {"start": time.monotonic()}
        wait_until(api_up, 180, what="the API answers")
        marks["api up"] = time.monotonic()  # also: PostgreSQL accepted the URL with a password

        # --- traffic, failures included ---------------------------------------------------------
        with MemoryEventProducer(cfg) as producer:
            producer.publish_message(ChatMessageData(
                message_id="sec-m1", user_id="sec-user", conversation_id="sec-c", role="user",
                content="I live in Chengdu.", created_at=time_now()))
            producer.publish_command(MemorySaveData(command_id="sec-cmd-1", user_id="sec-user", key="drink",
                                                    content="Prefers jasmine tea"))
            producer.publish_command(MemorySaveData(command_id="sec-cmd-2", user_id="sec-user",
                                                    key="weather-date_0601", content="Sunny"))  # dead letter
            producer.flush(30)
        from confluent_kafka import Producer

        raw = Producer(client_config(cfg))
        raw.produce(cfg.TOPIC_CHAT_MESSAGES, key=b"sec-user", value=b"{not json")
        raw.flush(30)

        marks["traffic published"] = time.monotonic()
        statuses = replay_http_corpus(port, secrets["api"])
        marks["http corpus"] = time.monotonic()
        assert statuses["auth_token_in_query"] == 401 and statuses["auth_wrong_token"] == 401

        def settled() -> bool:
            with Session(clean_db) as s:
                msg = s.scalar(select(Message.memory_status).where(Message.upstream_message_id == "sec-m1"))
                rows = s.execute(select(LongTermMemory.memory_key, LongTermMemory.vector_status)
                                 .where(LongTermMemory.memory_key.in_(["drink", "fact-home_city"]))).all()
            return msg == "PROCESSED" and len(rows) == 2 and {v for _, v in rows} == {"SYNCED"}

        wait_until(settled, 120, what="message extracted, command applied, both memories indexed")
        marks["settled"] = time.monotonic()

        # personal data that makes PostgreSQL fail: the API logs the error without it
        diary = f"My {DIARY_MARKER}: {secrets['user_content']}"
        with clean_db.begin() as conn:
            conn.execute(sql_text("ALTER TABLE long_term_memories ADD CONSTRAINT sec_planted_check "
                              f"CHECK (content NOT LIKE '%{DIARY_MARKER}%')"))
        try:
            refused = httpx.post(f"{base}/v1/memories/save", headers=auth, trust_env=False, timeout=30,
                                 json={"user_id": "sec-user", "key": "diary", "content": diary})
        finally:
            with clean_db.begin() as conn:
                conn.execute(sql_text("ALTER TABLE long_term_memories DROP CONSTRAINT sec_planted_check"))
        assert refused.status_code == 500, refused.text
        assert refused.json()["error"]["code"] == "internal_error"
        dense = httpx.post(f"{base}/v1/retrieve", headers=auth, trust_env=False, timeout=30,
                           json={"user_id": "sec-user", "question": "Where do I live?"}).json()
        assert dense["served_by"] == "dense", dense  # Milvus answered (with the planted token configured)
        assert {i["memory"]["key"] for i in dense["items"]} == {"drink", "fact-home_city"}

        assert shown.wait(60) == 0 and broken.wait(60) == 2 and shown_urls.wait(60) == 0
        assert status.wait(120) == 1  # Milvus does not answer
        shown_out = json.loads((tmp_path / "config-show.out").read_text())
        assert shown_out["API_TOKEN"] == "**********"
        assert set(shown_out["KAFKA_CLIENT_OPTIONS"]) == set(KAFKA_SECRET_OPTIONS)
        shown_urls_out = json.loads((tmp_path / "config-url-secrets.out").read_text())
        assert shown_urls_out["LLM_BASE_URL"].startswith("https://**********@llm.example/v1?api-key=")
        assert "milvus" in (tmp_path / "stack-status.out").read_text()
        assert "DATABASE_URL" in (tmp_path / "config-error.out").read_text()
        for proc in procs.values():
            proc.send_signal(signal.SIGTERM)
        for name, proc in procs.items():
            assert proc.wait(60) == 0, (name, (tmp_path / f"{name}.log").read_text()[-3000:])
        marks["stopped"] = time.monotonic()
        print("\n" + ", ".join(f"{k} +{v - marks['start']:.1f}s" for k, v in marks.items()))
    finally:
        fake.stop()
        index = MilvusMemoryIndex(settings.milvus_uri, collection, EMBED_DIM)
        try:
            if index.has_collection():
                index.drop_collection()
        finally:
            index.close()

    # --- the secrets reached their destinations ---------------------------------------------------
    seen = [(r.path, r.headers.get("authorization", "")) for r in fake.requests]
    assert ("/v1/chat/completions", f"Bearer {secrets['llm']}") in seen
    assert ("/v1/embeddings", f"Bearer {secrets['embedding']}") in seen

    # --- and appear nowhere ---------------------------------------------------------------------
    captured = [*tmp_path.glob("*.log"), *tmp_path.glob("*.out")]
    outputs = {p.name: p.read_text("utf-8", "replace") for p in captured}
    assert len(outputs) == len(PROCESSES) + 4
    assert all(outputs[f"{name}.log"] for name in PROCESSES)
    assert "401" in outputs["api.log"]  # the refused requests were logged...
    assert "access_token=***" in outputs["api.log"]  # ...with the query-string token redacted
    assert "IntegrityError" in outputs["api.log"]  # the database error was logged...
    assert "sec_planted_check" in outputs["api.log"]  # ...with its constraint
    leaks = {(where, which): frag for where, text in outputs.items() for which, secret in secrets.items()
             for frag in fragments(secret) if frag in text}
    assert not leaks, leaks


def time_now() -> Any:
    from datetime import UTC, datetime

    return datetime.now(UTC)
