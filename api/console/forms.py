"""Inputs of the console's pages and forms, validated like the REST API's (same patterns, same wording).

Query strings and urlencoded form bodies arrive as strings: empty values mean "not given", a field
given twice is refused (``RepeatedField``), unknown fields are refused, and numbers must be decimal.
``InputError`` carries the REST API's error triple (code, message, field).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Annotated, Any, Literal, TypeVar
from urllib.parse import parse_qsl

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from api.errors import field_of, validation_message
from api.models import ID_PATTERN, KEY_MAX_CHARS, QUESTION_MAX_CHARS
from core.memory.browse import MAX_PAGE
from core.types import MemoryType, MessageStatus, VectorStatus

_ONE_LINE = r"^[^\x00-\x1f\x7f-\x9f\ufffe\uffff]*$"
_TEXT = r"^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufffe\uffff]*$"
MAX_FORM_FIELDS = 20

Page = Annotated[int, Field(ge=1, le=MAX_PAGE)]
M = TypeVar("M", bound=BaseModel)


class InputError(ValueError):
    """A console input was refused; ``code``/``message``/``field`` as the REST API would answer."""

    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field


class _Form(BaseModel):
    model_config = ConfigDict(extra="forbid")


RECORD_REF_PATTERN = r"^[A-Za-z0-9._-]{1,255}:[0-9]{1,6}:[0-9]{1,19}$"
"""``topic:partition:offset`` of one Kafka record."""


class NoQuery(_Form):
    """A page that takes no parameters."""


class OpsQuery(_Form):
    """The operations page; after a re-drive (POST, then 303) it names what moved where."""

    redriven_from: Annotated[str | None, Field(default=None, pattern=RECORD_REF_PATTERN)] = None
    redriven_to: Annotated[str | None, Field(default=None, pattern=RECORD_REF_PATTERN)] = None


class UserPath(_Form):
    user_id: Annotated[str, Field(pattern=ID_PATTERN)]


class UsersQuery(_Form):
    q: Annotated[str | None, Field(max_length=128, pattern=r"^[A-Za-z0-9._:@-]*$")] = None
    page: Page = 1


class AuditQuery(_Form):
    page: Page = 1


class MemoriesQuery(_Form):
    memory_type: MemoryType | None = None
    active: Literal["all", "active", "inactive"] = "active"  # the live set (what retrieval sees) by default
    vector_status: VectorStatus | None = None
    key: Annotated[str | None, Field(max_length=KEY_MAX_CHARS, pattern=_ONE_LINE)] = None
    page: Page = 1


class MessagesQuery(_Form):
    status: MessageStatus | None = None
    page: Page = 1


class EpisodesQuery(_Form):
    page: Page = 1


class SearchQuery(_Form):
    user_id: Annotated[str | None, Field(pattern=ID_PATTERN)] = None
    question: Annotated[str | None, Field(max_length=QUESTION_MAX_CHARS, pattern=_TEXT)] = None
    limit: Annotated[int, Field(ge=1, le=50)] = 6


class RedriveForm(_Form):
    group: Annotated[str, Field(min_length=1, max_length=255, pattern=r"^[A-Za-z0-9._-]+$")]
    partition: Annotated[int, Field(ge=0, le=100_000)]
    offset: Annotated[int, Field(ge=0)]
    csrf: Annotated[str, Field(min_length=1, max_length=200)]


class LoginForm(_Form):
    token: Annotated[str, Field(min_length=1, max_length=1000)]


class CsrfForm(_Form):
    csrf: Annotated[str, Field(min_length=1, max_length=200)]


def _numbers_strict(model: type[BaseModel], values: dict[str, str]) -> dict[str, Any]:
    """Integer fields take decimal digits only ("1e3", " 2", "+1" are refused like a JSON string would be)."""
    out: dict[str, Any] = dict(values)
    for name, info in model.model_fields.items():
        raw = values.get(name)
        if raw is not None and info.annotation is int and raw.isascii() and raw.isdigit():
            out[name] = int(raw)
    return out


def validate(model: type[M], pairs: Iterable[tuple[str, str]]) -> M:
    """``model`` from name/value pairs; ``InputError`` on a repeated, unknown or invalid field."""
    values: dict[str, str] = {}
    for name, value in pairs:
        if name in values:
            raise InputError("repeated_field", f"field {name!r} is given more than once", name)
        values[name] = value
    given = {k: v for k, v in values.items() if v != ""}
    try:
        return model.model_validate(_numbers_strict(model, given), strict=False)
    except ValidationError as exc:
        errors = exc.errors()
        first: Any = errors[0]
        kind = str(first.get("type", ""))
        code = {"missing": "missing_field", "extra_forbidden": "unknown_field"}.get(kind, "invalid_field")
        message = validation_message(first)
        if len(errors) > 1:
            message += f" (and {len(errors) - 1} more error(s))"
        raise InputError(code, message, field_of(first.get("loc", ()))) from None


def form_pairs(body: bytes) -> list[tuple[str, str]]:
    """Fields of an ``application/x-www-form-urlencoded`` body (``InputError`` if it is not one)."""
    try:
        text = body.decode("utf-8")
        return parse_qsl(text, keep_blank_values=True, strict_parsing=bool(text),
                         max_num_fields=MAX_FORM_FIELDS, errors="strict")
    except (UnicodeDecodeError, ValueError) as exc:
        raise InputError("malformed_form", "request body is not a valid urlencoded form") from exc


def query_pairs(params: Mapping[str, str] | Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    items = params.items() if isinstance(params, Mapping) else params
    return [(str(k), str(v)) for k, v in items]
