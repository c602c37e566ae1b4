"""Harness-Variant QA: the task in ``task.py``, the metadata in ``eval.yaml``."""
