"""The operator console in a real browser: headless Debian chromium driven by Selenium (chromium-driver).

The API (with the console) runs in this process under uvicorn on a free port, over the real
PostgreSQL, Kafka and Milvus Lite: memories come from a chat message through the extraction pipeline
(``MessageProcessor`` with the rules extractor) and from a tool write, and are indexed into a private
Milvus collection. Covered: login (a wrong token is refused), browsing a user's memories and a
memory's history with its source message, a re-drive of a record dead-lettered on purpose (it arrives
again on its source topic), and a search in the three modes with rerank scores. Then the console
behind a TLS-terminating reverse proxy (``tests.support.tls_proxy``, a self-signed certificate made
with ``openssl``; ``CONSOLE_TRUSTED_PROXIES`` set): the HTTPS login works, the cookie is ``Secure``, the audit
page lists the logins, and logout revokes the session server-side.

Skips (never fails) when no browser is installed: ``scripts/setup.sh`` installs ``chromium`` and
``chromium-driver`` when it can. With ``PAI_MEMORY_CONSOLE_SCREENSHOTS=DIR`` the main screens are
saved there as PNG (``docs/console/`` holds the committed ones).
"""

from __future__ import annotations

import base64
import os
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from confluent_kafka import Consumer, TopicPartition
from pydantic import SecretStr
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from api.app import build_services, create_app
from consumers.dlq import DeadLetterPublisher
from consumers.runtime import Record
from core.config import RetrieveMode, Settings
from core.embedding.local import LocalE5Embedder
from core.extraction.rules import RulesExtractor
from core.indexing import MemoryIndexer
from core.memory.processing import MessageProcessor
from core.memory.store import IncomingMessage
from core.memory.tools import ToolWrite
from core.storage.db import session_factory
from core.storage.models import LongTermMemory
from core.vectorstore import MilvusMemoryIndex
from localstack.process import free_port
from producers.kafka_config import client_config

pytestmark = pytest.mark.services

TOKEN = "tok-console-browser-93be1d-planted"
USER = "console-alice"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
SHOTS = os.environ.get("PAI_MEMORY_CONSOLE_SCREENSHOTS")

webdriver = pytest.importorskip("selenium.webdriver",
                                reason="selenium is not installed (pip install -e .[test])")
if CHROMIUM is None or DRIVER is None:
    pytest.skip("no chromium/chromedriver: apt-get install chromium chromium-driver (scripts/setup.sh tries)",
                allow_module_level=True)

from selenium.common.exceptions import StaleElementReferenceException, WebDriverException  # noqa: E402
from selenium.webdriver.chrome.service import Service as ChromeService  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.remote.webelement import WebElement  # noqa: E402
from selenium.webdriver.support import expected_conditions  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


@dataclass
class Console:
    url: str
    cfg: Settings


@pytest.fixture
def console(settings: Settings, clean_db: Engine, unique_name: Callable[[str], str]) -> Iterator[Console]:
    collection = unique_name("t_console")
    cfg = settings.model_copy(update={
        "API_TOKEN": SecretStr(TOKEN), "MEMORY_MILVUS_COLLECTION": collection, "MEMORY_MILVUS_ENABLED": True,
        "LONG_TERM_MEMORY_RETRIEVE_MODE": RetrieveMode.DENSE, "RETRIEVAL_DENSE_TIMEOUT_SEC": 60.0,
        "API_PORT": free_port()})
    embedder = LocalE5Embedder()
    sessions = session_factory(clean_db)
    indexer = MemoryIndexer(sessions, embedder, MilvusMemoryIndex.from_settings(cfg, dim=embedder.dim))
    indexer.start()
    services = build_services(cfg)
    server = uvicorn.Server(uvicorn.Config(create_app(cfg, services), host="127.0.0.1", port=cfg.API_PORT,
                                           log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, name="console-api", daemon=True)
    try:
        # memories from a chat message (extraction pipeline) and from a tool write
        processor = MessageProcessor(cfg, sessions, RulesExtractor(), None)
        msg = processor.ingest(IncomingMessage("console-m1", USER, "console-c1", "user",
                                               "I live in Lisbon. I love jazz music.", datetime.now(UTC)))
        processor.process([msg.message_pk])
        services.tools.memory_save(ToolWrite(USER, "movies", "Loves romantic comedies", "preference", 4,
                                             0.95, None, None, None))
        with Session(clean_db) as s:
            ids = list(s.scalars(select(LongTermMemory.id)))
        assert len(ids) >= 2
        indexer.sync(ids)
        thread.start()
        deadline = time.monotonic() + 60
        while not server.started:
            assert thread.is_alive() and time.monotonic() < deadline, "the API did not start"
            time.sleep(0.1)
        yield Console(f"http://127.0.0.1:{cfg.API_PORT}", cfg)
    finally:
        server.should_exit = True
        thread.join(30)
        indexer.index.drop_collection()
        indexer.close()


@pytest.fixture
def browser() -> Iterator[WebDriver]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1400,1000", "--disable-extensions"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=ChromeService(executable_path=DRIVER), options=options)
    driver.set_page_load_timeout(120)
    driver.implicitly_wait(20)  # elements of the next page: a click may return before its navigation ends
    try:
        yield driver
    finally:
        driver.quit()


def shot(driver: WebDriver, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        png = driver.execute_cdp_cmd("Page.captureScreenshot",
                                     {"format": "png", "captureBeyondViewport": True})
        (Path(SHOTS) / f"{name}.png").write_bytes(base64.b64decode(png["data"]))


def login(driver: WebDriver, url: str, token: str) -> None:
    """Submit the login form and wait for the answer page (a click returns before the navigation)."""
    driver.get(f"{url}/console/login")
    driver.find_element(By.ID, "token").send_keys(token)
    button = driver.find_element(By.ID, "login")
    button.click()
    WebDriverWait(driver, 30).until(_gone(button))


def _gone(element: WebElement) -> Callable[[WebDriver], bool]:
    """``expected_conditions.staleness_of``, also when Chrome says so as "Node with given id does not
    belong to the document" (a plain WebDriverException, seen once in a fresh-clone run)."""
    def check(_: WebDriver) -> bool:
        try:
            element.is_enabled()
        except StaleElementReferenceException:
            return True
        except WebDriverException as error:
            if "does not belong to the document" in str(error):
                return True
            raise
        return False
    return check


def cells(driver: WebDriver, table_id: str) -> list[str]:
    return [td.text for td in driver.find_elements(By.CSS_SELECTOR, f"#{table_id} td")]


def test_login_browse_history_redrive_and_search(console: Console, browser: WebDriver) -> None:
    url, cfg = console.url, console.cfg
    browser.get(f"{url}/console/users")
    assert browser.find_elements(By.ID, "token"), "an anonymous visit shows the login form"
    shot(browser, "login")
    login(browser, url, "not-the-token")
    assert "wrong token" in browser.find_element(By.ID, "login-error").text
    assert not browser.get_cookies()
    login(browser, url, TOKEN)
    assert browser.current_url == f"{url}/console/users"
    cookie = next(c for c in browser.get_cookies() if c["name"] == "pai_console")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict" and TOKEN not in cookie["value"]
    assert TOKEN not in browser.current_url
    shot(browser, "users")

    # browse: user -> memories -> a memory's history with its source message
    browser.find_element(By.LINK_TEXT, USER).click()
    text = browser.find_element(By.ID, "memories").text
    assert "movies" in text and "Loves romantic comedies" in text and "SYNCED" in text
    extracted = [a for a in browser.find_elements(By.CSS_SELECTOR, "#memories td a") if "Lisbon" in
                 a.find_element(By.XPATH, "../..").text]
    assert extracted, text
    shot(browser, "memories")
    extracted[0].click()
    history = browser.find_element(By.ID, "history").text
    assert "create" in history and "console-m1" in history
    assert "I live in Lisbon. I love jazz music." in history
    shot(browser, "memory_history")
    browser.get(f"{url}/console/users/{USER}/messages")
    assert "PROCESSED" in browser.find_element(By.ID, "messages").text
    shot(browser, "messages")

    # a record dead-lettered on purpose, re-driven from the operations page
    value = b'{"not": "a memory command"}'
    record = Record(cfg.TOPIC_MEMORY_COMMANDS, 0, 7, USER.encode(), value, (("trace", b"t-1"),),
                    1_700_000_000_000)
    DeadLetterPublisher(cfg, cfg.GROUP_COMMANDS).send(record, reason="InvalidEvent: planted by the test",
                                                      error_type="InvalidEvent")
    browser.get(f"{url}/console/ops")
    dlq = browser.find_element(By.ID, f"dlq-{cfg.GROUP_COMMANDS}")
    assert "planted by the test" in dlq.text and "InvalidEvent" in dlq.text
    assert cfg.GROUP_EXTRACTOR in browser.find_element(By.ID, "lag").text
    shot(browser, "operations")
    dlq.find_element(By.CSS_SELECTOR, "button.redrive").click()
    notice = browser.find_element(By.ID, "notice").text
    assert f"to {cfg.TOPIC_MEMORY_COMMANDS} partition" in notice, notice
    partition, offset = (int(x) for x in notice.rsplit(" partition ", 1)[1].split(" offset "))
    assert redriven(cfg, partition, offset) == (USER.encode(), value, b"t-1")

    # search: one question, three modes side by side, with the rerank scores
    browser.get(f"{url}/console/search?user_id={USER}")
    browser.find_element(By.ID, "question").send_keys("Any film suggestions for a cozy night in?")
    browser.find_element(By.ID, "search").click()
    served = {mode: browser.find_element(By.CSS_SELECTOR, f"#result-{mode} .served-by").text
              for mode in ("dense", "full_inject", "lexical")}
    assert served == {"dense": "dense", "full_inject": "full_inject", "lexical": "lexical_fallback"}
    top = browser.find_element(By.CSS_SELECTOR, "#result-dense tr:nth-child(2)").text
    assert "movies" in top, top
    scores = [float(td.text) for td in browser.find_elements(By.CSS_SELECTOR, "#result-dense td.score")]
    assert scores and scores == sorted(scores, reverse=True) and all(0 < s <= 1 for s in scores)
    assert browser.find_elements(By.CSS_SELECTOR, "#result-lexical td.score")
    shot(browser, "search")


def redriven(cfg: Settings, partition: int, offset: int) -> tuple[Any, Any, Any]:
    """Key, value and ``trace`` header of the record at ``partition``/``offset`` of the commands topic."""
    consumer = Consumer({**client_config(cfg), "group.id": f"console-test-{time.time_ns()}",
                         "enable.auto.commit": False})
    try:
        consumer.assign([TopicPartition(cfg.TOPIC_MEMORY_COMMANDS, partition, offset)])
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            msg = consumer.poll(1.0)
            if msg is not None and msg.error() is None:
                headers = dict(msg.headers() or [])
                assert headers["pai-redriven-from"].decode().startswith(cfg.dlq_topic(cfg.GROUP_COMMANDS))
                return msg.key(), msg.value(), headers.get("trace")
        raise AssertionError("the re-driven record did not arrive")
    finally:
        consumer.close()


@pytest.fixture
def console_behind_tls(settings: Settings, clean_db: Engine, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """The console (no Milvus) under uvicorn, behind the test's TLS-terminating proxy on 127.0.0.1.

    Yields (https URL through the proxy, http URL of the API itself)."""
    from tests.support.tls_proxy import TlsProxy, self_signed_cert

    try:
        cert, key = self_signed_cert(tmp_path)
    except (FileNotFoundError, subprocess.CalledProcessError) as exc:
        pytest.skip(f"cannot make a test certificate with openssl: {exc}")
    cfg = settings.model_copy(update={"API_TOKEN": SecretStr(TOKEN), "MEMORY_MILVUS_ENABLED": False,
                                      "API_PORT": free_port(), "CONSOLE_TRUSTED_PROXIES": "127.0.0.1/32"})
    server = uvicorn.Server(uvicorn.Config(create_app(cfg), host="127.0.0.1", port=cfg.API_PORT,
                                           log_level="warning", lifespan="on", proxy_headers=False))
    thread = threading.Thread(target=server.run, name="console-tls-api", daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the API did not start"
        time.sleep(0.1)
    proxy = TlsProxy(free_port(), cfg.API_PORT, cert, key).start()
    try:
        yield f"https://localhost:{proxy.port}", f"http://127.0.0.1:{cfg.API_PORT}"
    finally:
        proxy.stop()
        server.should_exit = True
        thread.join(30)


@pytest.fixture
def tls_browser() -> Iterator[WebDriver]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1400,1000", "--disable-extensions", "--ignore-certificate-errors"):
        options.add_argument(arg)
    options.accept_insecure_certs = True  # the proxy's certificate is self-signed
    driver = webdriver.Chrome(service=ChromeService(executable_path=DRIVER), options=options)
    driver.set_page_load_timeout(120)
    driver.implicitly_wait(20)
    try:
        yield driver
    finally:
        driver.quit()


def test_behind_a_tls_proxy_login_secure_cookie_logout_revokes(console_behind_tls: tuple[str, str],
                                                               tls_browser: WebDriver) -> None:
    """Through HTTPS: the login's Origin (https://...) is accepted, the cookie is Secure, and after
    logout the old cookie value no longer opens a page (revoked server-side, not only deleted)."""
    import httpx

    url, direct = console_behind_tls
    login(tls_browser, url, "not-the-token")
    assert "wrong token" in tls_browser.find_element(By.ID, "login-error").text
    login(tls_browser, url, TOKEN)
    assert tls_browser.current_url == f"{url}/console/users", tls_browser.page_source[-500:]
    cookie = next(c for c in tls_browser.get_cookies() if c["name"] == "pai_console")
    assert cookie["secure"] and cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    value = cookie["value"]
    tls_browser.get(f"{url}/console/audit")
    audit = tls_browser.find_element(By.ID, "audit").text
    assert "console.login" in audit and "ok" in audit and "failed" in audit and "127.0.0.1" in audit
    tls_browser.find_element(By.CSS_SELECTOR, "header form button").click()
    WebDriverWait(tls_browser, 30).until(expected_conditions.url_to_be(f"{url}/console/login"))
    tls_browser.get(f"{url}/console/users")
    assert tls_browser.find_elements(By.ID, "token"), "after logout the login form is shown"
    replay = httpx.get(f"{direct}/console/users", cookies={"pai_console": value}, timeout=30)
    assert replay.status_code == 401 and 'name="token"' in replay.text
