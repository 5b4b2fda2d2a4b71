"""``pai-memory verify [--user U] [--repair [--wait SEC]] [--json]``: PostgreSQL truth vs the Milvus index.
``pai-memory verify --served [--wait SEC] [--json]``: does Milvus serve it from sealed, indexed segments?

Classes (see ``core.verify``): ``unsynced`` (DIRTY/FAILED rows), ``orphaned`` (index entries the truth
does not want: erased, inactive, expired, filtered, filed under the wrong user), ``missing`` (SYNCED
rows absent from the index), ``stale`` (entry present but built from another text, model or version).

Episodes (``core.episodes.verify``, their own collection): ``unsynced``, ``missing``, ``orphaned``;
``--repair`` announces them again (``pai.episode.dirty.v1``) and deletes orphaned entries.

``--repair`` re-drives every drifting row through the outbox (``memory.dirty``; the running relay and
indexer do the rest) and deletes entries that have no truth row at all directly from Milvus.
``--wait SEC`` then waits for the indexer to catch up and verifies again.

``--served`` (no truth comparison): the readiness condition after a bulk load or a reindex
(``core.milvus_serving``): the active memories' collection and the episodes' are served only from sealed,
indexed segments (index covers every row; no growing segment, no segment hand-off or compaction swap
pending). ``--wait SEC`` flushes them first and waits up to SEC for that. Exit 0 ready, 1 not ready.

Exit code: 0 when the last report printed is clean, 1 when it shows drift, 2 on a usage error.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from core.config import Settings, load_settings


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("verify", help="compare PostgreSQL truth with the Milvus index; repair drift",
                            description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--user", metavar="USER_ID", help="only this user (external id); default: everyone")
    parser.add_argument("--repair", action="store_true", help="fix drift through the outbox path")
    parser.add_argument("--wait", type=float, default=0.0, metavar="SEC",
                        help="with --repair: wait up to SEC for the indexer, then verify again")
    parser.add_argument("--served", action="store_true",
                        help="only check that Milvus serves the collections from sealed, indexed segments "
                             "(after a bulk load or a reindex); with --wait SEC flush and wait for it")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    parser.add_argument("--no-confirm", action="store_true",
                        help="do not re-check flagged ids (faster; may report in-flight writes as drift)")
    parser.set_defaults(func=lambda args: run(args, load_settings()))


def run(args: argparse.Namespace, settings: Settings) -> int:
    from core.storage.db import engine_for, session_factory
    from core.vectorstore import MilvusMemoryIndex, VectorStoreError
    from core.verify import TruthIndexVerifier, VerifyError

    sessions = session_factory(engine_for(settings.database_url, settings.DATABASE_POOL_SIZE))
    index = MilvusMemoryIndex.from_settings(settings)
    if args.served:
        try:
            return _served(args, settings, sessions, index)
        except VectorStoreError as exc:
            print(f"pai-memory verify: Milvus: {exc}", file=sys.stderr)
            return 3
        finally:
            index.close()
    verifier = TruthIndexVerifier(sessions, index)
    out: dict[str, Any] = {}
    try:
        report = verifier.verify(args.user, confirm=not args.no_confirm)
        out["report"] = report.as_dict()
        _say(args, report.render())
        last = report
        if args.repair and not report.clean:
            repaired = verifier.repair(report, dirty_topic=settings.TOPIC_MEMORY_DIRTY)
            out["repair"] = repaired.as_dict()
            _say(args, f"repair: enqueued memory.dirty for {len(repaired.enqueued_ids)} memories "
                       f"{repaired.enqueued}, deleted {len(repaired.deleted_entries)} entries without a row")
            if args.wait > 0:
                caught_up = verifier.wait_synced(repaired.enqueued_ids, args.wait)
                out["caught_up"] = caught_up
                if not caught_up:
                    _say(args, f"indexer did not catch up within {args.wait:g}s (relay/indexer running?)")
                last = verifier.verify(args.user, confirm=not args.no_confirm)
                out["after"] = last.as_dict()
                _say(args, last.render())
        episodes_clean = _episodes(args, settings, sessions, index, out)
    except VerifyError as exc:
        print(f"pai-memory verify: {exc}", file=sys.stderr)
        return 2
    except VectorStoreError as exc:
        print(f"pai-memory verify: Milvus: {exc}", file=sys.stderr)
        return 3
    finally:
        index.close()
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
    return 0 if last.clean and episodes_clean else 1


def _episodes(args: argparse.Namespace, settings: Settings, sessions: Any, index: Any,
              out: dict[str, Any]) -> bool:
    """The episodes' part (``core.episodes.verify``): report, and with ``--repair`` re-announce."""
    if not settings.EPISODES_ENABLED:
        return True
    from core.episodes.verify import repair_episodes, verify_episodes
    from core.memory.store import find_user

    user_pk = None
    if args.user:
        with sessions() as session:
            user_pk = find_user(session, args.user)
        if user_pk is None:
            return True
    view = index.for_collection(settings.episode_collection)
    report = verify_episodes(sessions, view, user_pk)
    out["episodes"] = report.as_dict()
    _say(args, report.render())
    if args.repair and not report.clean:
        announced = repair_episodes(sessions, view, report, topic=settings.TOPIC_MEMORY_DIRTY)
        out["episodes_repair"] = {"announced": len(announced), "deleted_entries": len(report.orphaned)}
        _say(args, f"repair: announced {len(announced)} episodes, deleted {len(report.orphaned)} entries")
        return False
    return report.clean


def _served(args: argparse.Namespace, settings: Settings, sessions: Any, index: Any) -> int:
    """``--served``: the serving state of the active memories' collection and the episodes' collection."""
    from core.vectorstore import active_collection

    with sessions() as session:
        row = active_collection(session)
    names = [row.name if row is not None else index.collection]
    if settings.EPISODES_ENABLED:
        names.append(settings.episode_collection)
    out: dict[str, Any] = {}
    ready = True
    for name in names:
        view = index.for_collection(name)
        if not view.has_collection():
            continue
        if args.wait > 0:
            state, waited = view.wait_served(args.wait)
        else:
            state, waited = view.serving_state(), 0.0
        out[name] = {**state.as_dict(), "waited_sec": round(waited, 1)}
        ready = ready and state.ready
        _say(args, state.render() + (f" (waited {waited:.1f}s)" if args.wait > 0 else ""))
    if args.json:
        print(json.dumps({"served": out, "ready": ready}))
    return 0 if ready else 1


def _say(args: argparse.Namespace, text: str) -> None:
    if not args.json:
        print(text)
