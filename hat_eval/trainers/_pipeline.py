"""HSA-SFT's data pipeline: rows drawn, verified, rendered and tokenized in DataLoader workers.

The trainer reads a :class:`datasets.IterableDataset` whose generator (:class:`StreamRows`) runs
in each DataLoader worker, and TRL's tokenizing ``map`` (chat template, assistant mask, labels,
truncation) runs lazily in the same worker, so the training process only collects finished
batches. Worker ``k`` of ``n`` draws the slots (rows, see
:class:`~hat_eval.trainers._trajectory.TrajectoryStream`) of blocks ``k, k + n, k + 2n, ...``,
a block being ``block`` consecutive slots, ``block`` the DataLoader's batch size: a worker makes
whole batches of its own rows, and the DataLoader hands batches out round-robin over its
workers (``dataloader_in_order``, the default), so batch ``i`` holds slots ``i * block`` to
``i * block + block - 1`` whatever the number of workers. No slot is drawn twice, and the rows
and their order are those the training process would draw alone (0 workers); with ``block`` 1
worker ``k`` takes rows ``k, k + n, ...``.

Two TRL steps work inside a worker and can reorder rows between batches when there is more than
one worker (each row is still used once): packing, and dropping a row that truncation left with
no trained token (``truncation_mode: keep_start`` with a ``max_length`` shorter than the system
prompt and tools).

The generator is built through ``datasets``' generator input stream with a fixed fingerprint:
``IterableDataset.from_generator`` would hash the generator, i.e. pickle the whole pool of cases
(about 1.4 s for 4,000 cases here), before the first step, for a cache a stream never uses.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Iterator
from typing import Any

from ._trajectory import MAX_WORKERS, TrajectoryStream

DEFAULT_CUDA_WORKERS = 2
"""DataLoader workers HSA-SFT draws in by default when CUDA is available (0 on CPU)."""


def default_num_workers() -> int:
    """:data:`DEFAULT_CUDA_WORKERS` when CUDA is available, else 0 (the training process draws).

    On a CPU the step is long enough to hide the drawing, and workers would take cores from
    the training's own threads; on a GPU the rows must be ready when the step ends.
    """
    import torch

    return DEFAULT_CUDA_WORKERS if torch.cuda.is_available() else 0


def default_prefetch_factor(workers: int, accumulation: int) -> int | None:
    """Batches each worker prepares ahead: one optimizer step's between them, at least 2.

    ``ceil(accumulation / workers)`` (PyTorch's default is 2), None without workers (PyTorch
    refuses a prefetch factor then).
    """
    if workers <= 0:
        return None
    return max(2, math.ceil(accumulation / workers))


def worker_slots(worker: int, workers: int, block: int) -> Iterator[int]:
    """The slots worker ``worker`` of ``workers`` draws, endlessly.

    Blocks ``worker``, ``worker + workers``, ``worker + 2 * workers``, ..., a block being
    ``block`` consecutive slots (block ``b``: ``b * block`` to ``b * block + block - 1``).
    """
    b = worker
    while True:
        yield from range(b * block, (b + 1) * block)
        b += workers


class StreamRows:
    """The generator ``datasets`` runs in each DataLoader worker: that worker's rows of a stream.

    Called with the worker's shards (``datasets`` splits :data:`MAX_WORKERS` placeholder shards
    over the workers, so it starts up to that many); which slots to draw comes from
    :func:`torch.utils.data.get_worker_info` (worker 0 of 1 in the main process), and the
    draws are counted in the stream's row for that worker
    (:attr:`~hat_eval.trainers._trajectory.TrajectoryStream.counts`).
    """

    def __init__(self, stream: TrajectoryStream, block: int = 1) -> None:
        if block < 1:
            raise ValueError(f"block ({block}) must be >= 1 (the DataLoader's batch size)")
        self.stream = stream
        self.block = block

    def __call__(self, shards: list[int]) -> Iterator[dict[str, Any]]:
        """This process's rows, in its slot order."""
        from torch.utils.data import get_worker_info

        info = get_worker_info()
        worker, workers = (info.id, min(info.num_workers, MAX_WORKERS)) if info else (0, 1)
        yield from self.stream.rows(worker_slots(worker, workers, self.block), worker=worker)


def build_dataset(stream: TrajectoryStream, *, block: int = 1) -> Any:
    """A :class:`datasets.IterableDataset` of ``stream``'s rows, drawn where they are read.

    ``block``: the DataLoader's batch size (``train_batch_size``), the unit the workers share
    the slots by (see the module docstring). Nothing is drawn until a row is read.
    """
    from datasets import IterableDataset
    from datasets.io.generator import GeneratorDatasetInputStream

    rows = StreamRows(stream, block)
    gen_kwargs = {"shards": list(range(MAX_WORKERS))}
    params = inspect.signature(GeneratorDatasetInputStream.__init__).parameters
    if "fingerprint" not in params:  # an older datasets: let it hash the generator
        return IterableDataset.from_generator(rows, gen_kwargs=gen_kwargs)
    fingerprint = f"hat-eval-sft-stream-{id(stream):x}-{block}"
    return GeneratorDatasetInputStream(
        generator=rows, gen_kwargs=gen_kwargs, streaming=True, fingerprint=fingerprint
    ).read()


def worker_error(err: BaseException) -> str:
    """The one-line message of ``err``, also when a DataLoader worker re-raised it.

    PyTorch re-raises a worker's exception in the training process with the worker's traceback
    in the message; its last line is the original ``Type: message``.
    """
    text = str(err).strip()
    if "Original Traceback" not in text:
        return text
    last = text.splitlines()[-1]
    return last.split(": ", 1)[1] if ": " in last else last
