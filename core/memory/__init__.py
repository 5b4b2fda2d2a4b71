"""Memory rules: writes (tools and extraction upserts), reads, and the message lifecycle."""
