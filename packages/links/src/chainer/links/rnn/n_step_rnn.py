"""Stacked RNNs over variable-length sequences: the NStep link base and the Elman RNNs."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import chainer
from chainer import functions, initializers
from chainer.link import ChainList, Link
from chainer.utils import argument
from chainer.variable import Parameter, Variable

if TYPE_CHECKING:
    from chainer.types import InitializerSpec, VariableOrArray

_USE_CUDNN_REMOVED = ('use_cudnn argument is not supported anymore. '
                      'Use chainer.using_config')
_TRAIN_REMOVED = 'train argument is not supported anymore. Use chainer.using_config'


def argsort_list_descent(lst: Sequence[Any]) -> list[int]:
    """The indices of the sequences of ``lst`` sorted by decreasing length (stable)."""
    return sorted(range(len(lst)), key=lambda i: -len(lst[i]))


def permutate_list(lst: Sequence[Any], indices: Sequence[int], inv: bool) -> list[Any]:
    """``lst`` reordered by ``indices`` (``ret[i] = lst[indices[i]]``), or by their inverse."""
    if not inv:
        return [lst[i] for i in indices]
    ret: list[Any] = [None] * len(lst)
    for position, i in enumerate(indices):
        ret[i] = lst[position]
    return ret


class NStepRNNBase(ChainList):
    """Base of the stacked RNN links over variable-length sequences.

    The link holds one child :class:`~chainer.Link` per layer and direction,
    each with the weights ``w0 .. w{n-1}`` and biases ``b0 .. b{n-1}`` of
    the underlying ``chainer.functions.n_step_*`` function (in its order).
    Calling it with a list of sequences of different lengths sorts them,
    runs the function and returns the results in the order given.

    Subclasses set ``n_weights`` (weights per layer and direction),
    ``use_bi_direction`` and implement :meth:`rnn`.

    Args:
        n_layers: the number of layers.
        in_size: the size of the input vectors.
        out_size: the size of the hidden states.
        dropout: the dropout ratio applied between layers.
        initialW: initializer of the weights (LeCun normal by default).
        initial_bias: initializer of the biases (zero by default).

    Raises:
        ValueError: for the removed ``use_cudnn`` / ``use_bi_direction`` arguments.
        TypeError: for another keyword argument.
    """

    n_weights = 2
    use_bi_direction = False

    def __init__(self, n_layers: int, in_size: int, out_size: int, dropout: float, *,
                 initialW: InitializerSpec | None = None,
                 initial_bias: InitializerSpec | None = None, **kwargs: Any) -> None:
        argument.parse_kwargs(
            kwargs, use_cudnn=_USE_CUDNN_REMOVED,
            use_bi_direction='use_bi_direction is not supported anymore')
        direction = 2 if self.use_bi_direction else 1
        w_init = initializers._get_initializer(initialW)
        b_init = initializers._get_initializer(0 if initial_bias is None else initial_bias)
        half = self.n_weights // 2
        layers = []
        for layer in range(n_layers):
            layer_in = in_size if layer == 0 else out_size * direction
            for _ in range(direction):
                weights = Link()
                with weights.init_scope():
                    for j in range(self.n_weights):
                        w_in = layer_in if j < half else out_size
                        setattr(weights, f'w{j}', Parameter(w_init, (out_size, w_in)))
                        setattr(weights, f'b{j}', Parameter(b_init, out_size))
                layers.append(weights)
        super().__init__(*layers)
        self.n_layers = n_layers
        self.dropout = dropout
        self.out_size = out_size
        self.direction = direction

    @property
    def ws(self) -> list[list[Parameter]]:
        """Per layer and direction, the weight Parameters ``w0 ..``."""
        return [[getattr(layer, f'w{j}') for j in range(self.n_weights)] for layer in self]

    @property
    def bs(self) -> list[list[Parameter]]:
        """Per layer and direction, the bias Parameters ``b0 ..``."""
        return [[getattr(layer, f'b{j}') for j in range(self.n_weights)] for layer in self]

    @property
    def n_cells(self) -> int:
        """The number of state arrays: 1 (``hx``), or 2 for LSTMs (``hx``, ``cx``)."""
        return 1

    def init_hx(self, xs: Sequence[Any]) -> Variable:
        """Zero initial states for the sequences ``xs``."""
        shape = (self.n_layers * self.direction, len(xs), self.out_size)
        with chainer.using_device(self.device):
            return Variable(self.xp.zeros(shape, dtype=xs[0].dtype))

    def rnn(self, *args: Any) -> tuple[Any, ...]:
        """Apply the underlying ``n_step`` function (implemented by subclasses)."""
        raise NotImplementedError

    def _call(self, hs: Sequence[Any], xs: Sequence[Any], **kwargs: Any) -> list[Any]:
        argument.parse_kwargs(kwargs, train=_TRAIN_REMOVED)
        if not isinstance(xs, (list, tuple)):
            raise TypeError(f'xs must be a list or tuple of sequences, not {type(xs).__name__}')
        if not xs:
            raise ValueError('xs must hold at least one sequence')
        shape = (self.n_layers * self.direction, len(xs), self.out_size)
        for name, h in zip(('hx', 'cx'), hs):
            if h is not None and tuple(h.shape) != shape:
                raise ValueError(f'{type(self).__name__}: {name} must be of shape (n_layers * '
                                 f'directions, len(xs), out_size) = {shape}, not {h.shape}')
        indices = argsort_list_descent(xs)
        indices_array = self.xp.asarray(indices, dtype='i')
        xs = permutate_list(xs, indices, inv=False)
        states = [self.init_hx(xs) if h is None
                  else functions.permutate(h, indices_array, axis=1, inv=False) for h in hs]
        trans_x = functions.transpose_sequence(xs)
        result = self.rnn(self.n_layers, self.dropout, *states, self.ws, self.bs, trans_x)
        out_states = [functions.permutate(h, indices_array, axis=1, inv=True)
                      for h in result[:-1]]
        ys = permutate_list(functions.transpose_sequence(result[-1]), indices, inv=True)
        return out_states + [ys]

    def forward(self, hx: VariableOrArray | None, xs: Sequence[VariableOrArray],
                **kwargs: Any) -> tuple[Variable, list[Variable]]:
        """Run the RNN over the sequences ``xs``.

        Args:
            hx: initial states, of shape ``(n_layers * directions, len(xs),
                out_size)``, or None for zeros.
            xs: a list of sequences, ``xs[i]`` of shape ``(length_i, in_size)``
                (any order of lengths).

        Returns:
            ``(hy, ys)``: the last states (of the shape of ``hx``) and the list
            of output sequences, ``ys[i]`` of shape ``(length_i, out_size * directions)``.
        """
        hy, ys = self._call([hx], xs, **kwargs)
        return hy, ys


def _elman(func: Callable[..., tuple[Any, ...]], args: tuple[Any, ...],
           activation: str) -> tuple[Any, ...]:
    """Call an Elman ``n_step`` function on ``rnn``'s arguments with ``activation``."""
    n_layers, dropout_ratio, hx, ws, bs, xs = args
    return func(n_layers, dropout_ratio, hx, ws, bs, xs, activation=activation)


class NStepRNNTanh(NStepRNNBase):
    """Stacked Elman RNN with tanh over variable-length sequences."""

    def rnn(self, *args: Any) -> tuple[Any, ...]:
        """Apply :func:`chainer.functions.n_step_rnn` with tanh."""
        return _elman(functions.n_step_rnn, args, 'tanh')


class NStepRNNReLU(NStepRNNBase):
    """Stacked Elman RNN with ReLU over variable-length sequences."""

    def rnn(self, *args: Any) -> tuple[Any, ...]:
        """Apply :func:`chainer.functions.n_step_rnn` with ReLU."""
        return _elman(functions.n_step_rnn, args, 'relu')


class NStepBiRNNTanh(NStepRNNBase):
    """Stacked bidirectional Elman RNN with tanh over variable-length sequences."""

    use_bi_direction = True

    def rnn(self, *args: Any) -> tuple[Any, ...]:
        """Apply :func:`chainer.functions.n_step_birnn` with tanh."""
        return _elman(functions.n_step_birnn, args, 'tanh')


class NStepBiRNNReLU(NStepRNNBase):
    """Stacked bidirectional Elman RNN with ReLU over variable-length sequences."""

    use_bi_direction = True

    def rnn(self, *args: Any) -> tuple[Any, ...]:
        """Apply :func:`chainer.functions.n_step_birnn` with ReLU."""
        return _elman(functions.n_step_birnn, args, 'relu')
