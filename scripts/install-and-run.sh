#!/usr/bin/env bash
# Install hat-eval into ./.venv (CPU torch first: a plain `torch` requirement would pull a
# multi-GB CUDA build) and run the main job on the embedded default.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[ -d .venv ] || "$PY" -m venv .venv
. .venv/bin/activate
python -m pip install -q --upgrade pip
python -m pip install -q "torch==2.13.0"
python -m pip install -q -e ".[dev]"
hat-eval run --suite variant
