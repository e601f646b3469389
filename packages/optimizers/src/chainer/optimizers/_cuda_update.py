"""The CUDA steps of the elementwise update rules: one kernel per parameter or per group.

A rule with a :class:`CudaStep` describes its step on one element as CUDA C statements
that update ``param`` and its state arrays (by their state keys) from ``grad`` and the
scalars of the step. The same statements serve both GPU paths:

- one parameter (:func:`run_single`): an ``ElementwiseKernel`` over the parameter;
- a group of parameters (:func:`update_group`, the multi-tensor update): the
  parameters of one rule type, dtype, device, step count and hyperparameters are
  updated by ONE kernel launch, whatever their number. The kernel reads a table of
  the arrays' device pointers and of the chunks (of :data:`CHUNK` elements) they are
  cut into; each block of threads updates one chunk. The table is built on the host
  and copied to the device only when the arrays move (a few tables are kept per
  group, so arrays that alternate between addresses from step to step cost nothing).

Both paths compute each element with the same statements, in the parameter's dtype.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy

from chainer.backends import cuda

if TYPE_CHECKING:
    from chainer.variable import Variable

#: Elements per chunk (one block of threads) of the multi-tensor kernel.
CHUNK = 1 << 13
#: Threads per block of the multi-tensor kernel.
THREADS = 256
#: Device tables kept per group (arrays whose addresses alternate reuse them).
TABLES_KEPT = 4
_CTYPES = {numpy.dtype(numpy.float32): 'float', numpy.dtype(numpy.float64): 'double'}


class CudaStep(NamedTuple):
    """The step of an elementwise rule on one element, in CUDA C.

    Attributes:
        body: statements that update ``param`` and the state arrays (named by their
            state keys, of the parameter's type ``T``) from ``grad``.
        scalars: the fields of the rule's kernel scalars the body reads, in order.
        name: the kernel's name.
    """

    body: str
    scalars: tuple[str, ...]
    name: str


def dtype_ok(dtype: numpy.dtype) -> bool:
    """Whether the multi-tensor kernel runs parameters of ``dtype``."""
    return dtype in _CTYPES


def run_single(step: CudaStep, scalars: tuple, param: Any, grad: Any,
               states: Sequence[Any], keys: Sequence[str]) -> None:
    """Update one CuPy parameter in place with one ``ElementwiseKernel`` launch."""
    in_params = ', '.join(['T grad', *(f'T {n}' for n in step.scalars)])
    out_params = ', '.join(['T param', *(f'T {k}' for k in keys)])
    kernel = cuda.elementwise(in_params, out_params, step.body, step.name)
    kernel(grad, *(getattr(scalars, n) for n in step.scalars), param, *states)


def _source(step: CudaStep, ctype: str, keys: Sequence[str]) -> str:
    scalar_params = ''.join(f', const T {n}' for n in step.scalars)
    state_ptrs = ''.join(
        f'T* __restrict__ {k}_ = (T*)ptrs[{2 + i} * nt + j];\n' for i, k in enumerate(keys))
    state_refs = ''.join(f'T& {k} = {k}_[e];\n' for k in keys)
    return f'''
typedef {ctype} T;
extern "C" __global__ void {step.name}_multi(
        const long long* __restrict__ tab, const int nc, const int nt{scalar_params}) {{
    const int c = blockIdx.x;
    const long long j = tab[c];
    const long long end = tab[2 * nc + c];
    const long long* ptrs = tab + 3 * nc;
    T* __restrict__ param_ = (T*)ptrs[j];
    const T* __restrict__ grad_ = (const T*)ptrs[nt + j];
    {state_ptrs}
    for (long long e = tab[nc + c] + threadIdx.x; e < end; e += blockDim.x) {{
        T& param = param_[e];
        const T grad = grad_[e];
        {state_refs}
        {step.body};
    }}
}}
'''


_KERNELS: dict[tuple[CudaStep, str, tuple[str, ...]], Any] = {}


def _multi_kernel(step: CudaStep, ctype: str, keys: tuple[str, ...]) -> Any:
    key = (step, ctype, keys)
    kernel = _KERNELS.get(key)
    if kernel is None:
        kernel = _KERNELS[key] = cuda.cupy.RawKernel(_source(step, ctype, keys),
                                                     f'{step.name}_multi')
    return kernel


def host_table(sizes: Sequence[int], pointers: Sequence[int]) -> tuple[numpy.ndarray, int]:
    """The table of the multi-tensor kernel for arrays of ``sizes`` (each at least one
    element) and their ``pointers`` (the parameters', the gradients', then each state's);
    returns it (int64: the owner, start and end of each chunk, then the pointers) and the
    number of chunks."""
    counts = [-(-n // CHUNK) for n in sizes]
    owner = numpy.repeat(numpy.arange(len(sizes), dtype=numpy.int64), counts)
    first = numpy.repeat(numpy.cumsum([0, *counts[:-1]], dtype=numpy.int64), counts)
    start = (numpy.arange(owner.size, dtype=numpy.int64) - first) * CHUNK
    end = numpy.minimum(start + CHUNK, numpy.asarray(sizes, dtype=numpy.int64)[owner])
    host = numpy.concatenate([owner, start, end, numpy.asarray(pointers, dtype=numpy.int64)])
    return host, int(owner.size)


def group_key(rule: Any, arr: Any, grad: Any) -> tuple | None:
    """The multi-tensor part of a GPU parameter's group key, or None when it cannot join
    one (no CUDA step, another dtype, non-contiguous or mismatched arrays)."""
    if type(arr) is not cuda.ndarray or type(grad) is not cuda.ndarray:
        return None
    dtype = arr.dtype
    if (dtype not in _CTYPES or grad.dtype != dtype or grad.shape != arr.shape
            or not arr.flags.c_contiguous or not grad.flags.c_contiguous
            or not rule._cuda_step_ok(dtype)):
        return None
    state = rule._state
    if state is not None:
        for key in rule._kernel_state_keys():
            value = state.get(key)
            if (type(value) is not cuda.ndarray or value.shape != arr.shape
                    or value.dtype != dtype or not value.flags.c_contiguous):
                return None
    return 'cuda', dtype, arr.data.device_id


def update_group(cache: dict, key: tuple, members: list[tuple[Variable, Any]]) -> None:
    """Update the parameters of one GPU group with one kernel launch (their rules are
    already prepared for the step)."""
    members = [(p, r) for p, r in members if p.array.size]
    if not members:
        return
    first = members[0][1]
    arr0 = members[0][0].array
    dtype = arr0.dtype
    keys = tuple(first._kernel_state_keys())
    step = first._cuda_step
    scalars = first._scalars(dtype)
    arrays = [p.array for p, _ in members]
    pointers = [a.data.ptr for a in arrays]
    pointers += [p.grad.data.ptr for p, _ in members]
    for k in keys:
        pointers += [r._state[k].data.ptr for _, r in members]
    sizes = [a.size for a in arrays]
    signature = (*pointers, *sizes)
    tables = cache.get(key)
    if tables is None:
        tables = cache[key] = {}
    table = tables.get(signature)
    with cuda.get_device_from_id(arr0.data.device_id):
        if table is None:
            if len(tables) >= TABLES_KEPT:
                tables.pop(next(iter(tables)))
            host, n_chunks = host_table(sizes, pointers)
            table = tables[signature] = (cuda.cupy.asarray(host), n_chunks)
        tab, n_chunks = table
        kernel = _multi_kernel(step, _CTYPES[dtype], keys)
        t = dtype.type
        kernel((n_chunks,), (THREADS,),
               (tab, numpy.int32(n_chunks), numpy.int32(len(members)),
                *(t(getattr(scalars, n)) for n in step.scalars)))
