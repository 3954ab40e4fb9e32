/* Patience Book: the search page's result excerpts read only the page's prose.
 *
 * Sphinx's searchtools.js fetches each result page and takes its excerpt from the text of the main
 * element (Search.htmlToText). Two things there are not prose: the parts of a page the search index
 * leaves out, marked with the class "no-search" (the setup picture, whose SVG title, description
 * and pile labels would show as "Setup: HamiltonStock: 24 cards", the example and board controls),
 * and the "not translated" marks; both are taken out first. Then every block element (paragraph,
 * table cell, list item, heading...) is set off by spaces, since the text of two blocks follows on
 * without any ("Stock" + "Top left" would read "StockTop left"), and runs of white space become
 * one space. Loaded after searchtools.js on the search page only (templates/search.html). */
(function () {
  "use strict";

  var LEFT_OUT = ".no-search, .pb-fallback-mark";
  var BLOCKS = "address, article, aside, blockquote, caption, dd, div, dl, dt, figcaption, figure, " +
    "footer, h1, h2, h3, h4, h5, h6, header, hr, li, main, nav, ol, p, pre, section, table, td, th, " +
    "tr, ul, br";

  if (typeof Search === "undefined" || typeof Search.htmlToText !== "function") { return; }
  var pageText = Search.htmlToText;

  /* The HTML of a result page with what is not its prose taken out and its blocks set apart. */
  function prose(htmlString) {
    var page = new DOMParser().parseFromString(htmlString, "text/html");
    Array.prototype.forEach.call(page.querySelectorAll(LEFT_OUT), function (el) { el.remove(); });
    Array.prototype.forEach.call(page.querySelectorAll(BLOCKS), function (el) {
      el.parentNode.insertBefore(page.createTextNode(" "), el);
      el.parentNode.insertBefore(page.createTextNode(" "), el.nextSibling);
    });
    return page.documentElement.outerHTML;
  }

  Search.htmlToText = function (htmlString, anchor) {
    return pageText.call(this, prose(htmlString), anchor).replace(/\s+/g, " ");
  };
}());
