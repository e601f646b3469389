"""``str(InvalidType)`` of shape, axis and dtype failures reads as in Chainer v7.

Issue 24, item 6: the expected strings were recorded from Chainer 7.8.1 for the same
calls (reference data). They cover axis checks (concat, stack, flip, expand_dims,
rollaxis, moveaxis, separate, squeeze, diagonal, permutate, split_axis, sum, mean),
hstack/vstack/dstack, reshape and broadcast_to, bias/scale and average (which failed in
the nodes v7 composed), normalization, bilinear, matmul/batch_matmul, where, maxout,
pooling labels, and the common failures of the most used functions. The project's
own explanation of a failure is an exception note, never part of ``str(e)``.
"""

import pickle
import warnings

import numpy as np
import pytest

import chainer
import chainer.functions as F
from chainer.functions._util import InvalidValue
from chainer.functions.math._util import AxisShapeError
from chainer.utils.type_check import InvalidType

f2 = np.ones((2, 3), 'f')
f3 = np.ones((2, 3, 4), 'f')
i2 = np.ones((2, 3), 'i')
d2 = np.ones((2, 3), 'd')
i4 = np.ones((1, 4, 2, 2), 'i')
f4d = np.ones((1, 4, 2, 2), 'd')
x4 = np.ones((1, 3, 5, 5), 'f')



def _h(label, expect, actual):
    return (f'\nInvalid operation is performed in: {label} (Forward)\n\n'
            f'Expect: {expect}\nActual: {actual}')


CASES = [
    ('average_pooling_2d/2d', lambda: F.average_pooling_2d(f2, 2),
     _h('AveragePooling2D', 'in_types[0].ndim == 4', '2 != 4')),
    ('average_pooling_2d/int', lambda: F.average_pooling_2d(i4, 2),
     _h('AveragePooling2D', 'in_types[0].dtype.kind == f', 'i != f')),
    ('max_pooling_2d/int', lambda: F.max_pooling_2d(i4, 2),
     _h('MaxPoolingND', 'in_types[0].dtype.kind == f', 'i != f')),
    ('max_pooling_nd/int', lambda: F.max_pooling_nd(i4, 2),
     _h('MaxPoolingND', 'in_types[0].dtype.kind == f', 'i != f')),
    ('unpooling_2d/2d', lambda: F.unpooling_2d(f2, 2),
     _h('Unpooling2D', 'in_types[0].ndim == 4', '2 != 4')),
    ('unpooling_2d/int', lambda: F.unpooling_2d(i4, 2),
     _h('Unpooling2D', 'in_types[0].dtype.kind == f', 'i != f')),
    ('upsampling_2d/2d', lambda: F.upsampling_2d(f2, np.zeros((2,3),'i'), 2),
     _h('Upsampling2D', 'in_types[0].ndim == 4', '2 != 4')),
    ('depth2space/2d', lambda: F.depth2space(f2, 2),
     _h('Depth2Space', 'x.ndim == 4', '2 != 4')),
    ('depth2space/int', lambda: F.depth2space(i4, 2),
     _h('Depth2Space', 'x.dtype.kind == f', 'i != f')),
    ('space2depth/2d', lambda: F.space2depth(f2, 2),
     _h('Space2Depth', 'x.ndim == 4', '2 != 4')),
    ('space2depth/int', lambda: F.space2depth(i4, 2),
     _h('Space2Depth', 'x.dtype.kind == f', 'i != f')),
    ('im2col/2d', lambda: F.im2col(f2, 2),
     _h('Im2Col', 'x.ndim == 4', '2 != 4')),
    ('resize_images/2d', lambda: F.resize_images(f2, (2, 2)),
     _h('ResizeImages', 'x.ndim == 4', '2 != 4')),
    ('resize_images/int', lambda: F.resize_images(i4, (2, 2)),
     _h('ResizeImages', "x.dtype == <class 'numpy.float32'>", "int32 != <class 'numpy.float32'>")),
    ('fft/int', lambda: F.fft((np.ones((2,3),'i'), np.ones((2,3),'i'))),
     _h('FFT', 'real.dtype.kind == f', 'i != f')),
    ('fft/mismatch', lambda: F.fft((np.ones((2,3),'f'), np.ones((2,4),'f'))),
     _h('FFT', 'real.shape == imag.shape', '(2, 3) != (2, 4)')),
    ('fft/dtype', lambda: F.fft((np.ones((2,3),'f'), np.ones((2,3),'d'))),
     _h('FFT', 'real.dtype == imag.dtype', 'float32 != float64')),
    ('ifft/int', lambda: F.ifft((np.ones((2,3),'i'), np.ones((2,3),'i'))),
     _h('FFT', 'real.dtype.kind == f', 'i != f')),
    ('roi_pooling_2d/int', lambda: F.roi_pooling_2d(i4, np.zeros((1,5),'f'), 2, 2, 1.0),
     _h('ROIPooling2D', 'in_types[0].dtype.kind == f', 'i != f')),
    ('local_response_normalization/1d', lambda: F.local_response_normalization(np.ones(3,'f')),
     _h('LocalResponseNormalization', 'in_types[0].ndim >= 2', '1 < 2')),
    ('bias/1', lambda: F.bias(f2, f3),
     _h('BroadcastTo', 'x.ndim <= len(shape)', '4 > 2')),
    ('scale/1', lambda: F.scale(f2, f3),
     _h('BroadcastTo', 'x.ndim <= len(shape)', '4 > 2')),
    ('max/axis', lambda: F.max(f2, axis=5),
     _h('Max', 'x.ndim > 5', '2 <= 5')),
    ('argmax/axis', lambda: F.argmax(f2, axis=-5),
     _h('ArgMax', 'in_types[0].ndim > 4', '2 <= 4')),
    ('sum/axis', lambda: F.sum(f2, axis=5),
     _h('Sum', 'x.ndim > 5', '2 <= 5')),
    ('cumsum/axis', lambda: F.cumsum(f2, axis=5),
     _h('Cumsum', 'x.ndim > 5', '2 <= 5')),
    ('concat/axis', lambda: F.concat((f2, f2), axis=5),
     _h('Concat', 'in_types[0].ndim > axis', '2 <= 5')),
    ('stack/axis', lambda: F.stack((f2, f2), axis=5),
     _h('Stack', 'in_types[0].ndim >= 5', '2 < 5')),
    ('stack/shape', lambda: F.stack((f2, f3)),
     _h('Stack', 'in_types[1].shape == in_types[0].shape', '(2, 3, 4) != (2, 3)')),
    ('concat/shape', lambda: F.concat((f2, f3)),
     _h('Concat', 'in_types[0].ndim == in_types[1].ndim', '2 != 3')),
    ('linear/1', lambda: F.linear(f2, np.ones((4,5),'f')),
     _h('LinearFunction', 'x.shape[1] == W.shape[1]', '3 != 5')),
    ('linear/int', lambda: F.linear(f2, np.ones((4,3),'i')),
     _h('LinearFunction', 'W.dtype.kind == f', 'i != f')),
    ('linear/b', lambda: F.linear(f2, np.ones((4,3),'f'), np.ones(5,'f')),
     _h('LinearFunction', 'b.shape[0] == W.shape[0]', '5 != 4')),
    ('matmul/1', lambda: F.matmul(f2, f2),
     _h('MatMul', 'a.shape[-1] == b.shape[-2]', '3 != 2')),
    ('batch_normalization/1', lambda: F.batch_normalization(f2, np.ones(4,'f'), np.ones(3,'f')),
     _h('BatchNormalization', 'in_types[1].shape == in_types[2].shape', '(4,) != (3,)')),
    ('reshape/1', lambda: F.reshape(f2, (4, 2)),
     _h('Reshape', 'prod(x.shape) == prod((4, 2))', '6 != 8')),
    ('broadcast_to/1', lambda: F.broadcast_to(f3, (2, 3)),
     _h('BroadcastTo', 'x.ndim <= len(shape)', '3 > 2')),
    ('where/1', lambda: F.where(np.ones((2,3),'f'), f2, f2),
     _h('Where', "condition.dtype == <class 'numpy.bool_'>", "float32 != <class 'numpy.bool_'>")),
    ('select_item/1', lambda: F.select_item(f2, np.zeros(3,'i')),
     _h('SelectItem', 'x.shape[0] == t.shape[0]', '2 != 3')),
    ('embed_id/1', lambda: F.embed_id(np.zeros(3,'i'), np.ones((3,4,5),'f')),
     _h('EmbedIDFunction', 'in_types[1].ndim == 2', '3 != 2')),
    ('mean_squared_error/1', lambda: F.mean_squared_error(f2, f3),
     _h('MeanSquaredError', 'x0.shape == x1.shape', '(2, 3) != (2, 3, 4)')),
    ('sigmoid_cross_entropy/1', lambda: F.sigmoid_cross_entropy(f2, np.zeros((2,4),'i')),
     _h('SigmoidCrossEntropy', 'x.shape == t.shape', '(2, 3) != (2, 4)')),
    ('flip/axis', lambda: F.flip(f2, 5),
     _h('Flip', 'x.ndim > 5', '2 <= 5')),
    ('expand_dims/axis', lambda: F.expand_dims(f2, 5),
     _h('ExpandDims', 'x.ndim >= 5', '2 < 5')),
    ('split_axis/1', lambda: F.split_axis(f2, 2, axis=1),
     _h('SplitAxis', 'in_types[0].shape[1] % sections == 0', '1 != 0')),
    ('separate/axis', lambda: F.separate(f2, axis=5),
     _h('Separate', 'x.ndim > 5', '2 <= 5')),
    ('rollaxis/axis', lambda: F.rollaxis(f2, 5),
     _h('Rollaxis', 'x.ndim > 5', '2 <= 5')),
    ('moveaxis/axis', lambda: F.moveaxis(f2, 5, 0),
     _h('Moveaxis', 'x.ndim > 5', '2 <= 5')),
    ('clip/int', lambda: F.clip(np.ones((2,3),'i'), 0, 1),
     _h('Clip', 'x.dtype.kind == f', 'i != f')),
    ('dropout/int', lambda: F.dropout(np.ones((2,3),'i')),
     _h('Dropout', 'x.dtype.kind == f', 'i != f')),
    ('maxout/1', lambda: F.maxout(f2, 2),
     'axis dimension must be divided by pool_size'),
    ('prelu/1', lambda: F.prelu(f2, np.ones(4,'f')),
     _h('PReLUFunction', 'x.shape[1:2] == W.shape', '(3,) != (4,)')),
    ('hstack/1', lambda: F.hstack((f2, f3)),
     _h('Hstack', 'x0.ndim == x1.ndim', '2 != 3')),
    ('vstack/1', lambda: F.vstack((f2, f3)),
     _h('Vstack', 'in_types[0].ndim == in_types[1].ndim', '2 != 3')),
    ('dstack/1', lambda: F.dstack((f2, f3)),
     _h('Dstack', 'x0.ndim == x1.ndim', '2 != 3')),
    ('fliplr/1d', lambda: F.fliplr(np.ones(3,'f')),
     _h('FlipLR', 'a.ndim >= 2', '1 < 2')),
    ('flipud/0d', lambda: F.flipud(np.ones((),'f')),
     _h('FlipUD', 'a.ndim >= 1', '0 < 1')),
    ('diagonal/1', lambda: F.diagonal(np.ones(3,'f')),
     _h('Diagonal', 'x.ndim > 1', '1 <= 1')),
    ('layer_normalization/1', lambda: F.layer_normalization(f2, np.ones(4,'f'), np.ones(3,'f')),
     _h('LayerNormalization', 'in_types[1].shape == in_types[2].shape', '(4,) != (3,)')),
    ('bilinear/1', lambda: F.bilinear(f2, f2, np.ones((2,3,4),'f')),
     _h('BilinearFunction', 'prod(in_types[0].shape[1:]) == in_types[2].shape[0]', '3 != 2')),
    ('average/1', lambda: F.average(f2, axis=1, weights=np.ones(2,'f')),
     _h('Reshape', 'prod(x.shape) == prod([1, 3])', '2 != 3')),
    ('contrastive/1', lambda: F.contrastive(f2, f2, np.ones(3,'i')),
     _h('Contrastive', 'x1.shape[0] == y.shape[0]', '2 != 3')),
    ('triplet/1', lambda: F.triplet(f2, f2, f3),
     _h('Triplet', 'anchor.shape == negative.shape', '(2, 3) != (2, 3, 4)')),
    ('huber_loss/1', lambda: F.huber_loss(f2, f3, 1.0),
     _h('HuberLoss', 'x.shape == t.shape', '(2, 3) != (2, 3, 4)')),
    ('hinge/1', lambda: F.hinge(f2, np.zeros(3,'i')),
     _h('Hinge', 'x.shape[0] == t.shape[0]', '2 != 3')),
    ('binary_accuracy/1', lambda: F.binary_accuracy(f2, np.zeros((2,4),'i')),
     _h('BinaryAccuracy', 't.shape == x.shape', '(2, 4) != (2, 3)')),
    ('accuracy/1', lambda: F.accuracy(f2, np.zeros(3,'i')),
     _h('Accuracy', 'x.shape[0] == t.shape[0]', '2 != 3')),
    ('convolution_2d/W3d', lambda: F.convolution_2d(x4, np.ones((2, 3, 3), 'f')),
     _h('Convolution2DFunction', 'in_types[1].ndim == 4', '3 != 4')),
    ('convolution_2d/b', lambda: F.convolution_2d(x4, np.ones((2, 3, 3, 3), 'f'), np.ones(3, 'f')),
     _h('Convolution2DFunction', 'in_types[2].shape[0] == in_types[1].shape[0]', '3 != 2')),
    ('deconvolution_2d/channels', lambda: F.deconvolution_2d(x4, np.ones((4, 2, 3, 3), 'f')),
     _h('Deconvolution2DFunction', 'in_types[0].shape[1] == in_types[1].shape[0]', '3 != 4')),
    ('embed_id/float', lambda: F.embed_id(np.zeros(3, 'f'), np.ones((10, 3), 'f')),
     _h('EmbedIDFunction', 'in_types[0].dtype.kind == i', 'f != i')),
    ('embed_id/W1d', lambda: F.embed_id(np.zeros(3, 'i'), np.ones(10, 'f')),
     _h('EmbedIDFunction', 'in_types[1].ndim == 2', '1 != 2')),
    ('embed_id/Wint', lambda: F.embed_id(np.zeros(3, 'i'), np.ones((10, 3), 'i')),
     _h('EmbedIDFunction', 'in_types[1].dtype.kind == f', 'i != f')),
    ('concat/shape', lambda: F.concat((f2, np.ones((3, 4), 'f'))),
     _h('Concat', 'in_types[0].shape[0] == in_types[1].shape[0]', '2 != 3')),
    ('concat/shape0', lambda: F.concat((f2, np.ones((3, 4), 'f')), axis=0),
     _h('Concat', 'in_types[0].shape[1] == in_types[1].shape[1]', '3 != 4')),
    ('concat/dtype', lambda: F.concat((f2, d2)),
     _h('Concat', 'in_types[0].dtype == in_types[1].dtype', 'float32 != float64')),
    ('concat/negaxis', lambda: F.concat((f2, f2), axis=-5),
     _h('Concat', '-in_types[0].ndim <= -5', '-2 > -5')),
    ('stack/shape', lambda: F.stack((f2, np.ones((3, 2), 'f'))),
     _h('Stack', 'in_types[1].shape == in_types[0].shape', '(3, 2) != (2, 3)')),
    ('stack/dtype', lambda: F.stack((f2, d2)),
     _h('Stack', 'in_types[1].dtype == in_types[0].dtype', 'float64 != float32')),
    ('stack/negaxis', lambda: F.stack((f2, f2), axis=-5),
     _h('Stack', '-in_types[0].ndim - 1 <= -5', '-3 > -5')),
    ('stack/axis3', lambda: F.stack((f2, f2), axis=3),
     _h('Stack', 'in_types[0].ndim >= 3', '2 < 3')),
    ('matmul/shape', lambda: F.matmul(f2, np.ones((4, 5), 'f')),
     _h('MatMul', 'a.shape[-1] == b.shape[-2]', '3 != 4')),
    ('matmul/1d', lambda: F.matmul(np.ones(3, 'f'), np.ones(4, 'f')),
     _h('MatMul', 'a.shape[-1] == b.shape[0]', '3 != 4')),
    ('matmul/transa', lambda: F.matmul(f2, np.ones((2, 4), 'f'), transa=False),
     _h('MatMul', 'a.shape[-1] == b.shape[-2]', '3 != 2')),
    ('matmul/int', lambda: F.matmul(i2, np.ones((3, 2), 'i')),
     _h('MatMul', 'a.dtype.kind == f', 'i != f')),
    ('matmul/batch', lambda: F.matmul(np.ones((2, 2, 3), 'f'), np.ones((3, 3, 4), 'f')),
     'cannot broadcast inputs of the following shapes:\na.shape[:-2] = (2,)\nb.shape[:-2] = (3,)'),
    ('batch_matmul/shape',
     lambda: F.batch_matmul(np.ones((2, 3, 4), 'f'), np.ones((2, 5, 6), 'f')),
     _h('BatchMatMul', 'a.shape[2] == b.shape[1]', '4 != 5')),
    ('batch_matmul/int', lambda: F.batch_matmul(np.ones((2, 3, 4), 'i'), np.ones((2, 4, 5), 'i')),
     _h('BatchMatMul', "a.dtype == <class 'numpy.float32'>", "int32 != <class 'numpy.float32'>")),
    ('accuracy/t_float', lambda: F.accuracy(f2, np.zeros(2, 'f')),
     _h('Accuracy', 't.dtype.kind == i', 'f != i')),
    ('accuracy/t_shape', lambda: F.accuracy(f2, np.zeros(3, 'i')),
     _h('Accuracy', 'x.shape[0] == t.shape[0]', '2 != 3')),
    ('accuracy/y_int', lambda: F.accuracy(i2, np.zeros(2, 'i')),
     _h('Accuracy', 'x.dtype.kind == f', 'i != f')),
    ('accuracy/t_2d', lambda: F.accuracy(f2, np.zeros((2, 3), 'i')),
     _h('Accuracy', 'x.shape[2:3] == t.shape[1:]', '() != (3,)')),
    ('mse/shape', lambda: F.mean_squared_error(f2, np.ones((3, 2), 'f')),
     _h('MeanSquaredError', 'x0.shape == x1.shape', '(2, 3) != (3, 2)')),
    ('mse/dtype', lambda: F.mean_squared_error(f2, d2),
     _h('MeanSquaredError', 'x0.dtype == x1.dtype', 'float32 != float64')),
    ('mse/int', lambda: F.mean_squared_error(i2, i2),
     _h('MeanSquaredError', 'x0.dtype.kind == f', 'i != f')),
    ('mae/shape', lambda: F.mean_absolute_error(f2, np.ones((3, 2), 'f')),
     _h('MeanAbsoluteError', 'x0.shape == x1.shape', '(2, 3) != (3, 2)')),
    ('squared_error/shape', lambda: F.squared_error(f2, np.ones((3, 2), 'f')),
     _h('SquaredError', 'x0.shape == x1.shape', '(2, 3) != (3, 2)')),
    ('absolute_error/shape', lambda: F.absolute_error(f2, np.ones((3, 2), 'f')),
     _h('AbsoluteError', 'x0.shape == x1.shape', '(2, 3) != (3, 2)')),
    ('select_item/t_float', lambda: F.select_item(f2, np.zeros(2, 'f')),
     _h('SelectItem', 't.dtype.kind == i', 'f != i')),
    ('select_item/t_shape', lambda: F.select_item(f2, np.zeros(3, 'i')),
     _h('SelectItem', 'x.shape[0] == t.shape[0]', '2 != 3')),
    ('select_item/x_1d', lambda: F.select_item(np.ones(3, 'f'), np.zeros(3, 'i')),
     _h('SelectItem', 'x.ndim == 2', '1 != 2')),
    ('select_item/t_2d', lambda: F.select_item(f2, np.zeros((2, 1), 'i')),
     _h('SelectItem', 't.ndim == 1', '2 != 1')),
    ('dropout/int', lambda: F.dropout(i2),
     _h('Dropout', 'x.dtype.kind == f', 'i != f')),
    ('split_axis/sections', lambda: F.split_axis(f2, 4, axis=1),
     _h('SplitAxis', 'in_types[0].shape[1] % sections == 0', '3 != 0')),
    ('split_axis/indices', lambda: F.split_axis(f2, [1, 5], axis=1),
     _h('SplitAxis', 'in_types[0].shape[1] >= max_index', '3 < 5')),
    ('split_axis/axis', lambda: F.split_axis(f2, 2, axis=5),
     _h('SplitAxis', 'in_types[0].ndim > 5', '2 <= 5')),
    ('relu/int', lambda: F.relu(i2),
     _h('ReLU', 'x.dtype.kind == f', 'i != f')),
    ('sigmoid/int', lambda: F.sigmoid(i2),
     _h('Sigmoid', 'x.dtype.kind == f', 'i != f')),
    ('tanh/int', lambda: F.tanh(i2),
     _h('Tanh', 'x.dtype.kind == f', 'i != f')),
    ('leaky_relu/int', lambda: F.leaky_relu(i2),
     _h('LeakyReLU', 'x.dtype.kind == f', 'i != f')),
    ('elu/int', lambda: F.elu(i2),
     _h('ELU', 'x.dtype.kind == f', 'i != f')),
    ('reshape/size', lambda: F.reshape(f2, (5,)),
     _h('Reshape', 'prod(x.shape) == prod((5,))', '6 != 5')),
    ('reshape/neg', lambda: F.reshape(f2, (-1, 4)),
     _h('Reshape', 'prod(x.shape) % known_size(=4) == 0', '2 != 0')),
    ('broadcast_to/shape', lambda: F.broadcast_to(f2, (2, 4)),
     _h('BroadcastTo',
        'in_type[0].shape[-1] == 4 or in_type[0].shape[-1] == 1',
        'in_type[0].shape: (2, 3)')),
    ('broadcast_to/shape2', lambda: F.broadcast_to(f2, (3, 3)),
     _h('BroadcastTo',
        'in_type[0].shape[-2] == 3 or in_type[0].shape[-2] == 1',
        'in_type[0].shape: (2, 3)')),
    ('broadcast/shape', lambda: F.broadcast(f2, np.ones((3, 2), 'f')),
     'cannot broadcast inputs of the following shapes:\nin_types[0].shape = (2, 3)\nin_types[1].shape = (3, 2)'),  # noqa: E501
    ('sum/axis', lambda: F.sum(f2, axis=2),
     _h('Sum', 'x.ndim > 2', '2 <= 2')),
    ('sum/negaxis', lambda: F.sum(f2, axis=-3),
     _h('Sum', 'x.ndim > 2', '2 <= 2')),
    ('mean/axis', lambda: F.mean(f2, axis=2),
     _h('Mean', 'x.ndim > 2', '2 <= 2')),
    ('max/axis', lambda: F.max(f2, axis=2),
     _h('Max', 'x.ndim > 2', '2 <= 2')),
    ('squeeze/axis', lambda: F.squeeze(f2, 5),
     _h('Squeeze', 'in_types[0].ndim > 5', '2 <= 5')),
    ('where/int', lambda: F.where(np.ones((2, 3), 'i'), f2, f2),
     _h('Where', "condition.dtype == <class 'numpy.bool_'>", "int32 != <class 'numpy.bool_'>")),
    ('where/dtype', lambda: F.where(np.ones((2, 3), '?'), f2, d2),
     _h('Where', 'x.dtype == y.dtype', 'float32 != float64')),
    ('where/shape', lambda: F.where(np.ones((2, 3), '?'), f2, np.ones((3, 2), 'f')),
     'cannot broadcast inputs of the following shapes:\ncondition.shape = (2, 3)\nx.shape = (2, 3)\ny.shape = (3, 2)'),  # noqa: E501
    ('flip/negaxis', lambda: F.flip(f2, -3),
     _h('Flip', 'x.ndim >= 3', '2 < 3')),
    ('expand_dims/negaxis', lambda: F.expand_dims(f2, -4),
     _h('ExpandDims', 'x.ndim >= 3', '2 < 3')),
    ('expand_dims/axis3', lambda: F.expand_dims(f2, 3),
     _h('ExpandDims', 'x.ndim >= 3', '2 < 3')),
    ('rollaxis/start', lambda: F.rollaxis(f2, 0, 5),
     _h('Rollaxis', 'x.ndim >= 5', '2 < 5')),
    ('rollaxis/negaxis', lambda: F.rollaxis(f2, -3),
     _h('Rollaxis', 'x.ndim > 2', '2 <= 2')),
    ('moveaxis/dst', lambda: F.moveaxis(f2, 0, 5),
     _h('Moveaxis', 'x.ndim > 5', '2 <= 5')),
    ('moveaxis/neg', lambda: F.moveaxis(f2, -3, 0),
     _h('Moveaxis', 'x.ndim > 2', '2 <= 2')),
    ('separate/negaxis', lambda: F.separate(f2, axis=-3),
     _h('Separate', 'x.ndim >= 3', '2 < 3')),
    ('diagonal/axes', lambda: F.diagonal(f3, 0, 5),
     _h('Diagonal', 'x.ndim > 5', '3 <= 5')),
    ('permutate/axis', lambda: F.permutate(f2, np.array([0, 1], 'i'), axis=5),
     _h('Permutate', 'x.ndim > 5', '2 <= 5')),
    ('hstack/shape', lambda: F.hstack((f2, np.ones((3, 3), 'f'))),
     _h('Hstack', 'x0.shape[0] == x1.shape[0]', '2 != 3')),
    ('vstack/shape', lambda: F.vstack((f2, np.ones((2, 4), 'f'))),
     _h('Vstack', 'in_types[0].shape[1] == in_types[1].shape[1]', '3 != 4')),
    ('dstack/shape', lambda: F.dstack((f2, np.ones((3, 3), 'f'))),
     _h('Dstack', 'x0.shape == x1.shape', '(2, 3) != (3, 3)')),
    ('hstack/1d2d', lambda: F.hstack((np.ones(3, 'f'), f2)),
     _h('Hstack', 'x0.ndim == x1.ndim', '1 != 2')),
    ('vstack/1d', lambda: F.vstack((np.ones(3, 'f'), np.ones(4, 'f'))),
     _h('Vstack', 'in_types[0].shape == in_types[1].shape', '(3,) != (4,)')),
    ('dstack/dtype', lambda: F.dstack((f2, d2)),
     _h('Dstack', 'x0.dtype == x1.dtype', 'float32 != float64')),
    ('hstack/dtype', lambda: F.hstack((f2, d2)),
     _h('Hstack', 'x0.dtype == x1.dtype', 'float32 != float64')),
    ('vstack/dtype', lambda: F.vstack((f2, d2)),
     _h('Vstack', 'in_types[0].dtype == in_types[1].dtype', 'float32 != float64')),
    ('batch_normalization/beta',
     lambda: F.batch_normalization(f2, np.ones(3, 'f'), np.ones(4, 'f')),
     _h('BatchNormalization', 'in_types[1].shape == in_types[2].shape', '(3,) != (4,)')),
    ('batch_normalization/int',
     lambda: F.batch_normalization(i2, np.ones(3, 'f'), np.ones(3, 'f')),
     _h('BatchNormalization', 'in_types[0].dtype.kind == f', 'i != f')),
    ('batch_normalization/gamma_ok_beta',
     lambda: F.batch_normalization(np.ones((2, 4), 'f'), np.ones(3, 'f'), np.ones(3, 'f')),
     _h('BatchNormalization', 'in_types[0].shape[1] == in_types[1].shape[0]', '4 != 3')),
    ('fixed_batch_normalization/1',
     lambda: F.fixed_batch_normalization(f2, np.ones(4, 'f'), np.ones(4, 'f'), np.ones(4, 'f'), np.ones(4, 'f')),  # noqa: E501
     _h('FixedBatchNormalization', 'in_types[0].shape[1] == in_types[1].shape[0]', '3 != 4')),
    ('layer_normalization/beta',
     lambda: F.layer_normalization(f2, np.ones(3, 'f'), np.ones(4, 'f')),
     _h('LayerNormalization', 'in_types[1].shape == in_types[2].shape', '(3,) != (4,)')),
    ('layer_normalization/1d',
     lambda: F.layer_normalization(np.ones(3, 'f'), np.ones(3, 'f'), np.ones(3, 'f')),
     _h('LayerNormalization', 'in_types[0].ndim == 2', '1 != 2')),
    ('bilinear/e2', lambda: F.bilinear(f2, np.ones((2, 5), 'f'), np.ones((3, 4, 6), 'f')),
     _h('BilinearFunction', 'prod(in_types[1].shape[1:]) == in_types[2].shape[1]', '5 != 4')),
    ('bilinear/batch', lambda: F.bilinear(f2, np.ones((3, 4), 'f'), np.ones((3, 4, 6), 'f')),
     _h('BilinearFunction', 'in_types[0].shape[0] == in_types[1].shape[0]', '2 != 3')),
    ('bilinear/V',
     lambda: F.bilinear(f2, np.ones((2, 4), 'f'), np.ones((3, 4, 6), 'f'), np.ones((2, 6), 'f'), np.ones((4, 6), 'f'), np.ones(6, 'f')),  # noqa: E501
     _h('BilinearFunction', 'in_types[3].shape[0] == in_types[2].shape[0]', '2 != 3')),
    ('average_pooling_2d/3d', lambda: F.average_pooling_2d(np.ones((3, 5, 5), 'f'), 2),
     _h('AveragePooling2D', 'in_types[0].ndim == 4', '3 != 4')),
    ('sigmoid_cross_entropy/shape', lambda: F.sigmoid_cross_entropy(f2, np.zeros((3, 2), 'i')),
     _h('SigmoidCrossEntropy', 'x.shape == t.shape', '(2, 3) != (3, 2)')),
    ('sigmoid_cross_entropy/t_float', lambda: F.sigmoid_cross_entropy(f2, np.zeros((2, 3), 'f')),
     _h('SigmoidCrossEntropy', 't.dtype.kind == i', 'f != i')),
    ('huber_loss/shape', lambda: F.huber_loss(f2, np.ones((3, 2), 'f'), 1.0),
     _h('HuberLoss', 'x.shape == t.shape', '(2, 3) != (3, 2)')),
    ('average/weights', lambda: F.average(f2, axis=1, weights=np.ones(2, 'f')),
     _h('Reshape', 'prod(x.shape) == prod([1, 3])', '2 != 3')),
    ('average/weights2', lambda: F.average(f2, axis=0, weights=np.ones(3, 'f')),
     _h('Reshape', 'prod(x.shape) == prod([2, 1])', '3 != 2')),
    ('bias/axis', lambda: F.bias(f3, np.ones(5, 'f'), axis=1),
     _h('BroadcastTo',
        'in_type[0].shape[-2] == 3 or in_type[0].shape[-2] == 1',
        'in_type[0].shape: (1, 5, 1)')),
    ('scale/axis', lambda: F.scale(f3, np.ones(5, 'f'), axis=1),
     _h('BroadcastTo',
        'in_type[0].shape[-2] == 3 or in_type[0].shape[-2] == 1',
        'in_type[0].shape: (1, 5, 1)')),
    ('scale/big', lambda: F.scale(f2, f3, axis=0),
     _h('BroadcastTo', 'x.ndim <= len(shape)', '3 > 2')),
]


def _raise(call):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', DeprecationWarning)  # batch_matmul
        with pytest.raises(InvalidType) as info:
            call()
    return info.value


@pytest.mark.parametrize('call,expected', [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_message_is_v7s(call, expected):
    assert str(_raise(call)) == expected


def test_messages_without_type_check_mode_differences():
    # the light-mode pass and the full check agree: a cached passing check stays quiet
    # and the failing one still reads as v7's
    for _ in range(2):
        F.concat((f2, f2), axis=1)
    assert 'Expect: in_types[0].ndim > axis' in str(_raise(lambda: F.concat((f2, f2), axis=5)))


@pytest.mark.parametrize('call,note', [
    (lambda: F.concat((f2, f2), axis=5), 'axis 5 is out of bounds'),
    (lambda: F.expand_dims(f2, 5), 'axis 5 is out of bounds'),
    (lambda: F.moveaxis(f2, 0, 5), 'destination 5 is out of bounds'),
    (lambda: F.rollaxis(f2, 0, 5), 'start 5 is out of bounds'),
    (lambda: F.sum(f2, axis=2), 'axis 2 is out of bounds'),
    (lambda: F.reshape(f2, (4, 2)), 'cannot reshape an array of shape (2, 3)'),
    (lambda: F.broadcast_to(f2, (2, 4)), 'cannot broadcast an array of shape (2, 3)'),
    (lambda: F.bias(f3, np.ones(5, 'f'), axis=1), 'bias: y of shape (5,) does not match'),
    (lambda: F.maxout(f2, 2), 'is not divisible by pool_size (2)'),
])
def test_the_projects_explanation_is_a_note(call, note):
    e = _raise(call)
    assert note not in str(e)
    assert any(note in n for n in e.__notes__)


@pytest.mark.parametrize('call,types', [
    # where the project raised a ValueError before, both except forms catch it
    (lambda: F.hstack([]), (InvalidValue, ValueError)),
    (lambda: F.mean(f2, axis=2), (InvalidValue, ValueError)),
    (lambda: F.reshape(f2, (4, 2)), (ValueError,)),
    (lambda: F.average(f2, axis=1, weights=np.ones(2, 'f')), (ValueError,)),
    (lambda: F.scale(f2, f3), (AxisShapeError, ValueError, AssertionError)),
])
def test_invalid_type_is_also_the_old_exception(call, types):
    e = _raise(call)
    assert isinstance(e, types)
    copy = pickle.loads(pickle.dumps(e))
    assert type(copy) is type(e) and str(copy) == str(e)
    assert getattr(copy, '__notes__', None) == getattr(e, '__notes__', None)


def test_where_broadcast_names_the_condition():
    e = _raise(lambda: F.where(np.ones((2, 3), '?'), f2, np.ones((3, 2), 'f')))
    assert str(e) == ('cannot broadcast inputs of the following shapes:\n'
                      'condition.shape = (2, 3)\nx.shape = (2, 3)\ny.shape = (3, 2)')


@pytest.mark.parametrize('call,expected_shape', [
    # inputs v7 refused and the project takes (its wider behaviour is kept)
    (lambda: F.moveaxis(i2, 0, 1), (3, 2)),
    (lambda: F.fliplr(i2), (2, 3)),
    (lambda: F.resize_images(f4d, (3, 3)), (1, 4, 3, 3)),
    (lambda: F.batch_matmul(np.ones((2, 3, 4)), np.ones((2, 4, 5))), (2, 3, 5)),
    (lambda: F.layer_normalization(f3, np.ones((3, 4), 'f'), np.ones((3, 4), 'f')),
     (2, 3, 4)),
])
def test_wider_inputs_still_accepted(call, expected_shape):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', DeprecationWarning)
        assert call().shape == expected_shape


def test_type_check_off_skips_the_checks():
    with chainer.using_config('type_check', False):
        assert F.stack((f2, f2), axis=2).shape == (2, 3, 2)
