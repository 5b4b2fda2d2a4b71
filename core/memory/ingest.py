"""Storing incoming messages (the ingest half of the message lifecycle, ``MessageProcessor.ingest``).

Contract:
- a message is stored once, idempotent by upstream id (ids are scoped by user); ``IngestResult`` says
  whether it still needs extraction: a user message not yet final (``FINAL``) for the current
  extractor ``version`` does; a stored message final under another version is set back to
  ``PENDING`` (replay under a new extractor version extracts again on purpose);
- a message of a user erased (``core.erasure``) at or after its ``created_at`` is dropped, not stored
  (all-zero ``IngestResult``);
- a known id with other content, role or conversation is no redelivery: nothing is stored or changed
  and ``IngestResult.conflict`` says why (the caller dead-letters the record);
- ``ingest_batch`` gives, in order, the results ``ingest_one`` would give one by one, in the caller's
  one transaction, with the lookups done once for the batch.
Both run in the caller's transaction and keep no state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import String, any_, bindparam, select
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session

from core.memory.store import (
    IncomingMessage,
    conversation_external_id,
    erased_before,
    find_message,
    get_or_create_conversation,
    get_or_create_user,
    get_or_create_users,
    insert_message,
    message_conflict,
    store_message,
    user_hash,
)
from core.storage.models import Conversation, ErasedUser, Message, User
from core.types import MessageRole, MessageStatus

FINAL = (MessageStatus.PROCESSED.value, MessageStatus.SKIPPED.value)


@dataclass(frozen=True)
class IngestResult:
    message_pk: int
    user_pk: int
    conversation_pk: int
    created: bool
    needs_processing: bool
    # set when the id is known for this user with other content/role/conversation: not a
    # redelivery; nothing was stored or changed and the caller dead-letters the record with this reason
    conflict: str | None = None


def ingest_one(session: Session, msg: IncomingMessage, version: str) -> IngestResult:
    """Store ``msg`` (see the module docstring) under extractor ``version``."""
    if erased_before(session, msg.user_id, msg.created_at):
        # the user was erased (pai-memory forget-user) after this message was written: a
        # replay or late redelivery must not bring their data back
        return IngestResult(0, 0, 0, False, False)
    row, created = store_message(session, msg)
    if not created:
        conflict = message_conflict(row, conversation_external_id(session, row.conversation_id), msg)
        if conflict is not None:
            return IngestResult(row.id, row.user_id, row.conversation_id, False, False, conflict)
    needs = row.role == MessageRole.USER.value and not (
        row.memory_status in FINAL and row.extractor_version == version
    )
    if needs and not created and row.memory_status in FINAL:
        # replay under a new extractor version: extract again on purpose
        row.memory_status = MessageStatus.PENDING.value
    return IngestResult(row.id, row.user_id, row.conversation_id, created, needs)


def ingest_batch(session: Session, msgs: Sequence[IncomingMessage], version: str) -> list[IngestResult]:
    """``ingest_one`` of each of ``msgs``, in order, with the erased-user, known-message and user
    lookups done once for the batch."""
    hashes = {m.user_id: user_hash(m.user_id) for m in msgs}
    # prebuilt statements with expanding parameters: no statement construction and cache-key
    # computation per batch
    erased: dict[str, datetime] = {
        h: at for h, at in session.execute(_ERASED, {"hashes": sorted(set(hashes.values()))})}
    # known messages by (user's upstream id, message id): ids are scoped by user
    known: dict[tuple[str, str], tuple[Message, str]] = {
        (user_ext, row.upstream_message_id): (row, conv_ext)
        for row, user_ext, conv_ext in session.execute(
            _KNOWN_MESSAGES, {"mids": sorted({m.message_id for m in msgs}), "ext": sorted(hashes)})}
    users: dict[str, int] = {
        ext: pk for ext, pk in session.execute(_KNOWN_USERS, {"ext": sorted(hashes)})}
    new_users = sorted({
        m.user_id for m in msgs
        if m.user_id not in users and (m.user_id, m.message_id) not in known
        and not (erased.get(hashes[m.user_id]) is not None
                 and m.created_at <= erased[hashes[m.user_id]])})
    if new_users:  # created together: one insert for the batch instead of three statements each
        users.update(get_or_create_users(session, new_users))
    conversations: dict[tuple[int, str], int] = {}
    out: list[IngestResult] = []
    for msg in msgs:
        erased_at = erased.get(hashes[msg.user_id])
        if erased_at is not None and msg.created_at <= erased_at:
            out.append(IngestResult(0, 0, 0, False, False))  # see ``ingest``
            continue
        found = known.get((msg.user_id, msg.message_id))
        if found is None:
            user_pk = users.get(msg.user_id)
            if user_pk is None:
                user_pk = users[msg.user_id] = get_or_create_user(session, msg.user_id)
            conv_key = (user_pk, msg.conversation_id)
            conv_pk = conversations.get(conv_key)
            if conv_pk is None or msg.conversation_summary:  # a summary replaces the stored one
                conv_pk = conversations[conv_key] = get_or_create_conversation(
                    session, user_pk, msg.conversation_id, msg.conversation_summary)
            new_pk = insert_message(session, msg, user_pk, conv_pk)
            if new_pk is not None:
                is_user = msg.role == MessageRole.USER.value
                out.append(IngestResult(new_pk, user_pk, conv_pk, True, is_user))
                continue
            stored = find_message(session, user_pk, msg.message_id)
            assert stored is not None
            found = known[(msg.user_id, msg.message_id)] = (
                stored, conversation_external_id(session, stored.conversation_id))
        row, conv_ext = found
        conflict = message_conflict(row, conv_ext, msg)
        if conflict is not None:
            out.append(IngestResult(row.id, row.user_id, row.conversation_id, False, False, conflict))
            continue
        needs = row.role == MessageRole.USER.value and not (
            row.memory_status in FINAL and row.extractor_version == version
        )
        if needs and row.memory_status in FINAL:
            row.memory_status = MessageStatus.PENDING.value  # replay under a new extractor version
        out.append(IngestResult(row.id, row.user_id, row.conversation_id, False, needs))
    return out


# the batch's values as ONE array parameter (``= ANY``): an IN list renders a placeholder per value, a
# statement text per batch size that the driver parses again on every batch (its cache holds short texts)
_TEXTS = ARRAY(String)
_ERASED = select(ErasedUser.user_hash, ErasedUser.erased_at).where(
    ErasedUser.user_hash == any_(bindparam("hashes", type_=_TEXTS)))

_KNOWN_USERS = select(User.external_id, User.id).where(
    User.external_id == any_(bindparam("ext", type_=_TEXTS)))

_KNOWN_MESSAGES = (  # known messages with their user's and conversation's upstream ids
    select(Message, User.external_id, Conversation.external_id)
    .join(User, User.id == Message.user_id)
    .join(Conversation, Conversation.id == Message.conversation_id)
    .where(Message.upstream_message_id == any_(bindparam("mids", type_=_TEXTS)),
           User.external_id == any_(bindparam("ext", type_=_TEXTS)))
)
