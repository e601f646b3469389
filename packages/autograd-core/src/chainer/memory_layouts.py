"""Names of v7's memory layouts (``chainer.memory_layouts``).

Chainer v7 could keep convolution inputs and weights channel-last for cuDNN
(``compute_mode='cudnn_fast'``). This project keeps every array in the standard
(channel-first) layout; the names exist so that v7 code importing them runs, and
a variable's ``layout`` is always None.
"""

CUDNN_CHANNEL_FIRST_X = 'CUDNN_CHANNEL_FIRST_X'
CUDNN_CHANNEL_LAST_X = 'CUDNN_CHANNEL_LAST_X'
CUDNN_CHANNEL_FIRST_W = 'CUDNN_CHANNEL_FIRST_W'
CUDNN_CHANNEL_LAST_W = 'CUDNN_CHANNEL_LAST_W'

__all__ = ['CUDNN_CHANNEL_FIRST_W', 'CUDNN_CHANNEL_FIRST_X', 'CUDNN_CHANNEL_LAST_W',
           'CUDNN_CHANNEL_LAST_X']
