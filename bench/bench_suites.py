"""Suite overhead: deterministic scoring speed, and a suite run against a bare Inspect task.

Run: ``python bench/bench_suites.py [--samples 300]``. Prints

1. the time to score 4,500 transcripts with the deterministic scorers (target: under 5 s);
2. the wall time of the ``livestream`` suite on the zero-latency ``mockllm/model`` against a bare
   Inspect task (``generate()`` + ``includes()``) over the same number of samples, measured side
   by side in this run, and their ratio (target: at most 1.5x). Rounds are interleaved (the
   machine's drift hits every side alike) and each run starts from a collected heap (what one
   run leaves for the garbage collector would otherwise be charged to the next); the ratio is
   given as the median of the rounds' own ratios and as best against best.

Inspect's mockllm counts tokens with tiktoken's o200k file, which cannot be downloaded offline:
like the tests, this script estimates 4 characters a token instead.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import tempfile
import time

import inspect_ai.model._model as _model_module

_model_module.count_text_tokens = lambda text: max(1, len(text) // 4)  # type: ignore[assignment]


def bench_scoring(n: int = 4500) -> tuple[float, int]:
    from inspect_ai.model import ChatMessageTool, ChatMessageUser, ModelName, ModelOutput
    from inspect_ai.scorer import Target
    from inspect_ai.solver import TaskState

    from hat_eval.suites._context import to_sample
    from hat_eval.suites._dataset import build_rows
    from hat_eval.suites._runtime import TRACE_KEY, CallRecord
    from hat_eval.suites._scorers import variant_scorer
    from hat_eval.world import Case, build_kb, reference_answer

    kb = build_kb(0)
    rows = (
        build_rows("variant", n=1500)
        + build_rows("livestream", n=1500)
        + build_rows("robustness", n=1500)
    )
    pairs = []
    for row in rows[:n]:
        sample = to_sample(row)
        case = Case.from_dict(row["metadata"]["case"])
        answer = f"[skill: {row['metadata']['gold']['skill']}] " + reference_answer(case, kb)
        tool_messages = [
            ChatMessageTool(
                content="{}",
                function=e.function,
                metadata={TRACE_KEY: CallRecord(e.function, e.function, e.args, "ok").to_dict()},
            )
            for e in case.expected_calls
        ]
        state = TaskState(
            model=ModelName("mockllm/model"),
            sample_id=row["id"],
            epoch=1,
            input=row["input"],
            messages=[ChatMessageUser(content=row["input"]), *tool_messages],
            metadata=sample.metadata,
            output=ModelOutput.from_content("mockllm/model", answer),
        )
        pairs.append((state, Target(str(sample.target))))
    score = variant_scorer()

    async def run_all() -> None:
        for state, target in pairs:
            await score(state, target)

    t0 = time.perf_counter()
    asyncio.run(run_all())
    return time.perf_counter() - t0, len(pairs)


def bench_overhead(samples: int, rounds: int = 7) -> list[tuple[float, float, float]]:
    """Wall times per round: bare task on plain inputs, bare task on the suite's own samples
    (same inputs and metadata), and the suite, run one after the other in each round."""
    from inspect_ai import Task, eval
    from inspect_ai.dataset import Sample
    from inspect_ai.scorer import includes
    from inspect_ai.solver import generate

    from hat_eval.suites._task import suite_task

    suite = suite_task("livestream", n=samples)
    bare = Task(
        dataset=[Sample(input=s.input, target="x") for s in suite.dataset],
        solver=generate(),
        scorer=includes(),
        name="bare",
    )
    bare_same = Task(dataset=suite.dataset, solver=generate(), scorer=includes(), name="same")

    def timed(task: Task, log_dir: str) -> float:
        gc.collect()
        t0 = time.perf_counter()
        eval(task, model="mockllm/model", log_dir=log_dir, display="none")
        return time.perf_counter() - t0

    with tempfile.TemporaryDirectory() as tmp:
        eval(bare, model="mockllm/model", log_dir=tmp, display="none", limit=5)  # warm up
        # interleaved rounds: the machine's noise hits every side alike
        return [(timed(bare, tmp), timed(bare_same, tmp), timed(suite, tmp)) for _ in range(rounds)]


def bench_own_code(samples: int) -> float:
    """Milliseconds per sample that hat-eval's own solver and scorer code takes (no Inspect)."""
    from hat_eval.harness import render_system_prompt
    from hat_eval.suites._agent import live_context, tool_infos
    from hat_eval.suites._checks import score_answer
    from hat_eval.suites._context import sample_context, sample_gold, to_sample
    from hat_eval.suites._dataset import build_rows
    from hat_eval.suites._runtime import ToolRuntime

    samples_ = [to_sample(r) for r in build_rows("livestream", n=samples)]
    t0 = time.perf_counter()
    for sample in samples_:
        gold = sample_gold(str(sample.target))
        ctx = sample_context(sample.metadata or {}, gold["case"])
        render_system_prompt(ctx.harness)
        live_context(ctx.session, ctx.kb)
        tool_infos(ctx.harness)
        runtime = ToolRuntime(ctx.harness, ctx.kb, ctx.session, fault=ctx.fault)
        for call in gold["case"]["expected_calls"]:
            tool = ctx.harness.tool_for(call["function"])
            if tool is not None:
                runtime.call(tool.name, call["args"])
        score_answer(gold["case"], gold["gold"], "[skill: x] ok", runtime.dump())
    return (time.perf_counter() - t0) / len(samples_) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    seconds, n = bench_scoring()
    print(
        f"deterministic scoring: {n:,} transcripts in {seconds:.2f} s "
        f"({n / seconds:,.0f}/s); target < 5 s"
    )
    runs = bench_overhead(args.samples, args.rounds)
    t_bare, t_same, t_suite = (min(r[i] for r in runs) for i in range(3))
    n = args.samples
    print(
        f"bare Inspect task (generate + includes), {n} plain samples on mockllm/model: "
        f"{t_bare:.2f} s ({n / t_bare:.0f} samples/s)"
    )
    print(
        f"bare Inspect task on the suite's own {n} samples (same inputs and metadata): "
        f"{t_same:.2f} s ({n / t_same:.0f} samples/s)"
    )
    print(
        f"livestream suite (harness agent + deterministic scorer), same samples: "
        f"{t_suite:.2f} s ({n / t_suite:.0f} samples/s)"
    )
    median = statistics.median(r[2] / r[0] for r in runs)
    print(
        f"ratio suite / bare on plain samples: {median:.2f}x (median of {len(runs)} rounds' "
        f"ratios; best against best {t_suite / t_bare:.2f}x); suite / bare on the same "
        f"samples: {statistics.median(r[2] / r[1] for r in runs):.2f}x; target <= 1.5x"
    )
    own = bench_own_code(args.samples)
    per_sample = (t_suite - t_bare) / args.samples * 1000
    print(
        f"hat-eval's own solver + tools + scorer code: {own:.2f} ms per sample, of the "
        f"{per_sample:.1f} ms per sample the suite costs over the bare task (the rest is "
        "Inspect handling the real prompt, 8 tool schemas, metadata and per-group metrics)"
    )


if __name__ == "__main__":
    main()
