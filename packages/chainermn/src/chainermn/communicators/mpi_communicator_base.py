"""Communicators on an mpi4py communicator: every transfer of arrays and objects.

Arrays of any dtype and shape (empty and 0-dim ones too) move as bytes, after a small
pickled header with their shapes and dtypes; CuPy arrays go through host memory. The
gradient averaging of a model is left to the subclasses.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy

import chainer
from chainermn.communicators import _communication_utility as utility
from chainermn.communicators import _memory_utility as memory
from chainermn.communicators.communicator_base import CommunicatorBase

if TYPE_CHECKING:
    from mpi4py import MPI

    from chainer.link import Link
    from chainer.types import DTypeSpec, NdArray


def _as_array_list(data: Any) -> tuple[list[Any], bool]:
    """The arrays of ``data`` (an array or a tuple/list of them) and whether it was a tuple."""
    if isinstance(data, (tuple, list)):
        arrays, is_tuple = list(data), True
    else:
        arrays, is_tuple = [data], False
    for a in arrays:
        if not hasattr(a, 'dtype') or not hasattr(a, 'shape'):
            raise TypeError(f'expected NumPy/CuPy arrays, got {type(a).__name__} (send Python '
                            'objects with the *_obj methods)')
    return arrays, is_tuple


def _check_rank(value: Any, size: int, name: str) -> int:
    if not isinstance(value, (int, numpy.integer)) or not 0 <= value < size:
        raise ValueError(f'{name} must be a rank in [0, {size}), got {value!r}')
    return int(value)


class MpiCommunicatorBase(CommunicatorBase):
    """A communicator over the processes of ``mpi_comm`` (an mpi4py communicator).

    Creating one is collective: every process of ``mpi_comm`` must create it.

    Attributes:
        mpi_comm: the mpi4py communicator.
    """

    def __init__(self, mpi_comm: MPI.Comm) -> None:
        super().__init__()
        ranks = utility.init_ranks(mpi_comm)
        object.__setattr__(self, 'mpi_comm', mpi_comm)
        object.__setattr__(self, '_ranks', ranks)

    # -- topology ----------------------------------------------------------------------
    @property
    def rank(self) -> int:
        """Rank of this process in :attr:`mpi_comm`."""
        return self._ranks[0]

    @property
    def size(self) -> int:
        """Number of processes of :attr:`mpi_comm`."""
        return self.mpi_comm.size

    @property
    def intra_rank(self) -> int:
        """Rank of this process among the processes on its host."""
        return self._ranks[1]

    @property
    def intra_size(self) -> int:
        """Number of processes on this process's host."""
        return self._ranks[2]

    @property
    def inter_rank(self) -> int:
        """Rank of this process's host among the hosts."""
        return self._ranks[3]

    @property
    def inter_size(self) -> int:
        """Number of hosts."""
        return self._ranks[4]

    def split(self, color: int, key: int) -> MpiCommunicatorBase:
        """A communicator of the same class over the processes with the same ``color``."""
        sub = type(self)(self.mpi_comm.Split(color, key))
        sub._configs.update(self._configs)
        return sub

    # -- arrays ------------------------------------------------------------------------------
    def send(self, data: NdArray | Sequence[NdArray], dest: int, tag: int = 0) -> None:
        """Send an array, or a tuple/list of arrays, to ``dest`` (see :meth:`recv`).

        Raises:
            TypeError: when ``data`` holds something that is not an array.
            ValueError: for a bad ``dest``.
        """
        from mpi4py import MPI

        dest = _check_rank(dest, self.size, 'dest')
        arrays, is_tuple = _as_array_list(data)
        gpu = any(memory.is_gpu_array(a) for a in arrays)
        hosts = [memory.to_host(a) for a in arrays]
        heads = [memory.header(a) for a in hosts]
        self.mpi_comm.send((is_tuple, heads, gpu), dest=dest, tag=tag)
        self.mpi_comm.Send([memory.concat_bytes(hosts), MPI.BYTE], dest=dest, tag=tag)

    def recv(self, source: int, tag: int = 0) -> NdArray | tuple[NdArray, ...]:
        """Receive from ``source`` what :meth:`send` sent: an array, or a tuple of arrays
        when a tuple/list was sent (on the current CUDA device when the sender's were on
        a GPU)."""
        from mpi4py import MPI

        status = MPI.Status()
        is_tuple, heads, gpu = self.mpi_comm.recv(source=source, tag=tag, status=status)
        buf = numpy.empty(sum(memory.nbytes(h) for h in heads), numpy.uint8)
        self.mpi_comm.Recv([buf, MPI.BYTE], source=status.Get_source(), tag=status.Get_tag())
        arrays = [memory.to_device(a, gpu) for a in memory.split_bytes(buf, heads)]
        return tuple(arrays) if is_tuple else arrays[0]

    def bcast(self, data: NdArray | None, max_buf_len: int | None = None,
              root: int = 0) -> NdArray:
        """Broadcast the array ``data`` of ``root`` (others pass None); returns it everywhere.

        On ``root`` the returned array is ``data`` itself.
        """
        from mpi4py import MPI

        root = _check_rank(root, self.size, 'root')
        if self.rank == root:
            if data is None:
                raise ValueError('bcast: the root process must give the array to broadcast')
            host = memory.to_host(data)
            head = self.mpi_comm.bcast((memory.header(host), memory.is_gpu_array(data)),
                                       root=root)
            self.mpi_comm.Bcast([memory.as_bytes(host), MPI.BYTE], root=root)
            return data
        head, gpu = self.mpi_comm.bcast(None, root=root)
        buf = memory.empty(head)
        self.mpi_comm.Bcast([memory.as_bytes(buf), MPI.BYTE], root=root)
        return memory.to_device(buf, gpu)

    def gather(self, data: NdArray, root: int = 0) -> tuple[NdArray, ...] | None:
        """Gather the array of every process on ``root``: a tuple by rank there (arrays may
        differ in shape and dtype), None elsewhere."""
        from mpi4py import MPI

        root = _check_rank(root, self.size, 'root')
        host = memory.to_host(data)
        heads = self.mpi_comm.gather((memory.header(host), memory.is_gpu_array(data)),
                                     root=root)
        send = [memory.as_bytes(host), MPI.BYTE]
        if self.rank != root:
            self.mpi_comm.Gatherv(send, None, root=root)
            return None
        counts = [memory.nbytes(h) for h, _ in heads]
        buf = numpy.empty(sum(counts), numpy.uint8)
        self.mpi_comm.Gatherv(send, [buf, counts, _displacements(counts), MPI.BYTE], root=root)
        gpu = memory.is_gpu_array(data)
        return tuple(memory.to_device(a, gpu)
                     for a in memory.split_bytes(buf, [h for h, _ in heads]))

    def allgather(self, x: NdArray) -> tuple[NdArray, ...]:
        """The array of every process, on every process (a tuple by rank)."""
        from mpi4py import MPI

        host = memory.to_host(x)
        heads = self.mpi_comm.allgather(memory.header(host))
        counts = [memory.nbytes(h) for h in heads]
        buf = numpy.empty(sum(counts), numpy.uint8)
        self.mpi_comm.Allgatherv([memory.as_bytes(host), MPI.BYTE],
                                 [buf, counts, _displacements(counts), MPI.BYTE])
        gpu = memory.is_gpu_array(x)
        return tuple(memory.to_device(a, gpu) for a in memory.split_bytes(buf, heads))

    def alltoall(self, xs: Sequence[NdArray]) -> tuple[NdArray, ...]:
        """Send ``xs[i]`` to process ``i``; returns the arrays sent here, by sender rank.

        Raises:
            ValueError: when ``len(xs)`` is not the communicator size.
        """
        from mpi4py import MPI

        arrays, _ = _as_array_list(xs)
        if len(arrays) != self.size:
            raise ValueError(f'alltoall needs one array per process ({self.size}), '
                             f'got {len(arrays)}')
        hosts = [memory.to_host(a) for a in arrays]
        heads = self.mpi_comm.alltoall([memory.header(a) for a in hosts])
        scounts = [a.nbytes for a in hosts]
        rcounts = [memory.nbytes(h) for h in heads]
        buf = numpy.empty(sum(rcounts), numpy.uint8)
        self.mpi_comm.Alltoallv(
            [memory.concat_bytes(hosts), scounts, _displacements(scounts), MPI.BYTE],
            [buf, rcounts, _displacements(rcounts), MPI.BYTE])
        gpu = any(memory.is_gpu_array(a) for a in arrays)
        return tuple(memory.to_device(a, gpu) for a in memory.split_bytes(buf, heads))

    def scatter(self, xs: Sequence[NdArray] | NdArray | None, root: int = 0) -> NdArray:
        """Send ``xs[i]`` of ``root`` to process ``i`` (others pass None); returns the
        array this process got.

        Raises:
            ValueError: when ``root`` has not one array per process.
        """
        from mpi4py import MPI

        root = _check_rank(root, self.size, 'root')
        if self.rank == root:
            arrays, _ = _as_array_list(xs)
            if len(arrays) != self.size:
                raise ValueError(f'scatter needs one array per process ({self.size}), '
                                 f'got {len(arrays)}')
            hosts = [memory.to_host(a) for a in arrays]
            gpu = any(memory.is_gpu_array(a) for a in arrays)
            head, _ = self.mpi_comm.scatter([(memory.header(a), gpu) for a in hosts],
                                            root=root)
            counts = [a.nbytes for a in hosts]
            send = [memory.concat_bytes(hosts), counts, _displacements(counts), MPI.BYTE]
        else:
            head, gpu = self.mpi_comm.scatter(None, root=root)
            send = None
        buf = memory.empty(head)
        self.mpi_comm.Scatterv(send, [memory.as_bytes(buf), MPI.BYTE], root=root)
        return memory.to_device(buf, gpu)

    def allreduce(self, data: NdArray) -> NdArray:
        """The elementwise sum of the array ``data`` over all processes (a new array of
        ``data``'s dtype; float16 is summed in float32)."""
        from mpi4py import MPI

        dtype = numpy.dtype(data.dtype)
        host = memory.to_host(data).astype(utility.reduction_dtype(dtype), copy=False)
        out = numpy.empty_like(host)
        self.mpi_comm.Allreduce(host, out, op=MPI.SUM)
        return memory.to_device(out.astype(dtype, copy=False), memory.is_gpu_array(data))

    # -- objects ---------------------------------------------------------------------------
    def send_obj(self, obj: Any, dest: int, tag: int = 0) -> None:
        """Send a picklable object to ``dest`` with ``tag``."""
        self.mpi_comm.send(obj, dest=_check_rank(dest, self.size, 'dest'), tag=tag)

    def recv_obj(self, source: int, status: MPI.Status | None = None,
                 tag: int | None = None) -> Any:
        """Receive an object from ``source`` (``tag`` None: any tag); an ``mpi4py.MPI.Status``
        given as ``status`` is filled in."""
        from mpi4py import MPI

        return self.mpi_comm.recv(source=source, tag=MPI.ANY_TAG if tag is None else tag,
                                  status=status)

    def bcast_obj(self, obj: Any, max_buf_len: int | None = None, root: int = 0) -> Any:
        """Broadcast a picklable object of any size from ``root`` (chunks of at most
        ``max_buf_len`` bytes, 256 MiB by default)."""
        if max_buf_len is None:
            max_buf_len = utility.DEFAULT_MAX_BUF_LEN
        return utility.chunked_bcast_obj(obj, self.mpi_comm, max_buf_len,
                                         _check_rank(root, self.size, 'root'))

    def gather_obj(self, obj: Any, root: int = 0) -> Any:
        """The objects of all processes as a list by rank on ``root``; None elsewhere."""
        return self.mpi_comm.gather(obj, root=_check_rank(root, self.size, 'root'))

    def allreduce_obj(self, obj: Any) -> Any:
        """The sum of ``obj`` over all processes (objects that support ``+``)."""
        from mpi4py import MPI

        return self.mpi_comm.allreduce(obj, op=MPI.SUM)

    # -- models ----------------------------------------------------------------------------
    def bcast_data(self, model: Link) -> None:
        """Overwrite every initialized parameter of ``model`` with rank 0's values.

        The parameters are packed into one buffer per dtype and broadcast at once.
        """
        from mpi4py import MPI

        params = [p for _, p in sorted(model.namedparams()) if p.array is not None]
        for group in _group_by_dtype([p.array for p in params]):
            arrays = [params[i].array for i in group]
            buf = numpy.concatenate([memory.to_host(a).reshape(-1) for a in arrays])
            self.mpi_comm.Bcast([memory.as_bytes(buf), MPI.BYTE], root=0)
            if self.rank != 0:
                _unpack(buf, arrays)

    def _grads_to_reduce(self, model: Link, zero_fill: bool) -> list[Any]:
        """The gradients that take part in :meth:`multi_node_mean_grad`, by parameter name."""
        grads = []
        for _, param in sorted(model.namedparams()):
            if param.array is None:
                continue
            if param.grad is None:
                if not zero_fill:
                    continue
                param.grad = chainer.backend.get_array_module(param.array).zeros_like(
                    param.array)
            grads.append(param.grad)
        return grads

    def multi_node_mean_grad(self, model: Link, zero_fill: bool = False) -> None:
        """Replace the gradients of ``model`` by their mean over the processes (see
        :meth:`CommunicatorBase.multi_node_mean_grad`).

        Raises:
            ValueError: in debug mode, when a mean gradient is not finite.
        """
        grads = self._grads_to_reduce(model, zero_fill)
        self._mean_grads(grads)
        if chainer.is_debug():
            utility.check_finite(grads)

    def _mean_grads(self, grads: list[Any]) -> None:
        """Average ``grads`` in place over the processes (the subclass's algorithm)."""
        raise NotImplementedError

    def _mean_grad_async(self, model: Link, zero_fill: bool = False) -> Any:
        """Start averaging the gradients of ``model``; returns a handle whose ``wait()``
        finishes it (used by the double-buffering optimizer)."""
        return PendingMean(self.mpi_comm, self._grads_to_reduce(model, zero_fill))


def _displacements(counts: list[int]) -> list[int]:
    out, total = [], 0
    for c in counts:
        out.append(total)
        total += c
    return out


def _group_by_dtype(arrays: list[Any]) -> list[list[int]]:
    """Indexes of ``arrays`` grouped by dtype, in order of first appearance."""
    groups: dict[Any, list[int]] = {}
    for i, a in enumerate(arrays):
        groups.setdefault(numpy.dtype(a.dtype), []).append(i)
    return list(groups.values())


def _unpack(buf: Any, arrays: list[Any], divisor: int | None = None) -> None:
    """Copy consecutive pieces of the flat ``buf`` into ``arrays`` (casting to their dtype),
    divided by ``divisor`` when given."""
    offset = 0
    for a in arrays:
        n = a.size
        piece = buf[offset:offset + n].reshape(a.shape)
        if memory.is_gpu_array(a) and not memory.is_gpu_array(piece):
            piece = memory.to_device(numpy.ascontiguousarray(piece), True)
        if divisor is None:
            a[...] = piece
        else:
            numpy.divide(piece, divisor, out=a, casting='same_kind')
        offset += n


_PACK_BELOW = 1 << 18  # bytes: larger C-contiguous NumPy gradients are reduced in place


def mean_in_place(mpi_comm: MPI.Comm, grads: list[NdArray], pack: bool = True) -> None:
    """Average ``grads`` over ``mpi_comm``, writing the means into them.

    A C-contiguous NumPy gradient of a summable dtype is reduced where it is (no copy)
    when alone, or, with ``pack``, when it is large. The others are packed into one
    buffer per reduction dtype (CuPy gradients on their device first, then moved to
    host memory in one transfer), reduced, and copied back divided by the process count.
    """
    from mpi4py import MPI

    size = mpi_comm.size
    groups: dict[Any, list[Any]] = {}
    for g in grads:
        dtype = utility.reduction_dtype(g.dtype)
        if _in_place_ok(g, dtype) and (not pack or g.nbytes >= _PACK_BELOW):
            mpi_comm.Allreduce(MPI.IN_PLACE, g, op=MPI.SUM)
            numpy.divide(g, size, out=g)
        else:
            groups.setdefault(dtype, []).append(g)
    for dtype, group in groups.items():
        xp = chainer.backend.get_array_module(group[0])
        packed = xp.concatenate([g.reshape(-1).astype(dtype, copy=False) for g in group])
        host = memory.to_host(packed)  # concatenate made a copy: no gradient is aliased
        mpi_comm.Allreduce(MPI.IN_PLACE, host, op=MPI.SUM)
        gpu = memory.is_gpu_array(group[0])
        if gpu:
            host = numpy.divide(host, size, out=host)
        _unpack(memory.to_device(host, gpu), group, None if gpu else size)


def _in_place_ok(g: Any, dtype: DTypeSpec) -> bool:
    return (isinstance(g, numpy.ndarray) and g.dtype == dtype and g.flags.c_contiguous
            and g.flags.writeable)


class PendingMean:
    """Gradients being averaged by non-blocking MPI allreduces (see ``_mean_grad_async``)."""

    def __init__(self, mpi_comm: MPI.Comm, grads: list[NdArray]) -> None:
        from mpi4py import MPI

        self._size = mpi_comm.size
        self._jobs = []
        groups: dict[Any, list[Any]] = {}
        for g in grads:
            groups.setdefault(utility.reduction_dtype(g.dtype), []).append(g)
        for dtype, group in groups.items():
            xp = chainer.backend.get_array_module(group[0])
            host = memory.to_host(
                xp.concatenate([g.reshape(-1).astype(dtype, copy=False) for g in group]))
            request = mpi_comm.Iallreduce(MPI.IN_PLACE, host, op=MPI.SUM)
            self._jobs.append((request, host, group))

    def wait(self) -> None:
        """Wait for the allreduces and write the means into the gradients."""
        for request, host, group in self._jobs:
            request.Wait()
            numpy.divide(host, self._size, out=host)
            _unpack(memory.to_device(host, memory.is_gpu_array(group[0])), group)
        self._jobs = []
