"""Start-up, import time and memory of the shell: run ``python benchmarks/shell_bench.py``.

- import: ``import bgpi`` and the modules ``bgpi run`` loads, each in a fresh interpreter
  (best of several), less the interpreter's own start;
- ready: from spawning ``bgpi run`` on the simulator (with a journal of a match in progress
  to replay) to its "ready" log line;
- memory: the running table's resident set size once ready.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = 7
DEMO = ("--seed", "3", "--length", "7", "--games", "1")


def interpreter(code: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True)
    return time.perf_counter() - start


def import_time(module: str) -> float:
    base = min(interpreter("pass") for _ in range(RUNS))
    return min(interpreter(f"import {module}") for _ in range(RUNS)) - base


def ready_and_rss(state_dir: Path) -> tuple[float, int]:
    start = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "bgpi", "run", "-v", "--state-dir", str(state_dir)],
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    for line in process.stderr:
        if "ready" in line:
            ready = time.perf_counter() - start
            break
    else:
        raise RuntimeError("bgpi run ended without becoming ready")
    time.sleep(1.0)
    status = Path(f"/proc/{process.pid}/status").read_text()
    rss_kb = int(next(line for line in status.splitlines() if line.startswith("VmRSS")).split()[1])
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=10)
    return ready, rss_kb


def main() -> None:
    print(f"import bgpi: {import_time('bgpi') * 1e3:.0f} ms")
    both = import_time("bgpi.service.app, bgpi.cli")
    print(f"import bgpi.service.app and bgpi.cli: {both * 1e3:.0f} ms")
    with tempfile.TemporaryDirectory() as tmp:
        state = Path(tmp)
        # A journal with a match in progress, so start-up includes its replay.
        subprocess.run(
            [sys.executable, "-m", "bgpi", "demo", "--state-dir", tmp, *DEMO],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        figures = [ready_and_rss(state) for _ in range(3)]
    print(f"bgpi run ready on the simulator: {min(f[0] for f in figures) * 1e3:.0f} ms")
    print(f"resident memory once ready: {max(f[1] for f in figures) / 1024:.1f} MB")


if __name__ == "__main__":
    main()
