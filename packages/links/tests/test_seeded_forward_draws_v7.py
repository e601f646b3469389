"""Links that draw in their forward pass draw as Chainer 7.8.1 under the same seed.

Each case seeds NumPy with 0, builds the link and runs it in training mode; the next
draw of NumPy's global stream, the sum and sum of squares of each output and the
sampled indices are compared with values recorded from Chainer 7.8.1
(``tools/compat/record_seeded.py``). Float outputs are compared to 1e-6 (their products
may be summed in another order); the draws themselves exactly.
"""

import numpy
import pytest

import chainer
import chainer.links as L


def _x(*shape):
    return numpy.random.RandomState(100).randn(*shape).astype(numpy.float32)


_T = numpy.array([0, 2, 1], numpy.int32)


def _negative_sampling():
    loss, samples = L.NegativeSampling(3, [3, 2, 1, 4], 2)(_x(3, 3), _T, reduce='no',
                                                          return_samples=True)
    return (loss,), samples


def _black_out():
    link = L.BlackOut(3, [3, 2, 1, 4], 2)
    drawn = []
    sample = link.sampler.sample
    link.sampler.sample = lambda shape: drawn.append(sample(shape)) or drawn[-1]
    loss = link(_x(3, 3), _T)
    # The loss itself is NaN for this tiny problem in both; the samples are compared.
    return (numpy.isnan(loss.array),), drawn[0]


def _zoneout():
    link = L.StatefulZoneoutLSTM(3, 4)
    return (link(_x(2, 3)), link(_x(2, 3) + 1)), None


def _n_step(name, lstm=False):
    def run():
        link = getattr(L, name)(2, 3, 4, 0.5)
        xs = [_x(3, 3), _x(2, 3)[::-1].copy()]
        out = link(None, None, xs) if lstm else link(None, xs)
        return tuple(out[:-1]) + tuple(out[-1]), None
    return run


CASES = {
    'NegativeSampling': _negative_sampling,
    'BlackOut': _black_out,
    'SimplifiedDropconnect': lambda: ((L.SimplifiedDropconnect(3, 4)(_x(2, 3)),), None),
    'StatefulZoneoutLSTM': _zoneout,
    'NStepLSTM': _n_step('NStepLSTM', True),
    'NStepBiLSTM': _n_step('NStepBiLSTM', True),
    'NStepGRU': _n_step('NStepGRU'),
    'NStepBiGRU': _n_step('NStepBiGRU'),
    'NStepRNNTanh': _n_step('NStepRNNTanh'),
    'NStepBiRNNReLU': _n_step('NStepBiRNNReLU'),
}
NAMES = sorted(CASES)


def summarize(name):
    """``(next draw, [(sum, sum of squares) per output], sampled indices or None)``."""
    numpy.random.seed(0)
    with chainer.using_config('train', True):
        ys, samples = CASES[name]()
    stats = []
    for y in ys:
        f = numpy.asarray(getattr(y, 'array', y), numpy.float64)
        stats.append((float(f'{f.sum():.9g}'), float(f'{(f * f).sum():.9g}')))
    samples = None if samples is None else numpy.asarray(samples).tolist()
    return int(numpy.random.randint(2 ** 31)), stats, samples


# Recorded with Chainer 7.8.1 (tools/compat/record_seeded.py).
RECORDED = {
    'BlackOut': (1879422756, [(1.0, 1.0)], [[0, 3], [0, 0], [1, 0]]),
    'NStepBiGRU': (1384726384, [
        (1.29980361, 4.40852346),
        (-1.84023184, 1.54517441),
        (-0.395889323, 1.14109507),
    ], None),
    'NStepBiLSTM': (977306906, [
        (0.8257868, 0.695496933),
        (1.89193748, 2.66688898),
        (-0.204902037, 0.0473496255),
        (0.365580903, 0.0928364008),
    ], None),
    'NStepBiRNNReLU': (1895702808, [
        (6.58645955, 6.3457591),
        (8.75304115, 9.84668701),
        (2.51215413, 1.22471284),
    ], None),
    'NStepGRU': (1733963078, [
        (-0.0522461999, 2.93674889),
        (0.140873529, 0.773127593),
        (-0.506823727, 0.479074403),
    ], None),
    'NStepLSTM': (1592800648, [
        (0.587047667, 0.245723228),
        (1.25815785, 1.14875512),
        (0.0630515842, 0.0128612794),
        (0.178022693, 0.0536094004),
    ], None),
    'NStepRNNTanh': (1412786664, [
        (-2.57740186, 6.87869594),
        (0.789666981, 0.987474068),
        (0.377329275, 4.23222557),
    ], None),
    'NegativeSampling': (1646868794, [
        (6.23832464, 12.9722314),
    ], [[0, 3, 0], [2, 1, 0], [1, 3, 3]]),
    'SimplifiedDropconnect': (481447462, [(-3.22856028, 21.9274972)], None),
    'StatefulZoneoutLSTM': (90351522, [
        (-0.735427707, 0.380433911),
        (-0.283281804, 0.370423218),
    ], None),
}


@pytest.mark.parametrize('name', NAMES)
def test_seeded_forward_draws_match_chainer_v7(name):
    draw, stats, samples = summarize(name)
    expected_draw, expected_stats, expected_samples = RECORDED[name]
    assert draw == expected_draw
    numpy.testing.assert_allclose(stats, expected_stats, rtol=1e-6, atol=1e-6)
    assert samples == expected_samples
