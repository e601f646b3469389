"""Recurrent links: LSTM, GRU and MGU cells, the n-step RNNs and the tree-LSTMs."""
