"""What the resident checker (`guard serve --user`) saves each entry point, in fresh processes.

Run: .venv/bin/python -m compileall -q guard && .venv/bin/python tests/bench/resident_latency.py [N]
[--system-tmp]
Prints the median and 90th percentile of N runs (30 unless given) of each variant, interleaved,
and each median's difference from `python -c pass` and from `bash -c true`. Nothing here passes
or fails: it prints figures. Targets (issue 15), checker warm: guarded-bash -c true and
`guard hook claude-code` at most 15 ms over python -c pass (aim 5); the launcher that `guard
install-shell` builds at most 5 ms over bash -c true; cold (no checker yet) no slower than off.

Variants: "warm" with the checker running; "off" with GUARD_RESIDENT=0 (in-process, as before
the checker); "cold" with the checker stopped before each run (the run starts one and answers
in-process). Everything runs in a temporary home, workspace, state and runtime dir; the checker
is stopped at the end.

The temp dir (TMPDIR) is one of the run's own, beside the home, as on a machine whose home is
not in /tmp: the enforced lines' ruleset is then the same on every run (about 30 grants). With
--system-tmp the temp dir is /tmp, which holds this run's home: Landlock cannot grant /tmp minus
the home's secrets, so the ruleset grants each entry of /tmp instead, and the enforced figures
grow with whatever else the machine keeps there (hundreds of grants on a shared machine).
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

BIN = Path(sys.executable).parent
ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
RUNS = int(ARGS[0]) if ARGS else 30
SYSTEM_TMP = "--system-tmp" in sys.argv[1:]

def hook_input(cwd: str) -> bytes:
    """What Claude Code sends: the call, its session and its directory."""
    import json

    return json.dumps({
        "tool_name": "Bash", "tool_input": {"command": "ls -la"}, "session_id": "bench",
        "hook_event_name": "PreToolUse", "cwd": cwd,
    }).encode()  # fmt: skip

Variant = tuple[list[str], dict[str, str], bytes | None, Callable[[], None] | None]


def timed(
    argv: list[str], env: dict[str, str], cwd: str, stdin: bytes | None
) -> tuple[float, float]:
    """One run's wall time, and the CPU time the process itself used (less sensitive to a busy
    machine); stdin from a file (a pipe fed by this process would be timed too)."""
    with tempfile.TemporaryFile() as source:
        source.write(stdin or b"")
        source.seek(0)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(
            argv, env=env, cwd=cwd, stdin=source if stdin else subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
        )  # fmt: skip
        elapsed = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{argv} exited {done.returncode}")
    return elapsed, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def launcher(tmp: str, env: dict[str, str]) -> str | None:
    if shutil.which("cc") is None:
        return None
    out = Path(tmp) / "bin"
    subprocess.run([str(BIN / "guard"), "install-shell", "--dir", str(out)], env=env, check=True,
                   stdout=subprocess.DEVNULL)  # fmt: skip
    return str(out / "bash")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "work"
        work.mkdir()
        (Path(tmp) / "run").mkdir(mode=0o700)
        (Path(tmp) / "tmp").mkdir()
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("GUARD_")},
            "HOME": tmp,
            "GUARD_CONFIG": f"{tmp}/config/policy.toml",
            "GUARD_STATE_DIR": f"{tmp}/state",
            "XDG_CONFIG_HOME": f"{tmp}/config",
            "XDG_STATE_HOME": f"{tmp}/state",
            "XDG_RUNTIME_DIR": f"{tmp}/run",
            "GUARD_WORKSPACE": str(work),
            "GUARD_RESIDENT_IDLE": "300",
        }
        if SYSTEM_TMP:
            env.pop("TMPDIR", None)
        else:
            env["TMPDIR"] = f"{tmp}/tmp"
        off = {**env, "GUARD_RESIDENT": "0"}
        guard, shim = str(BIN / "guard"), str(BIN / "guarded-bash")

        def stop() -> None:
            subprocess.run([guard, "serve", "--user", "--stop"], env=env, check=False,
                           stdout=subprocess.DEVNULL)  # fmt: skip

        def start() -> None:
            subprocess.run([guard, "check", "--", "true"], env=env, cwd=work, check=False)
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                done = subprocess.run([guard, "doctor"], env=env, capture_output=True, text=True,
                                      check=False)  # fmt: skip
                if "checker running" in done.stdout:
                    subprocess.run([guard, "check", "--", "true"], env=env, cwd=work,
                                   check=False)  # fmt: skip
                    return  # running, and it has answered once: warm
                time.sleep(0.1)

        variants: dict[str, Variant] = {
            "python -c pass": ([sys.executable, "-c", "pass"], env, None, None),
            "bash -c true": (["/bin/bash", "-c", "true"], env, None, None),
            "guarded-bash -c true  warm": ([shim, "-c", "true"], env, None, None),
            "guarded-bash -c true  off": ([shim, "-c", "true"], off, None, None),
            "guarded-bash -c true  cold": ([shim, "-c", "true"], env, None, stop),
            "guard check -- true   warm": ([guard, "check", "--", "true"], env, None, None),
            "guard check -- true   off": ([guard, "check", "--", "true"], off, None, None),
            "guard hook claude-code warm": (
                [guard, "hook", "claude-code"], env, hook_input(str(work)), None
            ),
            "guard hook claude-code off": (
                [guard, "hook", "claude-code"], off, hook_input(str(work)), None
            ),
        }
        native = launcher(tmp, env)
        if native:
            variants["launcher -c true      warm"] = ([native, "-c", "true"], env, None, None)
            variants["launcher -c true      off"] = ([native, "-c", "true"], off, None, None)
        times: dict[str, list[float]] = {name: [] for name in variants}
        cpus: dict[str, list[float]] = {name: [] for name in variants}
        stopped = True
        try:
            for _ in range(RUNS):
                for name, (argv, variant_env, stdin, setup) in variants.items():
                    if setup is not None:
                        setup()
                        stopped = True
                    elif name.endswith("warm") and stopped:
                        start()  # the cold run's checker may still be coming up
                        stopped = False
                    wall, cpu = timed(argv, variant_env, str(work), stdin)
                    times[name].append(wall)
                    cpus[name].append(cpu)
        finally:
            stop()
    python = statistics.median(times["python -c pass"])
    bash = statistics.median(times["bash -c true"])
    where = "/tmp (the machine's)" if SYSTEM_TMP else "the run's own"
    print(f"{RUNS} runs each, fresh processes, interleaved; ms (cpu: the process's own, median);"
          f" temp dir {where}")  # fmt: skip
    print(f"  {'variant':30} {'median':>7} {'p90':>7} {'-python':>8} {'-bash':>8} {'cpu':>6}")
    for name, values in times.items():
        median = statistics.median(values)
        p90 = statistics.quantiles(values, n=10)[-1]
        print(f"  {name:30} {median * 1000:7.1f} {p90 * 1000:7.1f} "
              f"{(median - python) * 1000:+8.1f} {(median - bash) * 1000:+8.1f}"
              f" {statistics.median(cpus[name]) * 1000:6.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
