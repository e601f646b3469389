"""Normalization functions."""

__all__: list[str] = []
