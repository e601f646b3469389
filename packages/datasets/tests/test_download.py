"""chainer.dataset.download: the dataset root, cached_download over a local HTTP server,
cache_or_load_file under concurrency."""

import hashlib
import os
import subprocess
import sys
import threading

import numpy
import pytest

from chainer import dataset
from chainer.dataset import download


@pytest.fixture
def served(server):
    """The local server with one file, as ``(base url, server)``."""
    server.files['/data.bin'] = b'0123456789' * 1000
    return server.url, server


def test_root_defaults_and_setter(root):
    assert dataset.get_dataset_root() == str(root)
    path = dataset.get_dataset_directory('pfnet/chainer/mnist')
    assert path == os.path.join(str(root), 'pfnet', 'chainer', 'mnist') and os.path.isdir(path)
    other = dataset.get_dataset_directory('x/y', create_directory=False)
    assert not os.path.exists(other)
    with pytest.raises(ValueError, match='relative'):
        dataset.get_dataset_directory('../escape')
    with pytest.raises(ValueError, match='relative'):
        dataset.get_dataset_directory(os.path.abspath('abs'))


def test_environment_variable_sets_the_root(tmp_path):
    env = dict(os.environ, CHAINER_DATASET_ROOT=str(tmp_path / 'env-root'))
    out = subprocess.run([sys.executable, '-c',
                          'import chainer.dataset as d; print(d.get_dataset_root())'],
                         env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == str(tmp_path / 'env-root')


def test_cached_download_uses_v7_layout_and_downloads_once(root, served):
    base, handler = served
    url = base + '/data.bin'
    path = dataset.cached_download(url)
    assert path == os.path.join(str(root), '_dl_cache', hashlib.md5(url.encode()).hexdigest())
    with open(path, 'rb') as f:
        assert f.read() == handler.files['/data.bin']
    assert dataset.cached_download(url) == path
    assert handler.hits == ['/data.bin']
    # No temporary file is left next to the cached one (only v7's lock file).
    assert sorted(os.listdir(os.path.dirname(path))) == sorted([os.path.basename(path),
                                                                '_dl_lock'])


def test_an_existing_cache_is_used_without_network(root):
    url = 'http://127.0.0.1:9/never-reached.bin'
    cached = os.path.join(str(root), '_dl_cache', hashlib.md5(url.encode()).hexdigest())
    os.makedirs(os.path.dirname(cached))
    with open(cached, 'wb') as f:
        f.write(b'placed by hand')
    assert dataset.cached_download(url) == cached


def test_failed_download_names_url_and_path_and_leaves_nothing(root, served):
    base, _ = served
    url = base + '/missing.bin'
    with pytest.raises(download.DownloadError) as info:
        dataset.cached_download(url)
    message = str(info.value)
    expected = os.path.join(str(root), '_dl_cache', hashlib.md5(url.encode()).hexdigest())
    assert url in message and expected in message
    assert os.listdir(os.path.join(str(root), '_dl_cache')) == ['_dl_lock']
    offline = 'http://127.0.0.1:9/offline.bin'  # the discard port: connection refused
    with pytest.raises(download.DownloadError, match='place it at'):
        dataset.cached_download(offline)


def test_cache_or_load_file_creates_once_then_loads(root, tmp_path):
    target = str(tmp_path / 'cache' / 'arrays.npz')
    created = []

    def creator(path):
        assert not os.path.exists(path) and path != target
        numpy.savez(path, x=numpy.arange(3))
        created.append(path)
        return 'created'

    def loader(path):
        with numpy.load(path) as f:
            return f['x'].tolist()

    assert dataset.cache_or_load_file(target, creator, loader) == 'created'
    assert dataset.cache_or_load_file(target, creator, loader) == [0, 1, 2]
    assert len(created) == 1
    assert os.listdir(os.path.dirname(target)) == ['arrays.npz']


def test_cache_or_load_file_failed_creator_leaves_nothing(root, tmp_path):
    target = str(tmp_path / 'c' / 'file.txt')

    def creator(path):
        with open(path, 'w') as f:
            f.write('half')
        raise RuntimeError('creator failed')

    with pytest.raises(RuntimeError, match='creator failed'):
        dataset.cache_or_load_file(target, creator, open)
    assert os.listdir(os.path.dirname(target)) == []


def test_cache_or_load_file_concurrent_threads(root, tmp_path):
    target = str(tmp_path / 'shared.txt')
    results = []

    def creator(path):
        with open(path, 'w') as f:
            f.write(threading.current_thread().name)
        return 'made'

    def loader(path):
        with open(path) as f:
            return f.read()

    def work():
        results.append(dataset.cache_or_load_file(target, creator, loader))

    threads = [threading.Thread(target=work, name=f't{i}') for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 8
    with open(target) as f:
        assert f.read() in {f't{i}' for i in range(8)}
    assert sorted(os.listdir(tmp_path)) == ['root', 'shared.txt'] or \
        sorted(os.listdir(tmp_path)) == ['shared.txt']


def test_cache_or_load_file_names_a_root_it_cannot_create(tmp_path):
    blocker = tmp_path / 'a-file'
    blocker.write_text('in the way')
    saved = dataset.get_dataset_root()
    dataset.set_dataset_root(blocker)
    try:
        with pytest.raises(RuntimeError, match='cannot create the dataset root') as info:
            dataset.cache_or_load_file(str(tmp_path / 'x.npz'), lambda p: None, open)
        assert isinstance(info.value, OSError) and str(blocker) in str(info.value)
    finally:
        dataset.set_dataset_root(saved)


def test_a_patched_six_urlretrieve_is_honoured(root):
    """v7-era code stubs downloads by patching six.moves.urllib.request.urlretrieve."""
    six = pytest.importorskip('six')
    calls = []

    def fake(url, path):
        calls.append(url)
        with open(path, 'w') as f:
            f.write('stubbed')

    original = six.moves.urllib.request.urlretrieve
    six.moves.urllib.request.urlretrieve = fake
    try:
        path = dataset.cached_download('https://example.invalid/file')
    finally:
        six.moves.urllib.request.urlretrieve = original
    assert calls == ['https://example.invalid/file']
    with open(path) as f:
        assert f.read() == 'stubbed'
