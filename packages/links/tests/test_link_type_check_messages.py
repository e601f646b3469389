"""The most used links report bad inputs with Chainer v7's ``str(InvalidType)``.

The expected strings were recorded from Chainer 7.8.1 for the same calls (reference
data): a Linear or Convolution2D given the wrong input size or dtype, an EmbedID given
float ids, a BatchNormalization of the wrong size, an LSTM given the wrong input size
(v7 failed in its upward LinearFunction; the project's fused step reports the same).
"""

import numpy as np
import pytest

import chainer.links as L
from chainer.utils.type_check import InvalidType

f3 = np.ones((2, 3, 4), 'f')
i2 = np.ones((2, 3), 'i')
d2 = np.ones((2, 3), 'd')
x4 = np.ones((1, 3, 5, 5), 'f')


def lin(x, *a, **k):
    return L.Linear(*a, **k)(x)


def conv(x, *a, **k):
    return L.Convolution2D(*a, **k)(x)


def _h(label, expect, actual):
    return (f'\nInvalid operation is performed in: {label} (Forward)\n\n'
            f'Expect: {expect}\nActual: {actual}')


CASES = [
    ('Linear/in_size', lambda: lin(np.ones((2, 5), 'f'), 3, 4),
     _h('LinearFunction', 'x.shape[1] == W.shape[1]', '5 != 3')),
    ('Linear/f64', lambda: lin(d2, 3, 4),
     _h('LinearFunction', 'b.dtype == x.dtype', 'float32 != float64')),
    ('Linear/int', lambda: lin(i2, 3, 4),
     _h('LinearFunction', 'x.dtype.kind == f', 'i != f')),
    ('Linear/3d', lambda: lin(f3, 3, 4),
     _h('LinearFunction', 'x.shape[1] == W.shape[1]', '12 != 3')),
    ('Linear/3d_bad', lambda: lin(f3, 5, 4),
     _h('LinearFunction', 'x.shape[1] == W.shape[1]', '12 != 5')),
    ('Linear/nobias', lambda: lin(np.ones((2, 5), 'f'), 3, 4, nobias=True),
     _h('LinearFunction', 'x.shape[1] == W.shape[1]', '5 != 3')),
    ('Conv2D/channels', lambda: conv(x4, 4, 2, 3),
     _h('Convolution2DFunction', 'in_types[0].shape[1] == in_types[1].shape[1] * 1', '3 != 4')),
    ('Conv2D/3d', lambda: conv(np.ones((3, 5, 5), 'f'), 3, 2, 3),
     _h('Convolution2DFunction', 'in_types[0].ndim == 4', '3 != 4')),
    ('Conv2D/f64', lambda: conv(x4.astype('d'), 3, 2, 3),
     _h('Convolution2DFunction', 'in_types[2].dtype == in_types[0].dtype', 'float32 != float64')),
    ('Conv2D/int', lambda: conv(x4.astype('i'), 3, 2, 3),
     _h('Convolution2DFunction', 'in_types[0].dtype.kind == f', 'i != f')),
    ('EmbedID/float', lambda: L.EmbedID(10, 3)(np.zeros(3, 'f')),
     _h('EmbedIDFunction', 'in_types[0].dtype.kind == i', 'f != i')),
    ('BatchNormalization/size', lambda: L.BatchNormalization(3)(np.ones((2, 4), 'f')),
     _h('BatchNormalization', 'in_types[0].shape[1] == in_types[1].shape[0]', '4 != 3')),
    ('BatchNormalization/int', lambda: L.BatchNormalization(3)(i2),
     _h('BatchNormalization', 'in_types[0].dtype.kind == f', 'i != f')),
    ('LSTM/size', lambda: L.LSTM(3, 4)(np.ones((2, 5), 'f')),
     _h('LinearFunction', 'x.shape[1] == W.shape[1]', '5 != 3')),
]


@pytest.mark.parametrize('call,expected', [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_message_is_v7s(call, expected):
    with pytest.raises(InvalidType) as info:
        call()
    assert str(info.value) == expected


def test_lstm_after_a_first_step_reports_the_upward_linear():
    link = L.LSTM(3, 4)
    link(np.ones((2, 3), 'f'))
    with pytest.raises(InvalidType) as info:
        link(np.ones((2, 5), 'f'))  # the lateral path is taken from the second step on
    assert str(info.value) == _h('LinearFunction', 'x.shape[1] == W.shape[1]', '5 != 3')
    assert any('fused LSTM step' in n for n in info.value.__notes__)
