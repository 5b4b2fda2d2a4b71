"""User and conversation rows of the store, over real PostgreSQL."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine

from core.memory.store import find_user, get_or_create_user
from core.storage.db import session_factory, transaction

pytestmark = pytest.mark.services


def test_a_user_is_created_once_and_found_again_without_drawing_ids(clean_db: Engine) -> None:
    sessions = session_factory(clean_db)
    with transaction(sessions) as s:
        assert find_user(s, "store-alice") is None
        alice = get_or_create_user(s, "store-alice")
    with transaction(sessions) as s:
        assert [get_or_create_user(s, "store-alice") for _ in range(5)] == [alice] * 5
        bob = get_or_create_user(s, "store-bob")
    # looking up a known user drew no sequence values: the next user gets the next id
    assert bob == alice + 1
    with sessions() as s:
        assert find_user(s, "store-alice") == alice and find_user(s, "store-bob") == bob
