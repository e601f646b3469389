"""Splitting a dataset of one process among all the processes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy

from chainer.datasets import SubDataset
from chainermn.communicators import _communication_utility as utility

if TYPE_CHECKING:
    from chainer.dataset.dataset_mixin import DatasetLike
    from chainermn.communicators.communicator_base import CommunicatorBase



class DataSizeError(RuntimeError):
    """A dataset too large to scatter (kept for v7 code that catches it)."""


def _scatter_index(n_total_samples: int, size: int,
                   force_equal_length: bool) -> Iterator[tuple[int, int, int]]:
    """The ``(rank, begin, end)`` index range of each of ``size`` processes.

    With ``force_equal_length`` every range has ``ceil(n / size)`` indexes and the
    ranges are spread evenly over ``[0, n)``, overlapping where needed (so a few samples
    appear twice); otherwise they partition ``[0, n)``, the first ``n % size`` ranges
    one longer than the others.
    """
    if force_equal_length:
        length = -(-n_total_samples // size)
        for rank in range(size):
            begin = n_total_samples * rank // size
            yield rank, begin, begin + length
        return
    begin = 0
    for rank in range(size):
        end = begin + n_total_samples // size + (1 if rank < n_total_samples % size else 0)
        yield rank, begin, end
        begin = end


def _mpi_comm(comm: CommunicatorBase) -> Any:
    """The mpi4py communicator of a ChainerMN communicator (or ``comm`` itself)."""
    return getattr(comm, 'mpi_comm', comm)


def scatter_index(n_total_samples: int, comm: CommunicatorBase, root: int = 0, *,
                  force_equal_length: bool = True) -> tuple[int, int]:
    """This process's ``(begin, end)`` share of ``n_total_samples`` indexes.

    Args:
        n_total_samples: the number of samples (read on ``root`` only).
        comm: a ChainerMN or mpi4py communicator.
        root: the process that decides.
        force_equal_length: give every process the same number of indexes (some
            samples then appear on two processes), as the multi-node updaters and
            evaluators need; when False the shares are disjoint and differ by one at
            most.

    Returns:
        ``(begin, end)``, ``end`` exclusive.
    """
    mpi_comm = _mpi_comm(comm)
    ranges = None
    if mpi_comm.rank == root:
        ranges = [(b, e) for _, b, e in _scatter_index(int(n_total_samples), mpi_comm.size,
                                                       force_equal_length)]
    return mpi_comm.scatter(ranges, root=root)


def scatter_dataset(dataset: DatasetLike, comm: CommunicatorBase, root: int = 0,
                    shuffle: bool = False, seed: int | None = None,
                    max_buf_len: int = 256 * 1024 * 1024, *,
                    force_equal_length: bool = True) -> SubDataset:
    """Split the dataset of process ``root`` among all processes.

    The dataset given on other processes is ignored. Each process gets a
    :class:`chainer.datasets.SubDataset`: on ``root`` a view of ``dataset``, elsewhere of
    the examples sent to it (only its share is sent, pickled, in chunks of at most
    ``max_buf_len`` bytes).

    Args:
        dataset: a dataset (list, array, ``TupleDataset``, ...) on ``root``.
        comm: a ChainerMN or mpi4py communicator.
        root: the process holding the dataset.
        shuffle: shuffle the examples before splitting.
        seed: seed of the shuffle (None: random), for reproducible shares.
        max_buf_len: chunk size in bytes, in ``(0, 2**31 - 1)``.
        force_equal_length: equal shares (a few examples twice, see
            :func:`scatter_index`), as the multi-node updaters and evaluators need;
            False gives disjoint shares for an exact evaluation.

    Returns:
        This process's share.

    Raises:
        ValueError: for a bad ``max_buf_len``.
    """
    mpi_comm = _mpi_comm(comm)
    utility._check_buf_len(max_buf_len)
    if mpi_comm.rank != root:
        examples = utility.chunked_recv_obj(mpi_comm, source=root, tag=0)
        return SubDataset(examples, 0, len(examples))
    n = len(dataset)
    order = numpy.random.RandomState(seed).permutation(n) if shuffle else None
    mine = None
    for rank, begin, end in _scatter_index(n, mpi_comm.size, force_equal_length):
        if rank == root:
            mine = SubDataset(dataset, begin, end, order)
            continue
        indexes = order[begin:end] if order is not None else numpy.arange(begin, end)
        utility.chunked_send_obj(_take(dataset, indexes), mpi_comm, dest=rank, tag=0,
                                 max_buf_len=max_buf_len)
    assert mine is not None  # _scatter_index gives a part to every rank, the root's too
    return mine


def _take(dataset: Any, indexes: numpy.ndarray) -> Any:
    """The examples of ``dataset`` at ``indexes`` (an array slice for an array dataset)."""
    if isinstance(dataset, numpy.ndarray):
        return dataset[indexes]
    return [dataset[int(i)] for i in indexes]
