"""NumPy references and shared checks for the link tests."""

import copy
import itertools
import pickle

import numpy

import chainer


def conv_ref(x, W, b=None, stride=1, pad=0, dilate=1, groups=1):
    """N-d convolution by direct summation over the kernel offsets (float64)."""
    x = numpy.asarray(x, numpy.float64)
    W = numpy.asarray(W, numpy.float64)
    nd = x.ndim - 2
    stride, pad, dilate = ((v,) * nd if numpy.isscalar(v) else tuple(v)
                           for v in (stride, pad, dilate))
    xp = numpy.pad(x, [(0, 0), (0, 0)] + [(p, p) for p in pad])
    k = W.shape[2:]
    out = [(xp.shape[2 + i] - dilate[i] * (k[i] - 1) - 1) // stride[i] + 1 for i in range(nd)]
    n, c_in = x.shape[:2]
    c_out = W.shape[0]
    cg, og = c_in // groups, c_out // groups
    y = numpy.zeros((n, c_out) + tuple(out))
    for g in range(groups):
        xs = xp[:, g * cg:(g + 1) * cg]
        ws = W[g * og:(g + 1) * og]
        for offs in itertools.product(*[range(kk) for kk in k]):
            sl = tuple(slice(offs[i] * dilate[i], offs[i] * dilate[i] + stride[i] * out[i],
                             stride[i]) for i in range(nd))
            patch = xs[(slice(None), slice(None)) + sl]
            y[:, g * og:(g + 1) * og] += numpy.einsum(
                'nc...,oc->no...', patch, ws[(slice(None), slice(None)) + offs])
    if b is not None:
        y += numpy.asarray(b, numpy.float64).reshape((1, -1) + (1,) * nd)
    return y


def deconv_ref(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1, groups=1):
    """N-d transposed convolution by scattering each input element (float64)."""
    x = numpy.asarray(x, numpy.float64)
    W = numpy.asarray(W, numpy.float64)
    nd = x.ndim - 2
    stride, pad, dilate = ((v,) * nd if numpy.isscalar(v) else tuple(v)
                           for v in (stride, pad, dilate))
    k = W.shape[2:]
    n, c_in = x.shape[:2]
    og = W.shape[1]
    c_out = og * groups
    cg = c_in // groups
    full = [stride[i] * (x.shape[2 + i] - 1) + dilate[i] * (k[i] - 1) + 1 for i in range(nd)]
    if outsize is not None:
        full = [max(full[i], outsize[i] + 2 * pad[i]) for i in range(nd)]
    y = numpy.zeros((n, c_out) + tuple(full))
    for g in range(groups):
        xs = x[:, g * cg:(g + 1) * cg]
        ws = W[g * cg:(g + 1) * cg]
        for offs in itertools.product(*[range(kk) for kk in k]):
            sl = tuple(slice(offs[i] * dilate[i], offs[i] * dilate[i]
                             + stride[i] * (x.shape[2 + i] - 1) + 1, stride[i])
                       for i in range(nd))
            y[(slice(None), slice(g * og, (g + 1) * og)) + sl] += numpy.einsum(
                'nc...,co->no...', xs, ws[(slice(None), slice(None)) + offs])
    crop = tuple(slice(pad[i], full[i] - pad[i]) for i in range(nd))
    y = y[(slice(None), slice(None)) + crop]
    if outsize is not None:
        y = y[(slice(None), slice(None)) + tuple(slice(0, o) for o in outsize)]
    if b is not None:
        y += numpy.asarray(b, numpy.float64).reshape((1, -1) + (1,) * nd)
    return y


def sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def softplus(x):
    return numpy.logaddexp(0, x)


class DictSerializer(chainer.Serializer):
    """Saves into a flat dict of copies (the Serializer protocol, without files)."""

    def __init__(self, target=None, path=''):
        self.target = {} if target is None else target
        self.path = path

    def __getitem__(self, key):
        return DictSerializer(self.target, self.path + key + '/')

    def __call__(self, key, value):
        self.target[self.path + key] = None if value is None else numpy.array(value)
        return value


class DictDeserializer(chainer.Deserializer):
    """Loads from a flat dict (strict: a missing key is an error)."""

    def __init__(self, source, path=''):
        self.source = source
        self.path = path

    def __getitem__(self, key):
        return DictDeserializer(self.source, self.path + key + '/')

    def __call__(self, key, value):
        data = self.source[self.path + key]
        if value is None:
            return data
        if isinstance(value, numpy.ndarray):
            numpy.copyto(value, data)
            return value
        return type(value)(data) if numpy.isscalar(value) else data


def state_of(link):
    """Every parameter and persistent value of ``link`` by path (copies)."""
    saver = DictSerializer()
    link.serialize(saver)
    return saver.target


def assert_same_state(a, b):
    sa, sb = state_of(a), state_of(b)
    assert sa.keys() == sb.keys()
    for key in sa:
        if sa[key] is None or sb[key] is None:
            assert sa[key] is None and sb[key] is None, key
        else:
            numpy.testing.assert_array_equal(sa[key], sb[key], err_msg=key)


def outputs(link, inputs, **kwargs):
    """The output arrays of ``link(*inputs)`` in test mode without a graph."""
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        ys = link(*inputs, **kwargs)
    ys = ys if isinstance(ys, (tuple, list)) else (ys,)
    return [numpy.asarray(getattr(y, 'array', y)) for y in ys]


def assert_same_outputs(a, b, inputs, **kwargs):
    for ya, yb in zip(outputs(a, inputs, **kwargs), outputs(b, inputs, **kwargs)):
        numpy.testing.assert_array_equal(ya, yb)


def check_link_contract(make, inputs, **kwargs):
    """Serialization, copies, gradients accumulation and devices of a link.

    ``make()`` builds a fresh link of the same structure (possibly with lazy sizes);
    ``inputs`` is one valid input tuple.
    """
    link = make()
    outputs(link, inputs, **kwargs)  # lazy sizes are fixed here
    # serialization through the Serializer protocol, into a fresh lazy link
    fresh = make()
    fresh.serialize(DictDeserializer(state_of(link)))
    assert_same_state(link, fresh)
    assert_same_outputs(link, fresh, inputs, **kwargs)
    # pickle and deepcopy
    for other in (pickle.loads(pickle.dumps(link)), copy.deepcopy(link), link.copy('copy')):
        assert_same_state(link, other)
        assert_same_outputs(link, other, inputs, **kwargs)
    # share: same arrays; init: same shapes
    shared = link.copy('share')
    for (name, p), (_, q) in zip(sorted(link.namedparams()), sorted(shared.namedparams())):
        assert p is not q and p.array is q.array, name
    inited = link.copy('init')
    for (name, p), (_, q) in zip(sorted(link.namedparams()), sorted(inited.namedparams())):
        assert p.shape == q.shape and p.dtype == q.dtype, name
    # copyparams makes another initialized link compute the same
    target = make()
    outputs(target, inputs, **kwargs)
    target.copyparams(link)
    assert_same_outputs(link, target, inputs, **kwargs)
    # addgrads adds the gradients of a same-structured link
    a, b = link.copy('copy'), link.copy('copy')
    for p in a.params():
        p.grad = numpy.ones_like(p.array)
    for p in b.params():
        p.grad = numpy.full_like(p.array, 2)
    a.addgrads(b)
    for name, p in a.namedparams():
        numpy.testing.assert_array_equal(p.grad, numpy.full_like(p.array, 3), err_msg=name)
    # to_device on the CPU keeps arrays and results
    arrays = [p.array for p in link.params()]
    assert link.to_device('@numpy') is link
    assert all(p.array is a for p, a in zip(link.params(), arrays))
    assert link.device == chainer.get_device('@numpy')


def check_file_round_trips(make, inputs, tmp_path, **kwargs):
    """npz and hdf5 round trips through chainer.serializers (skipped when absent)."""
    import pytest

    serializers = pytest.importorskip('chainer.serializers')
    link = make()
    outputs(link, inputs, **kwargs)
    formats = [('npz', serializers.save_npz, serializers.load_npz)]
    try:
        import h5py  # noqa: F401
        formats.append(('h5', serializers.save_hdf5, serializers.load_hdf5))
    except ImportError:
        pass
    for ext, save, load in formats:
        path = str(tmp_path / f'link.{ext}')
        save(path, link)
        other = make()
        load(path, other)
        assert_same_state(link, other)
        assert_same_outputs(link, other, inputs, **kwargs)
