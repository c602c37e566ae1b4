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

    from hat_eval.episode import TRACE_KEY, CallRecord
    from hat_eval.suites import suite_episodes, to_sample
    from hat_eval.suites._scorers import variant_scorer
    from hat_eval.world import build_kb, reference_answer

    kb = build_kb(0)
    episodes = (
        suite_episodes("variant", n=1500)
        + suite_episodes("livestream", n=1500)
        + suite_episodes("robustness", n=1500)
    )
    pairs = []
    for episode in episodes[:n]:
        sample = to_sample(episode)
        case = episode.case
        answer = f"[skill: {episode.gold.skill}] " + reference_answer(case, kb)
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
            sample_id=episode.id,
            epoch=1,
            input=case.message,
            messages=[ChatMessageUser(content=case.message), *tool_messages],
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


ARMS = ("bare", "same", "native", "suite")
"""The tasks timed side by side: a bare task on plain samples, a bare task on the suite's own
samples, Inspect's own minimal agent carrying the suite's system prompt and 8 tools
(``system_message`` + ``use_tools`` + ``generate``), and the suite."""


def bench_overhead(samples: int, rounds: int = 9) -> dict[str, list[float]]:
    """Wall seconds of each of :data:`ARMS` per round, run one after the other in each round."""
    from inspect_ai import Task, eval
    from inspect_ai.dataset import Sample
    from inspect_ai.scorer import includes
    from inspect_ai.solver import generate, system_message, use_tools
    from inspect_ai.tool import ToolDef

    from hat_eval.episode import base_harness
    from hat_eval.suites import suite_task
    from hat_eval.suites._agent import rendered

    suite = suite_task("livestream", n=samples)
    prompt, specs = rendered(base_harness())

    async def never_called(**kwargs: object) -> str:
        return ""

    tools = [
        ToolDef(never_called, name=t.name, description=t.description, parameters=t.parameters)
        for t in specs
    ]
    tasks = {
        "bare": Task(
            dataset=[Sample(input=s.input, target="x") for s in suite.dataset],
            solver=generate(),
            scorer=includes(),
            name="bare",
        ),
        "same": Task(dataset=suite.dataset, solver=generate(), scorer=includes(), name="same"),
        "native": Task(
            dataset=suite.dataset,
            solver=[
                system_message(prompt.replace("{", "{{").replace("}", "}}")),
                use_tools(tools),
                generate(),
            ],
            scorer=includes(),
            name="native",
        ),
        "suite": suite,
    }

    def timed(task: Task, log_dir: str) -> float:
        gc.collect()
        t0 = time.perf_counter()
        eval(task, model="mockllm/model", log_dir=log_dir, display="none")
        return time.perf_counter() - t0

    times: dict[str, list[float]] = {arm: [] for arm in ARMS}
    with tempfile.TemporaryDirectory() as tmp:
        for task in tasks.values():  # warm up: Inspect imports much on its first eval
            eval(task, model="mockllm/model", log_dir=tmp, display="none", limit=5)
        for _ in range(rounds):  # interleaved: the machine's drift hits every arm alike
            for arm in ARMS:
                times[arm].append(timed(tasks[arm], tmp))
    return times


def bench_own_code(samples: int) -> float:
    """Milliseconds per sample that hat-eval's own solver and scorer code takes (no Inspect)."""
    from hat_eval.episode import ToolRuntime, check_answer, episode_context
    from hat_eval.suites import episode_of, suite_episodes, to_sample
    from hat_eval.suites._agent import live_context, rendered

    samples_ = [to_sample(e) for e in suite_episodes("livestream", n=samples)]
    t0 = time.perf_counter()
    for sample in samples_:
        episode = episode_of(sample.id or "", sample.metadata or {}, str(sample.target))
        ctx = episode_context(episode)
        rendered(ctx.harness)
        live_context(ctx.session, ctx.kb)
        runtime = ToolRuntime(ctx.harness, ctx.kb, ctx.session, fault=ctx.fault)
        for call in episode.case.expected_calls:
            tool = ctx.harness.tool_for(call.function)
            if tool is not None:
                runtime.call(tool.name, call.args)
        check_answer(
            episode.case, episode.gold, "[skill: x] ok", runtime.records, ctx.fault, ctx.kb
        ).values()
    return (time.perf_counter() - t0) / len(samples_) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    seconds, n = bench_scoring()
    print(
        f"deterministic scoring: {n:,} transcripts in {seconds:.2f} s "
        f"({n / seconds:,.0f}/s); target < 5 s"
    )
    times = bench_overhead(args.samples, args.rounds)
    best = {arm: min(t) for arm, t in times.items()}
    n = args.samples
    labels = {
        "bare": "bare Inspect task (generate + includes), plain samples",
        "same": "bare Inspect task on the suite's own samples",
        "native": "Inspect's own agent with the suite's prompt and 8 tools",
        "suite": "livestream suite (harness agent + deterministic scorer)",
    }
    print(f"{n} samples on mockllm/model, best of {args.rounds} interleaved rounds:")
    for arm in ARMS:
        print(f"  {labels[arm]}: {best[arm]:.2f} s ({n / best[arm]:.0f} samples/s)")

    def ratio(a: str, b: str) -> float:
        return statistics.median(x / y for x, y in zip(times[a], times[b], strict=True))

    print(
        f"ratio suite / bare: {ratio('suite', 'bare'):.2f}x (median of the rounds' ratios; "
        f"best against best {best['suite'] / best['bare']:.2f}x); target <= 1.5x"
    )
    print(
        f"  suite / bare on the same samples: {ratio('suite', 'same'):.2f}x; "
        f"suite / Inspect's own agent with the same prompt and tools: "
        f"{ratio('suite', 'native'):.2f}x; that agent / bare: {ratio('native', 'bare'):.2f}x"
    )
    own = bench_own_code(args.samples)
    per_sample = (best["suite"] - best["bare"]) / args.samples * 1000
    print(
        f"hat-eval's own solver + tools + scorer code: {own:.2f} ms per sample, of the "
        f"{per_sample:.1f} ms per sample the suite costs over the bare task (the rest is "
        "Inspect handling the real prompt, 8 tool schemas, metadata and per-group metrics)"
    )


if __name__ == "__main__":
    main()
