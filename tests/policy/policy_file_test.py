"""The rules an `a` or `p` answer appends are found again as they were written, and one taken
out leaves every other byte of the file as it was, with the file as it was in FILE.bak."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from guard.approvals.arity import Choice
from guard.errors import GuardError
from guard.policy.parse import parse_policy
from guard.policy.policy_file import append_rules, appended_rules, remove_appended

OWN = '# my own rules\n[[rules]]\nsurface = "command"\npattern = "make *"\naction = "allow"\n'


def rule(surface: str, pattern: str, access: str | None = None) -> Choice:
    return Choice(surface, pattern, access, f"{surface} {pattern}")


def test_appended_rules_are_found_with_what_they_allow(tmp_path: Path) -> None:
    path = tmp_path / "policy.toml"
    path.write_text(OWN)
    append_rules(str(path), [rule("command", "git push *")], command="git push origin main")
    append_rules(str(path), [rule("external_directory", "/srv/data/**", "read")],
                 command="cat /srv/data/x")  # fmt: skip
    found = appended_rules(str(path))
    assert [(r.surface, r.pattern, r.access, r.asked_by) for r in found] == [
        ("command", "git push *", None, "git push origin main"),
        ("external_directory", "/srv/data/**", "read", "cat /srv/data/x"),
    ]
    assert found[0].line == 7 and len({r.id for r in found}) == 2
    assert all(r.id.startswith("r") and len(r.id) == 7 for r in found)


def test_a_block_the_user_edited_is_theirs_and_not_listed(tmp_path: Path) -> None:
    path = tmp_path / "policy.toml"
    append_rules(str(path), [rule("command", "git push *"), rule("command", "npm run *")],
                 command="x")  # fmt: skip
    text = path.read_text().replace('pattern = "npm run *"\n',
                                    'pattern = "npm run *"\nreason = "mine now"\n')  # fmt: skip
    path.write_text(text)
    assert [r.pattern for r in appended_rules(str(path))] == ["git push *"]


def test_taking_one_out_keeps_everything_else_and_a_backup(tmp_path: Path) -> None:
    path = tmp_path / "policy.toml"
    path.write_text(OWN)
    os.chmod(path, 0o640)
    append_rules(str(path), [rule("command", "git push *")], command="git push")
    after_first = path.read_text()
    append_rules(str(path), [rule("command", "npm run *")], command="npm run build")
    before = path.read_text()
    first, second = appended_rules(str(path))
    removed, backup = remove_appended(str(path), second.id)
    assert removed == second
    assert path.read_text() == after_first
    assert Path(backup).read_text() == before and backup == f"{path}.bak"
    assert os.stat(backup).st_mode & 0o777 == 0o600 and os.stat(path).st_mode & 0o777 == 0o640
    remove_appended(str(path), first.id)
    assert path.read_text() == OWN
    parsed = parse_policy(path.read_text(), source=str(path), kind="user", workspace=None,
                          home=str(tmp_path))  # fmt: skip
    assert (len(parsed.rules), parsed.problems) == (1, ())
    with pytest.raises(GuardError, match=f"has no rule {first.id}; nothing was changed"):
        remove_appended(str(path), first.id)


def test_an_id_stays_the_same_when_the_file_changes_around_it(tmp_path: Path) -> None:
    path = tmp_path / "policy.toml"
    append_rules(str(path), [rule("command", "git push *")], command="git push")
    (before,) = appended_rules(str(path))
    path.write_text(OWN + "\n" + path.read_text())
    (after,) = appended_rules(str(path))
    assert (after.id, after.line) == (before.id, before.line + 6)


_APPENDER = """
import sys
from guard.approvals.arity import Choice
from guard.policy.policy_file import append_rules
path, count = sys.argv[1], int(sys.argv[2])
for n in range(count):
    append_rules(path, [Choice("command", f"new-{n} *", None, "")], command=f"new-{n}")
"""


def test_an_always_answered_while_a_rule_is_revoked_is_kept(tmp_path: Path) -> None:
    """`guard approvals revoke` in one terminal while another answers "always": the revoke
    reads the file, takes its rule out and writes the file back, and an append in between
    would be lost (real processes racing)."""
    import subprocess
    import sys

    path = tmp_path / "policy.toml"
    path.write_text(OWN)
    for n in range(60):
        append_rules(str(path), [rule("command", f"old-{n} *")], command=f"old-{n}")
    old = {r.pattern: r.id for r in appended_rules(str(path))}
    appender = subprocess.Popen([sys.executable, "-c", _APPENDER, str(path), "150"])
    try:
        for n in range(60):
            remove_appended(str(path), old[f"old-{n} *"])
    finally:
        assert appender.wait(timeout=120) == 0
    patterns = [r.pattern for r in appended_rules(str(path))]
    assert patterns == [f"new-{n} *" for n in range(150)]
    assert path.read_text().startswith(OWN)
