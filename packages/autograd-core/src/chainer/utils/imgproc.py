"""Image preprocessing helpers (``chainer.utils.imgproc``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy

if TYPE_CHECKING:
    from collections.abc import Sequence

    from chainer.types import NdArray


def oversample(images: NdArray | Sequence[NdArray], crop_dims: tuple[int, int]) -> numpy.ndarray:
    """Crop each image at its four corners and centre, and again from its mirror image.

    The ten crops of an image are, in order: top-left, top-right, bottom-left,
    bottom-right and centre, then the same five crops flipped horizontally. This is
    the usual test-time augmentation of image classifiers.

    Args:
        images: an array of shape ``(N, C, H, W)``, or a sequence of ``(C, H, W)``
            arrays of one shape.
        crop_dims: ``(height, width)`` of the crops.

    Returns:
        A NumPy array of shape ``(10 * N, C, height, width)`` and the images' dtype.

    Raises:
        ValueError: when the images are not 3-dimensional, differ in shape, or are
            smaller than the crop.
    """
    images = [numpy.asarray(im) for im in images]
    crop_h, crop_w = (int(d) for d in crop_dims)
    if not images:
        return numpy.empty((0, 0, crop_h, crop_w))
    shape = images[0].shape
    if len(shape) != 3 or any(im.shape != shape for im in images):
        raise ValueError(f'oversample needs images of one (C, H, W) shape, got '
                         f'{sorted({im.shape for im in images})}')
    channels, height, width = shape
    if crop_h > height or crop_w > width or crop_h < 1 or crop_w < 1:
        raise ValueError(f'crop {crop_h}x{crop_w} does not fit in images of '
                         f'{height}x{width}')
    tops = (0, 0, height - crop_h, height - crop_h, (height - crop_h) // 2)
    lefts = (0, width - crop_w, 0, width - crop_w, (width - crop_w) // 2)
    out = numpy.empty((10 * len(images), channels, crop_h, crop_w), images[0].dtype)
    for n, image in enumerate(images):
        for k, (top, left) in enumerate(zip(tops, lefts)):
            crop = image[:, top:top + crop_h, left:left + crop_w]
            out[10 * n + k] = crop
            out[10 * n + 5 + k] = crop[:, :, ::-1]
    return out
