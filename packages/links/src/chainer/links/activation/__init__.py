"""Activation links: activations with learned parameters (Maxout, PReLU, ...)."""
