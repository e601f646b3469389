import numpy
import pytest

from chainer.datasets import (
    ConcatenatedDataset,
    SubDataset,
    get_cross_validation_datasets,
    get_cross_validation_datasets_random,
    split_dataset,
    split_dataset_n,
    split_dataset_n_random,
    split_dataset_random,
)


def as_list(ds):
    return [ds[i] for i in range(len(ds))]


def test_sub_dataset_range_and_negative_index():
    base = list(range(10))
    sub = SubDataset(base, 2, 6)
    assert len(sub) == 4
    assert as_list(sub) == [2, 3, 4, 5]
    assert sub[-1] == 5
    assert sub[-4] == 2
    assert sub[1:3] == [3, 4]
    assert sub[[0, 3]] == [2, 5]
    with pytest.raises(IndexError):
        sub[4]
    with pytest.raises(IndexError):
        sub[-5]


def test_sub_dataset_with_order():
    base = list('abcde')
    sub = SubDataset(base, 1, 4, order=[4, 3, 2, 1, 0])
    assert as_list(sub) == ['d', 'c', 'b']


def test_sub_dataset_bad_arguments():
    with pytest.raises(ValueError):
        SubDataset([1, 2, 3], -1, 2)
    with pytest.raises(ValueError):
        SubDataset([1, 2, 3], 0, 4)
    with pytest.raises(ValueError):
        SubDataset([1, 2, 3], 0, 2, order=[0, 1])


def test_split_dataset():
    base = list(range(7))
    a, b = split_dataset(base, 3)
    assert as_list(a) == [0, 1, 2]
    assert as_list(b) == [3, 4, 5, 6]
    a, b = split_dataset(base, 2, order=[6, 5, 4, 3, 2, 1, 0])
    assert as_list(a) == [6, 5]
    assert as_list(b) == [4, 3, 2, 1, 0]
    a, b = split_dataset(base, 0)
    assert len(a) == 0 and len(b) == 7


def test_split_dataset_bad_split_point():
    with pytest.raises(TypeError):
        split_dataset([1, 2, 3], 1.5)
    with pytest.raises(ValueError):
        split_dataset([1, 2, 3], -1)
    with pytest.raises(ValueError):
        split_dataset([1, 2, 3], 4)


def test_split_dataset_random_sizes_disjoint_and_seeded():
    base = list(range(100))
    a, b = split_dataset_random(base, 70, seed=0)
    assert len(a) == 70 and len(b) == 30
    la, lb = as_list(a), as_list(b)
    assert sorted(la + lb) == base
    assert not set(la) & set(lb)
    expected = numpy.random.RandomState(0).permutation(100)
    assert la == list(expected[:70])
    a2, b2 = split_dataset_random(base, 70, seed=0)
    assert as_list(a2) == la and as_list(b2) == lb
    a3, _ = split_dataset_random(base, 70, seed=1)
    assert as_list(a3) != la


def test_split_dataset_n():
    # As in v7, every part has len // n examples and the remainder is left out.
    parts = split_dataset_n(list(range(10)), 3)
    assert [as_list(p) for p in parts] == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    parts = split_dataset_n_random(list(range(10)), 3, seed=3)
    items = sum((as_list(p) for p in parts), [])
    assert len(items) == 9 and len(set(items)) == 9
    with pytest.raises(ValueError):
        split_dataset_n([1], 0)


def test_concatenated_dataset():
    ds = ConcatenatedDataset([0, 1], [], [2, 3, 4])
    assert len(ds) == 5
    assert as_list(ds) == [0, 1, 2, 3, 4]
    assert ds[-1] == 4
    assert ds[1:4] == [1, 2, 3]
    with pytest.raises(IndexError):
        ds[5]


def test_cross_validation_splits():
    splits = get_cross_validation_datasets(list(range(7)), 3)
    assert [(as_list(tr), as_list(te)) for tr, te in splits] == [
        ([0, 1, 2, 3], [4, 5, 6]),
        ([4, 5, 6, 0, 1], [2, 3]),
        ([2, 3, 4, 5, 6], [0, 1]),
    ]
    assert [len(te) for _, te in get_cross_validation_datasets(list(range(7)), n_fold=3)] \
        == [3, 2, 2]
    random = get_cross_validation_datasets_random(list(range(9)), 3, seed=0)
    assert sorted(sum((as_list(te) for _, te in random), [])) == list(range(9))
    again = get_cross_validation_datasets_random(list(range(9)), 3, seed=0)
    assert [as_list(te) for _, te in random] == [as_list(te) for _, te in again]
    with pytest.raises(ValueError, match='n_folds'):
        get_cross_validation_datasets([1, 2], 1)
    with pytest.raises(TypeError, match='unexpected'):
        get_cross_validation_datasets([1, 2], 2, foo=1)
