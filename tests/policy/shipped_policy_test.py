"""The shipped policy's parsed copy says exactly what its TOML source says."""

from __future__ import annotations

import os
import subprocess
import sys

from guard.policy import shipped_policy


def test_the_parsed_copy_matches_the_toml_source() -> None:
    with open(shipped_policy.DATA, encoding="utf-8") as f:
        shipped = f.read()
    fresh = shipped_policy.data_module(shipped_policy.parse_default(),
                                       os.stat(shipped_policy.TOML).st_size)
    assert shipped == fresh, "run: python -m guard.policy.shipped_policy"


def test_the_layer_read_from_the_copy_is_the_parsed_one() -> None:
    shipped_policy.default_layer.cache_clear()
    assert shipped_policy.default_layer() == shipped_policy.parse_default()
    assert not shipped_policy.parse_default().problems


def test_checking_a_line_does_not_parse_toml_when_there_are_no_policy_files() -> None:
    code = ("import sys; from guard.verdict.judgement import judge; judge('ls', session='s'); "
            "print('tomllib' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "False", done.stderr
