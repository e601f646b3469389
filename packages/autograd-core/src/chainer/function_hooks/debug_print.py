"""PrintHook: prints the inputs (and output gradients) of each function call."""

from __future__ import annotations

import sys
import warnings
from typing import IO, TYPE_CHECKING, Any

from chainer import backend
from chainer.function_hook import FunctionHook
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.function_node import FunctionNode


class PrintHook(FunctionHook):
    """Function hook printing debug information before each forward and backward.

    For each call it prints the function's label, a description of every
    input array and, before a backward, of every output gradient
    (:meth:`~chainer.Variable.debug_print` statistics).

    Args:
        sep: ignored (deprecated since Chainer v4; a DeprecationWarning is given).
        end: the string printed after each message.
        file: the text stream to print to.
        flush: flush ``file`` after each call.
    """

    name = 'PrintHook'

    def __init__(self, sep: object = None, end: str = '\n', file: IO[Any] = sys.stdout,
                 flush: bool = True) -> None:
        if sep is not None:
            warnings.warn('the sep argument of PrintHook is deprecated and ignored',
                          DeprecationWarning, stacklevel=2)
        self.sep = sep
        self.end = end
        self.file = file
        self.flush = flush

    def _print(self, message: str) -> None:
        print(message, end=self.end, file=self.file)

    def _process(self, function: FunctionNode, in_data: tuple[Any, ...],
                 out_grad: tuple[Any, ...] | None = None) -> None:
        self._print(f'function\t{function.label}')
        self._print('input data')
        for d in in_data:
            if d is None:
                self._print('(removed)')  # v7's text for a released input
            else:
                self._print(Variable(d, requires_grad=False).debug_print())
        if out_grad is not None:
            self._print('output gradient')
            for g in out_grad:
                if g is None:
                    self._print('None')
                    continue
                holder = Variable(backend.get_array_module(g).zeros_like(g),
                                  requires_grad=False)
                holder.grad = g
                self._print(holder.debug_print())
        if self.flush and hasattr(self.file, 'flush'):
            self.file.flush()

    def forward_preprocess(self, function: FunctionNode, in_data: tuple[Any, ...]) -> None:
        self._process(function, in_data)

    def backward_preprocess(self, function: FunctionNode, in_data: tuple[Any, ...],
                            out_grad: tuple[Any, ...]) -> None:
        self._process(function, in_data, out_grad)
