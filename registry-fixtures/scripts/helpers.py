"""Shared helpers for the other scripts: not a tool."""


def clamp(x, low, high):
    return max(low, min(high, x))
