"""Run every tests/bench/bench_*.py module's main(), in name order: `python -m tests.bench.run`.

`python -m tests.bench.run NAME ...` runs only the modules whose name contains one of NAME.
A bench module prints its own figures; an exception in one, or requests that failed on either
side of a comparison (_common.failed_requests), is reported and the run goes on, but the exit
status is then 1.

`--quick` (or BENCH_QUICK=1) runs each benchmark once, small (_common.quick): what `make test`
runs, so that a benchmark a change broke fails there; no figure is judged.
"""

from __future__ import annotations

import importlib
import os
import sys
import time
import traceback
from pathlib import Path

from . import _common


def discover(filters: list[str]) -> list[str]:
    here = Path(__file__).parent
    names = sorted(p.stem for p in here.glob("bench_*.py"))
    if filters:
        names = [n for n in names if any(f in n for f in filters)]
    return names


def main(argv: list[str]) -> int:
    if "--quick" in argv:
        argv = [a for a in argv if a != "--quick"]
        os.environ["BENCH_QUICK"] = "1"
    names = discover(argv)
    if not names:
        print("no benchmarks found (tests/bench/bench_*.py)")
        return 0
    failed: list[str] = []
    run_started = time.perf_counter()
    for name in names:
        print(f"== {name}", flush=True)
        started = time.perf_counter()
        try:
            module = importlib.import_module(f"tests.bench.{name}")
            module.main()
        except Exception:  # noqa: BLE001 - report and go on with the others
            traceback.print_exc()
            failed.append(name)
        if failures := _common.take_failures():
            print(f"{name}: failed requests: {failures}", file=sys.stderr, flush=True)
            if name not in failed:
                failed.append(name)
        print(f"-- {name}: {time.perf_counter() - started:.1f} s", flush=True)
    mode = " (quick mode)" if _common.quick() else ""
    print(f"== {len(names)} benchmarks{mode} in {time.perf_counter() - run_started:.0f} s", flush=True)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
