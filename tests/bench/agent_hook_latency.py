"""What each agent adapter costs per call: `guard hook AGENT --timeout 150` as `guard setup`
writes it, a cold process with the hook JSON on stdin, for an everyday command the policy
allows, next to `python -c pass` (the floor of any Python hook) in the same run: answered by the
resident checker (warm), in the hook's own process (`GUARD_RESIDENT=0`), and through the
installed sh command that fails closed (`sh -c`, warm).

Run: ``.venv/bin/python tests/bench/agent_hook_latency.py [CALLS]``. Prints figures; asserts
nothing. Goals: issue 20, with the checker warm at most 15 ms over `python -c pass`; issue 29,
the agents whose asks are held for `guard watch` (Codex, Cursor, Cline, OpenCode) as fast on
their allowed path as the ones with a prompt of their own (Claude Code, Gemini CLI, Copilot CLI).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from agent_payloads import PAYLOADS  # noqa: E402

LINE = "git status --short"


def timed(argv: list[str], stdin: bytes, env: dict[str, str], calls: int) -> list[float]:
    out = []
    for _ in range(calls):
        start = time.perf_counter()
        subprocess.run(argv, input=stdin, env=env, stdout=subprocess.DEVNULL, check=False)
        out.append((time.perf_counter() - start) * 1000)
    return sorted(out)


def main(argv: list[str]) -> int:
    calls = int(argv[1]) if len(argv) > 1 else 30
    guard = str(Path(sys.executable).parent / "guard")
    with tempfile.TemporaryDirectory() as tmp:
        ws = Path(tmp) / "ws"
        ws.mkdir()
        env = dict(
            os.environ,
            HOME=tmp,
            GUARD_STATE_DIR=os.path.join(tmp, "state"),
            GUARD_CONFIG=os.path.join(tmp, "policy.toml"),
            GUARD_WORKSPACE=str(ws),
        )
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # a real install has its .pyc files
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "guard")], check=True)
        floor = timed([sys.executable, "-c", "pass"], b"", env, calls)
        base = statistics.median(floor)
        p95 = floor[int(calls * 0.95) - 1]
        print(f"{'python -c pass':<24} median {base:6.1f} ms  p95 {p95:6.1f} ms")
        check = [guard, "check", "--session", "bench", "--", LINE]
        samples = timed(check, b"", env, calls)
        median = statistics.median(samples)
        print(f"{'guard check (baseline)':<24} median {median:6.1f} ms  (+{median - base:.1f} ms)")
        from guard.entry.agents.config import hook_command

        print(f"{'':<24} {'warm':>16} {'off':>16} {'installed, warm':>22}")
        for agent, payload in PAYLOADS.items():
            stdin = json.dumps(payload(LINE, str(ws))).encode()
            hook = [guard, "hook", agent, "--timeout", "150"]
            warm = timed(hook, stdin, env, calls)
            off = timed(hook, stdin, {**env, "GUARD_RESIDENT": "0"}, calls)
            runs = [warm, off]
            if agent != "opencode":  # its plugin runs guard itself, with no shell between
                runs.append(timed(["sh", "-c", hook_command(agent)], stdin, env, calls))
            figures = [statistics.median(x) for x in runs]
            print(
                f"{'guard hook ' + agent:<24} "
                + " ".join(f"{m:7.1f} ms ({m - base:+6.1f})" for m in figures)
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
