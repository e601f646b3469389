"""NPZ round trips of links and optimizers (chainer-serializers with chainer-links and
chainer-optimizers)."""

import io

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import optimizers, serializers


class MLP(chainer.Chain):
    def __init__(self, n_out=3):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(None, 5)
            self.l2 = L.Linear(5, n_out)
        self.add_persistent('seen', 0)

    def forward(self, x):
        return self.l2(F.relu(self.l1(x)))


def _x():
    return numpy.random.RandomState(0).randn(4, 6).astype('f')


def test_chain_round_trip_initializes_lazy_params(tmp_path):
    src = MLP()
    src(_x())
    src.seen = 7
    serializers.save_npz(tmp_path / 'm.npz', src)
    with numpy.load(tmp_path / 'm.npz') as f:
        assert set(f.files) == {'l1/W', 'l1/b', 'l2/W', 'l2/b', 'seen'}
    dst = MLP()
    assert dst.l1.W.array is None
    serializers.load_npz(tmp_path / 'm.npz', dst)
    assert dst.l1.W.shape == (5, 6) and dst.seen == 7
    for (n1, p1), (n2, p2) in zip(src.namedparams(), dst.namedparams(), strict=True):
        assert n1 == n2
        numpy.testing.assert_array_equal(p1.array, p2.array)
    numpy.testing.assert_array_equal(dst(_x()).array, src(_x()).array)


def test_saved_uninitialized_link_loads_as_uninitialized():
    buf = io.BytesIO()
    serializers.save_npz(buf, MLP())
    buf.seek(0)
    dst = MLP()
    serializers.load_npz(buf, dst)
    assert dst.l1.W.array is None


def test_wrong_model_strict_error_names_key(tmp_path):
    serializers.save_npz(tmp_path / 'lin.npz', L.Linear(3, 2))
    with pytest.raises(KeyError, match='l1/W'):
        serializers.load_npz(tmp_path / 'lin.npz', chainer.Chain(l1=L.Linear(3, 2)))


def test_load_mismatched_shape_is_an_error(tmp_path):
    serializers.save_npz(tmp_path / 'a.npz', MLP(n_out=3))
    model = MLP(n_out=4)
    model(_x())
    with pytest.raises(ValueError, match='shape'):
        serializers.load_npz(tmp_path / 'a.npz', model)


def test_sequential_round_trip(tmp_path):
    src = chainer.Sequential(L.Linear(3, 4), F.relu, L.Linear(4, 2))
    serializers.save_npz(tmp_path / 's.npz', src)
    dst = chainer.Sequential(L.Linear(3, 4), F.relu, L.Linear(4, 2))
    serializers.load_npz(tmp_path / 's.npz', dst)
    numpy.testing.assert_array_equal(dst[2].W.array, src[2].W.array)


@pytest.mark.parametrize('make', [lambda: optimizers.Adam(alpha=0.01),
                                  lambda: optimizers.MomentumSGD(lr=0.1)])
def test_optimizer_round_trip_and_identical_continuation(tmp_path, make):
    x = _x()
    t = numpy.array([0, 1, 2, 1], numpy.int32)
    model = L.Classifier(MLP())
    opt = make().setup(model)
    for _ in range(3):
        opt.update(model, x, t)
    opt.new_epoch()
    serializers.save_npz(tmp_path / 'model.npz', model)
    serializers.save_npz(tmp_path / 'opt.npz', opt)

    model2 = L.Classifier(MLP())
    opt2 = make().setup(model2)
    serializers.load_npz(tmp_path / 'model.npz', model2)
    serializers.load_npz(tmp_path / 'opt.npz', opt2)
    assert opt2.t == 3 and opt2.epoch == 1
    opt.update(model, x, t)
    opt2.update(model2, x, t)
    for (_, p1), (_, p2) in zip(model.namedparams(), model2.namedparams(), strict=True):
        numpy.testing.assert_allclose(p2.array, p1.array, rtol=1e-6, atol=1e-7)


def test_optimizer_state_keys(tmp_path):
    model = L.Linear(2, 2)
    opt = optimizers.MomentumSGD().setup(model)
    model.W.grad = numpy.ones((2, 2), 'f')
    opt.update()
    serializers.save_npz(tmp_path / 'o.npz', opt)
    with numpy.load(tmp_path / 'o.npz') as f:
        assert set(f.files) == {'t', 'epoch', 'W/t', 'W/v', 'b/t', 'b/v'}


def test_hdf5_round_trip_of_chain(tmp_path):
    pytest.importorskip('h5py')
    src = MLP()
    src(_x())
    serializers.save_hdf5(tmp_path / 'm.h5', src)
    dst = MLP()
    serializers.load_hdf5(tmp_path / 'm.h5', dst)
    numpy.testing.assert_array_equal(dst.l1.W.array, src.l1.W.array)
