"""The general-instruction loader: the shared Self-Instruct prompts, Tulu-style files, bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hat_eval.trainers import TrainError
from hat_eval.trainers._general import TULU3_SFT_MIXTURE, load_general_instructions


@pytest.fixture(scope="module")
def seed_tasks(shared_dir: Path) -> Path:
    return shared_dir / "data" / "general_instructions" / "seed_tasks.jsonl"


def _raw_rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _write_jsonl(path: Path, rows: list[Any]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


TULU_ROWS: list[dict[str, Any]] = [
    {
        "id": "oasst-1",
        "source": "oasst",
        "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "Name a colour."},
            {"role": "assistant", "content": "Blue."},
        ],
    },
    {
        "id": "multi-2",
        "source": "sharegpt",
        "messages": [
            {"role": "user", "content": "Hi"},
            {"role": "assistant", "content": "Hello!"},
            {"role": "user", "content": "Count to three."},
            {"role": "assistant", "content": "1, 2, 3."},
        ],
    },
    {
        "id": "open-3",
        "source": "flan",
        "messages": [{"role": "user", "content": "Translate 'cat' to French."}],
    },
]


# --- the shared prompt set (Self-Instruct seed tasks) -------------------------------------------


def test_shared_prompts_one_per_seed_task(seed_tasks: Path) -> None:
    rows = _raw_rows(seed_tasks)
    prompts = load_general_instructions(seed_tasks.parent)
    assert len(prompts) == len(rows)
    assert [p.id for p in prompts] == [r["id"] for r in rows]
    for prompt, row in zip(prompts, rows, strict=True):
        assert [t["role"] for t in prompt.messages] == ["user"]
        text = prompt.messages[0]["content"]
        given = row["instances"][0]["input"]
        if given:
            assert text == row["instruction"] + "\n\n" + given
        else:
            assert text == row["instruction"]
    # the folder and the file inside it are the same source
    assert load_general_instructions(seed_tasks) == prompts


def test_limit_and_seed_draw_a_reproducible_subset(seed_tasks: Path) -> None:
    every = {p.id for p in load_general_instructions(seed_tasks)}
    first = load_general_instructions(seed_tasks, limit=7, seed=3)
    again = load_general_instructions(seed_tasks, limit=7, seed=3)
    other = load_general_instructions(seed_tasks, limit=7, seed=4)
    assert len(first) == 7 and first == again
    assert {p.id for p in first} <= every
    assert [p.id for p in first] != [p.id for p in other]
    # without a seed the file order is kept
    unshuffled = load_general_instructions(seed_tasks, limit=3)
    assert [p.id for p in unshuffled] == [r["id"] for r in _raw_rows(seed_tasks)[:3]]


def test_chat_gives_trl_prompt_column(seed_tasks: Path) -> None:
    prompt = load_general_instructions(seed_tasks, limit=1)[0]
    chat = prompt.chat()
    assert chat == [{"role": "user", "content": prompt.messages[0]["content"]}]
    chat[0]["content"] = "changed"
    assert prompt.chat()[0]["content"] != "changed"


def test_importing_the_loader_does_not_import_trl() -> None:
    code = "import sys, hat_eval.trainers._general; print('trl' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# --- Tulu 3 layout ------------------------------------------------------------------------------


def _check_tulu(prompts: list[Any]) -> None:
    by_id = {p.id: p.chat() for p in prompts}
    assert by_id["oasst-1"] == TULU_ROWS[0]["messages"][:2]
    # up to, not including, the last assistant turn: earlier turns stay
    assert by_id["multi-2"] == TULU_ROWS[1]["messages"][:3]
    # no assistant turn: the whole conversation is the prompt
    assert by_id["open-3"] == TULU_ROWS[2]["messages"]


def test_tulu_jsonl(tmp_path: Path) -> None:
    prompts = load_general_instructions(_write_jsonl(tmp_path / "tulu.jsonl", TULU_ROWS))
    assert len(prompts) == 3
    _check_tulu(prompts)


def test_tulu_json_array(tmp_path: Path) -> None:
    path = tmp_path / "tulu.json"
    path.write_text(json.dumps(TULU_ROWS), encoding="utf-8")
    _check_tulu(load_general_instructions(path))


def test_tulu_parquet_folder_with_splits(tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    data = tmp_path / "tulu" / "data"
    data.mkdir(parents=True)
    pq.write_table(pa.Table.from_pylist(TULU_ROWS), data / "train-00000-of-00001.parquet")
    test_row = {"id": "held-out", "messages": [{"role": "user", "content": "Held out?"}]}
    pq.write_table(pa.Table.from_pylist([test_row]), data / "test-00000-of-00001.parquet")
    train = load_general_instructions(tmp_path / "tulu")
    assert len(train) == 3
    _check_tulu(train)
    test = load_general_instructions(tmp_path / "tulu", split="test")
    assert [p.id for p in test] == ["held-out"]
    with pytest.raises(TrainError, match=r"no file of split 'validation'.*test, train"):
        load_general_instructions(tmp_path / "tulu", split="validation")


def test_prompt_column_and_alpaca_rows(tmp_path: Path) -> None:
    rows = [
        {"prompt": "Say hi."},
        {"prompt": [{"role": "user", "content": "Say bye."}]},
        {"instruction": "Add the numbers.", "input": "2 and 3", "output": "5"},
    ]
    prompts = load_general_instructions(_write_jsonl(tmp_path / "mixed.jsonl", rows))
    assert [p.chat()[-1]["content"] for p in prompts] == [
        "Say hi.",
        "Say bye.",
        "Add the numbers.\n\n2 and 3",
    ]
    assert prompts[0].id == f"{tmp_path / 'mixed.jsonl'}:1"


# --- the Hub (no network in tests) --------------------------------------------------------------


def test_hub_offline_is_one_line_saying_pass_a_local_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    with pytest.raises(TrainError) as err:
        load_general_instructions(TULU3_SFT_MIXTURE)
    message = str(err.value)
    assert "\n" not in message
    assert TULU3_SFT_MIXTURE in message and "offline" in message and "local path" in message


def test_hub_unreachable_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    datasets = pytest.importorskip("datasets")
    for var in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE"):
        monkeypatch.delenv(var, raising=False)

    def unreachable(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionError("Couldn't reach 'allenai/tulu-3-sft-mixture' on the Hub")

    monkeypatch.setattr(datasets, "load_dataset", unreachable)
    with pytest.raises(TrainError) as err:
        load_general_instructions(TULU3_SFT_MIXTURE, limit=2)
    assert "\n" not in str(err.value)
    assert "ConnectionError" in str(err.value) and "local path" in str(err.value)


@pytest.mark.parametrize("limit", [None, 2])
def test_hub_rows_are_cut_like_local_ones(
    monkeypatch: pytest.MonkeyPatch, limit: int | None
) -> None:
    datasets = pytest.importorskip("datasets")
    for var in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE"):
        monkeypatch.delenv(var, raising=False)
    calls: list[dict[str, Any]] = []

    def fake_load(name: str, **kwargs: Any) -> Any:
        calls.append({"name": name, **kwargs})
        table = datasets.Dataset.from_list(TULU_ROWS)
        return table.to_iterable_dataset() if kwargs.get("streaming") else table

    monkeypatch.setattr(datasets, "load_dataset", fake_load)
    prompts = load_general_instructions(TULU3_SFT_MIXTURE, limit=limit)
    assert calls[0]["name"] == TULU3_SFT_MIXTURE and calls[0]["split"] == "train"
    # with a limit only that many rows are streamed, not the whole mixture downloaded
    assert bool(calls[0].get("streaming")) is (limit is not None)
    assert len(prompts) == (limit or len(TULU_ROWS))
    if limit is None:
        _check_tulu(prompts)
    else:
        assert [p.chat() for p in prompts] == [
            TULU_ROWS[0]["messages"][:2],
            TULU_ROWS[1]["messages"][:3],
        ]


# --- bad input ----------------------------------------------------------------------------------


def test_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope.jsonl"
    with pytest.raises(TrainError, match=r"nope\.jsonl: no such file or folder"):
        load_general_instructions(missing)


@pytest.mark.parametrize("text", ["", "\n\n"])
def test_empty_file(tmp_path: Path, text: str) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(TrainError, match=r"empty\.jsonl: split 'train' has no prompts"):
        load_general_instructions(path)


def test_folder_without_data_files(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("no data here", encoding="utf-8")
    with pytest.raises(TrainError, match=r"holds no \.jsonl/\.json/\.parquet file"):
        load_general_instructions(tmp_path)


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        ({"messages": [{"role": "assistant", "content": "Unprompted."}]}, "no user turn"),
        (
            {
                "messages": [
                    {"role": "system", "content": "Rules."},
                    {"role": "assistant", "content": "Hi."},
                ]
            },
            "no user turn",
        ),
        ({"messages": [{"role": "user", "content": "   "}]}, "no user turn"),
        ({"text": "Just text, no turns."}, "no user turn; expected a 'messages' list"),
        ({"messages": [{"role": "tool", "content": "{}"}]}, r"messages\[0\] is not"),
        ({"messages": []}, "'messages' is empty"),
        ({"instruction": ""}, "'instruction' is empty"),
    ],
)
def test_rows_without_a_user_turn_name_the_row(tmp_path: Path, row: Any, expected: str) -> None:
    path = _write_jsonl(tmp_path / "bad.jsonl", [TULU_ROWS[0], row])
    with pytest.raises(TrainError, match=rf"bad\.jsonl:2: {expected}"):
        load_general_instructions(path)


def test_invalid_json_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.jsonl"
    path.write_text(json.dumps(TULU_ROWS[0]) + "\n{not json\n", encoding="utf-8")
    with pytest.raises(TrainError, match=r"broken\.jsonl:2: not valid JSON"):
        load_general_instructions(path)


def test_unsupported_file_type(tmp_path: Path) -> None:
    path = tmp_path / "prompts.csv"
    path.write_text("prompt\nhi\n", encoding="utf-8")
    with pytest.raises(TrainError, match=r"prompts\.csv: unsupported file type"):
        load_general_instructions(path)


def test_limit_below_one(seed_tasks: Path) -> None:
    with pytest.raises(TrainError, match=r"general_limit \(0\) must be at least 1"):
        load_general_instructions(seed_tasks, limit=0)


def test_split_absent_from_a_file_without_splits(seed_tasks: Path) -> None:
    with pytest.raises(TrainError, match=r"no file of split 'test'; the splits there are train"):
        load_general_instructions(seed_tasks, split="test")
