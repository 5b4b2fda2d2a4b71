"""LLM extraction provider over any OpenAI-compatible chat endpoint (name ``"openai"``).

Contract (``core.extraction.candidates.CandidateExtractor``):
- Deadlines: inside a ``core.extraction.burst.burst_scope`` (``MessageProcessor`` opens one per
  burst with ``LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC``) every request, retry, back-off and wait of
  ``extract`` and ``refine`` together ends by the burst's deadline; outside one, each stage has its
  own deadline of ``timeout`` seconds. Each HTTP request is also bounded by ``call_timeout``
  (``LLM_CALL_TIMEOUT_SEC``) and its reply by ``max_tokens`` (``LLM_MAX_OUTPUT_TOKENS``): a small
  model that keeps generating inside a JSON grammar cannot hold a request for minutes.
- Retries: a stage makes at most ``max_retries + 1`` failed attempts (malformed reply, timeout,
  connection failure, HTTP 5xx/408/409), with exponential back-off between them. ``429`` replies are
  not counted as attempts: they wait their ``Retry-After`` (capped at ``retry_after_max``; the pause
  applies to every thread of the process) or a back-off, and fail with the reason when the wait would
  pass the deadline.
- Concurrency: every request holds a slot of the provider's ``AdaptiveLimiter`` (``core.concurrency``:
  AIMD between 1 and ``LLM_MAX_CONCURRENCY``, cut on 429/timeouts/503, grown slowly on success), so
  the worker threads that share this provider never exceed what the endpoint accepts.
- Replies are structured output (read and schema in ``core.extraction.replies``, whose
  ``parse_candidates`` and ``strict_json_schema`` are importable from here): ``response_format``
  ``json_schema`` derived from ``CandidateList.model_json_schema()``; an endpoint that rejects it
  (HTTP 400) is asked again with ``json_object`` and then with no ``response_format`` (remembered
  for later calls).
- A reply that is not a JSON object/list of candidates is malformed and retried; after the last
  attempt, or on timeout or another HTTP error, ``ExtractionError`` is raised (with the reason).
  Individual candidates that fail validation (e.g. an unknown memory type) are dropped, not retried.
- ``close()`` cancels: waiting or retrying calls raise ``ExtractionCancelled`` at once.
- Token usage of every request is added to ``usage``, to the current burst's scope and passed to
  ``on_usage`` if given. Requests are counted in ``pai_memory_llm_requests_total{stage,outcome}``.

Thread-safe; no network in the constructor.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import SecretStr

from core import metrics
from core.concurrency import AdaptiveLimiter, DeadlineExceeded, LimiterClosed, Signal, retry_after_seconds
from core.config import Settings
from core.extraction.burst import current_burst
from core.extraction.candidates import (
    CandidateList,
    ExtractionCancelled,
    ExtractionError,
    ExtractionInput,
    MemoryCandidate,
)
from core.extraction.prompts import (
    EXTRACT_SYSTEM_PROMPT,
    REFINE_SYSTEM_PROMPT,
    extract_user_prompt,
    refine_user_prompt,
)
from core.extraction.replies import MalformedReply
from core.extraction.replies import parse_candidates as parse_candidates
from core.extraction.replies import strict_json_schema as strict_json_schema

log = logging.getLogger(__name__)

_NO_KEY = "no-key"
_OPENAI: Any = None  # the ``openai`` module, imported on first use


def _openai_module() -> Any:
    """The ``openai`` package, imported once: an ``import`` statement in the per-call path takes the
    interpreter's module lock on every call, which 32 threads in flight contend for."""
    global _OPENAI
    if _OPENAI is None:
        import openai

        _OPENAI = openai
    return _OPENAI


_RESPONSE_MODES = ("json_schema", "json_object", "none")


@dataclass
class TokenUsage:
    """Cumulative usage reported by the endpoint."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


UsageCallback = Callable[[str, int, int], None]  # (stage, prompt_tokens, completion_tokens)


class OpenAIExtractor:
    """Stage 1 and 2 over an OpenAI-compatible chat completions endpoint (thread-safe: build one per
    process and share it between worker threads, so they share one ``AdaptiveLimiter``)."""

    name = "openai"

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        base_url: str | None = None,
        model: str | None = None,
        api_key: SecretStr | None = None,
        timeout: float | None = None,
        call_timeout: float | None = None,
        max_retries: int | None = None,
        max_context_chars: int | None = None,
        max_concurrency: int | None = None,
        retry_after_max: float | None = None,
        max_output_tokens: int | None = None,
        backoff_base: float = 0.5,
        backoff_max: float = 8.0,
        temperature: float | None = 0.0,
        on_usage: UsageCallback | None = None,
        limiter: AdaptiveLimiter | None = None,
    ) -> None:
        """From ``settings`` (``LLM_*``, ``LONG_TERM_MEMORY_EXTRACT_*``), keyword arguments overriding."""
        if settings is not None:
            base_url = base_url or settings.LLM_BASE_URL
            model = model or settings.LLM_MODEL
            api_key = api_key if api_key is not None else settings.LLM_API_KEY
            timeout = timeout if timeout is not None else settings.LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC
            call_timeout = call_timeout if call_timeout is not None else settings.LLM_CALL_TIMEOUT_SEC
            max_retries = max_retries if max_retries is not None else settings.LLM_MAX_RETRIES
            if max_context_chars is None:
                max_context_chars = settings.LONG_TERM_MEMORY_EXTRACT_CONTEXT_MAX_CHARS
            if max_concurrency is None:
                max_concurrency = settings.LLM_MAX_CONCURRENCY
            if retry_after_max is None:
                retry_after_max = settings.LLM_RETRY_AFTER_MAX_SEC
            if max_output_tokens is None:
                max_output_tokens = settings.LLM_MAX_OUTPUT_TOKENS
        if not base_url or not model:
            raise ValueError("the openai extraction provider needs LLM_BASE_URL and LLM_MODEL")
        timeout = 90.0 if timeout is None else timeout
        call_timeout = timeout if call_timeout is None else call_timeout
        max_retries = 3 if max_retries is None else max_retries
        if timeout <= 0 or call_timeout <= 0 or max_retries < 0:
            raise ValueError("timeout and call_timeout must be > 0, max_retries >= 0")
        self.base_url = base_url
        self.model = model
        self._api_key = api_key
        self.timeout = timeout
        self.call_timeout = call_timeout
        self.max_retries = max_retries
        self.max_context_chars = 8000 if max_context_chars is None else max_context_chars
        self.backoff_base = backoff_base
        self.backoff_max = backoff_max
        self.temperature = temperature
        self.max_output_tokens = max_output_tokens  # None: the endpoint's default
        self.on_usage = on_usage
        self.usage = TokenUsage()
        self.dropped_candidates = 0  # invalid items removed from otherwise valid replies
        self._mode_index = 0  # into _RESPONSE_MODES; advances when the endpoint rejects a mode
        self._lock = threading.Lock()
        self._client: Any = None
        self._schema = strict_json_schema(CandidateList.model_json_schema())
        self.limiter = limiter or AdaptiveLimiter(
            32 if max_concurrency is None else max_concurrency, client="llm",
            max_pause=60.0 if retry_after_max is None else retry_after_max)

    @classmethod
    def from_settings(cls, settings: Settings, on_usage: UsageCallback | None = None) -> OpenAIExtractor:
        return cls(settings, on_usage=on_usage)

    # --- the CandidateExtractor protocol ---------------------------------------------------------
    def extract(self, data: ExtractionInput) -> list[MemoryCandidate]:
        """Stage 1: candidates from ``data.user_message`` (context is for judgement only)."""
        if not data.user_message.strip():
            return []
        return self._complete("extract", EXTRACT_SYSTEM_PROMPT,
                              extract_user_prompt(data, self.max_context_chars))

    def refine(self, data: ExtractionInput, candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
        """Stage 2: keep / merge / reuse key / drop each candidate against ``data.existing``.

        With no candidates, or no existing memories to judge against, returns ``candidates``
        unchanged without a call (stage 1 already applied the boundaries). A bare retraction
        ("算了，不考研了") is a stage-1 ``delete`` candidate (the extraction prompt's retraction family),
        which refine maps to the existing key (and the upsert falls back to its semantic twin).
        """
        if not candidates or not data.existing:
            return list(candidates)
        return self._complete("refine", REFINE_SYSTEM_PROMPT,
                              refine_user_prompt(data, candidates, self.max_context_chars))

    def close(self) -> None:
        """Cancel: calls waiting for a slot, a pause or a back-off raise ``ExtractionCancelled`` at once,
        no new request starts, and a request in flight ends with ``ExtractionCancelled`` when it
        returns (at the latest after ``call_timeout``). Idempotent."""
        self.limiter.close()
        with self._lock:
            client, self._client = self._client, None
        if client is not None:
            try:
                client.close()
            except Exception as exc:  # best effort at shutdown: never raise from close
                log.debug("closing the LLM client: %s", exc)

    # --- plumbing --------------------------------------------------------------------------------
    def warm_up(self) -> None:
        """Import the ``openai`` package and build the client now (at process start): the import costs
        about a second of CPU, which the first burst would otherwise pay."""
        self._get_client()

    def _get_client(self) -> Any:
        client = self._client
        if client is not None and not self.limiter.closed:  # built once: no lock on the per-call path
            return client
        with self._lock:
            if self.limiter.closed:
                raise ExtractionCancelled("the LLM provider was closed")
            if self._client is None:
                openai = _openai_module()
                key = self._api_key.get_secret_value() if self._api_key is not None else _NO_KEY
                self._client = openai.OpenAI(base_url=self.base_url, api_key=key or _NO_KEY,
                                             timeout=self.call_timeout, max_retries=0)
            return self._client

    def _response_format(self) -> dict[str, Any] | None:
        mode = _RESPONSE_MODES[self._mode_index]
        if mode == "json_schema":
            return {"type": "json_schema",
                    "json_schema": {"name": "candidate_list", "schema": self._schema, "strict": True}}
        if mode == "json_object":
            return {"type": "json_object"}
        return None

    def _backoff(self, attempt: int) -> float:
        return min(self.backoff_max, self.backoff_base * (2 ** attempt)) * (0.8 + 0.4 * random.random())

    def _complete(self, stage: str, system: str, user: str) -> list[MemoryCandidate]:
        """One stage: requests until a readable reply, within the burst's (or this stage's) deadline.

        Failed attempts (malformed reply, timeout, connection error, 5xx) count toward ``max_retries``;
        ``429`` replies do not: they wait their ``Retry-After`` (capped, shared with every thread)
        or a back-off, as long as the deadline allows.
        """
        openai = _openai_module()
        client = self._get_client()
        scope = current_burst()
        deadline = scope.deadline if scope is not None else time.monotonic() + self.timeout
        budget = scope.timeout if scope is not None else self.timeout
        attempt = 0  # failed attempts so far (429s excluded)
        rate_limited = 0
        last_error = "no attempt made"
        while True:
            if deadline - time.monotonic() <= 0:
                raise ExtractionError(f"{stage}: timed out after {budget:g}s ({last_error})")
            try:
                permit = self.limiter.acquire(deadline)
            except DeadlineExceeded:
                raise ExtractionError(f"{stage}: timed out after {budget:g}s waiting for the endpoint "
                                      f"({last_error})") from None
            except LimiterClosed:
                raise ExtractionCancelled(f"{stage}: cancelled (the provider was closed)") from None
            # the request body as the endpoint reads it, posted by the client's own ``post`` (retries, errors
            # and the response model as ``chat.completions.create``) without the SDK's per-call transform of
            # its arguments, which walks every message and the JSON schema (about a third of the client's CPU)
            body: dict[str, Any] = {
                "model": self.model,
                "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
            }
            if self.temperature is not None:
                body["temperature"] = self.temperature
            if self.max_output_tokens is not None:  # a reply cut at the limit is malformed: retried
                body["max_tokens"] = self.max_output_tokens
            response_format = self._response_format()
            if response_format is not None:
                body["response_format"] = response_format
            timeout = max(0.01, min(self.call_timeout, deadline - time.monotonic()))
            signal, outcome = Signal.NEUTRAL, "error"
            wait: float | None = None  # a Retry-After the endpoint asked for
            counted = True  # does this failure count toward max_retries?
            started = time.perf_counter()
            try:
                resp = client.post("/chat/completions", cast_to=openai.types.chat.ChatCompletion, body=body,
                                   options={"timeout": timeout})
                signal = Signal.OK
                self._record_usage(stage, resp)
                content = resp.choices[0].message.content if resp.choices else None
                candidates, dropped = parse_candidates(content)
                outcome = "ok"
                if dropped:
                    with self._lock:
                        self.dropped_candidates += dropped
                return candidates
            except openai.APIStatusError as exc:
                if _rejects_format(exc, response_format) and self._mode_index < len(_RESPONSE_MODES) - 1:
                    with self._lock:
                        if _RESPONSE_MODES[self._mode_index] == response_format["type"]:  # type: ignore[index]
                            self._mode_index += 1
                    log.warning("endpoint rejected response_format %s (HTTP %d: %s); falling back to %s",
                                response_format["type"], exc.status_code,  # type: ignore[index]
                                exc.message[:300], _RESPONSE_MODES[self._mode_index])
                    continue  # not counted as an attempt
                if isinstance(exc, openai.BadRequestError):
                    raise ExtractionError(f"{stage}: endpoint rejected the request: {exc.message}") from exc
                if isinstance(exc, openai.RateLimitError):
                    signal, outcome, counted = Signal.OVERLOAD, "rate_limited", False
                    wait = retry_after_seconds(_headers(exc))
                    last_error = "rate limited (HTTP 429)"
                elif isinstance(exc, openai.InternalServerError):
                    if exc.status_code == 503:
                        signal = Signal.OVERLOAD
                        wait = retry_after_seconds(_headers(exc))
                    last_error = f"HTTP {exc.status_code}: {exc.message}"
                elif exc.status_code in (408, 409):
                    signal = Signal.OVERLOAD if exc.status_code == 408 else Signal.NEUTRAL
                    last_error = f"HTTP {exc.status_code}"
                else:
                    raise ExtractionError(f"{stage}: endpoint answered HTTP {exc.status_code}: "
                                          f"{exc.message}") from exc
            except openai.APITimeoutError as exc:
                signal, outcome = Signal.OVERLOAD, "timeout"
                last_error = "timeout"
                if deadline - time.monotonic() <= 0.05:
                    raise ExtractionError(f"{stage}: timed out after {budget:g}s") from exc
            except openai.APIConnectionError as exc:
                last_error = f"{type(exc).__name__}: {exc}"
            except openai.OpenAIError as exc:
                raise ExtractionError(f"{stage}: request failed: {type(exc).__name__}: {exc}") from exc
            except MalformedReply as exc:
                outcome = "malformed"
                last_error = f"malformed reply: {exc}"
                log.info("%s: malformed reply on attempt %d: %s", stage, attempt + 1, exc)
            except ValueError as exc:
                # HTTP 200 whose body is not JSON at all: the client raises json.JSONDecodeError, which
                # is not an openai.OpenAIError. Same as a malformed reply: retried, then ExtractionError,
                # so a broken endpoint fails one burst instead of escaping and ending the extractor process.
                outcome = "malformed"
                last_error = f"unreadable reply body: {type(exc).__name__}"
                log.info("%s: unreadable reply body on attempt %d: %s", stage, attempt + 1, exc)
            except RuntimeError as exc:  # httpx, when close() closed the client under this request
                if not self.limiter.closed:
                    raise ExtractionError(f"{stage}: request failed: {type(exc).__name__}: {exc}") from exc
                last_error = "cancelled"
            finally:
                self.limiter.release(permit, signal)
                if self.limiter.closed and outcome != "ok":
                    outcome = "cancelled"
                metrics.LLM_REQUESTS.labels(self.name, stage, outcome).inc()
                if signal is Signal.OK:
                    elapsed = time.perf_counter() - started
                    metrics.LLM_REQUEST_DURATION.labels(self.name, stage).observe(elapsed)
            if self.limiter.closed:
                raise ExtractionCancelled(f"{stage}: cancelled (the provider was closed); last: {last_error}")
            if counted:
                if attempt >= self.max_retries:
                    raise ExtractionError(f"{stage}: failed after {attempt + 1} attempts: {last_error}")
                attempt += 1
                pause = self._backoff(attempt - 1)
            else:
                rate_limited += 1
                pause = self._backoff(min(rate_limited - 1, 6))
            if wait is not None:  # the endpoint said when: honour it for every thread of the process
                pause = min(max(wait, 0.05), self.limiter.max_pause)
                if time.monotonic() + pause >= deadline:
                    raise ExtractionError(f"{stage}: {last_error}: the endpoint asks to retry after "
                                          f"{wait:g}s, past the deadline ({budget:g}s)")
                self.limiter.pause(pause)
                pause = 0.0  # acquire() waits for the pause
            metrics.MODEL_RETRIES.labels("llm", outcome).inc()
            try:
                self.limiter.sleep(max(0.0, min(pause, deadline - time.monotonic())))
            except LimiterClosed:
                raise ExtractionCancelled(f"{stage}: cancelled (the provider was closed); "
                                          f"last: {last_error}") from None

    def _record_usage(self, stage: str, resp: Any) -> None:
        usage = getattr(resp, "usage", None)
        prompt = int(getattr(usage, "prompt_tokens", 0) or 0)
        completion = int(getattr(usage, "completion_tokens", 0) or 0)
        with self._lock:
            self.usage.calls += 1
            self.usage.prompt_tokens += prompt
            self.usage.completion_tokens += completion
        scope = current_burst()
        if scope is not None:
            scope.add_usage(prompt, completion)
        if self.on_usage is not None:
            self.on_usage(stage, prompt, completion)


def _rejects_format(exc: Any, response_format: dict[str, Any] | None) -> bool:
    """Did the endpoint refuse the request because of ``response_format``? A 400 always counts (as
    before); a 422 or 500 counts when its message names ``response_format`` (llama-cpp-python's
    server answers a ``json_schema`` format with a 500 validation error)."""
    if response_format is None:
        return False
    status = getattr(exc, "status_code", None)
    if status == 400:
        return True
    return status in (422, 500) and "response_format" in str(getattr(exc, "message", "") or exc)


def _headers(exc: Any) -> dict[str, str]:
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    return dict(headers.items()) if headers is not None else {}
