"""The sensor geometry, re-exported for the hardware layer: it lives in :mod:`bgpi.geometry`,
at the bottom of the house, because the pure sensing core reads frames through it."""

from __future__ import annotations

from bgpi.geometry import Entry, Geometry, GeometryError

__all__ = ["Entry", "Geometry", "GeometryError"]
