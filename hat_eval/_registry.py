"""Inspect AI entry point: importing this module registers hat-eval's tasks and models."""
