"""Pick the embedder the settings ask for (``MEMORY_EMBEDDING_PROVIDER``, default ``local``)."""

from __future__ import annotations

from core.config import EmbeddingProvider, Settings
from core.embedding.base import Embedder
from core.embedding.instrumented import InstrumentedEmbedder
from core.embedding.local import LocalE5Embedder
from core.embedding.openai_embedder import OpenAIEmbedder


def build_embedder(settings: Settings, caller: str = "other") -> Embedder:
    """The configured embedder; its ``model``/``dim`` equal ``settings.embedding_model``/``embedding_dim``.

    ``caller`` labels its metrics (``pai_memory_embedding_caller_*``). Does no network or model loading
    (both embedders are lazy).
    """
    return InstrumentedEmbedder(_build(settings), settings.embedding_provider.value, caller)


def _build(settings: Settings) -> Embedder:
    if settings.embedding_provider is EmbeddingProvider.OPENAI:
        if not settings.MEMORY_EMBEDDING_BASE_URL:  # Settings validation already refuses this
            raise ValueError("MEMORY_EMBEDDING_PROVIDER=openai needs MEMORY_EMBEDDING_BASE_URL")
        return OpenAIEmbedder(
            base_url=settings.MEMORY_EMBEDDING_BASE_URL,
            model=settings.MEMORY_EMBEDDING_MODEL,
            dim=settings.MEMORY_EMBEDDING_DIM,
            api_key=settings.MEMORY_EMBEDDING_API_KEY,
            timeout=settings.MEMORY_EMBEDDING_TIMEOUT_SEC,
            max_retries=settings.MEMORY_EMBEDDING_MAX_RETRIES,
            batch_size=settings.MEMORY_EMBEDDING_BATCH_SIZE,
            max_concurrency=settings.MEMORY_EMBEDDING_MAX_CONCURRENCY,
            retry_after_max=settings.LLM_RETRY_AFTER_MAX_SEC,
        )
    return LocalE5Embedder()
