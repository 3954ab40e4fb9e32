/* Patience Book card renderer: draws one position (piles of cards) into an element, laid out by the
 * layout JSON of generator/pages/layout.py and scaled to the element's width. A classic script (works from
 * file://); defines window.PatienceBookCards, used by the example widget and the live board, and then
 * fires the document event "patiencebook:cards" for scripts loaded before it (async) that wait for it. */
(function (global) {
  "use strict";

  var SUIT_SYMBOLS = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };
  var RANK_TEXT = { A: "A", T: "10", J: "J", Q: "Q", K: "K" };
  var CARD_HEIGHT = 1.4;      // in card widths, as in the layout JSON
  // Offsets of a card over the one below it, in card widths, as generator/pages/layout.py reckons them.
  var FAN_UP = 0.28;
  var FAN_RIGHT = 0.25;
  var FAN_DOWN = 0.14;        // face-down cards show less of themselves
  var GAP = 0.1;              // space kept before the next pile when a fan has to be squeezed

  /**
   * Reads a card's notation text ("7h", "Td", "10d", "#Qs" face down, "Jk" joker).
   * Returns {text, up, rank, suit, red, joker, label}; label is "7♥", "10♦", or "\u{1F0CF}" for a joker.
   * Unreadable text gives {label: text} with rank and suit null (drawn as a plain face).
   */
  function parseCard(text) {
    var t = String(text);
    var up = t.charAt(0) !== "#";
    var body = up ? t : t.slice(1);
    var card = { text: t, up: up, rank: null, suit: null, red: false, joker: false, label: body };
    if (body.toLowerCase() === "jk") {
      card.joker = true;
      card.label = "\u{1F0CF}";
      return card;
    }
    var suit = body.slice(-1).toLowerCase();
    var rank = body.slice(0, -1).toUpperCase();
    if (!SUIT_SYMBOLS[suit] || !(rank === "10" || /^[A2-9TJQK]$/.test(rank))) {
      return card;
    }
    card.rank = RANK_TEXT[rank] || rank;
    card.suit = suit;
    card.red = suit === "h" || suit === "d";
    card.label = card.rank + SUIT_SYMBOLS[suit];
    return card;
  }

  /** The accessible text of a card: "7♥"; face-down cards give `faceDown` (default "face down"). */
  function cardLabel(text, faceDown) {
    var card = parseCard(text);
    return card.up ? card.label : (faceDown || "face down");
  }

  function percent(value) {
    return (Math.round(value * 10000) / 100) + "%";
  }

  function overlaps(a0, a1, b0, b1) {
    return a0 < b1 && b0 < a1;
  }

  /* How far (card widths) the top card of a fan may lie from the bottom one: the layout's `room`
   * (the length the pile may use, its card included) or, without it, up to the next pile below or
   * to the right, or the edge of the layout. */
  function fanRoom(pile, layout) {
    var down = pile.fan === "down";
    if (typeof pile.room === "number") {
      return pile.room - (down ? CARD_HEIGHT : 1);
    }
    var limit = down ? layout.height : layout.width;
    layout.piles.forEach(function (other) {
      if (other === pile) { return; }
      if (down && other.y > pile.y && overlaps(pile.x, pile.x + 1, other.x, other.x + 1)) {
        limit = Math.min(limit, other.y - GAP);
      } else if (!down && other.x > pile.x &&
                 overlaps(pile.y, pile.y + CARD_HEIGHT, other.y, other.y + CARD_HEIGHT)) {
        limit = Math.min(limit, other.x - GAP);
      }
    });
    return down ? limit - pile.y - CARD_HEIGHT : limit - pile.x - 1;
  }

  /* Offsets (card widths along the fan) of each card of a pile, bottom first; squeezed to fit. */
  function fanOffsets(cards, pile, layout) {
    var offsets = [];
    var at = 0;
    if (pile.fan !== "down" && pile.fan !== "right") {
      return cards.map(function () { return 0; });
    }
    cards.forEach(function (card, i) {
      offsets.push(at);
      if (i < cards.length - 1) { at += !card.up ? FAN_DOWN : pile.fan === "right" ? FAN_RIGHT : FAN_UP; }
    });
    var room = fanRoom(pile, layout);
    if (at > room && at > 0) {
      var squeeze = Math.max(room, 0) / at;
      offsets = offsets.map(function (o) { return o * squeeze; });
    }
    return offsets;
  }

  function cardElement(text, pid, index, options) {
    var card = parseCard(text);
    var el = document.createElement("div");
    el.className = "pb-card " + (card.up ? "pb-face" : "pb-back") + (card.red && card.up ? " pb-red" : "");
    el.setAttribute("role", "img");
    el.setAttribute("data-pile", pid);
    el.setAttribute("data-index", String(index));
    el.setAttribute("data-card", card.text);
    el.setAttribute("aria-label", card.up ? card.label : (options.faceDown || "face down"));
    if (card.up) {
      // The corner index stays readable when the card lies under others in a fan.
      var corner = document.createElement("span");
      corner.className = "pb-index";
      corner.setAttribute("aria-hidden", "true");
      corner.textContent = card.rank || card.label;
      if (card.suit) {
        var suit = document.createElement("span");
        suit.className = "pb-suit";
        suit.textContent = SUIT_SYMBOLS[card.suit];
        corner.appendChild(suit);
        var pip = document.createElement("span");
        pip.className = "pb-pip";
        pip.setAttribute("aria-hidden", "true");
        pip.textContent = SUIT_SYMBOLS[card.suit];
        el.appendChild(pip);
      }
      el.insertBefore(corner, el.firstChild);
    }
    return el;
  }

  /**
   * Draws `position` into `container`, replacing its content.
   *   layout:   {width, height, piles: [{id, x, y, fan: "down"|"right"|"none", room, role, group}]},
   *             units = card widths (a card is 1 x 1.4), x/y = the pile's top left corner, room
   *             (optional) = the length a fan may use, its card included; longer fans are squeezed.
   *   position: {piles: [{id, role, cards: ["#Qs", "5h", ...]}]}, cards bottom to top.
   *   options:  {names: {pid: name}, highlight: {source, target}, faceDown: "face down" text,
   *              empty: "(empty)" text} (all optional; names and texts in the page language).
   * Every pile gets an element .pb-pile[data-pile], every card .pb-card[data-pile][data-index]
   * [data-card]. A pile of the position missing from the layout is not drawn (and logged).
   * Returns {piles: {pid: element}}.
   */
  function render(container, layout, position, options) {
    options = options || {};
    var names = options.names || {};
    var highlight = options.highlight || {};
    var cardsById = {};
    (position && position.piles || []).forEach(function (pile) { cardsById[pile.id] = pile.cards || []; });

    var board = document.createElement("div");
    board.className = "pb-cards";
    // Percentages of the layout size, so the drawing scales with the width it is given.
    board.style.setProperty("--pb-card-share", String(100 / layout.width));
    board.style.paddingBottom = percent(layout.height / layout.width);
    var drawn = {};

    layout.piles.forEach(function (pile) {
      var cards = cardsById[pile.id] || [];
      var el = document.createElement("div");
      el.className = "pb-pile pb-role-" + (pile.role || "other") + " pb-fan-" + (pile.fan || "none") +
        (cards.length ? "" : " pb-empty");
      if (pile.id === highlight.source) { el.className += " pb-source"; }
      if (pile.id === highlight.target) { el.className += " pb-target"; }
      el.setAttribute("data-pile", pile.id);
      el.setAttribute("role", "group");
      el.setAttribute("aria-label", names[pile.id] || pile.id);
      el.title = names[pile.id] || pile.id;
      el.style.left = percent(pile.x / layout.width);
      el.style.top = percent(pile.y / layout.height);
      el.style.width = percent(1 / layout.width);
      el.style.height = percent(CARD_HEIGHT / layout.height);

      var parsed = cards.map(parseCard);
      var offsets = fanOffsets(parsed, pile, layout);
      cards.forEach(function (text, i) {
        var card = cardElement(text, pile.id, i, options);
        if (pile.fan === "right") {
          card.style.left = percent(offsets[i]);
        } else {
          card.style.top = percent(offsets[i] / CARD_HEIGHT);
        }
        el.appendChild(card);
      });
      if (cards.length > 1 && pile.fan !== "down" && pile.fan !== "right") {
        // A squared pile shows only its top card: say how many lie there (the cards are named anyway).
        var count = document.createElement("span");
        count.className = "pb-count";
        count.setAttribute("aria-hidden", "true");
        count.textContent = String(cards.length);
        el.appendChild(count);
      }
      if (!cards.length && options.empty) {
        var note = document.createElement("span");
        note.className = "pb-visually-hidden";
        note.textContent = options.empty;
        el.appendChild(note);
      }
      board.appendChild(el);
      drawn[pile.id] = el;
    });

    Object.keys(cardsById).forEach(function (pid) {
      if (!drawn[pid] && global.console) {
        global.console.warn("PatienceBookCards: pile " + pid + " is not in the layout");
      }
    });
    while (container.firstChild) { container.removeChild(container.firstChild); }
    container.appendChild(board);
    return { piles: drawn };
  }

  global.PatienceBookCards = { render: render, parseCard: parseCard, cardLabel: cardLabel };
  // The scripts that draw with it load asynchronously too: tell them it is here.
  document.dispatchEvent(new Event("patiencebook:cards"));
}(window));
