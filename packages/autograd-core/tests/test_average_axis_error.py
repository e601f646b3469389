"""F.average without weights: an out-of-range axis is reported as v7's Mean type check."""
from __future__ import annotations

import numpy as np
import pytest

import chainer.functions as F
from chainer.utils import type_check


@pytest.mark.parametrize('axis', [2, (0, 2)])
def test_average_axis_out_of_range_is_mean_type_error(axis: int | tuple[int, ...]) -> None:
    x = np.ones((2, 3), np.float32)
    with pytest.raises(type_check.InvalidType) as info:
        F.average(x, axis=axis)
    assert isinstance(info.value, ValueError)  # what the project raised before
    msg = str(info.value)
    assert 'Mean (Forward)' in msg
    assert 'Expect: x.ndim > 2' in msg
    assert 'Actual: 2 <= 2' in msg


def test_average_axis_in_range_still_averages() -> None:
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_allclose(F.average(x, axis=1).array, x.mean(axis=1))
