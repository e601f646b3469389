"""Data-parallel training with one process per GPU, gradients exchanged through NCCL."""

from __future__ import annotations

import multiprocessing
import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy

import chainer
from chainer import backend
from chainer import reporter as reporter_module
from chainer.backends import cuda
from chainer.dataset import convert
from chainer.training._converter import call_converter, call_with_arrays
from chainer.training.updaters.standard_updater import StandardUpdater
from chainer.training.util import _optimizer_target

if TYPE_CHECKING:
    from chainer.dataset.iterator import Iterator
    from chainer.link import Link
    from chainer.optimizer import Optimizer
    from chainer.types import DeviceSpec, DTypeSpec, NdArray

_CPU_FOR_TESTS = False
"""Let CPU devices exchange arrays through pipes instead of NCCL (this package's tests)."""


def _nccl() -> Any:
    """CuPy's NCCL module, or None when CuPy, a CUDA device or NCCL is missing."""
    if not cuda.available:
        return None
    try:
        from cupy.cuda import nccl
    except Exception:
        return None
    if not getattr(nccl, 'available', True):
        return None
    return nccl


def _missing_reason() -> str:
    if not cuda.available:
        return ('CuPy with a CUDA device is not available here (install cupy-cuda12x or '
                'cupy-cuda13x on a machine with an NVIDIA GPU)')
    return ('CuPy was built without NCCL (install NCCL, e.g. `pip install '
            'nvidia-nccl-cu12`, or a CuPy wheel that includes it)')


# -- gathering all gradients or parameters into one array -------------------------


def _sized_params(link: Link) -> list[Any]:
    """The parameters of ``link`` holding data, in a fixed order (sorted by path)."""
    return [p for _, p in sorted(link.namedparams(), key=lambda item: item[0])
            if p.array is not None and p.size > 0]


def _buffer_dtype(params: list[Any]) -> Any:
    dtypes = {numpy.dtype(p.dtype) for p in params}
    if dtypes <= {numpy.dtype(numpy.float16), numpy.dtype(numpy.float32)}:
        return numpy.dtype(numpy.float32)  # half-precision values travel as float32
    return numpy.result_type(*dtypes)


def _gather(link: Link, attr: str) -> Any:
    params = _sized_params(link)
    xp = link.xp
    dtype = _buffer_dtype(params) if params else numpy.dtype(numpy.float32)
    parts = []
    for p in params:
        array = getattr(p, attr)
        if array is None:
            parts.append(xp.zeros(p.size, dtype=dtype))
        else:
            parts.append(array.ravel().astype(dtype, copy=False))
    if not parts:
        return xp.zeros(0, dtype=dtype)
    return xp.concatenate(parts)


def _scatter(link: Link, array: Any, attr: str) -> None:
    params = _sized_params(link)
    total = sum(p.size for p in params)
    if array.size != total:
        raise ValueError(f'the gathered array has {array.size} values but the link\'s '
                         f'parameters have {total}')
    offset = 0
    xp = link.xp
    for p in params:
        chunk = array[offset:offset + p.size].reshape(p.shape).astype(p.dtype, copy=False)
        offset += p.size
        target = getattr(p, attr)
        if target is None:
            setattr(p, attr, xp.array(chunk, copy=True))
        else:
            target[...] = chunk


def _require_gpu(link: Link, name: str) -> None:
    if link.xp is numpy:
        raise RuntimeError(f'{name} works only on GPU: the link holds NumPy arrays')


def size_num_grads(link: Link) -> tuple[int, int]:
    """Return the total size and the number of the non-empty parameters of ``link``."""
    params = _sized_params(link)
    return sum(p.size for p in params), len(params)


def gather_grads(link: Link) -> NdArray:
    """Return the gradients of all parameters of ``link`` in one flat GPU array.

    The parameters are taken in the order of their paths; a missing gradient counts
    as zeros; half-precision values are gathered as float32.

    Raises:
        RuntimeError: if the link is on the CPU.
    """
    _require_gpu(link, 'gather_grads')
    return _gather(link, 'grad')


def gather_params(link: Link) -> NdArray:
    """Return the data of all parameters of ``link`` in one flat GPU array.

    Raises:
        RuntimeError: if the link is on the CPU.
    """
    _require_gpu(link, 'gather_params')
    return _gather(link, 'data')


def scatter_grads(link: Link, array: NdArray) -> None:
    """Write an array made by :func:`gather_grads` back into the gradients of ``link``.

    Raises:
        ValueError: if the array does not have one value per parameter element.
    """
    _scatter(link, array, 'grad')


def scatter_params(link: Link, array: NdArray) -> None:
    """Write an array made by :func:`gather_params` back into the parameters of ``link``.

    Raises:
        ValueError: if the array does not have one value per parameter element.
    """
    _scatter(link, array, 'data')


# -- communicators: sum to the main process, broadcast from it ----------------------


class _NcclCommunicator:
    def __init__(self, n_devices: int, comm_id: Any, rank: int) -> None:
        self._nccl = _nccl()
        self._comm = self._nccl.NcclCommunicator(n_devices, comm_id, rank)

    def _dtype(self, dtype: DTypeSpec) -> Any:
        names = {numpy.dtype(numpy.float16): 'NCCL_HALF', numpy.dtype(numpy.float32):
                 'NCCL_FLOAT', numpy.dtype(numpy.float64): 'NCCL_DOUBLE'}
        name = names.get(numpy.dtype(dtype))
        if name is None:
            raise RuntimeError(f'NCCL cannot exchange arrays of {dtype}')
        return getattr(self._nccl, name)

    def reduce(self, array: Any) -> None:
        stream = cuda.cupy.cuda.Stream.null
        self._comm.reduce(array.data.ptr, array.data.ptr, array.size, self._dtype(array.dtype),
                          self._nccl.NCCL_SUM, 0, stream.ptr)

    def bcast(self, array: Any) -> None:
        stream = cuda.cupy.cuda.Stream.null
        self._comm.bcast(array.data.ptr, array.size, self._dtype(array.dtype), 0, stream.ptr)


class _PipeCommunicator:
    """The same exchanges over the job pipes, for CPU devices (tests)."""

    def __init__(self, pipes: list[Any], is_root: bool) -> None:
        self._pipes = pipes
        self._is_root = is_root

    def reduce(self, array: Any) -> None:
        if self._is_root:
            for pipe in self._pipes:
                array += pipe.recv()
        else:
            self._pipes[0].send(array)

    def bcast(self, array: Any) -> None:
        if self._is_root:
            for pipe in self._pipes:
                pipe.send(array)
        else:
            array[...] = self._pipes[0].recv()


# -- the worker processes ---------------------------------------------------------


class _Worker(multiprocessing.Process):
    """A process computing the gradients of one device's batches for the main process."""

    def __init__(self, rank: int, pipe: Any, updater: MultiprocessParallelUpdater) -> None:
        super().__init__(name=f'chainer-mpu-worker-{rank}', daemon=True)
        self.rank = rank
        self.pipe = pipe
        self.converter = updater.converter
        self.model = updater._master
        self.device = updater._devices[rank]
        self.iterator = updater._mpu_iterators[rank]
        self.n_devices = len(updater._devices)

    def run(self) -> None:
        self.device.use()
        kind, comm_id = self.pipe.recv()
        if kind == 'nccl':
            comm: Any = _NcclCommunicator(self.n_devices, comm_id, self.rank)
        else:
            comm = _PipeCommunicator([self.pipe], is_root=False)
        model = self.model
        model.to_device(self.device)
        reporter = reporter_module.Reporter()
        reporter.add_observer('main', model)
        reporter.add_observers('main', model.namedlinks(skipself=True))
        while True:
            job = self.pipe.recv()
            if job == 'finalize':
                if kind == 'nccl' and isinstance(self.device, backend.GpuDevice):
                    self.device.device.synchronize()
                return
            model.cleargrads()
            in_arrays = call_converter(self.converter, self.iterator.next(), self.device)
            with reporter.scope({}):  # the workers' reports are dropped
                loss = call_with_arrays(model, in_arrays)
            model.cleargrads()
            loss.backward()
            del loss
            comm.reduce(_gather(model, 'grad'))
            model.cleargrads()
            params = _gather(model, 'data')
            comm.bcast(params)
            _scatter(model, params, 'data')


def _cuda_context_initialized() -> bool:
    driver = cuda.cupy.cuda.driver
    try:
        return bool(driver.ctxGetCurrent())
    except driver.CUDADriverError:
        return False


class MultiprocessParallelUpdater(StandardUpdater):
    """Updater running one process per GPU, exchanging gradients through NCCL.

    The first device is the main one: its process is the training process, which
    reads the batches of ``iterators[0]`` and holds the optimizer; one worker
    process per other device reads its own iterator, computes the gradients of its
    batch and sends them (summed by NCCL) to the main process, which updates the
    model and broadcasts the new parameters. Values reported in the workers are
    dropped; only the main process's reports reach the trainer.

    The gradients are a sum over devices of per-device means, so the constructor
    adapts the optimizer to the larger effective batch, with a warning: ``eps`` is
    multiplied by the number of devices for Adam, AdaGrad and RMSprop (by its
    square for RMSpropGraves and AdaDelta), otherwise ``lr`` is divided by it.

    It needs CuPy, CUDA GPUs and NCCL; :meth:`available` tells whether they are
    there. The CUDA context must not be initialized in the training process before
    the workers start, unless the multiprocessing start method is ``'spawn'`` or
    ``'forkserver'``.

    Args:
        iterators: One dataset iterator per device (datasets of the same length).
        optimizer: The optimizer of the model.
        converter: Batch converter (:func:`chainer.dataset.concat_examples`), called
            with each process's batch and device.
        devices: A list or tuple of devices (the first is the main one), or a dict
            with a ``'main'`` entry; GPU ids, ``'@cupy:N'`` or devices.
        auto_new_epoch: Call ``optimizer.new_epoch(auto=True)`` whenever the main
            iterator completes an epoch.

    Raises:
        RuntimeError: where CuPy, a CUDA device or NCCL is missing (the message says
            which), or the CUDA context is already initialized under ``fork``.
        ValueError: for devices that are not a list, tuple or dict, a missing device,
            or a number of iterators different from the number of devices.
    """

    def __init__(
        self,
        iterators: Sequence[Iterator],
        optimizer: Optimizer,
        converter: Callable[..., Any] = convert.concat_examples,
        devices: list[DeviceSpec] | tuple[DeviceSpec, ...] | dict[str, DeviceSpec] | None = None,
        auto_new_epoch: bool = True,
    ) -> None:
        if not (_CPU_FOR_TESTS or MultiprocessParallelUpdater.available()):
            raise RuntimeError('MultiprocessParallelUpdater needs CUDA GPUs and NCCL: '
                               + _missing_reason())
        device_list = _device_list(devices)
        if not (_CPU_FOR_TESTS and all(d.xp is numpy for d in device_list)):
            if any(d.xp is numpy for d in device_list):
                raise ValueError('MultiprocessParallelUpdater runs on GPU devices only, got '
                                 f'{[str(d) for d in device_list]}')
            if (_cuda_context_initialized()
                    and multiprocessing.get_start_method() not in ('spawn', 'forkserver')):
                raise RuntimeError(
                    'The CUDA context has been already initialized: '
                    'MultiprocessParallelUpdater forks its worker processes, which cannot '
                    'use a CUDA context made before the fork. Create the updater before '
                    'any CUDA call, or use multiprocessing.set_start_method with '
                    "'spawn' or 'forkserver'.")
        iterators = list(iterators)
        if len(iterators) != len(device_list):
            raise ValueError(f'MultiprocessParallelUpdater needs one iterator per device: got '
                             f'{len(iterators)} iterators for {len(device_list)} devices')
        _adapt_optimizer(optimizer, len(device_list))
        super().__init__(iterator=iterators[0], optimizer=optimizer, converter=converter,
                         auto_new_epoch=auto_new_epoch)
        self._master = _optimizer_target(optimizer)
        self._devices = device_list
        self._mpu_iterators = iterators
        self._initialized = False
        self._pipes: list[Any] = []
        self._workers: list[_Worker] = []
        self.comm: Any = None

    @staticmethod
    def available() -> bool:
        """Whether CuPy with a CUDA device and NCCL is available."""
        return _nccl() is not None

    def setup_workers(self) -> None:
        """Start the worker processes and the communicator (once, at the first update)."""
        if self._initialized:
            return
        self._initialized = True
        self._master.cleargrads()
        for rank in range(1, len(self._devices)):
            pipe, worker_end = multiprocessing.Pipe()
            worker = _Worker(rank, worker_end, self)
            worker.start()
            self._workers.append(worker)
            self._pipes.append(pipe)
        with chainer.using_device(self._devices[0]):
            self._master.to_device(self._devices[0])
            if len(self._devices) == 1:
                return
            if self._devices[0].xp is numpy:
                for pipe in self._pipes:
                    pipe.send(('pipe', None))
                self.comm = _PipeCommunicator(self._pipes, is_root=True)
            else:
                comm_id = _nccl().get_unique_id()
                for pipe in self._pipes:
                    pipe.send(('nccl', comm_id))
                self.comm = _NcclCommunicator(len(self._devices), comm_id, 0)

    def update_core(self) -> None:
        """Compute the gradients in every process, sum them, update, broadcast."""
        self.setup_workers()
        for pipe in self._pipes:
            pipe.send('update')
        with chainer.using_device(self._devices[0]):
            master = self._master
            optimizer = self.get_optimizer('main')
            iterator = self.get_iterator('main')
            master.cleargrads()
            in_arrays = call_converter(self.converter, iterator.next(), self._devices[0])
            loss = call_with_arrays(master, in_arrays)
            master.cleargrads()
            loss.backward()
            del loss
            if self.comm is not None:
                grads = _gather(master, 'grad')
                self.comm.reduce(grads)
                _scatter(master, grads, 'grad')
                del grads
            optimizer.update()
            if self.comm is not None:
                self.comm.bcast(_gather(master, 'data'))
            if self.auto_new_epoch and iterator.is_new_epoch:
                optimizer.new_epoch(auto=True)

    def finalize(self) -> None:
        """Stop the worker processes and finalize the iterators."""
        for pipe in self._pipes:
            pipe.send('finalize')
        for worker in self._workers:
            worker.join()
        self._pipes = []
        self._workers = []
        super().finalize()


def _device_list(devices: object) -> list[backend.Device]:
    if isinstance(devices, dict):
        if 'main' not in devices:
            raise ValueError("MultiprocessParallelUpdater: the devices dict needs a 'main' "
                             'entry')
        ordered = [devices['main']] + [d for k, d in devices.items() if k != 'main']
    elif isinstance(devices, (list, tuple)):
        ordered = list(devices)
    else:
        raise ValueError('MultiprocessParallelUpdater: devices must be a list, tuple or dict, '
                         f'got {type(devices).__name__}')
    if not ordered or any(d is None for d in ordered):
        raise ValueError('MultiprocessParallelUpdater: every device must be given')
    return [d if isinstance(d, backend.Device) else backend.get_device(d) for d in ordered]


def _adapt_optimizer(optimizer: Any, n_devices: int) -> None:
    name = type(optimizer).__name__
    if name in ('Adam', 'AdaGrad', 'RMSprop'):
        optimizer.eps *= n_devices
        changed = f'optimizer.eps is changed to {optimizer.eps}'
    elif name in ('RMSpropGraves', 'AdaDelta'):
        optimizer.eps *= n_devices ** 2
        changed = f'optimizer.eps is changed to {optimizer.eps}'
    elif hasattr(optimizer, 'lr'):
        optimizer.lr /= n_devices
        changed = f'optimizer.lr is changed to {optimizer.lr}'
    else:
        return
    warnings.warn(f'{changed} by MultiprocessParallelUpdater for the batch size of '
                  f'{n_devices} devices', UserWarning, stacklevel=3)
