"""The download cache's locks (filelock, where v7 kept them) and its atomic writes."""

import hashlib
import os
import subprocess
import sys
import textwrap
import threading
import time

import filelock
import pytest

from chainer import dataset
from chainer.dataset import download


@pytest.fixture
def slow_fetch(monkeypatch):
    """Make every download take a while, so that concurrent callers overlap."""
    real_fetch = download._fetch

    def fetch(url, dest):
        time.sleep(0.3)
        real_fetch(url, dest)

    monkeypatch.setattr(download, '_fetch', fetch)


def _cache_path(root, url):
    return os.path.join(str(root), '_dl_cache', hashlib.md5(url.encode()).hexdigest())


def test_threads_downloading_one_url_fetch_it_once(root, server, slow_fetch):
    server.files['/big.bin'] = b'x' * 50000
    url = server.url + '/big.bin'
    paths = []
    threads = [threading.Thread(target=lambda: paths.append(dataset.cached_download(url)))
               for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert paths == [_cache_path(root, url)] * 6
    assert server.hits == ['/big.bin']
    with open(paths[0], 'rb') as f:
        assert f.read() == b'x' * 50000


def test_processes_downloading_one_url_fetch_it_once(root, server):
    server.files['/shared.bin'] = b'y' * 30000
    url = server.url + '/shared.bin'
    code = textwrap.dedent(f'''
        import time
        from chainer import dataset
        from chainer.dataset import download
        real_fetch = download._fetch
        def fetch(url, dest):
            time.sleep(0.3)
            real_fetch(url, dest)
        download._fetch = fetch
        dataset.set_dataset_root({str(root)!r})
        print(dataset.cached_download({url!r}))
    ''')
    procs = [subprocess.Popen([sys.executable, '-c', code], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True) for _ in range(3)]
    outs = [p.communicate(timeout=120)[0].strip() for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0]
    assert outs == [_cache_path(root, url)] * 3
    assert server.hits == ['/shared.bin']


def test_lock_files_are_where_v7_kept_them(root, server):
    server.files['/a.bin'] = b'a'
    dataset.cached_download(server.url + '/a.bin')
    assert os.path.isfile(os.path.join(str(root), '_dl_cache', '_dl_lock'))
    target = str(root / 'made.txt')

    def creator(path):
        with open(path, 'w') as f:
            f.write('made')
        return 'made'

    assert dataset.cache_or_load_file(target, creator, open) == 'made'
    assert os.path.isfile(os.path.join(str(root), '_create_lock'))
    assert sorted(os.listdir(root)) == ['_create_lock', '_dl_cache', 'made.txt']


def test_a_download_waits_for_the_cache_lock(root, server):
    server.files['/w.bin'] = b'w'
    url = server.url + '/w.bin'
    os.makedirs(root / '_dl_cache')
    held = filelock.FileLock(str(root / '_dl_cache' / '_dl_lock'))
    done = []
    with held:
        worker = threading.Thread(target=lambda: done.append(dataset.cached_download(url)))
        worker.start()
        worker.join(0.5)
        assert worker.is_alive() and done == [] and server.hits == []
    worker.join()
    assert done == [_cache_path(root, url)] and server.hits == ['/w.bin']


def test_cache_or_load_file_moves_the_file_under_the_create_lock(root):
    target = str(root / 'sub' / 'file.txt')
    os.makedirs(root)
    held = filelock.FileLock(str(root / '_create_lock'))
    results = []

    def creator(path):
        with open(path, 'w') as f:
            f.write('content')
        return 'created'

    with held:
        worker = threading.Thread(
            target=lambda: results.append(dataset.cache_or_load_file(target, creator, open)))
        worker.start()
        worker.join(0.5)
        assert worker.is_alive() and not os.path.exists(target)
    worker.join()
    assert results == ['created']
    with open(target) as f:
        assert f.read() == 'content'


def test_downloaded_file_is_fsynced_before_it_gets_its_name(root, server, monkeypatch):
    server.files['/f.bin'] = b'z' * 1234
    sizes = []
    real_fsync = os.fsync

    def recording_fsync(fd):
        sizes.append(os.fstat(fd).st_size)
        real_fsync(fd)

    monkeypatch.setattr(os, 'fsync', recording_fsync)
    path = dataset.cached_download(server.url + '/f.bin')
    assert os.path.getsize(path) == 1234 and 1234 in sizes


def test_a_truncated_download_leaves_nothing_under_the_final_name(root, monkeypatch):
    def fetch(url, dest):
        with open(dest, 'wb') as f:
            f.write(b'half')
        raise download.DownloadError('the server sent 4 of 8 bytes')

    monkeypatch.setattr(download, '_fetch', fetch)
    url = 'http://127.0.0.1:9/t.bin'
    with pytest.raises(download.DownloadError, match='4 of 8'):
        dataset.cached_download(url)
    assert not os.path.exists(_cache_path(root, url))
    assert os.listdir(root / '_dl_cache') == ['_dl_lock']
