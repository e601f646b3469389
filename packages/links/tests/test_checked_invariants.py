"""Invariants the type checker asked to make explicit: clear errors, unchanged results."""

import numpy
import pytest
from dict_serializers import DictLoader

import chainer
from chainer import Parameter, links
from chainer.link_hooks import SpectralNormalization
from chainer.links.normalization.decorrelated_batch_normalization import (
    _GroupedStatisticsLoader,
)
from chainer.serializer import Deserializer


class _NamedLoader(DictLoader):
    def describe(self, key):
        return f"'{self.path}{key}' in 'old.npz'"


def test_grouped_statistics_loader_is_a_deserializer_naming_entries_as_its_inner_one():
    dbn = links.DecorrelatedBatchNormalization(4, groups=2)
    proxy = _GroupedStatisticsLoader(_NamedLoader({}), dbn)
    assert isinstance(proxy, Deserializer)
    assert proxy.describe('avg_mean') == "'avg_mean' in 'old.npz'"


def test_batch_normalization_without_statistics_is_a_clear_error():
    bn = links.BatchNormalization(3)
    bn.avg_var = None  # e.g. a statistic set to None by hand (avg_mean kept)
    with pytest.raises(RuntimeError, match='running statistics are not initialized'):
        bn(numpy.ones((2, 3), 'f'))


@pytest.mark.parametrize('train', [True, False])
def test_batch_renormalization_uses_its_statistics(train):
    brn = links.BatchRenormalization(3, rmax=1.0, dmax=0.0)
    brn.avg_mean[...] = [1.0, 2.0, 3.0]
    brn.avg_var[...] = 4.0
    x = numpy.arange(6, dtype='f').reshape(2, 3)
    with chainer.using_config('train', train):
        y = brn(x).array
    if train:  # normalized with the batch statistics (r = 1, d = 0)
        expected = (x - x.mean(0)) / numpy.sqrt(x.var(0) + brn.eps)
    else:
        expected = (x - brn.avg_mean) / numpy.sqrt(brn.avg_var + brn.eps)
    numpy.testing.assert_allclose(y, expected, rtol=1e-4, atol=1e-5)


def test_spectral_normalization_deleted_without_a_link_does_nothing():
    hook = SpectralNormalization()
    hook.deleted(None)  # a global registration: no link to clean


def test_spectral_normalization_without_its_gamma_is_a_clear_error():
    layer = links.Linear(3, 2)
    hook = SpectralNormalization(use_gamma=True)
    layer.add_hook(hook)
    x = numpy.ones((1, 3), 'f')
    layer(x)
    assert isinstance(layer.gamma, Parameter)
    del layer.gamma
    with pytest.raises(RuntimeError, match='has no parameter gamma'):
        layer(x)
