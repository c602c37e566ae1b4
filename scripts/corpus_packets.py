"""Case packets for annotators writing the hand-labelled corpus, and the corpus lines from them.

An annotator never sees the checks: a packet holds what a careful human needs to write and judge
an answer: the viewer's message, the live session, what the agent's tools returned (after the
hooks' retries, faults included) and the knowledge base's truth about the products involved
(details, stock, prices, shipping and returns, promotions, compliance rules).

    python scripts/corpus_packets.py dump --suite robustness --n 20 --start 0 --out DIR
    python scripts/corpus_packets.py assemble --packets DIR --answers answers.jsonl \
        --labeller L5 --out judge/corpus/answers_L5.jsonl

``answers.jsonl`` lines: ``{"case_id", "kind", "answer", "labels": {"accuracy", "safety"},
"reason"}``; ``assemble`` adds the stored case, gold, fault and tool records from the packet.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from hat_eval.episode import ToolRuntime, episode_context
from hat_eval.suites import suite_episodes
from hat_eval.world import call_function


def _kb_truth(kb: Any, session: Any, product_ids: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pid in product_ids:
        p = kb.product(pid)
        if p is None:
            continue
        skus = kb.skus(pid)
        prices = {}
        for s in skus:
            prices[s["sku"]] = call_function(kb, session, "pricing.final_price", {"sku": s["sku"]})
        out[pid] = {
            "product": call_function(kb, session, "catalog.get_product", {"product_id": pid}),
            "stock": call_function(kb, session, "inventory.check_stock", {"product_id": pid}),
            "prices_without_coupon": prices,
            "shipping_and_returns": call_function(
                kb, session, "policy.shipping_returns", {"product_id": pid}
            ),
            "promotions": kb.promotions(pid),
            "compliance_rules_of_category": [
                {"id": r["id"], "kind": r.get("kind"), "description": r.get("description")}
                for r in kb.rules(str(p["category"]))
            ],
        }
    return out


def _reached(ep: Any) -> bool:
    ctx = episode_context(ep)
    runtime = ToolRuntime(ctx.harness, ctx.kb, ctx.session, fault=ctx.fault)
    for call in ep.case.required_calls:
        runtime.call(ep.gold.tools.get(call.function, call.function), dict(call.args))
    silent = {"partial", "schema_drift"}
    return any(r.outcome != "ok" or set(r.faults) & silent for r in runtime.records)


def dump(args: argparse.Namespace) -> None:
    """Write one packet per episode: what the annotator reads, and what the corpus stores."""
    episodes = suite_episodes(args.suite)[args.start :]
    if args.reached_agent:  # keep faults the agent met (an error, or data that only looks fine)
        episodes = [e for e in episodes if _reached(e)]
    episodes = episodes[: args.n]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for ep in episodes:
        ctx = episode_context(ep)
        runtime = ToolRuntime(ctx.harness, ctx.kb, ctx.session, fault=ctx.fault)
        seen = []
        for call in ep.case.expected_calls:
            if call.optional and not call.args and call.function != "live.session_context":
                continue  # an agent does not search with no query
            name = ep.gold.tools.get(call.function, call.function)
            text, error = runtime.call(name, dict(call.args))
            seen.append({"tool": name, "arguments": call.args, "returned": text, "error": error})
        pids = list(dict.fromkeys([*ep.case.product_ids, ep.case.session.product_on_screen]))
        coupons = sorted(
            {code for c in ep.case.expected_calls for code in c.args.get("coupon_codes", [])}
        )
        packet = {
            "case_id": ep.id,
            "for_the_annotator": {
                "viewer_message": ep.case.message,
                "intent": ep.case.intent,
                "language": ep.case.language,
                "live_session": ep.case.session.to_dict(),
                "what_the_agent_tools_returned": seen,
                "coupons_the_viewer_named": [
                    {"code": c, **(ctx.kb.coupon(c) or {"exists": False})} for c in coupons
                ],
                "knowledge_base_truth": _kb_truth(ctx.kb, ctx.session, pids),
                "answer_limits": ep.gold.constraints,
            },
            "stored": {
                "case": ep.case.to_dict(),
                "gold": ep.gold.to_dict(),
                "kb_seed": ep.kb_seed,
                "fault": ep.fault.to_dict() if ep.fault else None,
            },
            "tool_calls": [
                {
                    "name": r.name,
                    "function": r.function,
                    "arguments": r.arguments,
                    "outcome": r.outcome,
                    "faults": r.faults,
                    "attempts": r.attempts,
                }
                for r in runtime.records
            ],
        }
        (out / f"{ep.id}.json").write_text(
            json.dumps(packet, ensure_ascii=False, indent=1, default=str), encoding="utf-8"
        )
    print(f"{len(episodes)} packets in {out}")


def assemble(args: argparse.Namespace) -> None:
    """Join an annotator's answers with their packets into corpus lines."""
    packets = {p.stem: json.loads(p.read_text()) for p in Path(args.packets).glob("*.json")}
    lines = []
    src = Path(args.answers).read_text(encoding="utf-8").splitlines()
    for n, line in enumerate(src, 1):
        if not line.strip():
            continue
        row = json.loads(line)
        packet = packets.get(row["case_id"])
        if packet is None:
            sys.exit(f"{args.answers}:{n}: case_id {row['case_id']!r} has no packet")
        suite = row["case_id"].split("-", 1)[0]
        lines.append(
            {
                "id": f"{args.labeller}-{len(lines) + 1:04d}",
                "case_id": row["case_id"],
                "suite": suite,
                "intent": packet["stored"]["case"]["intent"],
                "kind": row["kind"],
                "answer": row["answer"],
                "tool_calls": packet["tool_calls"],
                "labels": row["labels"],
                "reason": row.get("reason", ""),
                "labeller": args.labeller,
                "stored": packet["stored"],
            }
        )
    Path(args.out).write_text(
        "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8"
    )
    print(f"{len(lines)} answers to {args.out}")


def main() -> None:
    """``dump`` or ``assemble`` (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump")
    d.add_argument("--suite", required=True)
    d.add_argument("--n", type=int, default=20)
    d.add_argument("--start", type=int, default=0)
    d.add_argument("--out", required=True)
    d.add_argument("--reached-agent", action="store_true", help="only faults the agent met")
    a = sub.add_parser("assemble")
    a.add_argument("--packets", required=True)
    a.add_argument("--answers", required=True)
    a.add_argument("--labeller", required=True)
    a.add_argument("--out", required=True)
    args = parser.parse_args()
    dump(args) if args.cmd == "dump" else assemble(args)


if __name__ == "__main__":
    main()
