"""Helpers shared by the chainermn tests."""

from __future__ import annotations

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L


def world_size() -> int:
    from mpi4py import MPI

    return MPI.COMM_WORLD.size


def needs_processes(n: int):
    """Skip (on every process) unless the job has at least ``n`` processes."""
    return pytest.mark.skipif(world_size() < n, reason=f'needs {n} or more MPI processes '
                              '(run with nox -s mpi)')


class MLP(chainer.Chain):
    """A small classifier used by the training tests."""

    def __init__(self, n_in: int = 4, n_hidden: int = 8, n_out: int = 3) -> None:
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(n_in, n_hidden)
            self.l2 = L.Linear(n_hidden, n_out)

    def forward(self, x):
        return self.l2(F.tanh(self.l1(x)))


def classification_data(n: int, n_in: int = 4, n_out: int = 3, seed: int = 0):
    """``n`` examples ``(x float32, t int32)``, the same on every process."""
    rng = numpy.random.RandomState(seed)
    x = rng.randn(n, n_in).astype(numpy.float32)
    t = (numpy.abs(x[:, 0] * 3).astype(numpy.int32)) % n_out
    return x, t


def same_on_all(comm, value) -> bool:
    """Whether the array ``value`` is equal on every process."""
    values = comm.mpi_comm.allgather(numpy.asarray(value))
    return all(numpy.array_equal(values[0], v) for v in values[1:])
