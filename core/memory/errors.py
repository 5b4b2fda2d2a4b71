"""Errors of the memory domain."""

from __future__ import annotations


class MemoryDomainError(Exception):
    """Base class of memory-domain errors."""


class InvalidMemoryInput(MemoryDomainError, ValueError):
    """A write was rejected: bad key, type or content, or a filtered (noise/profile) key."""


class MemoryNotFound(MemoryDomainError, LookupError):
    """The memory named by a tool call does not exist (or is not active) for this user."""


class MemoryInactive(MemoryDomainError):
    """A correction named a memory that is deleted or expired (correct it by saving it again)."""
