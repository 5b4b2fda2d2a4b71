"""Default topic and consumer-group names of the contract (the AsyncAPI channels).

``core.config.Settings`` takes its ``TOPIC_*``, ``DLQ_TOPIC_SUFFIX``, ``GROUP_*`` and
``KAFKA_TOPIC_PARTITIONS`` defaults from here, so the generated AsyncAPI document and a process started
without overrides name the same topics. Deployments may rename them through those variables.
"""

from __future__ import annotations

from typing import Final

TOPIC_CHAT_MESSAGES: Final = "pai.chat.messages"
TOPIC_MEMORY_COMMANDS: Final = "pai.memory.commands"
TOPIC_MEMORY_DIRTY: Final = "memory.dirty"
DLQ_TOPIC_SUFFIX: Final = ".dlq"
GROUP_EXTRACTOR: Final = "pai-memory-extractor"
GROUP_COMMANDS: Final = "pai-memory-commands"
GROUP_INDEXER: Final = "pai-memory-indexer"
TOPIC_PARTITIONS: Final = 6
