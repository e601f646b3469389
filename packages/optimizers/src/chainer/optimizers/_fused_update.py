"""Elementwise update rules and the fused update of many parameters at once.

Every built-in update rule is an :class:`ElementwiseRule`: its step is one
elementwise *kernel*, a function of the hyperparameter scalars (computed once
per step), the parameter, its gradient, its state arrays and a few temporary
arrays, written with in-place ufuncs. The same kernel serves both paths:

- the per-parameter path (:meth:`ElementwiseRule.update_core_cpu`), used for a
  parameter with hooks of its own, its own hyperparameters, a float32 master
  copy, a custom subclass, or arrays on a GPU;
- the fused path (:func:`update_params`, called by ``GradientMethod.update``):
  parameters whose rules share the type, dtype, step count and hyperparameters
  form a group, the scalars are computed once for the group, small parameters
  are packed together into flat buffers (their states live in flat per-group
  buffers, ``rule.state[key]`` being a view) and updated by one kernel call,
  and large ones are updated in place.

The kernel runs over cache-sized chunks of a contiguous array so that its
temporaries stay in cache: a step costs about one pass over the memory of the
parameter, the gradient and the states. On the fused path the chunks (and the
packs) of all the groups are run on a few threads (:mod:`chainer.optimizers._update_threads`).
Since the kernel is elementwise and identical on both paths, both give the same
numbers bit for bit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy

from chainer import backend, internal, optimizer
from chainer.optimizers import _cuda_update, _update_threads
from chainer.variable import Parameter, Variable

#: Elements per chunk (one job). A chunk's temporaries stay in the CPU cache; with
#: smaller chunks, threads running them side by side lose more time waiting for each
#: other to hand over the GIL between NumPy calls (on 2 threads, chunks of 2^16 made
#: ``mlp``'s Adam update 12-20% slower).
CHUNK = 1 << 17
#: Parameters below this many elements are packed together (see :class:`_Pack`).
PACK_BELOW = 1 << 16

#: A kernel: ``kernel(scalars, param, grad, states, temps)``; ``scalars`` is the rule's
#: NamedTuple of kernel scalars (see :mod:`chainer.optimizers._hyperparams`).
Kernel = Callable[[Any, Any, Any, Sequence[Any], Sequence[Any]], None]


class ElementwiseRule(optimizer.UpdateRule):
    """An update rule whose step is one elementwise kernel (and can be fused).

    Subclasses define :meth:`init_state`, :attr:`_state_keys`,
    :meth:`_scalars`, the static method :meth:`_kernel` and, when it needs
    more than one temporary or another dtype, :meth:`_temp_dtypes`.
    """

    #: Names of the state arrays the kernel takes, in order.
    _state_keys: tuple[str, ...] = ()
    #: Number of temporary arrays (of the parameter's dtype) the kernel needs.
    _n_temps = 1
    #: The step on one element in CUDA C (see :mod:`chainer.optimizers._cuda_update`):
    #: with it, GPU parameters are updated by one kernel each, or one per group.
    _cuda_step: _cuda_update.CudaStep | None = None

    def _cuda_step_ok(self, dtype: numpy.dtype) -> bool:
        """Whether :attr:`_cuda_step` computes this step for parameters of ``dtype``
        (with the current hyperparameters)."""
        return True

    def _scalars(self, dtype: Any) -> tuple:
        """The scalars of the kernel at the current step, for parameters of ``dtype``
        (a NamedTuple of the rule's module, read by name by its kernels)."""
        raise NotImplementedError

    def _temp_dtypes(self, dtype: Any) -> tuple:
        """The dtypes of the kernel's temporary arrays."""
        return (dtype,) * self._n_temps

    def _kernel_state_keys(self) -> tuple[str, ...]:
        """The state keys the kernel takes (may depend on hyperparameters)."""
        return self._state_keys

    def _fusion_token(self) -> Any:
        """Per-rule values, besides hyperparameters and ``t``, that the scalars use."""
        return None

    @staticmethod
    def _kernel(s: Any, p: Any, g: Any, st: Sequence[Any], tmp: Sequence[Any]) -> None:
        """Update ``p`` and the states ``st`` in place from the gradient ``g``."""
        raise NotImplementedError

    def _apply(self, param: Variable) -> None:
        grad = param.grad
        arr = param.array
        if grad is None or arr is None:
            return
        state = self._state
        states = [state[k] for k in self._kernel_state_keys()] if state else []
        run_kernel(self._kernel, self._scalars(arr.dtype), self._temp_dtypes(arr.dtype),
                   arr, grad, states)

    def update_core_cpu(self, param: Variable) -> None:
        """Apply one step to a NumPy parameter (skipped when it has no gradient)."""
        self._apply(param)

    def update_core_gpu(self, param: Variable) -> None:
        """Apply one step to a CuPy parameter (skipped when it has no gradient): one
        kernel where the rule has a CUDA step for it, else the array-module path."""
        step = self._cuda_step
        arr = param.array
        if step is None or param.grad is None or not self._cuda_step_ok(arr.dtype):
            self._apply(param)
            return
        keys = self._kernel_state_keys()
        state = self._state
        _cuda_update.run_single(step, self._scalars(arr.dtype), arr, param.grad,
                                [state[k] for k in keys] if state else [], keys)


def run_kernel(kernel: Kernel, scalars: tuple, temp_dtypes: Sequence[Any], p: Any, g: Any,
               states: Sequence[Any]) -> None:
    """Run ``kernel`` over ``p``, ``g`` and ``states`` (chunk by chunk when it can).

    A 0-dim parameter runs as a 1-element vector: under NumPy 1, ufuncs on 0-dim
    operands only would compute in float64 (value-based casting).
    """
    _update_threads.run_here(kernel_jobs(kernel, scalars, temp_dtypes, p, g, states), CHUNK)


def kernel_jobs(kernel: Kernel, scalars: tuple, temp_dtypes: Sequence[Any], p: Any, g: Any,
                states: Sequence[Any]) -> list[Callable[[Any], None]]:
    """The jobs of ``kernel`` over ``p``, ``g`` and ``states``: one per chunk when it can.

    A job is called with ``temps(dtypes)``, which gives temporary arrays of CHUNK
    elements (see :mod:`chainer.optimizers._update_threads`).
    """
    if p.ndim == 0:
        p = p.reshape(1)
        g = g.reshape(1)
        states = [x.reshape(1) for x in states]
    n = p.size
    if (type(p) is numpy.ndarray and p.flags.c_contiguous
            and all(x.shape == p.shape and x.flags.c_contiguous for x in states)):
        pf = p.reshape(-1)
        gf = g.reshape(-1)
        sf = [x.reshape(-1) for x in states]

        def chunk(a: int, b: int) -> Callable[[Any], None]:
            def job(temps: Any) -> None:
                tmp = temps(temp_dtypes)
                if b - a < CHUNK:
                    tmp = [t[:b - a] for t in tmp]
                kernel(scalars, pf[a:b], gf[a:b], [x[a:b] for x in sf], tmp)
            return job

        return [chunk(a, min(a + CHUNK, n)) for a in range(0, n, CHUNK)]

    def whole(temps: Any) -> None:
        xp = numpy if type(p) is numpy.ndarray else backend.get_array_module(p)
        kernel(scalars, p, g, states, [xp.empty(p.shape, dt) for dt in temp_dtypes])

    return [whole]


# -- the fused path ------------------------------------------------------------------

_FUSABLE_TYPES: dict[type, bool] = {}


def _type_is_fusable(cls: type) -> bool:
    ok = _FUSABLE_TYPES.get(cls)
    if ok is None:
        ok = (issubclass(cls, ElementwiseRule)
              and cls.update is optimizer.UpdateRule.update
              and cls._run_update is optimizer.UpdateRule._run_update
              and cls.update_core is optimizer.UpdateRule.update_core
              and cls.update_core_cpu is ElementwiseRule.update_core_cpu
              and cls._apply is ElementwiseRule._apply)
        _FUSABLE_TYPES[cls] = ok
    return ok


_OVERRIDES = frozenset(('update', 'update_core', 'update_core_cpu', '_apply'))
_FLOATS = frozenset(numpy.dtype(t) for t in (numpy.float16, numpy.float32, numpy.float64))


def _group_key(param: Variable, rule: Any) -> tuple | None:
    """The fusion group of ``param`` this step, or None for the per-parameter path."""
    cls = type(rule)
    ok = _FUSABLE_TYPES.get(cls)
    if ok is None:
        ok = _type_is_fusable(cls)
    if not ok:
        return None
    d = rule.__dict__
    if (not d['enabled'] or d['_pre_update_hooks'] or d['_post_update_hooks']
            or len(d['hyperparam'].__dict__) != 1  # hyperparameters of its own
            or not _OVERRIDES.isdisjoint(d)):
        return None
    arr = param.array
    grad = param.grad
    if type(arr) is not numpy.ndarray or type(grad) is not numpy.ndarray:
        if (cls._cuda_step is None or 'update_core_gpu' in d
                or cls.update_core_gpu is not ElementwiseRule.update_core_gpu):
            return None
        device = _cuda_update.group_key(rule, arr, grad)
        if device is None:
            return None
        return cls, arr.dtype, d['t'], id(d['hyperparam']._parent), _token(rule), device
    dtype = arr.dtype
    if grad.dtype != dtype or grad.shape != arr.shape or dtype not in _FLOATS:
        return None
    if d['_use_fp32_update'] and dtype == numpy.float16:
        return None
    if d['_state'] is not None and d['_state_array_type'] is not numpy.ndarray:
        return None
    return cls, dtype, d['t'], id(d['hyperparam']._parent), _token(rule)


def _token(rule: Any) -> Any:
    cls = type(rule)
    return rule._fusion_token() if cls._fusion_token is not ElementwiseRule._fusion_token \
        else None


class _Pack:
    """Small parameters of one group, updated together through flat buffers."""

    __slots__ = ('members', 'bounds', 'flat', 'views', 'pbuf', 'gbuf', 'pviews')

    def __init__(self, members: list[tuple[Variable, Any]], keys: tuple[str, ...],
                 dtype: Any) -> None:
        self.members = members
        bounds = []
        a = 0
        for param, _ in members:
            b = a + param.array.size
            bounds.append((a, b))
            a = b
        self.bounds = bounds
        self.flat = {k: numpy.empty(a, dtype) for k in keys}
        self.views: list[dict[str, Any]] = [{} for _ in members]
        self.pbuf = numpy.empty(a, dtype)
        self.gbuf = numpy.empty(a, dtype)
        self.pviews = [self.pbuf[a:b].reshape(param.array.shape)
                       for (param, _), (a, b) in zip(members, bounds, strict=True)]

    def adopt_states(self) -> bool:
        """Make every member's state arrays views of the flat buffers.

        A state array replaced since (e.g. by a deserializer) is copied in.
        Returns False when a member's state does not fit (missing key, other
        dtype or shape): the pack then cannot run this step.
        """
        flat = self.flat
        for (param, rule), (a, b), views in zip(self.members, self.bounds, self.views,
                                                strict=True):
            state = rule._state
            shape = param.array.shape
            for key, buf in flat.items():
                value = state.get(key)
                view = views.get(key)
                if value is view and view is not None:
                    continue
                if (value is None or type(value) is not numpy.ndarray
                        or value.shape != shape or value.dtype != buf.dtype):
                    return False
                view = buf[a:b].reshape(shape)
                view[...] = value
                state[key] = views[key] = view
        return True

    def job(self, kernel: Kernel, scalars: tuple,
            temp_dtypes: Sequence[Any]) -> Callable[[Any], None]:
        """The job that gathers the parameters and gradients, runs the kernel once over
        them and scatters the parameters back (the pack holds at most CHUNK elements)."""
        def run(temps: Any) -> None:
            arrays = [p.array for p, _ in self.members]
            pbuf = self.pbuf
            numpy.concatenate([a.reshape(-1) for a in arrays], out=pbuf)
            numpy.concatenate([p.grad.reshape(-1) for p, _ in self.members], out=self.gbuf)
            n = pbuf.size
            kernel(scalars, pbuf, self.gbuf, list(self.flat.values()),
                   [t[:n] for t in temps(temp_dtypes)])
            copyto = numpy.copyto
            for arr, view in zip(arrays, self.pviews, strict=True):
                copyto(arr, view)
        return run


def _packs(cache: dict, key: Any, small: list[tuple[Variable, Any]],
           keys: tuple[str, ...], dtype: Any) -> list[_Pack]:
    signature = tuple((id(p), p.array.size) for p, _ in small)
    hit = cache.get(key)
    if hit is not None and hit[0] == signature:
        return hit[1]
    packs = []
    members: list[tuple[Variable, Any]] = []
    size = 0
    for param, rule in small:
        n = param.array.size
        if members and size + n > CHUNK:
            packs.append(_Pack(members, keys, dtype))
            members, size = [], 0
        members.append((param, rule))
        size += n
    if members:
        packs.append(_Pack(members, keys, dtype))
    cache[key] = (signature, packs)
    return packs


def update_params(opt: optimizer.GradientMethod, params: Sequence[Parameter]) -> None:
    """Update ``params`` as ``param.update()`` would, fusing what can be fused.

    Called by ``GradientMethod.update`` once the gradients are ready.
    """
    groups: dict[Any, list[tuple[Variable, Any]]] = {}
    for param in params:
        rule = param.update_rule
        if rule is None:
            continue
        # a parameter on a ChainerX device joins a group through the Variable over its
        # NumPy/CuPy arrays (the same ones: the kernels update it in place)
        member = internal.chainerx_fallback(param)
        if member is None:
            member = param
        key = _group_key(member, rule)
        if key is None:
            rule.update(param)
            continue
        group = groups.get(key)
        if group is None:
            groups[key] = [(member, rule)]
        else:
            group.append((member, rule))
    if not groups:
        return
    cache = opt.__dict__.get('_fused_cache')
    if cache is None:
        cache = opt.__dict__['_fused_cache'] = {}
    jobs: list[Callable[[Any], None]] = []
    for key, members in groups.items():
        _begin_step(members)
        if len(key) > 5:  # GPU parameters: one kernel launch for the group
            _cuda_update.update_group(cache, key[:2] + key[3:], members)
        else:
            _update_group(cache, key, members, jobs)
    if jobs:
        _update_threads.run(jobs, CHUNK)


def _begin_step(members: list[tuple[Variable, Any]]) -> None:
    """What UpdateRule.update does before update_core (no hooks: see _group_key)."""
    for param, rule in members:
        rule.t += 1
        if rule._state is None:
            rule._prepare(param)
        scale = param._loss_scale  # (None on a ChainerX parameter's fallback Variable)
        if scale is not None:
            param.grad /= scale


def _update_group(cache: dict, key: tuple, members: list[tuple[Variable, Any]],
                  jobs: list[Callable[[Any], None]]) -> None:
    """Add the jobs of the group's kernel to ``jobs``."""
    first = members[0][1]
    dtype = members[0][0].array.dtype
    scalars = first._scalars(dtype)
    temp_dtypes = first._temp_dtypes(dtype)
    keys = first._kernel_state_keys()
    kernel = first._kernel
    small = []
    for param, rule in members:
        if param.array.size < PACK_BELOW:
            small.append((param, rule))
            continue
        state = rule._state
        try:
            states = [state[k] for k in keys]
        except KeyError:
            rule.update_core(param)  # raises the KeyError of the per-parameter path
            continue
        jobs.extend(kernel_jobs(kernel, scalars, temp_dtypes, param.array, param.grad,
                                states))
    if not small:
        return
    if len(small) == 1:
        param, rule = small[0]
        rule.update_core(param)
        return
    for pack in _packs(cache, key[:2] + key[3:], small, keys, dtype):
        if pack.adopt_states():
            jobs.append(pack.job(kernel, scalars, temp_dtypes))
        else:
            for param, rule in pack.members:
                rule.update_core(param)
