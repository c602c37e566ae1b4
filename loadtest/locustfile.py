"""Locust entry point: ``locust -f loadtest/locustfile.py --host URL --model NAME`` (web UI).

``hat-eval loadtest`` runs ``hat_eval/loadtest/_locustfile.py`` headless once per level; this file
is that module, for runs started by hand (``--hat-config DIR/config.json`` reuses a sweep's).
"""

from hat_eval.loadtest._locustfile import ChatStreamUser

__all__ = ["ChatStreamUser"]
