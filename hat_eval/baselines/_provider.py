"""The ``hat/`` Inspect model provider: every built-in policy under one provider name.

``hat/reference`` and ``hat/memorized`` are the rule-based policy reading the prompt or the
default harness (:class:`~hat_eval.baselines.ReferencePolicy`); ``hat/oracle`` plays the gold
(:class:`~hat_eval.baselines.OraclePolicy`). Inspect makes a provider's models by calling the one
class the provider returns with the model name, so the provider returns :func:`hat_model`, which
picks the class by name.
"""

from __future__ import annotations

from typing import Any, cast

from inspect_ai.model import ModelAPI, modelapi

from ._oracle import ORACLE, OraclePolicy
from ._reference_policy import MODELS, ReferencePolicy

HAT_MODELS: dict[str, type[ModelAPI]] = {
    **dict.fromkeys(MODELS, ReferencePolicy),
    ORACLE: OraclePolicy,
}
"""Every ``hat/`` model name and the class that plays it."""


def hat_model(model_name: str, **kwargs: Any) -> ModelAPI:
    """The ``hat/`` model ``model_name`` (Inspect calls this with a model's arguments).

    Raises:
        ValueError: ``model_name`` is none of :data:`HAT_MODELS`.
    """
    cls = HAT_MODELS.get(model_name)
    if cls is None:
        known = ", ".join(f"hat/{m}" for m in HAT_MODELS)
        raise ValueError(f"model hat/{model_name} is unknown: the hat/ models are {known}")
    return cls(model_name=model_name, **kwargs)


@modelapi(name="hat")
def hat_provider() -> type[ModelAPI]:
    """The ``hat/`` model provider (the names are :data:`HAT_MODELS`)."""
    # Inspect only calls what the provider returns: a factory picking the class by name works
    return cast(type[ModelAPI], hat_model)
