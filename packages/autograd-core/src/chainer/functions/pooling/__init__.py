"""Pooling functions."""

__all__: list[str] = []
