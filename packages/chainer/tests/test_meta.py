"""The meta-package brings every component, importable together."""

import importlib
import importlib.metadata
import re

import pytest

COMPONENTS = ['chainer-array-backend', 'chainer-autograd-core', 'chainer-links',
              'chainer-optimizers', 'chainer-datasets', 'chainer-serializers',
              'chainer-training']


def _release(version):
    return tuple(int(part) for part in version.split('.')[:3] if part.isdigit())


def _pinned_range(dist):
    """The ``(lower, upper)`` release bounds the meta-package requires of ``dist``."""
    for req in importlib.metadata.requires('chainer') or []:
        match = re.match(r'([A-Za-z0-9_.-]+)\s*([^;]*)', req)
        if match.group(1) != dist:
            continue
        bounds = dict(re.findall(r'(>=|<)\s*([0-9.]+)', match.group(2)))
        return _release(bounds['>=']), _release(bounds['<'])
    raise AssertionError(f'the meta-package does not require {dist}')


@pytest.mark.parametrize('dist', COMPONENTS)
def test_component_installed_with_compatible_version(dist):
    version = _release(importlib.metadata.version(dist))
    lower, upper = _pinned_range(dist)
    assert lower <= version < upper
    # code written for v7 compares chainer.__version__: every component reads as newer
    assert version > (7, 8, 1)


def test_meta_requires_all_components():
    requires = importlib.metadata.requires('chainer') or []
    names = {r.split('>')[0].split('<')[0].split('=')[0].split(';')[0].strip() for r in requires}
    assert set(COMPONENTS) <= names


@pytest.mark.parametrize('module', ['chainer', 'chainer.backend', 'chainer.functions',
                                    'chainer.links', 'chainer.optimizers', 'chainer.datasets',
                                    'chainer.iterators', 'chainer.serializers',
                                    'chainer.training', 'chainer.training.extensions'])
def test_module_imports(module):
    importlib.import_module(module)


def test_lazy_names_resolve():
    import chainer

    assert chainer.Link is importlib.import_module('chainer.link').Link
    assert chainer.Optimizer is importlib.import_module('chainer.optimizer').Optimizer
    assert chainer.links.Linear is not None


def test_six_comes_with_the_meta_package():
    # Chainer 7 installed six and v7's example programs import it
    assert any(re.match(r'six\b', r) for r in importlib.metadata.requires('chainer') or [])
    six = importlib.import_module('six')
    assert six.moves.range(3) == range(3)


def test_full_install_saves_hdf5(tmp_path):
    import numpy

    import chainer.links as L
    from chainer import serializers

    src, dst = L.Linear(3, 2), L.Linear(3, 2)
    serializers.save_hdf5(str(tmp_path / 'm.h5'), src)
    serializers.load_hdf5(str(tmp_path / 'm.h5'), dst)
    numpy.testing.assert_array_equal(src.W.array, dst.W.array)
