"""The HTTP surface: FastAPI app with AG-UI streaming of the turn, search and memory routes."""

from cartwise.api.main import create_app

__all__ = ["create_app"]
