"""What every worker would do first, done once by the parent process while it waits anyway.

The worker processes that check the catalogs are forked from the process that loaded the sources
(see :mod:`~.workers`) and inherit what it holds. Each would begin by reading the lemma file,
importing the modules of the catalog checks, loading the lexicons of English and of its languages,
and reading the rule facts of the English msgids, which every catalog shares. The parent waits
meanwhile for the read-ahead helper (:mod:`~.readahead`: the embedded models, then the catalogs it
reads ahead), so it does that work in the wait instead, one small task at a time
(:meth:`~.readahead.ReadAhead.meanwhile`); what is left when the helper is done is left to the
workers.
"""

from __future__ import annotations

import importlib
from typing import Callable, Iterator

from patiencebook.generator.docbook.document import Document

#: Modules the catalog checks import when they first run (each worker would import them again).
CHECK_MODULES = ("patiencebook.generator.check.terminology", "patiencebook.generator.check.derivedcopy")
#: English msgids read per task: about 2 ms of work, so that a wait ends soon after the helper is done.
TEXTS_PER_TASK = 25


def groundwork(document: Document, langs: list[str], shared: list[str] = ()) -> Iterator[Callable[[], None]]:
    """Tasks (callables taking nothing) that do what each worker checking catalogs of ``langs``
    (gettext codes) would do first, for ``document``'s msgids, ordered by how many workers each
    spares: the lemma file (:func:`~.lemmas.read_file`), the check modules' imports, the English
    lexicon, the lexicons of ``shared`` (languages whose catalogs every worker checks a part of),
    the rule facts of the English msgids in tasks of :data:`TEXTS_PER_TASK`, then the lexicons of
    the other languages. A task never raises: what fails (a lexicon that cannot be read) is not
    kept, so it fails again, and is reported, where the work is done for real."""
    from . import lemmas
    from .context import masked_names
    from .facts import extract_facts, masked
    from .lexicon import load_lexicon

    yield _guarded(lemmas.read_file)
    for name in CHECK_MODULES:
        yield _guarded(importlib.import_module, name)
    yield _guarded(load_lexicon, "en")
    for lang in shared:
        yield _guarded(_language, lang)
    names = masked_names(document)
    # The rules' pages and the definitions: the legal notice and front matter are no rule facts.
    texts = list(dict.fromkeys(segment.msgid for page in document.pages if page.kind != "legal"
                               for segment in page.segments))
    for start in range(0, len(texts), TEXTS_PER_TASK):
        chunk = texts[start:start + TEXTS_PER_TASK]
        yield _guarded(lambda chunk=chunk: [extract_facts(masked(text, names), "en") for text in chunk])
    for lang in langs:
        if lang not in shared:
            yield _guarded(_language, lang)


def _language(lang: str) -> None:
    """Load what the rule-fact checks of catalog language ``lang`` read (its lexicon)."""
    from .run import _facts_for

    _facts_for(lang)


def _guarded(function: Callable, *args) -> Callable[[], None]:
    """``function(*args)`` as a task that drops the errors of reading data (see :func:`groundwork`)."""
    def task() -> None:
        try:
            function(*args)
        except Exception:  # noqa: BLE001 - not kept, so done again where it is reported
            pass
    return task


__all__ = ["CHECK_MODULES", "TEXTS_PER_TASK", "groundwork"]
