"""`guard watch --web`: the human answers from a phone's browser; the agent cannot.

Real parts throughout: `guard watch --web` in a pseudo-terminal (pexpect), Debian's Chromium
driven by Playwright at a phone's viewport, and agents that are real `guarded-bash -c` calls in
sessions of their own (no terminal, stdin /dev/null), each writing a marker outside the
workspace (which asks). The marker proves what ran. One browser serves the whole module; each
test has its own approver and its own browser contexts (cookie jars).
"""

from __future__ import annotations

import hashlib
import http.server
import json
import os
import re
import shutil
import signal
import ssl
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pexpect
import pytest

playwright_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = "/usr/bin/chromium"
if not os.path.exists(CHROMIUM):
    if os.environ.get("CI"):  # .ci/run installs it: a CI without it must not pass quietly
        raise RuntimeError(f"{CHROMIUM} is missing: .ci/run should have installed chromium")
    pytest.skip("Debian's chromium is not installed (.ci/run installs it)", allow_module_level=True)

expect = playwright_api.expect
BIN = Path(sys.executable).parent
GUARD = [sys.executable, "-m", "guard"]
# docs/agents.md shows the page as this module's first test sees it; it is written there when
# WATCH_WEB_SCREENSHOT=1 (each run's paths differ: a plain run leaves the checkout alone)
SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "watch-web.png"
SCREENSHOT_SET = "WATCH_WEB_SCREENSHOT"
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
         "is_mobile": True, "has_touch": True}  # fmt: skip
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
WAIT = 15_000  # ms


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


@dataclass
class Approver:
    human: pexpect.spawn
    env: dict[str, str]
    workspace: Path
    outside: Path
    pair: str  # the pair: URL the terminal printed
    base: str
    said: str  # what the terminal printed before it

    def agent(self, command: str) -> subprocess.Popen[str]:
        """An agent's shell call through guarded-bash: no terminal, stdin /dev/null."""
        return subprocess.Popen(
            [str(BIN / "guarded-bash"), "-c", command],
            env=self.env,
            cwd=str(self.workspace),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )

    def marker(self, name: str) -> Path:
        return self.outside / name


@pytest.fixture
def approver() -> Iterator[Approver]:
    with started() as a:
        yield a


@contextmanager
def started(*args: str) -> Iterator[Approver]:
    runtime = Path(tempfile.mkdtemp(prefix="gw", dir="/tmp"))  # socket paths must stay short
    workspace, outside = runtime / "project", runtime / "outside"
    workspace.mkdir()
    outside.mkdir()
    env = dict(os.environ)
    env.update(
        GUARD_WORKSPACE=str(workspace),
        GUARD_APPROVER_SOCKET=str(runtime / "approver.sock"),
        GUARD_APPROVER_CONTROL=str(runtime / "control.sock"),
        TERM="xterm",
    )
    human = pexpect.spawn(
        GUARD[0], [*GUARD[1:], "watch", "--web", *args], env=env, cwd=str(workspace),
        encoding="utf-8", dimensions=(60, 160), timeout=20,
    )  # fmt: skip
    human.delaybeforesend = None
    human.expect(r"pair: (\S+)")
    pair = human.match.group(1)
    base = pair.split("pair?")[0]
    try:
        yield Approver(human, env, workspace, outside, pair, base, human.before)
    finally:
        if human.isalive():  # SIGTERM: a key could land while a new request is shown
            human.kill(signal.SIGTERM)
            human.expect("guard watch: stopped")
            human.expect(pexpect.EOF)
        shutil.rmtree(runtime, ignore_errors=True)


def paired(browser: Any, a: Approver, **extra: Any) -> Any:
    page = browser.new_context(**PHONE, **extra).new_page()
    page.goto(a.pair)
    expect(page.locator("#link")).not_to_have_text("connecting…", timeout=WAIT)  # live
    return page


def finish(p: subprocess.Popen[str]) -> tuple[int, str]:
    _out, err = p.communicate(timeout=30)
    return p.returncode, err


def test_a_paired_phone_sees_the_request_and_allowing_once_runs_it(
    browser: Any, approver: Approver, tmp_path: Path
) -> None:
    page = paired(browser, approver)
    expect(page.locator("#request")).to_contain_text("No request is waiting")
    approver.human.expect("it works once")
    approver.human.expect("█▀▀▀▀▀█|▀▀▀▀▀▀▀")  # the link as a QR code, below it
    approver.human.expect("paired a browser at 127.0.0.1")
    target = approver.marker("ran")
    waiting = approver.agent(f"touch {target} && echo made")
    command = page.locator("#command")
    expect(command).to_contain_text(f"touch {target}", timeout=WAIT)
    expect(command.locator("mark")).to_contain_text(str(target))  # the part that asks
    expect(page.locator("#request")).to_contain_text("request #1 (1 of 1) via guarded-bash")
    expect(page.locator("#left")).to_contain_text(re.compile(r"denied in \d+ s"))
    expect(page.locator("dl.where")).to_contain_text(str(approver.workspace))
    where = SCREENSHOT if os.environ.get(SCREENSHOT_SET) == "1" else tmp_path / "page.png"
    shot = page.screenshot(path=str(where))
    assert shot.startswith(b"\x89PNG")
    page.locator('button[data-key="y"]').click()
    code, err = finish(waiting)
    assert (code, target.exists()) == (0, True), err
    expect(page.locator("#request")).to_contain_text("No request is waiting", timeout=WAIT)
    expect(page.locator("#events")).to_contain_text("allowed once")
    approver.human.expect("allowed once")  # the terminal says it too
    log = subprocess.run(
        [*GUARD, "log", "--json"], env=approver.env, capture_output=True, text=True, check=True
    )
    rows = [json.loads(line) for line in log.stdout.splitlines()]
    assert any(r.get("how") == "approver-web" and r.get("decision") == "allow" for r in rows)


def test_deny_at_the_page_refuses_the_line_with_its_reason(
    browser: Any, approver: Approver
) -> None:
    page = paired(browser, approver)
    target = approver.marker("denied")
    markup = "<img src=x onerror=document.title='ran'>"  # shown as text, never as markup
    waiting = approver.agent(f"echo \"{markup}\" > {target}")
    expect(page.locator("#command")).to_contain_text(markup, timeout=WAIT)
    assert page.locator("#command img").count() == 0 and page.title() == "guard watch"
    page.locator('button[data-key="n"]').click()
    code, err = finish(waiting)
    assert code != 0
    assert "denied by the human at the approver" in err
    assert not target.exists()
    expect(page.locator("#events")).to_contain_text("denied by the human", timeout=WAIT)


def test_an_unpaired_browser_and_the_agents_curl_cannot_answer(
    browser: Any, approver: Approver
) -> None:
    target = approver.marker("never")
    waiting = approver.agent(f"touch {target}")
    approver.human.expect("request #1 ")
    stranger = browser.new_context(**PHONE).new_page()
    shown = stranger.goto(approver.base)
    assert shown is not None and shown.status == 403
    expect(stranger.locator("#refused")).to_contain_text("not paired")
    tried = stranger.request.post(
        approver.base + "answer",
        data=json.dumps({"id": 1, "key": "y"}),
        headers={"Content-Type": "application/json", "Origin": approver.base.rstrip("/")},
    )
    assert tried.status == 403
    # the agent's side: curl straight at the port (no guard in between), as a script would
    answer = ["-X", "POST", "-H", "Content-Type: application/json", "-d", '{"id":1,"key":"y"}']
    for extra in ([], ["-H", "X-CSRF-Token: guess", "-b", "guard_watch=guess"]):
        curl = subprocess.run(
            ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", *answer, *extra,
             approver.base + "answer"],
            capture_output=True, text=True, timeout=10, start_new_session=True,
        )  # fmt: skip
        assert curl.stdout == "403"
    approver.human.expect("refused an answer without a paired browser")
    assert waiting.poll() is None  # still waiting: nobody answered it
    # and through guard, a line that talks to the port is itself a question for the human
    port = approver.base.rsplit(":", 1)[1].strip("/")
    sneaky = approver.agent(f"curl -s -d '{{\"id\":1,\"key\":\"y\"}}' http://127.0.0.1:{port}/answer")
    approver.human.expect("#2 waits too")
    page = paired(browser, approver)
    page.locator('#tabs button[data-id="2"]').click()
    expect(page.locator("ul.why")).to_contain_text("talks to the approver's web page")
    assert sneaky.poll() is None
    waiting.kill()
    sneaky.kill()


def test_a_second_request_waits_while_the_first_is_shown(
    browser: Any, approver: Approver
) -> None:
    page = paired(browser, approver)
    first, second = approver.marker("first"), approver.marker("second")
    one = approver.agent(f"touch {first}")
    expect(page.locator("#command")).to_contain_text(str(first), timeout=WAIT)
    two = approver.agent(f"touch {second}")
    expect(page.locator("#tabs button")).to_have_count(2, timeout=WAIT)
    expect(page.locator("#command")).to_contain_text(str(first))  # the shown one stays
    expect(page.locator("#request")).to_contain_text("(1 of 2)")
    page.locator('button[data-key="y"]').click()
    assert finish(one)[0] == 0
    expect(page.locator("#command")).to_contain_text(str(second), timeout=WAIT)
    always = page.locator('button[data-key="a"]')
    always.click()  # a lasting answer: the first tap only asks to confirm
    expect(always).to_contain_text("tap again to confirm")
    page.wait_for_timeout(400)
    assert two.poll() is None
    always.click()
    code, err = finish(two)
    assert (code, first.exists(), second.exists()) == (0, True, True), err


def test_a_pairing_code_works_once(browser: Any, approver: Approver) -> None:
    paired(browser, approver)
    approver.human.expect("paired a browser")
    again = browser.new_context(**PHONE).new_page()
    shown = again.goto(approver.pair)
    assert shown is not None and shown.status == 403
    expect(again.locator("#refused")).to_contain_text("wrong or already used")
    assert again.goto(approver.base) is not None
    expect(again.locator("#refused")).to_contain_text("not paired")
    approver.human.expect("wrong or already used")


def test_https_on_request_shows_the_fingerprint_and_the_cookie_stays_secure(browser: Any) -> None:
    with started("--https") as a:
        assert a.base.startswith("https://127.0.0.1:")
        shown = re.search(r"SHA-256 fingerprint: ([0-9A-F:]{95})", a.said)
        assert shown is not None, a.said
        port = int(a.base.rsplit(":", 1)[1].strip("/"))
        served = ssl.get_server_certificate(("127.0.0.1", port))
        digest = hashlib.sha256(ssl.PEM_cert_to_DER_cert(served)).hexdigest().upper()
        assert shown.group(1).replace(":", "") == digest
        page = paired(browser, a, ignore_https_errors=True)
        (cookie,) = page.context.cookies()
        assert (cookie["secure"], cookie["httpOnly"], cookie["sameSite"]) == (True, True, "Strict")
        insecure = a.base.replace("https", "http")
        plain = subprocess.run(
            ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", insecure],
            capture_output=True, text=True, timeout=10,
        )  # fmt: skip
        assert plain.stdout != "200"  # no plain HTTP beside it


def test_the_webhook_hears_of_each_request_without_a_secret() -> None:
    heard: list[str] = []
    arrived = threading.Event()

    class Hook(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            heard.append(self.rfile.read(length).decode())
            self.send_response(200)
            self.end_headers()
            arrived.set()

        def log_message(self, *_args: object) -> None:
            pass

    hook = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hook)
    threading.Thread(target=hook.serve_forever, daemon=True).start()
    config = Path(os.environ["GUARD_CONFIG"])
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(
        f'[approver]\nnotify = "http://127.0.0.1:{hook.server_address[1]}/guard"\n'
    )
    try:
        with started() as a:
            target = a.marker("hooked")
            waiting = a.agent(f"touch {target}")
            assert arrived.wait(20)
            waiting.kill()
    finally:
        hook.shutdown()
        hook.server_close()
    (text,) = heard
    assert f"touch {target}" in text
    assert f"write {target}" in text  # why it asks
    assert a.base in text  # where to answer
    code = a.pair.split("code=")[1]
    assert code not in text and "pair" not in text


def served_fingerprint(base: str) -> str:
    port = int(base.rsplit(":", 1)[1].strip("/"))
    served = ssl.get_server_certificate(("127.0.0.1", port))
    digest = hashlib.sha256(ssl.PEM_cert_to_DER_cert(served)).hexdigest().upper()
    return ":".join(digest[i : i + 2] for i in range(0, len(digest), 2))


def test_beyond_loopback_only_https_is_served_and_the_port_file_goes_with_it() -> None:
    with started("--listen", "0.0.0.0:0") as a:
        assert a.base.startswith("https://")
        assert f"fingerprint: {served_fingerprint(a.base)}" in a.said
        port = a.base.rsplit(":", 1)[1].strip("/")
        where = Path(a.env["GUARD_APPROVER_SOCKET"] + ".web")
        assert where.read_text() == f"{port}\n"
        key = Path(os.environ["GUARD_STATE_DIR"]) / "web" / "key.pem"
        assert key.stat().st_mode & 0o077 == 0
        plain = subprocess.run(
            ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", f"http://127.0.0.1:{port}/"],
            capture_output=True, text=True, timeout=10,
        )  # fmt: skip
        assert plain.stdout != "200"
        a.human.kill(signal.SIGTERM)
        a.human.expect(pexpect.EOF)
        assert not where.exists()


def test_a_certificate_of_the_users_own_is_served(tmp_path: Path) -> None:
    from guard.asking.web.tls import make_self_signed

    cert, key = tmp_path / "mine.pem", tmp_path / "mine.key"
    make_self_signed("127.0.0.1", str(cert), str(key))
    with started("--cert", str(cert), "--key", str(key)) as a:
        assert a.base.startswith("https://127.0.0.1:")
        assert f"fingerprint: {served_fingerprint(a.base)}" in a.said
    assert not (Path(os.environ["GUARD_STATE_DIR"]) / "web").exists()  # none made
