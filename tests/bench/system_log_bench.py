"""What sending audit rows to the system log adds to each row.

Run: ``.venv/bin/python tests/bench/system_log_bench.py``. Prints figures; asserts nothing.

Each figure is the median time of one ``Store.record`` in a store in a temporary directory:
with no `[audit]` setting (the baseline: a stat of two policy files), with a user policy file
that has rules but no `[audit]`, and with `journald` or `syslog` aimed at a Unix datagram socket
this script binds and drains.
"""

from __future__ import annotations

import os
import shutil
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

RUNS = 300


def main() -> None:
    base = Path(tempfile.mkdtemp(prefix="gslb"))
    os.environ["GUARD_STATE_DIR"] = str(base / "state")
    os.environ["GUARD_CONFIG"] = str(base / "policy.toml")
    os.environ.pop("GUARD_MANAGED_POLICY", None)
    sink = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sink.bind(str(base / "s"))
    threading.Thread(target=lambda: [sink.recv(1 << 20) for _ in iter(int, 1)], daemon=True).start()

    from guard.verdict.store.store import Store

    cases = [
        ("no [audit], no policy file", None),
        ("policy file without [audit]", '[[rules]]\nsurface = "command"\npattern = "x *"\n'
                                        'action = "allow"\n'),
        ("journald to a socket", f'[audit]\njournald = "{base / "s"}"\n'),
        ("syslog to a socket", f'[audit]\nsyslog = "{base / "s"}"\n'),
    ]
    with Store.open() as store:
        baseline = 0.0
        for title, text in cases:
            path = Path(os.environ["GUARD_CONFIG"])
            if text is None:
                path.unlink(missing_ok=True)
            else:
                path.write_text(text)
            times = []
            for n in range(RUNS):
                start = time.perf_counter()
                store.record(time=time.time(), session="bench", cwd="/w", command=f"make {n}\nx",
                             decision="allow", reasons=("r",), how="rule")
                times.append(time.perf_counter() - start)
            median = statistics.median(times) * 1e6
            baseline = baseline or median
            print(f"{title:<30} {median:8.1f} µs per row  ({median / baseline:4.2f}× baseline)")
    sink.close()
    shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
