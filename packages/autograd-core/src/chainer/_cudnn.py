"""cuDNN convolutions through NVIDIA's cudnn-frontend (the ``cudnn`` extra).

CuPy 14 has no cuDNN bindings; NVIDIA maintains the Python API of cuDNN's graph
interface as ``nvidia-cudnn-frontend`` (import name ``cudnn``), which runs on any
framework's device pointers. With it installed (and a cuDNN library, e.g.
``nvidia-cudnn-cu12``), the three maps of :mod:`chainer.functions.connection._conv_core`
(the convolution, its data gradient and its filter gradient, which also make the
transposed convolution) run as cuDNN graphs on CuPy arrays:

- one graph per operation, shape, dtype, geometry and setting, built on first use and
  kept (:data:`PLANS_KEPT` of them, least recently used dropped first);
- ``chainer.config.use_cudnn``: ``'never'`` keeps the im2col path, ``'always'`` takes
  cuDNN wherever it supports the call, ``'auto'`` (v7: cuDNN where it is known not to
  degrade the speed) only for convolutions of :data:`AUTO_MIN_MACS` multiply-adds or
  more: cudnn-frontend's ``execute`` costs 0.15-0.45 ms on the host while the GPU has
  work queued (measured on an H200 with cudnn-frontend 1.14), which made small
  convolutions (a 32x32 CIFAR-sized network) 20% slower than im2col and cuBLAS;
- ``chainer.config.cudnn_deterministic``: plans with non-deterministic kernels are
  left out;
- ``chainer.config.use_cudnn_tensor_core``: ``'auto'`` lets cuDNN use tensor cores for
  float16 only (float32 stays exact float32 arithmetic, no TF32), ``'always'`` for
  every dtype, ``'never'`` for none;
- ``chainer.config.autotune``: every candidate plan is timed once on the first call of
  a shape and the fastest is kept (instead of cuDNN's heuristic choice).

A call cuDNN does not support (a geometry it rejects, ``cover_all`` output sizes, a
dtype without a plan) returns None, and the caller takes the im2col path; the
refusal is remembered, so it is asked once.

Batch normalization's graphs (:mod:`chainer._cudnn_bn`) share the frontend, the
handles, the plan cache (:func:`cached`, :func:`finish`, :func:`execute`) and the
``cudnn_deterministic`` setting.
"""

from __future__ import annotations

import importlib.util
import threading
import warnings
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

import numpy

from chainer import configuration
from chainer.backends import cuda
from chainer.utils import size_of_shape
from chainer.utils.conv import get_conv_outsize

#: Multiply-adds from which ``use_cudnn='auto'`` takes cuDNN (below, the host cost of a
#: cuDNN call outweighs what its kernels save over im2col and cuBLAS).
AUTO_MIN_MACS = 1 << 30
#: Plans kept (per process); the least recently used is dropped beyond this.
PLANS_KEPT = 512
_frontend: Any = None
_lock = threading.Lock()
_plans: OrderedDict[tuple, _Plan | None] = OrderedDict()  # None: not supported
_local = threading.local()


def frontend() -> Any:
    """The ``cudnn`` frontend module, or None where it is not installed or fails to load
    (a warning then says why, once)."""
    global _frontend
    if _frontend is None:
        _frontend = False
        if cuda.available and importlib.util.find_spec('cudnn') is not None:
            try:
                import cudnn
                cudnn.backend_version()
                _frontend = cudnn
            except Exception as e:  # a missing or mismatched cuDNN library
                warnings.warn(f'cudnn-frontend is installed but cannot be used ({e}); '
                              'convolutions and batch normalization run without it',
                              RuntimeWarning, stacklevel=2)
    return _frontend or None


def current_settings(dtype: numpy.dtype) -> tuple[bool, bool, bool]:
    """``(deterministic, tensor cores allowed, autotune)`` for ``dtype`` now."""
    config = configuration.config
    mode = getattr(config, 'use_cudnn_tensor_core', 'auto')
    tensor_core = mode == 'always' or (mode == 'auto' and dtype == numpy.float16)
    return (bool(getattr(config, 'cudnn_deterministic', False)), tensor_core,
            bool(getattr(config, 'autotune', False)))


def enabled(*arrays: Any) -> bool:
    """Whether cuDNN may run a convolution of ``arrays`` (CuPy arrays of one float dtype,
    1 to 3 spatial axes, ``config.use_cudnn`` not ``'never'``)."""
    if getattr(configuration.config, 'use_cudnn', 'auto') == 'never':
        return False
    dtype = arrays[0].dtype
    for a in arrays:
        if type(a) is not cuda.ndarray or a.dtype != dtype:
            return False
    return (dtype.kind == 'f' and 3 <= arrays[0].ndim <= 5
            and frontend() is not None)


def packed(shape: Sequence[int]) -> list[int]:
    """The strides, in elements, of a C-contiguous array of ``shape``."""
    strides, step = [], 1
    for n in reversed(shape):
        strides.append(step)
        step *= n
    return strides[::-1]


def _as_2d(shape: tuple[int, ...]) -> tuple[int, ...]:
    """cuDNN's convolutions have 2 or 3 spatial axes: a 1-d one gets a unit axis."""
    return shape[:2] + (1,) + shape[2:] if len(shape) == 3 else shape


def aligned(cupy: Any, a: Any) -> Any:
    """``a`` as a C-contiguous array starting on a 16-byte boundary (cuDNN's kernels
    load vectors); a copy where it is not one already."""
    if not a.flags.c_contiguous or a.data.ptr % 16:
        return a.copy()  # CuPy's copies are C-contiguous, from its aligned pool
    return a


def current_handle() -> Any:
    """This thread's cuDNN handle for the current device, on the current stream."""
    fe = _frontend
    device = cuda.cupy.cuda.runtime.getDevice()
    handles = getattr(_local, 'handles', None)
    if handles is None:
        handles = _local.handles = {}
    entry = handles.get(device)
    if entry is None:
        entry = handles[device] = [fe.create_handle(), None]
    stream = cuda.cupy.cuda.get_current_stream().ptr
    if entry[1] != stream:
        fe.set_stream(handle=entry[0], stream=stream)
        entry[1] = stream
    return entry[0]


class _Plan:
    """A built cuDNN graph: its tensors (in the order :func:`execute` binds them),
    workspace size and the index of the plan to run (None: cuDNN's heuristic choice)."""

    __slots__ = ('graph', 'tensors', 'workspace', 'index')

    def __init__(self, graph: Any, tensors: tuple[Any, ...], workspace: int,
                 index: int | None) -> None:
        self.graph = graph
        self.tensors = tensors
        self.workspace = workspace
        self.index = index


def data_types(fe: Any, dtype: numpy.dtype) -> tuple[Any, Any]:
    """cuDNN's ``(io, compute)`` data types for ``dtype``."""
    dt = fe.data_type
    if dtype == numpy.float16:
        return dt.HALF, dt.FLOAT
    if dtype == numpy.float32:
        return dt.FLOAT, dt.FLOAT
    return dt.DOUBLE, dt.DOUBLE


def new_graph(dtype: numpy.dtype, handle: Any) -> tuple[Any, Any, Any]:
    """A new cuDNN graph on ``handle`` with ``dtype``'s io type, and its ``(io,
    compute)`` data types (:func:`data_types`)."""
    fe = frontend()
    io, compute = data_types(fe, dtype)
    graph = fe.pygraph(io_data_type=io, intermediate_data_type=compute,
                       compute_data_type=compute, handle=handle)
    return graph, io, compute


def tensor(graph: Any, name: str, dims: Sequence[int], data_type: Any) -> Any:
    """An input tensor of ``graph``, packed (C-contiguous) with ``dims``."""
    # pygraph.tensor(dim, stride, data_type, is_virtual, is_pass_by_value, ..., name),
    # cudnn/__init__.py of nvidia-cudnn-frontend 1.14.1
    return graph.tensor(name=name, dim=list(dims), stride=packed(dims), data_type=data_type)


def set_output(t: Any, dims: Sequence[int], data_type: Any) -> None:
    """Make ``t`` an output of its graph, packed with ``dims``."""
    t.set_output(True).set_dim(list(dims)).set_stride(packed(dims))
    t.set_data_type(data_type)


def _build(op: str, shapes: tuple[tuple[int, ...], ...], stride: tuple[int, ...],
           pad: tuple[int, ...], dilate: tuple[int, ...], dtype: numpy.dtype,
           settings: tuple[bool, bool, bool], handle: Any, arrays: tuple[Any, ...]) -> _Plan:
    """Build the graph of ``op`` ('fprop', 'dgrad' or 'wgrad') for the shapes of its two
    inputs and its output (raises where cuDNN does not support it)."""
    graph, io, compute = new_graph(dtype, handle)
    a, b = (tensor(graph, f'in{i}', s, io) for i, s in enumerate(shapes[:2]))
    geometry = {'padding': list(pad), 'stride': list(stride), 'dilation': list(dilate),
                'compute_data_type': compute}
    if op == 'fprop':
        out = graph.conv_fprop(image=a, weight=b, **geometry)
    elif op == 'dgrad':
        out = graph.conv_dgrad(loss=a, filter=b, **geometry)
    else:
        out = graph.conv_wgrad(image=a, loss=b, **geometry)
    set_output(out, shapes[2], io)
    deterministic, tensor_core, autotune = settings
    tensors = (a, b, out)
    if not autotune:
        return finish(graph, tensors, deterministic, tensor_core)
    _candidates(graph, deterministic, tensor_core)
    return _autotuned(graph, tensors, handle, arrays)


def _candidates(graph: Any, deterministic: bool, tensor_core: bool,
                workspace: bool = False) -> None:
    """Validate ``graph`` and make its candidate plans: cuDNN's heuristic ones, less those
    the settings rule out and, unless ``workspace``, those that need a workspace (raises
    where none is left)."""
    fe = _frontend
    graph.validate()
    graph.build_operation_graph()
    graph.create_execution_plans([fe.heur_mode.A, fe.heur_mode.FALLBACK])
    notes = []
    if deterministic:
        notes.append(fe.numerical_note.NONDETERMINISTIC)
    if not tensor_core:
        notes.append(fe.numerical_note.TENSOR_CORE)
    if notes:
        graph.deselect_numeric_notes(notes)
    # Plans that need a workspace made the frontend's execute block the host until the
    # GPU had caught up (measured with cudnn-frontend 1.14 on an H200): keep to plans
    # without one, so that a step never waits for the device.
    if not workspace:
        graph.deselect_workspace_greater_than(0)
    graph.check_support()


def finish(graph: Any, tensors: tuple[Any, ...], deterministic: bool,
           tensor_core: bool, workspace: bool = False) -> _Plan:
    """The plan of a graph whose operations and tensors are set: its candidates (as
    :func:`_candidates`) built, cuDNN's heuristic choice run (raises where cuDNN does not
    support the graph)."""
    _candidates(graph, deterministic, tensor_core, workspace)
    graph.build_plans()
    return _Plan(graph, tensors, graph.get_workspace_size(), None)


def _autotuned(graph: Any, tensors: tuple[Any, ...], handle: Any,
               arrays: tuple[Any, ...]) -> _Plan:
    """Time each candidate plan once on ``arrays`` and keep the fastest."""
    cupy = cuda.cupy
    pack = dict(zip(tensors, (x.data.ptr for x in arrays), strict=True))
    best: tuple[float, int, int] | None = None
    for index in range(graph.get_execution_plan_count()):
        try:
            graph.build_plan_at_index(index)
            size = graph.get_workspace_size_plan_at_index(index)
        except Exception:
            continue
        workspace = cupy.empty(max(size, 1), numpy.uint8)
        start, stop = cupy.cuda.Event(), cupy.cuda.Event()
        start.record()
        graph.execute_plan_at_index(pack, workspace.data.ptr, index, handle=handle)
        stop.record()
        stop.synchronize()
        took = cupy.cuda.get_elapsed_time(start, stop)
        if best is None or took < best[0]:
            best = (took, index, size)
    if best is None:
        raise RuntimeError('no cuDNN plan could be built')
    return _Plan(graph, tensors, best[2], best[1])


def run(op: str, a: Any, b: Any, out_shape: tuple[int, ...], stride: tuple[int, ...],
        pad: tuple[int, ...], dilate: tuple[int, ...]) -> Any:
    """One convolution map on CuPy arrays through cuDNN, or None where cuDNN does not
    support it (the caller then takes the im2col path).

    ``op`` is ``'fprop'`` (``a`` the image, ``b`` the filter, the result the output),
    ``'dgrad'`` (``a`` the output gradient, ``b`` the filter, the result the image
    gradient of shape ``out_shape``) or ``'wgrad'`` (``a`` the image, ``b`` the output
    gradient, the result the filter gradient).
    """
    image, filt, output = {'fprop': (a.shape, b.shape, out_shape),
                           'dgrad': (out_shape, b.shape, a.shape),
                           'wgrad': (a.shape, out_shape, b.shape)}[op]
    if (getattr(configuration.config, 'use_cudnn', 'auto') == 'auto'
            and size_of_shape(output) * size_of_shape(filt[1:]) < AUTO_MIN_MACS):
        return None
    for i in range(len(stride)):
        if output[2 + i] != get_conv_outsize(image[2 + i], filt[2 + i], stride[i], pad[i],
                                             d=dilate[i]):
            return None  # cover_all or an output size cuDNN does not compute
    dtype = a.dtype
    settings = current_settings(dtype)
    one_d = len(stride) == 1
    if one_d:
        stride, pad, dilate = (1, *stride), (0, *pad), (1, *dilate)
    cupy = cuda.cupy
    a, b = aligned(cupy, a), aligned(cupy, b)
    shapes = (_as_2d(a.shape), _as_2d(b.shape), _as_2d(tuple(out_shape)))
    key = (op, shapes, stride, pad, dilate, dtype, settings, a.data.device_id)
    y = cupy.empty(out_shape, dtype)
    handle = current_handle()
    plan = cached(key, lambda: _build(op, shapes, stride, pad, dilate, dtype, settings,
                                      handle, (a, b, y)))
    if plan is None:
        return None
    execute(plan, (a.data.ptr, b.data.ptr, y.data.ptr), handle)
    return y


def cached(key: tuple, build: Callable[[], _Plan]) -> _Plan | None:
    """The plan kept for ``key``, or the one ``build`` makes on its first use (None, and
    remembered as such, where ``build`` raises: cuDNN does not support the call)."""
    if key in _plans:
        plan = _plans[key]
        _plans.move_to_end(key)
        return plan
    with _lock:
        try:
            plan = build()
        except Exception:  # cuDNN does not support this call
            plan = None
        _plans[key] = plan
        while len(_plans) > PLANS_KEPT:
            _plans.popitem(last=False)
    return plan


def execute(plan: _Plan, pointers: tuple[int, ...], handle: Any) -> None:
    """Run ``plan`` with its tensors bound, in order, to ``pointers`` (device addresses;
    host addresses for pass-by-value tensors), on this thread's stream."""
    size = plan.workspace
    workspace = cuda.cupy.empty(size, numpy.uint8) if size else None
    pack = dict(zip(plan.tensors, pointers, strict=True))
    ptr = workspace.data.ptr if workspace is not None else 0
    if plan.index is None:
        plan.graph.execute(pack, ptr, handle=handle)
    else:
        plan.graph.execute_plan_at_index(pack, ptr, plan.index, handle=handle)


def clear_plans() -> None:
    """Forget every built plan (they are rebuilt on their next use)."""
    with _lock:
        _plans.clear()
