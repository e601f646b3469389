"""NCCL communicators create their NCCL (and inter-machine MPI) communicators once, on
first use; checked on the CPU with a stand-in for CuPy's NCCL module."""

import pytest
from mpi4py import MPI

from chainermn import nccl
from chainermn.communicators.hierarchical_communicator import HierarchicalCommunicator
from chainermn.communicators.pure_nccl_communicator import PureNcclCommunicator


class _FakeNcclComm:
    def __init__(self, size, uid, rank):
        self.size, self.uid, self.rank = size, uid, rank


class _FakeNccl:
    NcclCommunicator = _FakeNcclComm

    @staticmethod
    def get_unique_id():
        return 'uid-0'


@pytest.fixture
def fake_nccl(monkeypatch):
    monkeypatch.setattr(nccl, 'require', lambda user: _FakeNccl)


def test_pure_nccl_creates_its_communicator_once(fake_nccl):
    comm = PureNcclCommunicator(MPI.COMM_WORLD)
    assert comm.nccl_comm is None
    first = comm._init_comms()
    assert isinstance(first, _FakeNcclComm) and first is comm.nccl_comm
    assert (first.size, first.uid, first.rank) == (comm.size, 'uid-0', comm.rank)
    assert comm._init_comms() is first


def test_hierarchical_creates_both_communicators(fake_nccl):
    comm = HierarchicalCommunicator(MPI.COMM_WORLD)
    with pytest.raises(RuntimeError, match='no inter-machine communicator'):
        comm._inter_allreduce(None)  # before _init_comms
    intra = comm._init_comms()
    assert isinstance(intra, _FakeNcclComm) and intra is comm.intra_nccl_comm
    assert intra.size == comm.intra_size
    assert comm.inter_mpi_comm is not None and comm.inter_mpi_comm.size == comm.inter_size
    assert comm._init_comms() is intra
