"""Loading damaged or hostile files: a clean error and an untouched target, or a correct load.

For a small model (a Chain with a Linear and a child link with a persistent) and for an
Adam optimizer's state, saved as NPZ and HDF5, hundreds of damaged variants
(``_damage``) are loaded into targets in several states (initialized or lazy model,
optimizer with or without state). Each load must either

- raise ``KeyError``, ``ValueError`` (``InvalidFileError`` included) or ``TypeError``
  whose message names the file (and the damaged entry by its full key, where there
  is one), leaving the target exactly as before; or
- succeed, the target then holding exactly what the file says;

and no code from a file may run. The counts are printed (``pytest -s``).
"""

import collections
import io

import numpy
import pytest
from _damage import MARKER_ENV, byte_variants, file_level_variants, hdf5_variants, npz_variants

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import optimizers, serializers
from chainer.serializers import npz as npz_module

h5py = pytest.importorskip('h5py')

COUNTS = collections.Counter()
INT_KEYS = {'t', 'epoch', 'head/count', 'l/W/t', 'l/b/t', 'head/b/t'}
# The optimizer's entries damaged one by one: its own counters, one parameter's whole
# state and one more state array (the others are alike).
OPTIMIZER_KEYS = ('t', 'epoch', 'l/W/t', 'l/W/m', 'l/W/v', 'head/b/v')


class Head(chainer.Link):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.b = chainer.Parameter(numpy.zeros(4, numpy.float32))
        self.add_persistent('count', 0)
        self.add_persistent('mean', numpy.zeros(4, numpy.float32))


class Net(chainer.Chain):
    def __init__(self, lazy=False):
        super().__init__()
        with self.init_scope():
            self.l = L.Linear(None if lazy else 3, 4)
            self.head = Head()

    def forward(self, x):
        return F.sum(F.tanh(self.l(x)) * self.head.b) + F.sum(self.head.b ** 2)


def _x():
    return numpy.random.RandomState(3).randn(5, 3).astype(numpy.float32)


def _trained(seed, steps):
    numpy.random.seed(seed)
    net = Net()
    net.head.b.array[...] = numpy.random.randn(4)
    opt = optimizers.Adam(alpha=0.1).setup(net)
    for _ in range(steps):
        opt.update(net, _x())
    net.head.count = 7 + seed
    net.head.mean[...] = numpy.arange(4) + seed
    return net, opt


def make_target(kind):
    if kind == 'model':
        return _trained(2, 1)[0]
    if kind == 'lazy model':
        return Net(lazy=True)
    if kind == 'optimizer':
        return _trained(2, 1)[1]
    net = _trained(2, 0)[0]
    return optimizers.Adam().setup(net)  # 'fresh optimizer': no state yet


def source(kind):
    net, opt = _trained(1, 3)
    return net if 'model' in kind else opt


def fingerprint(obj):
    """Everything ``obj`` saves, as ``key -> array`` (its own definition of its state)."""
    return {k: numpy.array(v, copy=True) for k, v in npz_module.serialize(obj).items()}


def same_arrays(a, b):
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype.hasobject:
        return all(x is y or x == y for x, y in zip(a.ravel(), b.ravel()))
    return a.tobytes() == b.tobytes()


def identities(obj):
    link = obj if isinstance(obj, chainer.Link) else obj.target
    ids = [id(p.array) for p in link.params()]
    ids += [id(getattr(sub, name)) for sub in link.links() for name in sub._persistent]
    if not isinstance(obj, chainer.Link):
        for p in link.params():
            state = p.update_rule.state
            ids.append(None if state is None else sorted((k, id(v)) for k, v in state.items()))
    return ids


def read_file(fmt, data, key):
    if fmt == 'npz':
        with numpy.load(io.BytesIO(data), allow_pickle=False) as f:
            return f[key]
    with h5py.File(io.BytesIO(data), 'r') as f:
        d = f['/' + key]
        if h5py.check_string_dtype(d.dtype) is not None:
            return numpy.asarray(d.asstr()[()])
        return numpy.asarray(d[()])


def check_variant(fmt, kind, label, bad_key, data, tmp_path):
    """Load one variant; returns the outcome counted in COUNTS."""
    target = make_target(kind)
    before = fingerprint(target)
    ids = identities(target)
    path = tmp_path / f'damaged.{fmt}'
    path.write_bytes(data)
    load = serializers.load_npz if fmt == 'npz' else serializers.load_hdf5
    COUNTS['tried'] += 1
    try:
        load(str(path), target)
    except (KeyError, ValueError, TypeError) as e:
        message = str(e)
        assert str(path) in message, f'{fmt} {kind} {label}: {message!r} does not name the file'
        if bad_key is not None:
            assert repr(bad_key) in message, (
                f'{fmt} {kind} {label}: {message!r} does not name {bad_key!r}')
        after = fingerprint(target)
        unchanged = (after.keys() == before.keys()
                     and all(same_arrays(after[k], before[k]) for k in before)
                     and identities(target) == ids)
        if not unchanged:
            COUNTS['partial loads'] += 1
            raise AssertionError(f'{fmt} {kind} {label}: {message} (target changed)') from e
        COUNTS['clean errors'] += 1
        return 'error'
    except Exception as e:
        COUNTS['unclean errors'] += 1
        raise AssertionError(f'{fmt} {kind} {label}: unclean {type(e).__name__}: {e}') from e
    after = fingerprint(target)
    for key, value in after.items():
        stored = read_file(fmt, data, key)
        expected = stored.astype(value.dtype) if stored.dtype.kind in 'biufc' else stored
        if not same_arrays(value.reshape(expected.shape) if value.size == expected.size
                           else value, expected):
            COUNTS['partial loads'] += 1
            raise AssertionError(f'{fmt} {kind} {label}: loaded {key} differs from the file')
    COUNTS['successful loads'] += 1
    return 'loaded'


def _saved(fmt, kind, tmp_path):
    obj = source(kind)
    path = tmp_path / f'source.{fmt}'
    (serializers.save_npz if fmt == 'npz' else serializers.save_hdf5)(str(path), obj)
    return path.read_bytes(), npz_module.serialize(obj)


KINDS = ['model', 'lazy model', 'optimizer', 'fresh optimizer']


@pytest.fixture
def marker(tmp_path, monkeypatch):
    path = tmp_path / 'code-ran'
    monkeypatch.setenv(MARKER_ENV, str(path))
    yield path
    if path.exists():
        COUNTS['code executions'] += 1
    assert not path.exists(), 'code from a file ran while loading it'


@pytest.mark.parametrize('kind', ['model', 'optimizer'])
@pytest.mark.parametrize('fmt', ['npz', 'hdf5'])
def test_damaged_bytes(fmt, kind, tmp_path, marker):
    data, _ = _saved(fmt, kind, tmp_path)
    variants = byte_variants(data, count=24, seed=len(kind)) + file_level_variants()
    outcomes = collections.Counter(
        check_variant(fmt, kind, label, key, bad, tmp_path) for label, key, bad in variants)
    assert outcomes['error'] >= len(variants) // 2


@pytest.mark.parametrize('kind', KINDS)
@pytest.mark.parametrize('fmt', ['npz', 'hdf5'])
def test_damaged_entries(fmt, kind, tmp_path, marker):
    _, entries = _saved(fmt, kind, tmp_path)
    entries = {k: numpy.asarray(v) for k, v in entries.items()}
    damaged = OPTIMIZER_KEYS if 'optimizer' in kind else tuple(entries)
    if fmt == 'npz':
        variants = npz_variants(entries, INT_KEYS, damaged)
    else:
        variants = hdf5_variants(entries, INT_KEYS, damaged, tmp_path)
    for label, key, data, loads in variants:
        outcome = check_variant(fmt, kind, label, key, data, tmp_path)
        if kind != 'lazy model':  # a lazy parameter takes any numeric shape it is given
            assert outcome == ('loaded' if loads else 'error'), f'{fmt} {kind} {label}'


def test_report_counts():
    """Print the totals of the tests above (run them in the same session)."""
    if not COUNTS['tried']:
        pytest.skip('run with the damaged-file tests')
    print('\ndamaged files:', dict(COUNTS))
    assert COUNTS['tried'] >= 200
    assert COUNTS['partial loads'] == 0
    assert COUNTS['unclean errors'] == 0
    assert COUNTS['code executions'] == 0
    assert COUNTS['clean errors'] + COUNTS['successful loads'] == COUNTS['tried']
