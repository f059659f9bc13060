"""How long a capture with ``timeout=T`` takes when the server never answers and ignores stdin.

Run: python benchmarks/bench_hang_timeout.py [--timeout 3] [--repeat 3]
Prints each run's wall time and how far past the timeout it ended. Target: within 1 s of T
(the SDK's own shutdown adds a 2 s stdin grace, then up to 2 s after SIGTERM).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mcplock_tui.capture.runner import capture_all
from tests.servers.harness import stdio_spec, write_defs


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--timeout", type=float, default=3.0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        spec = stdio_spec("stuck", write_defs(folder / "d.json"), "hang")
        for i in range(args.repeat):
            started = time.monotonic()
            run = partial(capture_all, [spec], timeout=args.timeout, log_dir=folder / "logs")
            result = anyio.run(run)["stuck"]
            took = time.monotonic() - started
            print(
                f"run {i + 1}: {took:.2f} s ({took - args.timeout:+.2f} s past the timeout; "
                f"{result.error_kind})"
            )


if __name__ == "__main__":
    main()
