"""Secrets never printed (issue 11 item 3): ``config show``, ``repr``/``str`` of the settings, log records.

Every kind of secret is planted with a distinct value: ``SecretStr`` settings, each sensitive
librdkafka option in ``KAFKA_CLIENT_OPTIONS``, URL user-info (``user:pass@`` and ``https://TOKEN@``)
and key-like query parameters in every URL setting. Each output is grepped for every value.
"""

from __future__ import annotations

import io
import json
import logging
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, text

from core.config import ConfigError, Settings, load_settings
from core.redaction import (
    MASK,
    RedactingFilter,
    describe_db_error,
    mask_url,
    one_line_error,
    redact_credentials,
    redact_text,
)
from core.storage.db import make_engine
from producers.kafka_config import client_config

ROOT = Path(__file__).resolve().parents[2]
KAFKA_SECRET_OPTIONS = ("ssl.key.pem", "ssl.key.password", "ssl.keystore.password", "sasl.password",
                        "sasl.oauthbearer.config", "sasl.oauthbearer.client.secret")
SECRET_SETTINGS = ("LLM_API_KEY", "MEMORY_EMBEDDING_API_KEY", "KAFKA_SASL_PASSWORD", "MEMORY_MILVUS_TOKEN",
                   "API_TOKEN")
URL_PARAMS = ("api-key", "api_key", "key", "token", "access_token", "sig", "signature", "password", "secret")


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> dict[str, str]:
    """An environment without any pai-memory variable, run from an empty folder (no .env)."""
    for name in Settings.model_fields:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    return {k: v for k, v in os.environ.items() if k.upper() not in Settings.model_fields}


def planted(kind: str) -> str:
    return f"Pl4nt{kind.replace('.', '').replace('-', '').replace('_', '')}{uuid.uuid4().hex[:12]}"


@pytest.fixture
def secrets_env() -> tuple[dict[str, str], dict[str, str]]:
    """(environment with every kind of secret planted, label -> planted value)."""
    s: dict[str, str] = {}
    for name in SECRET_SETTINGS:
        s[name] = planted(name)
    for option in KAFKA_SECRET_OPTIONS:
        s[option] = planted(option)
    for param in URL_PARAMS:
        s[f"param:{param}"] = planted(param)
    s["db_password"] = planted("dbpw")
    s["llm_userinfo_token"] = planted("llmtok")
    s["milvus_password"] = planted("milvuspw")
    params = "&".join(f"{p}={s[f'param:{p}']}" for p in URL_PARAMS[:5])
    more = "&".join(f"{p}={s[f'param:{p}']}" for p in URL_PARAMS[5:])
    env = {
        "LLM_BASE_URL": f"https://{s['llm_userinfo_token']}@llm.example/v1?{params}&model=m",
        "MEMORY_EMBEDDING_BASE_URL": f"https://embed.example/v1?{more}",
        "DATABASE_URL": f"postgresql://app:{s['db_password']}@db.example:5432/pai",
        "MEMORY_MILVUS_URI": f"http://root:{s['milvus_password']}@milvus.example:19530",
        "KAFKA_CLIENT_OPTIONS": json.dumps({**{o: s[o] for o in KAFKA_SECRET_OPTIONS}, "client.id": "cid",
                                            "sasl.mechanism": "PLAIN"}),
        **{n: s[n] for n in SECRET_SETTINGS},
    }
    return env, s


def leaks(text_: str, secrets: dict[str, str]) -> dict[str, str]:
    return {label: value for label, value in secrets.items() if value in text_ or value[-12:] in text_}


def test_config_show_masks_every_kind_of_secret(secrets_env: tuple[dict[str, str], dict[str, str]],
                                                clean_env: dict[str, str]) -> None:
    env, secrets = secrets_env
    result = subprocess.run([sys.executable, "-m", "cli.main", "config", "show"],
                            env={**clean_env, **env, "PYTHONPATH": str(ROOT)}, cwd=os.getcwd(),
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert not leaks(result.stdout + result.stderr, secrets)
    shown = json.loads(result.stdout)
    options = shown["KAFKA_CLIENT_OPTIONS"]
    assert {o: options[o] for o in KAFKA_SECRET_OPTIONS} == dict.fromkeys(KAFKA_SECRET_OPTIONS, MASK)
    assert options["client.id"] == "cid" and options["sasl.mechanism"] == "PLAIN"  # the rest stays readable
    assert shown["LLM_BASE_URL"].startswith(f"https://{MASK}@llm.example/v1?api-key={MASK}&")
    assert shown["LLM_BASE_URL"].endswith("&model=m")
    assert shown["MEMORY_MILVUS_URI"] == f"http://root:{MASK}@milvus.example:19530"
    assert shown["effective"]["database_url"] == f"postgresql+psycopg://app:{MASK}@db.example:5432/pai"


def test_repr_and_str_of_settings_mask_every_kind_of_secret(
        secrets_env: tuple[dict[str, str], dict[str, str]], monkeypatch: pytest.MonkeyPatch) -> None:
    env, secrets = secrets_env
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    settings = load_settings(_env_file=None)
    assert client_config(settings)["sasl.oauthbearer.config"] == secrets["sasl.oauthbearer.config"]
    for shown in (repr(settings), str(settings), f"{settings!r}", repr({"cfg": settings})):
        assert not leaks(shown, secrets), shown
    assert "client.id" in repr(settings) and "cid" in repr(settings)


def test_configuration_errors_mask_url_tokens(clean_env: dict[str, str]) -> None:
    token, key = planted("tok"), planted("key")
    with pytest.raises(ConfigError) as err:
        load_settings(_env_file=None, LLM_BASE_URL=f"ftp://{token}@llm.example/v1?api-key={key}")
    assert "LLM_BASE_URL" in str(err.value)
    assert token not in str(err.value) and key not in str(err.value)


@pytest.mark.parametrize(("url", "expected"), [
    ("https://TOKEN123@host.example/v1", f"https://{MASK}@host.example/v1"),
    ("https://u:p4ssw0rd@host.example/v1", f"https://u:{MASK}@host.example/v1"),
    ("postgresql+psycopg://postgres@127.0.0.1:5432/db", "postgresql+psycopg://postgres@127.0.0.1:5432/db"),
    ("https://h.example/v1?api-key=abc&model=x", f"https://h.example/v1?api-key={MASK}&model=x"),
    ("https://h.example/v1?sig=abc;signature=def#access_token=ghi",
     f"https://h.example/v1?sig={MASK};signature={MASK}#access_token={MASK}"),
    ("https://h.example/v1?Api%5FKey=abc&limit=5", f"https://h.example/v1?Api%5FKey={MASK}&limit=5"),
    ("http://h.example:bad/x?token=t", f"http://h.example:bad/x?token={MASK}"),
    ("unix:///tmp/milvus.sock", "unix:///tmp/milvus.sock"),
])
def test_mask_url(url: str, expected: str) -> None:
    assert mask_url(url) == expected
    assert mask_url(mask_url(url)) == expected  # idempotent


def test_redact_text_finds_urls_and_bearer_tokens_in_free_text() -> None:
    line = ("POST 'https://TOK9876543@api.example/v1/chat?api_key=K12345678' failed: 401; "
            "headers {'Authorization': 'Bearer sk-abcdef123456'}")
    out = redact_text(line)
    for secret in ("TOK9876543", "K12345678", "sk-abcdef123456"):
        assert secret not in out
    assert "api.example/v1/chat" in out and "401" in out


@pytest.fixture
def captured() -> Iterator[tuple[logging.Logger, io.StringIO]]:
    """A logger whose handler carries the product's redacting filter (as ``install_log_redaction`` does)."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    handler.addFilter(RedactingFilter())
    logger = logging.getLogger(f"test.redaction.{uuid.uuid4().hex}")
    logger.propagate = False
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    yield logger, stream
    logger.removeHandler(handler)


def test_log_records_mask_urls_in_messages_arguments_and_exceptions(
        captured: tuple[logging.Logger, io.StringIO]) -> None:
    logger, stream = captured
    token, key = planted("urltok"), planted("qkey")
    url = f"https://{token}@llm.example/v1?api-key={key}"
    logger.warning("calling %s", url)
    logger.info(f"inline {url}")
    try:
        raise ConnectionError(f"cannot reach {url}")
    except ConnectionError:
        logger.exception("LLM call failed")
    out = stream.getvalue()
    assert out.count("llm.example/v1") == 3 and "ConnectionError" in out and "Traceback" in out
    assert token not in out and key not in out


def test_registered_secret_values_are_masked_wherever_they_appear(
        captured: tuple[logging.Logger, io.StringIO], monkeypatch: pytest.MonkeyPatch) -> None:
    logger, stream = captured
    pem = planted("pem")
    monkeypatch.setenv("KAFKA_CLIENT_OPTIONS", json.dumps({"ssl.key.pem": pem}))
    load_settings(_env_file=None)  # registers the secrets it holds
    logger.error("librdkafka said: bad key %s in %r", pem[:-1] + pem[-1], {"x": pem})
    assert pem not in stream.getvalue() and MASK in stream.getvalue()


def test_database_errors_are_logged_without_bound_parameters_or_row_details(
        engine: Engine, captured: tuple[logging.Logger, io.StringIO]) -> None:
    """A real PostgreSQL error whose parameters and DETAIL quote user content: the product's engine
    (``hide_parameters``) and the filter leave only the class, SQLSTATE and constraint."""
    logger, stream = captured
    content = "my secret diary entry " + planted("content")
    product_engine = make_engine(engine.url.render_as_string(hide_password=False), pool_size=1)
    try:
        with product_engine.connect() as conn:
            conn.execute(text("CREATE TEMP TABLE diary (id int, body text CHECK (body NOT LIKE '%diary%'))"))
            with pytest.raises(Exception) as caught:
                conn.execute(text("INSERT INTO diary VALUES (1, :body)"), {"body": content})
    finally:
        product_engine.dispose()
    exc = caught.value
    assert "parameters hidden" in str(exc)  # hide_parameters is on in the product's engines
    assert content in str(exc)  # ...but PostgreSQL's DETAIL still quotes the failing row
    logger.error("insert failed: %s", exc)
    try:
        raise RuntimeError("while saving") from exc
    except RuntimeError:
        logger.exception("database error")
    out = stream.getvalue()
    assert content not in out and content[-12:] not in out
    assert "IntegrityError" in out and "sqlstate=23514" in out and "diary_body_check" in out
    assert describe_db_error(exc).startswith("IntegrityError (psycopg.errors.CheckViolation)")


def test_uncaught_exceptions_are_redacted(tmp_path: Path, clean_env: dict[str, str]) -> None:
    token = planted("uncaught")
    script = ("import logging, threading\n"
              "from core.redaction import install_log_redaction\n"
              "logging.basicConfig()\n"
              "install_log_redaction()\n"
              "def fail():\n"
              f"    raise OSError('https://{token}@h.example/x')\n"
              "t = threading.Thread(target=fail)\n"
              "t.start(); t.join()\n"
              f"raise ValueError('see https://h.example/?token={token}')\n")
    result = subprocess.run([sys.executable, "-c", script], env={**clean_env, "PYTHONPATH": str(ROOT)},
                            cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert "OSError" in result.stderr and "ValueError" in result.stderr and "h.example" in result.stderr
    assert token not in result.stdout + result.stderr


def test_settings_has_no_unmasked_secret_field() -> None:
    """Every field typed ``SecretStr`` shows as the mask; a new secret field cannot be forgotten."""
    from pydantic import SecretStr

    values = {n: SecretStr(planted(n)) for n, f in Settings.model_fields.items()
              if "SecretStr" in str(f.annotation)}
    assert len(values) >= 6
    settings = Settings(_env_file=None, **{n: v.get_secret_value() for n, v in values.items()
                                           if n != "DATABASE_URL"})
    shown = settings.masked()
    assert all(shown[n] == MASK for n in values if n != "DATABASE_URL")


@pytest.mark.parametrize(("text", "expected"), [
    ("connect to postgresql+psycopg://postgres@127.0.0.1:5432/db failed",
     f"connect to postgresql+psycopg://{MASK}@127.0.0.1:5432/db failed"),
    ("http://root:p4ssw0rd@milvus.example:19530 refused", f"http://{MASK}@milvus.example:19530 refused"),
    ("https://TOKEN123@h.example/v1?api-key=abc", f"https://{MASK}@h.example/v1?api-key={MASK}"),
    ("http://milvus.example:19530 timed out", "http://milvus.example:19530 timed out"),
])
def test_redact_credentials_masks_every_url_user_info_whole(text: str, expected: str) -> None:
    assert redact_credentials(text) == expected
    assert redact_credentials(expected) == expected  # idempotent


def test_one_line_error_is_one_masked_line_capped() -> None:
    exc = ConnectionError("cannot reach\n  http://root:p4ssw0rd@milvus.example:19530\n" + "x" * 400)
    line = one_line_error(exc)
    assert line.startswith(f"cannot reach http://{MASK}@milvus.example:19530 x")
    assert "\n" not in line and "p4ssw0rd" not in line and len(line) == 300
    assert len(one_line_error(exc, limit=20)) == 20
