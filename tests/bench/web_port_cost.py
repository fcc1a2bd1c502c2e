"""What the check of `guard watch --web`'s port adds to every judged line.

Run: ``.venv/bin/python tests/bench/web_port_cost.py``. Prints figures; asserts nothing.

`reaching` looks for the port file beside the request socket on every line: without a page
(the usual case) that is one failed open; with one it is a read and a search of the line's
text. The baseline is the same loop doing nothing.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from guard.projection.requests import Projection
from guard.verdict.web_port import reaching

RUNS = 20000
LINE = "cd src && git push --force origin main 2>&1 | tee /tmp/log"


def per_line(env: dict[str, str]) -> float:
    projection = Projection(LINE, "/", (), ())
    samples = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(RUNS):
            reaching(projection, env)
        samples.append((time.perf_counter() - start) / RUNS)
    return statistics.median(samples)


def main() -> None:
    with tempfile.TemporaryDirectory() as d:
        sock = str(Path(d) / "approver.sock")
        without = per_line({"GUARD_APPROVER_SOCKET": sock})
        Path(sock + ".web").write_text("41873\n")
        served = per_line({"GUARD_APPROVER_SOCKET": sock})
    print(f"no page served:   {without * 1e6:6.2f} µs a line")
    print(f"a page is served: {served * 1e6:6.2f} µs a line")


if __name__ == "__main__":
    main()
