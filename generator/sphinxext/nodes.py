"""Docutils nodes for blocks shown in English because their translation is missing or fuzzy.

In HTML a fallback becomes an element with ``lang="en"``, the classes ``pb-fallback`` and
``pb-<reason>``, a ``title`` explaining why, and a small visible mark in the page's language.
"""

from __future__ import annotations

from html import escape

from docutils import nodes


class _Fallback:
    """Attributes shared by both fallback nodes.

    ``reason``: ``"untranslated"`` or ``"fuzzy"``; ``label``: the mark's text and ``explanation``: the
    ``title`` text, both in the page's language; ``label_lang``: BCP 47 tag of the page's language.
    """


class fallback_block(nodes.General, nodes.Element, _Fallback):
    """A block-level fallback (paragraph, list, table cell content...)."""


class fallback_inline(nodes.Inline, nodes.TextElement, _Fallback):
    """An inline fallback (the content of a title or a glossary term)."""


def _open(self, node: nodes.Element, tag: str) -> None:
    classes = ["pb-fallback", f"pb-{node.get('reason', 'untranslated')}"]
    self.body.append(self.starttag(node, tag, "", CLASS=" ".join(classes), lang="en",
                                   title=node.get("explanation", "")))


def _mark(node: nodes.Element, tag: str = "span") -> str:
    return (f'<{tag} class="pb-fallback-mark" lang="{escape(node.get("label_lang", ""))}">'
            f'{escape(node.get("label", ""))}</{tag}>')


def visit_fallback_block_html(self, node: fallback_block) -> None:
    _open(self, node, "div")
    self.body.append(_mark(node))


def depart_fallback_block_html(self, node: fallback_block) -> None:
    self.body.append("</div>\n")


def visit_fallback_inline_html(self, node: fallback_inline) -> None:
    _open(self, node, "span")


def depart_fallback_inline_html(self, node: fallback_inline) -> None:
    self.body.append("</span>" + _mark(node))


def _pass(self, node: nodes.Element) -> None:
    pass


#: Visitor pairs for ``app.add_node``: HTML gets the marked element, other writers the plain content.
FALLBACK_NODES = {
    fallback_block: {"html": (visit_fallback_block_html, depart_fallback_block_html),
                     "text": (_pass, _pass), "latex": (_pass, _pass), "man": (_pass, _pass),
                     "texinfo": (_pass, _pass)},
    fallback_inline: {"html": (visit_fallback_inline_html, depart_fallback_inline_html),
                      "text": (_pass, _pass), "latex": (_pass, _pass), "man": (_pass, _pass),
                      "texinfo": (_pass, _pass)},
}


# -- interface strings shown in another language ---------------------------------------------------
# Text the build writes from our interface strings (a figure, a move in words, the board's title) is in
# English where the page's language has no wording of ours yet; HTML then says so with ``lang``.

#: The class of an element holding our interface strings in another language than the page's; the
#: rendered-page check (``check/sitereport.py``) tells them from page text shown without its mark.
INTERFACE_CLASS = "pb-interface"


class lang_block(nodes.General, nodes.Element):
    """Blocks in language ``lang`` (a BCP 47 tag) other than the page's: ``<div lang=...>`` in HTML."""


class lang_inline(nodes.Inline, nodes.TextElement):
    """Inline text in language ``lang`` (a BCP 47 tag) other than the page's: ``<span lang=...>``."""


def visit_lang_block_html(self, node: lang_block) -> None:
    self.body.append(self.starttag(node, "div", "", CLASS=INTERFACE_CLASS, lang=node.get("lang", "")))


def depart_lang_block_html(self, node: lang_block) -> None:
    self.body.append("</div>\n")


def visit_lang_inline_html(self, node: lang_inline) -> None:
    self.body.append(self.starttag(node, "span", "", CLASS=INTERFACE_CLASS, lang=node.get("lang", "")))


def depart_lang_inline_html(self, node: lang_inline) -> None:
    self.body.append("</span>")


#: Visitor pairs for ``app.add_node``: HTML gets the ``lang`` attribute, other writers the plain content.
LANG_NODES = {
    lang_block: {"html": (visit_lang_block_html, depart_lang_block_html), "text": (_pass, _pass),
                 "latex": (_pass, _pass), "man": (_pass, _pass), "texinfo": (_pass, _pass)},
    lang_inline: {"html": (visit_lang_inline_html, depart_lang_inline_html), "text": (_pass, _pass),
                  "latex": (_pass, _pass), "man": (_pass, _pass), "texinfo": (_pass, _pass)},
}


# -- step-through examples -------------------------------------------------------------------------
# The widget is a <figure> whose scripted parts (board, buttons, live region, trace JSON) are raw HTML
# made by the parser; the caption and the list of steps stay docutils nodes, so their inline markup
# and fallback marks render as everywhere else and their text is searchable.

class example_widget(nodes.General, nodes.Element):
    """A step-through example: ``ids`` (the DocBook id), ``caption_id`` (id of its caption)."""


class example_caption(nodes.Part, nodes.TextElement):
    """The caption of an example: ``label`` (the word "Example" in the page language, or in English
    with its tag in ``label_lang`` where the page's language has no wording of it) and the title."""


class example_step(nodes.list_item):
    """One step of an example's ordered list; ``step`` is its 1-based number in the trace."""


def visit_example_widget_html(self, node: example_widget) -> None:
    self.body.append(self.starttag(node, "figure", "", CLASS="pb-example", role="group",
                                   **{"data-pb-example": "", "aria-labelledby": node.get("caption_id", "")}))


def depart_example_widget_html(self, node: example_widget) -> None:
    self.body.append("</figure>\n")


def visit_example_caption_html(self, node: example_caption) -> None:
    self.body.append(self.starttag(node, "figcaption", "", CLASS="pb-example-caption"))
    if node.get("label"):
        lang = f' lang="{escape(node["label_lang"])}"' if node.get("label_lang") else ""
        classes = f"pb-example-label {INTERFACE_CLASS}" if lang else "pb-example-label"
        self.body.append(f'<span class="{classes}"{lang}>{escape(node["label"])}</span> ')


def depart_example_caption_html(self, node: example_caption) -> None:
    self.body.append("</figcaption>\n")


def visit_example_step_html(self, node: example_step) -> None:
    self.body.append(self.starttag(node, "li", "", **{"data-pb-step": str(node.get("step", ""))}))


def depart_example_step_html(self, node: example_step) -> None:
    self.body.append("</li>\n")


def _visit_list_item(self, node: nodes.Element) -> None:
    self.visit_list_item(node)


def _depart_list_item(self, node: nodes.Element) -> None:
    self.depart_list_item(node)


_PLAIN = {"text": (_pass, _pass), "latex": (_pass, _pass), "man": (_pass, _pass), "texinfo": (_pass, _pass)}

#: Visitor pairs for ``app.add_node``: the example's figure, caption and steps (other writers: plain content).
EXAMPLE_NODES = {
    example_widget: {"html": (visit_example_widget_html, depart_example_widget_html), **_PLAIN},
    example_caption: {"html": (visit_example_caption_html, depart_example_caption_html), **_PLAIN},
    example_step: {"html": (visit_example_step_html, depart_example_step_html),
                   **{writer: (_visit_list_item, _depart_list_item) for writer in _PLAIN}},
}
