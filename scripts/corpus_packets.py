"""Case packets for annotators writing the hand-labelled corpus, and the corpus lines from them.

A packet replays what a correct agent does in the suites' own agent loop: the case's harness in
force (a variant case's augmented one), its hooks and retries, the episode's fault and seed, the
gold's required calls under the harness's tool names (the calls that fail with a fault made again,
as ``hat/oracle`` does), stopping where the agent would write its answer. Two views:

- ``agent``: what the agent sees and nothing else: the rendered system prompt (with the live
  line), the tool schemas, the session context as its tool returns it, the viewer's message and
  the transcript of the calls and their results. No gold, no knowledge-base truth, no checks.
- ``annotator`` (the default): the viewer's message, the live session, the same tool results,
  the knowledge base's truth about the products involved (details, stock, prices, shipping and
  returns, promotions, compliance rules), and the stored case, gold and call records that
  ``assemble`` puts in the corpus line. An annotator never sees the checks.

    python scripts/corpus_packets.py dump --suite robustness --n 20 --start 0 --out DIR
    python scripts/corpus_packets.py pick --out cases.txt   # fresh test cases, none in the corpus
    python scripts/corpus_packets.py pick --split dev --size 2100 --out cases.txt  # new dev cases
    python scripts/corpus_packets.py dump --ids cases.txt --view agent --out DIR/agent
    python scripts/corpus_packets.py dump --ids cases.txt --view annotator --out DIR/annotator
    python scripts/corpus_packets.py assemble --packets DIR/annotator --answers answers.jsonl \
        --labeller L5 --out judge/corpus/answers_L5.jsonl

``answers.jsonl`` lines: ``{"case_id", "kind", "answer", "labels": {"accuracy", "safety"},
"reason"}``; ``assemble`` adds the stored case, gold, fault and tool records from the
annotator-view packet.
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any, NoReturn

from hat_eval.baselines import RETRIES
from hat_eval.episode import (
    TRACE_KEY,
    CallRecord,
    Message,
    ToolCall,
    ToolRuntime,
    agent_steps,
    episode_context,
    openai_message,
    oracle_calls,
    stable_seed,
)
from hat_eval.harness import render_tools
from hat_eval.suites import suite_episodes
from hat_eval.world import call_function


def _fail(message: str) -> NoReturn:
    """Bad input: one line on stderr, exit code 2."""
    print(message, file=sys.stderr)
    raise SystemExit(2)


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
                {"id": r["id"], "kind": r.get("kind"), "description": r.get("reason")}
                for r in kb.rules(str(p["category"]))
            ],
        }
    return out


def _reached(ep: Any) -> bool:
    """Whether a fault reached the agent (an error, or data that only looks fine)."""
    silent = {"partial", "schema_drift"}
    return any(r.outcome != "ok" or set(r.faults) & silent for r in _correct_run(ep)[1])


def _correct_run(ep: Any) -> tuple[list[Message], list[CallRecord], Any]:
    """What a correct agent sees before it writes its answer, and the records of its calls.

    The agent loop the suites run (:func:`hat_eval.episode.agent_steps`: the harness's system
    prompt with the live line, its hooks and retries, the episode's fault and seed), driven by
    the oracle's calls (:func:`hat_eval.episode.oracle_calls`: the gold's required calls under
    the names in force, the skill load first under progressive disclosure), and the calls whose
    fault reached it made again for up to ``RETRIES`` turns, as ``hat/oracle`` does. Stops
    where the agent would answer. Returns the transcript, the call records and the context.
    """
    ctx = episode_context(ep)
    calls = list(oracle_calls(ep.case, ctx.harness.tools, skill=ep.gold.skill))
    steps = agent_steps(ctx, [Message("user", ep.case.message)], seed=stable_seed(ep.id))
    step = next(steps)
    turn = 0
    while calls and turn <= RETRIES:
        try:
            step = steps.send(Message("assistant", "", tool_calls=tuple(calls)))
        except StopIteration:  # the loop's turns ran out
            break
        turn += 1
        outcome = {
            m.tool_call_id: str((m.metadata or {}).get(TRACE_KEY, {}).get("outcome", ""))
            for m in step.messages
            if m.role == "tool"
        }
        made = sum(len(m.tool_calls) for m in step.messages if m.role == "assistant")
        calls = [
            ToolCall(f"call_{made + i}", c.function, c.arguments)
            for i, c in enumerate(c for c in calls if outcome.get(c.id, "").startswith("fault:"))
        ]
    messages = list(step.messages)
    steps.close()
    records = [
        CallRecord.from_dict((m.metadata or {})[TRACE_KEY])
        for m in messages
        if m.role == "tool" and TRACE_KEY in (m.metadata or {})
    ]
    return messages, records, ctx


def _session_context(ctx: Any, ep: Any) -> Any:
    """The live session as the session-context tool returns it (its text, no fault)."""
    name = ep.gold.tools.get("live.session_context")
    if name is None:  # a harness without the tool: the agent has the live line only
        return None
    text, _ = ToolRuntime(ctx.harness, ctx.kb, ctx.session).call(name, {})
    return text


def _agent_packet(ep: Any, messages: list[Message], ctx: Any) -> dict[str, Any]:
    """What the agent sees and nothing else: no gold, no knowledge-base truth, no checks."""
    system = next(m.content for m in messages if m.role == "system")
    return {
        "case_id": ep.id,
        "view": "agent",
        "system_prompt": system,
        "tools": render_tools(ctx.harness),
        "session_context": _session_context(ctx, ep),
        "viewer_message": ep.case.message,
        "transcript": [openai_message(m) for m in messages if m.role != "system"],
    }


def _tool_results(messages: list[Message]) -> list[dict[str, Any]]:
    """Each call of the transcript with what came back (the tool's or a hook's text)."""
    asked = {c.id: c for m in messages if m.role == "assistant" for c in m.tool_calls}
    out = []
    for m in messages:
        if m.role != "tool" or m.tool_call_id not in asked:
            continue
        call = asked[m.tool_call_id]
        record = (m.metadata or {}).get(TRACE_KEY, {})
        out.append(
            {
                "tool": call.function,
                "arguments": call.arguments,
                "returned": m.content,
                "outcome": record.get("outcome"),
            }
        )
    # a harness that returns results in a user message: the agent reads that message instead
    joined = [m.content for m in messages[2:] if m.role == "user"]
    return out if not joined else [*out, {"results_as_user_message": joined}]


def _annotator_packet(
    ep: Any, messages: list[Message], records: list[CallRecord], ctx: Any
) -> dict[str, Any]:
    """Today's packet (the knowledge base's truth, the stored case) with the agent's results."""
    pids = list(dict.fromkeys([*ep.case.product_ids, ep.case.session.product_on_screen]))
    coupons = sorted(
        {code for c in ep.case.expected_calls for code in c.args.get("coupon_codes", [])}
    )
    return {
        "case_id": ep.id,
        "view": "annotator",
        "for_the_annotator": {
            "viewer_message": ep.case.message,
            "intent": ep.case.intent,
            "language": ep.case.language,
            "live_session": ep.case.session.to_dict(),
            "session_context": _session_context(ctx, ep),
            "what_the_agent_tools_returned": _tool_results(messages),
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
            for r in records
        ],
    }


def _episodes(args: argparse.Namespace) -> list[Any]:
    """The episodes to dump: ``--ids`` (a case id a line) or ``--suite`` from ``--start``."""
    if args.ids:
        wanted = [x.strip() for x in Path(args.ids).read_text().splitlines() if x.strip()]
        by_id: dict[str, Any] = {}
        for suite in dict.fromkeys(w.split("-", 1)[0] for w in wanted):
            try:
                episodes = suite_episodes(suite, split=args.split, n=args.size)
                by_id.update((e.id, e) for e in episodes)
            except (KeyError, ValueError) as err:
                _fail(f"{args.ids}: suite {suite!r} of a case id is unknown ({err})")
        missing = [w for w in wanted if w not in by_id]
        if missing:
            _fail(
                f"{args.ids}: case ids {missing[:3]} are not in the {args.split} split of their "
                "suite; expected ids like livestream-test-000104"
            )
        return [by_id[w] for w in wanted]
    if not args.suite:
        _fail("dump: give --suite SUITE (with --n, --start) or --ids FILE")
    episodes = suite_episodes(args.suite, split=args.split, n=args.size)[args.start :]
    if args.reached_agent:  # keep faults the agent met (an error, or data that only looks fine)
        episodes = [e for e in episodes if _reached(e)]
    return episodes[: args.n]


def dump(args: argparse.Namespace) -> None:
    """Write one packet per episode in the chosen view (``agent`` or ``annotator``)."""
    episodes = _episodes(args)
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        _fail(f"--out {out}: is a file, expected a folder for the packets")
    out.mkdir(parents=True, exist_ok=True)
    for ep in episodes:
        messages, records, ctx = _correct_run(ep)
        if args.view == "agent":
            packet = _agent_packet(ep, messages, ctx)
        else:
            packet = _annotator_packet(ep, messages, records, ctx)
        text = json.dumps(packet, ensure_ascii=False, indent=1, default=str)
        tmp = out / f".{ep.id}.json.tmp"
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(out / f"{ep.id}.json")
    print(f"{len(episodes)} {args.view} packets in {out}")


def pick(args: argparse.Namespace) -> None:
    """Case ids of a fresh validation set: cases no corpus file names, mixed as asked."""
    used: set[str] = set()
    for path in sorted(Path(p) for p in glob.glob(args.exclude)):
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as err:  # a dangling link among the excluded files, say
            _fail(f"{path}: cannot read it ({err.strerror}); expected a corpus file (--exclude)")
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)  # only the ids are read
            except json.JSONDecodeError as err:
                _fail(f"{path}:{n}: not JSON ({err.msg}); expected one corpus row a line")
            if not isinstance(row, dict):
                _fail(f"{path}:{n}: a {type(row).__name__}; expected one corpus row (an object)")
            used.add(str(row.get("case_id", "")))
            used.add(str(((row.get("stored") or {}).get("case") or {}).get("id", "")))
    chosen: list[str] = []
    for suite in args.suites.split(","):
        pool = [
            e
            for e in suite_episodes(suite, split=args.split, n=args.size)
            if e.id not in used and e.case.id not in used
        ]
        if len(pool) < args.n_per_suite:
            _fail(
                f"pick: suite {suite!r} has {len(pool)} {args.split} cases that no file of "
                f"{args.exclude!r} uses, {args.n_per_suite} asked; pass --size N (more than the "
                "split's size) to draw new cases past the frozen split"
            )
        chosen += _mixed(pool, args.n_per_suite, used)
    Path(args.out).write_text("".join(f"{x}\n" for x in chosen), encoding="utf-8")
    print(f"{len(chosen)} case ids to {args.out}")


def _mixed(pool: list[Any], n: int, used: set[str]) -> list[str]:
    """``n`` episode ids, mixed: intents, fault kinds and languages in even shares.

    Episodes are taken in the order of sha256(id) (deterministic, unrelated to generation
    order), in two passes: the first keeps one episode of each intent, the second fills up
    to ``n`` with each intent within an even share of ``n``. Throughout, each fault kind
    stays within an even share of ``n``, Chinese cases within a third and English within two
    thirds, and no two episodes kept (in any suite) share a world case.
    """
    order = sorted(pool, key=lambda e: hashlib.sha256(e.id.encode()).hexdigest())
    intents = {e.case.intent for e in pool}
    faults = {e.labels.get("fault", "none") for e in pool}
    cap_lang = {"zh": -(-n // 3), "en": n - n // 3}
    count: Counter[str] = Counter()
    out: list[str] = []
    cap_fault = -(-n // len(faults))
    for share in (1, None):  # first one of each intent, then even shares
        cap_intent = share or -(-n // len(intents))
        for e in order:
            if len(out) == n:
                break
            fault = e.labels.get("fault", "none")
            keys = (f"i:{e.case.intent}", f"f:{fault}", f"l:{e.case.language}")
            caps = (cap_intent, cap_fault, cap_lang.get(e.case.language, 0))
            if e.case.id in used or any(count[k] >= c for k, c in zip(keys, caps, strict=True)):
                continue
            count.update(keys)
            used.add(e.case.id)
            out.append(e.id)
    return out


def assemble(args: argparse.Namespace) -> None:
    """Join an annotator's answers with their packets into corpus lines."""
    packets = {p.stem: json.loads(p.read_text()) for p in Path(args.packets).glob("*.json")}
    lines: list[dict[str, Any]] = []
    src = Path(args.answers).read_text(encoding="utf-8").splitlines()
    for n, line in enumerate(src, 1):
        if not line.strip():
            continue
        row = json.loads(line)
        packet = packets.get(row["case_id"])
        if packet is None:
            _fail(f"{args.answers}:{n}: case_id {row['case_id']!r} has no packet")
        if "stored" not in packet:
            _fail(
                f"{args.packets}/{row['case_id']}.json: an {packet.get('view')} view packet has "
                "no stored case; assemble from the annotator view's folder"
            )
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


SIZE_HELP = (
    "cases drawn per suite (default: the split's frozen size); a larger size continues the "
    "case generators past it with new case ids (e.g. livestream-dev-001500 on), for fresh sets"
)


def main() -> None:
    """``dump`` or ``assemble`` (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump")
    d.add_argument("--suite")
    d.add_argument("--ids", help="a file of case ids, one a line (instead of --suite)")
    d.add_argument("--split", default="test")
    d.add_argument("--view", choices=("annotator", "agent"), default="annotator")
    d.add_argument("--n", type=int, default=20)
    d.add_argument("--start", type=int, default=0)
    d.add_argument("--out", required=True)
    d.add_argument("--size", type=int, default=None, help=SIZE_HELP)
    d.add_argument("--reached-agent", action="store_true", help="only faults the agent met")
    p = sub.add_parser("pick")
    p.add_argument("--suites", default="livestream,variant,robustness")
    p.add_argument("--split", default="test")
    p.add_argument("--n-per-suite", type=int, default=15)
    p.add_argument("--exclude", default="judge/corpus/*.jsonl", help="corpus files (a glob)")
    p.add_argument("--out", required=True)
    p.add_argument("--size", type=int, default=None, help=SIZE_HELP)
    a = sub.add_parser("assemble")
    a.add_argument("--packets", required=True)
    a.add_argument("--answers", required=True)
    a.add_argument("--labeller", required=True)
    a.add_argument("--out", required=True)
    args = parser.parse_args()
    {"dump": dump, "pick": pick, "assemble": assemble}[args.cmd](args)


if __name__ == "__main__":
    main()
