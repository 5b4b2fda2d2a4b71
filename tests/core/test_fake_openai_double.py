"""The OpenAI TEST DOUBLE's load profile does what the etiquette tests and benchmarks rely on."""

from __future__ import annotations

import random
import threading
import urllib.error
import urllib.request

from tests.support.fake_openai import FakeOpenAIServer, Latency, Reply


def test_lognormal_latency_has_the_asked_percentiles() -> None:
    rng = random.Random(42)
    samples = sorted(Latency.lognormal(1.0, 3.0).sample(rng) for _ in range(20000))
    assert abs(samples[10000] - 1.0) < 0.05
    assert abs(samples[19800] - 3.0) < 0.3
    assert Latency.fixed(0.2).sample(rng) == 0.2


def _post(url: str) -> tuple[int, dict[str, str]]:
    req = urllib.request.Request(url, data=b'{"model": "m", "messages": []}',
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, dict(resp.headers.items())
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers.items())


def test_429s_with_retry_after_and_the_in_flight_peak_are_counted() -> None:
    server = FakeOpenAIServer().start()
    try:
        server.chat_handler = lambda body: Reply(content="{}")
        server.configure(latency=0.3, max_in_flight=4, retry_after=2, endpoints=("chat",))
        url = f"{server.base_url}/chat/completions"
        results: list[tuple[int, dict[str, str]]] = []
        lock = threading.Lock()

        def call() -> None:
            got = _post(url)
            with lock:
                results.append(got)

        threads = [threading.Thread(target=call) for _ in range(12)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(20)
        limited = [h for status, h in results if status == 429]
        assert len(results) == 12 and limited and len(limited) == server.rate_limited
        assert all(h.get("Retry-After") == "2" for h in limited)
        assert server.max_in_flight_seen >= 5  # the 5th concurrent request was refused
        assert sum(1 for status, _ in results if status == 200) >= 4
        server.configure(error_rate=1.0, endpoints=("chat",))
        assert _post(url)[0] == 500 and server.errors_injected == 1
    finally:
        server.stop()
