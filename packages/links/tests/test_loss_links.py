"""BinaryHierarchicalSoftmax, BlackOut, CRF1d and NegativeSampling."""

import itertools

import numpy
import pytest
from _refs import check_file_round_trips, check_link_contract, softplus

import chainer
import chainer.links as L
from chainer import gradient_check
from chainer.links.loss.hierarchical_softmax import TreeParser


def _uniform(*shape, dtype=numpy.float32):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


TREE = ((0, 1), ((2, 3), 4))


def _hsm_ref(W, x, t):
    # paths in pre-order numbering: node 0 root, 1 = (0, 1), 2 = ((2, 3), 4), 3 = (2, 3)
    paths = {0: [(0, 1), (1, 1)], 1: [(0, 1), (1, -1)], 2: [(0, -1), (2, 1), (3, 1)],
             3: [(0, -1), (2, 1), (3, -1)], 4: [(0, -1), (2, -1)]}
    return sum(softplus(-code * W[node].astype('d') @ xi.astype('d'))
               for xi, ti in zip(x, t) for node, code in paths[int(ti)])


def test_tree_parser_numbers_internal_nodes_in_preorder():
    parser = TreeParser(TREE)
    assert parser.size() == 4
    assert parser.get_paths() == {0: [0, 1], 1: [0, 1], 2: [0, 2, 3], 3: [0, 2, 3], 4: [0, 2]}
    assert parser.get_codes()[4] == [-1.0, -1.0]
    for bad in [5, (1, 2, 3), ((0, 1), 0), ((0, 'a'), 1), ((0, -1), 1)]:
        with pytest.raises(ValueError):
            TreeParser(bad)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_hierarchical_softmax_forward_backward_and_normalization(dtype):
    with chainer.using_config('dtype', dtype):
        link = L.BinaryHierarchicalSoftmax(3, TREE)
    assert link.W.shape == (4, 3) and link.W.dtype == dtype
    assert numpy.abs(link.W.array).max() <= 1
    x = _uniform(4, 3, dtype=dtype)
    t = numpy.array([0, 4, 2, 3], numpy.int32)
    loss = link(x, t)
    assert loss.shape == () and loss.dtype == dtype
    tol = 1e-2 if dtype == numpy.float16 else 1e-5
    numpy.testing.assert_allclose(loss.array, _hsm_ref(link.W.array, x, t), rtol=tol)
    # the probabilities of the five words sum to one
    total = sum(numpy.exp(-float(link(x[:1], numpy.array([w], 'i')).array)) for w in range(5))
    assert abs(total - 1) < (1e-2 if dtype == numpy.float16 else 1e-5)
    if dtype == numpy.float64:
        gradient_check.check_backward(lambda x_: link(x_, t), x, numpy.array(1.3),
                                      params=link.W, atol=1e-5, rtol=1e-5)


def test_hierarchical_softmax_bad_ids_and_device_tables():
    link = L.BinaryHierarchicalSoftmax(3, TREE)
    with pytest.raises(ValueError, match='leaves'):
        link(_uniform(1, 3), numpy.array([5], 'i'))
    with pytest.raises(ValueError, match='batch'):
        link(_uniform(2, 3), numpy.array([1], 'i'))
    f = link._func
    numpy.testing.assert_array_equal(f.begins, [0, 2, 4, 7, 10, 12])
    numpy.testing.assert_array_equal(f.paths, [0, 1, 0, 1, 0, 2, 3, 0, 2, 3, 0, 2])
    link.to_device('@numpy')
    assert isinstance(link._func.codes, numpy.ndarray)


def test_huffman_tree():
    tree = L.BinaryHierarchicalSoftmax.create_huffman_tree(
        {'x': 8, 'y': 6, 'z': 5, 'w': 4, 'v': 3})
    assert tree == (('z', 'y'), (('v', 'w'), 'x'))
    assert L.BinaryHierarchicalSoftmax.create_huffman_tree({'a': 3}) == 'a'
    with pytest.raises(ValueError):
        L.BinaryHierarchicalSoftmax.create_huffman_tree({})
    ids = L.BinaryHierarchicalSoftmax.create_huffman_tree({i: i + 1 for i in range(6)})
    link = L.BinaryHierarchicalSoftmax(2, ids)
    assert link.W.shape == (5, 2)


def test_black_out_against_numpy():
    link = L.BlackOut(3, [3, 2, 1, 4], 5)
    assert numpy.isnan(link.W.array).all()  # v7: set it before use
    link.W.array[...] = _uniform(4, 3)
    x = _uniform(2, 3)
    t = numpy.array([1, 3], numpy.int32)
    link.sample_data = numpy.array([[0, 2, 3, 0, 1], [1, 1, 2, 0, 2]], numpy.int32)
    loss = link(x, t)
    W = link.W.array.astype('d')
    expected = 0
    for b in range(2):
        scores = W[link.sample_data[b]] @ x[b]
        y0 = W[t[b]] @ x[b]
        z = numpy.exp(scores).sum() + numpy.exp(y0)
        expected += y0 - numpy.log(z) + numpy.log(1 - numpy.exp(scores) / z).sum()
    numpy.testing.assert_allclose(loss.array, -expected / 2, rtol=1e-5)
    link.sample_data = None
    samples = link.sampler.sample((1000,))
    counts = numpy.bincount(samples, minlength=4) / 1000
    numpy.testing.assert_allclose(counts, [0.3, 0.2, 0.1, 0.4], atol=0.06)


@pytest.mark.parametrize('reduce', ['sum', 'no'])
def test_negative_sampling_against_numpy(reduce):
    link = L.NegativeSampling(3, [10, 5, 2, 5, 2], 2)
    assert not link.W.array.any()
    link.W.array[...] = _uniform(5, 3)
    x = _uniform(3, 3)
    t = numpy.array([0, -1, 4], numpy.int32)
    loss, samples = link(x, t, reduce=reduce, return_samples=True)
    assert samples.shape == (3, 3) and (samples[[0, 2], 0] == t[[0, 2]]).all()
    W = link.W.array.astype('d')
    per = numpy.array([0 if t[i] < 0 else softplus(-W[samples[i, 0]] @ x[i])
                       + softplus(W[samples[i, 1:]] @ x[i]).sum() for i in range(3)])
    numpy.testing.assert_allclose(loss.array, per.sum() if reduce == 'sum' else per, rtol=1e-5)


def test_negative_sampling_power_and_dtype():
    link = L.NegativeSampling(3, [1, 16], 4, power=0.5, dtype=numpy.float64)
    assert link.W.dtype == numpy.float64
    counts = numpy.bincount(link.sampler.sample((4000,)), minlength=2) / 4000
    numpy.testing.assert_allclose(counts, [0.2, 0.8], atol=0.04)  # 1 : 4 after the power


def _crf_ref(cost, xs, ys):
    """Brute force: -log p(ys) summed over the sequences (batch-major lists)."""
    total = 0
    def score(x, labels):
        return (sum(x[i, labels[i]] for i in range(len(labels)))
                + sum(cost[a, b] for a, b in zip(labels[:-1], labels[1:])))

    for x, y in zip(xs, ys):
        logz = numpy.logaddexp.reduce([score(x, p) for p in
                                       itertools.product(range(cost.shape[0]), repeat=len(y))])
        total += logz - score(x, y)
    return total / len(xs)


def test_crf1d_forward_transpose_and_argmax():
    link = L.CRF1d(3, initial_cost=chainer.initializers.Normal(1))
    lengths = [2, 4, 3]
    xs = [_uniform(n, 3) for n in lengths]
    ys = [numpy.random.randint(0, 3, n).astype(numpy.int32) for n in lengths]
    loss = link(xs, ys, transpose=True)
    numpy.testing.assert_allclose(loss.array, _crf_ref(link.cost.array, xs, ys), rtol=1e-5)
    per = link(xs, ys, reduce='no', transpose=True)
    for i in range(3):  # in the order of the given sequences
        numpy.testing.assert_allclose(per.array[i], _crf_ref(link.cost.array, [xs[i]], [ys[i]]),
                                      rtol=1e-5)
    score, path = link.argmax(xs, transpose=True)
    for i in range(3):
        best = max(itertools.product(range(3), repeat=lengths[i]),
                   key=lambda p: sum(xs[i][k, p[k]] for k in range(len(p)))
                   + sum(link.cost.array[a, b] for a, b in zip(p[:-1], p[1:])))
        numpy.testing.assert_array_equal(path[i], best)
        numpy.testing.assert_allclose(score.array[i],
                                      sum(xs[i][k, best[k]] for k in range(len(best)))
                                      + sum(link.cost.array[a, b]
                                            for a, b in zip(best[:-1], best[1:])), rtol=1e-5)
    # time-major input, as chainer.functions.crf1d takes it
    order = [1, 2, 0]
    tx = chainer.functions.transpose_sequence([xs[i] for i in order])
    ty = [y.array for y in chainer.functions.transpose_sequence([ys[i] for i in order])]
    numpy.testing.assert_allclose(link(tx, ty).array, loss.array, rtol=1e-6)
    tx64 = [x.array.astype('d') for x in tx]
    gradient_check.check_backward(lambda c: chainer.functions.crf1d(c, tx64, ty),
                                  link.cost.array.astype('d'), None, atol=1e-4, rtol=1e-4)


def test_crf1d_initial_cost_dtype():
    cost = numpy.arange(9, dtype=numpy.float64).reshape(3, 3)
    with chainer.using_config('dtype', numpy.float16):
        link = L.CRF1d(3, initial_cost=cost)
        assert link.cost.dtype == numpy.float16
    numpy.testing.assert_array_equal(link.cost.array, cost)
    assert not L.CRF1d(2).cost.array.any()


@pytest.mark.parametrize('make,inputs', [
    (lambda: L.BinaryHierarchicalSoftmax(3, TREE),
     lambda: (_uniform(2, 3), numpy.array([1, 4], 'i'))),
    (lambda: L.CRF1d(3),
     lambda: ([_uniform(2, 3), _uniform(1, 3)], [numpy.array([0, 2], 'i'),
                                                 numpy.array([1], 'i')])),
])
def test_contract(make, inputs, tmp_path):
    xs = inputs()
    check_link_contract(make, xs)
    check_file_round_trips(make, xs, tmp_path)


@pytest.mark.parametrize('make', [lambda: L.BlackOut(3, [1, 2, 3], 2),
                                  lambda: L.NegativeSampling(3, [1, 2, 3], 2)])
def test_sampling_links_state_and_devices(make, tmp_path):
    link = make()
    link.W.array[...] = _uniform(3, 3)
    other = make()
    other.copyparams(link)
    numpy.testing.assert_array_equal(other.W.array, link.W.array)
    link.to_device('@numpy')
    assert link.sampler.device == chainer.get_device('@numpy')
    copied = link.copy('copy')
    assert copied.sampler is not link.sampler
    numpy.testing.assert_array_equal(copied.sampler.values, link.sampler.values)
    serializers = pytest.importorskip('chainer.serializers')
    serializers.save_npz(str(tmp_path / 'l.npz'), link)
    loaded = make()
    serializers.load_npz(str(tmp_path / 'l.npz'), loaded)
    numpy.testing.assert_array_equal(loaded.W.array, link.W.array)
