"""HSA-SFT's data pipeline: the stream drawn in DataLoader workers, each slot once, in order."""

from __future__ import annotations

import copy
import itertools
import pickle
import warnings
from typing import Any

import pytest

from hat_eval.episode import Episode
from hat_eval.suites import suite_episodes
from hat_eval.trainers import _trajectory
from hat_eval.trainers._pipeline import (
    build_dataset,
    default_prefetch_factor,
    worker_error,
    worker_slots,
)
from hat_eval.trainers._sft import preflight
from hat_eval.trainers._trajectory import EmptyPoolError, TrajectoryStream


@pytest.fixture(scope="module")
def pool() -> list[Episode]:
    return suite_episodes("livestream", split="train", n=12)


def _read(stream: TrajectoryStream, workers: int, batch: int, rows: int) -> list[dict[str, Any]]:
    """The first ``rows`` rows a real DataLoader with ``workers`` workers hands out."""
    from torch.utils.data import DataLoader

    loader = DataLoader(
        build_dataset(stream, block=batch),
        batch_size=batch,
        num_workers=workers,
        collate_fn=list,
    )
    with warnings.catch_warnings():  # a machine with fewer cores than workers: PyTorch warns
        warnings.filterwarnings("ignore", message="This DataLoader will create")
        batches = itertools.islice(loader, rows // batch)
        return [row for b in batches for row in b]


def test_worker_k_of_n_takes_blocks_k_k_plus_n_and_so_on() -> None:
    def first(worker: int, workers: int, block: int) -> list[int]:
        return list(itertools.islice(worker_slots(worker, workers, block), 6))

    assert first(0, 1, 1) == [0, 1, 2, 3, 4, 5]
    assert first(1, 2, 1) == [1, 3, 5, 7, 9, 11]  # rows k, k + n, ...
    assert first(0, 2, 2) == [0, 1, 4, 5, 8, 9]  # whole batches: blocks 0, 2, 4
    assert first(1, 2, 2) == [2, 3, 6, 7, 10, 11]
    # together the workers take every slot exactly once
    slots = [s for w in range(3) for s in itertools.islice(worker_slots(w, 3, 2), 10)]
    assert sorted(slots) == list(range(30))


@pytest.mark.parametrize("batch", [1, 2])
def test_the_same_rows_in_the_same_order_with_0_1_and_2_workers(
    pool: list[Episode], batch: int
) -> None:
    rows = 12  # one pass over the pool and two more draws per worker's block
    expected = [TrajectoryStream(pool, augment_seed=3).slot(j).row() for j in range(rows)]
    assert len({repr(r) for r in expected}) == rows  # every slot its own row
    for workers in (0, 1, 2):
        stream = TrajectoryStream(pool, augment_seed=3)
        assert _read(stream, workers, batch, rows) == expected, f"{workers} workers"
        stats = stream.last_pass()  # the workers' counts reach this process
        assert stats.drawn >= rows and stats.drawn == stats.kept


def test_rejected_draws_are_refilled_in_place_for_any_number_of_workers(
    pool: list[Episode], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = _trajectory.oracle_answer
    odd = {e.case.id for i, e in enumerate(pool) if i % 2}

    def sometimes_wrong(episode, ctx):  # type: ignore[no-untyped-def]
        if episode.case.id in odd:
            return f"[skill: {episode.gold.skill}] I am not sure, maybe ask later."
        return real(episode, ctx)

    monkeypatch.setattr(_trajectory, "oracle_answer", sometimes_wrong)  # forked workers too
    expected = [TrajectoryStream(pool).slot(j) for j in range(8)]
    assert all(t.episode.case.id not in odd for t in expected)
    assert len({(t.episode.case.id, t.episode.harness.seed) for t in expected}) == 8
    for workers in (0, 2):
        stream = TrajectoryStream(pool)
        assert _read(stream, workers, 2, 8) == [t.row() for t in expected]
        stats = stream.last_pass()
        assert sum(stats.rejected.values()) > 0
        assert stats.drawn == stats.kept + sum(stats.rejected.values())


def test_a_stream_that_runs_dry_in_a_worker_is_one_line(
    pool: list[Episode], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_trajectory, "oracle_answer", lambda episode, ctx: "no idea")
    with pytest.raises(EmptyPoolError) as err:
        _read(TrajectoryStream(pool[:3]), 1, 1, 1)
    assert "Original Traceback" in str(err.value)  # PyTorch's re-raise
    message = worker_error(err.value)
    assert message.startswith("3 draws in a row were rejected") and "\n" not in message
    assert worker_error(EmptyPoolError("plain")) == "plain"


def test_the_preflights_rows_are_trained_on_without_drawing_them_again(
    pool: list[Episode], monkeypatch: pytest.MonkeyPatch
) -> None:
    stream = TrajectoryStream(pool)
    survey = preflight(stream, 4)
    assert survey["kept"] == 4 and sorted(stream.kept_rows) == [0, 1, 2, 3]
    expected = [TrajectoryStream(pool).slot(j).row() for j in range(4)]

    def no_drawing(*args: object, **kwargs: object) -> None:
        raise AssertionError("a surveyed row was drawn again")

    monkeypatch.setattr(_trajectory, "run_oracle", no_drawing)
    assert _read(stream, 2, 2, 4) == expected
    assert stream.last_pass().kept >= 4


def test_counts_are_shared_with_workers_and_copied_elsewhere(pool: list[Episode]) -> None:
    stream = TrajectoryStream(pool)
    list(itertools.islice(stream.rows(), 3))
    for clone in (pickle.loads(pickle.dumps(stream)), copy.deepcopy(stream)):
        assert clone.last_pass().drawn == 3  # the values, in memory of its own
        list(itertools.islice(clone.rows(), 5))
        assert clone.last_pass().drawn == 5
    assert stream.last_pass().drawn == 3


def test_prefetch_covers_one_optimizer_step() -> None:
    assert default_prefetch_factor(0, 8) is None
    assert default_prefetch_factor(2, 8) == 4
    assert default_prefetch_factor(4, 1) == 2
