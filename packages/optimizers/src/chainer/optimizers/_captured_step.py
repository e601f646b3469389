"""The forward and backward of a static model on a GPU, captured into a CUDA graph.

``GradientMethod.update(lossfun, *args)`` computes ``loss = lossfun(*args)``, clears the
gradients and runs ``loss.backward()``. When the arguments are CuPy arrays and the
optimizer's target holds a chain whose forward is decorated with
``chainer.static_graph`` (v7's contract: fixed shapes, no Python side effects inside the
static forward), this module runs those three steps as a CUDA graph, per signature (the
shapes and dtypes of the arguments, the parameters and their arrays, the loss function,
``config.train`` and ``config.enable_backprop``, the loss scale):

1. the first call runs define-by-run (it compiles the kernels, builds the cuDNN plans and
   fills the memory pool);
2. the second call runs the same Python code once more under CUDA stream capture, with a
   memory pool of its own (so that no array the graph writes is ever handed to other
   code), into input buffers that keep the arguments; the graph is then launched;
3. every later call copies the arguments into the input buffers and launches the graph
   once: the kernels of the forward and backward run without Python. The parameters'
   gradients are the graph's buffers, and the values the model reported (``loss``,
   ``accuracy``, ...) are reported again, as copies, at every call.

The optimizer's update itself runs after the graph, as usual (one kernel per group of
parameters on the GPU). Code that cannot be captured (a host synchronization inside the
forward or backward, an operation CuPy refuses under capture) keeps define-by-run for its
signature, with one warning saying why. ``chainer.config.use_static_graph = False``
turns all of this off.
"""

from __future__ import annotations

import traceback
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from chainer import configuration, internal, reporter
from chainer.backends import cuda
from chainer.variable import Variable

#: Signatures kept per optimizer (the oldest is dropped beyond this).
KEPT = 8
_SEEN = 'seen once'  # the warm-up call ran define-by-run
_NEVER = 'not capturable'  # define-by-run for good (the capture failed)


class _Graph:
    """One captured forward and backward: the graph and every buffer it reads or writes."""

    __slots__ = ('graph', 'inputs', 'grads', 'observed', 'pool')

    def __init__(self, graph: Any, inputs: list[Any], grads: list[Any],
                 observed: dict[str, Any], pool: Any) -> None:
        self.graph = graph
        self.inputs = inputs
        self.grads = grads
        self.observed = observed
        self.pool = pool


def _static_target(target: Any) -> bool:
    """Whether a chain of ``target`` ran a ``static_graph``-decorated forward."""
    links = target.links() if hasattr(target, 'links') else ()
    return any('schedule_manager' in link.__dict__ for link in links)


def _signature(lossfun: Callable[..., Any], args: tuple, kwds: dict, params: list[Any],
               scale: Any) -> tuple | None:
    """The key of a call, or None when an argument is not a CuPy array."""
    parts: list[Any] = [id(lossfun), scale, bool(configuration.config.train),
                        bool(configuration.config.enable_backprop)]
    for value in (*args, *kwds.values()):
        if type(value) is not cuda.ndarray:
            return None
        parts.append((value.shape, value.dtype.char, value.data.device_id))
    parts.extend(kwds)
    for p in params:
        arr = p.array
        parts.append((id(p), None if arr is None else arr.data.ptr))
    return tuple(parts)


def applies(args: tuple) -> bool:
    """Whether a call with these positional arguments may be captured (CuPy arrays and
    ``config.use_static_graph``); cheap, for the optimizer's hot path."""
    return (bool(args) and type(args[0]) is cuda.ndarray
            and bool(getattr(configuration.config, 'use_static_graph', True)))


def run(optimizer: Any, target: Any, lossfun: Callable[..., Any], args: tuple,
        kwds: dict) -> bool:
    """Run ``lossfun(*args, **kwds)``, clear the gradients and run the backward as a CUDA
    graph where this module applies (see the module); returns False, having done
    nothing, where the caller is to run them define-by-run itself."""
    if not _static_target(target):
        return False
    params = list(target.params())
    scale = optimizer._loss_scale
    key = _signature(lossfun, args, kwds, params, scale)
    if key is None:
        return False
    cache = optimizer.__dict__.setdefault('_captured_steps', {})
    entry = cache.get(key)
    if entry is None:  # the warm-up call
        cache[key] = _SEEN
        while len(cache) > KEPT:
            cache.pop(next(iter(cache)))
        return False
    if entry is _SEEN:
        entry = cache[key] = _capture(optimizer, target, lossfun, args, kwds, params)
        return entry is not _NEVER
    if entry is _NEVER:
        return False
    _replay(entry, args, kwds, params)
    return True


def _capture(optimizer: Any, target: Any, lossfun: Callable[..., Any], args: tuple,
             kwds: dict, params: list[Any]) -> _Graph | str:
    cupy = cuda.cupy
    current = cupy.cuda.get_current_stream()
    pool = cupy.cuda.MemoryPool()
    with cupy.cuda.using_allocator(pool.malloc):
        inputs = [a.copy() for a in (*args, *kwds.values())]
    cupy.cuda.Device().synchronize()  # once per signature: the copies are in
    try:
        observation = reporter.get_current_reporter().observation
    except IndexError:  # no reporter: nothing to report again
        observation = {}
    before = dict(observation)
    stream = cupy.cuda.Stream(non_blocking=True)
    static_args = inputs[:len(args)]
    static_kwds = dict(zip(kwds, inputs[len(args):], strict=True))
    graph = None
    try:
        with cupy.cuda.using_allocator(pool.malloc), stream:
            try:
                internal.gpu_blas_capture_stream(stream)
                stream.begin_capture()
                try:
                    loss = lossfun(*static_args, **static_kwds)
                    optimizer._clear_grads(target)
                    loss.backward(loss_scale=optimizer._loss_scale)
                    del loss
                finally:
                    graph = stream.end_capture()
            finally:
                internal.gpu_blas_end_capture()
    except Exception as e:
        observation.clear()
        observation.update(before)
        where = ', '.join(f'{Path(f.filename).name}:{f.lineno} ({f.name})'
                          for f in traceback.extract_tb(e.__traceback__)[-3:])
        warnings.warn(f'static_graph: the forward and backward could not be captured into '
                      f'a CUDA graph ({type(e).__name__}: {e}; at {where}); they run '
                      'define-by-run', RuntimeWarning, stacklevel=4)
        return _NEVER
    observed = {k: v for k, v in observation.items()
                if k not in before or before[k] is not v}
    entry = _Graph(graph, inputs, [p.grad for p in params], observed, pool)
    graph.launch(stream=current)
    return entry


def _replay(entry: _Graph, args: tuple, kwds: dict, params: list[Any]) -> None:
    for buffer, value in zip(entry.inputs, (*args, *kwds.values()), strict=True):
        buffer[...] = value
    entry.graph.launch(stream=cuda.cupy.cuda.get_current_stream())
    for param, grad in zip(params, entry.grads, strict=True):
        param.grad = grad
    if entry.observed:
        values = {}
        for k, v in entry.observed.items():  # copies, of the kind reported (Variable or array)
            if isinstance(v, Variable):
                values[k] = Variable(v.array.copy())
            else:
                values[k] = v.copy() if type(v) is cuda.ndarray else v
        reporter.report(values)
