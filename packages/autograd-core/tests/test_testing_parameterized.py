"""chainer.testing.parameterize / product / product_dict, under pytest and unittest."""

import sys
import unittest

import numpy
import pytest

from chainer import testing

RECORDED = []


@testing.parameterize(*testing.product({'shape': [(), (2, 3)], 'dtype': [numpy.float32,
                                                                          numpy.float64]}))
class TestGenerated(unittest.TestCase):
    """Runs once per (shape, dtype): four generated classes."""

    def setUp(self):
        self.x = numpy.zeros(self.shape, self.dtype)

    def test_attributes(self):
        assert self.x.shape == self.shape and self.x.dtype == self.dtype
        RECORDED.append((self.shape, self.dtype))


@testing.parameterize({'n': 1}, {'n': 2})
class TestPytestStyle:
    def test_n(self):
        assert self.n in (1, 2)


@testing.parameterize({'a': 1}, {'a': 2})
@testing.parameterize({'b': 10}, {'b': 20})
class TestStacked(unittest.TestCase):
    def test_both(self):
        assert self.a in (1, 2) and self.b in (10, 20)


def _module():
    return sys.modules[__name__]


def test_generated_classes_are_in_the_module():
    names = [n for n in vars(_module()) if n.startswith('TestGenerated_param_')]
    assert len(names) == 4
    assert 'TestGenerated_param_0_{dtype=float32, shape=()}' in names
    # As in v7, the decorated name holds a bundle: (class, module name, name) per class.
    assert isinstance(TestGenerated, testing._bundle._ParameterizedTestCaseBundle)
    assert sorted(name for _, _, name in TestGenerated.cases) == sorted(names)
    for cls, module, n in TestGenerated.cases:
        assert getattr(_module(), n) is cls and module == __name__
        assert cls.__test__ is True and cls.__qualname__ == n
    # The template (the generated classes' base) is neither collected nor run.
    (template,) = {cls.__bases__[0] for cls, _, _ in TestGenerated.cases}
    assert template.__name__ == 'TestGenerated' and template.__test__ is False
    assert template.__unittest_skip__ is True


def test_stacked_decorators_give_the_product():
    names = sorted(n for n in vars(_module()) if n.startswith('TestStacked_param_'))
    assert len(names) == 4
    params = {(getattr(_module(), n).a, getattr(_module(), n).b) for n in names}
    assert params == {(1, 10), (1, 20), (2, 10), (2, 20)}


def test_unittest_runs_generated_classes_only():
    del RECORDED[:]
    suite = unittest.TestSuite()
    loader = unittest.TestLoader()
    for name, obj in vars(_module()).items():
        if isinstance(obj, type) and issubclass(obj, unittest.TestCase) and name.startswith(
                'TestGenerated'):
            suite.addTests(loader.loadTestsFromTestCase(obj))
    result = unittest.TestResult()
    suite.run(result)
    # the template is not in the module: only the four generated classes run
    assert not result.failures and not result.errors and not result.skipped
    assert result.testsRun == 4
    assert sorted(RECORDED, key=repr) == sorted(
        [(s, d) for s in [(), (2, 3)] for d in [numpy.float32, numpy.float64]], key=repr)


def test_local_class_keeps_generated_classes_on_the_template():
    @testing.parameterize({'v': 3}, {'v': 4})
    class Local(unittest.TestCase):
        def test_v(self):
            assert self.v == 3

    generated = [c for c, _, _ in Local.cases]
    assert [c.v for c in generated] == [3, 4]
    result = unittest.TestResult()
    for cls in generated:
        unittest.TestLoader().loadTestsFromTestCase(cls).run(result)
    assert result.testsRun == 2 and len(result.failures) == 1
    # in no module: the cases say so, and the class names keep the function's path
    assert [(m, n) for _, m, n in Local.cases] == [(None, None)] * 2
    assert all('<locals>' in c.__qualname__ for c in generated)


def test_stacked_bundle_replaces_the_inner_classes_in_the_module():
    names = sorted(n for n in vars(_module()) if n.startswith('TestStacked'))
    # the classes of the inner decorator left the module; the product is there
    assert len(names) == 5 and 'TestStacked' in names
    assert len(TestStacked.cases) == 4
    assert all(n.count('_param_') == 2 for n in names if n != 'TestStacked')


def test_bundle_of_a_local_class_expands_again():
    def make():
        @testing.parameterize({'a': 1}, {'a': 2})
        @testing.parameterize({'b': 3})
        class Local(unittest.TestCase):
            pass
        return Local

    bundle = make()
    assert [(c.a, c.b) for c, _, _ in bundle.cases] == [(1, 3), (2, 3)]
    assert 'Local_param_0_{b=3}_param_0_{a=1}' not in vars(_module())


def test_decorators_reject_other_objects():
    with pytest.raises(TypeError, match='parameterize decorates test classes'):
        testing.parameterize({'a': 1})(lambda: None)


def test_parameterize_rejects_non_dicts():
    with pytest.raises(TypeError):
        testing.parameterize([1, 2])


def test_product_of_dict_of_lists():
    assert testing.product({'a': [1, 2], 'b': ['x']}) == [{'a': 1, 'b': 'x'},
                                                          {'a': 2, 'b': 'x'}]
    assert testing.product({}) == [{}]


def test_product_key_naming_several_parameters():
    assert testing.product({'b': [0], 'x,a': [[1, 2], [3, 4]]}) == [
        {'b': 0, 'x': 1, 'a': 2}, {'b': 0, 'x': 3, 'a': 4}]
    with pytest.raises(ValueError, match="'x,a'"):
        testing.product({'x,a': [[1, 2, 3]]})


def test_product_of_list_of_lists_of_dicts():
    got = testing.product([[{'a': 1}, {'a': 2}], [{'b': 3, 'c': 4}, {'b': 5, 'c': 6}]])
    assert got == [{'a': 1, 'b': 3, 'c': 4}, {'a': 1, 'b': 5, 'c': 6},
                   {'a': 2, 'b': 3, 'c': 4}, {'a': 2, 'b': 5, 'c': 6}]
    with pytest.raises(TypeError):
        testing.product(3)


def test_product_dict():
    assert testing.product_dict([{'a': 1}], [{'b': 2}, {'b': 3}]) == [{'a': 1, 'b': 2},
                                                                     {'a': 1, 'b': 3}]
    assert testing.product_dict() == [{}]


def test_from_pytest_parameterize():
    assert testing.from_pytest_parameterize('a, b', [(1, 2), (3, 4)]) == [
        {'a': 1, 'b': 2}, {'a': 3, 'b': 4}]
    assert testing.from_pytest_parameterize(['a'], [1, 2]) == [{'a': 1}, {'a': 2}]
    with pytest.raises(ValueError):
        testing.from_pytest_parameterize('a,b', [(1,)])


def test_product_orders_keys_as_v7():
    # Keys are sorted and the last one varies fastest, whatever the dict's order.
    got = testing.product({'shape': [(1,), (2,)], 'dtype': [numpy.float16, numpy.float32]})
    assert got == [
        {'dtype': numpy.float16, 'shape': (1,)}, {'dtype': numpy.float16, 'shape': (2,)},
        {'dtype': numpy.float32, 'shape': (1,)}, {'dtype': numpy.float32, 'shape': (2,)}]


def _square(x):
    return x * x


def test_names_and_function_values_as_v7():
    long_list = list(range(60))

    @testing.parameterize({'f': _square, 'dtype': numpy.float16, 'mode': 'a',
                           'values': long_list, 'g': lambda x: x})
    class Case(unittest.TestCase):
        def test_f(self):
            # A function-valued parameter is not bound as a method.
            assert self.f(3) == 9 and self.g(4) == 4

    (cls,) = [c for c, _, _ in Case.cases]
    text = repr(long_list)
    assert cls.__name__ == ('Case_param_0_{dtype=float16, f=_square, g=<lambda>, mode=\'a\', '
                            f'values={text[:48]}...{text[-49:]}}}')
    result = unittest.TestResult()
    unittest.TestLoader().loadTestsFromTestCase(cls).run(result)
    assert result.testsRun == 1 and result.wasSuccessful()


def test_numpy_scalars_are_named_as_with_numpy_1():
    # v7's names (and code that selects tests by them) read NumPy scalars as NumPy 1.x
    # writes them, also under NumPy 2 (which would write np.float32(-0.75)).
    @testing.parameterize({'bounds': (numpy.float32(-0.75), None), 'n': numpy.int64(3),
                           'dtype': numpy.bool_})
    class Case(unittest.TestCase):
        pass

    (cls,) = [c for c, _, _ in Case.cases]
    # numpy.bool_ is named 'bool' by NumPy 2
    assert cls.__name__ == 'Case_param_0_{bounds=(-0.75, None), dtype=bool_, n=3}'


def test_product_joint_keys_vary_together():
    # 'a,b' names two parameters whose values come in pairs; keys sort by their text.
    got = testing.product({'shape,size': [((2,), 2), ((2, 3), 6)], 'dtype': ['f', 'd']})
    assert got == [{'dtype': 'f', 'shape': (2,), 'size': 2},
                   {'dtype': 'f', 'shape': (2, 3), 'size': 6},
                   {'dtype': 'd', 'shape': (2,), 'size': 2},
                   {'dtype': 'd', 'shape': (2, 3), 'size': 6}]
    with pytest.raises(ValueError, match='one value per name'):
        testing.product({'a,b': [(1, 2, 3)]})
    assert testing.product({'a': [1, 2], 'b': []}) == []


@testing.parameterize(*testing.product({'x,y': [(1, 2), (3, 4)]}))
class TestJointKeysBecomeAttributes(unittest.TestCase):
    def test_pairs(self):
        assert (self.x, self.y) in ((1, 2), (3, 4))


def _covers_every_pair(rows, groups):
    for i in range(len(groups)):
        for j in range(i + 1, len(groups)):
            for a in groups[i]:
                for b in groups[j]:
                    if not any(all(r[k] == v for k, v in {**a, **b}.items()) for r in rows):
                        return False
    return True


def test_pairwise_product_dict_covers_every_pair_with_fewer_rows():
    from chainer.testing import parameterized
    groups = [[{'a': i} for i in range(3)], [{'b': i} for i in range(3)],
              [{'c': i} for i in range(3)], [{'d': i} for i in range(3)]]
    rows = parameterized._pairwise_product_dict(*groups)
    assert _covers_every_pair(rows, groups)
    assert len(rows) < 81
    assert rows == parameterized._pairwise_product_dict(*groups)  # deterministic
    # Two lists or an empty one: the full product.
    assert parameterized._pairwise_product_dict(groups[0], groups[1]) == testing.product_dict(
        groups[0], groups[1])
    assert parameterized._pairwise_product_dict(groups[0], [], groups[1]) == []


def test_product_uses_the_current_product_dict(monkeypatch):
    # The pairwise mode of Chainer's test suite swaps product_dict in both modules.
    from chainer.testing import parameterized
    assert testing.product_dict is parameterized._product_dict_orig
    monkeypatch.setattr(parameterized, 'product_dict', parameterized._pairwise_product_dict)
    got = testing.product({'a': [0, 1, 2], 'b': [0, 1, 2], 'c': [0, 1, 2]})
    groups = [[{k: v} for v in range(3)] for k in 'abc']
    assert len(got) < 27 and _covers_every_pair(got, groups)
