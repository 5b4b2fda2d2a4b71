"""``api.keys``: the authorisation rule every door applies (pure, no services)."""

from __future__ import annotations

import pytest

from api.keys import (
    ADMIN,
    ANONYMOUS,
    BOOTSTRAP,
    READ,
    WRITE,
    ForbiddenScope,
    ForbiddenUser,
    Principal,
    authorize,
)


def key(*scopes: str, user_id: str | None = None) -> Principal:
    return Principal(key_id="k1", scopes=frozenset(scopes), user_id=user_id, name="test key")


def test_the_bootstrap_and_anonymous_principals_may_do_everything() -> None:
    for principal in (BOOTSTRAP, ANONYMOUS):
        for scope in (READ, WRITE, ADMIN):
            authorize(principal, scope, "u1")
            authorize(principal, scope, None)


def test_a_missing_scope_is_forbidden_scope() -> None:
    authorize(key(READ), READ, "u1")
    with pytest.raises(ForbiddenScope) as raised:
        authorize(key(READ), WRITE, "u1")
    assert raised.value.code == "forbidden_scope" and "'write'" in raised.value.message
    with pytest.raises(ForbiddenScope):
        authorize(key(READ, WRITE), ADMIN, None)
    with pytest.raises(ForbiddenScope):
        authorize(key(WRITE), READ, "u1")


def test_admin_implies_read_and_write() -> None:
    authorize(key(ADMIN), READ, "u1")
    authorize(key(ADMIN), WRITE, "u1")


def test_a_user_bound_key_acts_only_on_its_user() -> None:
    bound = key(READ, WRITE, user_id="alice")
    authorize(bound, READ, "alice")
    authorize(bound, WRITE, "alice")
    for other in ("bob", "Alice", "alice ", None):
        with pytest.raises(ForbiddenUser) as raised:
            authorize(bound, READ, other)
        assert raised.value.code == "forbidden_user" and raised.value.field == "user_id"


def test_the_scope_is_checked_before_the_user() -> None:
    with pytest.raises(ForbiddenScope):
        authorize(key(READ, user_id="alice"), WRITE, "bob")


def test_an_unknown_scope_is_a_programming_error() -> None:
    with pytest.raises(ValueError):
        authorize(BOOTSTRAP, "root", None)
