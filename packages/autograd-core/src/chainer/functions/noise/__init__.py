"""Noise functions (dropout and friends)."""

__all__: list[str] = []
