"""The domain of pai-memory: memory rules, extraction, retrieval and storage ports.

Nothing under ``core`` imports Kafka; consumers and producers adapt events to these functions.
"""
