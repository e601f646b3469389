"""Loss links: losses with learned parameters (NegativeSampling, CRF1d, ...)."""
