"""Fixtures for agents tests: the tiny-random models of tests/model_fixtures.py."""

from model_fixtures import lean, model_cache, tiny, tiny_gemma

__all__ = ["lean", "model_cache", "tiny", "tiny_gemma"]
