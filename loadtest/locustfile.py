"""Locust entry point: ``locust -f hat_eval/loadtest/locustfile.py --host URL --model NAME``.

``hat-eval loadtest`` runs it headless once per concurrency level; run it yourself for the web UI.
"""

from locust import events

from hat_eval.loadtest._user import ChatStreamUser, install

install(events)

__all__ = ["ChatStreamUser"]
