"""Cartwise."""
