"""What each agent adapter costs per call: `guard hook AGENT` as the agent runs it, a cold
process with the hook JSON on stdin, for an everyday command the policy allows, next to
`python -c pass` (the floor of any Python hook) in the same run.

Run: ``.venv/bin/python tests/bench/agent_hook_latency.py [CALLS]``. Prints figures; asserts
nothing. Goal (issue 20): with the resident checker warm, at most 15 ms over `python -c pass`.
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
        for agent, payload in PAYLOADS.items():
            stdin = json.dumps(payload(LINE, str(ws))).encode()
            samples = timed([guard, "hook", agent, "--timeout", "150"], stdin, env, calls)
            median = statistics.median(samples)
            print(
                f"{'guard hook ' + agent:<24} median {median:6.1f} ms  "
                f"p95 {samples[int(calls * 0.95) - 1]:6.1f} ms  (+{median - base:.1f} ms)"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
