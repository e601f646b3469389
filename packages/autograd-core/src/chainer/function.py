"""Old-style Function (through an adapter) and the backprop mode switches."""

from __future__ import annotations

from typing import Any

import numpy

import chainer
from chainer.configuration import using_config
from chainer.function_node import FunctionNode
from chainer.variable import Variable


def no_backprop_mode() -> using_config:
    """Context manager that disables building the graph (``enable_backprop=False``)."""
    return using_config('enable_backprop', False)


def force_backprop_mode() -> using_config:
    """Context manager that enables building the graph (``enable_backprop=True``)."""
    return using_config('enable_backprop', True)


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

    def check_type_forward(self, in_types: Any) -> None:
        self._function.check_type_forward(in_types)

    def forward(self, inputs: tuple[Any, ...]) -> tuple[Any, ...]:
        # Old-style functions keep every input and output for backward.
        self.retain_inputs(range(len(inputs)))
        outputs = self._function.forward(inputs)
        if not isinstance(outputs, tuple):
            raise TypeError(f'{self.label}.forward must return a tuple of arrays')
        self.retain_outputs(range(len(outputs)))
        return outputs

    def backward(self, target_input_indexes: tuple[int, ...],
                 grad_outputs: tuple[Any, ...]) -> tuple[Any, ...]:
        in_data = tuple(n.data for n in self.inputs)
        out_grad = tuple(None if g is None else g.array for g in grad_outputs)
        self._function.output_data = self._retained_output_data
        with chainer.using_device(chainer.backend.get_device_from_array(*in_data)):
            gxs = self._function.backward(in_data, out_grad)
        if not isinstance(gxs, tuple):
            raise TypeError(f'{self.label}.backward must return a tuple of arrays (or None)')
        if len(gxs) != len(in_data):
            raise ValueError(f'{self.label}.backward returned {len(gxs)} gradients for '
                             f'{len(in_data)} inputs')
        ret = []
        for i in target_input_indexes:
            g = gxs[i]
            if g is None:
                ret.append(None)
            else:
                x = in_data[i]
                if g.shape != x.shape:
                    raise ValueError(f'{self.label}: gradient of input {i} has shape '
                                     f'{g.shape}, the input has {x.shape}')
                ret.append(Variable._new(g, False))
        return tuple(ret)


class Function:
    """Old-style differentiable function: ``forward`` and ``backward`` on arrays.

    The backward of an old-style function is not differentiable again. Call
    an instance on Variables or arrays to apply it.
    """

    _node: Any = None
    output_data: Any = None

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

    def check_type_forward(self, in_types: Any) -> None:
        """Check input types with ``type_check.expect`` (override)."""

    def forward(self, inputs: tuple[Any, ...]) -> tuple[Any, ...]:
        """Dispatch to :meth:`forward_cpu` or :meth:`forward_gpu`."""
        if chainer.backend.get_array_module(*inputs) is not numpy:
            return self.forward_gpu(inputs)
        return self.forward_cpu(inputs)

    def forward_cpu(self, inputs: tuple[Any, ...]) -> tuple[Any, ...]:
        """Compute the outputs on the CPU."""
        raise NotImplementedError(f'{self.label} does not implement forward_cpu')

    def forward_gpu(self, inputs: tuple[Any, ...]) -> tuple[Any, ...]:
        """Compute the outputs on a GPU."""
        raise NotImplementedError(f'{self.label} does not implement forward_gpu')

    def backward(self, inputs: tuple[Any, ...], grad_outputs: tuple[Any, ...]) -> Any:
        """Dispatch to :meth:`backward_cpu` or :meth:`backward_gpu`."""
        if chainer.backend.get_array_module(*inputs) is not numpy:
            return self.backward_gpu(inputs, grad_outputs)
        return self.backward_cpu(inputs, grad_outputs)

    def backward_cpu(self, inputs: tuple[Any, ...], grad_outputs: tuple[Any, ...]) -> Any:
        """Compute the input gradients on the CPU (None: no gradient)."""
        return tuple(None for _ in inputs)

    def backward_gpu(self, inputs: tuple[Any, ...], grad_outputs: tuple[Any, ...]) -> Any:
        """Compute the input gradients on a GPU (None: no gradient)."""
        return tuple(None for _ in inputs)

    def unchain(self) -> None:
        """Disconnect the function from the graph."""
        if self._node is not None:
            self._node.unchain()

    def add_hook(self, hook: Any, name: str | None = None) -> None:
        """Register a hook on this function only."""
        self.node.add_hook(hook, name)

    def delete_hook(self, name: str) -> None:
        """Remove a hook of this function."""
        self.node.delete_hook(name)

    def retain_inputs(self, indexes: Any) -> None:
        """Kept for compatibility: old-style functions retain every input."""

    def retain_outputs(self, indexes: Any, retain_after_backward: bool = False) -> None:
        """Kept for compatibility: old-style functions retain every output."""
