import importlib.machinery

import pytest

import chainer

OWNED = {
    'links': 'chainer-links',
    'optimizers': 'chainer-optimizers',
    'datasets': 'chainer-datasets',
    'iterators': 'chainer-datasets',
    'serializers': 'chainer-serializers',
    'training': 'chainer-training',
}


MODULE_OF = {'chainer-links': 'links', 'chainer-optimizers': 'optimizers',
             'chainer-datasets': 'datasets', 'chainer-serializers': 'serializers',
             'chainer-training': 'training'}


def _installed(dist):
    # importable from any chainer path entry (an installed wheel or a source tree)?
    spec = importlib.machinery.PathFinder.find_spec(f'chainer.{MODULE_OF[dist]}',
                                                    list(chainer.__path__))
    return spec is not None


@pytest.mark.parametrize('name,dist', sorted(OWNED.items()))
def test_missing_distribution_is_named(name, dist):
    if _installed(dist):
        pytest.skip(f'{dist} is installed here; the message is tested where it is absent')
    expected = f'chainer.{name} is provided by the {dist} package: pip install {dist}'
    with pytest.raises(ModuleNotFoundError) as e:
        getattr(chainer, name)
    assert str(e.value) == expected
    with pytest.raises(ModuleNotFoundError) as e:
        __import__(f'chainer.{name}')
    assert str(e.value) == expected


def test_missing_class_names_its_distribution():
    if _installed('chainer-links'):
        pytest.skip('chainer-links is installed here')
    with pytest.raises(ModuleNotFoundError, match='pip install chainer-links'):
        chainer.Link


def test_unknown_attribute():
    with pytest.raises(AttributeError):
        chainer.no_such_name


def test_core_works_without_other_packages():
    import numpy

    import chainer.functions as F

    x = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    W = chainer.Variable(numpy.ones((4, 3), numpy.float32))
    F.sum(F.linear(x, W)).backward()
    numpy.testing.assert_allclose(W.grad, numpy.full((4, 3), 2.0))


def test_function_modules_are_not_shadowed_by_functions():
    import types

    import chainer.functions as F
    from chainer.functions.loss import crf1d
    from chainer.functions.math import einsum, identity, sparse_matmul

    for module in (einsum, identity, sparse_matmul, crf1d):
        assert isinstance(module, types.ModuleType)
    assert callable(F.einsum) and F.einsum is einsum.einsum
    assert F.argmax_crf1d is crf1d.argmax_crf1d
    assert isinstance(chainer.functions.array.flip, types.ModuleType)


def test_version_reads_as_newer_than_v7():
    import importlib.metadata

    assert chainer.__version__ == importlib.metadata.version('chainer-autograd-core')
    major = int(chainer.__version__.split('.')[0])
    assert major >= 8


def test_v7_module_aliases_import_in_a_fresh_interpreter():
    import subprocess
    import sys

    code = ('import chainer.cuda; from chainer import cuda; import chainer; '
            'from chainer.backends import intel64; '
            'assert chainer.cuda is cuda is chainer.backends.cuda; '
            'assert cuda.get_device_from_id(None) is cuda.DummyDevice; '
            'assert not intel64.is_ideep_available()')
    subprocess.run([sys.executable, '-c', code], check=True)
