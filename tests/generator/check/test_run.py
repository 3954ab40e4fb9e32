"""Running every check over a source tree and its catalogs, and the ``check`` sub-command."""

import json
import time
from pathlib import Path

import pytest

from patiencebook.generator import cli, project
from patiencebook.generator.check import Finding, Span, run
from patiencebook.generator.check.run import run_checks

REPO = Path(__file__).resolve().parents[3]
DATA = REPO / "tests" / "data" / "check"
SOURCES, CATALOGS = DATA / "C", DATA / "locales"
#: AisleRiot's help, outside the repository: <repo>/../shared/corpus/aisleriot/help.
CORPUS = REPO.parent / "shared" / "corpus" / "aisleriot" / "help"


@pytest.fixture
def no_facts(monkeypatch):
    """The rule-fact checks are tested on their own; here only this package's checks run."""
    monkeypatch.setattr(run, "_facts", lambda: None)


def _row(f: Finding):
    return (f.lang, f.file, f.line, f.check, f.severity, f.pages, f.po_line)


def test_each_planted_error_gives_exactly_one_finding(no_facts):
    findings, checked = run_checks(SOURCES, CATALOGS)
    assert list(checked) == ["de"]
    assert [_row(f) for f in findings] == [
        ("en", "alpha.xml", 42, "model-pile", "error", ("alpha.xml",), None),
        ("en", "alpha.xml", 51, "model-build", "error", ("alpha.xml",), None),
        ("en", "alpha.xml", 52, "model-redeal", "error", ("alpha.xml",), None),
        ("en", "alpha.xml", 54, "model-score", "error", ("alpha.xml",), None),
        ("de", "alpha.xml", 29, "untranslated", "warning", ("alpha.xml", "beta.xml"), 37),
        ("de", "alpha.xml", 42, "fuzzy", "warning", ("alpha.xml",), 64),
        ("de", "alpha.xml", 53, "stale", "warning", ("alpha.xml",), 84),
        ("de", "beta.xml", 5, "markup", "error", ("beta.xml",), 99),
        ("de", "beta.xml", 9, "stale", "info", ("beta.xml",), 115),
        ("de", "help.po", None, "gettext", "error", ("help.po",), 2),
        ("de", "help.po", None, "obsolete", "info", ("help.po",), 118),
    ]


def test_markup_finding_carries_msgid_message_and_both_spans(no_facts):
    [finding] = [f for f in run_checks(SOURCES, CATALOGS, checks=["markup"])[0]]
    assert finding.msgid == "See <_:xref-1/> for a harder game."
    assert "event handler onclick=" in finding.message
    assert finding.source == Span(4, 15, "<_:xref-1/>")
    assert finding.translation == Span(6, 35, '<_:xref-1 onclick="steal()"/>')


def test_stale_finding_states_the_change_as_facts(no_facts):
    [finding] = run_checks(SOURCES, CATALOGS, checks=["stale"], pages=["alpha"])[0]
    assert finding.msgid == "Deal 8 cards to the waste."
    assert finding.message == "the English changed since this was translated: 16 became 8"


def test_shared_message_is_reported_once_naming_both_pages(no_facts):
    findings = run_checks(SOURCES, CATALOGS, checks=["untranslated"])[0]
    assert len(findings) == 1
    assert findings[0].pages == ("alpha.xml", "beta.xml")
    # Either page selects it.
    assert run_checks(SOURCES, CATALOGS, checks=["untranslated"], pages=["beta"])[0] == findings


def test_skip_comment_silences_the_named_check_for_its_unit(no_facts, tmp_path):
    msgid = "There are two ways to win: <_:itemizedlist-1/>"
    assert [f for f in run_checks(SOURCES, CATALOGS)[0] if f.msgid == msgid] == []
    text = (CATALOGS / "de" / "LC_MESSAGES" / "help.po").read_text(encoding="utf-8")
    (tmp_path / "de").mkdir()
    (tmp_path / "de" / "de.po").write_text(text.replace("# check: skip=markup the emphasis is wanted here\n", ""),
                                           encoding="utf-8")
    [finding] = [f for f in run_checks(SOURCES, tmp_path)[0] if f.msgid == msgid]
    assert (finding.check, finding.severity, finding.file, finding.line) == ("markup", "error", "beta.xml", 6)
    assert finding.message == "the translation adds the tag <emphasis>, which the English does not have"


def test_filters_by_check_family_and_page(no_facts):
    assert {f.check for f in run_checks(SOURCES, CATALOGS, checks=["model"])[0]} == \
        {"model-pile", "model-build", "model-redeal", "model-score"}
    assert {f.file for f in run_checks(SOURCES, CATALOGS, pages=["beta"])[0]} == {"beta.xml", "alpha.xml"}


def test_fact_checks_are_called_with_the_catalog_language(monkeypatch):
    calls = []

    def fake(msgid, msgstr, lang, context=None):
        calls.append(lang)
        if msgid == "Games":
            return [("number", "error", "planted", Span(0, 5, "Games"), Span(0, 6, "Spiele"), 0.9)]
        return []

    monkeypatch.setattr(run, "_facts", lambda: fake)
    [finding] = run_checks(SOURCES, CATALOGS, checks=["number"])[0]
    assert set(calls) == {"de"}
    assert (finding.file, finding.line, finding.message, finding.translation.text, finding.confidence) == \
        ("index.docbook", 7, "planted", "Spiele", 0.9)


def test_json_output_is_a_list_of_finding_dicts(no_facts, capsys):
    assert cli.main(["check", "--sources", str(SOURCES), "--catalogs", str(CATALOGS), "--format", "json",
                     "--check", "markup"]) == 1
    [item] = json.loads(capsys.readouterr().out)
    assert item == {"lang": "de", "file": "beta.xml", "line": 5, "msgid": "See <_:xref-1/> for a harder game.",
                    "check": "markup", "severity": "error",
                    "message": "the translation adds the event handler onclick= to <_:xref-1>, which the "
                               "English does not have",
                    "pages": ["beta.xml"], "po_line": 99, "confidence": 1.0,
                    "source": {"start": 4, "end": 15, "text": "<_:xref-1/>"},
                    "translation": {"start": 6, "end": 35, "text": '<_:xref-1 onclick="steal()"/>'}}


def test_exit_status_is_one_only_with_an_error_finding(no_facts, capsys):
    args = ["check", "--sources", str(SOURCES), "--catalogs", str(CATALOGS)]
    assert cli.main(args + ["--check", "untranslated"]) == 0
    assert cli.main(args + ["--check", "gettext"]) == 1
    assert cli.main(args + ["--check", "fuzzy", "--check", "obsolete", "--page", "alpha"]) == 0
    capsys.readouterr()


@pytest.mark.parametrize("extra, message", [
    (["--lang", "xx"], "no catalog for language 'xx' in the catalogs folder"),
    (["--page", "gamma"], "no page 'gamma' in the sources"),
    (["--check", "spelling"], "unknown check 'spelling'"),
])
def test_bad_input_is_one_error_line(capsys, extra, message):
    assert cli.main(["check", "--sources", str(SOURCES), "--catalogs", str(CATALOGS)] + extra) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("patiencebook: error: ") and message in err


def test_po_format_never_overwrites_the_catalog(capsys):
    catalog = CATALOGS / "de" / "LC_MESSAGES" / "help.po"
    before = catalog.read_bytes()
    assert cli.main(["check", "--sources", str(SOURCES), "--catalogs", str(CATALOGS), "--format", "po",
                     "--out", str(catalog)]) == 1
    assert "refusing to overwrite the catalog" in capsys.readouterr().err
    assert catalog.read_bytes() == before


def test_out_never_writes_into_the_sources_the_catalogs_or_a_built_site(tmp_path, capsys):
    other = CATALOGS / "de" / "LC_MESSAGES" / "other.json"
    source = next(SOURCES.rglob("*.xml"))
    before = source.read_bytes()
    site = tmp_path / "site"
    site.mkdir()
    (site / ".patiencebook-site").write_text("", encoding="utf-8")
    for out, reason in ((other, "sources or catalogs folder"), (source, "sources or catalogs folder"),
                        (site / "index.html", "built site")):
        assert cli.main(["check", "--sources", str(SOURCES), "--catalogs", str(CATALOGS), "--format", "json",
                         "--out", str(out)]) == 1
        err = capsys.readouterr().err
        assert err.startswith(f"patiencebook: error: {out}: refusing to write into") and reason in err, err
    assert not other.exists() and source.read_bytes() == before
    assert not (site / "index.html").exists()


def test_our_own_catalogs_have_no_error_findings():
    findings, checked = run_checks(project.default_sources(), project.default_catalogs())
    assert sorted(checked) == ["de", "el", "sr"]
    assert [(f.lang, f.file, f.line, f.check, f.message) for f in findings if f.severity == "error"] == []


def test_aisleriot_corpus_is_checked_quickly(capsys):
    if not CORPUS.is_dir():
        pytest.skip(f"AisleRiot corpus not found at {CORPUS} (expected beside the repository in shared/)")
    started = time.monotonic()
    status = cli.main(["check", "--sources", str(CORPUS / "C"), "--catalogs", str(CORPUS), "--lang", "de",
                       "--format", "json"])
    elapsed = time.monotonic() - started
    findings = json.loads(capsys.readouterr().out)
    assert status in (0, 1)
    assert elapsed < 10, f"checking one AisleRiot catalog took {elapsed:.1f} s"
    counts = {}
    for item in findings:
        counts[item["check"]] = counts.get(item["check"], 0) + 1
    assert counts["obsolete"] == 15  # the 15 #~ units of de.po
    assert counts["fuzzy"] == 46
    assert all(item["lang"] in ("de", "en") for item in findings)  # "en": the English against the model
    # Every unit is placed in a source page or, when its English is gone, the catalog.
    assert all(item["file"].endswith((".xml", ".docbook", ".po")) for item in findings)


def test_language_without_fact_lexicon_gets_one_info_finding_instead_of_failing(monkeypatch):
    from patiencebook.generator.errors import LanguageError

    def fake(msgid, msgstr, lang, context=None):
        raise LanguageError(f"no fact lexicon for language {lang!r}")

    monkeypatch.setattr(run, "_facts", lambda: fake)
    findings = run_checks(SOURCES, CATALOGS, checks=["facts"])[0]
    assert [(f.lang, f.file, f.severity, f.message) for f in findings] == [
        ("de", "help.po", "info", "rule-fact checks skipped: no fact lexicon for language 'de'")]


def test_regional_catalog_falls_back_to_the_language_lexicon(monkeypatch, tmp_path):
    from patiencebook.generator.errors import LanguageError

    seen = []

    def fake(msgid, msgstr, lang, context=None):
        if lang != "de":
            raise LanguageError(f"no fact lexicon for language {lang!r}")
        seen.append(lang)
        return []

    (tmp_path / "de_AT").mkdir()
    (tmp_path / "de_AT" / "de_AT.po").write_bytes((CATALOGS / "de" / "LC_MESSAGES" / "help.po").read_bytes())
    monkeypatch.setattr(run, "_facts", lambda: fake)
    assert run_checks(SOURCES, tmp_path, checks=["facts"])[0] == []
    assert set(seen) == {"de"}


def test_min_confidence_hides_information_by_default_and_shows_it_at_zero(capsys):
    args = ["check", "--sources", str(REPO / "rules"), "--catalogs", str(REPO / "locales"), "--format", "json"]
    cli.main(args)
    default = json.loads(capsys.readouterr().out)
    cli.main(args + ["--min-confidence", "0"])
    everything = json.loads(capsys.readouterr().out)
    assert default == []  # our own catalogs state the same rules
    infos = [f for f in everything if f["severity"] == "info" and f["check"] in run.FACT_CHECKS]
    assert infos and all(f["confidence"] < run.REPORTED_CONFIDENCE for f in infos)


@pytest.mark.parametrize("value", ["2", "-0.1", "sure"])
def test_min_confidence_outside_0_to_1_is_a_usage_error(value, capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["check", "--min-confidence", value])
    assert stop.value.code == 2
    assert "--min-confidence" in capsys.readouterr().err


def test_a_page_borrowing_the_embedded_model_has_its_english_checked_against_it():
    from dataclasses import replace

    from patiencebook.generator.check.model import check_page
    from patiencebook.generator.docbook.enginemodels import attach_engine_models
    from patiencebook.generator.docbook.sources import load_document

    if not (CORPUS / "C" / "index.docbook").is_file():
        pytest.skip(f"AisleRiot corpus not found at {CORPUS} (expected beside the repository in shared/)")
    document = load_document(CORPUS / "C")
    attach_engine_models(document)
    page = next(p for p in document.pages if p.slug == "freecell")
    assert page.rules is not None and check_page(page) == []  # AisleRiot's FreeCell agrees with our model
    # The same page saying "Ten piles" in its Tableau row disagrees with the model's eight.
    row = next(s for s in page.segments if s.msgid.startswith("Eight piles. Deal all cards"))
    page.segments[page.segments.index(row)] = replace(row, msgid="Ten piles." + row.msgid[len("Eight piles."):])
    assert [(p.check, p.message) for _, p in check_page(page)] == [
        ("model-pile", "the English says 'Ten piles', but the rules block has 8 tableau piles")]


def test_aisleriot_findings_carry_confidences_and_the_text_report_orders_by_them():
    if not (CORPUS / "C" / "index.docbook").is_file():
        pytest.skip(f"AisleRiot corpus not found at {CORPUS} (expected beside the repository in shared/)")
    findings, _ = run_checks(CORPUS / "C", CORPUS, langs=["de"], checks=list(run.FACT_CHECKS),
                             min_confidence=run.REPORTED_CONFIDENCE)
    assert findings and all(f.confidence >= run.REPORTED_CONFIDENCE for f in findings)
    from patiencebook.generator.check.statements import severity_of

    assert all(f.severity == severity_of(f.confidence) for f in findings if f.check != "terminology")


def test_the_checks_run_without_the_cyclic_collector_and_turn_it_on_again(monkeypatch):
    import gc

    seen = []
    real = run._ranked_findings

    def watched(*args, **kwargs):
        seen.append(gc.isenabled())
        return real(*args, **kwargs)

    monkeypatch.setattr(run, "_ranked_findings", watched)
    was_on = gc.isenabled()
    try:
        gc.enable()
        run_checks(SOURCES, CATALOGS)
        assert seen and set(seen) == {False}
        assert gc.isenabled()
        # An error inside turns it on again too.
        monkeypatch.setattr(run, "_ranked_findings", lambda *a, **k: 1 / 0)
        with pytest.raises(ZeroDivisionError):
            run_checks(SOURCES, CATALOGS)
        assert gc.isenabled()
        # A caller that had turned it off keeps it off.
        gc.disable()
        monkeypatch.setattr(run, "_ranked_findings", real)
        run_checks(SOURCES, CATALOGS)
        assert not gc.isenabled()
    finally:
        gc.enable() if was_on else gc.disable()
