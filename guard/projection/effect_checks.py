"""Named checks for what words and options cannot say: SQL in an argument, a `+ref` in a
push, the user `sudo -u` names, the command `docker exec` runs. A row of
guard/knowledge/commands/ (its record) names one in `check`; each returns the target (and a reason
when it knows a better one) or None.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from guard.knowledge import FIND_NARROWING, Effect, Tool, command_for, find_deleter
from guard.languages import Parsed, given
from guard.projection.bounded_glob import is_pattern
from guard.projection.interpreter_effects import remote_code
from guard.projection.walk_records import Arg, Stdin
from guard.projection.walker import Walker, dynamic


class Found(NamedTuple):
    target: str
    reason: str = ""  # "" keeps the row's reason
    whole: bool = True  # False: it destroys some of what it touches (`find ~ -name x -delete`)


class EffectCall(NamedTuple):
    w: Walker
    argv: list[Arg]
    parsed: Parsed
    stdin: Stdin | None
    depth: int
    name: str


def _git_checkout_paths(c: EffectCall, row: Effect) -> Found | None:
    """`git checkout [REV] PATH…` overwrites the paths' uncommitted changes, told from
    `git checkout BRANCH` as git tells them: after `--`, a pathspec (`.`, a glob, `:/x`), a
    second operand (REV then paths, or paths only), or one operand that names something in the
    worktree (git refuses a word that is both a ref and a file, so nothing is lost then)."""
    ops = c.parsed.operands
    if c.parsed.dashdash < len(ops):
        return Found(row.target)
    if "--pathspec-from-file" in c.parsed.options:
        return Found(row.target, "checkout of the paths a file lists overwrites their changes")
    rest = ops[1:]
    if "-m" in c.parsed.values:  # checkout's -m is --merge, a flag: its "value" is an operand
        rest = (c.parsed.values["-m"], *rest)
    if not rest:
        return None
    if any(op is None for op in rest):
        return Found(row.target, "checkout of a word not known may overwrite uncommitted changes")
    words = [op for op in rest if op is not None]
    if any(re.match(_PATHLIKE, op) or is_pattern(op) for op in words):
        return Found(row.target)
    if len(words) >= 2:
        return Found(row.target, "checkout REV PATH… overwrites the paths' uncommitted changes")
    where = _git_cwd(c)
    if where is None:
        return Found(row.target, "checkout of a path or a branch, in a directory not known")
    word = words[0]
    path = word if word.startswith("/") else f"{where.rstrip('/')}/{word}"
    quoted = "".join(f"[{ch}]" if ch in "*?[" else ch for ch in path)
    if c.w.ctx.expand(quoted):
        return Found(row.target, f"{word} is a path: checkout overwrites its uncommitted changes")
    return None


_PATHLIKE = r"^(\.|\.\.|\*|:/.*|:\(.*|\.{1,2}/.*)$"  # ., .., ./x, :/x, :(glob)x


def _git_cwd(c: EffectCall) -> str | None:
    """The directory git works in: the shell's, moved by `git -C DIR`."""
    cwd = c.w.scope.cwd
    moved = c.parsed.values.get("-C", "")
    if cwd is None or moved is None:
        return None
    if moved:
        cwd = moved if moved.startswith("/") else f"{cwd.rstrip('/')}/{moved}"
    return cwd


def _git_restore_worktree(c: EffectCall, row: Effect) -> Found | None:
    tool = command_for("git").effects or Tool()
    staged = given(c.parsed, "-S", tool) or given(c.parsed, "--staged", tool)
    worktree = given(c.parsed, "-W", tool) or given(c.parsed, "--worktree", tool)
    if staged and not worktree:
        return None
    return Found(row.target) if len(c.parsed.operands) > 1 else None


def _git_push_plus(c: EffectCall, row: Effect) -> Found | None:
    refs = c.parsed.operands[2:]
    return Found(row.target) if any(r is not None and r.startswith("+") for r in refs) else None


def _git_fetch_force(c: EffectCall, row: Effect) -> Found | None:
    """`git fetch origin +main:main`, `git fetch -f origin main:main`: a refspec naming a
    local ref to update, by force (a `+`, or -f for all of them); not a remote-tracking one."""
    forced = "-f" in c.parsed.options or "--force" in c.parsed.options
    for ref in c.parsed.operands[2:]:
        if ref is None:
            continue
        src, colon, dst = ref.partition(":")
        if dst.startswith("refs/remotes/"):
            continue  # remote-tracking refs: what the remote says, forced as a rule
        if colon and dst and (forced or src.startswith("+")):
            return Found(row.target)
    return None


def _git_push_delete(c: EffectCall, row: Effect) -> Found | None:
    refs = c.parsed.operands[2:]
    return Found(row.target) if any(r is not None and r[:1] == ":" for r in refs) else None


def _as_user(c: EffectCall, row: Effect) -> Found | None:
    """`sudo -u postgres …` is privilege:postgres; `su - bob` is privilege:bob."""
    values = c.parsed.values
    user = values.get("-u") if "-u" in values else values.get("--user", row.target)
    if c.name == "su" and "-u" not in values:
        ops = [op for op in c.parsed.operands if op != "-"]
        user = ops[0] if ops and (ops[0] is None or not ops[0].startswith("-")) else row.target
    if user is None:
        return Found("?", "runs as a user not known")
    return Found(user)


def _mongo_eval(c: EffectCall, row: Effect) -> Found | None:
    code = c.parsed.values.get("--eval") or ""
    if not code and "--file" not in c.parsed.values and c.stdin is not None:  # its stdin's
        if c.stdin.kind == "pipe":
            return Found(row.target, "runs JavaScript read from a pipe, which may drop data")
        code = c.stdin.text or "" if c.stdin.kind == "text" else ""
    if re.search(r"\.(dropDatabase|drop)\s*\(|\.(deleteMany|remove)\s*\(\s*\{\s*\}", code):
        return Found(row.target)
    return None


# Redis commands (any case) that delete keys, or run Lua or functions on the server that may
_REDIS_DELETES = {
    "FLUSHALL": "deletes every key",
    "FLUSHDB": "deletes every key of the database",
    "DEL": "deletes keys",
    "UNLINK": "deletes keys",
    **dict.fromkeys(
        ("EVAL", "EVALSHA", "EVAL_RO", "EVALSHA_RO", "FCALL", "FCALL_RO"),
        "runs code on the server, which may delete keys, and guard cannot read it",
    ),
}


def _redis_command(c: EffectCall, row: Effect) -> Found | None:
    """`redis-cli [options] COMMAND ARGS…`: the command word in any case, as Redis reads it;
    `--eval FILE` runs a Lua script; `FUNCTION FLUSH|DELETE` drops the server's functions."""
    if "--eval" in c.parsed.options:
        return Found(row.target, "redis-cli --eval runs a Lua script on the server")
    ops = c.parsed.operands
    if not ops and c.stdin is not None and c.stdin.kind == "pipe":  # one command a line
        return Found(row.target, "runs Redis commands read from a pipe, which may delete keys")
    if not ops and c.stdin is not None and c.stdin.kind == "text":  # each line's command
        words = [line.split()[0] for line in (c.stdin.text or "").splitlines() if line.split()]
        ops = tuple(w for w in words if w.upper() in _REDIS_DELETES)[:1] or tuple(words[:1])
    word = (ops[0] or "").upper() if ops else ""
    if word in _REDIS_DELETES:
        return Found(row.target, f"{word} {_REDIS_DELETES[word]}")
    if word == "FUNCTION" and len(ops) > 1 and (ops[1] or "").upper() in ("FLUSH", "DELETE"):
        return Found(row.target, "FUNCTION FLUSH|DELETE removes the server's functions")
    if ops and ops[0] is None:
        return Found(row.target, "the Redis command is not known, and may delete keys")
    return None


_ADMIN_GROUPS = frozenset({"sudo", "wheel", "admin", "root", "docker", "lxd", "disk", "adm"})


def _admin_group(c: EffectCall, row: Effect) -> Found | None:
    """`usermod -aG docker me`, `gpasswd -a me sudo`: the group holds root's powers."""
    words = [a.value or "" for a in c.argv[1:]]
    groups = set()
    for i, word in enumerate(words):
        if word in ("-G", "--groups", "-g", "--gid") and i + 1 < len(words):
            groups.update(words[i + 1].split(","))
        elif word.startswith("-") and word.endswith("G") and i + 1 < len(words):
            groups.update(words[i + 1].split(","))  # -aG
    if c.name == "gpasswd" and len(words) >= 3 and words[0] in ("-a", "--add", "-M"):
        groups.add(words[-1])
    hit = sorted(groups & _ADMIN_GROUPS)
    return Found(row.target, f"adds a user to {hit[0]}, which holds root's powers") if hit else None


def _git_prune_now(c: EffectCall, row: Effect) -> Found | None:
    prune = c.parsed.values.get("--prune")
    return Found(row.target) if prune in ("now", "all") else None


def _find_delete(c: EffectCall, row: Effect) -> Found | None:
    words = [a.value for a in c.argv[1:]]
    # a test on names, times or sizes picks some files: not the whole tree below a root
    whole = not any(word in FIND_NARROWING for word in words)
    if "-delete" in words:
        return Found(row.target, whole=whole)
    deleter = find_deleter(words)
    if deleter is not None:
        return Found(row.target, f"find runs {deleter} on every file it matches", whole)
    return None


def _rsync_delete(c: EffectCall, row: Effect) -> Found | None:
    opts = c.parsed.options
    if not any(o == "--del" or o.startswith("--delete") for o in opts):
        return None
    ops = [op for op in c.parsed.operands if op is not None]
    remote = re.match(_REMOTE_SPEC, ops[-1]) if len(ops) >= 2 else None
    return Found(f"{row.target}@{remote.group(1)}") if remote else Found(row.target)


def _operands(c: EffectCall, row: Effect) -> Found | None:
    return Found(row.target) if c.parsed.operands else None


def _signal_pids(c: EffectCall, row: Effect) -> Found | None:
    """`kill PID`: a process anyone may have started; `kill %1` (this shell's job) is not."""
    ops = c.parsed.operands
    return Found(row.target) if any(op is None or op[:1] != "%" for op in ops) else None


def _dd_of(c: EffectCall, row: Effect) -> Found | None:
    for arg in c.argv[1:]:
        value = arg.value
        if value is None:  # could be of=/dev/…: the strongest reading
            return (
                Found(row.target, "dd is given an argument not known")
                if row.target == "device"
                else None
            )
        if value.startswith("of="):
            device = value[3:].startswith("/dev/") and not re.match(_PLUMBING, value[3:])
            if device == (row.target == "device"):
                return Found(row.target)
    return None


_PLUMBING = r"^/dev/(null|zero|stdout|stderr|tty|fd/\d+)$"


def _chmod_setuid(c: EffectCall, row: Effect) -> Found | None:
    ops = c.parsed.operands
    mode = ops[0] if ops else None
    if mode is None:
        return None
    if re.fullmatch(r"[0-7]{4,}", mode) and int(mode[-4]) & 6:
        return Found(row.target)
    if re.search(r"[+=][rwxXt]*s", mode):
        return Found(row.target)
    return None


def _http_delete(c: EffectCall, row: Effect) -> Found | None:
    values = c.parsed.values
    method = values.get("-X") or values.get("--request") or values.get("--method") or ""
    return Found(row.target) if method.upper() == "DELETE" else None


def _raw_after(c: EffectCall, operands: int) -> list[Arg]:
    """The argv words after the first `operands` operands, as given (options included)."""
    tool = command_for(c.name).effects or Tool()
    seen, i = 0, 1
    while i < len(c.argv) and seen < operands:
        value = c.argv[i].value
        i += 1
        if value is None or not value.startswith("-") or value == "-":
            seen += 1
        elif value == "--":
            continue
        elif "=" not in value and (value in tool.values or value[-2:] in tool.values):
            i += 1
    return c.argv[i:]


def _inside(c: EffectCall, row: Effect, where: str, command: list[Arg]) -> Found:
    """`docker exec C CMD`, `kubectl exec POD -- CMD`: CMD's effects, reported where it runs."""
    target = f"{row.target}/{where}"
    if command and all(a.value is not None for a in command):
        text = " ".join(_quoted(a.value or "") for a in command)
        remote_code(c.w, text, c.argv[0], c.depth, target)
    return Found(target)


def _quoted(word: str) -> str:
    return word if re.fullmatch(r"[\w@%+=:,./-]+", word) else "'" + word.replace("'", "'\\''") + "'"


def _container_exec(c: EffectCall, row: Effect) -> Found | None:
    ops = c.parsed.operands
    skip = 2 if ops and ops[0] == "container" else 1
    if len(ops) <= skip:
        return Found(row.target)
    return _inside(c, row, ops[skip] or "?", _raw_after(c, skip + 1))


def _pod_exec(c: EffectCall, row: Effect) -> Found | None:
    ops = c.parsed.operands
    pod = ops[1] if len(ops) > 1 and c.parsed.dashdash > 1 else "?"
    words = [a.value for a in c.argv]
    command = c.argv[words.index("--") + 1 :] if "--" in words else []
    return _inside(c, row, pod or "?", command)


def _pod_command(c: EffectCall, row: Effect) -> Found | None:
    """`kubectl run NAME --image=IMG -- CMD…`: CMD runs in the pod; without `--` the image's
    own command runs, which is the workload's, as `kubectl apply` is."""
    words = [a.value for a in c.argv]
    if "--" not in words:
        return None
    return _pod_exec(c, row)


def _graphql_destroys(c: EffectCall, row: Effect) -> Found | None:
    """`gh api graphql -f query='mutation { deleteRepository(…) }'`: a mutation whose field is
    a verb of the verb model (deleteX, removeX, archiveX …), in the query given inline."""
    from guard.knowledge import DESTRUCTIVE_VERBS

    for arg in c.argv:
        text = arg.value or ""
        name, eq, value = text.partition("=")
        query = value if eq and name in ("query", "-f", "--raw-field", "-F", "--field") else ""
        if not query and "mutation" in text and "{" in text:
            query = text
        if "mutation" not in query:
            continue
        for field in re.findall(r"\b([a-z]+)[A-Z]\w*\s*\(", query):
            if field in DESTRUCTIVE_VERBS or field == "archive":
                return Found(row.target)
    return None


def _made_public(c: EffectCall, row: Effect) -> Found | None:
    """`gh repo edit --visibility public`, `gh repo create --public`: the code is published."""
    values = c.parsed.values
    if values.get("--visibility") == "public" or "--public" in c.parsed.options:
        return Found(row.target)
    return None


def _maven_exec(c: EffectCall, row: Effect) -> Found | None:
    """`mvn exec:exec -Dexec.executable=PROG -Dexec.args='…'`: PROG runs with those words, as
    a command of this line (what it does is its own effects; the row adds none)."""
    import shlex

    words = [a.value or "" for a in c.argv]
    props: dict[str, str] = {}
    for at, word in enumerate(words):
        setting = word[2:] if word.startswith("-D") else ""
        if word == "-D" and at + 1 < len(words):
            setting = words[at + 1]
        key, eq, value = setting.partition("=")
        if eq and key in ("exec.executable", "exec.args"):
            props[key] = value
    program = props.get("exec.executable")
    if not program:
        return None
    try:
        rest = shlex.split(props.get("exec.args", ""))
    except ValueError:
        dynamic(c.w, c.argv[0], "code", "the arguments mvn's exec plugin passes are not known")
        return None
    where = c.argv[0]
    argv = [where._replace(value=w, reason="") for w in (program, *rest)]
    c.w.calls.run_argv(c.w, argv, None, where.span, c.depth)
    return None


def _copy_to_remote(c: EffectCall, row: Effect) -> Found | None:
    ops = [op for op in c.parsed.operands if op is not None]
    if len(ops) < 2:
        return None
    found = re.match(_REMOTE_SPEC, ops[-1])
    return Found(f"{row.target}/{found.group(1)}") if found else None


_REMOTE_SPEC = r"^(?:rsync://|scp://)?(?:[^@/:]+@)?([A-Za-z0-9][\w.-]*|\[[^]]+\]):"


def _kill_all(c: EffectCall, row: Effect) -> Found | None:
    words = [a.value for a in c.argv[1:]]
    if words and words[0] in ("-s", "-n"):
        words = words[2:]
    elif words and words[0] is not None and words[0].startswith("-"):
        words = words[1:]  # the signal (`kill -1 PID` sends signal 1), or `--`
    if words and words[0] == "--":
        words = words[1:]
    return Found(row.target) if "-1" in words else None


def _sql(c: EffectCall, row: Effect) -> Found | None:
    from guard.languages import destroying_statement

    values = c.parsed.values
    spec = command_for(c.name).spec
    texts: list[str | None] = []
    if spec is not None:  # where the client takes SQL, as its spec says: options, operands
        texts = [values.get(option) for option, role in spec.options.items() if role == "sql"]
        if spec.operands == "sql":  # sqlite3 DB [SQL …]
            texts += c.parsed.operands[1 if spec.first is not None else 0 :]
    if row.sub:  # bq query SQL: the operands after the row's subcommand words
        texts += c.parsed.operands[len(row.sub) :]
    given = [t for t in texts if t is not None]
    if not given and c.stdin is not None and c.stdin.kind == "text" and c.stdin.text:
        given = [c.stdin.text]
    for text in given:
        statement = destroying_statement(text)
        if statement is not None:
            return Found(row.target, f"SQL that destroys data: {statement}")
    return None


def _ssh(c: EffectCall, row: Effect) -> Found | None:
    ops = c.parsed.operands
    if not ops or "-N" in c.parsed.options or "-O" in c.parsed.options:
        return None
    host = (ops[0] or "?").rsplit("@", 1)[-1]
    command = ops[1:]
    target = f"{row.target}/{host}"
    if not command and c.stdin is not None and c.stdin.kind == "text" and c.stdin.text:
        remote_code(c.w, c.stdin.text, c.argv[0], c.depth, host)  # ssh HOST <<EOF … EOF
        return Found(target, f"runs code on {host}")
    if not command:
        return Found(target, f"opens a shell on {host}")
    if any(word is None for word in command):
        return Found(target, f"runs a command not known on {host}")
    remote_code(c.w, " ".join(w or "" for w in command), c.argv[0], c.depth, host)
    return Found(target, f"runs code on {host}")


def _http_upload(c: EffectCall, row: Effect) -> Found | None:
    from guard.languages import http_upload

    target = http_upload(c.name, c.parsed)
    return None if target is None else Found(target)


def _fed_to_host(c: EffectCall, row: Effect) -> Found | None:
    from guard.languages import fed_to_host

    fed = c.stdin is not None and c.stdin.kind != "terminal"
    target = fed_to_host(c.parsed, fed)
    return None if target is None else Found(target)


def _sftp_host(c: EffectCall, row: Effect) -> Found | None:
    from guard.languages import sftp_host

    target = sftp_host(c.parsed)
    return None if target is None else Found(target)


CHECKS: dict[str, Callable[[EffectCall, Effect], Found | None]] = {
    "git-checkout-paths": _git_checkout_paths,
    "git-restore-worktree": _git_restore_worktree,
    "git-push-plus": _git_push_plus,
    "git-push-delete": _git_push_delete,
    "git-fetch-force": _git_fetch_force,
    "as-user": _as_user,
    "mongo-eval": _mongo_eval,
    "redis-command": _redis_command,
    "admin-group": _admin_group,
    "git-prune-now": _git_prune_now,
    "find-delete": _find_delete,
    "rsync-delete": _rsync_delete,
    "operands": _operands,
    "dd-of": _dd_of,
    "dd-device": _dd_of,
    "chmod-setuid": _chmod_setuid,
    "http-delete": _http_delete,
    "container-exec": _container_exec,
    "pod-exec": _pod_exec,
    "copy-to-remote": _copy_to_remote,
    "pod-command": _pod_command,
    "maven-exec": _maven_exec,
    "graphql-destroys": _graphql_destroys,
    "made-public": _made_public,
    "kill-all": _kill_all,
    "signal-pids": _signal_pids,
    "http-upload": _http_upload,
    "fed-to-host": _fed_to_host,
    "sftp-host": _sftp_host,
    "sql": _sql,
    "ssh": _ssh,
}
