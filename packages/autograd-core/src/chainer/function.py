"""Old-style Function (through an adapter) and the backprop mode switches."""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

import numpy

import chainer
from chainer.configuration import using_config
from chainer.function_node import FunctionNode
from chainer.variable import Variable, _array_types

if TYPE_CHECKING:
    from collections.abc import Iterable

    from chainer.function_hook import FunctionHook
    from chainer.types import GradInputs, GradOutputs, NdArray
    from chainer.utils.type_check import TypeInfoTuple


def no_backprop_mode() -> using_config:
    """Context manager that disables building the graph (``enable_backprop=False``).

    Example:
        >>> import numpy as np
        >>> import chainer
        >>> x = chainer.Variable(np.array([1., 2.], np.float32))
        >>> with chainer.no_backprop_mode():
        ...     y = x * 2
        >>> y.creator is None
        True
    """
    return using_config('enable_backprop', False)


def force_backprop_mode() -> using_config:
    """Context manager that enables building the graph (``enable_backprop=True``).

    Example:
        >>> import numpy as np
        >>> import chainer
        >>> x = chainer.Variable(np.array([1., 2.], np.float32))
        >>> with chainer.no_backprop_mode():
        ...     with chainer.force_backprop_mode():
        ...         y = x * 2
        >>> y.creator is None
        False
    """
    return using_config('enable_backprop', True)


class _OldStyleGradient(FunctionNode):
    """The creator of a gradient computed by an old-style Function under double backprop.

    An old-style Function's backward is not differentiable: backpropagating through
    such a gradient raises RuntimeError naming the function (as v7 does).
    """

    _old_style_grad = True

    def __init__(self, label: str, data: Any) -> None:
        self._function_label = label
        # one input needing a gradient, so that a backward pass reaches this node
        self.inputs = (Variable._new(data, True)._node,)

    def raise_error(self) -> None:
        """Raise the RuntimeError of a twice-differentiated old-style Function."""
        raise RuntimeError(
            f'cannot twice-differentiate an old-style Function "{self._function_label}": '
            'its backward is not differentiable; write it as a FunctionNode')

    def backward(self, target_input_indexes: tuple[int, ...],
                 grad_outputs: GradOutputs) -> GradInputs:
        self.raise_error()
        return ()


def _old_style_gradient(data: Any, label: str) -> Variable:
    """A gradient Variable of an old-style Function that refuses further backprop."""
    var = Variable._new(data, True)
    node = var._node
    creator = _OldStyleGradient(label, data)
    node.creator_node = creator
    node._rank = 1
    creator.outputs = (weakref.ref(node),)
    return var


class FunctionAdapter(FunctionNode):
    """Runs an old-style :class:`Function` as a :class:`FunctionNode`.

    Args:
        function: the old-style function object.
    """

    def __init__(self, function: Function) -> None:
        super().__init__()
        self._function = function

    @property
    def function(self) -> Function:
        """The adapted old-style function."""
        return self._function

    @property
    def label(self) -> str:
        return self._function.label

    @property
    def _impl_name(self) -> str:
        return self._function.__class__.__name__

    def check_type_forward(self, in_types: TypeInfoTuple) -> None:
        self._function.check_type_forward(in_types)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        # Old-style functions keep every input and output for backward, unless their
        # forward calls retain_inputs / retain_outputs.
        self._input_indexes_to_retain = tuple(range(len(inputs)))
        self._output_indexes_to_retain = None
        outputs = self._function.forward(inputs)
        if not isinstance(outputs, tuple):
            raise TypeError(f'{self.label}.forward must return a tuple of arrays')
        if self._output_indexes_to_retain is None:
            self._output_indexes_to_retain = tuple(range(len(outputs)))
        return outputs

    def backward(self, target_input_indexes: tuple[int, ...],
                 grad_outputs: GradOutputs) -> GradInputs:
        inputs = self.inputs
        in_data = tuple([n.data for n in inputs])
        out_grad = tuple([None if g is None else g.array for g in grad_outputs])
        with chainer.using_device(chainer.backend.get_device_from_array(*in_data)):
            gxs = self._function.backward(in_data, out_grad)
        if not isinstance(gxs, (tuple, list)):
            raise TypeError(f'{self.label}: backward must return a tuple of arrays (or None), '
                            f'not {type(gxs).__name__}')
        if len(gxs) != len(inputs):
            raise ValueError(f'{self.label}: backward returned {len(gxs)} gradients for '
                             f'{len(inputs)} inputs')
        # under double backprop, the gradient refuses to be differentiated again
        double = chainer.config.enable_backprop
        ret: list[Variable | None] = []
        for i in target_input_indexes:
            g = gxs[i]
            if g is None:
                ret.append(None)
                continue
            node = inputs[i]
            if isinstance(g, numpy.generic):
                g = numpy.asarray(g)  # a 0-dim result of NumPy arithmetic
            elif not isinstance(g, _array_types):
                raise TypeError(f'{self.label}: backward returned a {type(g).__name__} as '
                                f'the gradient of input {i}; it must be an array or None')
            if g.dtype != node.dtype:
                raise TypeError(f'{self.label}: the gradient of input {i} has dtype '
                                f'{g.dtype}, the input has {node.dtype}')
            if g.shape != node.shape:
                raise ValueError(f'{self.label}: the gradient of input {i} has shape '
                                 f'{g.shape}, the input has {node.shape}')
            if double:
                ret.append(_old_style_gradient(g, self.label))
            else:
                ret.append(Variable._new(g, False))
        return tuple(ret)


class Function:
    """Old-style differentiable function: ``forward`` and ``backward`` on arrays.

    The backward of an old-style function is not differentiable again. Call
    an instance on Variables or arrays to apply it.
    """

    _node: Any = None

    @property
    def node(self) -> FunctionAdapter:
        """The :class:`FunctionAdapter` of this function's latest (or next) call."""
        if self._node is None:
            self._node = FunctionAdapter(self)
        return self._node

    def __call__(self, *inputs: Any) -> Any:
        node = self._node
        if node is None or node.inputs is not None:
            # each call gets its own adapter, so earlier graphs stay intact; hooks
            # registered on the function carry over
            fresh = FunctionAdapter(self)
            if node is not None and node._local_function_hooks:
                fresh.local_function_hooks.update(node._local_function_hooks)
            self._node = node = fresh
        outputs = node.apply(inputs)
        return outputs[0] if len(outputs) == 1 else outputs

    @property
    def output_data(self) -> tuple[Any, ...]:
        """The retained output arrays of the latest call (None where not retained)."""
        return self.node.output_data

    @property
    def label(self) -> str:
        """A short name (the class name by default)."""
        return self.__class__.__name__

    @property
    def inputs(self) -> tuple[Any, ...]:
        """The input variable nodes."""
        return self.node.inputs

    @property
    def outputs(self) -> tuple[Any, ...]:
        """Weak references to the output variable nodes."""
        return self.node.outputs

    @property
    def rank(self) -> int:
        """The topological rank of the adapter node."""
        return self.node.rank

    @property
    def stack(self) -> Any:
        """The stack trace of the call (debug mode only)."""
        return self.node.stack

    @property
    def local_function_hooks(self) -> Any:
        """The hooks of this function only."""
        return self.node.local_function_hooks

    def check_type_forward(self, in_types: TypeInfoTuple) -> None:
        """Check input types with ``type_check.expect`` (override)."""

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        """Dispatch to :meth:`forward_cpu` or :meth:`forward_gpu`."""
        if chainer.backend.get_array_module(*inputs) is not numpy:
            return self.forward_gpu(inputs)
        return self.forward_cpu(inputs)

    def forward_cpu(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        """Compute the outputs on the CPU."""
        raise NotImplementedError(f'{self.label} does not implement forward_cpu')

    def forward_gpu(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        """Compute the outputs on a GPU."""
        raise NotImplementedError(f'{self.label} does not implement forward_gpu')

    def backward(self, inputs: tuple[NdArray, ...],
                 grad_outputs: tuple[NdArray | None, ...]) -> tuple[NdArray | None, ...]:
        """Dispatch to :meth:`backward_cpu` or :meth:`backward_gpu`."""
        if chainer.backend.get_array_module(*inputs) is not numpy:
            return self.backward_gpu(inputs, grad_outputs)
        return self.backward_cpu(inputs, grad_outputs)

    def backward_cpu(self, inputs: tuple[NdArray, ...],
                     grad_outputs: tuple[NdArray | None, ...]) -> tuple[NdArray | None, ...]:
        """Compute the input gradients on the CPU (None: no gradient)."""
        return tuple(None for _ in inputs)

    def backward_gpu(self, inputs: tuple[NdArray, ...],
                     grad_outputs: tuple[NdArray | None, ...]) -> tuple[NdArray | None, ...]:
        """Compute the input gradients on a GPU (None: no gradient)."""
        return tuple(None for _ in inputs)

    def unchain(self) -> None:
        """Disconnect the function from the graph."""
        if self._node is not None:
            self._node.unchain()

    def add_hook(self, hook: FunctionHook, name: str | None = None) -> None:
        """Register a hook on this function only."""
        self.node.add_hook(hook, name)

    def delete_hook(self, name: str) -> None:
        """Remove a hook of this function."""
        self.node.delete_hook(name)

    def retain_inputs(self, indexes: Iterable[int]) -> None:
        """Keep only the inputs at ``indexes`` for backward (call it in forward).

        By default an old-style function keeps every input; backward receives None
        in place of an input not kept.
        """
        self.node.retain_inputs(indexes)

    def retain_outputs(self, indexes: Iterable[int], retain_after_backward: bool = False) -> None:
        """Keep only the outputs at ``indexes`` in :attr:`output_data` (call in forward).

        By default every output is kept. ``retain_after_backward`` is accepted for
        compatibility (retained outputs stay until the graph is freed).
        """
        self.node.retain_outputs(indexes)
