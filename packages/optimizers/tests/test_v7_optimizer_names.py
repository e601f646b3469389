"""v7's ``chainer.optimizer.make_deprecation_message`` and the deprecated hook aliases."""

import pytest

from chainer import optimizer, optimizer_hooks


def test_make_deprecation_message_names_the_new_place():
    assert optimizer.make_deprecation_message('WeightDecay') == (
        'chainer.optimizer.WeightDecay is deprecated. '
        'Use chainer.optimizer_hooks.WeightDecay instead.')


def test_deprecated_alias_warns_with_that_message():
    with pytest.warns(DeprecationWarning) as record:
        hook = optimizer.Lasso(0.1)
    assert str(record[0].message) == optimizer.make_deprecation_message('Lasso')
    assert isinstance(hook, optimizer_hooks.Lasso) and hook.rate == 0.1
