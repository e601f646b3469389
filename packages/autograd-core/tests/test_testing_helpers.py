"""chainer.testing: fix_random, attr marks, assert_warns, with_requires, patch, matrices."""

import random
import unittest
import warnings

import numpy
import pytest

from chainer import testing
from chainer.testing import attr


def test_fix_random_function_seeds_and_restores(monkeypatch):
    monkeypatch.delenv('CHAINER_TEST_RANDOM_SEED', raising=False)

    @testing.fix_random()
    def draw():
        return numpy.random.uniform(size=3), random.random()

    numpy.random.seed(123)
    outside = numpy.random.uniform(size=3)
    numpy.random.seed(123)
    a = draw()
    after = numpy.random.uniform(size=3)
    b = draw()
    numpy.testing.assert_array_equal(a[0], b[0])
    assert a[1] == b[1]
    numpy.testing.assert_array_equal(after, outside)  # the outer state came back


def test_fix_random_seed_from_environment(monkeypatch):
    draw = testing.fix_random()(lambda: numpy.random.randint(1 << 30))
    monkeypatch.setenv('CHAINER_TEST_RANDOM_SEED', '1')
    one = draw()
    monkeypatch.setenv('CHAINER_TEST_RANDOM_SEED', '2')
    assert draw() != one
    monkeypatch.setenv('CHAINER_TEST_RANDOM_SEED', 'x')
    with pytest.raises(ValueError, match='CHAINER_TEST_RANDOM_SEED'):
        draw()


def test_fix_random_class():
    @testing.fix_random()
    class Seeded(unittest.TestCase):
        values = []

        def setUp(self):
            self.x = numpy.random.uniform()

        def test_a(self):
            self.values.append(self.x)

        def test_b(self):
            self.values.append(self.x)

    @testing.fix_random(setup_method='setup_method', teardown_method='teardown_method')
    class SeededPytestStyle:
        def setup_method(self, method):
            self.x = numpy.random.uniform()

    result = unittest.TestResult()
    unittest.TestLoader().loadTestsFromTestCase(Seeded).run(result)
    assert result.wasSuccessful()
    assert len(Seeded.values) == 2 and Seeded.values[0] == Seeded.values[1]

    state = numpy.random.get_state()
    obj = SeededPytestStyle()
    obj.setup_method(None)
    first = obj.x
    obj.teardown_method(None)
    assert numpy.random.get_state()[1].tolist() == state[1].tolist()
    obj.setup_method(None)
    assert obj.x == first
    obj.teardown_method(None)


def test_fix_random_over_a_parameterized_bundle():
    values = []

    @testing.fix_random()
    @testing.parameterize({'n': 1}, {'n': 2})
    class Seeded(unittest.TestCase):
        def setUp(self):
            self.x = numpy.random.uniform()

        def test_a(self):
            values.append(self.x)

    result = unittest.TestResult()
    for cls, _, _ in Seeded.cases:
        unittest.TestLoader().loadTestsFromTestCase(cls).run(result)
    assert result.wasSuccessful() and result.testsRun == 2
    assert values[0] == values[1]  # both classes draw from the same seed


def test_generate_seed_and_random_state():
    numpy.random.seed(5)
    s1 = testing.generate_seed()
    numpy.random.seed(5)
    assert testing.generate_seed() == s1
    assert isinstance(testing.get_random_state(), numpy.random.RandomState)


def test_attr_marks():
    @attr.gpu
    def g():
        pass

    @attr.slow
    def s():
        pass

    @attr.multi_gpu(2)
    def m():
        pass
    names = {mk.name for mk in g.pytestmark}
    assert 'gpu' in names
    assert [mk.name for mk in s.pytestmark] == ['slow']
    gpu_marks = [mk for mk in m.pytestmark if mk.name == 'gpu']
    assert gpu_marks[0].args == (2,)


@attr.gpu
def test_marked_gpu_is_skipped_without_cuda():
    from chainer.backends import cuda
    assert cuda.available


def test_assert_warns():
    with testing.assert_warns(DeprecationWarning):
        warnings.warn('old', DeprecationWarning)
    with pytest.raises(AssertionError, match='DeprecationWarning not emitted'), \
            testing.assert_warns(DeprecationWarning):
        warnings.warn('other', UserWarning)


def test_with_requires():
    @testing.with_requires('numpy>=1.0')
    def yes():
        return 'ran'

    @testing.with_requires('numpy<1.0')
    def no():
        return 'ran'

    @testing.with_requires('surely-not-an-installed-package')
    def missing():
        return 'ran'

    @testing.without_requires('surely-not-an-installed-package')
    def without():
        return 'ran'
    assert yes() == 'ran' and without() == 'ran'
    for f in (no, missing):
        with pytest.raises(unittest.SkipTest):
            f()


def test_patch_uses_autospec():
    with testing.patch('os.path.join') as join:
        import os.path
        os.path.join('a', 'b')
        with pytest.raises(TypeError):
            os.path.join()  # autospec keeps the signature: at least one argument
    join.assert_called_once_with('a', 'b')


@pytest.mark.parametrize('shape', [(3, 3), (4, 2), (2, 5, 3)])
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64, numpy.complex64])
def test_generate_matrix(shape, dtype):
    k = min(shape[-2:])
    sv = numpy.linspace(1, 3, k)
    a = testing.generate_matrix(shape, dtype=dtype, singular_values=sv)
    assert a.shape == shape and a.dtype == dtype
    got = numpy.linalg.svd(a.astype(numpy.complex128), compute_uv=False)
    numpy.testing.assert_allclose(numpy.sort(got, axis=-1),
                                  numpy.broadcast_to(sv, got.shape), rtol=1e-5)


def test_generate_matrix_errors():
    with pytest.raises(TypeError):
        testing.generate_matrix((2, 2))
    with pytest.raises(ValueError):
        testing.generate_matrix((2, 2), singular_values=[-1, 1])
    with pytest.raises(ValueError):
        testing.generate_matrix((2,), singular_values=[1])
    with pytest.raises(TypeError):
        testing.generate_matrix((2, 2), dtype=numpy.int32, singular_values=[1, 1])


def test_generate_matrix_broadcasts_singular_values():
    from chainer.testing import matrix
    a = testing.generate_matrix((3, 2, 4), singular_values=numpy.array([[2.0], [1.0], [3.0]]))
    s = numpy.linalg.svd(a, compute_uv=False)
    numpy.testing.assert_allclose(s, [[2, 2], [1, 1], [3, 3]], rtol=1e-10)
    assert matrix._broadcast_to(numpy.ones(2), (3, 2)).shape == (3, 2)
    with pytest.raises(ValueError, match=r'\(3,\) to \(2, 2\)'):
        matrix._broadcast_to(numpy.ones(3), (2, 2))


def test_attr_availability():
    from chainer.testing import attr
    assert attr.is_available() and attr.get_error() is None
    attr.check_available()
