"""Whose memory: the shopper's own namespace is `SELF`; every recipient has its own."""

from __future__ import annotations

SELF = "self"
"""The shopper's own namespace; every other recipient is someone the shopper buys for."""
