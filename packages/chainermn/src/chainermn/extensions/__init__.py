"""Trainer extensions (and a trigger) for multi-node training."""

from chainermn.extensions import _multi_node_snapshot
from chainermn.extensions._multi_node_snapshot import multi_node_snapshot
from chainermn.extensions.allreduce_persistent import AllreducePersistent
from chainermn.extensions.checkpoint import create_multi_node_checkpointer
from chainermn.extensions.multi_node_early_stopping_trigger import MultiNodeEarlyStoppingTrigger
from chainermn.extensions.multi_node_evaluator import (
    GenericMultiNodeEvaluator,
    create_multi_node_evaluator,
)
from chainermn.extensions.observation_aggregator import ObservationAggregator
