"""NPZ round trips of GPU arrays (need CuPy and a CUDA device: ``nox -s gpu``)."""

import io

import numpy
import pytest

import chainer
from chainer import serializers

pytestmark = pytest.mark.gpu
cupy = pytest.importorskip('cupy')


class GpuHolder:
    def __init__(self, seed):
        self.W = cupy.asarray(numpy.random.RandomState(seed).randn(3, 2).astype('f'))
        self.p = chainer.Parameter(chainer.initializers.Constant(0.0)).to_device('@cupy:0')

    def serialize(self, serializer):
        self.W = serializer('W', self.W)
        data = serializer('p', self.p.array)
        if self.p.array is None and data is not None:
            self.p.initialize(data.shape)
            chainer.backend.copyto(self.p.array, data)


def test_save_from_gpu_and_load_to_gpu():
    src = GpuHolder(0)
    src.p.initialize((2,))
    buf = io.BytesIO()
    serializers.save_npz(buf, src)
    buf.seek(0)
    dst = GpuHolder(1)
    W_obj = dst.W
    serializers.load_npz(buf, dst)
    assert dst.W is W_obj
    numpy.testing.assert_array_equal(cupy.asnumpy(dst.W), cupy.asnumpy(src.W))
    assert isinstance(dst.p.array, cupy.ndarray) and dst.p.shape == (2,)
