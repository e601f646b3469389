"""Image datasets: files and zip archives, greyscale, RGB, RGBA and 16-bit images."""

import os
import pickle
import zipfile

import numpy
import pytest

from chainer.datasets import (
    ImageDataset,
    LabeledImageDataset,
    LabeledZippedImageDataset,
    MultiZippedImageDataset,
    ZippedImageDataset,
    image_dataset,
)
from chainer.iterators import MultiprocessIterator

Image = pytest.importorskip('PIL.Image')

RNG = numpy.random.RandomState(0)
PIXELS = {
    'grey.png': RNG.randint(0, 256, (4, 5)).astype(numpy.uint8),
    'rgb.png': RNG.randint(0, 256, (4, 5, 3)).astype(numpy.uint8),
    'rgba.png': RNG.randint(0, 256, (4, 5, 4)).astype(numpy.uint8),
    'deep.png': RNG.randint(0, 65536, (4, 5)).astype(numpy.uint16),
}


def expected(name):
    pixels = PIXELS[name]
    if pixels.ndim == 2:
        pixels = pixels[:, :, None]
    return pixels.transpose(2, 0, 1)


@pytest.fixture
def images(tmp_path):
    for name, pixels in PIXELS.items():
        Image.fromarray(pixels).save(tmp_path / name)
    return tmp_path


def test_available():
    assert image_dataset.available


def test_image_dataset_channels_first(images):
    ds = ImageDataset(sorted(PIXELS), root=str(images))
    assert len(ds) == 4
    for i, name in enumerate(sorted(PIXELS)):
        image = ds[i]
        assert image.dtype == numpy.float32
        numpy.testing.assert_array_equal(image, expected(name))
    as_int = ImageDataset(['deep.png'], root=str(images), dtype=numpy.int32)
    assert as_int[0].dtype == numpy.int32 and as_int[0].max() > 255


def test_list_files_and_labels(images):
    (images / 'list.txt').write_text('rgb.png\n\ngrey.png\n')
    assert ImageDataset(str(images / 'list.txt'), root=str(images))[1].shape == (1, 4, 5)
    (images / 'labels.txt').write_text('rgb.png 3\ngrey.png 7\n')
    labeled = LabeledImageDataset(str(images / 'labels.txt'), root=str(images),
                                  label_dtype=numpy.int64)
    image, label = labeled[1]
    assert image.shape == (1, 4, 5) and label == 7 and label.dtype == numpy.int64
    pairs = LabeledImageDataset([('rgba.png', 1)], root=str(images))
    assert pairs[0][0].shape == (4, 4, 5) and pairs[0][1].dtype == numpy.int32
    (images / 'bad.txt').write_text('rgb.png 3 extra\n')
    with pytest.raises(ValueError, match='line 1'):
        LabeledImageDataset(str(images / 'bad.txt'))


@pytest.fixture
def archives(images):
    paths = []
    for number, names in enumerate((['rgb.png', 'grey.png'], ['rgba.png', 'deep.png'])):
        path = images / f'images{number}.zip'
        with zipfile.ZipFile(path, 'w') as archive:
            archive.writestr('folder/', b'')
            for name in names:
                archive.write(images / name, name)
        paths.append(str(path))
    return paths


def test_zipped_datasets(archives, images):
    zipped = ZippedImageDataset(archives[0])
    assert len(zipped) == 2
    numpy.testing.assert_array_equal(zipped[0], expected('rgb.png'))
    multi = MultiZippedImageDataset(archives)
    assert len(multi) == 4
    numpy.testing.assert_array_equal(multi[3], expected('deep.png'))
    numpy.testing.assert_array_equal(multi[-2], expected('rgba.png'))
    restored = pickle.loads(pickle.dumps(multi))
    numpy.testing.assert_array_equal(restored[1], expected('grey.png'))
    (images / 'zlabels.txt').write_text('grey.png 1\nrgb.png 0\n')
    labeled = LabeledZippedImageDataset(archives[0], str(images / 'zlabels.txt'))
    image, label = labeled[0]
    assert image.shape == (1, 4, 5) and label == 1


def test_zipped_dataset_in_worker_processes(archives):
    zipped = ZippedImageDataset(archives[0])
    zipped[0]  # opened in this process before the workers fork
    it = MultiprocessIterator(zipped, 2, shuffle=False, n_processes=2)
    batch = it.next()
    it.finalize()
    numpy.testing.assert_array_equal(batch[1], expected('grey.png'))


def test_missing_file_is_an_error(images):
    with pytest.raises(FileNotFoundError):
        ImageDataset(['nope.png'], root=str(images))[0]
    assert os.path.exists(images / 'rgb.png')
