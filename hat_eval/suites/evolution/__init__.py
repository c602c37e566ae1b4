"""Harness Evolution: the task in ``task.py``, the metadata in ``eval.yaml``, its changelog."""
