"""Optimizer base classes, update rules and hyperparameters.

An :class:`Optimizer` is set up with a target link; a :class:`GradientMethod`
gives each parameter of the target its own :class:`UpdateRule`, whose
:class:`Hyperparameter` falls back on the optimizer's one, so a value set on
the optimizer (``optimizer.lr = 0.1``) applies to every parameter unless a
rule overrides it.
"""

from __future__ import annotations

import copy as _copy
import math
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy

from chainer import backend, internal
from chainer.backends import cuda
from chainer.link import Link
from chainer.utils.numeric_args import py_number
from chainer.variable import Parameter, Variable

if TYPE_CHECKING:
    from chainer.serializer import AbstractSerializer

_TIMINGS = ('pre', 'post', 'auto')


class Hyperparameter:
    """A set of hyperparameters that falls back on a parent set.

    Reading an attribute not set here returns the parent's value; writing
    sets it here only.

    Args:
        parent: the parent hyperparameter (or None).
    """

    def __init__(self, parent: Hyperparameter | None = None) -> None:
        self._parent = parent

    def __setattr__(self, name: str, value: Any) -> None:
        # A NumPy scalar (numpy.float32(0.01)) is stored as the equal Python number,
        # so that the update runs in the parameter's dtype as with a Python number.
        object.__setattr__(self, name, py_number(value))

    def __getattr__(self, name: str) -> Any:
        d = self.__dict__
        if '_parent' not in d or name.startswith('__'):
            raise AttributeError(name)
        parent = d['_parent']
        if parent is None:
            raise AttributeError(f"hyperparameter '{name}' is not set")
        return getattr(parent, name)

    def __repr__(self) -> str:
        d = self.get_dict()
        values = ', '.join(f'{k}={d[k]}' for k in sorted(d))
        return f'Hyperparameter({values})'

    @property
    def parent(self) -> Hyperparameter | None:
        """The parent hyperparameter."""
        return self._parent

    def get_dict(self) -> dict[str, Any]:
        """All hyperparameters visible here (parents' values overridden by own ones)."""
        d = {} if self._parent is None else self._parent.get_dict()
        for k, v in self.__dict__.items():
            if k != '_parent':
                d[k] = v
        return d


class HyperparameterProxy:
    """Descriptor aliasing ``obj.<name>`` to ``obj.hyperparam.<name>``.

    Args:
        attr_name: the hyperparameter name.
    """

    def __init__(self, attr_name: str) -> None:
        self._attr_name = attr_name
        self.__doc__ = f'Alias to ``self.hyperparam.{attr_name}``'

    def __get__(self, obj: Any, objtype: Any = None) -> Any:
        if obj is None:
            return self
        return getattr(obj.hyperparam, self._attr_name)

    def __set__(self, obj: Any, value: Any) -> None:
        setattr(obj.hyperparam, self._attr_name, value)


def _hook_name(hook: Any, name: str | None) -> str:
    if name is None:
        name = getattr(hook, 'name', getattr(hook, '__name__', None))
    if name is None:
        raise ValueError('the name of the hook function is not specified')
    return name


def _hook_timing(hook: Any, timing: str) -> str:
    if timing not in _TIMINGS:
        raise ValueError(f"timing must be one of {_TIMINGS}, not {timing!r}")
    if timing == 'auto':
        timing = getattr(hook, 'timing', 'pre')
        if isinstance(timing, str) and timing not in ('pre', 'post'):
            raise ValueError(f"the hook's timing must be 'pre' or 'post', not {timing!r}")
        # An attribute that is not a string (e.g. of a mock) counts as 'pre', as in v7.
        timing = 'post' if timing == 'post' else 'pre'
    return timing


def _add_hook(pre: dict[str, Any], post: dict[str, Any], hook: Any, name: str | None,
              timing: str, duplicate: type[Exception]) -> None:
    """Put ``hook`` into ``pre`` or ``post`` by its timing (``duplicate`` for a taken name)."""
    timing = _hook_timing(hook, timing)
    name = _hook_name(hook, name)
    if name in pre or name in post:
        raise duplicate(f'hook "{name}" already exists')
    if timing == 'pre':
        pre[name] = hook
    else:
        post[name] = hook


def _remove_hook(pre: dict[str, Any], post: dict[str, Any], name: str) -> None:
    """Remove the hook called ``name`` from ``pre`` or ``post`` (KeyError if absent)."""
    if name in pre:
        del pre[name]
    elif name in post:
        del post[name]
    else:
        raise KeyError(f'no hook named {name!r}')


def _check_loaded_state(rule: UpdateRule, param: Variable,
                        serializer: AbstractSerializer) -> None:
    """Check that a state just loaded into ``rule`` fits ``param`` (shape, numbers).

    Raises:
        ValueError: naming the entry when a state array does not fit.
    """
    from chainer.serializer import Deserializer

    state = rule.state
    if state is None or param.array is None or not isinstance(serializer, Deserializer):
        return
    dummy = numpy.zeros(param.shape, dtype=param.dtype)
    expected = rule._probe_state(Variable(dummy, grad=dummy))
    for key, value in state.items():
        want = expected.get(key)
        if want is None or not hasattr(want, 'shape'):
            continue
        kind = getattr(getattr(value, 'dtype', None), 'kind', '')
        if not kind or kind not in 'biuf' or value.shape != want.shape:
            got = (f'shape {value.shape}' if kind and kind in 'biuf'
                   else f'{getattr(value, "dtype", type(value).__name__)} data')
            raise ValueError(
                f'cannot load {serializer.describe(key)}: the state of parameter '
                f'{param.name!r} needs numbers of shape {want.shape}, the file holds {got}')


def _is_float16(param: Variable) -> bool:
    """Whether ``param`` holds (or will hold, once initialized) float16 values."""
    arr = param.array
    if arr is not None:
        return arr.dtype == numpy.float16
    try:
        return param.dtype == numpy.float16
    except RuntimeError:  # an uninitialized parameter whose dtype is not known yet
        return False


class _NeverInitialized:
    """The initializer of the float32 stand-in of an uninitialized parameter: never runs."""

    dtype = numpy.float32

    def __call__(self, array: Any) -> None:
        raise RuntimeError('the float32 stand-in of an uninitialized parameter')


def _uninitialized_float32() -> Variable:
    return Parameter(_NeverInitialized())


class UpdateRule:
    """The rule that updates one parameter from its gradient.

    Subclasses implement :meth:`update_core_cpu` (and :meth:`update_core_gpu`)
    and :meth:`init_state` for per-parameter state arrays (e.g. momentum).

    Args:
        parent_hyperparam: the hyperparameter this rule's one falls back on.

    Attributes:
        enabled: if False, :meth:`update` does nothing.
        hyperparam: this rule's :class:`Hyperparameter`.
        t: the number of updates done by this rule.
    """

    def __init__(self, parent_hyperparam: Hyperparameter | None = None) -> None:
        self._pre_update_hooks: dict[str, Callable[..., Any]] = {}
        self._post_update_hooks: dict[str, Callable[..., Any]] = {}
        self._state: dict[str, Any] | None = None
        self._state_array_type: type | None = None
        self.enabled = True
        self.hyperparam = Hyperparameter(parent_hyperparam)
        self.t = 0
        self._use_fp32_update = False
        self._fp32_param: Variable | None = None

    @property
    def state(self) -> dict[str, Any] | None:
        """The state arrays of this rule (None before the first update)."""
        return self._state

    @property
    def _live_state(self) -> dict[str, Any]:
        """:attr:`state` as :meth:`init_state` and ``update_core`` see it: allocated.

        Raises:
            RuntimeError: when read before the state is allocated (the first update).
        """
        state = self._state
        if state is None:
            raise RuntimeError(
                f'the state of {type(self).__name__} is not allocated yet (it is at the '
                'first update, before init_state runs)')
        return state

    def add_hook(self, hook: Callable[..., Any], name: str | None = None,
                 timing: str = 'auto') -> None:
        """Add ``hook(rule, param)`` to run before (``'pre'``) or after the update.

        Raises:
            TypeError: when ``hook`` is not callable.
            ValueError: for a bad timing or a missing name.
            KeyError: when a hook of the same name exists.
        """
        if not callable(hook):
            raise TypeError('hook function must be callable')
        _add_hook(self._pre_update_hooks, self._post_update_hooks, hook, name, timing,
                  KeyError)

    def remove_hook(self, name: str) -> None:
        """Remove the hook called ``name``.

        Raises:
            KeyError: when there is no such hook.
        """
        _remove_hook(self._pre_update_hooks, self._post_update_hooks, name)

    def init_state(self, param: Variable) -> None:
        """Allocate the state arrays for ``param`` in :attr:`state` (none by default)."""

    def use_fp32_update(self, flag: bool = True) -> None:
        """Update float16 parameters through a float32 master copy."""
        self._use_fp32_update = flag

    def update(self, param: Variable) -> None:
        """Run the pre hooks, :meth:`update_core` and the post hooks on ``param``.

        Does nothing while :attr:`enabled` is False. A gradient scaled by the
        loss scale of ``backward`` is divided back first. With
        :meth:`use_fp32_update`, a float16 parameter is updated through a
        float32 copy (the hooks and :meth:`update_core` see that copy).
        """
        if not self.enabled:
            return
        self.t += 1
        if self._use_fp32_update and _is_float16(param):
            self._update_fp32(param)
            return
        arr = param.array
        if arr is not None and (self._state is None
                                or self._state_array_type is not type(arr)):
            self._prepare(param)
        scale = param._loss_scale
        if scale is not None and internal.chainerx_fallback(param) is None:
            # (a ChainerX parameter's gradient comes unscaled from backward, as in v7)
            grad = param.grad
            if grad is not None:
                grad /= scale
        self._run_update(param)

    def _run_update(self, param: Variable) -> None:
        if self._pre_update_hooks:
            for hook in tuple(self._pre_update_hooks.values()):
                hook(self, param)
        self.update_core(param)
        if self._post_update_hooks:
            for hook in tuple(self._post_update_hooks.values()):
                hook(self, param)

    def _update_fp32(self, param: Variable) -> None:
        arr = param.array
        if arr is None:
            # Nothing to update yet; the rule still sees a float32 stand-in.
            self._run_update(_uninitialized_float32())
            return
        fp32 = self._fp32_param
        if fp32 is None or fp32.array.shape != arr.shape:
            # The float32 master copy keeps the small steps that float16 rounds away.
            fp32 = self._fp32_param = Variable(arr.astype(numpy.float32), name=param.name)
        grad = param.grad
        fp32.grad = None if grad is None else grad.astype(numpy.float32)
        if self._state is None or self._state_array_type is not type(fp32.array):
            self._prepare(fp32)
        scale = param._loss_scale
        if scale is not None and fp32.grad is not None:
            fp32.grad /= scale
        self._run_update(fp32)
        param.array[...] = fp32.array
        fp32.grad = None

    def _prepare(self, param: Variable) -> None:
        arr = param.array
        if self._state is None:
            self._state = {}
            self.init_state(param)
            self._state_array_type = type(arr)
            device = param.device
            if isinstance(device, backend.ChainerxDevice):
                # as v7: the state arrays are on the parameter's ChainerX device
                state = self._state
                for key, value in state.items():
                    if hasattr(value, 'shape'):
                        state[key] = device.send(value)
        elif self._state_array_type is not type(arr):
            # The parameter moved to another kind of device: move the state too.
            device = param.device
            state = self._state
            for key, value in state.items():
                if hasattr(value, 'shape'):
                    state[key] = device.send(value)
            self._state_array_type = type(arr)

    def update_core(self, param: Variable) -> None:
        """Update ``param`` on its device (dispatches to the CPU, GPU or ChainerX
        version)."""
        arr = param.array
        if isinstance(arr, numpy.ndarray):
            self.update_core_cpu(param)
        elif type(arr) is cuda.ndarray:
            with param.device:
                self.update_core_gpu(param)
        elif isinstance(param.device, backend.ChainerxDevice):
            self.update_core_chainerx(param)
        elif arr is None:
            self.update_core_cpu(param)
        else:
            with param.device:
                self.update_core_gpu(param)

    def update_core_cpu(self, param: Variable) -> None:
        """Update a parameter held by NumPy arrays (implemented by subclasses)."""
        raise NotImplementedError

    def update_core_gpu(self, param: Variable) -> None:
        """Update a parameter held by CuPy arrays (implemented by subclasses)."""
        raise NotImplementedError

    def update_core_chainerx(self, param: Variable) -> None:
        """Update a parameter on a ChainerX device.

        By default (v7's fallback), :meth:`update_core` runs on a Variable over the
        NumPy/CuPy arrays behind the parameter and its gradient (the same memory), with
        the ChainerX state arrays given as the NumPy/CuPy arrays behind them meanwhile; a
        state the update replaces comes back as a ChainerX array.
        """
        fb = internal.chainerx_fallback(param)
        if fb is None:
            if param.array is None:
                return  # an uninitialized parameter: nothing to update yet
            raise TypeError('update_core_chainerx: the parameter is not on a ChainerX device')
        state = self._state
        device = param.device
        swapped = {}
        if state:
            for key, value in state.items():
                if isinstance(value, device.supported_array_types):
                    swapped[key] = (value, backend.from_chx(value))
                    state[key] = swapped[key][1]
        try:
            self.update_core(fb)
        finally:
            internal.chainerx_sync(param, fb)
            for key, (chx_value, used) in swapped.items():
                assert state is not None  # swapped holds entries of it
                current = state.get(key, used)
                state[key] = chx_value if current is used else device.send(current)

    def serialize(self, serializer: AbstractSerializer) -> None:
        """Save or load :attr:`t` and the state arrays.

        When loading into a rule whose state is not allocated yet, the state
        entries are read from the serializer; if they are absent the state is
        left to be initialized at the first update.

        Raises:
            KeyError: when only part of the state is stored (and the rule is enabled).
        """
        from chainer.serializer import Deserializer

        self.t = serializer('t', self.t)
        if self._state is not None:
            state = self._state
            for key in list(state):
                state[key] = serializer(key, state[key])
            return
        if not isinstance(serializer, Deserializer):
            return
        keys = self._allocated_state_keys()
        loaded: dict[str, Any] = {}
        missing: list[KeyError] = []
        for key in keys:
            try:
                value = serializer(key, None)
            except KeyError as e:
                missing.append(e)
                continue
            if value is not None:
                loaded[key] = value
        if missing and loaded and self.enabled:
            # Part of the state is stored: the file is damaged or of another optimizer.
            raise missing[0]
        if not loaded or len(loaded) < len(keys):
            # No state was saved (the rule had not run yet), or a stored None: the
            # state is initialized at the first update.
            return
        self._state = loaded
        self._state_array_type = None
        for value in loaded.values():
            if hasattr(value, 'shape'):
                self._state_array_type = type(value)
                break

    def _allocated_state_keys(self, param: Variable | None = None) -> list[str]:
        """The names of the state arrays :meth:`init_state` allocates (for ``param``)."""
        return list(self._probe_state(param))

    def _probe_state(self, param: Variable | None = None) -> dict[str, Any]:
        """The state :meth:`init_state` allocates for ``param`` (a 1-element dummy if None),
        computed on a copy of this rule."""
        if param is None:
            dummy = numpy.zeros(1, dtype=numpy.float32)
            param = Variable(dummy, grad=dummy)
        # The probe and this rule share one fresh state dict while init_state runs, so
        # that an init_state written against this rule (a closure over it) fills it too.
        saved = self._state
        probed: dict[str, Any] = {}
        self._state = probed
        try:
            _copy.copy(self).init_state(param)
        finally:
            self._state = saved
        return probed


class Optimizer:
    """Base class of optimizers.

    Attributes:
        target: the link being optimized (set by :meth:`setup`).
        t: the number of updates done.
        epoch: the current epoch (advanced by :meth:`new_epoch`).
        use_auto_new_epoch: True when an updater calls ``new_epoch(auto=True)``.
    """

    target: Link | None = None
    t = 0
    epoch = 0
    use_auto_new_epoch = False
    _pre_update_hooks: dict[str, Any] | None = None
    _post_update_hooks: dict[str, Any] | None = None
    _loss_scale: float | None = None
    _loss_scale_max = 65504
    _loss_scaling_is_dynamic = False
    _loss_scaling_isnan = False
    _loss_scaling_isnan_ever = False
    _loss_scaling_multiplier = 1.0

    def setup(self, link: Link) -> Optimizer:
        """Set ``link`` as the target and reset the counters; returns self.

        Raises:
            TypeError: when ``link`` is not a :class:`~chainer.Link`.
        """
        if not isinstance(link, Link):
            raise TypeError(f'optimization target must be a link, not {type(link).__name__}')
        self.target = link
        self.t = 0
        self.epoch = 0
        self._pre_update_hooks = {}
        self._post_update_hooks = {}
        return self

    def _check_setup(self) -> Link:
        target = self.target
        if target is None:
            raise RuntimeError(
                f'{type(self).__name__} has no target: call setup(link) first')
        return target

    def update(self, lossfun: Callable[..., Variable] | None = None, *args: Any,
               **kwds: Any) -> None:
        """Update the target's parameters (implemented by subclasses)."""
        raise NotImplementedError

    def new_epoch(self, auto: bool = False) -> None:
        """Advance :attr:`epoch` by one.

        Args:
            auto: True when called by an updater (needs ``use_auto_new_epoch``).

        Raises:
            RuntimeError: when ``auto`` does not match :attr:`use_auto_new_epoch`.
        """
        if self.use_auto_new_epoch:
            if not auto:
                raise RuntimeError(
                    'invalid new_epoch call with auto=False: the updater already calls '
                    'new_epoch(auto=True); do not call new_epoch() yourself, or create '
                    'the updater with auto_new_epoch=False.')
        elif auto:
            raise RuntimeError(
                'invalid new_epoch call with auto=True: set use_auto_new_epoch to True '
                'on the optimizer first.')
        self.epoch += 1

    # -- hooks ------------------------------------------------------------------------
    def add_hook(self, hook: Callable[..., Any], name: str | None = None,
                 timing: str = 'auto') -> None:
        """Register an optimizer hook, run before (``'pre'``) or after the update.

        A hook with ``call_for_each_param = True`` is called as
        ``hook(update_rule, param)`` for every parameter, others as ``hook(self)``.

        Raises:
            TypeError: when ``hook`` is not callable.
            RuntimeError: before :meth:`setup`.
            ValueError: for a bad timing or a missing name.
            KeyError: when a hook of the same name exists.
        """
        if not callable(hook):
            raise TypeError('hook function is not callable')
        if self._pre_update_hooks is None or self._post_update_hooks is None:
            raise RuntimeError('call `setup` method before `add_hook` method')
        _add_hook(self._pre_update_hooks, self._post_update_hooks, hook, name, timing,
                  KeyError)

    def remove_hook(self, name: str) -> None:
        """Remove the hook called ``name``.

        Raises:
            KeyError: when there is no such hook.
        """
        _remove_hook(self._pre_update_hooks or {}, self._post_update_hooks or {}, name)

    def call_hooks(self, timing: str = 'pre') -> None:
        """Call the hooks registered for ``timing`` (``'pre'`` or ``'post'``)."""
        if timing not in ('pre', 'post'):
            raise ValueError(f"timing must be 'pre' or 'post', not {timing!r}")
        hooks = self._pre_update_hooks if timing == 'pre' else self._post_update_hooks
        if hooks:
            for hook in tuple(hooks.values()):
                self.call_hook(hook)

    def call_hook(self, hook: Callable[..., Any]) -> None:
        """Call one hook (for each parameter if it has ``call_for_each_param``)."""
        if getattr(hook, 'call_for_each_param', False):
            for param in self._check_setup().params():
                hook(param.update_rule, param)
        else:
            hook(self)

    # -- loss scaling -----------------------------------------------------------------
    def set_loss_scale(self, loss_scale: float | None) -> None:
        """Use a fixed loss scale for ``backward`` in :meth:`update` (None: off).

        Under dynamic scaling (:meth:`loss_scaling`) a number is the scale to go on
        from; None turns loss scaling off, dynamic scaling included.
        """
        self._loss_scale = loss_scale
        if loss_scale is None:
            self._loss_scaling_is_dynamic = False

    def loss_scaling(self, interval: int = 1000, scale: float | None = None) -> None:
        """Configure loss scaling for float16 training.

        With ``scale=None`` (dynamic scaling) the scale starts at 1 and doubles
        after every update until a gradient first overflows (holds an infinity
        or NaN); from then on it grows by ``2 ** (1 / interval)`` per update.
        An update whose gradients overflow is skipped and halves the scale (not
        below 1). With a ``scale``, that fixed (static) scale is used.

        Args:
            interval: the number of updates over which the scale doubles once an
                overflow has been seen (dynamic scaling).
            scale: the static loss scale, or None for dynamic scaling.

        Raises:
            ValueError: for ``interval < 1`` or a scale that is not positive.
        """
        if scale is None:
            if interval < 1:
                raise ValueError(
                    f'interval must be greater than or equal to 1. Actual: {interval}')
            self._loss_scaling_is_dynamic = True
            self._loss_scale = 1.0
            self._loss_scaling_multiplier = math.pow(2.0, 1.0 / interval)
            self._loss_scaling_isnan_ever = False
        else:
            if not scale > 0:
                raise ValueError(f'loss_scale must be a positive number. Actual: {scale}')
            self._loss_scale = scale

    def check_nan_in_grads(self) -> None:
        """Under dynamic loss scaling, record whether a gradient overflowed.

        Warns (``UserWarning``) naming the first parameter whose gradient holds
        an infinity or NaN; :meth:`is_safe_to_update` then returns False.
        """
        self._loss_scaling_isnan = False
        if not self._loss_scaling_is_dynamic:
            return
        for name, param in self._check_setup().namedparams(include_uninit=False):
            grad = param.grad
            if grad is None:
                continue
            if not bool(backend.get_array_module(grad).isfinite(grad).all()):
                warnings.warn(
                    f'Non finite number found in param.grad of {name} '
                    f'(iteration: {self.t}, loss_scale: {self._loss_scale})', UserWarning)
                self._loss_scaling_isnan = True
                self._loss_scaling_isnan_ever = True
                return

    def is_safe_to_update(self) -> bool:
        """False when dynamic loss scaling found an overflowing gradient."""
        return not self._loss_scaling_isnan

    def update_loss_scale(self) -> None:
        """Adjust the dynamic loss scale after an update (see :meth:`loss_scaling`)."""
        if not self._loss_scaling_is_dynamic:
            return
        scale = self._loss_scale
        if scale is None:  # set_loss_scale(None) ends dynamic scaling
            raise RuntimeError('dynamic loss scaling has no loss scale')
        if self._loss_scaling_isnan:
            self._loss_scale = max(scale / 2.0, 1)
        elif self._loss_scaling_isnan_ever:
            self._loss_scale = min(scale * self._loss_scaling_multiplier,
                                   self._loss_scale_max)
        else:
            self._loss_scale = min(scale * 2.0, self._loss_scale_max)

    # -- serialization ----------------------------------------------------------------
    def serialize(self, serializer: AbstractSerializer) -> None:
        """Save or load :attr:`t`, :attr:`epoch` and the update-rule states.

        The states are stored under each parameter's path, e.g. ``'l1/W/v'``.
        """
        self.t = serializer('t', self.t)
        self.epoch = serializer('epoch', self.epoch)
        for name, param in self._check_setup().namedparams():
            rule = getattr(param, 'update_rule', None)
            if rule is not None:
                had_state = rule.state is not None
                sub = serializer[name]
                rule.serialize(sub)
                if not had_state:
                    _check_loaded_state(rule, param, sub)


class GradientMethod(Optimizer):
    """Base class of optimizers that follow the gradients of the parameters.

    :meth:`setup` attaches an update rule (from :meth:`create_update_rule`)
    to every parameter of the target.

    Attributes:
        hyperparam: the hyperparameters shared by the update rules.
    """

    def __init__(self) -> None:
        super().__init__()
        self.hyperparam = Hyperparameter()
        self._use_fp32_update = False
        self._loss_scaling_isnan = False

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state.pop('_fused_cache', None)  # rebuilt at the next update
        return state

    #: Whether :meth:`update` updates fusable parameters together (set to False to
    #: force the per-parameter path, e.g. to compare both).
    _fuse = True

    def setup(self, link: Link) -> GradientMethod:
        """Set ``link`` as target and give each of its parameters an update rule."""
        super().setup(link)
        self.__dict__.pop('_fused_cache', None)  # the fused groups of a former target
        for param in link.params():
            rule = self.create_update_rule()
            if self._use_fp32_update:
                rule.use_fp32_update()
            param.update_rule = rule
        return self

    def create_update_rule(self) -> UpdateRule:
        """Return a new update rule for one parameter (implemented by subclasses)."""
        raise NotImplementedError

    def use_cleargrads(self, use: bool = True) -> None:
        """Whether :meth:`update` clears (True) or zero-fills the gradients."""
        self._use_cleargrads = use

    def use_fp32_update(self, flag: bool = True) -> None:
        """Update float16 parameters through float32 master copies."""
        self._use_fp32_update = flag
        if self.target is not None:
            for param in self.target.params():
                if param.update_rule is not None:
                    param.update_rule.use_fp32_update(flag)

    def reallocate_cleared_grads(self) -> None:
        """Give zero gradients to initialized parameters whose gradient is None."""
        for param in self._check_setup().params(False):
            if param.grad is None:
                arr = param.array
                param.grad = backend.get_array_module(arr).zeros_like(arr)

    def call_hook(self, hook: Callable[..., Any]) -> None:
        """Call one hook, then reallocate gradients it may have cleared."""
        super().call_hook(hook)
        self.reallocate_cleared_grads()

    def _clear_grads(self, target: Link) -> None:
        """Clear the target's gradients before a backward (``cleargrads``, or ``zerograd``
        after ``use_cleargrads(False)``)."""
        if getattr(self, '_use_cleargrads', True):
            target.cleargrads()
        else:
            for param in target.params():
                param.zerograd()

    def _captured(self, target: Link, lossfun: Callable[..., Variable], args: tuple,
                  kwds: dict) -> bool:
        """Run the loss, the clearing and the backward as a CUDA graph where they can be
        (a static_graph model on CuPy arrays): see ``chainer.optimizers._captured_step``."""
        from chainer.optimizers import _captured_step  # the package imports this module
        return _captured_step.applies(args) and _captured_step.run(self, target, lossfun,
                                                                   args, kwds)

    def update(self, lossfun: Callable[..., Variable] | None = None, *args: Any,
               **kwds: Any) -> None:
        """Update every parameter of the target by its update rule.

        With ``lossfun``, first computes ``loss = lossfun(*args, **kwds)``,
        clears the gradients and runs ``loss.backward()`` (with the loss scale).
        Parameters without a gradient get a zero one; uninitialized parameters
        are left as they are. Parameters whose update rules can be fused (same
        rule type, dtype and hyperparameters; no rule hooks) are updated
        together (see :mod:`chainer.optimizers._fused_update`), with the same results.
        Under dynamic loss scaling an update whose gradients overflow is skipped. On a
        GPU, the loss and backward of a model with a ``static_graph`` chain run as a CUDA
        graph from their third call on (see ``chainer.optimizers._captured_step``).
        """
        target = self._check_setup()
        if lossfun is not None and not (args and type(args[0]) is cuda.ndarray
                                        and self._captured(target, lossfun, args, kwds)):
            loss = lossfun(*args, **kwds)
            self._clear_grads(target)
            loss.backward(loss_scale=self._loss_scale)
            del loss

        dynamic = self._loss_scaling_is_dynamic
        if dynamic:
            self.check_nan_in_grads()
        if self._pre_update_hooks:
            self.reallocate_cleared_grads()
            self.call_hooks('pre')
        self.t += 1
        if not dynamic or self.is_safe_to_update():
            params = list(target.params())
            for param in params:
                if param.grad_var is None:
                    arr = param.array
                    if arr is not None:
                        param.grad = backend.get_array_module(arr).zeros_like(arr)
            if self._fuse:
                from chainer.optimizers import _fused_update
                _fused_update.update_params(self, params)
            else:
                for param in params:
                    param.update()

        if self._post_update_hooks:
            self.reallocate_cleared_grads()
            self.call_hooks('post')
        if dynamic:
            self.update_loss_scale()


_DEPRECATED_HOOKS = ('GradientClipping', 'GradientHardClipping', 'GradientNoise', 'Lasso',
                     'WeightDecay')


def make_deprecation_message(name: str) -> str:
    """The warning given when the deprecated alias ``chainer.optimizer.<name>`` is used."""
    return (f'chainer.optimizer.{name} is deprecated. '
            f'Use chainer.optimizer_hooks.{name} instead.')


def _deprecated_hook(name: str) -> type:
    """The v7 alias ``chainer.optimizer.<name>``: warns once per construction."""
    from chainer import optimizer_hooks

    base = getattr(optimizer_hooks, name)

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        warnings.warn(make_deprecation_message(name), DeprecationWarning, stacklevel=2)
        base.__init__(self, *args, **kwargs)

    return type(name, (base,), {'__init__': __init__, '__module__': __name__,
                                '__doc__': f'Deprecated alias of '
                                           f':class:`chainer.optimizer_hooks.{name}`.'})


def __getattr__(name: str) -> Any:
    if name in _DEPRECATED_HOOKS:
        cls = _deprecated_hook(name)
        globals()[name] = cls
        return cls
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
