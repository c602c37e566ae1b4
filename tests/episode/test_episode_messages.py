import sys

import pytest

from hat_eval.episode import SPECS, build_rows, viewer_messages


def test_viewer_messages_are_the_suite_inputs_in_order():
    rows = build_rows("livestream", n=20)
    msgs = viewer_messages(20)
    assert msgs == [r["input"] for r in rows]
    assert all(isinstance(m, str) and m.strip() for m in msgs)
    assert len(set(msgs)) > 10  # real, varied questions


def test_viewer_messages_are_deterministic_and_cycle_past_the_suite_size():
    size = SPECS["livestream"].cases
    msgs = viewer_messages(size + 7)
    assert len(msgs) == size + 7
    assert msgs[size:] == msgs[:7]
    assert msgs == viewer_messages(size + 7)


def test_other_suites_and_splits():
    dev = viewer_messages(8, split="dev")
    assert dev == [r["input"] for r in build_rows("livestream", split="dev", n=8)]
    assert dev != viewer_messages(8)
    assert viewer_messages(4, suite="variant") == [r["input"] for r in build_rows("variant", n=4)]


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"n": 0}, r"n \(0\) must be at least 1"),
        ({"n": 3, "suite": "nope"}, "unknown suite 'nope'"),
        ({"n": 3, "split": "val"}, "split 'val' is unknown"),
    ],
)
def test_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        viewer_messages(**kwargs)


def test_importing_the_episode_and_suites_packages_stays_light():
    import subprocess

    code = (
        "import sys, hat_eval.episode, hat_eval.suites; "
        "print(sorted(m for m in ('inspect_ai', 'torch', 'transformers', 'locust') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
