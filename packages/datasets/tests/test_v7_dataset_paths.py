"""v7's module paths and helpers of chainer-datasets: Conveyor, concat_examples_func,
_concat_arrays, tabular.from_data, datasets._mnist_helper, iterator_statemachine."""

import json
import subprocess
import sys

import numpy
import pytest

from chainer.dataset import convert
from chainer.iterators import _statemachine


def test_concat_examples_func_is_the_plain_converter():
    batch = [(numpy.array([1, 2]), 3), (numpy.array([4, 5]), 6)]
    x, t = convert.concat_examples_func(batch)
    numpy.testing.assert_array_equal(x, [[1, 2], [4, 5]])
    numpy.testing.assert_array_equal(t, [3, 6])
    assert not isinstance(convert.concat_examples_func, convert.Converter)
    padded = convert.concat_examples_func([numpy.ones(1), numpy.ones(3)], padding=0)
    numpy.testing.assert_array_equal(padded, [[1, 0, 0], [1, 1, 1]])


def test_concat_arrays_pads_to_the_largest_shape():
    arrays = [numpy.ones((1, 3), numpy.float32), numpy.full((2, 2), 2, numpy.float32)]
    out = convert._concat_arrays(arrays, -1)
    assert out.shape == (2, 2, 3) and out.dtype == numpy.float32
    numpy.testing.assert_array_equal(out[0], [[1, 1, 1], [-1, -1, -1]])
    numpy.testing.assert_array_equal(out[1], [[2, 2, -1], [2, 2, -1]])
    numpy.testing.assert_array_equal(convert._concat_arrays([1, 2], None), [1, 2])
    with pytest.raises(ValueError):
        convert._concat_arrays(arrays, None)


@pytest.mark.parametrize('device', [None, -1, '@numpy'])
def test_conveyor_on_the_cpu_gives_back_in_order(device):
    conveyor = convert.Conveyor(device)
    conveyor.put(numpy.arange(3))
    conveyor.put((numpy.ones(2), {'a': numpy.zeros(1)}))
    numpy.testing.assert_array_equal(conveyor.get(), [0, 1, 2])
    second = conveyor.get()
    assert isinstance(second, tuple) and isinstance(second[1], dict)
    numpy.testing.assert_array_equal(second[0], [1, 1])
    with pytest.raises(RuntimeError):
        conveyor.get()


def test_tabular_from_data_module():
    from chainer.dataset import tabular
    module = sys.modules['chainer.dataset.tabular.from_data']
    assert tabular.from_data is module.from_data  # the function, as in v7
    dataset = module.from_data((numpy.arange(4), [str(i) for i in range(4)]))
    assert len(dataset) == 4
    assert dataset.get_examples([1, 3], None)[1] == ['1', '3']


def test_mnist_helper(tmp_path, monkeypatch):
    from chainer.datasets import _mnist_helper, mnist
    raw = {'x': (numpy.arange(2 * 784) % 256).astype(numpy.uint8).reshape(2, 784),
           'y': numpy.array([3, 7], numpy.uint8)}
    dataset = _mnist_helper.preprocess_mnist(raw, True, 3, 1.0, numpy.float32, numpy.int32,
                                             False)
    assert len(dataset) == 2
    image, label = dataset[1]
    assert image.shape == (1, 28, 28) and image.dtype == numpy.float32
    numpy.testing.assert_allclose(image.ravel(), raw['x'][1] / 255., rtol=1e-6)
    assert label == 7 and label.dtype == numpy.int32
    rgb = _mnist_helper.preprocess_mnist(raw, False, 3, 2.0, numpy.float64, numpy.int32, True)
    assert rgb.shape == (2, 3, 28, 28) and rgb.max() <= 2.0
    with pytest.raises(ValueError):
        _mnist_helper.preprocess_mnist(raw, False, 4, 1.0, None, numpy.int32, False)

    monkeypatch.setattr(mnist, 'make_npz_arrays', lambda urls: raw)
    path = tmp_path / 'train.npz'
    out = _mnist_helper.make_npz(str(path), ('images-url', 'labels-url'))
    assert out is raw
    with numpy.load(path) as saved:
        numpy.testing.assert_array_equal(saved['x'], raw['x'])
        numpy.testing.assert_array_equal(saved['y'], raw['y'])


def test_iterator_statemachine_steps_through_epochs():
    state = _statemachine.IteratorState(0, 0, False, None)
    state, indices = _statemachine.iterator_statemachine(state, 3, False, None, 5)
    numpy.testing.assert_array_equal(indices, [0, 1, 2])
    state, indices = _statemachine.iterator_statemachine(state, 3, False, None, 5)
    numpy.testing.assert_array_equal(indices, [3, 4])
    assert state.epoch == 1 and state.is_new_epoch
    assert _statemachine.iterator_statemachine(state, 3, False, None, 5)[1] is None
    state, indices = _statemachine.iterator_statemachine(
        _statemachine.IteratorState(3, 0, False, None), 3, True, None, 5)
    numpy.testing.assert_array_equal(indices, [3, 4, 0])
    assert (state.current_position, state.epoch) == (1, 1)


def test_v7_modules_reachable_after_importing_the_packages():
    code = ('import json, sys, chainer.dataset, chainer.datasets\n'
            'gone = []\n'
            'for path in sys.argv[1:]:\n'
            '    obj = sys.modules[".".join(path.split(".")[:2])]\n'
            '    try:\n'
            '        for part in path.split(".")[2:]:\n'
            '            obj = getattr(obj, part)\n'
            '    except AttributeError:\n'
            '        gone.append(path)\n'
            'print(json.dumps(gone))\n')
    paths = ['chainer.dataset.tabular._concat', 'chainer.dataset.tabular._join',
             'chainer.dataset.tabular._slice', 'chainer.dataset.tabular._transform',
             'chainer.dataset.tabular._with_converter', 'chainer.datasets._mnist_helper']
    out = subprocess.run([sys.executable, '-c', code, *paths], check=True,
                         capture_output=True, text=True).stdout
    assert json.loads(out) == []
