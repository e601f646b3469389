"""chainer.utils.sparse: CooMatrix, to_coo, get_order."""

import numpy
import pytest

from chainer import utils


def _dense(shape, density=0.4, seed=0):
    rng = numpy.random.RandomState(seed)
    x = rng.uniform(-1, 1, shape).astype(numpy.float32)
    x[rng.uniform(size=shape) > density] = 0
    return x


def test_to_coo_round_trip_2d():
    x = _dense((4, 5))
    coo = utils.to_coo(x)
    nnz = int((x != 0).sum())
    assert coo.data.shape == (nnz,) and coo.row.shape == (nnz,) and coo.col.shape == (nnz,)
    assert coo.shape == (4, 5) and coo.order == 'C'
    assert coo.data.requires_grad is False
    numpy.testing.assert_array_equal(coo.to_dense(), x)


def test_to_coo_ldnz_pads():
    x = _dense((3, 3))
    nnz = int((x != 0).sum())
    coo = utils.to_coo(x, ldnz=nnz + 4, requires_grad=True)
    assert coo.data.shape == (nnz + 4,) and coo.data.requires_grad
    assert (coo.row[nnz:] == -1).all() and (coo.data.array[nnz:] == 0).all()
    numpy.testing.assert_array_equal(coo.to_dense(), x)
    # A smaller ldnz than the nonzeros is widened, as documented.
    assert utils.to_coo(x, ldnz=1).data.shape == (nnz,)


def test_to_coo_batch():
    x = _dense((3, 4, 2), seed=2)
    x[1] = 0  # an all-zero matrix in the batch
    coo = utils.to_coo(x)
    nnz = max(int((m != 0).sum()) for m in x)
    assert coo.data.shape == (3, nnz) and coo.shape == (4, 2)
    numpy.testing.assert_array_equal(coo.to_dense(), x)
    assert (coo.row[1] == -1).all()


def test_to_coo_rejects_other_ranks():
    with pytest.raises(ValueError, match='2-D'):
        utils.to_coo(numpy.ones(3))


def test_get_order():
    assert utils.get_order(numpy.array([0, 0, 1, 2]), numpy.array([3, 1, 0, 2])) == 'C'
    assert utils.get_order(numpy.array([2, 0, 1, 1]), numpy.array([0, 1, 1, 3])) == 'F'
    assert utils.get_order(numpy.array([1, 0]), numpy.array([1, 0])) == 'other'
    # Padding at the end is ignored, per batch row.
    row = numpy.array([[0, 1, -1], [0, 0, 2]])
    col = numpy.array([[1, 0, -1], [2, 1, 0]])
    assert utils.get_order(row, col) == 'C'
    with pytest.raises(ValueError):
        utils.get_order(numpy.zeros(2, int), numpy.zeros(3, int))


def test_coo_matrix_order_detection_and_duplicates():
    data = numpy.array([1.0, 2.0, 3.0])
    row = numpy.array([1, 0, 1])
    col = numpy.array([0, 0, 0])
    m = utils.CooMatrix(data, row, col, (2, 2))
    assert m.order == 'F'
    numpy.testing.assert_array_equal(m.to_dense(), [[2, 0], [4, 0]])  # duplicates add up
    assert utils.CooMatrix(data, row, col, (2, 2), order='other').order == 'other'


@pytest.mark.parametrize('args, match', [
    ((numpy.ones(2), numpy.zeros(3, int), numpy.zeros(3, int), (2, 2)), 'one shape'),
    ((numpy.ones((1, 1, 1)), numpy.zeros((1, 1, 1), int), numpy.zeros((1, 1, 1), int),
      (2, 2)), '1-D or 2-D'),
    ((numpy.ones(2), numpy.zeros(2), numpy.zeros(2), (2, 2)), 'integer'),
    ((numpy.ones(2), numpy.zeros(2, int), numpy.zeros(2, int), (2,)), 'shape'),
])
def test_coo_matrix_errors(args, match):
    with pytest.raises(ValueError, match=match):
        utils.CooMatrix(*args)
    with pytest.raises(ValueError, match='order'):
        utils.CooMatrix(numpy.ones(1), numpy.zeros(1, int), numpy.zeros(1, int), (1, 1),
                        order='X')


def test_get_order_rejects_padding_in_one_index_only():
    row = numpy.array([0, 2, 4, 1, -1])
    col = numpy.array([1, 3, 0, -1, 4])
    with pytest.raises(ValueError, match='padding'):
        utils.get_order(row, col)
