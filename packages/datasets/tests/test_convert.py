import pickle

import numpy
import pytest

from chainer import backend
from chainer.dataset import (
    ConcatWithAsyncTransfer,
    Converter,
    concat_examples,
    converter,
    to_device,
)
from chainer.dataset.convert import _call_converter


def test_arrays():
    batch = [numpy.full((2, 3), i, dtype=numpy.float32) for i in range(4)]
    out = concat_examples(batch)
    assert out.shape == (4, 2, 3) and out.dtype == numpy.float32
    numpy.testing.assert_array_equal(out, numpy.stack(batch))


def test_scalars():
    out = concat_examples([1, 2, 3])
    numpy.testing.assert_array_equal(out, numpy.array([1, 2, 3]))
    out = concat_examples([numpy.int32(4), numpy.int32(5)])
    assert out.dtype == numpy.int32


def test_tuples():
    batch = [(numpy.array([i, i + 1], numpy.float32), numpy.int32(i)) for i in range(3)]
    x, t = concat_examples(batch)
    numpy.testing.assert_array_equal(x, [[0, 1], [1, 2], [2, 3]])
    assert x.dtype == numpy.float32
    numpy.testing.assert_array_equal(t, [0, 1, 2])
    assert t.dtype == numpy.int32


def test_dicts():
    batch = [{'x': numpy.array([i], numpy.float64), 't': i} for i in range(2)]
    out = concat_examples(batch)
    assert set(out) == {'x', 't'}
    numpy.testing.assert_array_equal(out['x'], [[0.0], [1.0]])
    numpy.testing.assert_array_equal(out['t'], [0, 1])


def test_padding():
    batch = [numpy.array([1, 2, 3]), numpy.array([4]), numpy.array([5, 6])]
    out = concat_examples(batch, padding=-1)
    numpy.testing.assert_array_equal(out, [[1, 2, 3], [4, -1, -1], [5, 6, -1]])
    batch = [numpy.ones((1, 3)), numpy.ones((2, 1))]
    out = concat_examples(batch, padding=0)
    numpy.testing.assert_array_equal(out, [[[1, 1, 1], [0, 0, 0]], [[1, 0, 0], [1, 0, 0]]])


def test_padding_per_component():
    batch = [(numpy.array([1, 2]), numpy.array([7])), (numpy.array([3]), numpy.array([8, 9]))]
    x, t = concat_examples(batch, padding=(0, -1))
    numpy.testing.assert_array_equal(x, [[1, 2], [3, 0]])
    numpy.testing.assert_array_equal(t, [[7, -1], [8, 9]])
    out = concat_examples(
        [{'a': numpy.array([1]), 'b': numpy.array([1, 2])},
         {'a': numpy.array([2, 3]), 'b': numpy.array([3])}],
        padding={'a': 0, 'b': 9})
    numpy.testing.assert_array_equal(out['a'], [[1, 0], [2, 3]])
    numpy.testing.assert_array_equal(out['b'], [[1, 2], [3, 9]])


def test_padding_ragged_lists():
    out = concat_examples([[1, 2, 3], [4]], padding=0)
    numpy.testing.assert_array_equal(out, [[1, 2, 3], [4, 0, 0]])


@pytest.mark.parametrize('device', [None, -1, '@numpy', numpy])
def test_cpu_devices(device):
    batch = [(numpy.arange(3.0), 1), (numpy.arange(3.0) + 1, 2)]
    x, t = concat_examples(batch, device)
    assert isinstance(x, numpy.ndarray) and isinstance(t, numpy.ndarray)
    numpy.testing.assert_array_equal(x, [[0, 1, 2], [1, 2, 3]])


def test_device_object():
    out = concat_examples([numpy.zeros(2), numpy.ones(2)], backend.get_device('@numpy'))
    numpy.testing.assert_array_equal(out, [[0, 0], [1, 1]])


def test_errors():
    with pytest.raises(ValueError, match='empty'):
        concat_examples([])
    with pytest.raises(ValueError, match='padding'):
        concat_examples([numpy.zeros(2), numpy.zeros(3)])
    with pytest.raises(ValueError, match='ndim'):
        concat_examples([numpy.zeros(2), numpy.zeros((2, 2))], padding=0)
    with pytest.raises(ValueError):
        concat_examples([numpy.zeros(2)], device='@nonsense')


def test_to_device():
    x = numpy.arange(3)
    assert to_device(None, x) is x
    numpy.testing.assert_array_equal(to_device(-1, x), x)
    numpy.testing.assert_array_equal(to_device('@numpy', x), x)
    assert to_device('@numpy', None) is None


def test_converter_decorator_and_call_protocol():
    seen = []

    @converter()
    def new_style(batch, device):
        seen.append(device)
        return len(batch)

    def old_style(batch, device=None):
        seen.append(device)
        return len(batch)

    assert isinstance(new_style, Converter)
    assert isinstance(concat_examples, Converter)
    assert new_style.__name__ == 'new_style'
    cpu = backend.get_device('@numpy')
    assert _call_converter(new_style, [1, 2], cpu) == 2
    assert seen[-1] is cpu
    assert _call_converter(old_style, [1], cpu) == 1
    assert seen[-1] == -1
    assert _call_converter(old_style, [1], None) == 1
    assert seen[-1] is None


def test_converter_base_is_abstract():
    with pytest.raises(NotImplementedError):
        Converter()([1], None)


def test_gpu_device_without_cuda_is_a_clear_error():
    from chainer.backends import cuda

    if cuda.available:
        pytest.skip('CUDA is available here')
    with pytest.raises(RuntimeError, match='CUDA'):
        to_device(0, numpy.zeros(2))
    with pytest.raises(RuntimeError, match='CUDA'):
        concat_examples([numpy.zeros(2)], '@cupy:0')


@pytest.mark.gpu
def test_gpu_device():
    cupy = pytest.importorskip('cupy')
    x, t = concat_examples([(numpy.arange(3.0), 1), (numpy.arange(3.0), 2)], 0)
    assert isinstance(x, cupy.ndarray) and x.device.id == 0
    numpy.testing.assert_array_equal(cupy.asnumpy(t), [1, 2])
    out = concat_examples([cupy.arange(2), cupy.arange(1)], padding=-1)
    assert isinstance(out, cupy.ndarray)
    numpy.testing.assert_array_equal(cupy.asnumpy(out), [[0, 1], [0, -1]])
    back = concat_examples([cupy.arange(2), cupy.arange(2)], -1)
    assert isinstance(back, numpy.ndarray)


@converter()
def module_level_converter(batch, device=None):
    return len(batch)


def test_decorated_converters_pickle_by_name():
    assert pickle.loads(pickle.dumps(concat_examples)) is concat_examples
    assert pickle.loads(pickle.dumps(module_level_converter)) is module_level_converter
    # One that is not reachable by name pickles its function.
    local = converter()(len)
    assert pickle.loads(pickle.dumps(local))([1, 2]) == 2


def test_concat_with_async_transfer_on_the_cpu():
    conv = ConcatWithAsyncTransfer()
    batch = [(numpy.arange(3.0), numpy.int32(i)) for i in range(4)]
    for device in (None, -1, '@numpy'):
        x, t = conv(batch, device)
        numpy.testing.assert_array_equal(x, numpy.tile(numpy.arange(3.0), (4, 1)))
        numpy.testing.assert_array_equal(t, [0, 1, 2, 3])
    padded = conv([numpy.arange(2), numpy.arange(1)], None, padding=-1)
    numpy.testing.assert_array_equal(padded, [[0, 1], [0, -1]])
    restored = pickle.loads(pickle.dumps(conv))
    numpy.testing.assert_array_equal(restored([numpy.ones(2)] * 2), numpy.ones((2, 2)))
    with pytest.raises(ValueError, match='empty'):
        conv([], None)


@pytest.mark.gpu
@pytest.mark.parametrize('with_compute_stream', [False, True])
def test_concat_with_async_transfer_on_a_gpu(with_compute_stream):
    cupy = pytest.importorskip('cupy')
    compute = cupy.cuda.Stream() if with_compute_stream else None
    conv = ConcatWithAsyncTransfer(compute_stream=compute)
    for step in range(3):
        batch = [{'x': numpy.full((2, 3), step + i, numpy.float32), 'y': numpy.int32(i)}
                 for i in range(5)]
        out = conv(batch, 0)
        assert isinstance(out['x'], cupy.ndarray) and out['x'].device.id == 0
        if compute is not None:
            compute.synchronize()
        numpy.testing.assert_array_equal(cupy.asnumpy(out['x']),
                                         numpy.stack([b['x'] for b in batch]))
        numpy.testing.assert_array_equal(cupy.asnumpy(out['y']), numpy.arange(5))
