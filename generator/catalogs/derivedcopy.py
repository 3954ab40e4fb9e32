"""A hand-kept catalog of a derived language beside the catalog it is derived from.

``sr@latin`` is made from ``sr`` at build time (:mod:`.transliterate`). A catalogs folder may also
hold a hand-kept ``sr@latin`` catalog (GNOME projects ship one), which falls behind when ``sr``
changes. :func:`compare_copy` says where the hand-kept copy lacks a message the base translates,
or says something else than the base converted; :func:`choose_catalog` decides which one a
build uses, and says why.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog

#: How a build treats a derived language with a hand-kept catalog: ``auto`` uses the hand-kept
#: catalog only when it is complete and up to date (:func:`choose_catalog`); ``catalog`` always
#: uses it; ``derive`` always converts the base catalog.
MODES = ("auto", "catalog", "derive")


@dataclass(frozen=True, slots=True)
class CopyDifference:
    """One message where the hand-kept copy is not the base catalog converted.

    Attributes:
        msgid, msgctxt: the message.
        kind: ``"missing"`` (the base translates it; the copy leaves it untranslated or fuzzy, or
            lacks it) or ``"differs"`` (the copy's msgstr is not the base's msgstr converted:
            one of them was changed after the copy was made).
        po_line: line of the message in the hand-kept catalog, or ``None`` when it lacks it.
        kept: the hand-kept msgstr (``""`` when missing).
        derived: the base msgstr converted, as a derived build shows it.
    """

    msgid: str
    msgctxt: str | None
    kind: str
    po_line: int | None
    kept: str
    derived: str


def _translated(message) -> str | None:
    if message is None or message.fuzzy or not message.id:
        return None
    string = message.string[0] if isinstance(message.string, (list, tuple)) else message.string
    return string or None


def compare_copy(base: Catalog, kept: Catalog, method: str) -> list[CopyDifference]:
    """Every message the base catalog translates where the hand-kept catalog ``kept`` lacks a
    translation or holds another text than the base msgstr converted by ``method``
    (:func:`~.transliterate.derive_markup`), in the base catalog's order. The header and the
    translator credits (msgctxt ``_``, msgid ``translator-credits``) are left out."""
    from patiencebook.generator.catalogs.transliterate import derive_markup

    out: list[CopyDifference] = []
    for message in base:
        text = _translated(message)
        msgid = message.id if isinstance(message.id, str) else (message.id or ("",))[0]
        if text is None or message.context == "_" or msgid == "translator-credits":
            continue
        derived = derive_markup(text, method)
        theirs = kept.get(message.id, message.context)
        own = _translated(theirs)
        if own is None:
            out.append(CopyDifference(msgid, message.context, "missing", theirs.lineno if theirs else None,
                                      "", derived))
        elif own != derived:
            out.append(CopyDifference(msgid, message.context, "differs", theirs.lineno, own, derived))
    return out


@dataclass(frozen=True, slots=True)
class CatalogChoice:
    """Which catalog a build uses for a derived language with a hand-kept catalog.

    Attributes:
        kept: True when the hand-kept catalog is used, False when the base is converted.
        reason: one sentence saying which and why, naming the files, for the build's notes.
        differences: :func:`compare_copy` of the two catalogs.
    """

    kept: bool
    reason: str
    differences: tuple[CopyDifference, ...]


def choose_catalog(code: str, base_code: str, base_path: Path, kept_path: Path, method: str,
                   mode: str = "auto") -> CatalogChoice:
    """Decide whether language ``code`` (``sr@latin``) is built from its hand-kept catalog
    ``kept_path`` or derived from ``base_path`` (the ``base_code`` catalog) by ``method``.

    ``mode`` is one of :data:`MODES`; with ``auto`` the hand-kept catalog is used only when no
    message the base translates is missing from it and none differs from the base converted.

    Raises:
        CatalogError: a catalog cannot be read (file and line).
        ValueError: an unknown ``mode``.
    """
    from patiencebook.generator.catalogs.pofile import read_catalog

    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; one of {', '.join(MODES)}")
    differences = tuple(compare_copy(read_catalog(base_path), read_catalog(kept_path), method))
    missing = sum(d.kind == "missing" for d in differences)
    differing = len(differences) - missing
    state = (f"it lacks {missing} message(s) {base_code} translates and {differing} differ from {base_code} "
             f"converted" if differences else f"it is {base_code} converted, message for message")
    if mode == "catalog" or (mode == "auto" and not differences):
        why = "as asked (--derived catalog)" if mode == "catalog" else "it is complete and up to date"
        return CatalogChoice(True, f"{code}: the hand-kept catalog {kept_path} is used: {why}"
                                   + (f"; {state}" if differences else ""), differences)
    why = "as asked (--derived derive)" if mode == "derive" else f"{state} (--derived catalog uses it anyway)"
    return CatalogChoice(False, f"{code}: built from {base_code} ({base_path}), not from the hand-kept catalog "
                                f"{kept_path}: {why}", differences)


__all__ = ["MODES", "CatalogChoice", "CopyDifference", "choose_catalog", "compare_copy"]
