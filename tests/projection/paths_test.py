"""A path is normalised as posixpath.normpath does it, with `//x` read as `/x`."""

from __future__ import annotations

import posixpath

from hypothesis import given, settings
from hypothesis import strategies as st

from guard.projection.paths import normalise


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
