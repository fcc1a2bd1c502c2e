"""What holding a line to its Landlock ruleset adds to each guarded-bash command.

Run: .venv/bin/python tests/bench/enforce_cost.py [N]
Prints, in ms (median, p90 and min: a loaded machine moves the first two), each step timed in
a fresh process as guarded-bash meets it: importing guard.kernel.landlock (its `_ctypes`), building
the ruleset for a line, handing it to the kernel (create + add each rule) and restricting the
process; then the whole of `guarded-bash -c true` with GUARD_ENFORCE=off against landlock.
The target (issue 17) is under 2 ms per command for applying the ruleset. Nothing passes or
fails: it prints figures.

Everything runs in a temporary home with a few dozen entries, a protected ~/.ssh and
~/.config/gcloud, so the cover of home is split as on a real machine; the real home is never
touched.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 40


def show(name: str, values: list[float]) -> None:
    median = statistics.median(values) * 1000
    p90 = statistics.quantiles(values, n=10)[-1] * 1000 if len(values) > 1 else median
    print(f"  {name:44} {median:7.2f} {p90:7.2f} {min(values) * 1000:7.2f}")


def fake_home(home: Path) -> None:
    for name in [f"dir{n}" for n in range(30)] + [".local", ".cache", ".cargo", ".npm"]:
        (home / name).mkdir(parents=True)
    for name in [".ssh", ".config/gcloud", ".config/nvim", ".config/git", ".local/state/guard"]:
        (home / name).mkdir(parents=True, exist_ok=True)
    for name in [".bashrc", ".profile", ".gitconfig", ".bash_history"]:
        (home / name).write_text("#\n")


# One enforced line's steps, timed in a fresh process as guarded-bash meets them: judged,
# then landlock imported, the ruleset built, handed to the kernel, and the process restricted.
STEPS = """
import os, sys, time
from guard.verdict.judgement import judge
from guard.kernel import line_hold as enforcer
judgement = judge("make test", cwd=os.environ["GUARD_WORKSPACE"], use_store=False)
import gc; gc.disable()  # as enforcer.prepare() does: this process execs next
t0 = time.perf_counter()
from guard.kernel import landlock
t1 = time.perf_counter()
ruleset = enforcer.ruleset_for(judgement, os.environ)
t2 = time.perf_counter()
fd = enforcer._kernel_ruleset(ruleset, landlock.abi_version())
t3 = time.perf_counter()
landlock.restrict_self(fd)
t4 = time.perf_counter()
print(t1 - t0, t2 - t1, t3 - t2, t4 - t3, t4 - t0, len(ruleset.grants))
"""


def steps(env: dict[str, str]) -> list[float]:
    done = subprocess.run([sys.executable, "-c", STEPS], env=env, capture_output=True,
                          text=True, check=True)  # fmt: skip
    return [float(x) for x in done.stdout.split()]


def fresh(argv: list[str], env: dict[str, str], cwd: str) -> float:
    start = time.perf_counter()
    subprocess.run(argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL, check=True,
                   start_new_session=True)  # fmt: skip
    return time.perf_counter() - start


def main() -> None:
    import compileall

    import guard
    from guard.kernel.landlock import abi_version

    # guarded-bash runs from bytecode; without it each fresh process would compile the modules
    compileall.compile_dir(os.path.dirname(guard.__file__), quiet=1)

    abi = abi_version()
    if not isinstance(abi, int):
        raise SystemExit(f"no Landlock here ({abi}): nothing to measure")
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as tmp:
        home, work = Path(tmp) / "home", Path(tmp) / "work"
        work.mkdir()
        (Path(tmp) / "tmp").mkdir()  # a temp dir of its own: not one that holds home
        fake_home(home)
        env = {
            **os.environ,
            "HOME": str(home),
            "TMPDIR": f"{tmp}/tmp",
            "GUARD_CONFIG": f"{tmp}/config/policy.toml",
            "GUARD_STATE_DIR": f"{tmp}/state",
            "XDG_CONFIG_HOME": f"{home}/.config",
            "XDG_STATE_HOME": f"{home}/.local/state",
            "XDG_CACHE_HOME": f"{home}/.cache",
            "GUARD_WORKSPACE": str(work),
        }
        rows = [steps(env) for _ in range(RUNS)]
        shim = [str(BIN / "guarded-bash"), "-c", "true"]
        ends: dict[str, list[float]] = {"off": [], "landlock": []}
        for mode in ends:
            fresh(shim, {**env, "GUARD_ENFORCE": mode}, str(work))  # warm the page cache
        for _ in range(RUNS):
            for mode, values in ends.items():
                values.append(fresh(shim, {**env, "GUARD_ENFORCE": mode}, str(work)))
    columns = list(zip(*rows, strict=True))
    rules = int(columns[5][0])
    print(f"Landlock ABI {abi}; {RUNS} runs each; {rules} rules; median, p90, min in ms")
    show("import guard.kernel.landlock (its _ctypes)", list(columns[0]))
    show("build the ruleset (paths, home's cover)", list(columns[1]))
    show("kernel ruleset (create, add each rule)", list(columns[2]))
    show("restrict_self (and no_new_privs)", list(columns[3]))
    show("all of it: the cost of applying the ruleset", list(columns[4]))
    show("guarded-bash -c true, GUARD_ENFORCE=off", ends["off"])
    show("guarded-bash -c true, GUARD_ENFORCE=landlock", ends["landlock"])
    applied = statistics.median(columns[4]) * 1000
    whole = (statistics.median(ends["landlock"]) - statistics.median(ends["off"])) * 1000
    print(f"applying the ruleset costs {applied:.2f} ms per command (target: under 2 ms);")
    print(f"end to end, enforcement adds {whole:+.1f} ms to guarded-bash (noisy: fresh processes)")


if __name__ == "__main__":
    main()
