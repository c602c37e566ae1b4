#!/usr/bin/env bash
# Build Label Studio 1.23.x into its own virtual environment, apart from the project's.
#
#   scripts/label-studio-venv.sh [VENV]    (default: ~/.cache/hat-eval/label-studio-venv)
#
# Label Studio brings Django and dozens of pinned packages, so it never goes into .venv; the
# slow round-trip test runs it as a subprocess:
#
#   pytest tests/judge/test_label_studio_live.py --label-studio VENV
#
# About 4.5 minutes on 2 cores. Re-running on an existing VENV only checks the version.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/hat-eval/label-studio-venv}
PY=${PYTHON:-python3}
VERSION_SPEC=${LABEL_STUDIO_VERSION:-"label-studio>=1.23,<1.24"}

if [ ! -x "$VENV/bin/label-studio" ]; then
    mkdir -p "$(dirname "$VENV")"
    "$PY" -m venv "$VENV"
    "$VENV/bin/python" -m pip install -q --upgrade pip
    "$VENV/bin/python" -m pip install -q "$VERSION_SPEC"
fi
version=$("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("label-studio"))')
case "$version" in
    1.23.*) echo "label-studio $version in $VENV" ;;
    *) echo "error: $VENV holds label-studio $version, expected 1.23.x; remove $VENV and re-run" >&2
       exit 1 ;;
esac
