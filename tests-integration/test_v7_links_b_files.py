"""Normalization and recurrent models saved by Chainer 7.8.1 load here and give its outputs.

The files of ``data/v7_links_b/`` and the outputs in ``expected.npz`` were written
by ``tools/compat/make_v7_links_b_files.py`` run with Chainer 7.8.1; the models
are built here from the same definitions (imported from that script).
"""

import importlib.util
from pathlib import Path

import numpy
import pytest

import chainer

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / 'tests-integration' / 'data' / 'v7_links_b'


def _generator():
    path = ROOT / 'tools' / 'compat' / 'make_v7_links_b_files.py'
    spec = importlib.util.spec_from_file_location('make_v7_links_b_files', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


gen = _generator()


@pytest.fixture(scope='module')
def expected():
    with numpy.load(DATA / 'expected.npz') as f:
        return dict(f)


def test_cnn_with_batch_normalization(expected):
    model = gen.CNN()
    assert model.bn2.avg_mean is None and model.fc.W.array is None  # lazy until loaded
    chainer.serializers.load_npz(str(DATA / 'cnn.npz'), model)
    assert model.bn2.avg_var.shape == (6,) and model.fc.W.shape == (5, 54)
    assert int(model.bn3.N) == 1 and model.bn3.gamma is None
    x = expected['cnn_x']
    with chainer.using_config('train', False):
        numpy.testing.assert_allclose(model(x).array, expected['cnn_test'], rtol=1e-5,
                                      atol=1e-6)
    numpy.testing.assert_allclose(model(x).array, expected['cnn_train'], rtol=1e-5, atol=1e-6)


def test_lstm_language_model(expected):
    model = gen.LM()
    chainer.serializers.load_npz(str(DATA / 'lstm_lm.npz'), model)
    assert model.l2.upward.W.shape == (16, 5)
    model.reset_state()
    with chainer.using_config('train', False):
        logits = numpy.stack([model(w).array for w in expected['lm_words']])
    numpy.testing.assert_allclose(logits, expected['lm_logits'], rtol=1e-5, atol=1e-6)


def test_normalization_and_recurrent_zoo(expected):
    model = gen.Zoo()
    chainer.serializers.load_npz(str(DATA / 'zoo.npz'), model)
    seqs = [expected[f'zoo_seq{i}'] for i in range(3)]
    with chainer.using_config('train', False):
        outputs = model.outputs(expected['zoo_x'], seqs)
    for key, value in outputs.items():
        numpy.testing.assert_allclose(value.array, expected['zoo_' + key], rtol=1e-4,
                                      atol=1e-5, err_msg=key)
