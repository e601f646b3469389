"""ChainerMN: multi-node training for the Chainer v7 API, on MPI (mpi4py) and NCCL (CuPy).

``import chainermn`` does not load the MPI library; creating a communicator does.
"""

from chainermn import (
    communicators,
    datasets,
    extensions,
    functions,
    global_except_hook,
    iterators,
    links,
    optimizers,
)
from chainermn.communicators import CommunicatorBase, create_communicator
from chainermn.datasets import DataSizeError, scatter_dataset, scatter_index
from chainermn.extensions import create_multi_node_checkpointer, create_multi_node_evaluator
from chainermn.links import MultiNodeChainList
from chainermn.optimizers import create_multi_node_optimizer

__version__ = '8.0.0'

global_except_hook._add_hook_if_enabled()
