"""A word names a local path unless it is a URL (`scheme://…`) or `host:path`."""

from __future__ import annotations

import pytest

from guard.languages.arguments import is_local_path, looks_like_path


@pytest.mark.parametrize(
    ("word", "local"),
    [
        ("src/a.py", True),
        ("/etc/hosts", True),
        ("/x://y", False),
        ("./host:path", True),
        ("~/a:b", True),
        ("host:path", False),
        ("user@host:/srv", False),
        ("https://example.org/x", False),
        ("git+ssh://h/r", False),
        ("a/b:c", True),  # a slash before the colon: not host:path
        ("plain", True),
        ("", False),
    ],
)
def test_a_word_is_local_unless_a_url_or_host_path(word: str, local: bool) -> None:
    assert is_local_path(word) is local


def test_remote_words_are_not_paths_to_read() -> None:
    assert looks_like_path("src/x")
    assert not looks_like_path("host:src/x")
    assert not looks_like_path("https://h/x")
