"""The same three checks for every language whose fact cases are listed in a test_facts_<lang> module:
a changed fact is found, its faithful translation gives nothing, a faithful paraphrase is not flagged."""

from __future__ import annotations

import pytest

from patiencebook.generator.check.statements import compare
from tests.generator.check import test_facts_cs, test_facts_hu, test_facts_ru, test_facts_uk

MODULES = (test_facts_cs, test_facts_hu, test_facts_ru, test_facts_uk)
CHANGED = [(module.LANG, *case) for module in MODULES for case in module.CHANGED]
PARAPHRASES = [(module.LANG, *case) for module in MODULES for case in module.PARAPHRASES]


def _reported(findings):
    return [(f[0], f[1]) for f in findings if f[1] in ("error", "warning")]


@pytest.mark.parametrize("lang,check,severity,msgid,faithful,changed", CHANGED, ids=[f"{c[0]}-{c[1]}" for c in CHANGED])
def test_a_changed_fact_is_found(lang, check, severity, msgid, faithful, changed):
    assert (check, severity) in _reported(compare(msgid, changed, lang))


@pytest.mark.parametrize("lang,check,severity,msgid,faithful,changed", CHANGED, ids=[f"{c[0]}-{c[1]}" for c in CHANGED])
def test_the_faithful_translation_gives_nothing(lang, check, severity, msgid, faithful, changed):
    assert compare(msgid, faithful, lang) == []


@pytest.mark.parametrize("lang,msgid,msgstr", PARAPHRASES)
def test_a_faithful_paraphrase_is_not_flagged(lang, msgid, msgstr):
    assert _reported(compare(msgid, msgstr, lang)) == []
