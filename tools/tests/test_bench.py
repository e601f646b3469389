"""Tests of the benchmark harness that need no framework: data, worker protocol, table."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import bench_data
import run
import worker


@pytest.mark.parametrize("workload", bench_data.WORKLOADS)
def test_data_is_fixed_and_typed(workload: str) -> None:
    x1, t1 = bench_data.make(workload)
    x2, t2 = bench_data.make(workload)
    np.testing.assert_array_equal(x1, x2)
    np.testing.assert_array_equal(t1, t2)
    if workload == "adam":  # (parameter values, gradients)
        assert x1.dtype == t1.dtype == np.float32 and x1.shape == t1.shape
        return
    assert t1.dtype == np.int32
    assert x1.dtype == (np.int32 if workload == "lstm" else np.float32)


def test_data_shapes() -> None:
    assert bench_data.make("overhead")[0].shape == (8, 32)
    assert bench_data.make("cnn")[0].shape == (32, 3, 32, 32)
    xs, ts = bench_data.make("lstm")
    assert xs.shape == ts.shape == (35, 20)
    assert ts.max() < bench_data.LSTM_VOCAB
    with pytest.raises(ValueError, match="unknown workload"):
        bench_data.make("gan")


def _fake(monkeypatch: pytest.MonkeyPatch, name: str, build) -> None:
    module = types.ModuleType(f"{name}_workloads")
    module.build = build
    module.version = lambda: "1.0"
    monkeypatch.setitem(sys.modules, module.__name__, module)


def test_worker_times_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    _fake(monkeypatch, "fine", lambda w: lambda: calls.append(w))
    result = worker.measure("fine", "mlp", steps=4, warmup=3)
    assert result["status"] == "ok"
    assert len(result["times"]) == 4 and len(calls) == 7
    assert result["version"] == "1.0"


@pytest.mark.parametrize("error", [AttributeError, ImportError, NotImplementedError])
def test_worker_missing_feature_is_unsupported(
    monkeypatch: pytest.MonkeyPatch, error: type[Exception]
) -> None:
    def build(workload):
        raise error("no EmbedID yet")

    _fake(monkeypatch, "partial", build)
    result = worker.measure("partial", "lstm", steps=2, warmup=3)
    assert result == {"status": "unsupported", "reason": f"{error.__name__}: no EmbedID yet"}


def test_worker_other_failure_is_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def step():
        raise ValueError("shape mismatch")

    _fake(monkeypatch, "buggy", lambda w: step)
    assert worker.measure("buggy", "cnn", 2, 3)["status"] == "error"


def test_table_ratios_and_unsupported() -> None:
    results = {
        "mlp": {
            "project": run.Outcome(times=[0.030, 0.020, 0.040]),
            "torch": run.Outcome(times=[0.010]),
            "chainer781": run.Outcome(status="unsupported", reason="x"),
        }
    }
    labels = {"project": "this project", "torch": "pytorch", "chainer781": "chainer 7.8.1"}
    table = run.format_table(results, labels).splitlines()
    assert table[0].split() == ["workload", "framework", "step", "(ms)", "vs", "pytorch"]
    assert table[2].split() == ["mlp", "this", "project", "30.000", "3.00x"]
    assert table[3].split() == ["mlp", "pytorch", "10.000", "1.00x"]
    assert table[4].split() == ["mlp", "chainer", "7.8.1", "unsupported", "-"]


def test_chainerx_ratios_pair_each_workload_with_its_numpy_run() -> None:
    results = {
        "mlp": {"project": run.Outcome(times=[0.020]), "torch": run.Outcome(times=[0.010])},
        "mlp-chainerx": {
            "project": run.Outcome(times=[0.022]),
            "torch": run.Outcome(times=[0.010]),
            "chainer781": run.Outcome(status="unsupported", reason="no ChainerX"),
        },
        "overhead-chainerx": {"project": run.Outcome(times=[0.001])},  # no overhead run
    }
    labels = {"project": "this project", "torch": "pytorch", "chainer781": "chainer 7.8.1"}
    assert run.chainerx_ratios(results, labels) == [
        "  mlp-chainerx / mlp, this project: 1.10x",
        "  mlp-chainerx / mlp, pytorch: 1.00x",
    ]
    assert bench_data.split_chainerx("mlp-chainerx") == ("mlp", True)
    assert bench_data.split_chainerx("overhead-static") == ("overhead-static", False)
    np.testing.assert_array_equal(bench_data.make("mlp-chainerx")[0], bench_data.make("mlp")[0])


def test_arguments() -> None:
    args = run.parse_args(["overhead", "mlp", "--steps", "5", "--frameworks", "torch"])
    assert args.workloads == ["overhead", "mlp"] and args.steps == 5
    assert args.frameworks == ["torch"]
    assert run.parse_args([]).workloads == list(bench_data.WORKLOADS)
    with pytest.raises(SystemExit):
        run.parse_args(["gan"])


def test_gpu_bench_refuses_unknown_workloads_and_reports_failures(capsys, monkeypatch) -> None:
    import gpu

    with pytest.raises(SystemExit):
        gpu.main(["nope"])
    assert "unknown workloads ['nope']" in capsys.readouterr().err

    def broken(workload: str):
        raise RuntimeError(f"no CUDA for {workload}")

    # a framework that fails is a row of the table, not a crash
    monkeypatch.setattr(gpu, "_chainer_step", broken)
    monkeypatch.setattr(gpu, "_torch_step", lambda workload, compiled=False: lambda: None)
    assert gpu.main(["mlp", "--steps", "2", "--warmup", "0"]) == 0
    out = capsys.readouterr().out
    assert "| mlp | error: RuntimeError: no CUDA for mlp |" in out
    assert out.rstrip().endswith("| - |")
    assert "torch.compile" not in out
    # --torch-compile adds PyTorch's compiled model as a column (not for the update alone)
    assert gpu.main(["mlp", "adam", "--steps", "2", "--warmup", "0", "--torch-compile"]) == 0
    out = capsys.readouterr().out
    assert "| torch.compile (ms) |" in out and "static vs torch.compile" in out
    adam_row = next(line for line in out.splitlines() if line.startswith("| adam |"))
    assert adam_row.count("|") == 9 and adam_row.split("|")[5].strip() == "-"
