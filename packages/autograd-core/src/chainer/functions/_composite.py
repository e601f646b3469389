"""Nodes built from other functions: v7's node classes where this project composes.

Chainer v7 had a :class:`~chainer.FunctionNode` class for many computations that this
project writes as a composition of other functions (``F.dstack``, ``F.decov``, ...) or
folds into the backward of another node (``DivGrad``, ``SinGrad``, ...). The v7 names
stay usable as real nodes through three bases:

* :class:`CompositeNode` runs a composition of functions as one node: its forward
  evaluates the composition on arrays, its backward differentiates the composition
  again (so it supports any order of differentiation).
* :class:`BackwardNode` is the gradient of a primal node as a node of its own: its inputs
  are the primal inputs followed by the gradients of the primal outputs, its outputs the
  gradients of the primal inputs.
* :class:`AdjointNode` is the gradient of a *linear* primal node: its only input is the
  output gradient, and its own gradient is the primal applied again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer import backend
from chainer.configuration import config
from chainer.function import force_backprop_mode, no_backprop_mode
from chainer.function_node import FunctionNode, grad
from chainer.functions._util import retained_inputs
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray


def _is_float(a: Any) -> bool:
    return a.dtype.kind == 'f'


class CompositeNode(FunctionNode):
    """A node whose outputs are a composition of differentiable functions.

    Subclasses define :meth:`compute`, taking and returning Variables.
    """

    def compute(self, *xs: Variable) -> tuple[Variable, ...]:
        """The outputs as a function of the inputs (Variables in, Variables out)."""
        raise NotImplementedError

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs(tuple(range(len(inputs))))
        with no_backprop_mode():
            ys = self.compute(*[Variable(x, requires_grad=False) for x in inputs])
        return tuple(y.array for y in ys)

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        xs = retained_inputs(self)
        double = bool(_config_backprop())
        with force_backprop_mode():
            ys = self.compute(*xs)
        pairs = [(y, g) for y, g in zip(ys, grad_outputs) if g is not None]
        targets = [xs[i] for i in indexes]
        ok = [t.requires_grad and _is_float(t) for t in targets]
        wanted = [t for t, k in zip(targets, ok) if k]
        if not pairs or not wanted:
            return (None,) * len(indexes)
        got = iter(grad([y for y, _ in pairs], wanted, [g for _, g in pairs],
                        enable_double_backprop=double))
        return tuple(next(got) if k else None for k in ok)


def _config_backprop() -> bool:

    return config.enable_backprop


class BackwardNode(CompositeNode):
    """The gradients of a primal node's inputs, as a node of their own.

    Inputs: the ``n_in`` primal inputs, then one gradient per primal output (with
    ``n_in = None``, every input but the last ``n_out`` is a primal input).
    Outputs: the gradients of the primal inputs listed in ``wrt`` (all by default), in
    that order; a primal input the outputs do not depend on gets zeros.
    Subclasses define :meth:`primal`, returning a fresh primal node.
    """

    n_in: int | None = 1
    n_out = 1
    wrt: tuple[int, ...] | None = None

    def primal(self) -> FunctionNode:
        """A fresh instance of the primal node."""
        raise NotImplementedError

    def compute(self, *args: Variable) -> tuple[Variable, ...]:
        n_in = len(args) - self.n_out if self.n_in is None else self.n_in
        xs, gys = list(args[:n_in]), args[n_in:]
        wrt = range(n_in) if self.wrt is None else self.wrt
        with force_backprop_mode():
            # fresh leaves when called from forward; the real inputs from backward
            xs = [x if x.creator is not None or x.requires_grad or not _is_float(x.array)
                  else Variable(x.array, requires_grad=True) for x in xs]
            ys = self.primal().apply(xs)
            targets = [xs[i] for i in wrt]
            gxs = grad(list(ys), targets, list(gys), enable_double_backprop=True)
        out = []
        for t, g in zip(targets, gxs):
            if g is None:
                xp = backend.get_array_module(t.array)
                g = Variable(xp.zeros_like(t.array), requires_grad=False)
            out.append(g)
        return tuple(out)


def backward_node(primal: type[FunctionNode], n_in: int = 1,
                  doc: str | None = None) -> type[BackwardNode]:
    """A :class:`BackwardNode` class ``<primal>Grad`` whose primal is ``primal()``.

    The class belongs to the primal's module (set it there under its name), takes the
    ``n_in`` primal inputs and one output gradient, and returns the input gradients.
    ``doc`` is the first line of its docstring (by default, its inputs and outputs).
    """
    name = primal.__name__ + 'Grad'
    if doc is None:
        if n_in == 1:
            io = '``(x, gy)`` to ``gx``'
        else:
            xs = ', '.join(f'x{i}' for i in range(1, n_in + 1))
            gxs = ', '.join(f'gx{i}' for i in range(1, n_in + 1))
            io = f'``({xs}, gy)`` to ``({gxs})``'
        doc = f'The gradient{"s" if n_in > 1 else ""} of :class:`{primal.__name__}`: {io}.'
    doc += ('\n\n    A differentiable node of its own (double backpropagation goes through'
            ' it).\n    ')

    def make_primal(self: BackwardNode) -> FunctionNode:
        return primal()

    return type(name, (BackwardNode,), {
        '__module__': primal.__module__, '__qualname__': name, '__doc__': doc,
        'n_in': n_in, 'primal': make_primal})


class AdjointNode(FunctionNode):
    """The gradient of a linear primal node: ``gx = A^T gy`` for the primal ``y = A x``.

    Its single input is ``gy``; the primal input's shape and dtype come from
    ``in_shape`` and the dtype of ``gy``. Its own gradient is the primal applied to the
    gradient of ``gx``. Subclasses define :meth:`primal` and set ``in_shape``.
    """

    in_shape: tuple[int, ...] = ()

    def primal(self) -> FunctionNode:
        """A fresh instance of the linear primal node."""
        raise NotImplementedError

    def input_shape(self, gy: Any) -> tuple[int, ...]:
        """The shape of the primal input (``in_shape`` unless overridden)."""
        return self.in_shape

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        gy, = inputs
        xp = backend.get_array_module(gy)
        shape = self.input_shape(gy)
        with force_backprop_mode():
            x = Variable(xp.zeros(shape, gy.dtype), requires_grad=True)
            y, = self.primal().apply((x,))[:1]
            gx, = grad([y], [x], [Variable(gy, requires_grad=False)])
        if gx is None:
            return xp.zeros(shape, gy.dtype),
        return gx.array,

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return self.primal().apply(grad_outputs)[:1]
