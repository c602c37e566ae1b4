"""Harness State Augmentation: task-preserving perturbations of a harness along five dimensions.

1. ``skill_ids``: rename skills, mask subsets, rewrite descriptions;
2. ``skill_content``: paraphrase, mask and reorder rules;
3. ``tools``: rename tools and rewrite descriptions, same function;
4. ``system_prompt``: reorder blocks, move numeric constraints within their valid ranges;
5. ``hooks``: vary retry behaviour, message structure and the checking hooks.

Every transform returns the variant and a :class:`Mapping` that re-targets gold labels.
"""

from ._io import write_variants
from ._mapping import Mapping
from ._policy import AugmentationPolicy, Variant, derive_seed
from ._rewriter import ModelRewriter, rewrite_with_model
from ._transforms import DIMENSIONS, TRANSFORMS

__all__ = [
    "DIMENSIONS",
    "TRANSFORMS",
    "AugmentationPolicy",
    "Mapping",
    "ModelRewriter",
    "Variant",
    "derive_seed",
    "rewrite_with_model",
    "write_variants",
]
