"""FunctionNode: the differentiable operation of the new-style graph."""

from __future__ import annotations

import copy
import traceback
import warnings
import weakref
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, NoReturn, cast

import numpy

import chainer
from chainer import _backprop, _chainerx_bridge
from chainer._deferred_grad import DeferredGrad
from chainer.configuration import config
from chainer.function_hook import FunctionHook
from chainer.utils import type_check
from chainer.variable import Variable, _array_types

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from chainer.function import _OldStyleGradient
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray

_NON_NUMERIC = 'OSUVMm'  # object, bytes, str, void, datetime, timedelta
# Set once a Variable over a ChainerX array exists (chainer._chainerx_bridge.activate):
# until then apply does not look for ChainerX inputs.
_chainerx_active = False


class FunctionNode:
    """A differentiable function with its place in the computational graph.

    Subclasses implement :meth:`forward` (arrays in, tuple of arrays out) and
    :meth:`backward` (Variables in, Variables out, so that every backward is
    differentiable again). A node is applied with :meth:`apply`.

    Example:
        >>> import numpy as np
        >>> import chainer
        >>> class Square(chainer.FunctionNode):
        ...     def forward(self, inputs):
        ...         self.retain_inputs((0,))
        ...         x, = inputs
        ...         return x * x,
        ...     def backward(self, indexes, grad_outputs):
        ...         x, = self.get_retained_inputs()
        ...         gy, = grad_outputs
        ...         return 2 * x * gy,
        >>> x = chainer.Variable(np.array([1., 2., 3.], np.float32))
        >>> y, = Square().apply((x,))
        >>> y.grad = np.ones(3, np.float32)
        >>> y.backward()
        >>> print(y.array, x.grad)
        [1. 4. 9.] [2. 4. 6.]
    """

    inputs: Any = None
    outputs: Any = None
    rank = 0
    stack: Any = None
    lazy_grad_sum = False
    _input_indexes_to_retain: Any = None
    _output_indexes_to_retain: Any = None
    _retained_output_data: Any = None
    _local_function_hooks: Any = None
    _supports_static_optimizations = False
    # Set by __init_subclass__: whether the class overrides check_type_forward. The base
    # class itself always checks, so that a bare FunctionNode given its own
    # check_type_forward on the instance (as v7 tests do with mocks) is checked.
    _has_type_check = True
    # Built-in functions whose type check depends only on the input shapes, dtypes and
    # array types, plus the attributes named here, set this tuple: a signature that passed
    # once is not checked again. None (the default, e.g. for user functions) always checks.
    _type_check_cache_attrs: tuple[str, ...] | None = None
    _type_check_passed: dict[Any, bool] = {}
    _overrides_accumulate = False
    # True only for the creator of an old-style Function's gradient (see function.py)
    _old_style_grad = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._has_type_check = cls.check_type_forward is not FunctionNode.check_type_forward
        cls._type_check_passed = {}
        cls._overrides_accumulate = (
            cls.backward_accumulate is not FunctionNode.backward_accumulate)

    def __call__(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise RuntimeError(
            f'{self.label} is a FunctionNode: apply it with .apply((x, ...)), which returns '
            'a tuple of output Variables (calling it is reserved for old-style Functions)')

    @property
    def input_layouts(self) -> tuple[None, ...]:
        """The memory layouts of the inputs (always None: the standard layout)."""
        return tuple(None for _ in self.inputs or ())

    @property
    def output_layouts(self) -> tuple[None, ...]:
        """The memory layouts of the outputs (always None: the standard layout)."""
        return tuple(None for _ in self.outputs or ())

    def check_layout_forward(self, inputs: tuple[Any, ...]) -> None:
        """Check the memory layouts of the inputs (only the standard one exists)."""

    def forward_chainerx(self, inputs: tuple[Any, ...]) -> Any:
        """The forward on ChainerX arrays, or ``chainer.Fallback`` (the default) to run
        :meth:`forward` on the NumPy/CuPy arrays behind them.

        Chainer's own functions run through the fallback: :meth:`apply` passes the backing
        arrays to :meth:`forward` and presents the outputs as ChainerX arrays on the
        inputs' device (the ChainerX routines themselves run on NumPy/CuPy too). A
        subclass that overrides this method has it run on inputs on a ChainerX device
        (as in v7): its backward is then the ChainerX gradient of this method.
        """
        return chainer.Fallback

    @property
    def local_function_hooks(self) -> OrderedDict[str, Any]:
        """The ordered dict of hooks registered on this node only."""
        if self._local_function_hooks is None:
            self._local_function_hooks = OrderedDict()
        return self._local_function_hooks

    @property
    def _n_local_function_hooks(self) -> int:
        return 0 if self._local_function_hooks is None else len(self._local_function_hooks)

    @property
    def label(self) -> str:
        """A short name of the function (its class name by default)."""
        return self.__class__.__name__

    @property
    def _impl_name(self) -> str:
        # the implementing class, whatever the label: hooks that aggregate by function
        return self.__class__.__name__

    @property
    def output_data(self) -> tuple[Any, ...]:
        """The retained output arrays (None where not retained)."""
        if self.outputs is None:
            raise RuntimeError('this function node has not been applied yet')
        indexes = self._output_indexes_to_retain or ()
        data = [None] * len(self.outputs)
        for i, d in zip(indexes, self._retained_output_data or ()):
            data[i] = d
        return tuple(data)

    # -- forward ---------------------------------------------------------------
    def apply(self, inputs: Sequence[VariableOrArray | None]) -> tuple[Variable, ...]:
        """Compute the outputs of this function and link them into the graph.

        Args:
            inputs: a tuple of Variables or arrays (None for an absent optional
                input: forward receives None, and it gets no gradient).

        Returns:
            A tuple of output Variables (an output that forward returned as None is a
            Variable holding None).

        Raises:
            chainer.utils.type_check.InvalidType: when the inputs fail
                :meth:`check_type_forward` (with ``config.type_check`` on).
            TypeError: for an input of another type, or outputs that are not arrays.

        A node applied again while the outputs of its earlier call are still alive
        runs as a shallow copy of itself, so that both graphs stay correct (Chainer
        7.8.1 rebinds the node instead, which breaks backward through the earlier
        outputs). State set by the first ``forward`` (e.g. a dropout mask) is
        carried over by the copy.
        """
        if isinstance(inputs, (Variable, *_array_types)):
            raise TypeError(f'{self.label}.apply takes a tuple of inputs, e.g. apply((x,)), '
                            f'not a single {type(inputs).__name__}')
        in_list: list[Any] = []
        requires_grad = False
        for x in inputs:
            if isinstance(x, Variable):
                in_list.append(x._data)
                if x._requires_grad:
                    requires_grad = True
            elif isinstance(x, _array_types) or x is None:
                in_list.append(x)  # None: an absent optional input, as v7 allows
            else:
                as_variables = _chainerx_bridge.variables_of(inputs)
                if as_variables is not None:  # ChainerX arrays: as Variables over them
                    return self.apply(as_variables)
                raise TypeError(
                    f'{self.label}: inputs must be Variables or arrays (numpy.ndarray or '
                    f'cupy.ndarray) or None, not {type(x).__name__}')
        in_data = tuple(in_list)
        # the ChainerX device of the inputs (their backing arrays are in in_data)
        chx = _chainerx_bridge.device_of(inputs) if _chainerx_active else None
        if chx is not None and type(self).forward_chainerx is not FunctionNode.forward_chainerx:
            # its own ChainerX implementation, unless it returns chainer.Fallback
            from chainer import _chainerx_function

            outputs = _chainerx_function.apply(self, inputs, in_data, chx)
            if outputs is not None:
                return outputs

        cfg = config
        if cfg.type_check:
            if self._has_type_check:
                self._check_data_type_forward(in_data)
            else:
                self._check_numeric(in_data)
        if self.inputs is not None:
            # after the type check, so that bad input is reported as such first
            again = self._node_for_reapply()
            if again is not self:
                return again.apply(inputs)
        hooks = chainer._n_function_hooks or self._local_function_hooks
        if hooks:
            hooks = {**chainer._get_global_function_hooks(), **self.local_function_hooks}
            for hook in hooks.values():
                hook.forward_preprocess(self, in_data)

        if cfg.debug:
            self.stack = traceback.extract_stack()
            outputs = self._forward_checked(in_data)
        else:
            outputs = self.forward(in_data)
            if type(outputs) is not tuple:
                outputs = self._check_forward_result(outputs)

        if hooks:
            for hook in hooks.values():
                hook.forward_postprocess(self, in_data)
                if isinstance(hook, FunctionHook):
                    hook._forward_outputs(self, inputs, outputs)

        new = Variable._new
        ret = tuple([new(y, requires_grad) for y in outputs])
        if chx is not None:
            for v in ret:
                v._chx = chx
        if not cfg.enable_backprop:
            return ret

        node_list = []
        rank = 0
        for x in inputs:
            node = x._node if isinstance(x, Variable) else new(x, False)._node
            node_list.append(node)
            if node._rank > rank:
                rank = node._rank
        self.rank = rank
        self.inputs = nodes = tuple(node_list)
        out_rank = rank + 1
        refs = []
        try:
            for v in ret:
                node = v._node  # reads the array's dtype and shape
                node.creator_node = self
                node._rank = out_rank
                refs.append(weakref.ref(node))
        except AttributeError:
            self.inputs = None
            self._check_outputs_are_arrays(outputs)
            raise
        self.outputs = tuple(refs)
        if self._input_indexes_to_retain is not None:
            for i in self._input_indexes_to_retain:
                nodes[i].data = in_data[i]
        if self._output_indexes_to_retain is not None:
            kept = []
            for i in self._output_indexes_to_retain:
                ret[i]._node.data = outputs[i]
                kept.append(outputs[i])
            self._retained_output_data = tuple(kept)
        return ret

    def _node_for_reapply(self) -> FunctionNode:
        """The node that runs a second ``apply``: this one once its earlier outputs are
        gone (it is no longer part of any graph), else a shallow copy of it."""
        if any(ref() is not None for ref in self.outputs or ()):
            again = copy.copy(self)
            again.inputs = again.outputs = None
            return again
        self.inputs = self.outputs = None
        return self

    def _check_forward_result(self, outputs: Any) -> tuple[Any, ...]:
        if isinstance(outputs, list):
            return tuple(outputs)
        raise TypeError(f'{self.label}: forward output must be a tuple of ndarrays, '
                        f'not {type(outputs).__name__}')

    def _check_outputs_are_arrays(self, outputs: tuple[Any, ...]) -> None:
        for y in outputs:
            if y is not None and not isinstance(y, _array_types):
                raise TypeError(f'{self.label}: forward output must be a tuple of ndarrays, '
                                f'but it holds a {type(y).__name__}')

    def _forward_checked(self, in_data: tuple[Any, ...]) -> tuple[Any, ...]:
        outputs = self.forward(in_data)
        if type(outputs) is not tuple:
            outputs = self._check_forward_result(outputs)
        self._check_outputs_are_arrays(outputs)
        if any(y is not None and _has_nan(y) for y in outputs):
            raise RuntimeError(
                f'NaN is detected on forward computation of {self.label} (debug mode). The '
                'function was called at:\n'
                + ''.join(traceback.format_list((self.stack or [])[-12:])))
        return outputs

    def _check_data_type_forward(self, in_data: tuple[Any, ...]) -> None:
        attrs = self._type_check_cache_attrs
        if attrs is not None:
            key = tuple([(type(x), x.shape, x.dtype) for x in in_data])
            if attrs:
                key += tuple([getattr(self, a) for a in attrs])
            passed = self._type_check_passed
            if key in passed:
                return
        self._check_numeric(in_data)
        # Light mode first (plain values, no expression trees); only a failure is
        # checked again with expressions, to build the message.
        try:
            with type_check.light_mode:
                # the arrays themselves stand for their TypeInfo expressions here:
                # they answer the same .shape/.dtype/.ndim and operators, as values
                self.check_type_forward(
                    cast(type_check.TypeInfoTuple, type_check.get_light_types(in_data)))
        except Exception:
            in_type = type_check.get_types(in_data, 'in_types', False)
            with type_check.get_function_check_context(self):
                self.check_type_forward(in_type)
        if attrs is not None and len(passed) < 4096:
            passed[key] = True

    def _check_numeric(self, in_data: tuple[Any, ...]) -> None:
        """TypeError for an input array of a non-numeric dtype (strings, objects, ...)."""
        for i, x in enumerate(in_data):
            if x is not None and x.dtype.kind in _NON_NUMERIC:
                raise TypeError(f'{self.label}: input {i} is an array of dtype {x.dtype}; '
                                'functions take numeric or boolean arrays only')

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        """Check the types of the inputs (override with ``type_check.expect``)."""

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        """Compute the outputs from the input arrays (dispatches to forward_cpu/gpu)."""
        if any(not isinstance(x, numpy.ndarray) for x in inputs if x is not None):
            return self.forward_gpu(inputs)
        return self.forward_cpu(inputs)

    def forward_cpu(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        """Compute the outputs on the CPU (override :meth:`forward` or this)."""
        raise NotImplementedError(f'{self.label} does not implement forward on the CPU')

    def forward_gpu(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        """Compute the outputs on a GPU (override :meth:`forward` or this)."""
        raise NotImplementedError(f'{self.label} does not implement forward on the GPU')

    def retain_inputs(self, indexes: Iterable[int]) -> None:
        """Keep the inputs at ``indexes`` for the backward pass (call in forward)."""
        self._input_indexes_to_retain = tuple(indexes)

    def retain_outputs(self, indexes: Iterable[int]) -> None:
        """Keep the outputs at ``indexes`` for the backward pass (call in forward)."""
        self._output_indexes_to_retain = tuple(indexes)

    # -- backward --------------------------------------------------------------
    def backward(self, target_input_indexes: tuple[int, ...],
                 grad_outputs: GradOutputs) -> GradInputs:
        """Return the gradients w.r.t. the inputs at ``target_input_indexes``.

        Args:
            target_input_indexes: sorted indexes of the inputs needing gradients.
            grad_outputs: gradient Variables of the outputs (None for an output no
                gradient reached; backward is called only when at least one has one).

        Returns:
            Gradient Variables (or None) for the target inputs, or for all inputs
            (arrays are accepted too, see :data:`chainer.types.GradInputs`).
            The default, for a node that is not differentiable, is None for every
            target input (as in Chainer v7).
        """
        return (None,) * len(target_input_indexes)

    def _array_backward(self, target_input_indexes: tuple[int, ...],
                        inputs: tuple[Any, ...] | None,
                        grad_outputs: tuple[Any, ...]) -> tuple[Any, ...]:
        """The first-order backward on arrays, for nodes that define one (internal).

        The replay of a static graph (``chainer.static_graph``) calls it instead of
        :meth:`backward` when the node's class defines it at the level of its
        ``backward``: it must return what ``backward`` returns under
        ``enable_backprop=False``, as arrays.

        Args:
            target_input_indexes: sorted indexes of the inputs needing gradients.
            inputs: the input arrays of the forward when it retained any of them (read
                only the retained ones), else None; the retained outputs are in
                ``self._retained_output_data`` as after ``apply``.
            grad_outputs: the output gradient arrays (None where none reached).

        Returns:
            One gradient array (or None) per target input.
        """
        raise NotImplementedError(f'{self.label} has no array-level backward')

    def backward_accumulate(self, target_input_indexes: tuple[int, ...],
                            grad_outputs: GradOutputs,
                            grad_inputs: tuple[Variable | None, ...]) -> GradInputs:
        """Return the gradients added to ``grad_inputs`` (the gradients so far)."""
        gxs = self._call_backward(target_input_indexes, grad_outputs)
        ret: list[Variable | NdArray | None] = []
        for gx, g_prev in zip(gxs, grad_inputs):
            if gx is None:
                ret.append(g_prev)
            elif g_prev is None:
                ret.append(gx)
            else:
                ret.append(gx + g_prev)
        return tuple(ret)

    def _call_backward(self, target_input_indexes: tuple[int, ...],
                       grad_outputs: GradOutputs) -> GradInputs:
        return self._select_grads(self.backward(target_input_indexes, grad_outputs),
                                  target_input_indexes)

    def _select_grads(self, gxs: Any, target_input_indexes: tuple[int, ...]) -> tuple[Any, ...]:
        if type(gxs) is not tuple:
            gxs = tuple(gxs) if isinstance(gxs, list) else (gxs,)
        n_in = len(self.inputs)
        if len(gxs) == n_in and n_in != len(target_input_indexes):
            gxs = tuple(gxs[i] for i in target_input_indexes)
        elif len(gxs) != len(target_input_indexes):
            raise ValueError(
                f'{self.label}: number of gradients returned from backward is incorrect: '
                f'{len(gxs)} for {len(target_input_indexes)} targets ({n_in} inputs)')
        return gxs

    def _run_backward(self, target_indexes: tuple[int, ...], grad_outputs: GradOutputs,
                      hooks_enabled: bool) -> tuple[Any, ...]:
        hooks = hooks_enabled or self._local_function_hooks
        if hooks:
            hooks = {**chainer._get_global_function_hooks(), **self.local_function_hooks}
            in_data = tuple(n.data for n in self.inputs)
            out_grad = tuple(None if g is None else g._data for g in grad_outputs)
            for hook in hooks.values():
                hook.backward_preprocess(self, in_data, out_grad)
        if self._overrides_accumulate:
            gxs = self.backward_accumulate(target_indexes, grad_outputs,
                                           (None,) * len(target_indexes))
        else:
            gxs = self.backward(target_indexes, grad_outputs)
            if type(gxs) is not tuple or len(gxs) != len(target_indexes):
                gxs = self._select_grads(gxs, target_indexes)
        if config.debug:
            self._check_backward_result(target_indexes, gxs)
        for g in gxs:
            if g is not None and type(g) is not Variable:
                gxs = tuple([_as_grad_variable(g) for g in gxs])
                break
        if hooks:
            for hook in hooks.values():
                hook.backward_postprocess(self, in_data, out_grad)
        return gxs

    def _check_backward_result(self, target_indexes: tuple[int, ...],
                               gxs: tuple[Any, ...]) -> None:
        # debug mode: each gradient must be a Variable (or None) matching its input
        for i, g in zip(target_indexes, gxs):
            if g is None:
                continue
            if not isinstance(g, Variable):
                raise ValueError(
                    f'{self.label}: type of gradients returned from backward is incorrect: '
                    f'got {type(g).__name__} for input {i}, expected a Variable or None')
            node = self.inputs[i]
            if node.shape is not None and g.shape != node.shape:
                raise ValueError(
                    f'{self.label}: shape of gradients returned from backward is incorrect: '
                    f'{g.shape} for input {i} of shape {node.shape}')
            if node.dtype is not None and g.dtype != node.dtype:
                raise ValueError(
                    f'{self.label}: dtype of gradients returned from backward is incorrect: '
                    f'{g.dtype} for input {i} of dtype {node.dtype}')
            if _has_nan(g._data):
                raise RuntimeError(
                    f'NaN is detected on backward computation of {self.label} '
                    '(debug mode). The function was called at:\n'
                    + ''.join(traceback.format_list((self.stack or [])[-12:])))

    # -- retained values -----------------------------------------------------
    def get_retained_inputs(self) -> tuple[Variable | None, ...]:
        """Return the retained input Variables (linked to the graph); None for an input
        that was None."""
        if self._input_indexes_to_retain is None or self.inputs is None:
            return ()
        inputs = self.inputs
        return tuple([None if inputs[i].data is None else inputs[i].get_variable()
                      for i in self._input_indexes_to_retain])

    def get_retained_outputs(self) -> tuple[Variable | None, ...]:
        """Return the retained output Variables (recreated if collected); None for an
        output that was None."""
        if self._output_indexes_to_retain is None or self.outputs is None:
            return ()
        ret: list[Variable | None] = []
        outputs = list(self.outputs)
        for i, data in zip(self._output_indexes_to_retain, self._retained_output_data):
            if data is None:
                ret.append(None)
                continue
            node = outputs[i]()
            if node is None:
                var = Variable._new(data, True)
                node = var._node
                node.creator_node = self
                node._rank = self.rank + 1
                node.data = data
                outputs[i] = weakref.ref(node)
                ret.append(var)
            else:
                ret.append(node.get_variable())
        self.outputs = tuple(outputs)
        return tuple(ret)

    def unchain(self) -> None:
        """Disconnect this node from its inputs and outputs."""
        for r in self.outputs or ():
            node = r()
            if node is not None:
                node.unchain()
        self.inputs = None

    # -- hooks --------------------------------------------------------------------
    def add_hook(self, hook: FunctionHook, name: str | None = None) -> None:
        """Register a :class:`~chainer.FunctionHook` on this node only."""
        name = hook.name if name is None else name
        if name in self.local_function_hooks:
            raise KeyError(f'hook {name} already exists')
        self.local_function_hooks[name] = hook
        hook.added(self)

    def delete_hook(self, name: str) -> None:
        """Remove the local hook named ``name``."""
        if name not in self.local_function_hooks:
            raise KeyError(f'hook {name} does not exist')
        self.local_function_hooks[name].deleted(self)
        del self.local_function_hooks[name]


def _as_grad_variable(g: Any) -> Any:
    if g is None or isinstance(g, (Variable, DeferredGrad)):
        return g
    if isinstance(g, _array_types):
        return Variable._new(g, False)
    raise TypeError(f'backward must return Variables, arrays or None, not {type(g).__name__}')


def _has_nan(a: Any) -> bool:
    # NaN only, as documented: an infinity (e.g. log(0) in a masked term) may be meant
    if a.dtype.kind not in 'fc' or a.size == 0:
        return False
    xp = chainer.backend.get_array_module(a)
    return bool(xp.isnan(a).any())


def grad(outputs: Sequence[Variable], inputs: Sequence[Variable],
         grad_outputs: Sequence[VariableOrArray | None] | None = None,
         grad_inputs: Sequence[VariableOrArray | None] | None = None,
         set_grad: bool = False, retain_grad: bool = False,
         enable_double_backprop: bool = False,
         loss_scale: float | None = None) -> list[Variable | None]:
    """Compute the gradients of ``outputs`` w.r.t. ``inputs`` without touching ``.grad``.

    Args:
        outputs: output Variables.
        inputs: Variables to differentiate with respect to.
        grad_outputs: initial gradients of the outputs; a None entry (or None
            for all) means ones of the output's shape (times ``loss_scale``).
        grad_inputs: initial gradients added to the result for each input.
        set_grad: also store the results in the inputs' ``grad_var``.
        retain_grad: keep gradients of intermediate variables.
        enable_double_backprop: record the backward graph.
        loss_scale: scale of the initial gradients.

    Returns:
        A list of gradient Variables (None where an input is unreachable).

    Example:
        >>> import numpy as np
        >>> import chainer
        >>> x = chainer.Variable(np.array([1., 2., 3.], np.float32))
        >>> y = x ** 3
        >>> gx, = chainer.grad([y], [x], enable_double_backprop=True)
        >>> gx.array
        array([ 3., 12., 27.], dtype=float32)
        >>> ggx, = chainer.grad([gx], [x])
        >>> ggx.array
        array([ 6., 12., 18.], dtype=float32)
    """
    if not isinstance(outputs, (tuple, list)):
        raise TypeError('outputs must be a tuple or a list of Variables')
    if not isinstance(inputs, (tuple, list)):
        raise TypeError('inputs must be a tuple or a list of Variables')
    for y in outputs:
        creator = y._node.creator_node if isinstance(y, Variable) else None
        if creator is not None and creator._old_style_grad:
            # only chainer.function._OldStyleGradient sets _old_style_grad
            cast('_OldStyleGradient', creator).raise_error()
    if grad_inputs is not None:
        if not isinstance(grad_inputs, (tuple, list)):
            raise TypeError('grad_inputs must be a tuple or a list (or None)')
        if len(grad_inputs) != len(inputs):
            raise ValueError(f'grad_inputs must have one entry per input: got '
                             f'{len(grad_inputs)} for {len(inputs)} inputs')

    def ones(y: Variable) -> Variable:
        return _backprop.ones_grad(y._data, loss_scale)

    root_grads = _backprop.output_grads(outputs, grad_outputs, ones)
    root_nodes = [y._node for y in outputs]
    if grad_inputs is not None:
        # an initial input gradient joins the pass at its node, so it also flows on
        # to the inputs behind it (as in v7)
        for x, gi in zip(inputs, grad_inputs):
            if gi is not None:
                root_nodes.append(x._node)
                root_grads.append(gi if isinstance(gi, Variable)
                                  else Variable._init_unchecked(gi, requires_grad=False))
    targets = [x._node for x in inputs]
    result = _backprop.run_backward(root_nodes, root_grads, retain_grad,
                                    enable_double_backprop, loss_scale, targets=targets)
    ret = [result.get(x._node) for x in inputs]
    for x, g in zip(inputs, ret):
        if g is not None and x._chx is not None:
            g._chx = x._chx  # the gradient of a ChainerX variable is one too
    if set_grad:
        for x, g in zip(inputs, ret):
            x._grad_var = g
    return ret


def backward(outputs: Sequence[Variable],
             grad_outputs: Sequence[VariableOrArray | None] | None = None,
             **kwargs: bool) -> None:
    """Run backpropagation from several outputs at once.

    Args:
        outputs: a tuple or list of Variables.
        grad_outputs: their initial gradients. A None entry (or None for all)
            means the output's own ``grad_var``; as in v7 there is no default of
            ones, and an output without any gradient is skipped with a
            RuntimeWarning.
        **kwargs: ``enable_double_backprop`` (bool).

    Example:
        >>> import numpy as np
        >>> import chainer
        >>> x = chainer.Variable(np.array([1., 2.], np.float32))
        >>> y, z = 2 * x, x * x
        >>> chainer.backward([y, z], [np.ones(2, np.float32), np.ones(2, np.float32)])
        >>> x.grad
        array([4., 6.], dtype=float32)
    """
    enable_double_backprop = kwargs.pop('enable_double_backprop', False)
    if kwargs:
        raise TypeError(f'backward got unexpected keyword arguments: {sorted(kwargs)}')
    grads = _backprop.output_grads(outputs, grad_outputs, _own_grad)
    _backprop.run_backward([y._node for y in outputs], grads, False, enable_double_backprop,
                           None)


def _own_grad(y: Variable) -> Variable | None:
    """The default initial gradient of :func:`backward`: the output's ``grad_var``.

    The gradient is taken from the output (it reads None afterwards, as in v7); a leaf
    output keeps its gradient as it is (it is not added to itself); an output without a
    gradient starts none, with a warning.
    """
    g = y._grad_var
    if g is None:
        warnings.warn('chainer.backward: an output has no grad and no grad_outputs entry; '
                      'it is skipped (chainer.backward does not default to ones)',
                      RuntimeWarning, stacklevel=3)
        return None
    if y._node.creator_node is None:
        return None
    y._grad_var = None  # consumed by the pass (a duplicate output finds none)
    return g
