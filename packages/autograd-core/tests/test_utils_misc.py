"""chainer.utils: experimental, conv sizes, final, nondeterministic, tempdir; runtime info."""

import io
import os
import warnings

import pytest

import chainer
from chainer import testing, utils


def test_experimental_warns_and_can_be_disabled(monkeypatch):
    with testing.assert_warns(FutureWarning) as caught:
        utils.experimental('chainer.foo.bar')
    assert any('chainer.foo.bar is experimental' in str(w.message) for w in caught)
    monkeypatch.setattr(chainer, 'disable_experimental_feature_warning', True)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        utils.experimental('chainer.foo.bar')


@pytest.mark.parametrize('size, k, s, p, cover_all, d, expected', [
    (5, 3, 1, 0, False, 1, 3), (5, 3, 1, 1, False, 1, 5), (6, 3, 2, 0, False, 1, 2),
    (6, 3, 2, 0, True, 1, 3), (7, 3, 1, 0, False, 2, 3), (10, 4, 3, 1, True, 1, 4),
])
def test_get_conv_outsize(size, k, s, p, cover_all, d, expected):
    assert utils.get_conv_outsize(size, k, s, p, cover_all=cover_all, d=d) == expected


@pytest.mark.parametrize('size, k, s, p, d', [(3, 3, 1, 0, 1), (4, 3, 2, 1, 1),
                                              (3, 3, 2, 0, 2), (5, 2, 3, 0, 1)])
def test_deconv_inverts_conv(size, k, s, p, d):
    out = utils.get_deconv_outsize(size, k, s, p, d=d)
    assert utils.get_conv_outsize(out, k, s, p, d=d) == size
    out = utils.get_deconv_outsize(size, k, s, p, cover_all=True, d=d)
    assert utils.get_conv_outsize(out, k, s, p, cover_all=True, d=d) == size


def test_final_methods():
    Base = utils.enable_final()

    class A(Base):
        @utils.final
        def f(self):
            return 1

        @utils.final(action=DeprecationWarning)
        def g(self):
            return 2

        def h(self):
            return 3

    class B(A):
        def h(self):
            return 4
    assert B().h() == 4 and B().f() == 1

    with pytest.raises(TypeError, match='final method A.f'):
        class C(A):
            def f(self):
                return 5

    with testing.assert_warns(DeprecationWarning):
        class D(A):
            def g(self):
                return 6

    with pytest.raises(TypeError):
        utils.final(1, 2)


def test_enable_final_with_bases():
    import abc

    class Abstract(abc.ABC):
        @abc.abstractmethod
        def run(self):
            pass

    Base = utils.enable_final(base=Abstract, meta_base=abc.ABCMeta)
    assert issubclass(Base, Abstract) and isinstance(Base, abc.ABCMeta)


def test_nondeterministic_warns_only_when_asked():
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        with chainer.using_config('warn_nondeterministic', False):
            utils.nondeterministic('f')
    with chainer.using_config('warn_nondeterministic', True), \
            testing.assert_warns(UserWarning) as caught:
        utils.nondeterministic('my_function')
    assert 'my_function' in str(caught[0].message)


def test_tempdir():
    with utils.tempdir(prefix='chainer-test-') as path:
        assert os.path.isdir(path) and os.path.basename(path).startswith('chainer-test-')
        with open(os.path.join(path, 'f'), 'w') as f:
            f.write('x')
    assert not os.path.exists(path)


def test_print_runtime_info():
    from chainer._runtime_info import print_runtime_info
    out = io.StringIO()
    print_runtime_info(out)
    text = out.getvalue()
    for key in ('Platform:', 'Chainer: ', 'NumPy: ', 'CuPy', 'iDeep: Not Available',
                'ChainerX: ', 'chainer-autograd-core'):
        assert key in text
    try:
        import chainerx  # noqa: F401
    except ImportError:  # the package's own env: chainerx is an optional distribution
        assert 'ChainerX: Not Available' in text
    else:
        assert 'ChainerX: Available' in text


def test_chainer_warnings():
    from chainer import warnings as chainer_warnings
    assert issubclass(chainer_warnings.PerformanceWarning, RuntimeWarning)
