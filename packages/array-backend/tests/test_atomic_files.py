"""chainer.backends.files: atomic writes (complete or unchanged, fsync-ed, safe in parallel)."""

import os
import stat
import subprocess
import sys
import threading

import pytest

from chainer.backends import files


def _names(folder):
    return sorted(os.listdir(folder))


def test_atomic_open_writes_the_whole_content(tmp_path):
    target = tmp_path / 'out.bin'
    data = bytes(range(256)) * 4096
    with files.atomic_open(target) as f:
        f.write(data)
        assert not target.exists()  # the final name appears only once complete
    assert target.read_bytes() == data
    assert _names(tmp_path) == ['out.bin']


def test_atomic_open_text_mode_and_folder_creation(tmp_path):
    target = tmp_path / 'a' / 'b' / 'log'
    with files.atomic_open(target, 'w', encoding='utf-8') as f:
        f.write('λ\n')
    assert target.read_text(encoding='utf-8') == 'λ\n'


def test_atomic_path_moves_what_a_saver_wrote(tmp_path):
    target = tmp_path / 'plot.png'
    with files.atomic_path(str(target)) as path:
        assert os.path.basename(path) == 'plot.png'  # the extension stays for savers
        assert os.path.dirname(os.path.dirname(path)) == str(tmp_path)
        with open(path, 'wb') as f:
            f.write(b'png')
    assert target.read_bytes() == b'png'
    assert _names(tmp_path) == ['plot.png']


@pytest.mark.parametrize('existing', [True, False])
def test_failure_inside_the_block_leaves_the_target_unchanged(tmp_path, existing):
    target = tmp_path / 'model.npz'
    if existing:
        target.write_bytes(b'old content')
    with pytest.raises(RuntimeError, match='midway'), files.atomic_open(target) as f:
        f.write(b'new content, half')
        f.flush()
        raise RuntimeError('failed midway')
    if existing:
        assert target.read_bytes() == b'old content'
        assert _names(tmp_path) == ['model.npz']
    else:
        assert _names(tmp_path) == []


def test_failure_of_a_path_saver_leaves_no_temporary_file(tmp_path):
    target = tmp_path / 'snapshot'
    target.write_bytes(b'previous')
    with pytest.raises(OSError, match='disk full'), files.atomic_path(target) as path:
        with open(path, 'wb') as f:
            f.write(b'partial')
        raise OSError('disk full')
    assert target.read_bytes() == b'previous'
    assert _names(tmp_path) == ['snapshot']


def test_nothing_written_is_an_error_and_keeps_the_target(tmp_path):
    target = tmp_path / 'x'
    target.write_bytes(b'kept')
    with pytest.raises(FileNotFoundError, match='nothing was written'), \
            files.atomic_path(target):
        pass
    assert target.read_bytes() == b'kept'
    assert _names(tmp_path) == ['x']


@pytest.mark.parametrize('writer', ['open', 'path'])
def test_fsync_is_called_on_the_file_and_the_folder(tmp_path, monkeypatch, writer):
    synced = []
    real_fsync = os.fsync

    def recording_fsync(fd):
        st = os.fstat(fd)
        synced.append(('dir' if stat.S_ISDIR(st.st_mode) else 'file', st.st_size))
        real_fsync(fd)

    monkeypatch.setattr(os, 'fsync', recording_fsync)
    target = tmp_path / 'state'
    if writer == 'open':
        with files.atomic_open(target) as f:
            f.write(b'12345')
    else:
        with files.atomic_path(target) as path, open(path, 'wb') as f:
            f.write(b'12345')
    assert ('file', 5) in synced  # the complete data reached the disk before the rename
    assert synced.index(('file', 5)) == 0
    if os.name == 'posix':
        assert synced[-1][0] == 'dir'  # then the folder holding the new name


def test_concurrent_writers_never_show_a_partial_file(tmp_path):
    target = tmp_path / 'shared.bin'
    size = 1 << 18
    with files.atomic_open(target) as f:
        f.write(b'\0' * size)
    errors = []
    stop = threading.Event()

    def write(k):
        try:
            for _ in range(15):
                with files.atomic_open(target) as f:
                    for _ in range(4):
                        f.write(bytes([k]) * (size // 4))
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    def read():
        while not stop.is_set():
            data = target.read_bytes()
            if len(data) != size or data.count(data[:1]) != size:
                errors.append(AssertionError(f'partial or mixed file ({len(data)} bytes)'))
                return

    reader = threading.Thread(target=read)
    reader.start()
    writers = [threading.Thread(target=write, args=(k,)) for k in range(1, 5)]
    for t in writers:
        t.start()
    for t in writers:
        t.join()
    stop.set()
    reader.join()
    assert errors == []
    data = target.read_bytes()
    assert len(data) == size and data[0] in (1, 2, 3, 4) and data.count(data[:1]) == size
    assert _names(tmp_path) == ['shared.bin']


def test_overwrite_false_keeps_the_first_file(tmp_path):
    target = tmp_path / 'cache'
    with files.atomic_open(target, overwrite=False) as f:
        f.write(b'first')
    with files.atomic_open(target, overwrite=False) as f:
        f.write(b'second')
    assert target.read_bytes() == b'first'
    assert _names(tmp_path) == ['cache']


@pytest.mark.parametrize('mode', ['r', 'rb', 'a', 'ab', 'r+b', 'x'])
def test_atomic_open_refuses_modes_that_do_not_write_a_new_file(tmp_path, mode):
    with pytest.raises(ValueError, match='mode'), files.atomic_open(tmp_path / 'f', mode):
        pass
    assert _names(tmp_path) == []


def test_a_folder_path_is_refused(tmp_path):
    with pytest.raises(ValueError, match='folder'), files.atomic_path(str(tmp_path) + os.sep):
        pass


def _dead_pid():
    proc = subprocess.Popen([sys.executable, '-c', 'pass'])
    proc.wait()
    return proc.pid


@pytest.mark.skipif(os.name != 'posix', reason='liveness of a process is checked on POSIX')
def test_remove_stale_removes_leftovers_of_dead_processes_of_this_host_only(tmp_path):
    dead = files.temp_prefix('a', _dead_pid()) + 'x1'
    mine = files.temp_prefix('b') + 'x2'
    elsewhere = f'tmpc.ctmp-otherhost-{_dead_pid()}-x3'
    foreign = 'tmpd_not_ours'
    for name in (dead, mine, elsewhere, foreign):
        (tmp_path / name).mkdir()
        (tmp_path / name / 'file').write_bytes(b'half')
    assert files.remove_stale(tmp_path) == [dead]
    assert _names(tmp_path) == sorted([mine, elsewhere, foreign])
    assert files.remove_stale(tmp_path / 'missing') == []


@pytest.mark.skipif(os.name != 'posix', reason='liveness of a process is checked on POSIX')
def test_a_writer_killed_midway_leaves_only_a_temporary_folder(tmp_path):
    code = (
        'import os\n'
        'from chainer.backends import files\n'
        f'with files.atomic_open({str(tmp_path / "t")!r}) as f:\n'
        '    f.write(b"partial")\n'
        '    f.flush()\n'
        '    os._exit(0)\n'
    )
    subprocess.run([sys.executable, '-c', code], check=True)
    names = _names(tmp_path)
    assert 't' not in names and len(names) == 1 and '.ctmp-' in names[0]
    assert files.remove_stale(tmp_path) == names
    assert _names(tmp_path) == []


def test_a_write_nested_in_another_writes_in_place_and_renames_once(tmp_path, monkeypatch):
    renames = []
    real_replace = os.replace

    def recording_replace(src, dst):
        renames.append(os.path.basename(dst))
        real_replace(src, dst)

    monkeypatch.setattr(os, 'replace', recording_replace)
    target = tmp_path / 'snapshot'
    with files.atomic_path(target) as outer:
        with files.atomic_open(outer) as f:  # e.g. save_npz called by a snapshot writer
            f.write(b'data')
        assert os.listdir(os.path.dirname(outer)) == ['snapshot']
    assert target.read_bytes() == b'data' and renames == ['snapshot']
    assert _names(tmp_path) == ['snapshot']


def test_a_failed_nested_write_leaves_nothing_to_commit(tmp_path):
    target = tmp_path / 'snapshot'
    target.write_bytes(b'old')

    def failing_inner_write(path):
        with pytest.raises(RuntimeError), files.atomic_open(path) as f:
            f.write(b'half')
            raise RuntimeError('inner failure, caught')

    with pytest.raises(FileNotFoundError, match='nothing was written'), \
            files.atomic_path(target) as outer:
        failing_inner_write(outer)
    assert target.read_bytes() == b'old'
    assert _names(tmp_path) == ['snapshot']
