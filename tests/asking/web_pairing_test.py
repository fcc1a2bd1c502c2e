"""Who may answer at `guard watch --web`'s page: pairing codes, sessions, CSRF tokens, and
where the page must be HTTPS. The clock is passed in."""

from __future__ import annotations

import pytest

from guard.asking.web.pairing import CODE_SECONDS, FAILURES, WINDOW, Pairing
from guard.asking.web.web_approver import needs_tls, parse_listen
from guard.errors import GuardError


def test_a_code_pairs_once() -> None:
    p = Pairing()
    code = p.new_code(0.0)
    first = p.pair(code.text, 1.0, "127.0.0.1")
    again = p.pair(code.text, 2.0, "127.0.0.1")
    assert first.session is not None and p.session(first.session.token, 3.0) == first.session
    assert again.session is None and "wrong or already used" in again.problem


def test_a_late_code_pairs_nobody_and_is_spent() -> None:
    p = Pairing()
    code = p.new_code(0.0)
    late = p.pair(code.text, CODE_SECONDS + 1, "127.0.0.1")
    assert late.session is None and "expired" in late.problem
    assert p.pair(code.text, CODE_SECONDS + 2, "127.0.0.1").session is None
    assert p.code_expired(CODE_SECONDS + 2)  # none works: the approver prints a new one


def test_a_code_expires() -> None:
    p = Pairing()
    p.new_code(0.0)
    assert not p.code_expired(CODE_SECONDS - 1)
    assert p.code_expired(CODE_SECONDS)


def test_a_new_code_voids_the_one_before() -> None:
    p = Pairing()
    old = p.new_code(0.0)
    p.new_code(1.0)
    assert p.pair(old.text, 2.0, "127.0.0.1").session is None


def test_wrong_codes_are_rate_limited_even_before_the_right_one() -> None:
    p = Pairing()
    code = p.new_code(0.0)
    for i in range(FAILURES):
        assert p.pair(f"guess{i}", 1.0 + i, "127.0.0.1").session is None
    blocked = p.pair(code.text, 10.0, "127.0.0.1")
    assert blocked.session is None and "too many" in blocked.problem
    assert p.pair(code.text, 10.0 + WINDOW + 1, "127.0.0.1").session is not None


def test_answers_need_the_cookie_and_its_own_csrf_token() -> None:
    p = Pairing()
    s = p.pair(p.new_code(0.0).text, 1.0, "127.0.0.1").session
    other = p.pair(p.new_code(2.0).text, 3.0, "127.0.0.1").session
    assert s is not None and other is not None
    assert p.may_answer(s.token, s.csrf, 4.0)
    assert not p.may_answer(s.token, None, 4.0)
    assert not p.may_answer(s.token, "", 4.0)
    assert not p.may_answer(s.token, other.csrf, 4.0)  # another browser's token
    assert not p.may_answer(None, s.csrf, 4.0)
    assert not p.may_answer("forged", s.csrf, 4.0)
    assert not p.may_answer(s.token, s.csrf + "é", 4.0)  # not ASCII: refused, no crash


@pytest.mark.parametrize(
    ("listen", "https"),
    [
        ("127.0.0.1:0", False),
        ("localhost:8765", False),
        ("[::1]:0", False),
        ("0.0.0.0:8765", True),
        ("192.0.2.7:8765", True),
        ("phone-lan.example:8765", True),
    ],
)
def test_beyond_loopback_the_page_is_https_only(listen: str, https: bool) -> None:
    host, _port = parse_listen(listen)
    assert needs_tls(host, cert=None, force=False) is https
    assert needs_tls(host, cert=None, force=True) is True


@pytest.mark.parametrize("listen", ["8765", "127.0.0.1", "127.0.0.1:x", ":8765", "h:70000"])
def test_listen_is_host_and_port(listen: str) -> None:
    with pytest.raises(GuardError, match="--listen takes HOST:PORT"):
        parse_listen(listen)
