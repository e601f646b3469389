"""Every task a user or CI runs on this repository.

``python3 -m nox`` runs the default sessions (tests of every package, integration, lint);
``python3 -m nox -s NAME`` runs one; ``python3 -m nox -l`` lists them all.

The distributions under packages/ are built into wheels once per nox invocation
(``.nox/.cache/wheels``) and installed from those files, never editable, so a packaging
mistake fails. Tests run from a scratch folder with ``--import-mode=importlib``: what is
tested is the installed wheel, not ``packages/*/src``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import nox

sys.path.insert(0, str(Path(__file__).resolve().parent / "tools"))

from workspace import Package, by_folder, closure, load_packages, requirement_name

nox.options.default_venv_backend = "uv|virtualenv"
nox.options.sessions = [
    "tests", "tests_without_jit", "integration", "mpi", "doctest", "examples", "lint"
]

ROOT = Path(__file__).resolve().parent
PACKAGES = load_packages(ROOT)
FOLDERS = sorted(by_folder(PACKAGES))
META = "chainer"
RUFF = "ruff==0.17.6"  # the version ruff.toml is checked with
MYPY = "mypy==2.4.1"  # the version mypy.ini is checked with
# the versions the documentation site (docs/) is built with; Sphinx 8.1 still runs on 3.10
DOCS_DEPS = ["sphinx==8.1.3", "furo==2025.12.19", "myst-parser==4.0.1"]
# what mypy needs to see the third-party types the sources use (mypy.ini lists the
# untyped ones it skips)
MYPY_DEPS = ["numpy", "mpi4py", "pillow", "matplotlib", "packaging", "filelock", "scipy-stubs",
             "onnx"]
PYTEST = "pytest>=8"
PYTEST_INI = """\
[pytest]
markers =
    gpu: needs a CUDA device; runs only in `nox -s gpu`
    slow: takes long
"""
IMPORTS = [
    "chainer",
    "chainer.links",
    "chainer.optimizers",
    "chainer.datasets",
    "chainer.iterators",
    "chainer.serializers",
    "chainer.training",
    "chainer.training.extensions",
    "chainer.distributions",
    "chainermn",
    "onnx_chainer",
    # `pip install ./packages/*` must leave a working mpi4py, never one without an MPI
    "mpi4py.MPI",
]
CHECK_INSTALLED = str(ROOT / "tools" / "check_installed.py")
# chainermn needs an MPI library and mpiexec at run time: it depends on the MPICH wheel
# from PyPI, which ships both, so a fresh machine needs nothing else. MPICH runs as root
# and oversubscribes the cores without options, and stops a hung job after
# MPIEXEC_TIMEOUT seconds.
MN = "chainermn"
MPIEXEC_ENV = {"MPIEXEC_TIMEOUT": "900"}
MPI_SIZES = (2, 3)

_wheels: dict[str, Path] = {}


def _uv() -> str | None:
    """The uv executable nox uses, or None."""
    try:
        has_uv, uv, _ = nox.virtualenv.find_uv()
    except AttributeError:
        return shutil.which("uv")
    return uv if has_uv else None


def _build(session: nox.Session, folders: list[Path], out: Path, wheel_only: bool) -> None:
    """Build *folders* into *out*: wheels only, or sdists and wheels built from them."""
    if not folders:
        return
    flags = ["--wheel"] if wheel_only else []
    uv = _uv() if session.venv_backend == "uv" else None
    if not uv:
        session.install("build")
    for folder in folders:
        if uv:
            session.run(uv, "build", "-q", *flags, "--out-dir", str(out), str(folder),
                        external=True)  # fmt: skip
        else:
            session.run("python", "-m", "build", *flags, "--outdir", str(out), str(folder))


def wheels(session: nox.Session, names: list[str] | None = None) -> dict[str, Path]:
    """Wheels of *names* (default: all), each built at most once per nox run, by dist name."""
    out = (session.cache_dir / "wheels").resolve()
    if not _wheels:
        shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True, exist_ok=True)
    todo = [PACKAGES[n] for n in (names or PACKAGES) if n not in _wheels]
    _build(session, [p.folder for p in todo], out, wheel_only=True)
    for package in todo:
        found = sorted(out.glob(f"{package.wheel_stem}-*.whl"))
        if len(found) != 1:
            session.error(f"expected one wheel {package.wheel_stem}-*.whl in {out}")
        _wheels[package.name] = found[0]
    return {n: _wheels[n] for n in (names or PACKAGES)}


def extras(package: Package, only: list[str] | None = None) -> list[str]:
    """Requirements of *package*'s extras (all but the CUDA ones unless named in *only*)."""
    names = only if only is not None else [e for e in package.extras if not e.startswith("cuda")]
    missing = [n for n in names if n not in package.extras]
    if missing:
        raise ValueError(f"{package.name} has no extra {missing}; it has {list(package.extras)}")
    return [req for n in names for req in package.extras[n]]


def own_extras(package: Package) -> list[str]:
    """Requirements of *package*'s extras except the CUDA ones and the distributions of this
    repository (an optional dependency on another distribution, such as autograd-core's
    ``testing`` extra, stays out of the package's own test env: docs/design/boundaries.md)."""
    return [r for r in extras(package) if requirement_name(r) not in PACKAGES]


def install(session: nox.Session, names: list[str], *others: str) -> None:
    """Install the wheels of *names* and of every distribution they depend on, plus *others*.

    A requirement in *others* that names a distribution of this repository (an extra of
    the meta-package, e.g. ``chainermn``) is installed from its wheel too.
    """
    local = [requirement_name(r) for r in others if requirement_name(r) in PACKAGES]
    others = tuple(r for r in others if requirement_name(r) not in PACKAGES)
    needed = closure(PACKAGES, [*names, *local])
    built = wheels(session, needed)
    session.install(*(str(built[n]) for n in needed), *others)


def pytest(session: nox.Session, rootdir: Path, paths: list[Path], *args: str,
           launcher: tuple[str, ...] = (), **kw) -> None:
    """Run pytest on test folders *paths* from a scratch folder, importing with importlib.

    *launcher* prefixes the command, e.g. ``("mpiexec", "-n", "2")``.
    """
    tmp = Path(session.create_tmp()).resolve() / "pytest"
    tmp.mkdir(exist_ok=True)
    # Test folders (never src/) go on sys.path so that tests can share helper modules.
    pythonpath = "".join(f"\n    {p}" for p in paths)
    (tmp / "pytest.ini").write_text(f"{PYTEST_INI}pythonpath ={pythonpath}\n")
    with session.chdir(tmp):
        session.run("python", CHECK_INSTALLED)
        session.run(
            *launcher,
            *(("python", "-m") if launcher else ()),
            "pytest",
            "-c", str(tmp / "pytest.ini"),
            "--rootdir", str(rootdir),
            "--import-mode=importlib",
            "-p", "no:cacheprovider",
            *args,
            *(str(p) for p in paths),
            *session.posargs,
            **kw,
        )  # fmt: skip


@nox.session
@nox.parametrize("package", FOLDERS, ids=FOLDERS)
def tests(session: nox.Session, package: str) -> None:
    """One package's tests, in an env holding only it and its declared dependencies."""
    pkg = by_folder(PACKAGES)[package]
    if not pkg.tests.is_dir():
        session.error(f"{pkg.tests.relative_to(ROOT)} is missing: every package has tests")
    install(session, [pkg.name], *own_extras(pkg), *pkg.test_requires, PYTEST)
    pytest(session, pkg.folder, [pkg.tests], "-m", "not gpu")


# distributions with compiled kernels (a `jit` extra): `tests` runs them with Numba, and
# `tests_without_jit` without it (every function on its NumPy path)
JIT_FOLDERS = [f for f in FOLDERS
               if "jit" in by_folder(PACKAGES)[f].extras and by_folder(PACKAGES)[f].name != META]


@nox.session
@nox.parametrize("package", JIT_FOLDERS, ids=JIT_FOLDERS)
def tests_without_jit(session: nox.Session, package: str) -> None:
    """A package with compiled kernels, tested in an env without Numba."""
    pkg = by_folder(PACKAGES)[package]
    names = [e for e in pkg.extras if not e.startswith("cuda") and e != "jit"]
    others = [r for r in extras(pkg, names) if requirement_name(r) not in PACKAGES]
    install(session, [pkg.name], *others, *pkg.test_requires, PYTEST)
    session.run("python", "-c", "import importlib.util, sys; "
                "sys.exit(importlib.util.find_spec('numba') is not None)")  # fmt: skip
    pytest(session, pkg.folder, [pkg.tests], "-m", "not gpu")


@nox.session
def fuzz(session: nox.Session) -> None:
    """Long property-based fuzzing of every function of chainer.functions (hypothesis
    profile ``long``); prints the counts of calls and outcomes."""
    pkg = PACKAGES["chainer-autograd-core"]
    install(session, [pkg.name], *own_extras(pkg), *pkg.test_requires, PYTEST)
    report = Path(session.create_tmp()).resolve() / "fuzz-report.json"
    env = {"HYPOTHESIS_PROFILE": "long", "CHAINER_FUZZ_REPORT": str(report)}
    pytest(session, pkg.folder, [pkg.tests], "-q", "-k", "test_fuzz_functions", env=env)
    session.log(f"fuzz report ({report}):")
    print(report.read_text())


@nox.session
def integration(session: nox.Session) -> None:
    """tests-integration/ with every package (meta-package and its optional extras)."""
    install(session, [META], *extras(PACKAGES[META]), PYTEST)
    pytest(session, ROOT, [ROOT / "tests-integration"], "-m", "not gpu")


@nox.session
def mpi(session: nox.Session) -> None:
    """chainermn's tests in MPI jobs of 2 and 3 processes on CPU (chainermn's MPICH wheel)."""
    pkg = PACKAGES[MN]
    install(session, [MN], *extras(pkg), PYTEST)
    session.run("mpiexec", "--version", silent=True)
    for n in MPI_SIZES:
        session.log(f"chainermn tests in an MPI job of {n} processes")
        pytest(session, pkg.folder, [pkg.tests], "-q", "-m", "not gpu",
               launcher=("mpiexec", "-n", str(n)), env=MPIEXEC_ENV)


@nox.session
def lint(session: nox.Session) -> None:
    """ruff, mypy over packages/*/src (mypy.ini), the layout check (ownership and import
    DAG), and the tools' own tests."""
    session.install(RUFF, MYPY, *MYPY_DEPS, PYTEST, "tomli; python_version < '3.11'")
    checks = {
        "ruff": ["ruff", "check", "."],
        "mypy": ["mypy", "--config-file", "mypy.ini"],
        "layout": ["python", "tools/check_layout.py"],
        "tools tests": ["pytest", "-q", "-p", "no:cacheprovider", "tools/tests"],
    }
    failed = []
    for name, command in checks.items():
        try:
            session.run(*command)
        except nox.command.CommandFailed:
            failed.append(name)
    if failed:
        session.error(f"failed: {', '.join(failed)}")


@nox.session
def docs(session: nox.Session) -> None:
    """The documentation site (docs/) with Sphinx, warnings as errors, into docs/_build/html.

    The API pages import the installed wheels (the meta-package with its extras, and
    chainermn), as the tests do.
    """
    # the meta-package's caffe extra names chainer-links[caffe], whose wheel install()
    # takes without the extra: protobuf (for chainer.links.caffe) is named here
    links_caffe = extras(PACKAGES["chainer-links"], ["caffe"])
    install(session, [META], *extras(PACKAGES[META]), *links_caffe, *DOCS_DEPS)
    out = ROOT / "docs" / "_build" / "html"
    session.run("sphinx-build", "-E", "-b", "html", "-W", "--keep-going",
                str(ROOT / "docs"), str(out), *session.posargs)  # fmt: skip
    session.log(f"open {out.relative_to(ROOT) / 'index.html'}")


# the installed top-level packages whose docstrings nox -s doctest runs
DOCTEST_PACKAGES = ["chainer", "chainermn", "onnx_chainer"]
DOCTEST_FLAGS = "NORMALIZE_WHITESPACE ELLIPSIS NUMBER"


@nox.session
def doctest(session: nox.Session) -> None:
    """Every ``>>>`` example in the installed distributions' docstrings and in docs/ runs,
    and its shown output is checked (NumPy's printing, whitespace and ``...`` loosened)."""
    links_caffe = extras(PACKAGES["chainer-links"], ["caffe"])
    install(session, [META], *extras(PACKAGES[META]), *links_caffe,
            *extras(PACKAGES["onnx-chainer"], ["runtime"]), PYTEST)
    # only doctests: no test modules (chainer.testing has *_test.py helpers)
    opts = ("-o", f"doctest_optionflags={DOCTEST_FLAGS}", "-o", "python_files=__none__.py")
    tmp = Path(session.create_tmp()).resolve() / "doctest"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    with session.chdir(tmp):  # examples that write files write here
        session.run("python", "-m", "pytest", "-q", "-p", "no:cacheprovider", *opts,
                    "--doctest-modules", "--pyargs", *DOCTEST_PACKAGES,
                    env={"MPLBACKEND": "Agg"})
        session.run("python", "-m", "pytest", "-q", "-p", "no:cacheprovider", *opts,
                    "--doctest-glob=*.md", "--rootdir", str(ROOT / "docs"),
                    "--ignore", str(ROOT / "docs" / "_build"), str(ROOT / "docs"),
                    env={"MPLBACKEND": "Agg"})


@nox.session
def build(session: nox.Session) -> None:
    """Wheels and sdists of every distribution, metadata checked, installed together, imported."""
    out = Path(session.create_tmp()).resolve() / "dist"
    shutil.rmtree(out, ignore_errors=True)
    _build(session, [p.folder for p in PACKAGES.values()], out, wheel_only=False)
    built_wheels = sorted(out.glob("*.whl"))
    sdists = sorted(out.glob("*.tar.gz"))
    if len(built_wheels) != len(PACKAGES) or len(sdists) != len(PACKAGES):
        session.error(f"expected {len(PACKAGES)} wheels and sdists in {out}")
    session.install("twine")
    session.run("twine", "check", "--strict", *map(str, built_wheels + sdists))
    env = Path(session.create_tmp()).resolve() / "fresh-env"
    shutil.rmtree(env, ignore_errors=True)
    python = _fresh_env(session, env)
    _env_install(session, python, *map(str, built_wheels))
    with session.chdir(env):
        session.run(str(python), CHECK_INSTALLED, *IMPORTS, external=True)
    session.log(f"{len(built_wheels)} wheels in {out}:")
    for wheel in built_wheels:
        print(wheel.name)


def _fresh_env(session: nox.Session, env: Path) -> Path:
    """Create an empty venv at *env* beside the session's own; return its python."""
    uv = _uv() if session.venv_backend == "uv" else None
    if uv:
        session.run(uv, "venv", "-q", "-p", sys.executable, str(env), external=True)
    else:
        session.run(sys.executable, "-m", "venv", str(env), external=True)
    return env / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _env_install(session: nox.Session, python: Path, *requirements: str) -> None:
    uv = _uv() if session.venv_backend == "uv" else None
    if uv:
        cmd = [uv, "pip", "install", "-q", "--python", str(python)]
    else:
        cmd = [str(python), "-m", "pip", "install", "-q"]
    session.run(*cmd, *requirements, external=True)


def _example_script(folder: Path) -> Path | None:
    """The main script of an example folder: NAME/NAME.py, main.py, train.py, or the only .py."""
    for name in (f"{folder.name}.py", "main.py", "train.py"):
        if (folder / name).is_file():
            return folder / name
    scripts = sorted(folder.glob("*.py"))
    return scripts[0] if len(scripts) == 1 else None


# the last line of this form an example prints is its final metric in `nox -s examples`
FINAL_METRIC = re.compile(r"^final (?P<name>[^:\n]+?): (?P<value>\S+)\s*$", re.M)


@nox.session
def examples(session: nox.Session) -> None:
    """Run every examples/*/ main script in a scratch copy (with --quick when it has one;
    under ``mpiexec -n 2`` when it imports chainermn); print a table of each one's time
    and final metric (its last ``final NAME: VALUE`` line)."""
    folders = sorted(p for p in (ROOT / "examples").glob("*/") if p.is_dir())
    if not folders:
        session.error("no examples/ folder with an example in it")
    install(session, [META], *extras(PACKAGES[META]),
            *extras(PACKAGES["onnx-chainer"], ["runtime"]))
    tmp = Path(session.create_tmp()).resolve() / "examples"
    shutil.rmtree(tmp, ignore_errors=True)
    rows = []
    for folder in folders:
        script = _example_script(folder)
        if script is None:
            session.error(f"{folder.relative_to(ROOT)}: cannot tell its main script")
        copy = tmp / folder.name
        shutil.copytree(folder, copy, ignore=shutil.ignore_patterns("result", "__pycache__"))
        text = script.read_text()
        quick = ["--quick"] if "--quick" in text else []
        # a ChainerMN example runs as an MPI job of 2 processes
        launcher = ["mpiexec", "-n", "2"] if "import chainermn" in text else []
        start = time.perf_counter()
        with session.chdir(copy):
            out = session.run(*launcher, "python", script.name, *quick, silent=True,
                              env={"MPLBACKEND": "Agg", **MPIEXEC_ENV})
        seconds = time.perf_counter() - start
        print(out or "", end="")
        found = FINAL_METRIC.findall(out or "")
        metric = f"{found[-1][0]} = {found[-1][1]}" if found else "-"
        rows.append((folder.name, f"{seconds:.1f}", metric))
    widths = [max(len(r[i]) for r in rows + [("example", "seconds", "final metric")])
              for i in range(3)]
    session.log("examples:")
    for row in [("example", "seconds", "final metric"), *rows]:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)))


@nox.session
def glance(session: nox.Session) -> None:
    """The "Chainer at a Glance" example: trains on mushrooms.csv, writes its result/."""
    folder = ROOT / "examples" / "glance"
    if not (folder / "glance.py").is_file():
        session.error("examples/glance/glance.py does not exist yet")
    install(session, [META], *extras(PACKAGES[META], ["plot"]))
    with session.chdir(folder):
        session.run("python", "glance.py", *session.posargs, env={"MPLBACKEND": "Agg"})
    session.log(f"log and plots are in {(folder / 'result').relative_to(ROOT)}/")


@nox.session
def bench(session: nox.Session) -> None:
    """Step times against PyTorch CPU and Chainer 7.8.1 (``-- mlp --steps 10``: subset)."""
    built = wheels(session)
    folder = next(iter(built.values())).parent
    session.run("python", "tools/bench/run.py", "--wheels", str(folder), *session.posargs)


@nox.session
def mnbench(session: nox.Session) -> None:
    """ChainerMN timings: gradient averaging of 25M parameters against one MPI_Allreduce
    (2 processes), and the mlp step on 1 and 2 processes (tools/bench/mn.py)."""
    install(session, [MN])
    script = str(ROOT / "tools" / "bench" / "mn.py")
    one_thread = {name: "1" for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS",
                                         "OPENBLAS_NUM_THREADS")}  # fmt: skip
    env = {**MPIEXEC_ENV, **one_thread}
    session.run("mpiexec", "-n", "2", "python", script, "allreduce", *session.posargs, env=env)
    for n, batch in ((1, 100), (2, 100), (2, 50)):
        session.run("mpiexec", "-n", str(n), "python", script, "mlp", "--batch", str(batch),
                    "--repeat", "30", env=env)


@nox.session
def compat(session: nox.Session) -> None:
    """Outputs and gradients compared with Chainer 7.8.1 on tools/compat/cases (``-- FILE``)."""
    # the project runs from packages/*/src: its third-party dependencies are installed here
    session.install("numpy", "scipy", "filelock", "threadpoolctl")
    session.run("python", "tools/compat/run.py", *session.posargs)


@nox.session
def api(session: nox.Session) -> None:
    """Coverage of the Chainer v7 API checklist (``-- --module chainer.functions --missing``)."""
    install(session, [META], *extras(PACKAGES[META]))
    session.run("python", "tools/api_coverage.py", *session.posargs)


def _cuda_device() -> str | None:
    """A line naming the first CUDA device nvidia-smi lists, or None."""
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return None
    try:
        done = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = [line for line in done.stdout.splitlines() if line.startswith("GPU")]
    return lines[0] if done.returncode == 0 and lines else None


def _cuda_extra(session: nox.Session, skipped: str) -> list[str]:
    """The requirements of the meta-package's CuPy and cuDNN extras ($CHAINER_CUDA_EXTRA,
    default cuda12, and the cudnn12 / cudnn13 that goes with it); skips the session,
    saying what is ``skipped``, where no CUDA device is found."""
    device = _cuda_device()
    if device is None:
        session.skip(f"no CUDA device (nvidia-smi is missing or lists no GPU): {skipped}")
    session.log(f"CUDA device: {device}")
    cuda = os.environ.get("CHAINER_CUDA_EXTRA", "cuda12")
    return extras(PACKAGES[META], [cuda, cuda.replace("cuda", "cudnn")])


@nox.session
def gpu(session: nox.Session) -> None:
    """The gpu-marked tests of every package and of tests-integration, with CuPy.

    The CuPy extra of the meta-package comes from $CHAINER_CUDA_EXTRA (default cuda12).
    Without a CUDA device the session says so and is skipped (exit status 0).
    """
    cuda = _cuda_extra(session, "GPU tests not run")
    install(session, [META], *extras(PACKAGES[META]), *cuda, PYTEST)
    session.run("python", "-c", "import cupy; print('cupy', cupy.__version__, 'devices:', "
                "cupy.cuda.runtime.getDeviceCount())")  # fmt: skip
    paths = [by_folder(PACKAGES)[f].tests for f in FOLDERS] + [ROOT / "tests-integration"]
    pytest(session, ROOT, [p for p in paths if p.is_dir()], "-m", "gpu", success_codes=[0, 5])


@nox.session
def gpubench(session: nox.Session) -> None:
    """Step times on a CUDA GPU against PyTorch CUDA (tools/bench/gpu.py; ``-- lstm``).

    Installs the meta-package with the CuPy extra of $CHAINER_CUDA_EXTRA (default cuda12)
    and a CUDA build of PyTorch; skipped without a CUDA device.
    """
    install(session, [META], *_cuda_extra(session, "nothing to time"), "torch")
    session.run("python", "tools/bench/gpu.py", *session.posargs)
