"""Normalization, recurrent and vision links round-trip through NPZ and HDF5 files."""

import os

import numpy
import pytest

import chainer
import chainer.links as L
from chainer.links.model.vision import googlenet

FORMATS = {
    'npz': (chainer.serializers.save_npz, chainer.serializers.load_npz),
    'hdf5': (chainer.serializers.save_hdf5, chainer.serializers.load_hdf5),
}


def _builders():
    return {
        'bn_lazy': lambda: L.BatchNormalization(axis=(0, 2)),
        'brn': lambda: L.BatchRenormalization(3, rmax=2., dmax=1.),
        'dbn': lambda: L.DecorrelatedBatchNormalization(4, groups=2),
        'gn': lambda: L.GroupNormalization(1),
        'ln': lambda: L.LayerNormalization(),
        'lstm': lambda: L.LSTM(None, 3),
        'nstep': lambda: L.NStepBiLSTM(1, 4, 2, 0.0),
        'tree': lambda: L.NaryTreeLSTM(4, 3),
        'inceptionbn': lambda: L.InceptionBN(3, 2, 2, 2, 2, 2, 'avg', 2),
    }


def _exercise(name, link):
    """A training-mode call that initializes lazy parameters and moves the statistics."""
    x = numpy.random.randn(5, 4).astype('f')
    if name == 'bn_lazy':
        link(numpy.random.randn(5, 3, 2).astype('f'), finetune=True)
    elif name == 'brn':
        link(numpy.random.randn(5, 3).astype('f'), finetune=True)
    elif name == 'nstep':
        link(None, None, [x, x[:2]])
    elif name == 'tree':
        link(None, None, None, None, x)
    elif name == 'inceptionbn':
        link(numpy.random.randn(2, 3, 4, 4).astype('f'))
    else:
        link(x)


@pytest.mark.parametrize('fmt', sorted(FORMATS))
@pytest.mark.parametrize('name', sorted(_builders()))
def test_round_trip(tmp_path, fmt, name):
    save, load = FORMATS[fmt]
    source = _builders()[name]()
    _exercise(name, source)
    path = str(tmp_path / f'{name}.{fmt}')
    save(path, source)
    target = _builders()[name]()
    load(path, target)
    source_params = dict(source.namedparams())
    target_params = dict(target.namedparams())
    assert sorted(source_params) == sorted(target_params)
    for key, param in source_params.items():
        numpy.testing.assert_array_equal(target_params[key].array, param.array, err_msg=key)
    for (path_s, link_s), (_, link_t) in zip(source.namedlinks(), target.namedlinks(),
                                            strict=True):
        for attr in ('avg_mean', 'avg_var', 'avg_projection', 'N'):
            if hasattr(link_s, attr):
                numpy.testing.assert_array_equal(getattr(link_t, attr), getattr(link_s, attr),
                                                 err_msg=f'{path_s} {attr}')


def test_lstm_state_is_not_saved(tmp_path):
    link = L.LSTM(2, 3)
    link(numpy.ones((1, 2), 'f'))
    path = str(tmp_path / 'lstm.npz')
    chainer.serializers.save_npz(path, link)
    with numpy.load(path) as f:
        assert sorted(f.files) == ['lateral/W', 'upward/W', 'upward/b']


def test_pretrained_auto_reads_the_dataset_cache(tmp_path, monkeypatch):
    from chainer.dataset import download

    old = download.get_dataset_root()
    download.set_dataset_root(str(tmp_path))
    try:
        source = googlenet.GoogLeNet(pretrained_model=None)
        folder = tmp_path / 'pfnet' / 'chainer' / 'models'
        with pytest.raises(FileNotFoundError, match='bvlc_googlenet.npz'):
            googlenet.GoogLeNet()
        os.makedirs(folder)
        chainer.serializers.save_npz(str(folder / 'bvlc_googlenet.npz'), source)
        loaded = googlenet.GoogLeNet()
        numpy.testing.assert_array_equal(loaded.inc5b.conv5.W.array,
                                         source.inc5b.conv5.W.array)
        by_path = googlenet.GoogLeNet(str(folder / 'bvlc_googlenet.npz'))
        numpy.testing.assert_array_equal(by_path.loss3_fc.W.array, source.loss3_fc.W.array)
    finally:
        download.set_dataset_root(old)
