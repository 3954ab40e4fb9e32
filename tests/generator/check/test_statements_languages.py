"""The rule comparison in French, Spanish, Catalan and Swedish: a changed number, rank, pile, suit or
colour, direction, a dropped negation or "only" is found; faithful translations in other words are not
flagged."""

from __future__ import annotations

import pytest

from patiencebook.generator.check.statements import compare

#: (check, msgid, translation that changes the rule) per language.
CHANGED = {
    "fr": [
        ("number", "Eight piles. Deal four cards face up to each pile.",
         "Neuf piles. On distribue quatre cartes face visible sur chaque pile."),
        ("rank", "Empty spaces in the tableau can be filled only with a King.",
         "Les emplacements vides du tableau ne peuvent être remplis que par une Dame."),
        ("pile", "Cards in the foundations are out of play.", "Les cartes du tableau sont hors jeu."),
        ("suit-colour", "Tableau piles are built down in suit.",
         "Les piles du tableau sont construites en descendant en alternant les couleurs."),
        ("direction", "Tableau piles are built down regardless of suit.",
         "Les piles du tableau sont construites en montant, quelle que soit la couleur."),
        ("negation", "Cards in the foundations cannot be moved back to the tableau.",
         "Les cartes des fondations peuvent être remises sur le tableau."),
        ("only", "An empty pile can be filled only with a King or a group starting with a King.",
         "Une pile vide peut être remplie par un Roi ou par une suite commençant par un Roi."),
    ],
    "es": [
        ("number", "Eight piles. Deal four cards face up to each pile.",
         "Nueve montones. Se dan cuatro cartas boca arriba en cada montón."),
        ("rank", "Empty spaces in the tableau can be filled only with a King.",
         "Los huecos vacíos del tablero sólo se pueden llenar con una reina."),
        ("pile", "Cards in the foundations are out of play.", "Las cartas de la basura están fuera de juego."),
        ("suit-colour", "Tableau piles are built down in suit.",
         "Los montones del tablero se construyen descendentemente alternando el color."),
        ("direction", "Tableau piles are built down regardless of suit.",
         "Los montones del tablero se construyen ascendentemente sin importar el palo."),
        ("negation", "Cards in the foundations cannot be moved back to the tableau.",
         "Las cartas de la fundación se pueden devolver al tablero."),
        ("only", "An empty pile can be filled only with a King or a group starting with a King.",
         "Un montón vacío se puede llenar con un rey o con un grupo que empiece por un rey."),
    ],
    "ca": [
        ("number", "Eight piles. Deal four cards face up to each pile.",
         "Nou piles. Es reparteixen quatre cartes cara amunt a cada pila."),
        ("rank", "Empty spaces in the tableau can be filled only with a King.",
         "Els espais buits del tauler només es poden omplir amb una reina."),
        ("pile", "Cards in the foundations are out of play.", "Les cartes de la reserva estan fora de joc."),
        ("suit-colour", "Tableau piles are built down in suit.",
         "Les piles del tauler es construeixen baixant i alternant el color."),
        ("direction", "Tableau piles are built down regardless of suit.",
         "Les piles del tauler es construeixen pujant independentment del pal."),
        ("negation", "Cards in the foundations cannot be moved back to the tableau.",
         "Les cartes de les bases es poden tornar a moure al tauler."),
        ("only", "An empty pile can be filled only with a King or a group starting with a King.",
         "Una pila buida es pot omplir amb un rei o amb un grup que comenci amb un rei."),
    ],
    "sv": [
        ("number", "Eight piles. Deal four cards face up to each pile.",
         "Nio högar. Lägg fyra kort med framsidan upp på varje hög."),
        ("rank", "Empty spaces in the tableau can be filled only with a King.",
         "Tomma platser i bordshögarna kan bara fyllas med en dam."),
        ("pile", "Cards in the foundations are out of play.", "Korten i kasthögen är inte längre i spel."),
        ("suit-colour", "Tableau piles are built down in suit.",
         "Bordshögarna byggs ned genom att växla kulör."),
        ("direction", "Tableau piles are built down regardless of suit.",
         "Bordshögarna byggs upp oavsett färg."),
        ("negation", "Cards in the foundations cannot be moved back to the tableau.",
         "Kort i grundhögarna kan flyttas tillbaka till bordshögarna."),
        ("only", "An empty pile can be filled only with a King or a group starting with a King.",
         "En tom hög kan fyllas med en kung eller en grupp som börjar med en kung."),
    ],
}

#: (msgid, a faithful translation in other words) per language.
FAITHFUL = {
    "fr": [
        ("Tableau piles are built down in suit.", "Les piles du tableau se construisent en descendant par couleur."),
        ("Foundations are built up in alternating colours from Ace to King.",
         "Les fondations sont construites en montant, en alternant les couleurs, de l'As au Roi."),
        ("Empty piles cannot be filled.", "Une pile vide ne peut être remplie."),
        ("An empty pile can be filled only with a King.", "Une pile vide ne peut être remplie que par un Roi."),
        ("Cards are turned over three at a time to the waste. No redeals.",
         "Les cartes sont retournées trois par trois vers la défausse. Pas de redistribution."),
        ("There is no limit to how many times you can redeal the stock.",
         "Aucune limite de redistribution."),
        ("Any card that is covered is removed from play.", "Toute carte recouverte est retirée."),
        ("Building by placing a card of a lower rank on to a card of a higher rank is permitted.",
         "On peut construire en plaçant une carte sur une carte de rang supérieur."),
        ("Deal fifty-two cards to seventeen piles.", "Distribuez cinquante-deux cartes sur dix-sept piles."),
    ],
    "es": [
        ("Tableau piles are built down in suit.", "Los montones del tablero se construyen descendentemente por palo."),
        ("Foundations are built up in alternating colours from Ace to King.",
         "Las fundaciones se construyen ascendentemente alternando el color desde el as hasta el rey."),
        ("Empty piles cannot be filled.", "Los montones vacíos no se pueden llenar."),
        ("An empty pile can be filled only with a King.", "Un montón vacío sólo se puede llenar con un rey."),
        ("Cards are dealt four at a time until the stock is exhausted.",
         "Las cartas se dan de cuatro en cuatro hasta que se acaba el montón."),
        ("There is no redeal.", "No se reparten de nuevo."),
        ("Each pair removed from the game scores two points.", "Cada pareja que se elimina del juego puntúa dos puntos."),
        ("Deal fifty-two cards to thirty-one piles.", "Se dan cincuenta y dos cartas en treinta y un montones."),
        ("A card one rank higher may be placed in the gap.",
         "En el hueco se puede colocar una carta de rango uno superior."),
    ],
    "ca": [
        ("Tableau piles are built down in suit.", "Les piles del tauler es construeixen baixant per pal."),
        ("Foundations are built up in alternating colours from Ace to King.",
         "Les bases es construeixen pujant i alternant el color des de l'as fins al rei."),
        ("Empty piles cannot be filled.", "Les piles buides no es poden omplir."),
        ("An empty pile can be filled only with a King.", "Una pila buida només es pot omplir amb un rei."),
        ("Cards are dealt three at a time to the waste. No redeals.",
         "Les cartes es reparteixen de tres en tres a la pila de descartades. No es torna a repartir."),
        ("Any empty slot must be filled before dealing more cards.",
         "Qualsevol lloc buit s'ha d'omplir abans de repartir més cartes."),
        ("Cells can hold one card each. Unlimited redeals.",
         "Les cel·les poden tenir una carta cadascuna. Redistribucions il·limitades."),
        ("Deal fifty-two cards to twenty-one piles.", "Es reparteixen cinquanta-dues cartes a vint-i-una piles."),
        ("Cards are turned over one at a time from the stock to the waste.",
         "Les cartes es giren d'una en una des de la pila principal a la pila de descartades."),
        ("A face-down card partially obscured by another is raised by a right-click.",
         "Una carta cara avall coberta parcialment per una altra es mostra en fer clic amb el botó secundari."),
    ],
    "sv": [
        ("Tableau piles are built down in suit.", "Bordshögarna byggs ned i färg."),
        ("Foundations are built up in alternating colours from Ace to King.",
         "Grundhögarna byggs upp genom att växla kulören från ess till kung."),
        ("Empty piles cannot be filled.", "Tomma högar kan inte fyllas."),
        ("An empty pile can be filled only with a King.", "En tom hög kan bara fyllas med en kung."),
        ("Cards are turned over three at a time. No redeals.", "Korten vänds tre och tre. Inga omgivar."),
        ("Each pair removed from the game scores two points.", "Varje par som tas bort från spelet ger två poäng."),
        ("Deal a card face up to every pile.", "Ett uppåtvänt kort delas ut på varje hög."),
        ("The moved card must be one less than the card it is placed on.",
         "Det flyttade kortet måste vara ett mindre än kortet det placeras på."),
        ("Cards in the foundations are no longer in play.", "Kort i grundhögarna är inte längre i spel."),
    ],
}


def _reported(findings):
    return [(f[0], f[1]) for f in findings if f[1] in ("error", "warning")]


@pytest.mark.parametrize("lang,check,msgid,msgstr",
                         [(lang, *case) for lang, cases in CHANGED.items() for case in cases])
def test_a_changed_rule_is_found(lang, check, msgid, msgstr):
    assert check in [c for c, _ in _reported(compare(msgid, msgstr, lang))]


@pytest.mark.parametrize("lang,check,msgid,msgstr",
                         [(lang, *case) for lang, cases in CHANGED.items() for case in cases
                          if case[0] in ("number", "rank", "pile", "suit-colour", "direction")])
def test_a_changed_value_is_an_error(lang, check, msgid, msgstr):
    assert (check, "error") in _reported(compare(msgid, msgstr, lang))


@pytest.mark.parametrize("lang,msgid,msgstr", [(lang, *case) for lang, cases in FAITHFUL.items() for case in cases])
def test_a_faithful_translation_is_not_flagged(lang, msgid, msgstr):
    assert _reported(compare(msgid, msgstr, lang)) == []


@pytest.mark.parametrize("lang,msgid,msgstr", [
    ("fr", "An empty pile can be filled only with a King.", "Une pile vide peut être remplie par un Roi."),
    ("es", "An empty pile can be filled only with a King.", "Un montón vacío se puede llenar con un rey."),
    ("ca", "An empty pile can be filled only with a King.", "Una pila buida es pot omplir amb un rei."),
    ("sv", "An empty pile can be filled only with a King.", "En tom hög kan fyllas med en kung."),
])
def test_the_same_sentences_without_only_are_a_warning(lang, msgid, msgstr):
    assert ("only", "warning") in _reported(compare(msgid, msgstr, lang))


@pytest.mark.parametrize("lang,msgid,msgstr", [
    ("fr", "Stock cannot be turned.", "La pioche ne peut être retournée."),
    ("fr", "Stock cannot be turned.", "La pioche ne peut pas être retournée."),
    ("es", "No card can be moved.", "No se puede mover ninguna carta."),
    ("ca", "No card can be moved.", "No es pot moure cap carta."),
    ("sv", "Neither the stock nor the waste can be filled.", "Varken högen eller kasthögen kan fyllas."),
])
def test_negations_said_in_the_languages_own_ways_are_kept(lang, msgid, msgstr):
    assert [c for c, _ in _reported(compare(msgid, msgstr, lang)) if c == "negation"] == []
