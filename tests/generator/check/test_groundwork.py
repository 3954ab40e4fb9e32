"""What the parent does for the workers while it waits for the read-ahead helper."""

from __future__ import annotations

from pathlib import Path

import pytest

from patiencebook.generator.check import facts, groundwork, lexicon
from patiencebook.generator.check.context import masked_names
from patiencebook.generator.check.groundwork import TEXTS_PER_TASK
from patiencebook.generator.docbook.sources import load_document
from patiencebook.generator.errors import LanguageError

REPO = Path(__file__).resolve().parents[3]


def _rule_texts(document) -> list[str]:
    return list(dict.fromkeys(s.msgid for page in document.pages if page.kind != "legal" for s in page.segments))


def test_the_tasks_leave_the_english_facts_and_lexicons_the_checks_read(monkeypatch):
    document = load_document(REPO / "rules")
    monkeypatch.setattr(facts, "_FACTS", {})
    loaded = []
    monkeypatch.setattr(groundwork, "_language", loaded.append)
    tasks = list(groundwork.groundwork(document, ["el", "de", "sr"], ["de"]))
    texts = _rule_texts(document)
    fact_tasks = -(-len(texts) // TEXTS_PER_TASK)
    # The lemma file, imports, the English lexicon, the shared language, the English msgids, then the other languages.
    assert len(tasks) == 1 + len(groundwork.CHECK_MODULES) + 1 + 1 + fact_tasks + 2
    first = 1 + len(groundwork.CHECK_MODULES) + 1
    tasks[first]()
    assert loaded == ["de"] and facts._FACTS == {}
    for task in tasks[first + 1:first + 1 + fact_tasks]:
        task()
    assert loaded == ["de"]
    names = masked_names(document)
    assert "Klondike" in names
    # Each rule text's facts are kept under the key the comparison asks for (the names masked).
    assert set(facts._FACTS) == {(facts.masked(text, names), "en") for text in texts}
    for text in texts[:200]:
        found = facts._FACTS[(facts.masked(text, names), "en")]
        assert found == facts._facts_of(facts.masked(text, names), "en")
    assert any(facts._FACTS.values())  # the rules state facts, and they were read
    for task in tasks[first + 1 + fact_tasks:]:
        task()
    assert loaded == ["de", "el", "sr"]


def test_the_legal_notice_is_not_read(monkeypatch):
    document = load_document(REPO / "rules")
    legal = [s.msgid for page in document.pages if page.kind == "legal" for s in page.segments]
    assert legal
    monkeypatch.setattr(facts, "_FACTS", {})
    for task in groundwork.groundwork(document, [], []):
        task()
    names = masked_names(document)
    rule = set(_rule_texts(document))
    assert not any((facts.masked(text, names), "en") in facts._FACTS for text in legal if text not in rule)


def test_a_task_that_fails_leaves_the_error_to_the_check(monkeypatch, tmp_path):
    document = load_document(REPO / "rules")
    (tmp_path / "en.json").write_text("{not json", encoding="utf-8")
    monkeypatch.setattr(lexicon, "LEXICON_DIR", tmp_path)
    lexicon.load_lexicon.cache_clear()
    try:
        english = list(groundwork.groundwork(document, [], []))[1 + len(groundwork.CHECK_MODULES)]
        assert english() is None  # no error here ...
        with pytest.raises(LanguageError) as raised:  # ... the check meets it and reports it
            lexicon.load_lexicon("en")
        assert "bad lexicon JSON" in raised.value.message and raised.value.file == str(tmp_path / "en.json")
    finally:
        lexicon.load_lexicon.cache_clear()
