"""The browser face: `boardlab serve` (see docs/web.md). Needs the `web` extra (FastAPI,
uvicorn); `create_app` is imported lazily so that `import boardlab.web` never requires it."""

from __future__ import annotations

from typing import Any


def create_app(*args: Any, **kwargs: Any) -> Any:
    from .app import create_app as build

    return build(*args, **kwargs)


__all__ = ["create_app"]
