"""Engine models for game pages that carry no rules block of their own.

A book such as GNOME AisleRiot's manual describes its games in prose only. When the project's
embedded rules (``rules/``, :func:`patiencebook.generator.project.default_sources`) model the same
game, its page gets that model, and with it the setup picture and the live board. Pages are
matched by their DocBook ``id`` (or, without one, their slug), ignoring case and treating ``-``
and ``_`` alike: AisleRiot's ``Eagle_Wing`` is the embedded ``eagle_wing``.
"""

from __future__ import annotations

from pathlib import Path

from patiencebook.generator.gamenames import game_key
from patiencebook.generator.docbook.document import Document

__all__ = ["attach_engine_models", "embedded_models", "game_key", "keep_models", "model_variants", "models_loaded"]




def embedded_models(sources: Path | None = None) -> dict[str, tuple[object, Path]]:
    """The rules models of the embedded rules: :func:`game_key` -> (Ruleset, the page's file).

    ``sources`` defaults to the project's ``rules/``. Loaded once per folder in a process (or
    handed over by :func:`keep_models`). Raises what
    :func:`patiencebook.generator.docbook.sources.load_document` raises when those sources are broken.
    """
    key = _key(sources)
    models = _MODELS.get(key)
    if models is None:
        if len(_MODELS) >= 4:
            _MODELS.clear()  # a bound, as for any cache of a long-lived process
        models = _MODELS[key] = _load_models(sources)
    return models


def models_loaded(sources: Path | None = None) -> bool:
    """Whether :func:`embedded_models` of ``sources`` is known in this process already."""
    return _key(sources) in _MODELS


def keep_models(models: dict[str, tuple[object, Path]], variants: dict[str, dict], sources: Path | None = None) -> None:
    """Take ``models`` and ``variants`` (:func:`embedded_models` and :func:`model_variants` of
    ``sources``, worked out in another process) as this process's own."""
    _MODELS[_key(sources)] = models
    _VARIANTS.update(variants)


def _key(sources: Path | None) -> str | None:
    """The key of a folder of embedded rules in :data:`_MODELS` (``None``: the project's ``rules/``)."""
    return str(sources) if sources is not None else None


def model_variants() -> dict[str, dict]:
    """The rule variants of each embedded game loaded so far (Klondike's ways to deal), by :func:`game_key`."""
    return dict(_VARIANTS)


def _load_models(sources: Path | None) -> dict[str, tuple[object, Path]]:
    from patiencebook.generator.project import default_sources
    from patiencebook.generator.docbook.sources import load_document

    folder = Path(sources) if sources is not None else default_sources()
    models: dict[str, tuple[object, Path]] = {}
    if not (folder / "index.docbook").is_file():
        return models
    for page in load_document(folder, "index.docbook", segments=False).pages:
        if page.rules is not None:
            models[game_key(page.id or page.slug)] = (page.rules, Path(page.file))
            _VARIANTS[game_key(page.id or page.slug)] = dict(page.variants)
    return models


# The models of each folder of embedded rules loaded in this process (None: the project's rules/).
_MODELS: dict[str | None, dict[str, tuple[object, Path]]] = {}
# The rule variants of each embedded game (Klondike's ways to deal), filled by embedded_models.
_VARIANTS: dict[str, dict] = {}


def attach_engine_models(document: Document, sources: Path | None = None) -> dict[str, Path]:
    """Give each game page of ``document`` without a rules block the embedded model of its game.

    Changes ``document.pages[i].rules`` (and ``variants``, the game's rule variants) in place. Returns page slug -> the embedded rules file whose
    model it took (empty when ``document`` is the embedded rules book itself, whose pages have
    their own blocks).
    """
    if Path(document.source_dir).resolve() == (Path(sources) if sources else _default()).resolve():
        return {}
    models = embedded_models(sources)
    attached: dict[str, Path] = {}
    for page in document.pages:
        if page.kind != "game" or page.rules is not None:
            continue
        key = game_key(page.id or page.slug) if game_key(page.id or page.slug) in models else game_key(page.slug)
        found = models.get(key)
        if found is not None:
            page.rules, attached[page.slug] = found
            # The variants too: a borrowing page describes the game's options as ours does.
            page.variants = dict(_VARIANTS.get(key, {}))
    return attached


def _default() -> Path:
    from patiencebook.generator.project import default_sources

    return default_sources()
