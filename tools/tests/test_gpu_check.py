"""tools/gpu_check.py: the GPU checks run from a checkout without nox."""

import json
import sys
import zipfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import gpu_check


def _checkout(tmp_path):
    """A checkout with one package whose gpu-marked test imports its sources, and a
    benchmark script that writes its JSON."""
    root = tmp_path / "repo"
    (root / "packages" / "pkg" / "src").mkdir(parents=True)
    (root / "packages" / "pkg" / "src" / "pkgmod.py").write_text("VALUE = 3\n")
    (root / "packages" / "pkg" / "tests").mkdir()
    (root / "packages" / "pkg" / "tests" / "helper.py").write_text("EXPECTED = 3\n")
    (root / "packages" / "pkg" / "tests" / "test_pkg.py").write_text(
        "import pytest\nimport helper\nimport pkgmod\nimport wheelmod\n\n"
        "@pytest.mark.gpu\ndef test_on_gpu():\n    assert pkgmod.VALUE == helper.EXPECTED\n"
        "    assert wheelmod.NAME == 'wheel'\n\n"
        "def test_not_gpu():\n    raise AssertionError('runs only without -m gpu')\n")
    (root / "tests-integration").mkdir()
    (root / "tools" / "bench").mkdir(parents=True)
    (root / "tools" / "bench" / "gpu.py").write_text(
        "import json, sys\nout = sys.argv[sys.argv.index('--json') + 1]\n"
        "steps = int(sys.argv[sys.argv.index('--steps') + 1])\n"
        "json.dump({'steps': steps}, open(out, 'w'))\nprint('| workload | ms |')\n")
    wheel = tmp_path / "wheelmod-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("wheelmod.py", "NAME = 'wheel'\n")
    return root, wheel


def test_pytest_ini_has_the_markers_and_the_test_folders(tmp_path):
    ini = gpu_check.pytest_ini([tmp_path / "a", tmp_path / "b"])
    assert ini.startswith("[pytest]\nmarkers =\n    gpu:")
    assert f"pythonpath =\n    {tmp_path / 'a'}\n    {tmp_path / 'b'}\n" in ini


def test_the_folders_of_this_checkout():
    names = [p.parent.name for p in gpu_check.test_dirs()]
    assert "autograd-core" in names and "optimizers" in names
    assert gpu_check.test_dirs()[-1].name == "tests-integration"
    assert all(p.name == "src" for p in gpu_check.source_dirs())


def test_summary_keeps_failures_and_counts():
    log = ("....F\nFAILED tests/test_a.py::test_x - AssertionError\n"
           "ERROR tests/test_b.py - ImportError\nnoise\n"
           "= 1 failed, 4 passed, 3 deselected in 2.0s =\n")
    assert gpu_check.summary(log) == [
        "FAILED tests/test_a.py::test_x - AssertionError",
        "ERROR tests/test_b.py - ImportError",
        "= 1 failed, 4 passed, 3 deselected in 2.0s ="]


def test_unpack_refuses_missing_files_and_non_wheels(tmp_path):
    with pytest.raises(FileNotFoundError, match="wheel not found"):
        gpu_check.unpack_wheels([tmp_path / "missing.whl"], tmp_path)
    other = tmp_path / "notes.txt"
    other.write_text("text")
    with pytest.raises(ValueError, match="not a wheel"):
        gpu_check.unpack_wheels([other], tmp_path)


def test_runs_the_gpu_tests_from_sources_and_wheels_then_the_bench(tmp_path, monkeypatch,
                                                                    capsys):
    root, wheel = _checkout(tmp_path)
    monkeypatch.setattr(gpu_check, "ROOT", root)
    out = tmp_path / "out"
    status = gpu_check.main([str(wheel), "--out", str(out), "--workers", "1",
                             "--steps", "7"])
    printed = capsys.readouterr().out
    assert status == 0, printed
    assert "1 passed, 1 deselected" in (out / "gputests.log").read_text()
    assert json.loads((out / "gpubench.json").read_text()) == {"steps": 7}
    assert "| workload | ms |" in printed


def test_a_failing_gpu_test_fails_the_check(tmp_path, monkeypatch):
    root, wheel = _checkout(tmp_path)
    test = root / "packages" / "pkg" / "tests" / "test_pkg.py"
    test.write_text(test.read_text().replace("== helper.EXPECTED", "== 4"))
    monkeypatch.setattr(gpu_check, "ROOT", root)
    out = tmp_path / "out"
    assert gpu_check.main([str(wheel), "--out", str(out), "--workers", "1",
                           "--tests-only"]) == 1
    assert "FAILED" in (out / "gputests.log").read_text()
    assert not (out / "gpubench.json").exists()
