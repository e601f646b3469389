"""Mathematical functions: elementwise, reductions, linear algebra and special functions."""

from chainer.functions.math.arctanh import arctanh
from chainer.functions.math.average import average, mean
from chainer.functions.math.basic_math import absolute, add
from chainer.functions.math.batch_l2_norm_squared import batch_l2_norm_squared
from chainer.functions.math.bias import bias
from chainer.functions.math.ceil import ceil
from chainer.functions.math.cholesky import cholesky
from chainer.functions.math.clip import clip
from chainer.functions.math.cumprod import cumprod
from chainer.functions.math.cumsum import cumsum
from chainer.functions.math.det import batch_det, det
from chainer.functions.math.digamma import digamma
from chainer.functions.math.einsum import einsum
from chainer.functions.math.erf import erf
from chainer.functions.math.erfc import erfc
from chainer.functions.math.erfcinv import erfcinv
from chainer.functions.math.erfcx import erfcx
from chainer.functions.math.erfinv import erfinv
from chainer.functions.math.exponential import exp, log, log2, log10
from chainer.functions.math.exponential_m1 import expm1
from chainer.functions.math.fft import fft, ifft
from chainer.functions.math.fix import fix
from chainer.functions.math.floor import floor
from chainer.functions.math.fmod import fmod
from chainer.functions.math.hyperbolic import cosh, sinh
from chainer.functions.math.identity import identity
from chainer.functions.math.inv import batch_inv, inv
from chainer.functions.math.lgamma import lgamma
from chainer.functions.math.linear_interpolate import linear_interpolate
from chainer.functions.math.log_ndtr import log_ndtr
from chainer.functions.math.logarithm_1p import log1p
from chainer.functions.math.logsumexp import logsumexp
from chainer.functions.math.matmul import batch_matmul, matmul
from chainer.functions.math.maximum import maximum
from chainer.functions.math.minimum import minimum
from chainer.functions.math.minmax import argmax, argmin, max, min
from chainer.functions.math.ndtr import ndtr
from chainer.functions.math.ndtri import ndtri
from chainer.functions.math.polygamma import polygamma
from chainer.functions.math.prod import prod
from chainer.functions.math.scale import scale
from chainer.functions.math.sign import sign
from chainer.functions.math.sparse_matmul import sparse_matmul
from chainer.functions.math.sqrt import rsqrt, sqrt
from chainer.functions.math.square import square
from chainer.functions.math.squared_difference import squared_difference
from chainer.functions.math.sum import sum, sum_to
from chainer.functions.math.tensordot import tensordot
from chainer.functions.math.trigonometric import (
    arccos,
    arcsin,
    arctan,
    arctan2,
    cos,
    sin,
    tan,
)
from chainer.functions.math.zeta import zeta

__all__ = [
    'absolute', 'add', 'arccos', 'arcsin', 'arctan', 'arctan2', 'arctanh', 'argmax',
    'argmin', 'average', 'batch_det', 'batch_inv', 'batch_l2_norm_squared', 'batch_matmul',
    'bias', 'ceil', 'cholesky', 'clip', 'cos', 'cosh', 'cumprod', 'cumsum', 'det',
    'digamma', 'einsum', 'erf', 'erfc', 'erfcinv', 'erfcx', 'erfinv', 'exp', 'expm1', 'fft',
    'fix', 'floor', 'fmod', 'identity', 'ifft', 'inv', 'lgamma', 'linear_interpolate', 'log',
    'log10', 'log1p', 'log2', 'log_ndtr', 'logsumexp', 'matmul', 'max', 'maximum', 'mean',
    'min', 'minimum', 'ndtr', 'ndtri', 'polygamma', 'prod', 'rsqrt', 'scale', 'sign', 'sin',
    'sinh', 'sparse_matmul', 'sqrt', 'square', 'squared_difference', 'sum', 'sum_to', 'tan',
    'tensordot', 'zeta',
]
