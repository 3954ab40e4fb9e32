"""The ``derived-copy`` check: a hand-kept catalog of a derived language against its base.

A catalogs folder may hold both ``sr`` and a hand-kept ``sr@latin``; the build then uses the one
:func:`~patiencebook.generator.catalogs.derivedcopy.choose_catalog` picks. This check tells the
keeper of the copy where it lacks a message the base translates, or says something else than the
base converted (one of them changed since), with the converted text beside it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Mapping

from babel.messages.catalog import Catalog

from patiencebook.generator.catalogs.derivedcopy import compare_copy
from patiencebook.generator.catalogs.pofile import read_catalog
from patiencebook.generator.check.findings import Span
from patiencebook.generator.check.health import Problem

#: The check's name.
CHECK = "derived-copy"


def derived_copy_problems(lang: str, kept: Catalog, catalogs: Mapping[str, Path]) -> list[Problem]:
    """One warning per message where catalog ``kept`` of derived language ``lang`` (``sr@latin``)
    lacks a translation its base in ``catalogs`` (``sr``) has, or differs from it converted; none
    when ``lang`` is not derived or its base has no catalog there.

    Raises:
        CatalogError: the base catalog cannot be read.
    """
    from patiencebook.generator.languages import derived_from

    row = derived_from(lang)
    if row is None or row[0] not in catalogs:
        return []
    base_code, method = row
    problems = []
    for difference in compare_copy(read_catalog(catalogs[base_code]), kept, method):
        if difference.kind == "missing":
            message = (f"the hand-kept {lang} catalog does not translate this message; {base_code} does: "
                       f"converted, it reads {difference.derived!r}")
            translation = None
        else:
            message = (f"the hand-kept {lang} text is not {base_code}'s converted, which reads "
                       f"{difference.derived!r}: one of them was changed since the copy was made")
            translation = Span(0, len(difference.kept), difference.kept)
        located = kept.get(difference.msgid, difference.msgctxt)
        problems.append(Problem(difference.msgid, CHECK, "warning", message, None, translation,
                                difference.po_line, tuple(located.locations) if located is not None else (),
                                difference.msgctxt))
    return problems


__all__ = ["CHECK", "derived_copy_problems"]
