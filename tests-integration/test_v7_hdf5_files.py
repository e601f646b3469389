"""HDF5 files written by Chainer 7.8.1 load here and training continues identically.

``data/v7_mlp.h5`` and ``data/v7_mlp_opt.h5`` were written by Chainer 7.8.1 and h5py
running ``data/make_v7_hdf5.py`` (see its docstring): the MLP of ``v7_mlp.model`` with an
uninitialized extra link, and its Adam state, after three updates.
"""

from pathlib import Path

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L

pytest.importorskip('h5py')
DATA = Path(__file__).resolve().parent / 'data'


class Net(chainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(4, 5)
            self.l2 = L.Linear(5, 3)
            self.lazy = L.Linear(None, 2)

    def forward(self, x):
        return self.l2(F.relu(self.l1(x)))


def test_v7_hdf5_model_and_adam_state_continue_training():
    model = L.Classifier(Net())
    optimizer = chainer.optimizers.Adam().setup(model)
    chainer.serializers.load_hdf5(str(DATA / 'v7_mlp.h5'), model)
    chainer.serializers.load_hdf5(str(DATA / 'v7_mlp_opt.h5'), optimizer)
    assert optimizer.t == 3
    assert model.predictor.lazy.W.array is None  # stored uninitialized by v7
    x = numpy.random.RandomState(0).randn(6, 4).astype(numpy.float32)
    t = numpy.array([0, 1, 2, 0, 1, 2], numpy.int32)
    optimizer.update(model, x, t)
    # the loss Chainer 7.8.1 printed after the same update
    assert float(model(x, t).array) == pytest.approx(1.5696570873260498, rel=1e-6)


def test_v7_hdf5_model_equals_the_npz_one():
    from_h5 = L.Classifier(Net())
    chainer.serializers.load_hdf5(str(DATA / 'v7_mlp.h5'), from_h5)
    from_npz = L.Classifier(Net())
    chainer.serializers.load_npz(str(DATA / 'v7_mlp.model'), from_npz, strict=False)
    for (name, p), (_, q) in zip(sorted(from_h5.namedparams()), sorted(from_npz.namedparams())):
        if p.array is not None:
            numpy.testing.assert_array_equal(p.array, q.array, err_msg=name)
