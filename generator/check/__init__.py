"""Translator checks: does each translation still state the same rules as the source?

:func:`run_checks` runs catalog health, gettext validity, markup, rule-fact and source-against-model
checks and returns :class:`Finding` values; :mod:`.report` writes them as text, JSON or an annotated
catalog. A unit's translator comment ``# check: skip=NAME[,NAME...] reason`` silences those checks.
"""

from patiencebook.generator.check.findings import SEVERITIES, Finding, Span
from patiencebook.generator.check.run import CHECKS, known_checks, run_checks

__all__ = ["CHECKS", "SEVERITIES", "Finding", "Span", "known_checks", "run_checks"]
