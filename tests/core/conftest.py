"""Fixtures for tests under tests/core: the OpenAI-compatible TEST DOUBLE server (``fake_openai``)."""

from tests.support.fake_openai import fake_openai

__all__ = ["fake_openai"]
