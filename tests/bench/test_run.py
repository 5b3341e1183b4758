"""The benchmark runner's verdict: a benchmark fails the run when it raises or when requests of
either side of its comparison failed, and `--quick` puts every benchmark in quick mode."""

from __future__ import annotations

import types

import pytest

from tests.bench import _common, run


def _runs(monkeypatch: pytest.MonkeyPatch, main: types.FunctionType) -> None:
    monkeypatch.setattr(run, "discover", lambda filters: ["bench_fake"])
    monkeypatch.setattr(run.importlib, "import_module", lambda name: types.SimpleNamespace(main=main))


def test_failed_requests_on_the_reference_side_fail_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    def main() -> None:
        _common.failed_requests("ours", 0)
        _common.failed_requests("bare", 3)

    _runs(monkeypatch, main)
    assert run.main([]) == 1
    assert _common.take_failures() == {}


def test_a_clean_benchmark_passes_and_quick_mode_reaches_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BENCH_QUICK", "0")  # restored (unset) after the test, though run.main sets it
    seen: list[bool] = []
    _runs(monkeypatch, lambda: seen.append(_common.quick()))
    assert run.main(["--quick"]) == 0
    assert seen == [True]
    assert _common.sized(600, 10) == 10
