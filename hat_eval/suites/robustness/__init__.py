"""Tool/Prompt Robustness: the task in ``task.py``, the metadata in ``eval.yaml``."""
