"""Utility functions."""

__all__: list[str] = []
