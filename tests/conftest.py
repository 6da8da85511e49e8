"""Shared fixtures. Tests run on CPU with tiny models built in code; nothing is downloaded."""

from __future__ import annotations
