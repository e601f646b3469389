"""The three benchmark environments, one venv each under ``.bench/`` (created with pip).

- ``project``: this repository's distributions with Numba (the compiled kernels),
  reinstalled at every run from built wheels (``--wheels``) or from the package folders;
  ``project-numpy`` runs the same install with ``CHAINER_USE_NUMBA=never``.
- ``torch``: ``torch==2.13.0`` (CPU) and numpy; pip finds the wheel through its
  configured find-links. Reused once it imports.
- ``chainer781``: Chainer 7.8.1, which installs only with ``numpy<2``,
  ``setuptools<70`` and ``--no-build-isolation``. Reused once it imports.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from workspace import load_packages


@dataclass(frozen=True)
class Framework:
    """One framework under test: its venv, the worker flavour it runs, how to install it."""

    key: str
    label: str
    worker: str  # "chainer" or "torch": which *_workloads module the worker imports
    probe: str  # Python that prints the version when the env is ready
    env: tuple[tuple[str, str], ...] = ()  # environment variables of its workers
    venv: str = ""  # the venv it runs in, when another framework's (default: its key)


FRAMEWORKS = {
    "project": Framework("project", "this project", "chainer", ""),
    # the same install without its compiled kernels (Numba): the NumPy path everywhere
    "project-numpy": Framework("project-numpy", "this project, NumPy only", "chainer", "",
                               env=(("CHAINER_USE_NUMBA", "never"),), venv="project"),
    "torch": Framework(
        "torch",
        "pytorch 2.13.0",
        "torch",
        "import numpy, torch; assert torch.__version__.startswith('2.13.0'); "
        "print(torch.__version__)",
    ),
    "chainer781": Framework(
        "chainer781",
        "chainer 7.8.1",
        "chainer",
        "import chainer; assert chainer.__version__ == '7.8.1'; print(chainer.__version__)",
    ),
}


def python_of(venv: Path) -> Path:
    """The interpreter of *venv*."""
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _run(cmd: list[str | Path], log: Path) -> None:
    print("  $", " ".join(str(c) for c in cmd), file=sys.stderr, flush=True)
    with log.open("a") as out:
        done = subprocess.run([str(c) for c in cmd], stdout=out, stderr=subprocess.STDOUT)
    if done.returncode != 0:
        tail = "\n".join(log.read_text(errors="replace").splitlines()[-25:])
        raise RuntimeError(f"command failed ({done.returncode}); end of {log}:\n{tail}")


def _ready(python: Path, probe: str) -> bool:
    if not probe or not python.exists():
        return False
    done = subprocess.run([str(python), "-c", probe], capture_output=True, text=True)
    return done.returncode == 0


def _create(venv: Path, log: Path) -> Path:
    python = python_of(venv)
    if not python.exists():
        _run([sys.executable, "-m", "venv", venv], log)
    return python


def prepare(key: str, envs: Path, root: Path, wheels: Path | None) -> Path:
    """Create or refresh the venv of framework *key*; return its interpreter."""
    framework = FRAMEWORKS[key]
    if framework.venv and framework.venv != key:  # that framework's venv
        shared = python_of(envs / framework.venv)
        return shared if shared.exists() else prepare(framework.venv, envs, root, wheels)
    venv = envs / key
    envs.mkdir(parents=True, exist_ok=True)
    log = envs / f"{key}-install.log"
    python = python_of(venv)
    if _ready(python, framework.probe):
        return python
    print(f"bench: preparing {framework.label} in {venv} (log: {log})", file=sys.stderr)
    python = _create(venv, log)
    pip = [python, "-m", "pip", "install", "--quiet"]
    if key == "torch":
        _run([*pip, "torch==2.13.0", "numpy"], log)
    elif key == "chainer781":
        _run([*pip, "numpy<2", "setuptools<70", "wheel"], log)
        _run([*pip, "--no-build-isolation", "chainer==7.8.1"], log)
    else:
        packages = load_packages(root)
        _run([python, "-m", "pip", "uninstall", "--yes", "--quiet", *packages], log)
        if wheels is not None:
            found = [_wheel(wheels, p.wheel_stem) for p in packages.values()]
        else:
            found = [p.folder for p in packages.values()]
        # with Numba: the compiled kernels (the jit extra); project-numpy turns them off
        _run([*pip, *found, "numba>=0.60"], log)
    if framework.probe and not _ready(python, framework.probe):
        raise RuntimeError(f"{framework.label} does not import in {venv}; see {log}")
    return python


def _wheel(wheels: Path, stem: str) -> Path:
    matches = sorted(wheels.glob(f"{stem}-*.whl"))
    if not matches:
        raise RuntimeError(f"no wheel {stem}-*.whl in {wheels}")
    return matches[-1]
