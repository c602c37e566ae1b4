"""The locustfile ``hat-eval loadtest`` starts Locust with (``loadtest/locustfile.py`` imports it).

It lives inside the package so that an installed wheel has it too. Locust loads it in a child
process; importing it registers hat-eval's options and events with Locust.
"""

from locust import events

from hat_eval.loadtest._user import ChatStreamUser, install

install(events)

__all__ = ["ChatStreamUser"]
