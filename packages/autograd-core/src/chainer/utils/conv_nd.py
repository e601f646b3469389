"""N-dimensional im2col/col2im (the helpers behind convolution and pooling).

These are the functions of :mod:`chainer.utils.conv`, under the names v7 used
for their N-dimensional forms; the CPU and GPU versions are one function each.
"""

from __future__ import annotations

from chainer.utils.conv import col2im_nd, im2col_nd

im2col_nd_cpu = im2col_nd_gpu = im2col_nd
col2im_nd_cpu = col2im_nd_gpu = col2im_nd

__all__ = ['col2im_nd', 'col2im_nd_cpu', 'col2im_nd_gpu', 'im2col_nd', 'im2col_nd_cpu',
           'im2col_nd_gpu']

# -- geometry (v7's conv_nd names) ----------------------------------------------------
# im2col_nd / col2im_nd raise chainer.utils.conv.ConvolutionArgumentError (a ValueError
# and an AssertionError, as v7 asserted) for parameters of the wrong rank.
from chainer.utils.conv import (  # noqa: E402
    as_tuple,
    get_conv_outsize,
    get_deconv_outsize,
)

__all__ += ['as_tuple', 'get_conv_outsize', 'get_deconv_outsize']
