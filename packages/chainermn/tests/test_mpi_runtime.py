"""Installing chainermn brings an MPI that mpi4py can load, and its launcher."""

import importlib.metadata
import os
import shutil
import sys


def test_mpi_library_loads():
    # mpi4py without an MPI library raises RuntimeError here, which probes written as
    # `try: import mpi4py.MPI / except ImportError` do not expect
    from mpi4py import MPI

    assert MPI.Get_library_version().strip()
    assert MPI.COMM_WORLD.Get_size() >= 1


def test_an_mpi_runtime_is_a_dependency():
    requires = importlib.metadata.requires('chainermn') or []
    names = {r.split(';')[0].split('>')[0].split('=')[0].strip() for r in requires}
    assert {'mpi4py', 'mpich', 'impi-rt'} <= names


def test_mpiexec_installed_next_to_python():
    bindir = os.path.dirname(sys.executable)
    assert shutil.which('mpiexec', path=bindir) or shutil.which('mpiexec')
