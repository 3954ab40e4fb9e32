"""Rule statements compared sentence by sentence: contradictions, omissions, negations and restrictions,
each with a confidence from which its severity follows."""

from __future__ import annotations

import pytest

from patiencebook.generator.check.alignment import align_sentences
from patiencebook.generator.check.facts import UNLIMITED, extract_facts
from patiencebook.generator.check.statements import (ERROR_AT, WARNING_AT, ModelFacts, UnitContext,
                                                     compare, severity_of)


def _checks(findings, *severities):
    return [(f[0], f[1]) for f in findings if not severities or f[1] in severities]


def test_severity_follows_confidence():
    assert severity_of(ERROR_AT) == "error"
    assert severity_of(ERROR_AT - 0.01) == "warning"
    assert severity_of(WARNING_AT) == "warning"
    assert severity_of(WARNING_AT - 0.01) == "info"


@pytest.mark.parametrize("lang,msgid,msgstr", [
    ("de", "Empty piles are not filled.", "Leere Stapel werden gefüllt."),
    ("el", "Empty piles are not filled.", "Οι κενές στοίβες γεμίζουν."),
    ("sr", "Empty piles are not filled.", "Празне гомиле се попуњавају."),
])
def test_a_dropped_negation_is_a_warning(lang, msgid, msgstr):
    assert ("negation", "warning") in _checks(compare(msgid, msgstr, lang))


@pytest.mark.parametrize("lang,msgid,msgstr", [
    ("de", "Empty piles are not filled.", "Leere Stapel werden nicht gefüllt."),
    ("el", "Empty piles are not filled.", "Οι κενές στοίβες δεν γεμίζουν."),
    ("sr", "Empty piles are not filled.", "Празне гомиле се не попуњавају."),
])
def test_a_kept_negation_gives_nothing(lang, msgid, msgstr):
    assert compare(msgid, msgstr, lang) == []


@pytest.mark.parametrize("lang,msgstr", [
    ("de", "Ein leerer Stapel wird mit einem König gefüllt."),
    ("el", "Μια κενή στοίβα γεμίζει με Ρήγα."),
    ("sr", "Празна гомила се попуњава краљем."),
])
def test_a_dropped_only_is_a_warning(lang, msgstr):
    found = compare("An empty pile can be filled only with a King.", msgstr, lang)
    assert ("only", "warning") in _checks(found)


def test_only_before_one_says_no_more_than_the_count():
    assert compare("Each cell can only hold one card.", "Jede Zelle hält eine Karte.", "de") == []


def test_negative_concord_counts_once_and_losing_it_is_found():
    assert compare("No card can be placed on it.", "Κανένα φύλλο δεν μπορεί να τοποθετηθεί πάνω της.", "el") == []
    assert ("negation", "warning") in _checks(compare("No card can be placed on it.",
                                                      "Ένα φύλλο μπορεί να τοποθετηθεί πάνω της.", "el"))


@pytest.mark.parametrize("msgid,msgstr,check", [
    ("Seven piles.", "Acht Stapel.", "number"),
    ("Deal three cards.", "Geben Sie zwei Karten.", "number"),
    ("Build down in suit.", "Absteigend in Farbgruppe anlegen.", "suit-colour"),
    ("Move the card to the foundation.", "Legen Sie die Karte auf den Talon.", "pile"),
    ("Build down in suit.", "Aufsteigend nach Farbe anlegen.", "direction"),
])
def test_a_changed_value_is_an_error(msgid, msgstr, check):
    assert (check, "error") in _checks(compare(msgid, msgstr, "de"))


def test_a_bare_count_left_to_a_paraphrase_is_information():
    found = compare("Deal the remaining cards to the four foundations.",
                    "Geben Sie die übrigen Karten auf die Zielstapel.", "de")
    assert _checks(found) == [("number", "info")]


def test_a_rank_range_states_the_direction():
    assert compare("Build up in suit from Ace to King.", "Nach Farbe von Ass bis König anlegen.", "de") == []
    # From King to Ace is down: the up of the source is then not stated.
    found = compare("Build up in suit from the base card, wrapping from King to Ace.",
                    "Nach Farbe ab der Grundkarte, vom König zum Ass.", "de")
    assert ("direction", "warning") in _checks(found)


def test_inflected_forms_are_read_through_their_lemmas():
    # "abgebaut" is not a listed form: simplemma's lemma "abbauen" is.
    assert [(f.kind, f.value) for f in extract_facts("Die Stapel werden abgebaut.", "de")
            if f.kind == "direction"] == [("direction", "down")]
    assert compare("Tableau piles are built down.", "Die Stapel im Tableau werden abgebaut.", "de") == []


def test_one_mention_turned_into_another_is_found_by_counting():
    found = compare("A King can go on a Queen, but nothing can go on a King.",
                    "Eine Dame darf auf eine Dame, aber auf einen König darf nichts.", "de")
    assert ("rank", "warning") in _checks(found)


@pytest.mark.parametrize("lang,msgstr", [
    # Greek: the direction before its pile; the same up once and down once, tied to the other piles.
    ("el", "Τοποθετήστε φύλλα της ίδιας φυλής σε φθίνουσα σειρά στις βάσεις και σε αύξουσα σειρά στο ταμπλό."),
    ("de", "Bauen Sie die Zielstapel absteigend in Farbe und die Tableaustapel aufsteigend in Farbe."),
])
def test_directions_given_to_the_other_piles_are_a_contradiction(lang, msgstr):
    found = compare("Build foundations up in suit and tableau piles down in suit.", msgstr, lang)
    assert [(f[0], f[1]) for f in found] == [("direction", "error")]
    assert "up of the foundation and down of the tableau" in found[0][2]


@pytest.mark.parametrize("lang,msgstr", [
    ("el", "Τοποθετήστε φύλλα της ίδιας φυλής σε αύξουσα σειρά στις βάσεις και σε φθίνουσα σειρά στο ταμπλό."),
    ("de", "Bauen Sie die Zielstapel aufsteigend in Farbe und die Tableaustapel absteigend in Farbe."),
    # Told in the other order, each pile with its own direction.
    ("de", "Die Tableaustapel werden absteigend in Farbe gebaut und die Zielstapel aufsteigend in Farbe."),
])
def test_directions_kept_with_their_piles_give_nothing(lang, msgstr):
    assert compare("Build foundations up in suit and tableau piles down in suit.", msgstr, lang) == []


def test_match_given_to_the_other_pile_is_a_contradiction():
    msgid = "Foundations are built in suit, and the tableau in alternate colours."
    found = compare(msgid, "Οι βάσεις χτίζονται με εναλλασσόμενα χρώματα, και το ταμπλό με φύλλα της ίδιας φυλής.",
                    "el")
    assert [(f[0], f[1]) for f in found] == [("suit-colour", "error")]
    assert "suit of the foundation and alternate colour of the tableau" in found[0][2]
    assert compare(msgid, "Οι βάσεις χτίζονται με φύλλα της ίδιας φυλής, και το ταμπλό με εναλλασσόμενα χρώματα.",
                   "el") == []


def test_numbers_told_in_other_sentences_are_no_contradiction():
    msgid = "Kings can be removed singly. All other cards can be removed in pairs that add up to thirteen, " \
            "with Aces counting 1."
    # The sum comes first, the Kings last: the sentences pair "singly" with "thirteen".
    moved = compare(msgid, "Απομακρύνετε ζευγάρια φύλλων με άθροισμα δεκατρία. Οι Άσσοι μετρούν 1, ενώ οι Ρήγες "
                           "φεύγουν χωρίς ζευγάρι.", "el")
    assert _checks(moved, "error", "warning") == []
    changed = compare(msgid, "Απομακρύνετε ζευγάρια φύλλων με άθροισμα δώδεκα. Οι Άσσοι μετρούν 1, ενώ οι Ρήγες "
                             "φεύγουν χωρίς ζευγάρι.", "el")
    assert ("number", "warning") in _checks(changed)


def test_a_pile_named_by_a_term_of_several_piles_is_no_swap():
    # Serbian "гомила" is the stock and any pile: the waste said twice took no mention of the stock.
    found = compare("Cards are played singly from the Stock to the waste pile, whose top card is available for play.",
                    "Карте се окрећу појединачно са гомиле на отпад, а карта на врху отпада је у игри.", "sr")
    assert found == []


@pytest.mark.parametrize("msgid,msgstr,severity", [
    # An Ace named in another sentence begins the foundations: they go up.
    ("Place an Ace on each Foundation to begin. The Foundations are built up regardless of suit.",
     "На сваки темељ се на почетку ставља ас. Темељи се слажу без обзира на знак.", "info"),
    ("Place a card on each Foundation to begin. The Foundations are built up regardless of suit.",
     "На сваки темељ се на почетку ставља карта. Темељи се слажу без обзира на знак.", "warning"),
    # From the King to the Ace reads down: the up is lost.
    ("Foundations are built up in suit, wrapping from King to Ace.",
     "Темељи се слажу по знаку, од краља ка асу.", "warning"),
    # The tableau has no such default.
    ("Deal an Ace to start. The tableau is built up in suit.",
     "На почетку се дели ас. Талон се слаже по знаку.", "warning"),
])
def test_an_ace_start_states_that_foundations_go_up(msgid, msgstr, severity):
    found = [f for f in compare(msgid, msgstr, "sr") if f[0] == "direction"]
    assert [(f[1], f[2]) for f in found] == [(severity, "the source says up; the translation does not")]


@pytest.mark.parametrize("lang,msgstr,severity", [
    # Wrapping from the King to the Ace is the corner of an up build: the up is kept.
    ("sr", "Темељи се слажу по знаку, преламајући се од краља до аса ако је потребно.", "info"),
    ("sr", "Темељи се слажу по знаку од почетне карте до краља, затим од аса даље.", "info"),
    ("uk", "Основи збираються за мастю, із циклом від короля до туза, якщо потрібно.", "info"),
    # "In order from the King to the Ace", with no corner, reads down.
    ("sr", "Темељи се слажу по знаку, са редоследом од краља до аса ако је потребно.", "warning"),
    # A corner word without the source's ranks keeps nothing.
    ("sr", "Темељи се слажу по знаку, затим се карте ређају.", "warning"),
])
def test_a_corner_from_king_to_ace_keeps_the_up_of_a_wrapping_build(lang, msgstr, severity):
    found = [f for f in compare("Foundations are built up in suit, wrapping from King to Ace if necessary.",
                                msgstr, lang) if f[0] == "direction"]
    assert [(f[1], f[2]) for f in found] == [(severity, "the source says up; the translation does not")]


def test_a_short_sentence_dropped_beside_its_neighbour_is_left_out():
    msgid = ("Ten piles. Deal four rows face up to start. Tableau can be built down in suit. Cards are moved singly. "
             "Empty piles can be filled with any card.")
    dropped = compare(msgid, "Zehn Stapel. Zu Beginn werden vier Reihen offen gegeben. Die Stapel im Tableau werden "
                             "absteigend in Farbe gebaut. Leere Stapel nehmen jede Karte.", "de")
    assert [(f[0], f[1], f[3].text) for f in dropped if f[1] != "info"] == [
        ("sentence", "warning", "Cards are moved singly.")]
    joined = compare(msgid, "Zehn Stapel. Zu Beginn werden vier Reihen offen gegeben. Die Stapel im Tableau werden "
                            "absteigend in Farbe gebaut, Karten werden einzeln bewegt. Leere Stapel nehmen jede Karte.",
                     "de")
    assert joined == []


def test_a_rank_left_out_is_a_warning_unless_an_ordinal_stands_for_the_ace():
    found = compare("Foundations are built up by alternate colour from Aces to Kings.",
                    "Die Zielstapel werden aufsteigend in abwechselnden Farben bis zum König gebaut.", "de")
    assert [(f[0], f[1], f[2]) for f in found] == [
        ("rank", "warning", "the source says Ace; the translation has no such rank")]
    assert compare("All cards except the Ace to four of clubs are placed here.",
                   "Alle Karten außer den ersten vier Kreuz kommen hierher.", "de") == []


def test_removed_cards_leave_play_in_either_wording():
    # "removed" says the cards leave play; the translation saying so is no added rule.
    found = compare("Each set of four cards removed scores one point.",
                    "Κάθε τετράδα φύλλων που βγαίνει από το παιχνίδι δίνει έναν πόντο.", "el")
    assert _checks(found, "error", "warning") == []
    found = compare("Each set of four cards scores one point.",
                    "Κάθε τετράδα φύλλων που βγαίνει από το παιχνίδι δίνει έναν πόντο.", "el")
    assert ("in-play", "warning") in _checks(found)


@pytest.mark.parametrize("msgid,msgstr,severity", [
    ("One card is dealt face up to the first Foundation pile.", "Στην πρώτη βάση μοιράζεται ένα φύλλο.", "info"),
    ("One card is dealt face up to each tableau pile.", "Σε κάθε στήλη του ταμπλό μοιράζεται ένα φύλλο.", "warning"),
])
def test_face_up_goes_without_saying_on_the_foundations(msgid, msgstr, severity):
    assert _checks(compare(msgid, msgstr, "el")) == [("face", severity)]


@pytest.mark.parametrize("lang,msgstr", [
    ("de", "Jedes entfernte Paar zählt zwei Punkte."),
    ("el", "Κάθε ζευγάρι που απομακρύνεται αντιστοιχεί σε δύο βαθμούς."),
    ("sr", "Сваки уклоњени пар доноси два поена."),
])
def test_cards_removed_leave_play_in_every_language(lang, msgstr):
    assert compare("Each pair removed from the game scores two points.", msgstr, lang) == []


def test_an_only_said_by_the_limit_it_sets_is_kept():
    msgid = "A build can only be moved if it has at most three cards."
    kept = compare(msgid, "Μια ομάδα φύλλων μετακινείται όταν έχει το πολύ τρία φύλλα.", "el")
    assert _checks(kept, "error", "warning") == []
    dropped = compare("A build can only be moved to an empty pile.",
                      "Μια ομάδα φύλλων μετακινείται σε κενή στήλη.", "el")
    assert ("only", "warning") in _checks(dropped)


def test_only_after_a_comparison_with_another_game_means_except():
    msgid = "Athena is the same as Klondike only the opening layout is different."
    found = compare(msgid, "Η Αθηνά έχει τους ίδιους κανόνες με το Κλόνταϊκ, αν εξαιρεθεί η αρχική διάταξη.", "el")
    assert _checks(found, "error", "warning") == []
    found = compare("Empty piles can only be filled by Kings.", "Οι κενές στήλες γεμίζουν με Ρήγες.", "el")
    assert ("only", "warning") in _checks(found)


def test_and_so_on_to_places_no_card_on_another():
    # "and so on to one less than the Start card" ends a rank order; it is no "lower card on to a
    # higher one", so the source keeps its "one less" and an "up" left out is no "down" put in.
    found = compare("Foundations are built up in suit from the Start card to King, then Ace, Two, and so on to one "
                    "less than the Start card.",
                    "Οι βάσεις χτίζονται ανά φυλή από το αρχικό φύλλο και συνεχίζεται μέχρι ένα λιγότερο από το "
                    "αρχικό φύλλο.", "el")
    assert [(f[1], f[2]) for f in found if f[0] == "direction"] == [
        ("warning", "the source says up; the translation does not")]


def test_a_value_told_in_a_sentence_the_alignment_left_unpaired_is_no_contradiction():
    # The translation deals to the tableau before it builds the foundations; the alignment pairs
    # "dealt to each Tableau pile" with the stock's sentence and leaves the dealing one unpaired.
    msgid = ("Reserve of 13 cards, 9 Tableau piles. Foundations are built up in sequence by suit from the base card. "
             "The player picks the base card from four at the start of the game and one card is dealt to each "
             "Tableau pile. Stock can be turned once but the game is lost if you cannot play each new card after "
             "it is turned.")
    msgstr = ("13 φύλλα στη ρεζέρβα και 9 στήλες στο ταμπλό. Στην αρχή της παρτίδας ο παίκτης επιλέγει το βασικό "
              "φύλλο από τέσσερα φύλλα. Μετά μοιράζεται από ένα φύλλο σε κάθε στήλη του ταμπλό. Τα φύλλα στις "
              "βάσεις τοποθετούνται ανά φυλή και σε αύξουσα σειρά. Αν τελειώσουν τα φύλλα της μάνας, επιτρέπεται "
              "μία ακόμη μοιρασιά. Στη δεύτερη μοιρασιά όμως παίζετε στο ταμπλό ή στις βάσεις κάθε φύλλο της "
              "μάνας μόλις ανοίγει, αλλιώς χάνετε.")
    assert "pile" not in [f[0] for f in compare(msgid, msgstr, "el")]


@pytest.mark.parametrize("msgid,msgstr,role,severity", [
    # A proverb's number in a hint states no rule.
    ("A bird in hand is worth two in the bush.", "Ένα πουλί στο χέρι αξίζει δέκα στο δέντρο.", "strategy", "info"),
    ("A bird in hand is worth two in the bush.", "Ένα πουλί στο χέρι αξίζει δέκα στο δέντρο.", "rule", "error"),
    # A score after a colon, a count of piles left to "the other", a card: rules, even in a hint
    # (whose contradictions are warnings).
    ("Maximum possible score: 100", "Μέγιστη δυνατή βαθμολογία: 101", "strategy", "warning"),
    ("The other four start empty.", "Οι άλλες τρεις ξεκινούν κενές.", "strategy", "warning"),
    ("The Seven does not help either.", "Ούτε το Οκτώ βοηθά.", "strategy", "warning"),
    # A table cell is its number.
    ("10", "11", "rule", "error"),
])
def test_a_number_in_a_hint_sentence_that_names_nothing_of_the_game_is_information(msgid, msgstr, role, severity):
    found = compare(msgid, msgstr, "el", UnitContext(role=role))
    assert [f[1] for f in found if f[0] in ("number", "rank")][:1] == [severity]


def test_left_to_right_turned_round_is_found():
    found = compare("Deal from left to right.", "Geben Sie von rechts nach links.", "de")
    assert _checks(found) == [("side", "warning")]


def test_game_names_are_names_not_numbers():
    context = UnitContext(names=("Thirteen",), translated_names=("Dreizehn",))
    assert compare("Thirteen is won when the tableau is empty.",
                   "Dreizehn ist gewonnen, wenn das Tableau leer ist.", "de", context) == []
    # Without the context the name reads as a number the translation does not state.
    assert compare("Thirteen is won when the tableau is empty.",
                   "Das Spiel ist gewonnen, wenn das Tableau leer ist.", "de") != []


def test_credits_and_legal_text_are_not_read_for_rules():
    assert compare("Copyright the Free Software Foundation, seven authors.", "Urheberrecht: acht Autoren.",
                   "de", UnitContext(role="other")) == []


def test_a_title_states_rules_less_surely():
    plain = compare("Build down in suit", "Aufsteigend nach Farbe", "de")
    title = compare("Build down in suit", "Aufsteigend nach Farbe", "de", UnitContext(role="title"))
    assert plain[0][5] > title[0][5]
    # An omission in a title is wording, not a rule: "Build down in suit" as "Absteigend anlegen".
    dropped = compare("Build down in suit", "Absteigend anlegen", "de", UnitContext(role="title"))
    assert [f[1] for f in dropped] == ["info"]


def test_the_rules_model_agreeing_with_the_english_makes_a_contradiction_sure():
    model = ModelFacts(redeals=2, builds=(("tableau", "down", "alternate"),))
    found = compare("The tableau is built down in alternate colours.",
                    "Das Tableau wird aufsteigend in wechselnder Farbgruppe gebaut.", "de", UnitContext(model=model))
    [(check, severity, message, _, _, confidence)] = found
    assert (check, severity) == ("direction", "error") and confidence >= 0.95
    assert "the page's rules say the tableau builds down too" in message
    redeal = compare("There are two redeals.", "Es gibt drei Neuverteilungen.", "de", UnitContext(model=model))
    assert redeal[0][5] >= 0.95


def test_a_value_moved_to_another_sentence_is_no_omission():
    msgid = "Deal seven piles. Build down in suit."
    msgstr = "Absteigend nach Farbe anlegen. Geben Sie sieben Stapel."
    assert _checks(compare(msgid, msgstr, "de"), "error", "warning") == []


def test_sentences_align_with_one_translated_as_two():
    msgid = "Seven piles, face up. No redeals."
    msgstr = "Sieben Stapel. Alle Karten offen. Keine Neuverteilungen."
    blocks = align_sentences(msgid, extract_facts(msgid, "en"), msgstr, extract_facts(msgstr, "de"))
    assert [(sorted(a), sorted(b)) for a, b in blocks] == [([0], [0, 1]), ([1], [2])]


def test_an_added_limit_on_a_sum_is_found():
    found = compare("Remove pairs that add up to thirteen.", "Entfernen Sie Paare, die 13 oder weniger ergeben.",
                    "de")
    assert ("comparator", "warning") in _checks(found)


def test_unlimited_redeals_are_a_value():
    facts = [f for f in extract_facts("You can redeal as often as you like.", "en") if f.kind == "redeal"]
    assert [f.value for f in facts] == [UNLIMITED]


@pytest.mark.parametrize("lang,kept,lost", [
    ("de", "Eine leere Spalte nimmt nur eine Karte, die um eins niedriger ist als die Basiskarte.",
     "Eine leere Spalte nimmt nur eine Karte, die niedriger ist als die Basiskarte."),
    ("el", "Μια κενή στήλη δέχεται μόνο φύλλο μικρότερο κατά ένα από το βασικό.",
     "Μια κενή στήλη δέχεται μόνο φύλλο μικρότερο από το βασικό."),
    ("sr", "Празна колона прима само карту за један мању од основне карте.",
     "Празна колона прима само карту мању од основне карте."),
])
def test_ranks_one_apart_lost_is_a_warning(lang, kept, lost):
    msgid = "An empty column takes only a card one lower than the base card."
    assert "step" not in [f[0] for f in compare(msgid, kept, lang)]
    assert ("step", "warning") in _checks(compare(msgid, lost, lang))


def test_one_rank_higher_turned_into_two_is_a_contradiction():
    found = compare("Build on a card one rank higher.", "Legen Sie auf eine Karte, die zwei Ränge höher ist.", "de")
    assert [f[2] for f in found if f[0] == "number" and f[1] != "info"] == ["1 in the source, 2 in the translation"]


@pytest.mark.parametrize("lang,kept,lost", [
    ("de", "Leere Spalten müssen gefüllt werden, bevor Sie neue Karten geben.",
     "Versuchen Sie, leere Spalten zu füllen, bevor Sie neue Karten geben."),
    ("el", "Οι κενές στήλες πρέπει να γεμίσουν πριν μοιράσετε νέα φύλλα.",
     "Προσπαθήστε να γεμίσετε τις κενές στήλες πριν μοιράσετε νέα φύλλα."),
    ("sr", "Празне колоне морају да се попуне пре новог дељења.",
     "Покушајте да попуните празне колоне пре новог дељења."),
])
def test_an_obligation_turned_into_advice_is_a_warning(lang, kept, lost):
    msgid = "Empty columns must be filled before you deal more cards."
    assert "must" not in [f[0] for f in compare(msgid, kept, lang)]
    assert ("must", "warning") in _checks(compare(msgid, lost, lang))


def test_an_obligation_said_as_only_is_kept():
    found = compare("Cards must be placed on a card of the same suit.",
                    "Μπορείτε να τοποθετείτε φύλλα μόνο πάνω σε φύλλο της ίδιας φυλής.", "el")
    assert "must" not in [f[0] for f in found]


def test_only_counting_what_is_left_restricts_nothing():
    found = compare("When there are only two cards left in the stock, both are dealt face up.",
                    "Τα δύο τελευταία φύλλα της μάνας μοιράζονται ανοιχτά.", "el")
    assert "only" not in [f[0] for f in found]


def test_there_is_no_need_is_advice_not_a_negation():
    found = compare("There is no need to play these cards, as they are not helpful.",
                    "Η χρήση αυτών των φύλλων δεν βοηθάει.", "el")
    assert "negation" not in [f[0] for f in found]


def test_a_lost_negation_of_an_obligation_is_still_found():
    msgid = "The stock does not need to be used up."
    assert compare(msgid, "Der Talon muss nicht aufgebraucht werden.", "de") == []
    assert ("negation", "warning") in _checks(compare(msgid, "Der Talon muss aufgebraucht werden.", "de"))


def test_a_rank_said_at_the_bottom_of_a_group():
    msgid = "An empty pile can be filled with a King or a group of cards with a King on the bottom."
    begins = "Eine leere Ablage kann mit einem König oder mit Gruppen belegt werden, die mit einem König beginnen."
    assert "position" not in [f[0] for f in compare(msgid, begins, "de", UnitContext())]
    ends = "Μια κενή στήλη δέχεται Ρήγα ή ομάδα φύλλων που τελειώνει σε Ρήγα."
    assert ("position", "warning") in _checks(compare(msgid, ends, "el"))


def test_numbers_of_sentences_told_in_another_order_are_information():
    msgid = ("Deal 18 cards face down in three rows. Add another 10 cards face up in the bottom row. "
             "Each card overlaps two cards of the row above.")
    msgstr = ("Μοιράζετε 18 κλειστά φύλλα σε τρεις γραμμές. Κάθε φύλλο ακουμπά σε δύο φύλλα της από πάνω γραμμής. "
              "Προσθέστε μια γραμμή με 10 ανοιχτά φύλλα.")
    found = compare(msgid, msgstr, "el")
    assert not [f for f in found if f[0] == "number" and f[1] != "info"]
    # The same numbers, one of them changed: still an error.
    changed = msgstr.replace("10 ανοιχτά", "12 ανοιχτά")
    assert ("number", "error") in _checks(compare(msgid, changed, "el"))


def test_a_suit_of_the_same_colour_in_a_colour_rule_is_information():
    msgid = "Build on a card of the same colour. Example: a Diamond on a Heart is good, a Diamond on a Club is not."
    spade = ("Χτίζετε σε φύλλο του ίδιου χρώματος. Παράδειγμα: ένα Καρό σε Κούπα επιτρέπεται, "
             "ένα Καρό σε Μπαστούνι όχι.")
    assert [f[1] for f in compare(msgid, spade, "el") if f[0] == "suit-name"] == ["info"]
    heart = spade.replace("Μπαστούνι", "Κούπα")  # red for black: the example shows another rule
    assert {"warning", "error"} & {f[1] for f in compare(msgid, heart, "el") if f[0] == "suit-name"}


@pytest.mark.parametrize("lang,msgstr", [
    ("el", "Επαναλάβετε μέχρι να εξαντληθούν οι διαθέσιμες κινήσεις."),
    ("de", "Wiederholen Sie das, bis die Züge ausgeschöpft sind."),
    ("sr", "Понављајте док не нестану потези."),
])
def test_no_more_moves_said_as_moves_running_out_is_no_lost_negation(lang, msgstr):
    msgid = "Repeat until no more moves can be made."
    assert _checks(compare(msgid, msgstr, lang), "error", "warning") == []


def test_a_translation_that_runs_out_where_the_source_does_too_still_loses_its_not():
    msgid = "Repeat until no more moves can be made."
    assert ("negation", "warning") in _checks(compare(msgid, "Wiederholen Sie, bis Züge gemacht werden.", "de"))


@pytest.mark.parametrize("msgid,msgstr", [
    ("Games that use a Double deck are not uncommon.", "Spiele mit doppeltem Blatt sind häufig."),
    ("There is no reason to keep a free cell empty.", "Es lohnt sich, eine freie Zelle zu füllen."),
    ("A King may be placed on an Ace (unless the Start card is an Ace).",
     "Ein König kann auf ein Ass gelegt werden (außer das Ass ist die Startkarte)."),
])
def test_litotes_advice_and_exceptions_are_no_negations(msgid, msgstr):
    assert [f for f in compare(msgid, msgstr, "de") if f[0] == "negation"] == []


def test_a_sentence_left_out_of_a_hint_is_no_negation_turned_round():
    msgid = "Never look back. Move as many cards from the reserve to the tableau as you can."
    msgstr = "Legen Sie so viele Karten wie möglich von der Reserve auf den Spieltisch."
    findings = compare(msgid, msgstr, "de", UnitContext(role="strategy"))
    assert _checks(findings, "error", "warning") == []
    assert ("sentence", "info") in _checks(findings)


@pytest.mark.parametrize("msgstr,expected", [
    ("Die anderen Zielstapel werden mit Karten desselben Rangs begonnen.", []),
    ("Die anderen Zielstapel können mit Karten desselben Rangs begonnen werden.", [("must", "warning")]),
])
def test_an_obligation_is_lost_only_to_a_word_of_permission(msgstr, expected):
    msgid = "The other Foundation piles must be started with cards of the same rank."
    assert _checks(compare(msgid, msgstr, "de"), "error", "warning") == expected


def test_serbian_nagore_and_nadole_build_up_and_down():
    findings = compare("Foundations are built up or down.", "Темељи се слажу нагоре или надоле.", "sr")
    assert _checks(findings, "error", "warning") == []
    assert ("direction", "error") in _checks(compare("Foundations are built up.", "Темељи се слажу надоле.", "sr"))


@pytest.mark.parametrize("msgid", ["Every time a card is removed, the card beneath is flipped face up.",
                                   "Deal seven rows face down. Flip the bottom row."])
def test_turning_a_card_implies_its_face(msgid):
    msgstr = {0: "Сваки пут када се карта уклони, карта испод ње се окреће.",
              1: "Подели се седам редова. Последњи ред се окреће."}["Flip" in msgid]
    assert [f for f in compare(msgid, msgstr, "sr") if f[0] == "face"] == []


def test_a_rank_order_that_turns_the_corner_states_the_direction():
    msgid = "Foundations are built up in suit from the Start card to King, then Ace, Two and Three."
    msgstr = "Die Zielstapel werden nach Farbe vom Startwert bis zum König, dann Ass, Zwei und Drei gelegt."
    assert [f for f in compare(msgid, msgstr, "de") if f[0] == "direction"] == []


@pytest.mark.parametrize("msgstr,flagged", [
    ("Τα φύλλα στις βάσεις δε βγαίνουν από το παιχνίδι.", False),
    ("Τα φύλλα στις βάσεις βγαίνουν από το παιχνίδι.", True),
])
def test_still_in_play_said_as_not_leaving_the_game(msgstr, flagged):
    findings = compare("Cards in Foundations are still in play.", msgstr, "el")
    assert (("in-play", "warning") in _checks(findings)) is flagged


def test_regardless_of_sequence_said_as_groups_of_any_cards():
    msgid = "Groups of cards can be moved regardless of sequence."
    assert _checks(compare(msgid, "Μπορείτε να μετακινείτε ομάδες οποιωνδήποτε φύλλων.", "el"), "error", "warning") == []
    assert ("negation", "warning") in _checks(compare(msgid, "Μπορείτε να μετακινείτε ομάδες φύλλων.", "el"))


def test_a_side_said_as_on_left():
    assert ("side", "error") in _checks(compare("On left under stock.", "Десно испод гомиле.", "sr"))


def test_a_numeral_one_kept_as_a_numeral_is_no_article_changed():
    msgid = ("Kings can be removed singly. Other cards are removed in pairs that add up to thirteen, "
             "with Aces equal to 1.")
    kept = compare(msgid, "Краљеви се уклањају сами. Остале карте се уклањају у паровима који у збиру дају "
                          "тринаест, при чему ас вреди 1.", "sr")
    assert [f for f in kept if f[0] == "number"] == []
    # The same numeral changed is still a different value.
    changed = compare("Aces are equal to 1 point.", "Асови вреде 2 поена.", "sr")
    assert [(f[1], f[2]) for f in changed if f[0] == "number" and f[1] != "info"] == [
        ("warning", "1 in the source, 2 in the translation")]


def test_an_at_a_time_told_in_another_sentence_is_no_number_changed():
    # The translation gives the sum as a number the source does not write.
    msgid = "Kings can be removed singly. All other cards can be removed in pairs whose values make a King."
    moved = compare(msgid, "Απομακρύνετε ζευγάρια φύλλων με άθροισμα δεκατρία. Οι Ρήγες απομακρύνονται μόνοι τους.",
                    "el")
    assert [f for f in moved if f[0] == "number" and f[1] != "info"] == []
    lost = compare(msgid, "Απομακρύνετε ζευγάρια φύλλων με άθροισμα δεκατρία. Οι Ρήγες απομακρύνονται.", "el")
    assert [f[0] for f in lost if f[1] != "info"]


@pytest.mark.parametrize("msgstr,severity", [
    # "Four for each pile" deals four at a time.
    ("Η μάνα ξαναμοιράζει τα φύλλα στο ταμπλό, τέσσερα για κάθε στοίβα.", "info"),
    # "Four times" is another rule.
    ("Η μάνα ξαναμοιράζει τα φύλλα στο ταμπλό τέσσερις φορές.", "warning"),
])
def test_a_count_kept_beside_each_keeps_its_at_a_time(msgstr, severity):
    found = compare("Then the stock is redealt, four cards at a time, back to the tableau.", msgstr, "el")
    assert [(f[1], f[2]) for f in found if f[0] == "at-a-time"] == [
        (severity, "the source says 4 at a time; the translation does not")]


def test_greek_only_and_avoid_are_read():
    # "η μόνη δυνατή κίνηση": the only possible move.
    assert [f.kind for f in extract_facts("Η μόνη δυνατή κίνηση είναι προς την τελευταία στοίβα.", "el")
            if f.kind == "only"] == ["only"]
    assert [f for f in compare("Bluffing is not recommended.", "Αποφύγετε να μπλοφάρετε.", "el") if f[1] != "info"] == []


@pytest.mark.parametrize("msgid,msgstr,found", [
    # The wrap dropped: the build stops at the King.
    ("All four piles are built up, with the ranks continuous.", "Све четири гомиле се слажу на горе.", True),
    ("Foundations are built up in suit, wrapping from King to Ace.", "Темељи се слажу на горе по знаку.", True),
    # Kept as a word for the corner, or by naming the Ace.
    ("All four piles are built up, with the ranks continuous.",
     "Све четири гомиле се слажу на горе, преламајући се по потреби.", False),
    ("Foundations are built up in suit, wrapping from King to Ace.",
     "Темељи се слажу на горе по знаку, а после краља долази ас.", False),
    # Rows that wrap are of the layout, not of the ranks.
    ("The first row ends and the second starts: the rows do not wrap.",
     "Први ред се завршава, други почиње.", False),
])
def test_a_wrap_of_the_ranks_left_out_is_a_warning(msgid, msgstr, found):
    wrap = "the source has the ranks wrap round (King to Ace); the translation does not"
    assert [f[1] for f in compare(msgid, msgstr, "sr") if f[2] == wrap] == (["warning"] if found else [])


def test_a_match_said_twice_and_translated_once_is_left_out():
    msgid = "The tableau is built down in alternate colours. Runs in sequence and alternate colours can be moved."
    once = compare(msgid, "Στο ταμπλό τα φύλλα μπαίνουν με φθίνουσα σειρά και εναλλασσόμενο χρώμα. "
                          "Μπορείτε να μετακινείτε ομάδες φύλλων.", "el")
    assert [(f[0], f[1]) for f in once if f[1] != "info"] == [("suit-colour", "warning")]
    twice = compare(msgid, "Στο ταμπλό τα φύλλα μπαίνουν με φθίνουσα σειρά και εναλλασσόμενο χρώμα. "
                           "Μπορείτε να μετακινείτε ομάδες φύλλων σε σειρά και εναλλασσόμενο χρώμα.", "el")
    assert [f for f in twice if f[0] == "suit-colour"] == []


def test_one_per_pile_given_as_the_total_is_information():
    msgid = "Four piles on top. Deal one two on each foundation to start."
    total = compare(msgid, "Τέσσερις στοίβες επάνω. Στην αρχή τοποθετούνται εδώ τα τέσσερα δυάρια.", "el")
    assert [f for f in total if f[0] == "number" and f[1] != "info"] == []
    # Four per pile is another deal.
    per_pile = compare(msgid, "Τέσσερις στοίβες επάνω. Στην αρχή μοιράζονται τέσσερα δυάρια σε καθεμία βάση.", "el")
    assert [(f[1], f[2]) for f in per_pile if f[0] == "number"] == [("warning", "1 in the source, 4 in the translation")]


def test_a_count_turned_into_only_is_a_warning():
    msgid = "Once a pile holds all four cards of one rank it is closed."
    only = compare(msgid, "Када гомила садржи само карте исте вредности, затвара се.", "sr")
    assert [(f[0], f[1]) for f in only if f[1] != "info"] == [("number", "warning")]
    # The count left out without a restriction in its place stays information.
    plain = compare(msgid, "Када гомила садржи карте исте вредности, затвара се.", "sr")
    assert [(f[1], f[2]) for f in plain if f[0] == "number" and f[3].text == "four"] == [
        ("info", "the source says 4; the translation has no such number")]


@pytest.mark.parametrize("msgstr,found", [
    # "On to each pile": which pile is lost.
    ("Горња лева гомила. Карте се окрећу по једна на сваку гомилу при сваком дељењу.", True),
    ("Горња лева гомила. Карте се окрећу по једна на сваку гомилу резерве при сваком дељењу.", False),
])
def test_a_named_pile_given_only_as_a_pile_is_a_warning(msgstr, found):
    msgid = "Top left pile. Cards are turned on to the reserve, one on each pile per deal."
    lost = "the source names the reserve; the translation only says a pile"
    assert [f[1] for f in compare(msgid, msgstr, "sr") if f[2] == lost] == (["warning"] if found else [])


def test_a_pile_named_before_may_be_these_piles_after():
    msgid = "The reserve is three piles on the left. Cards are turned on to the reserve, one on each pile per deal."
    msgstr = ("Резерва су три гомиле лево. Карте се окрећу на ове гомиле, по једна на сваку гомилу при сваком "
              "дељењу.")
    assert [f for f in compare(msgid, msgstr, "sr") if f[0] == "pile" and f[1] != "info"] == []


@pytest.mark.parametrize("msgstr,model,found", [
    # "Descending" added where the source gives no direction.
    ("Οι στήλες της ρεζέρβας χτίζονται ανά φυλή και σε φθίνουσα σειρά.", None, "warning"),
    # The page's rules build a pile down: the translation says what the game does.
    ("Οι στήλες της ρεζέρβας χτίζονται ανά φυλή και σε φθίνουσα σειρά.",
     ModelFacts(builds=(("tableau", "down", "suit"),)), "info"),
    # No direction, or "ascending" (how piles are built up unless told otherwise), is not reported.
    ("Οι στήλες της ρεζέρβας χτίζονται ανά φυλή.", None, None),
    ("Οι στήλες της ρεζέρβας χτίζονται ανά φυλή και σε αύξουσα σειρά.", None, None),
])
def test_a_build_direction_the_translation_adds_is_a_warning(msgstr, model, found):
    msgid = "The reserve piles can be built in suit."
    added = [f for f in compare(msgid, msgstr, "el", UnitContext(model=model))
             if f[2].startswith("the translation adds that piles build down")]
    assert [f[1] for f in added] == ([found] if found else [])
    if model is not None:
        assert added[0][2].endswith("(the page's rules say the tableau builds down)")


@pytest.mark.parametrize("msgid,msgstr,found", [
    # "Only once" where the source counts no one.
    ("You can turn the stock over and redeal twice.",
     "Der Talon darf nur einmal umgedreht und zweimal neu gegeben werden.", True),
    ("You can turn the stock over and redeal twice.", "Der Talon darf zweimal umgedreht und neu gegeben werden.", False),
    # The article after "only" is German's word for one.
    ("An empty foundation can take only an Ace.", "Ein leeres Fundament nimmt nur ein Ass.", False),
    # No redeal is one pass through the stock.
    ("There is no redeal.", "Der Talon wird nur einmal durchgespielt.", False),
])
def test_only_one_the_source_does_not_count_is_a_warning(msgid, msgstr, found):
    added = [f[1] for f in compare(msgid, msgstr, "de") if f[2].startswith("the translation says only one")]
    assert added == (["warning"] if found else [])


@pytest.mark.parametrize("lang,msgstr,found", [
    # The second condition made a condition of the first.
    ("de", "Das Spiel ist verloren, wenn keine Karte mehr gelegt werden kann, falls alle Felder belegt sind.", True),
    ("de", "Das Spiel ist verloren, wenn keine Karte mehr gelegt werden kann oder wenn alle Felder belegt sind.",
     False),
    # A sentence of its own for the second condition says it apart.
    ("de", "Das Spiel ist verloren, wenn keine Karte mehr gelegt werden kann. Auch wenn alle Felder belegt sind, "
           "ist es verloren.", False),
    # Greek "ή" (or) is read as written: folded, it would be the article "η".
    ("el", "Η παρτίδα χάνεται αν δεν μπορεί να τοποθετηθεί κανένα φύλλο ή, αν όλες οι θέσεις είναι γεμάτες.", False),
    ("el", "Η παρτίδα χάνεται αν δεν μπορεί να τοποθετηθεί κανένα φύλλο, αν όλες οι θέσεις είναι γεμάτες.", True),
])
def test_two_conditions_joined_by_or_and_translated_as_one_is_a_warning(lang, msgstr, found):
    msgid = "The game is lost if no card can be placed or if every space is filled."
    lost = [f[1] for f in compare(msgid, msgstr, lang) if f[2].startswith("the source joins two conditions")]
    assert lost == (["warning"] if found else [])


@pytest.mark.parametrize("lang,msgstr,found", [
    # One at a time, but not one to each pile.
    ("el", "Τρεις στοίβες κάτω δεξιά. Παίρνουν φύλλα από τη μάνα ένα τη φορά.", True),
    ("el", "Τρεις στοίβες κάτω δεξιά. Παίρνουν από τη μάνα ένα φύλλο σε κάθε στοίβα τη φορά.", False),
    ("el", "Τρεις στοίβες κάτω δεξιά. Παίρνουν από τη μάνα από ένα φύλλο τη φορά.", False),
    # German "pro Stapel"; Serbian distributive "по", and "свакој" read by its opening "свак".
    ("de", "Drei Stapel unten rechts. Sie nehmen vom Talon eine Karte pro Stapel.", False),
    ("sr", "Три гомиле доле десно. Са шпила се узима по једна карта.", False),
    ("sr", "Три гомиле доле десно. Са шпила се узима једна карта на свакој гомили.", False),
    ("sr", "Три гомиле доле десно. Са шпила се узима једна карта.", True),
])
def test_one_to_each_pile_translated_without_each_is_a_warning(lang, msgstr, found):
    msgid = "Three piles bottom right. They take cards from the stock, one on to each at a time."
    lost = [f[1] for f in compare(msgid, msgstr, lang) if f[2].startswith("the source gives one to each pile")]
    assert lost == (["warning"] if found else [])


def test_one_to_each_pile_given_as_the_total_is_no_finding():
    msgid = "Four piles on top. Deal one Two on each foundation to start."
    total = compare(msgid, "Τέσσερις στοίβες επάνω. Στην αρχή τοποθετούνται εδώ τα τέσσερα δυάρια.", "el")
    assert [f for f in total if f[2].startswith("the source gives one to each pile")] == []
    # "Each of the first four" names the piles, which a translation may count instead.
    assert [f for f in compare("Deal one card on each of the first four piles.",
                               "Μοιράζεται ένα φύλλο στις τέσσερις πρώτες στοίβες.", "el")
            if f[2].startswith("the source gives one to each pile")] == []


def test_two_numbers_changed_in_one_sentence_are_two_errors():
    src = "All cards are dealt into four rows of 13 cards each. Two redeals are allowed."
    dst = "Alle Karten werden in fünf Reihen mit jeweils 12 Karten ausgeteilt. Zwei Neuverteilungen sind erlaubt."
    found = compare(src, dst, "de")
    assert [(f[0], f[1], f[2]) for f in found] == [
        ("number", "error", "4 in the source, 5 in the translation"),
        ("number", "error", "13 in the source, 12 in the translation")]
    # Numbers of a source sentence spread over two translated ones: which became which is a guess.
    dst = "Alle Karten werden in fünf Reihen ausgeteilt. Jede hat 12 Karten. Zwei Neuverteilungen sind erlaubt."
    assert [(f[0], f[1], f[5]) for f in compare(src, dst, "de")] == [("number", "info", 0.45), ("number", "info", 0.45)]
