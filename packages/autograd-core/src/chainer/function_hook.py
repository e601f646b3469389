"""FunctionHook: callbacks around the forward and backward of functions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import chainer

if TYPE_CHECKING:
    from collections.abc import Sequence

    from chainer.function_node import FunctionNode


class FunctionHook:
    """Base class of function hooks.

    Use as a context manager to register it globally (for this thread) inside
    the ``with`` block, or register on one node with ``FunctionNode.add_hook``.
    """

    name = 'FunctionHook'

    def __enter__(self) -> FunctionHook:
        hooks = chainer.get_function_hooks()
        if self.name in hooks:
            raise KeyError(f'hook {self.name} already exists')
        hooks[self.name] = self
        self.added(None)
        return self

    def __exit__(self, *args: Any) -> None:
        chainer.get_function_hooks()[self.name].deleted(None)
        del chainer.get_function_hooks()[self.name]

    def added(self, function: FunctionNode | None = None) -> None:
        """Called when the hook is registered (function None: globally)."""

    def deleted(self, function: FunctionNode | None = None) -> None:
        """Called when the hook is unregistered (function None: globally)."""

    def forward_preprocess(self, function: FunctionNode, in_data: tuple[Any, ...]) -> None:
        """Called before a function's forward."""

    def forward_postprocess(self, function: FunctionNode, in_data: tuple[Any, ...]) -> None:
        """Called after a function's forward."""

    def _forward_outputs(self, function: FunctionNode, inputs: Sequence[Any],
                         outputs: tuple[Any, ...]) -> None:
        """Called after :meth:`forward_postprocess` with the inputs as given to ``apply``
        (Variables or arrays) and the output arrays (internal: the static-graph tracer
        records them)."""

    def backward_preprocess(self, function: FunctionNode, in_data: tuple[Any, ...],
                            out_grad: tuple[Any, ...]) -> None:
        """Called before a function's backward."""

    def backward_postprocess(self, function: FunctionNode, in_data: tuple[Any, ...],
                             out_grad: tuple[Any, ...]) -> None:
        """Called after a function's backward."""
