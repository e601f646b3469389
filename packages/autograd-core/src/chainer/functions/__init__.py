"""Differentiable functions (``chainer.functions``, usually imported as ``F``).

Each category package lists its public functions in ``__all__``; they are all
re-exported here.
"""

from chainer.functions import (
    activation,
    array,
    connection,
    evaluation,
    loss,
    math,
    noise,
    normalization,
    pooling,
    util,
)
from chainer.functions.activation import *  # noqa: F403
from chainer.functions.array import *  # noqa: F403
from chainer.functions.connection import *  # noqa: F403
from chainer.functions.evaluation import *  # noqa: F403
from chainer.functions.loss import *  # noqa: F403
from chainer.functions.math import *  # noqa: F403
from chainer.functions.noise import *  # noqa: F403
from chainer.functions.normalization import *  # noqa: F403
from chainer.functions.pooling import *  # noqa: F403
from chainer.functions.util import *  # noqa: F403
