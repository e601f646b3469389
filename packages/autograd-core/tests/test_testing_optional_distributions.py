"""chainer.testing's helpers that need a higher distribution (the ``testing`` extra): they
import it when called and, without it, raise an error naming the package to install."""

from __future__ import annotations

import sys

import numpy
import pytest

import chainer
from chainer import testing


def _hide(monkeypatch: pytest.MonkeyPatch, module: str) -> None:
    """Make ``module`` (``chainer.<name>``) unimportable, as if its distribution were not
    installed."""
    monkeypatch.setitem(sys.modules, module, None)
    name = module.split('.')[1]
    if name in vars(chainer):  # imported before: the attribute would answer first
        monkeypatch.delattr(chainer, name)


@pytest.mark.parametrize('helper', ['save_and_load_npz', 'save_and_load_hdf5'])
def test_serializer_helpers_name_chainer_serializers(monkeypatch, helper):
    _hide(monkeypatch, 'chainer.serializers')
    with pytest.raises(ModuleNotFoundError) as info:
        getattr(testing, helper)(object(), object())
    message = str(info.value)
    assert f'chainer.testing.{helper} needs chainer-serializers' in message
    assert 'chainer-autograd-core[testing]' in message


def test_trainer_helper_names_chainer_training(monkeypatch):
    _hide(monkeypatch, 'chainer.training')
    with pytest.raises(ModuleNotFoundError) as info:
        testing.get_trainer_with_mock_updater()
    assert 'get_trainer_with_mock_updater needs chainer-training' in str(info.value)
    assert testing.training.is_available() is False
    with pytest.raises(RuntimeError, match='chainer.testing.training is not available'):
        testing.training.check_available()


def test_serializer_helper_round_trips_when_installed():
    serializers = pytest.importorskip('chainer.serializers')
    assert serializers is not None
    src = chainer.Link()
    with src.init_scope():
        src.w = chainer.Parameter(numpy.arange(6, dtype=numpy.float32).reshape(2, 3))
    dst = chainer.Link()
    with dst.init_scope():
        dst.w = chainer.Parameter(numpy.zeros((2, 3), numpy.float32))
    testing.save_and_load_npz(src, dst)
    numpy.testing.assert_array_equal(dst.w.array, src.w.array)
