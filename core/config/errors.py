"""The one exception of the configuration."""

from __future__ import annotations


class ConfigError(ValueError):
    """A configuration value is invalid. The message names the variable."""
