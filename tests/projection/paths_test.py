"""A path is normalised as posixpath.normpath does it, with `//x` read as `/x`."""

from __future__ import annotations

import posixpath
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from guard.projection.paths import is_plumbing, normalise


def _normpath(path: str) -> str:
    norm = posixpath.normpath(path)
    return "/" + norm.lstrip("/") if norm.startswith("//") else norm


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(["/", ".", "..", "a", ".env", "..b", "\n", "/./", "//"]),
                max_size=8))
def test_normalise_is_normpath_with_one_leading_slash(parts: list[str]) -> None:
    # the common case (a path already normal) is told without normpath: each way it is not,
    # `//`, a trailing `/`, a `.` or `..` component, a relative path, goes to normpath
    path = "".join(parts)
    if path:
        assert normalise(path) == _normpath(path)
        assert normalise("/" + path) == _normpath("/" + path)


@settings(max_examples=800, deadline=None)
@given(st.lists(st.sampled_from(["/dev", "/proc", "/self", "/fd", "/3", "12", "/null", "x", "/"]),
                max_size=5))
def test_plumbing_is_the_shells_own_files_and_descriptors(parts: list[str]) -> None:
    path = "".join(parts)
    expected = path in {"/dev/null", "/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/tty",
                        "/dev/zero", "/dev/random", "/dev/urandom", "/dev/full"} or bool(
        re.fullmatch(r"/(?:dev|proc/self)/fd/\d+", path)
    )
    assert is_plumbing(path) == expected
