"""Models saved by Chainer 7.8.1 load into this project's links and give 7.8.1's outputs.

The files in data/v7_links/ were written by tools/compat/make_v7_link_files.py under
Chainer 7.8.1; the model definitions are imported from that script, so both sides
build the same architecture.
"""

import importlib.util
from pathlib import Path

import numpy
import pytest

import chainer
from chainer.link_hooks import SpectralNormalization

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / 'tests-integration' / 'data' / 'v7_links'


def _generator():
    spec = importlib.util.spec_from_file_location(
        'make_v7_link_files', ROOT / 'tools' / 'compat' / 'make_v7_link_files.py')
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GEN = _generator()


def _expected(name):
    with numpy.load(DATA / f'{name}_expected.npz') as f:
        inputs = [f[f'input_{i}'] for i in range(sum(k.startswith('input_') for k in f))]
        outputs = [f[f'output_{i}'] for i in range(sum(k.startswith('output_') for k in f))]
    return inputs, outputs


def _outputs(model, inputs):
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        outs = model(*inputs)
    outs = outs if isinstance(outs, (list, tuple)) else [outs]
    return [o.array for o in outs]


def _check(model, name):
    inputs, expected = _expected(name)
    got = _outputs(model, inputs)
    assert len(got) == len(expected)
    for i, (g, e) in enumerate(zip(got, expected)):
        assert g.shape == e.shape and g.dtype == e.dtype, i
        numpy.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6, err_msg=f'output {i}')


@pytest.mark.parametrize('fmt', ['npz', 'h5'])
def test_v7_cnn_with_lazy_links_loads_and_matches(fmt):
    if fmt == 'h5':
        pytest.importorskip('h5py')
    model = GEN.CNN()
    assert model.conv1.W.array is None and model.fc.W.array is None
    load = chainer.serializers.load_npz if fmt == 'npz' else chainer.serializers.load_hdf5
    load(str(DATA / f'cnn.{fmt}'), model)
    assert model.conv1.W.shape == (4, 3, 3, 3)
    assert model.conv2.W.shape == (6, 2, 3, 3)  # grouped
    assert model.fc.W.shape == (5, 6 * 3 * 3)
    _check(model, 'cnn')


def test_v7_zoo_of_links_loads_and_matches():
    model = GEN.Zoo()
    names = {name for name, _ in model.namedparams()}
    with numpy.load(DATA / 'zoo.npz') as f:
        saved = set(f.files)
    # Every parameter and persistent value of v7 has the same path here.
    assert {n.lstrip('/') for n in names} <= saved
    assert 'sn/W_u' in saved and 'sn/gamma' in saved
    chainer.serializers.load_npz(str(DATA / 'zoo.npz'), model)
    _check(model, 'zoo')


def test_v7_file_into_a_model_of_another_shape_is_refused():
    class Wider(GEN.CNN):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                del self.embed
                self.embed = chainer.links.EmbedID(8, 5)

    with pytest.raises(ValueError):
        chainer.serializers.load_npz(str(DATA / 'cnn.npz'), Wider())


def test_spectral_normalization_vector_is_loaded_with_the_hook():
    model = GEN.Zoo()
    hook = model.sn.local_link_hooks['SpectralNormalization']
    assert isinstance(hook, SpectralNormalization)
    before = model.sn.W_u.copy()
    chainer.serializers.load_npz(str(DATA / 'zoo.npz'), model)
    with numpy.load(DATA / 'zoo.npz') as f:
        numpy.testing.assert_array_equal(model.sn.W_u, f['sn/W_u'])
    assert not numpy.array_equal(before, model.sn.W_u)
