"""Damaged variants of saved files, and the checks of loading them.

``byte_variants`` cuts and flips the bytes of a file; ``npz_variants`` and
``hdf5_variants`` rebuild a file from its entries with one entry missing, extra,
reshaped, mistyped (text, a group, complex numbers, floats for an integer), holding a
pickled object, or holding NaN. Each variant is ``(label, bad_key, data)`` where
``bad_key`` is the full key the error must name (None when any clean error will do,
e.g. a truncated file, or when the variant may load).

An :class:`Evil` object, once unpickled, writes a marker file: its absence after
loading proves that no code from the file ran.
"""

import io
import os
import pickle

import numpy

MARKER_ENV = 'CHAINER_TEST_DAMAGE_MARKER'


def _touch_marker():
    path = os.environ.get(MARKER_ENV)
    if path:
        with open(path, 'w') as f:
            f.write('code from a file ran')


class Evil:
    """Unpickling this object runs ``_touch_marker`` (code execution probe)."""

    def __reduce__(self):
        return (_touch_marker, ())


def evil_pickle():
    """A plain pickle file whose loading would run code."""
    return pickle.dumps(Evil())


def _offsets(n, count, rng):
    fixed = {0, 1, 2, 4, 8, 16, 32, n // 2, n - 1, n - 2, n - 4, n - 22, n - 23}
    spread = set(numpy.linspace(0, n - 1, count // 2).astype(int).tolist())
    spread |= set(rng.randint(0, n, size=count // 2).tolist())
    return sorted(o for o in fixed | spread if 0 <= o < n)


def byte_variants(data, count=30, seed=0):
    """Truncations and single-byte flips of ``data`` at about ``count`` offsets each."""
    rng = numpy.random.RandomState(seed)
    out = []
    for off in _offsets(len(data), count, rng):
        out.append((f'truncated at {off}', None, data[:off]))
    for off in _offsets(len(data), count, rng):
        flipped = bytearray(data)
        flipped[off] ^= 0xFF
        out.append((f'byte {off} flipped', None, bytes(flipped)))
    return out


def _entry_variants(entries, int_keys, damaged):
    """``(label, bad_key, new_entries, loads)`` for each damage of each damaged entry."""
    out = []
    for key in damaged:
        value = entries[key]
        shape = numpy.shape(value)
        rest = {k: v for k, v in entries.items() if k != key}
        out.append((f'{key} missing', key, rest, False))
        out.append((f'{key} reshaped', key,
                    {**rest, key: numpy.zeros(shape + (2,), numpy.float32)}, False))
        out.append((f'{key} is text', key, {**rest, key: numpy.asarray('oops')}, False))
        out.append((f'{key} is complex', key,
                    {**rest, key: numpy.zeros(shape, numpy.complex64)}, False))
        if key in int_keys:
            out.append((f'{key} is a float', key, {**rest, key: numpy.asarray(1.5)}, False))
        else:
            out.append((f'{key} holds NaN', None,
                        {**rest, key: numpy.full(shape, numpy.nan, numpy.float32)}, True))
    out.append(('an extra entry', None, {**entries, 'extra/entry': numpy.ones(3)}, True))
    return out


def npz_variants(entries, int_keys, damaged):
    """Rebuilt NPZ archives, the entries ``damaged`` damaged one at a time:
    ``(label, bad_key, data, loads)``."""
    out = []
    for label, key, new, loads in _entry_variants(entries, int_keys, damaged):
        buf = io.BytesIO()
        numpy.savez(buf, **new)
        out.append((label, key, buf.getvalue(), loads))
    for key in damaged:
        buf = io.BytesIO()
        bad = numpy.empty((), dtype=object)
        bad[()] = Evil()
        numpy.savez(buf, **{**entries, key: bad})
        out.append((f'{key} is a pickled object', key, buf.getvalue(), False))
    return out


def hdf5_variants(entries, int_keys, damaged, tmp_path):
    """Rebuilt HDF5 files, the entries ``damaged`` damaged one at a time:
    ``(label, bad_key, data, loads)`` (keys start with ``/``)."""
    import h5py

    def build(new, group_at=None, dataset_at=None):
        path = tmp_path / 'variant.h5'
        with h5py.File(path, 'w') as f:
            for k, v in new.items():
                if k == group_at:
                    f.create_group(k)
                elif isinstance(v, numpy.ndarray) and v.dtype.kind == 'U':
                    f.create_dataset(k, data=str(v), dtype=h5py.string_dtype())
                else:
                    f.create_dataset(k, data=v)
            if dataset_at is not None:
                f.create_dataset(dataset_at, data=numpy.zeros(3))
        data = path.read_bytes()
        path.unlink()
        return data

    out = []
    for label, key, new, loads in _entry_variants(entries, int_keys, damaged):
        out.append((label, key and '/' + key, build(new), loads))
    for key in damaged:
        out.append((f'{key} is a group', '/' + key, build(entries, group_at=key), False))
    groups = sorted({k.rsplit('/', 1)[0] for k in entries if '/' in k})
    for group in groups[:3]:
        kept = {k: v for k, v in entries.items() if not k.startswith(group + '/')}
        out.append((f'{group} is a dataset', '/' + group,
                    build(kept, dataset_at=group), False))
    return out


def file_level_variants():
    """Files that are not archives at all: ``(label, bad_key, data)``."""
    npy = io.BytesIO()
    numpy.save(npy, numpy.ones(3))
    return [('empty file', None, b''),
            ('a pickle of an object', None, evil_pickle()),
            ('a single .npy array', None, npy.getvalue()),
            ('text', None, b'hello, world\n' * 10)]
