"""``pai-memory forget-user USER_ID [--yes] [--json]``: erase one user everywhere we hold their data.

The answer to a deletion request. Removes the user's memories, memory history, messages,
conversations, processed commands, outbox rows and the user row from PostgreSQL (one transaction),
and their vectors from every registered Milvus collection; then proves it by counting what is left
(all zero) in every table and collection, and prints that proof. Kafka topics keep the user's past
events until retention expires; the erasure is recorded (a hash of the id) so the extractor skips
those events if they are replayed or redelivered.

Without ``--yes`` the command asks to type the user id again (and refuses when stdin is not a
terminal). Exit code 0 when the proof is clean, 1 when something is left, 2 for an unknown user or
a refused confirmation.
"""

from __future__ import annotations

import argparse
import json
import sys

from core.config import Settings, load_settings


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("forget-user", help="erase a user's memories, messages, history and vectors",
                            description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("user_id", metavar="USER_ID", help="the user's external id")
    parser.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    parser.add_argument("--check", action="store_true",
                        help="only print the proof for a user erased earlier (changes nothing)")
    parser.add_argument("--json", action="store_true", help="print the proof as one JSON object")
    parser.set_defaults(func=lambda args: run(args, load_settings()))


def run(args: argparse.Namespace, settings: Settings) -> int:
    from core.erasure import UnknownUser, UserEraser
    from core.storage.db import engine_for, session_factory
    from core.vectorstore import MilvusMemoryIndex, VectorStoreError

    if not args.check and not args.yes and not _confirmed(args.user_id):
        print("pai-memory forget-user: not confirmed; nothing was erased", file=sys.stderr)
        return 2
    sessions = session_factory(engine_for(settings.database_url, settings.DATABASE_POOL_SIZE))
    index = MilvusMemoryIndex.from_settings(settings)
    eraser = UserEraser(sessions, index, (settings.episode_collection,))
    try:
        proof = eraser.prove(args.user_id) if args.check else eraser.erase(args.user_id)
    except UnknownUser as exc:
        print(f"pai-memory forget-user: {exc}", file=sys.stderr)
        return 2
    except VectorStoreError as exc:
        print(f"pai-memory forget-user: Milvus: {exc}; PostgreSQL was not touched if this happened "
              f"before the database step - run the command again", file=sys.stderr)
        return 3
    finally:
        index.close()
    if not args.check:  # the audit names the user by hash only: the erased id is not kept
        from cli.keys_cmd import record_audit
        from core.memory.store import user_hash

        record_audit(settings, "user.erase", "ok" if proof.ok else "failed",
                     f"user#{user_hash(args.user_id)[:16]}")
    print(json.dumps(proof.as_dict(), ensure_ascii=False) if args.json else proof.render())
    return 0 if proof.ok else 1


def _confirmed(user_id: str) -> bool:
    if not sys.stdin.isatty():
        print("pai-memory forget-user: refusing without --yes when stdin is not a terminal", file=sys.stderr)
        return False
    answer = input(f"This permanently erases user {user_id!r}. Type the user id to confirm: ")
    return answer.strip() == user_id
