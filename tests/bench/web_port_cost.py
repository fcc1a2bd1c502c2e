"""What the check of `guard watch --web`'s port adds to every judged line.

Run: ``.venv/bin/python tests/bench/web_port_cost.py``. Prints figures; asserts nothing.

`listening_port` looks for the port file beside the request socket: without a page (the usual
case) one `access`, with one a read. A process judging one line does that once; a long-lived
one keeps the answer with the line's surroundings and asks the file's looks again with theirs.
`reaching` then searches the line's text for the port: what every line pays.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from guard.projection.requests import Projection
from guard.verdict.web_port import listening_port, reaching

RUNS = 20000
LINE = "cd src && git push --force origin main 2>&1 | tee /tmp/log"


def per_line(env: dict[str, str]) -> tuple[float, float]:
    """The look for the page, and the search of a line for its port."""
    projection = Projection(LINE, "/", (), ())
    port = listening_port(env)
    looks, searches = [], []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(RUNS):
            listening_port(env)
        looks.append((time.perf_counter() - start) / RUNS)
        start = time.perf_counter()
        for _ in range(RUNS):
            reaching(projection, port)
        searches.append((time.perf_counter() - start) / RUNS)
    return statistics.median(looks), statistics.median(searches)


def main() -> None:
    with tempfile.TemporaryDirectory() as d:
        sock = str(Path(d) / "approver.sock")
        without = per_line({"GUARD_APPROVER_SOCKET": sock})
        Path(sock + ".web").write_text("41873\n")
        served = per_line({"GUARD_APPROVER_SOCKET": sock})
    for name, (look, search) in (("no page served:  ", without), ("a page is served:", served)):
        print(f"{name} the look {look * 1e6:6.2f} µs (once per line's surroundings), "
              f"the search {search * 1e6:5.2f} µs a line")


if __name__ == "__main__":
    main()
