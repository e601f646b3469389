"""The GPU checks from a source checkout, where nox cannot build its environments.

On a CUDA machine without network access (CuPy, pytest with pytest-xdist and, for the
benchmark, PyTorch already installed in the Python that runs this script), run

1. the ``gpu``-marked tests of every package and of ``tests-integration``, as
   ``nox -s gpu`` does, and
2. ``tools/bench/gpu.py``, as ``nox -s gpubench`` does,

with the sources of ``packages/*/src`` on the path instead of installed wheels. Wheels
named on the command line (e.g. ``nvidia-cudnn-frontend``, for the ``cudnn`` extra) are
unpacked into a scratch folder on the path first. Each part has a time limit, so that a
hang leaves the other's results. The logs and the benchmark's JSON go to ``--out``
(``$OUT`` when set, else ``gpu-check/``); a summary is printed.

Usage::

    python3 tools/gpu_check.py [--out DIR] [--tests-only | --bench-only] [--steps N]
        [--test-timeout S] [--bench-timeout S] [--workers N] [WHEEL ...]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: the pytest markers of the project (noxfile.PYTEST_INI)
MARKERS = ("gpu: needs a CUDA device", "slow: takes long")


def test_dirs(root: Path | None = None) -> list[Path]:
    """The test folders ``nox -s gpu`` runs under ``root`` (the checkout): each package's
    ``tests`` and the integration tests."""
    root = root or ROOT
    dirs = sorted(p for p in (root / "packages").glob("*/tests") if p.is_dir())
    integration = root / "tests-integration"
    return dirs + ([integration] if integration.is_dir() else [])


def source_dirs(root: Path | None = None) -> list[Path]:
    """Each package's ``src`` folder (what the installed wheels would put on the path)."""
    root = root or ROOT
    return sorted(p for p in (root / "packages").glob("*/src") if p.is_dir())


def pytest_ini(dirs: list[Path]) -> str:
    """A pytest.ini with the project's markers and the test folders on ``pythonpath`` (so
    that tests import their shared helper modules, as under nox)."""
    lines = ["[pytest]", "markers ="] + [f"    {m}" for m in MARKERS]
    lines += ["pythonpath ="] + [f"    {d}" for d in dirs]
    return "\n".join(lines) + "\n"


def unpack_wheels(wheels: list[Path], target: Path) -> None:
    """Unpack each wheel into ``target`` (a wheel is a zip of its installed files).

    Raises:
        FileNotFoundError: for a wheel that does not exist.
        ValueError: for a file that is not a wheel.
    """
    for wheel in wheels:
        if not wheel.is_file():
            raise FileNotFoundError(f"wheel not found: {wheel}")
        if wheel.suffix != ".whl" or not zipfile.is_zipfile(wheel):
            raise ValueError(f"not a wheel: {wheel}")
        with zipfile.ZipFile(wheel) as archive:
            archive.extractall(target)


def summary(log: str) -> list[str]:
    """The lines of a pytest log worth printing: failures, errors and the final counts."""
    keep = re.compile(r"^(FAILED|ERROR) |^=+ .*(passed|failed|error|skipped|deselected)"
                      r"|^\d+ (passed|failed)|no tests ran")
    return [line for line in log.splitlines() if keep.search(line)]


def _run(cmd: list[str], env: dict[str, str], timeout: float, log: Path,
         cwd: Path) -> int:
    """Run ``cmd`` writing its output to ``log``; returns its exit status (124 on time
    out, as ``timeout`` does)."""
    with log.open("w") as out:
        try:
            return subprocess.run(cmd, env=env, cwd=cwd, stdout=out, stderr=subprocess.STDOUT,
                                  timeout=timeout, check=False).returncode
        except subprocess.TimeoutExpired:
            out.write(f"\n[gpu_check] stopped after {timeout:.0f} s\n")
            return 124


def main(argv: list[str] | None = None) -> int:
    """Run the checks; returns 0 when every part that ran succeeded."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("wheels", nargs="*", type=Path, help="wheels to put on the path")
    parser.add_argument("--out", type=Path, default=None,
                        help="results folder ($OUT, else gpu-check/ in the checkout)")
    part = parser.add_mutually_exclusive_group()
    part.add_argument("--tests-only", action="store_true")
    part.add_argument("--bench-only", action="store_true")
    parser.add_argument("--steps", type=int, default=30, help="benchmark steps (30)")
    parser.add_argument("--workers", type=int, default=8, help="pytest-xdist workers (8)")
    parser.add_argument("--test-timeout", type=float, default=300)
    parser.add_argument("--bench-timeout", type=float, default=180)
    args = parser.parse_args(argv)
    if args.out is None:
        args.out = Path(os.environ.get("OUT") or ROOT / "gpu-check")
    args.out.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix="gpu-check-"))
    site = scratch / "site"
    site.mkdir()
    unpack_wheels(args.wheels, site)
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    env["PYTHONPATH"] = os.pathsep.join(
        [str(site), *map(str, source_dirs()), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    status = 0
    if not args.bench_only:
        ini = scratch / "pytest.ini"
        dirs = test_dirs()
        ini.write_text(pytest_ini(dirs))
        cmd = [sys.executable, "-m", "pytest", "-c", str(ini), "--rootdir", str(ROOT),
               "--import-mode=importlib", "-p", "no:cacheprovider", "-q", "-m", "gpu",
               *(["-n", str(args.workers)] if args.workers > 1 else []), *map(str, dirs)]
        log = args.out / "gputests.log"
        rc = _run(cmd, env, args.test_timeout, log, scratch)
        print(f"gpu tests: exit status {rc} (log: {log})")
        print("\n".join(summary(log.read_text())[-40:]))
        status = status or (rc if rc not in (0, 5) else 0)  # 5: nothing collected
    if not args.tests_only:
        log = args.out / "bench.log"
        cmd = [sys.executable, str(ROOT / "tools" / "bench" / "gpu.py"), "--steps",
               str(args.steps), "--json", str(args.out / "gpubench.json")]
        rc = _run(cmd, env, args.bench_timeout, log, ROOT)
        print(f"gpu bench: exit status {rc} (log: {log})")
        print(log.read_text()[-6000:])
        status = status or rc
    return status


if __name__ == "__main__":
    sys.exit(main())
