"""``str(InvalidType)`` reads as in Chainer v7 (issue 24, item 6).

Programs and docs compare these messages (``'Invalid operation is performed in:
Linear' in str(e)`` or the whole text). The expected strings below were recorded
from Chainer 7.8.1 for the same calls; the argument guard's context is an
exception note, not part of ``str(e)``.
"""

import pickle

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils import type_check
from chainer.utils.type_check import InvalidType

f23 = numpy.ones((2, 3), numpy.float32)
f45 = numpy.ones((4, 5), numpy.float32)
f234 = numpy.ones((2, 3, 4), numpy.float32)
i23 = numpy.arange(6, dtype=numpy.int32).reshape(2, 3)
d23 = numpy.ones((2, 3), numpy.float64)


def _header(label, expect, actual):
    return (f'\nInvalid operation is performed in: {label} (Forward)\n\n'
            f'Expect: {expect}\nActual: {actual}')


CASES = [
    # custom labels and class-name labels
    ('absolute', lambda: F.absolute(i23), _header('|_|', 'x.dtype.kind == f', 'i != f')),
    ('absolute_error', lambda: F.absolute_error(f23, i23),
     _header('AbsoluteError', 'x0.dtype == x1.dtype', 'float32 != int32')),
    ('tanh', lambda: F.tanh(i23), _header('Tanh', 'x.dtype.kind == f', 'i != f')),
    ('batch_inv', lambda: F.batch_inv(i23), _header('BatchInv', 'a.dtype.kind == f', 'i != f')),
    ('det', lambda: F.det(i23), _header('det', 'x.dtype.kind == f', 'i != f')),
    ('decov', lambda: F.decov(i23), _header('DeCov', 'h.dtype.kind == f', 'i != f')),
    # inputs left unnamed where v7 did not name them
    ('exp', lambda: F.exp(i23), _header('exp', 'in_types[0].dtype.kind == f', 'i != f')),
    ('convolution_2d', lambda: F.convolution_2d(f23, i23),
     _header('Convolution2DFunction', 'in_types[1].dtype.kind == f', 'i != f')),
    ('spatial_transformer_sampler', lambda: F.spatial_transformer_sampler(d23, f23),
     _header('SpatialTransformerSampler', 'in_types[1].dtype == in_types[0].dtype',
             'float32 != float64')),
    ('tree_lstm', lambda: F.tree_lstm(f23, i23),
     _header('TreeLSTM', 'in_types[1].dtype == in_types[0].dtype', 'int32 != float32')),
    # the number of inputs as v7 writes it
    ('tree_lstm_one', lambda: F.tree_lstm(i23),
     _header('TreeLSTM', 'in_types.size >= 2', '1 < 2')),
    # v7's order of checks decides the failure reported
    ('maximum', lambda: F.maximum(d23, f23),
     _header('Maximum', 'x1.dtype == x2.dtype', 'float64 != float32')),
    ('lstm', lambda: F.lstm(f23, f45), _header('LSTM', 'x.shape[0] <= c.shape[0]', '4 > 2')),
    ('accuracy', lambda: F.accuracy(f23, i23),
     _header('Accuracy', 'x.shape[2:3] == t.shape[1:]', '() != (3,)')),
    ('simplified_dropconnect', lambda: F.simplified_dropconnect(f23, f45),
     _header('SimplifiedDropconnect', 'prod(x.shape[1:]) == W.shape[1]', '3 != 5')),
    # axes
    ('max_axis', lambda: F.max(f23, axis=5), _header('Max', 'x.ndim > 5', '2 <= 5')),
    ('argmax_axis', lambda: F.argmax(f23, axis=-5),
     _header('ArgMax', 'in_types[0].ndim > 4', '2 <= 4')),
    # broadcast failures: v7's own message, without the header
    ('add', lambda: F.add(f23, f45),
     'cannot broadcast inputs of the following shapes:\nlhs.shape = (2, 3)\nrhs.shape = (4, 5)'),
    ('maximum_shapes', lambda: F.maximum(f23, f234),
     'cannot broadcast inputs of the following shapes:\n'
     'x1.shape = (2, 3)\nx2.shape = (2, 3, 4)'),
    ('broadcast', lambda: F.broadcast(f23, f45),
     'cannot broadcast inputs of the following shapes:\n'
     'in_types[0].shape = (2, 3)\nin_types[1].shape = (4, 5)'),
]


@pytest.mark.parametrize('call,expected', [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_message_is_v7s(call, expected):
    with pytest.raises(InvalidType) as info:
        call()
    assert str(info.value) == expected


def test_guard_context_is_a_note_not_in_the_message():
    with pytest.raises(InvalidType) as info:
        F.absolute(i23)
    e = info.value
    assert 'was called with' not in str(e)
    note = 'F.absolute() was called with self=ndarray of dtype int32 and shape (2, 3)'
    assert e._note == note
    if hasattr(e, 'add_note'):  # Python 3.11+: shown in the traceback
        assert e.__notes__ == [note]


def test_nested_guarded_calls_keep_the_outer_note():
    from chainer.functions import _guard

    def inner(y):
        raise InvalidType('in_types[0].ndim == 2', '3')

    guarded_inner = _guard.guard(inner, 'F.inner')
    outer = _guard.guard(lambda x: guarded_inner(x), 'F.outer')
    with pytest.raises(InvalidType) as info:
        outer(f234)
    note = 'F.outer() was called with x=ndarray of dtype float32 and shape (2, 3, 4)'
    assert info.value._note == note
    assert getattr(info.value, '__notes__', [note]) == [note]
    assert str(info.value) == '\nExpect: in_types[0].ndim == 2\nActual: 3'


def test_text_survives_pickling():
    with pytest.raises(InvalidType) as info:
        F.add(f23, f45)
    again = pickle.loads(pickle.dumps(info.value))
    assert str(again) == str(info.value)
    with pytest.raises(InvalidType) as info:
        F.tanh(i23)
    assert str(pickle.loads(pickle.dumps(info.value))) == str(info.value)


def test_wrong_number_of_named_arguments():
    in_types = type_check.get_types((f23,), 'in_types', False)
    with pytest.raises(InvalidType) as info:
        type_check.argname(in_types, ('x', 'W'))
    assert str(info.value) == 'Invalid number of arguments'
    assert info.value.expect == '2 argument(s)'
    assert info.value.actual == '1 argument(s)'


def test_negative_index_and_slice_keep_the_input_name():
    in_types = type_check.get_types((f23, f234, f45), 'in_types', False)
    assert str(in_types[-1].ndim) == 'in_types[2].ndim'
    assert str(in_types[1:][0].shape) == 'in_types[1].shape'
    type_check.argname(in_types, ('x', 'W', 'b'))
    assert str(in_types[1:][1].shape) == 'b.shape'


def test_user_node_label_is_its_class_name():
    class MyNode(chainer.FunctionNode):
        def check_type_forward(self, in_types):
            type_check.expect(in_types[0].ndim == 3)

        def forward(self, inputs):
            return inputs

    with pytest.raises(InvalidType) as info:
        MyNode().apply((f23,))
    assert str(info.value) == _header('MyNode', 'in_types[0].ndim == 3', '2 != 3')
