"""``pai-memory verify [--user U] [--repair [--wait SEC]] [--json]``: PostgreSQL truth vs the Milvus index.

Classes (see ``core.verify``): ``unsynced`` (DIRTY/FAILED rows), ``orphaned`` (index entries the truth
does not want: erased, inactive, expired, filtered, filed under the wrong user), ``missing`` (SYNCED
rows absent from the index), ``stale`` (entry present but built from another text, model or version).

``--repair`` re-drives every drifting row through the outbox (``memory.dirty``; the running relay and
indexer do the rest) and deletes entries that have no truth row at all directly from Milvus.
``--wait SEC`` then waits for the indexer to catch up and verifies again.

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
    return 0 if last.clean else 1


def _say(args: argparse.Namespace, text: str) -> None:
    if not args.json:
        print(text)
