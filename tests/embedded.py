"""The embedded games as the tests expect them listed: every page of rules/ with a rules block."""

from __future__ import annotations

from pathlib import Path

RULES_DIR = Path(__file__).resolve().parents[1] / "rules"

#: Page ids (file stems) of rules/ pages that carry a ``pb:rules`` block, sorted.
EMBEDDED_GAMES: list[str] = sorted(
    path.stem for path in RULES_DIR.glob("*.xml") if "<pb:rules" in path.read_text(encoding="utf-8"))
