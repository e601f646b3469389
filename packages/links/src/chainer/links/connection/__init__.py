"""Connection links: layers with weight parameters (Linear, ...)."""
