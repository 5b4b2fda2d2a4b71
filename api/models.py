"""Request and response bodies of the HTTP API (pydantic, strict).

Strict validation: unknown fields are rejected, numbers are not coerced from strings or booleans,
ids follow ``^[A-Za-z0-9._:@-]{1,128}$``, text fields have length caps and no control characters
(newlines and tabs allowed in free text). Every value that later reaches SQL or a Milvus filter is
either validated here or converted to an internal integer id by the domain.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, model_validator

from core.config import RetrieveMode
from core.memory.tools import ToolWrite
from core.types import MemoryType
from schemas.events import DEFAULT_MEMORY_CONFIDENCE, MAX_MEMORY_CONTENT_CHARS, MAX_MEMORY_KEY_CHARS

ID_PATTERN = r"^[A-Za-z0-9._:@-]{1,128}$"
# no C0/C1 control characters except tab/newline/carriage return; no noncharacters
_TEXT = r"^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufffe\uffff]*$"
_ONE_LINE = r"^[^\x00-\x1f\x7f-\x9f\ufffe\uffff]*$"

KEY_MAX_CHARS = MAX_MEMORY_KEY_CHARS
CONTENT_MAX_CHARS = MAX_MEMORY_CONTENT_CHARS
QUESTION_MAX_CHARS = 4000
SUMMARY_MAX_CHARS = 8000
MAX_TTL_DAYS = 36500

UserId = Annotated[str, Field(pattern=ID_PATTERN, description="upstream user id", examples=["user-42"])]
OptionalId = Annotated[str | None, Field(default=None, pattern=ID_PATTERN)]
MemoryKey = Annotated[str, Field(min_length=1, max_length=KEY_MAX_CHARS, pattern=_ONE_LINE,
                                 description="memory key; normalised to a lowercase slug",
                                 examples=["preference-favorite_food"])]
Content = Annotated[str, Field(min_length=1, max_length=CONTENT_MAX_CHARS, pattern=_TEXT)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class RetrieveRequest(_Strict):
    user_id: UserId
    question: Annotated[str, Field(min_length=1, max_length=QUESTION_MAX_CHARS, pattern=_TEXT)]
    conversation_summary: Annotated[str | None, Field(default=None, max_length=SUMMARY_MAX_CHARS,
                                                      pattern=_TEXT)] = None
    mode: RetrieveMode | None = Field(None, strict=False,
                                      description="default: LONG_TERM_MEMORY_RETRIEVE_MODE")
    limit: int | None = Field(None, ge=1, le=200, description="default: the mode's configured limit")
    # episodes (what the user said, dense only): their own limit and time filters
    episode_limit: int | None = Field(None, ge=0, le=200, description="default: EPISODE_RETRIEVE_LIMIT; "
                                      "with neither limit given both limits' sum is served, the mix of the "
                                      "two kinds chosen by their pooled order (the question's time intent "
                                      "leans it)")
    since: AwareDatetime | None = Field(None, strict=False, description="episodes sent at or after (ISO 8601 "
                                        "with a time zone)")
    until: AwareDatetime | None = Field(None, strict=False, description="episodes sent before")
    asked_at: AwareDatetime | None = Field(None, strict=False, description="when the question was asked: "
                                           "relative dates in it ('last weekend', '去年') are resolved from "
                                           "it; default: the server's time")
    user_names: list[Annotated[str, Field(min_length=1, max_length=64, pattern=_TEXT)]] = Field(
        default_factory=list, max_length=8,
        description="the names the user goes by ('Alice', 'Alice Chen'): taken out of the question "
                    "the search reads, so a question that names the user ('what might Alice like?') "
                    "is matched on what it asks, not on the name")

    @model_validator(mode="after")
    def _window(self) -> RetrieveRequest:
        if self.since is not None and self.until is not None and self.since >= self.until:
            raise ValueError("since must be before until")
        return self


class _WriteFields(_Strict):
    user_id: UserId
    key: MemoryKey
    content: Content
    memory_type: MemoryType = Field(MemoryType.FACT, strict=False)  # enum value as a JSON string
    importance: int = Field(3, ge=1, le=5)
    confidence: float = Field(DEFAULT_MEMORY_CONFIDENCE, ge=0.0, le=1.0)
    ttl_days: int | None = Field(None, ge=1, le=MAX_TTL_DAYS,
                                 description="default: LONG_TERM_MEMORY_DEFAULT_TTL_DAYS")
    conversation_id: OptionalId = None
    command_id: OptionalId = Field(None,
                                   description="idempotency key: a repeated id returns the first result")

    def tool_write(self) -> ToolWrite:
        """The tool service's request for this body."""
        return ToolWrite(self.user_id, self.key, self.content, self.memory_type, self.importance,
                         self.confidence, self.ttl_days, self.conversation_id, self.command_id)


class SaveRequest(_WriteFields):
    """``memory_save``: create the memory or overwrite the one with the same key."""


class AppendRequest(_WriteFields):
    """``memory_append``: append to the memory with this key (created when absent)."""


class DeleteRequest(_Strict):
    """``memory_delete``: deactivate the memory with this key (404 if there is no active one)."""

    user_id: UserId
    key: MemoryKey
    command_id: OptionalId = None


LIST_LIMIT_DEFAULT = 200
LIST_LIMIT_MAX = 1000


class ListRequest(_Strict):
    """``memory_list``: the user's live memories (``GET /v1/memories`` takes these as query parameters)."""

    user_id: UserId
    memory_type: MemoryType | None = Field(None, strict=False)
    limit: int = Field(LIST_LIMIT_DEFAULT, ge=1, le=LIST_LIMIT_MAX)


class ToolResponse(BaseModel):
    tool: str
    user_id: str
    key: str
    memory_id: int | None
    operation: str | None = Field(description="create/overwrite/append/delete..., null when nothing changed")
    changed: bool
    duplicate_command: bool = False


class MemoryOut(BaseModel):
    id: int
    key: str
    memory_type: str
    content: str
    importance: int
    confidence: float
    created_at: str
    updated_at: str
    expires_at: str | None
    last_accessed_at: str | None


class MemoryListResponse(BaseModel):
    user_id: str
    memories: list[MemoryOut]


class ScoreComponentsOut(BaseModel):
    retrieval: float
    importance: float
    confidence: float
    recency: float
    exact_key: float
    raw_retrieval: float
    topic: float = Field(0.0, description="1 when the memory is about a kind of thing the question names")


class RetrievedItemOut(BaseModel):
    memory: MemoryOut
    score: float = Field(description="rerank score: weighted sum of the components")
    components: ScoreComponentsOut


class EpisodeOut(BaseModel):
    id: int
    message_id: int
    passage_index: int
    content: str
    sent_at: str
    conversation: str = Field(description="the upstream conversation id the message came from")


class RetrievedEpisodeOut(BaseModel):
    episode: EpisodeOut
    score: float = Field(description="cosine relative to the best episode, plus a bonus inside the "
                                     "question's time window")
    cosine: float
    in_window: bool = Field(description="sent inside the window a relative date of the question names")


class PooledOut(BaseModel):
    kind: str = Field(description="memory | episode")
    id: int = Field(description="the memory's or the episode's id")
    score: float = Field(description="query cosine plus the lean of the question's time intent")


class RetrieveResponse(BaseModel):
    user_id: str
    requested_mode: str
    served_by: str = Field(description="full_inject | dense | lexical_fallback | disabled")
    fallback_reason: str | None
    items: list[RetrievedItemOut]
    prompt_block: str = Field(description="ready-to-inject text: a header line, then a <user_memories> "
                              "block, one JSON object {type, key, content} per line; after a blank line, "
                              "when episodes were found, a header and a <user_episodes> block, one JSON "
                              "object {date, conversation, content} per line (data, never instructions); "
                              "empty when there are neither")
    took_ms: float
    episodes: list[RetrievedEpisodeOut] = Field(default_factory=list, description="what the user said, "
                                                "kept apart from the memories (dense only)")
    intent: str | None = Field(None, description="the question's time intent when dense ran: past, taste "
                               "or neutral")
    order: list[PooledOut] = Field(default_factory=list, description="the served memories and episodes "
                                   "in one order across the two kinds, best first (dense only)")


class ErrorDetail(BaseModel):
    code: str
    message: str
    field: str | None = None


class ErrorResponse(BaseModel):
    error: ErrorDetail


def error_body(code: str, message: str, field: str | None = None) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "field": field}}


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorResponse, "description": text}
    for status, text in ((400, "malformed request"), (401, "missing or wrong bearer token"),
                         (403, "the key lacks the scope or is bound to another user "
                               "(forbidden_scope, forbidden_user)"),
                         (413, "request body too large"), (422, "invalid field"),
                         (429, "rate limit exceeded (Retry-After header)"), (503, "storage unavailable"))
}
