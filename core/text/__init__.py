"""Text matching helpers: linear-time regular expressions (``core.text.regex``)."""
