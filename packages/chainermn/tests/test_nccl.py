"""The NCCL communicators (CUDA devices): run by nox -s gpu, in one process."""

import numpy
import pytest

import chainer
import chainer.links as L
import chainermn
from chainermn import nccl

NAMES = ['pure_nccl', 'single_node', 'hierarchical', 'two_dimensional', 'non_cuda_aware']


@pytest.mark.skipif(nccl.available(), reason='NCCL is available here')
def test_without_nccl():
    assert not nccl.available()
    assert nccl.get_build_version() == 0 and nccl.get_version() == 0
    with pytest.raises(RuntimeError, match='needs NCCL through CuPy'):
        nccl.NCCL_SUM


def _model_on_gpu(comm, dtype):
    model = L.Linear(3, 4, initialW=chainer.initializers.Normal(dtype=dtype),
                     initial_bias=chainer.initializers.Zero(dtype=dtype))
    model.to_device(chainer.get_device(f'@cupy:{comm.intra_rank}'))
    return model


@pytest.mark.gpu
@pytest.mark.parametrize('name', NAMES)
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_mean_grad_on_gpu(name, dtype):
    comm = chainermn.create_communicator(name)
    chainer.get_device(f'@cupy:{comm.intra_rank}').use()
    model = _model_on_gpu(comm, dtype)
    model.W.grad[...] = comm.rank + 1
    model.b.grad[...] = 2
    comm.multi_node_mean_grad(model)
    assert model.W.grad.dtype == dtype
    numpy.testing.assert_allclose(model.W.grad.get(), (comm.size + 1) / 2, rtol=1e-3)
    numpy.testing.assert_allclose(model.b.grad.get(), 2, rtol=1e-3)
    model.W.array[...] = comm.rank
    comm.bcast_data(model)
    numpy.testing.assert_array_equal(model.W.array.get(), 0)
    comm.finalize()


@pytest.mark.gpu
def test_pure_nccl_allreduce_grad_dtype_and_mnbn():
    comm = chainermn.create_communicator('pure_nccl', allreduce_grad_dtype=numpy.float16)
    assert comm.allreduce_grad_dtype == numpy.float16
    with pytest.raises(ValueError, match='allreduce_grad_dtype'):
        comm.set_config('allreduce_grad_dtype', numpy.int32)
    chainer.get_device(f'@cupy:{comm.intra_rank}').use()
    bn = chainermn.links.MultiNodeBatchNormalization(3, comm)
    assert bn.communication_backend == 'nccl'
    bn.to_device(chainer.get_device(f'@cupy:{comm.intra_rank}'))
    import cupy

    y = bn(cupy.arange(12, dtype=cupy.float32).reshape(4, 3))
    numpy.testing.assert_allclose(y.array.get().mean(axis=0), 0, atol=1e-5)
    comm.finalize()
    assert comm.nccl_comm is None


@pytest.mark.gpu
def test_double_buffering_on_gpu():
    comm = chainermn.create_communicator('pure_nccl')
    chainer.get_device(f'@cupy:{comm.intra_rank}').use()
    model = _model_on_gpu(comm, numpy.float32)
    optimizer = chainermn.create_multi_node_optimizer(
        chainer.optimizers.SGD(lr=1.0), comm, double_buffering=True).setup(model)
    optimizer.update()
    for step in range(2):
        for p in model.params():
            p.grad[...] = step + 1
        optimizer.update()
        optimizer.wait()
        numpy.testing.assert_allclose(optimizer.communicated_target.W.grad.get(), step + 1)
    assert optimizer.t == 1


def test_names_that_are_not_nccl_names_are_attribute_errors():
    # module probes (hasattr, pytest's collectors) must not need CUDA
    assert not hasattr(nccl, 'pytest_plugins')
    with pytest.raises(AttributeError, match='no attribute'):
        nccl.not_an_nccl_name
