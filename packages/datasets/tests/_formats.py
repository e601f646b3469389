"""Small files in the original formats the dataset loaders download."""

import gzip
import io
import pickle
import struct
import tarfile

import numpy


def idx_gz(array):
    """A gzipped IDX file of unsigned bytes (the MNIST format)."""
    array = numpy.asarray(array, dtype=numpy.uint8)
    header = struct.pack('>BBBB', 0, 0, 8, array.ndim)
    header += struct.pack(f'>{array.ndim}I', *array.shape)
    return gzip.compress(header + array.tobytes())


def tar_gz(members):
    """A tar.gz archive of ``{name: bytes}``."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode='w:gz') as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def cifar_batch(images, labels, label_key='labels'):
    """A CIFAR python batch: a pickled dict with ``data`` (N, 3072) uint8 and labels."""
    content = {
        'batch_label': 'testing batch',
        label_key: [int(v) for v in labels],
        'data': numpy.asarray(images, dtype=numpy.uint8).reshape(len(labels), 3072),
        'filenames': [f'image_{i}.png' for i in range(len(labels))],
    }
    if label_key == 'fine_labels':
        content['coarse_labels'] = [int(v) // 5 for v in labels]
    return pickle.dumps(content, protocol=2)
