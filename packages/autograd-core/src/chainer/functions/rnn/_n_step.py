"""The shared machinery of the stacked n-step RNNs (LSTM, GRU, plain RNN).

Each layer and direction is one FunctionNode (:class:`NStepLayer`) over the
concatenated time steps of a variable-length batch: ``x`` holds the rows of
``xs[0]``, ``xs[1]``, ... one after another, ``lengths`` the batch size of
each step (non-increasing). The input-side products of all the steps are one
GEMM; each step then adds its recurrent product and applies the gates in
place; the backward runs the recurrence in reverse, keeping the gate
gradients of all steps, and ends with one GEMM for each of the input gradient
and the two weight gradients.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy

import chainer
from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._util import grad_by_recompute, retained_inputs
from chainer.functions.array.concat import concat
from chainer.functions.array.separate import separate
from chainer.functions.array.split_axis import split_axis
from chainer.functions.array.stack import stack
from chainer.functions.noise.dropout import dropout
from chainer.utils import argument, numeric_args, type_check
from chainer.variable import Variable, as_variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray, Xp

_REMOVED = {
    'train': 'train argument is not supported anymore. Use chainer.using_config',
    'use_cudnn': 'use_cudnn argument is not supported anymore. Use chainer.using_config',
}


def sigmoid_(a: Any, xp: Any) -> Any:
    """Sigmoid in place (through tanh, stable for any input); returns ``a``."""
    a *= 0.5
    xp.tanh(a, out=a)
    a *= 0.5
    a += 0.5
    return a


def compute_dtype(dtype: Any) -> Any:
    """The dtype a layer is computed in (float16 is computed in float32)."""
    return numpy.dtype(numpy.float32) if dtype == numpy.float16 else numpy.dtype(dtype)


class Steps:
    """The row ranges of the time steps of a layer, in the order they are processed."""

    def __init__(self, lengths: tuple[int, ...], reverse: bool) -> None:
        offsets = numpy.concatenate(([0], numpy.cumsum(lengths, dtype=numpy.int64)))
        order = range(len(lengths) - 1, -1, -1) if reverse else range(len(lengths))
        self.times = list(order)
        self.forward = [(slice(int(offsets[t]), int(offsets[t + 1])), lengths[t])
                        for t in order]
        self.total = int(offsets[-1])


class NStepLayer(FunctionNode):
    """One layer and direction of a stacked RNN over a variable-length batch.

    Inputs: ``x`` (the concatenated steps), ``hx`` (and ``cx`` for the LSTM) of
    shape ``(batch, units)``, then the cell's weight matrices and bias vectors
    in v7's order. Outputs: ``ys`` (the concatenated hidden states), ``hy``
    (and ``cy``).

    Subclasses set ``n_weights`` (per kind: half input-side, half recurrent),
    ``use_cell`` and the gate arrangement, and implement :meth:`run_forward`
    and :meth:`run_backward` on arrays and :meth:`composed_step` on Variables.

    Args:
        lengths: the batch size of each time step (non-increasing).
        reverse: process the steps from the last to the first.
        index: the position of the layer's weights in ``ws`` (named in errors).
    """

    n_weights = 0
    use_cell = False

    def __init__(self, lengths: Sequence[int], reverse: bool = False, index: int = 0) -> None:
        self.lengths = tuple(int(n) for n in lengths)
        self.reverse = reverse
        self.index = index

    @property
    def n_states(self) -> int:
        return 2 if self.use_cell else 1

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        k, ns, li = self.n_weights, self.n_states, self.index
        states = tuple(f'{s}[{li}]' for s in ('hx', 'cx')[:ns])
        type_check.argname(in_types, ('x',) + states + tuple(f'ws[{li}][{i}]' for i in range(k))
                           + tuple(f'bs[{li}][{i}]' for i in range(k)))
        x_type, h_type = in_types[0], in_types[1]
        type_check.expect(
            x_type.dtype.kind == 'f', x_type.ndim == 2,
            x_type.shape[0] == sum(self.lengths),
            h_type.dtype == x_type.dtype, h_type.ndim == 2,
            h_type.shape[0] == (self.lengths[0] if self.lengths else 0),
        )
        for j in range(2, 1 + ns):
            type_check.expect(in_types[j].dtype == x_type.dtype,
                              in_types[j].shape == h_type.shape)
        for i in range(k):
            w = in_types[1 + ns + i]
            type_check.expect(w.dtype == x_type.dtype, w.ndim == 2,
                              w.shape[0] == h_type.shape[1])
            if i < k // 2:
                type_check.expect(w.shape[1] == x_type.shape[1])
            else:
                type_check.expect(w.shape[1] == h_type.shape[1])
        for i in range(k):
            b = in_types[1 + ns + k + i]
            type_check.expect(b.dtype == x_type.dtype, b.ndim == 1,
                              b.shape[0] == h_type.shape[1])

    def _split(self, inputs: Sequence[Any]) -> tuple[Any, list[Any], list[Any], list[Any]]:
        ns, k = self.n_states, self.n_weights
        return (inputs[0], list(inputs[1:1 + ns]), list(inputs[1 + ns:1 + ns + k]),
                list(inputs[1 + ns + k:]))

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs(tuple(range(len(inputs))))
        x, states, ws, bs = self._split(inputs)
        xp = backend.get_array_module(x)
        dt = x.dtype
        cdt = compute_dtype(dt)
        self._steps = Steps(self.lengths, self.reverse)
        outs = self.run_forward(xp, x.astype(cdt, copy=False),
                                [s.astype(cdt) for s in states],
                                [w.astype(cdt, copy=False) for w in ws],
                                [b.astype(cdt, copy=False) for b in bs])
        return tuple(o.astype(dt, copy=False) for o in outs)

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        if chainer.config.enable_backprop:
            return grad_by_recompute(self, self._composed, indexes, grad_outputs)
        inputs = [v.array for v in retained_inputs(self)]
        x, states, ws, bs = self._split(inputs)
        xp = backend.get_array_module(x)
        cdt = compute_dtype(x.dtype)
        gys = [None if g is None else g.array.astype(cdt, copy=False) for g in grad_outputs]
        grads = self.run_backward(xp, x.astype(cdt, copy=False),
                                  [w.astype(cdt, copy=False) for w in ws], gys,
                                  0 in indexes)
        return tuple(None if (g := grads[i]) is None else g.astype(inputs[i].dtype, copy=False)
                     for i in indexes)

    def run_forward(self, xp: Xp, x: NdArray, states: list[NdArray], ws: list[NdArray],
                    bs: list[NdArray]) -> tuple[NdArray, ...]:
        """The outputs ``(ys, hy[, cy])`` from arrays of the compute dtype."""
        raise NotImplementedError

    def run_backward(self, xp: Xp, x: NdArray, ws: list[NdArray], gys: list[NdArray | None],
                     need_gx: bool) -> list[NdArray | None]:
        """The gradients of all the inputs (None where not computed)."""
        raise NotImplementedError

    def composed_step(self, x: Variable, states: list[Variable], ws: list[Variable],
                      bs: list[Variable]) -> list[Variable]:
        """One step on Variables: the new states (the hidden state first)."""
        raise NotImplementedError

    def _composed(self, *inputs: Any) -> tuple[Any, ...]:
        """The forward with differentiable functions (for double backprop)."""

        x, states, ws, bs = self._split(inputs)
        ys: list[Any] = [None] * len(self.lengths)
        steps = Steps(self.lengths, self.reverse)
        for (rows, b), t in zip(steps.forward, steps.times):
            if b == 0:
                continue
            cur = [s[:b] for s in states]
            new = self.composed_step(x[rows], cur, ws, bs)
            ys[t] = new[0]
            states = [n if b == s.shape[0] else concat([n, s[b:]], axis=0)
                      for n, s in zip(new, states)]
        parts = [y for y in ys if y is not None]
        n_units = states[0].shape[1]
        y_all = concat(parts, axis=0) if parts else Variable(
            backend.get_array_module(x).zeros((0, n_units), x.dtype))
        return (y_all,) + tuple(states)

    def stacked(self, xp: Any, ws: list[Any], order: Sequence[int]) -> Any:
        """The matrices ``ws[i]`` for ``i`` in ``order`` stacked along axis 0."""
        return xp.concatenate([ws[i] for i in order], axis=0)

    def stacked_t(self, xp: Any, ws: list[Any], order: Sequence[int]) -> Any:
        """The transposed matrices ``ws[i].T`` stacked along axis 1 (C-contiguous)."""
        return xp.concatenate([ws[i].T for i in order], axis=1)


def row_sum(g: Any, xp: Any) -> Any:
    """The sum over the rows of a 2-D array (a GEMV)."""
    return xp.matmul(xp.ones(g.shape[0], g.dtype), g)


def check_kwargs(kwargs: dict[str, Any]) -> None:
    """Reject the removed ``train`` and ``use_cudnn`` arguments and any other."""
    argument.check_unexpected_kwargs(kwargs, **_REMOVED)
    argument.assert_kwargs_empty(kwargs)


def _shape(v: Any) -> tuple[int, ...]:
    return tuple(v.shape)


def n_step_impl(name: str, layer_cls: type[NStepLayer], n_layers: int, dropout_ratio: float,
                hx: VariableOrArray | None, cx: VariableOrArray | None,
                ws: Sequence[Sequence[VariableOrArray]], bs: Sequence[Sequence[VariableOrArray]],
                xs: Sequence[VariableOrArray], use_bi_direction: bool,
                **layer_kwargs: Any) -> tuple[Variable, Variable | None, tuple[Variable, ...]]:
    """Run a stacked (bi)directional RNN of ``layer_cls`` layers over ``xs``.

    Returns:
        ``(hy, cy, ys)``; ``cy`` is None for cells without a cell state.

    Raises:
        ValueError: for inconsistent arguments, each named.
    """

    n_dir = 2 if use_bi_direction else 1
    if not numeric_args.is_int(n_layers) or n_layers < 1:
        raise ValueError(f'{name}: n_layers must be a positive int, got {n_layers!r}')
    n_layers = numeric_args.as_int(n_layers)
    n_lw = n_layers * n_dir
    k = layer_cls.n_weights
    for arg, lists in (('ws', ws), ('bs', bs)):
        if len(lists) != n_lw:
            raise ValueError(f'{name}: {arg} must hold {n_lw} lists (n_layers * directions), '
                             f'got {len(lists)}')
        for i, item in enumerate(lists):
            if len(item) != k:
                raise ValueError(f'{name}: {arg}[{i}] must hold {k} arrays, got {len(item)}')
    xs = list(xs)
    if not xs:
        raise ValueError(f'{name}: xs must hold at least one time step')
    lengths = [int(x.shape[0]) for x in xs]
    for t in range(1, len(lengths)):
        if lengths[t] > lengths[t - 1]:
            raise ValueError(f'{name}: the batch sizes of xs must be non-increasing (sort the '
                             f'sequences by decreasing length), got {lengths}')
    xp = backend.get_array_module(xs[0])
    w00 = ws[0][0]
    n_units = int(w00.shape[0])
    state_shape = (n_lw, lengths[0], n_units)

    def state(v: Any, arg: str) -> Any:
        if v is None:
            return xp.zeros(state_shape, xs[0].dtype)
        if _shape(v) != state_shape:
            raise ValueError(f'{name}: {arg} must be of shape (n_layers * directions, batch, '
                             f'units) = {state_shape}, got {_shape(v)}')
        return v

    hs = separate(state(hx, 'hx'), 0) if n_lw > 1 else [state(hx, 'hx')[0]]
    use_cell = layer_cls.use_cell
    if use_cell:
        cs = separate(state(cx, 'cx'), 0) if n_lw > 1 else [state(cx, 'cx')[0]]
    x = xs[0] if len(xs) == 1 else concat(xs, axis=0)
    hy, cy = [], []
    for layer in range(n_layers):
        outs = []
        for d in range(n_dir):
            # Each direction drops its own units of the layer's input (Chainer v7's
            # draws, one mask per direction, so that a seeded NumPy drops the same).
            x_d = dropout(x, dropout_ratio) if layer > 0 and dropout_ratio > 0 else x
            i = layer * n_dir + d
            node = layer_cls(lengths, reverse=d == 1, index=i, **layer_kwargs)
            states = (hs[i], cs[i]) if use_cell else (hs[i],)
            out = node.apply((x_d,) + states + tuple(ws[i]) + tuple(bs[i]))
            outs.append(out[0])
            hy.append(out[1])
            if use_cell:
                cy.append(out[2])
        x = outs[0] if n_dir == 1 else concat(outs, axis=1)
    sections = numpy.cumsum(lengths[:-1]).tolist()
    ys = split_axis(x, sections, 0) if sections else (as_variable(x),)
    return stack(hy, 0), (stack(cy, 0) if use_cell else None), tuple(ys)
