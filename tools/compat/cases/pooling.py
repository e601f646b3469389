"""Compatibility cases: pooling, unpooling and region-of-interest functions."""


def _f(rng, *shape, dtype='f'):
    return rng.randn(*shape).astype(dtype)


def _rois(rng, n, h, w, first_index=False):
    # regions of every kind: inside, across the border, outside, tiny, inverted
    ys = rng.uniform(-3, h + 3, (n, 2))
    xs = rng.uniform(-3, w + 3, (n, 2))
    boxes = [ys[:, 0], xs[:, 0], ys[:, 1], xs[:, 1]]
    import numpy as np
    rois = np.stack(boxes, axis=1).astype('f')
    rois[:4] = [[1, 1, 6, 6], [2, 3, 2.5, 3.2], [2.5, 0.5, 9.5, 7.5], [0, 0, h, w]]
    return rois


# max pooling

def case_max_pooling_2d_k2(F, np, rng):
    return F.max_pooling_2d, (_f(rng, 2, 3, 6, 8),), {'ksize': 2}


def case_max_pooling_2d_k3s2p1(F, np, rng):
    return F.max_pooling_2d, (_f(rng, 2, 3, 7, 6),), {'ksize': 3, 'stride': 2, 'pad': 1}


def case_max_pooling_2d_k3s2p1_nocover(F, np, rng):
    return F.max_pooling_2d, (_f(rng, 2, 3, 7, 6),), {'ksize': 3, 'stride': 2, 'pad': 1,
                                                       'cover_all': False}


def case_max_pooling_2d_stride_gt_k(F, np, rng):
    return F.max_pooling_2d, (_f(rng, 1, 2, 7, 9),), {'ksize': (2, 1), 'stride': (3, 4)}


def case_max_pooling_2d_big_kernel(F, np, rng):
    return F.max_pooling_2d, (_f(rng, 2, 2, 10, 10),), {'ksize': 5}


def case_max_pooling_2d_indices(F, np, rng):
    return F.max_pooling_2d, (_f(rng, 2, 2, 5, 7),), {'ksize': 3, 'stride': 2, 'pad': 1,
                                                       'return_indices': True}


def case_max_pooling_2d_f16(F, np, rng):
    return F.max_pooling_2d, (_f(rng, 2, 3, 6, 6, dtype='e'),), {'ksize': 2}


def case_max_pooling_nd_3d(F, np, rng):
    return F.max_pooling_nd, (_f(rng, 2, 2, 5, 4, 3),), {'ksize': 2, 'stride': 1, 'pad': 1}


def case_max_pooling_1d(F, np, rng):
    return F.max_pooling_1d, (_f(rng, 2, 3, 9),), {'ksize': 3, 'stride': 2}


# average pooling

def case_average_pooling_2d_k2(F, np, rng):
    return F.average_pooling_2d, (_f(rng, 2, 3, 6, 8),), {'ksize': 2}


def case_average_pooling_2d_k3s2p1(F, np, rng):
    return F.average_pooling_2d, (_f(rng, 2, 3, 7, 6),), {'ksize': 3, 'stride': 2, 'pad': 1}


def case_average_pooling_2d_global(F, np, rng):
    return F.average_pooling_2d, (_f(rng, 2, 3, 7, 7),), {'ksize': 7}


def case_average_pooling_nd_pad_none(F, np, rng):
    return F.average_pooling_nd, (_f(rng, 2, 3, 5, 6),), {'ksize': 3, 'stride': 2, 'pad': 1,
                                                           'pad_value': None}


def case_average_pooling_3d(F, np, rng):
    return F.average_pooling_3d, (_f(rng, 1, 2, 4, 5, 3),), {'ksize': 2, 'stride': 1}


# unpooling, upsampling, spatial pyramid pooling

def case_unpooling_2d(F, np, rng):
    return F.unpooling_2d, (_f(rng, 2, 3, 3, 4),), {'ksize': 2}


def case_unpooling_2d_overlap(F, np, rng):
    return F.unpooling_2d, (_f(rng, 2, 3, 3, 4),), {'ksize': 3, 'stride': 2, 'pad': 1,
                                                     'cover_all': False}


def case_unpooling_2d_outsize(F, np, rng):
    return F.unpooling_2d, (_f(rng, 1, 2, 4, 5),), {'ksize': 2, 'pad': 2, 'outsize': (4, 6)}


def case_unpooling_nd_3d(F, np, rng):
    return F.unpooling_nd, (_f(rng, 1, 2, 2, 3, 2),), {'ksize': 3, 'stride': 2, 'pad': 1}


def case_upsampling_2d(F, np, rng):
    x = _f(rng, 2, 3, 7, 6)
    y, idx = F.max_pooling_2d(x, 3, 2, 1, return_indices=True)
    return F.upsampling_2d, (y.array, idx), {'ksize': 3, 'stride': 2, 'pad': 1,
                                             'outsize': (7, 6)}


def case_upsampling_2d_default_outsize(F, np, rng):
    x = _f(rng, 1, 2, 6, 6)
    y, idx = F.max_pooling_2d(x, 2, return_indices=True)
    return F.upsampling_2d, (y.array, idx), {'ksize': 2}


def case_spatial_pyramid_pooling_2d(F, np, rng):
    return F.spatial_pyramid_pooling_2d, (_f(rng, 2, 3, 9, 8),), {'pyramid_height': 3,
                                                                    'pooling': 'max'}


def case_spatial_pyramid_pooling_2d_small(F, np, rng):
    return F.spatial_pyramid_pooling_2d, (_f(rng, 1, 2, 3, 5),), {'pyramid_height': 3,
                                                                    'pooling': 'max'}


# regions of interest

def _index_rois(np, rois, ordered=True):
    # (batch_index, x_min, y_min, x_max, y_max)
    if ordered:
        rois = np.concatenate([np.minimum(rois[:, :2], rois[:, 2:]),
                               np.maximum(rois[:, :2], rois[:, 2:])], axis=1)
    batch = (np.arange(len(rois)) % 3 % 2).astype('f')[:, None]
    return np.concatenate([batch, rois[:, [1, 0, 3, 2]]], axis=1).astype('f')


def case_roi_pooling_2d(F, np, rng):
    x = _f(rng, 2, 3, 12, 8)
    rois = _index_rois(np, _rois(rng, 12, 12, 8))
    return F.roi_pooling_2d, (x, rois), {'outh': 3, 'outw': 4, 'spatial_scale': 0.6}


def case_roi_pooling_2d_scale2(F, np, rng):
    x = _f(rng, 2, 3, 12, 8)
    rois = _index_rois(np, _rois(rng, 8, 6, 4))
    return F.roi_pooling_2d, (x, rois), {'outh': 5, 'outw': 7, 'spatial_scale': 2.0}


# Regions with max < min: the outputs agree, but 7.8.1's gradient is zero for them
# (its backward looks for pixels inside the inverted box and finds none), which does
# not match its own outputs; ours is the gradient of the outputs. Forward only.
def case_roi_pooling_2d_inverted(F, np, rng):
    x = _f(rng, 2, 3, 12, 8)
    rois = _index_rois(np, _rois(rng, 12, 12, 8), ordered=False)
    return (F.roi_pooling_2d, (x, rois), {'outh': 3, 'outw': 4, 'spatial_scale': 0.6},
            {'backward': False})


def _roi_case(fn, rng, np, scale, outsize, **kw):
    x = _f(rng, 2, 3, 12, 8)
    rois = _rois(rng, 12, 12 / scale, 8 / scale)
    idx = np.array([0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 1, 0], np.int32)
    return fn, (x, rois, idx), dict(outsize=outsize, spatial_scale=scale, **kw)


def _no_inf(fn):
    def f(*args, **kw):
        y = fn(*args, **kw)
        import chainer.functions as F
        xp = __import__('numpy')
        return F.where(xp.isinf(y.array), xp.zeros(y.shape, y.dtype), y)
    return f


def case_roi_max_pooling_2d(F, np, rng):
    return _roi_case(_no_inf(F.roi_max_pooling_2d), rng, np, 0.6, (3, 4))


def case_roi_max_pooling_2d_scale2(F, np, rng):
    return _roi_case(_no_inf(F.roi_max_pooling_2d), rng, np, 2.0, 5)


def case_roi_max_pooling_2d_raw(F, np, rng):
    return _roi_case(F.roi_max_pooling_2d, rng, np, 1.0, (4, 3)) + ({'backward': False},)


def case_roi_average_pooling_2d(F, np, rng):
    return _roi_case(F.roi_average_pooling_2d, rng, np, 0.6, (3, 4))


def case_roi_average_pooling_2d_scale2(F, np, rng):
    return _roi_case(F.roi_average_pooling_2d, rng, np, 2.0, 5)


def case_roi_average_align_2d(F, np, rng):
    return _roi_case(F.roi_average_align_2d, rng, np, 0.6, (3, 4))


def case_roi_average_align_2d_ratio(F, np, rng):
    return _roi_case(F.roi_average_align_2d, rng, np, 1.0, 5, sampling_ratio=(None, 2))


def case_roi_average_align_2d_scale2(F, np, rng):
    return _roi_case(F.roi_average_align_2d, rng, np, 2.0, 5, sampling_ratio=2)


def case_roi_max_align_2d(F, np, rng):
    return _roi_case(_no_inf(F.roi_max_align_2d), rng, np, 0.6, (3, 4))


def case_roi_max_align_2d_ratio(F, np, rng):
    return _roi_case(_no_inf(F.roi_max_align_2d), rng, np, 1.0, 5, sampling_ratio=(1, 3))


def case_roi_max_align_2d_raw(F, np, rng):
    return _roi_case(F.roi_max_align_2d, rng, np, 2.0, (4, 3)) + ({'backward': False},)


# coordinates half-way between pixels: rounded to even, as 7.8.1's CPU code does
def case_roi_max_pooling_2d_half_way(F, np, rng):
    x = _f(rng, 1, 2, 10, 10)
    rois = np.array([[0.5, 1.5, 6.5, 7.5], [2.5, 3.5, 8.5, 9.5]], 'f')
    return F.roi_max_pooling_2d, (x, rois, np.zeros(2, np.int32)), {'outsize': 3,
                                                                      'spatial_scale': 1.0}


def case_roi_pooling_2d_half_way(F, np, rng):
    x = _f(rng, 1, 2, 10, 10)
    rois = np.array([[0, 0.5, 1.5, 6.5, 7.5], [0, 2.5, 3.5, 8.5, 9.5]], 'f')
    return F.roi_pooling_2d, (x, rois), {'outh': 3, 'outw': 2, 'spatial_scale': 1.0}
