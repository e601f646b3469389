"""ChainerX: an N-dimensional array library with autograd built in (Chainer v7's API),
running on NumPy (``native`` devices) and CuPy (``cuda`` devices).

It does not need Chainer: ``import chainerx`` works with NumPy alone.
"""

from __future__ import annotations

import builtins as _builtins

import numpy as _numpy

from chainerx import _core, linalg, random
from chainerx._activation import clipped_relu, crelu, elu, leaky_relu, softplus
from chainerx._array import ndarray
from chainerx._check import check_backward, check_double_backward
from chainerx._conv import conv, conv_transpose
from chainerx._creation import (
    arange,
    array,
    asanyarray,
    asarray,
    ascontiguousarray,
    copy,
    empty,
    empty_like,
    eye,
    frombuffer,
    fromfile,
    fromfunction,
    fromiter,
    fromstring,
    full,
    full_like,
    identity,
    linspace,
    loadtxt,
    meshgrid,
    ones,
    ones_like,
    to_numpy,
    tri,
    tril,
    triu,
    zeros,
    zeros_like,
)
from chainerx._device import (
    Backend,
    BackpropId,
    Context,
    Device,
    DeviceScope,
    context_scope,
    get_backend,
    get_default_context,
    get_default_device,
    get_device,
    get_global_default_context,
    set_default_context,
    set_default_device,
    set_global_default_context,
    using_device,
)
from chainerx._errors import (
    BackendError,
    ChainerxError,
    ContextError,
    DeviceError,
    DimensionError,
    DtypeError,
    GradientCheckError,
    GradientError,
)
from chainerx._evaluation import accuracy
from chainerx._graph import (
    anygraph,
    backprop_scope,
    backward,
    force_backprop_mode,
    grad,
    is_backprop_required,
    no_backprop_mode,
)
from chainerx._indexing import nonzero, take
from chainerx._linalg import dot, matmul
from chainerx._loss import (
    absolute_error,
    gaussian_kl_divergence,
    hinge,
    huber_loss,
    squared_error,
)
from chainerx._manipulation import (
    atleast_2d,
    atleast_3d,
    broadcast_to,
    concatenate,
    copyto,
    diag,
    diagflat,
    diagonal,
    dsplit,
    dstack,
    expand_dims,
    flip,
    fliplr,
    flipud,
    hsplit,
    hstack,
    moveaxis,
    ravel,
    repeat,
    reshape,
    rollaxis,
    split,
    squeeze,
    stack,
    swapaxes,
    transpose,
    vsplit,
    vstack,
)
from chainerx._math import abs as abs
from chainerx._math import (
    absolute,
    add,
    arccos,
    arccosh,
    arcsin,
    arcsinh,
    arctan,
    arctan2,
    arctanh,
    bitwise_and,
    bitwise_not,
    bitwise_or,
    bitwise_xor,
    cbrt,
    ceil,
    clip,
    cos,
    cosh,
    divide,
    equal,
    erf,
    exp,
    exp2,
    expm1,
    fabs,
    fix,
    floor,
    floor_divide,
    fmod,
    greater,
    greater_equal,
    isfinite,
    isinf,
    isnan,
    left_shift,
    less,
    less_equal,
    log,
    log1p,
    log2,
    log10,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    maximum,
    minimum,
    mod,
    multiply,
    negative,
    not_equal,
    positive,
    power,
    reciprocal,
    relu,
    remainder,
    right_shift,
    sigmoid,
    sign,
    sin,
    sinh,
    sqrt,
    square,
    subtract,
    tan,
    tanh,
    true_divide,
    where,
)
from chainerx._nn import (
    batch_norm,
    fixed_batch_norm,
    linear,
    sigmoid_cross_entropy,
    softmax_cross_entropy,
)
from chainerx._pooling import average_pool, max_pool
from chainerx._reduction import all as all
from chainerx._reduction import (
    amax,
    amin,
    argmax,
    argmin,
    count_nonzero,
    cumsum,
    log_softmax,
    logsumexp,
    mean,
    nanargmax,
    nanargmin,
    nansum,
    softmax,
    var,
)
from chainerx._reduction import any as any
from chainerx._reduction import max as max
from chainerx._reduction import min as min
from chainerx._reduction import sum as sum
from chainerx._rnn import (
    lstm,
    n_step_bigru,
    n_step_bilstm,
    n_step_birnn,
    n_step_gru,
    n_step_lstm,
    n_step_rnn,
    slstm,
)

# dtypes are NumPy's; the Python types under their NumPy-1 alias names
dtype = _numpy.dtype
bool_ = _numpy.bool_
int8 = _numpy.int8
int16 = _numpy.int16
int32 = _numpy.int32
int64 = _numpy.int64
uint8 = _numpy.uint8
float16 = _numpy.float16
float32 = _numpy.float32
float64 = _numpy.float64
bool = _builtins.bool
int = _builtins.int
float = _builtins.float

# NumPy's constants
e = _numpy.e
pi = _numpy.pi
euler_gamma = _numpy.euler_gamma
inf = _numpy.inf
nan = _numpy.nan
newaxis = _numpy.newaxis
Inf = Infinity = PINF = infty = inf
NAN = NaN = nan
NINF = -inf
PZERO = 0.0
NZERO = -0.0
for _name in ('Inf', 'Infinity', 'PINF', 'infty', 'NAN', 'NaN', 'NINF', 'PZERO', 'NZERO'):
    if hasattr(_numpy, _name):  # NumPy 1.x: the very objects
        globals()[_name] = getattr(_numpy, _name)


def is_available() -> _builtins.bool:
    """Whether ChainerX can be used: True (it runs on NumPy, and on CuPy where present)."""
    return True


def is_array_like(obj: object) -> _builtins.bool:
    """Whether *obj* is a ChainerX array."""
    return isinstance(obj, ndarray)
