"""The markup check: a msgstr keeps the msgid's inline tags and adds none."""

from patiencebook.generator.check.markup import check_markup, tags_of


def test_same_tags_in_same_order_give_no_finding():
    assert check_markup('Click <guilabel>New</guilabel> in <_:xref-1/>.',
                        'Klicke auf <guilabel>Neu</guilabel> in <_:xref-1/>.') == []
    assert check_markup("No tags at all.", "Gar keine Tags.") == []


def test_reordered_tags_are_a_warning_with_both_spans():
    msgid = 'Click <guilabel>New</guilabel> in <_:xref-1/>.'
    msgstr = 'Klicke in <_:xref-1/> auf <guilabel>Neu</guilabel>.'
    [(check, severity, message, source, translation)] = check_markup(msgid, msgstr)
    assert (check, severity) == ("markup", "warning")
    assert message == "the translation has the tags in another order: <_:xref-1/> where the English has <guilabel>"
    assert (source.start, source.end, source.text) == (6, 16, "<guilabel>")
    assert (translation.start, translation.text) == (10, "<_:xref-1/>")


def test_added_script_tag_is_an_error_on_the_translation_span():
    msgstr = "Text <script>alert(1)</script>."
    [(check, severity, message, source, translation)] = check_markup("Text.", msgstr)
    assert (check, severity, source) == ("markup", "error", None)
    assert message == "the translation adds the tag <script>, which the English does not have"
    assert translation.text == "<script>" and msgstr[translation.start:translation.end] == "<script>"


def test_event_handler_attribute_is_named_as_such():
    [(_, severity, message, source, translation)] = check_markup(
        'See <ulink url="https://example.org">this</ulink>.',
        'Siehe <ulink url="https://example.org" onclick="x()">dies</ulink>.')
    assert severity == "error"
    assert message == "the translation adds the event handler onclick= to <ulink>, which the English does not have"
    assert source.text == '<ulink url="https://example.org">'
    assert translation.text == '<ulink url="https://example.org" onclick="x()">'


def test_javascript_url_is_an_error_naming_the_english_value():
    [(_, severity, message, _, translation)] = check_markup(
        '<ulink url="https://example.org">Site</ulink>', '<ulink url="javascript:alert(1)">Seite</ulink>')
    assert severity == "error"
    assert message == ("the translation makes url= of <ulink> a javascript: URL; the English has "
                       "'https://example.org'")
    assert translation.text == '<ulink url="javascript:alert(1)">'


def test_dropped_placeholder_is_an_error_on_the_source_span():
    [(_, severity, message, source, translation)] = check_markup(
        "There are two ways: <_:itemizedlist-1/>", "Es gibt zwei Wege.")
    assert severity == "error" and translation is None
    assert message == "the translation lacks the tag <_:itemizedlist-1/> of the English"
    assert (source.start, source.text) == (20, "<_:itemizedlist-1/>")


def test_placeholder_prefix_is_declared_so_placeholders_parse():
    assert check_markup("See <_:xref-1/>.", "Siehe <_:xref-1/>.") == []


def test_malformed_translation_gives_one_error():
    assert check_markup("A <emphasis>b</emphasis>.", "A <emphasis>b</emphasis.") == [
        ("markup", "error", "the translation is not well-formed XML: expected '>'", None, None)]


def test_unknown_entity_in_translation_is_an_error():
    [(_, severity, message, _, _)] = check_markup("Play &app;.", "Spiele &evil;.")
    assert (severity, message) == ("error", "the translation uses the entity &evil; that the English does not use")
    assert check_markup("Play &app; &amp; win.", "Spiele &app; &amp; gewinne.") == []


def test_tags_of_reads_kind_name_and_attributes():
    [start, empty, end] = tags_of('<ulink url="u" type=\'t\'>x<_:xref-2/></ulink>')
    assert (start.kind, start.name, start.attrs) == ("start", "ulink", (("url", "u"), ("type", "t")))
    assert (empty.kind, empty.name) == ("empty", "_:xref-2")
    assert (end.kind, end.name) == ("end", "ulink")
