/* Patience Book card renderer: draws one position (piles of cards) into an element, laid out by the
 * layout JSON of generator/pages/layout.py and scaled to the element's width. A classic script (works from
 * file://); defines window.PatienceBookCards, used by the example widget and the live board, and then
 * fires the document event "patiencebook:cards" for scripts loaded before it (async) that wait for it. */
(function (global) {
  "use strict";

  var SUIT_SYMBOLS = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };
  var RANK_TEXT = { A: "A", T: "10", J: "J", Q: "Q", K: "K" };
  var RANK_ORDER = "A23456789TJQK";
  var CARD_HEIGHT = 1.4;      // in card widths, as in the layout JSON
  // Offsets of a card over the one below it, in card widths, as generator/pages/layout.py reckons them.
  var FAN_UP = 0.28;
  var FAN_RIGHT = 0.25;
  var FAN_DOWN = 0.14;        // face-down cards show less of themselves
  var GAP = 0.1;              // space kept before the next pile when a fan has to be squeezed

  /**
   * Reads a card's notation text ("7h", "Td", "10d", "#Qs" face down, "Jk" joker).
   * `ranks` (optional): the page language's rank marks, Ace to King, as a list or separated by
   * spaces (the ui string card_ranks: "A 2 3 4 5 6 7 8 9 10 B D K"); English marks without it.
   * Returns {text, up, rank, suit, red, joker, label}; label is "7♥", "10♦", or "\u{1F0CF}" for a joker.
   * Unreadable text gives {label: text} with rank and suit null (drawn as a plain face).
   */
  function parseCard(text, ranks) {
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
    var marks = typeof ranks === "string" ? ranks.split(/\s+/) : ranks;
    var local = marks && marks.length === 13 ? marks[RANK_ORDER.indexOf(rank === "10" ? "T" : rank)] : null;
    card.rank = local || RANK_TEXT[rank] || rank;
    card.suit = suit;
    card.red = suit === "h" || suit === "d";
    card.label = card.rank + SUIT_SYMBOLS[suit];
    return card;
  }

  /** The accessible text of a card: "7♥" (rank marks from `ranks`, as parseCard); face-down
   * cards give `faceDown` (default "face down"). */
  function cardLabel(text, faceDown, ranks) {
    var card = parseCard(text, ranks);
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
    var card = parseCard(text, options.ranks);
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
   * Puts a frame (span.pb-frame.<className>) around the cards of the drawn pile `pileEl` from card
   * `from` (0 = bottom) to its top card: the run that moves, or the one card. `from` null, or a pile
   * without cards, frames the pile's empty place. The frame follows the fan, so a run down a
   * tableau pile gets one frame from its lowest card to its top card. Returns the frame element.
   */
  function frame(pileEl, from, className) {
    var cards = Array.prototype.filter.call(pileEl.children, function (el) {
      return el.classList.contains("pb-card");
    });
    var el = document.createElement("span");
    el.className = "pb-frame " + className;
    el.setAttribute("aria-hidden", "true");
    var first = from === null || from === undefined ? null : cards[Math.max(0, Math.min(from, cards.length - 1))];
    var last = cards[cards.length - 1];
    if (first && last) {
      var right = pileEl.classList.contains("pb-fan-right");
      var side = right ? "left" : "top";
      var start = first.style[side] || "0%";
      var end = last.style[side] || "0%";
      el.style[side] = start;
      el.style[right ? "width" : "height"] = "calc(" + end + " - " + start + " + 100%)";
    }
    pileEl.appendChild(el);
    return el;
  }

  /* The highlight of a move on a drawn pile: its top `count` cards (`moving`), or its top card. */
  function frameMove(pileEl, cards, count, moving, className) {
    if (!cards.length) { return frame(pileEl, null, className); }
    var from = moving ? cards.length - Math.max(1, count || 1) : cards.length - 1;
    return frame(pileEl, from, className);
  }

  function labelElement(text) {
    var label = document.createElement("span");
    label.className = "pb-label";
    label.setAttribute("aria-hidden", "true");
    var words = document.createElement("span");
    words.textContent = text;
    label.appendChild(words);
    return label;
  }

  /* The width (card widths) a pile's label may take: the step to the nearest pile beside it in its
   * row, at most 2. A pile fanned to the right (Osmosis's foundations) has its label over its fan,
   * from its left edge, as far as the fan or the next pile to its right. */
  function labelRoom(pile, layout) {
    var right = pile.fan === "right";
    var room = right ? pile.room || 1 : 2;
    layout.piles.forEach(function (other) {
      if (other !== pile && (other.row || 0) === (pile.row || 0) && Math.abs(other.y - pile.y) < CARD_HEIGHT) {
        var step = right ? other.x - pile.x : Math.abs(other.x - pile.x);
        if (step > 0) { room = Math.min(room, step); }
      }
    });
    return room;
  }

  /* Whether another pile lies over the place of ``pile``'s label, just above it (the lower rows of
   * Triple Peaks, where each pile lies half a card under the ones over it): such a pile is named by
   * its title and aria-label only. */
  function underAnother(pile, layout) {
    return layout.piles.some(function (other) {
      return other !== pile && other.y < pile.y && other.y + CARD_HEIGHT > pile.y - 0.2 &&
        Math.abs(other.x - pile.x) < 1;
    });
  }

  /* Where the names of a group of piles ("Foundation 1" .. "Foundation 4") do not fit on one line
   * by their piles, each pile keeps its number and the group's name is written once across them. */
  function fitLabels(board, layout, names, drawn) {
    var groups = {};
    var keys = [];
    layout.piles.forEach(function (pile) {
      var key = (pile.group || pile.id) + "/" + (pile.row || 0);
      if (!groups[key]) { groups[key] = []; keys.push(key); }
      groups[key].push(pile);
    });
    keys.forEach(function (key) {
      var piles = groups[key];
      if (piles.length < 2) { return; }
      var split = piles.map(function (pile) { return /^(.*\S)\s+(\S+)$/.exec(names[pile.id] || ""); });
      var common = split[0] && split[0][1];
      if (!split.every(function (m) { return m && m[1] === common; })) { return; }
      var tooWide = piles.some(function (pile) {
        var label = drawn[pile.id] && drawn[pile.id].querySelector(".pb-label");
        if (!label) { return false; }
        var words = label.firstChild.getBoundingClientRect();
        var line = parseFloat(global.getComputedStyle(label).lineHeight) || 0;
        return words.width > label.getBoundingClientRect().width + 0.5 || (line > 0 && words.height > line * 1.5);
      });
      if (!tooWide) { return; }
      piles.forEach(function (pile, i) {
        var label = drawn[pile.id] && drawn[pile.id].querySelector(".pb-label");
        if (label) { label.firstChild.textContent = split[i][2]; }
      });
      var first = piles[0];
      var last = piles[piles.length - 1];
      var caption = labelElement(common);
      var below = !(first.row || 0);
      caption.className += " pb-group-label " + (below ? "pb-group-below" : "pb-group-above");
      caption.style.left = percent(first.x / layout.width);
      caption.style.width = percent((last.x + 1 - first.x) / layout.width);
      if (below) {
        var bottom = Math.max.apply(null, piles.map(function (p) { return p.y + CARD_HEIGHT; }));
        caption.style.top = percent(bottom / layout.height);
      } else {
        var top = Math.min.apply(null, piles.map(function (p) { return p.y; }));
        caption.style.bottom = percent(1 - top / layout.height);
      }
      board.appendChild(caption);
    });
  }

  /**
   * How many pixels the labels drawn in `container` under the top row reach past the top of the
   * labels over the rows below (plus a little space), or 0 when they leave room between them.
   */
  function labelOverlap(container) {
    var bottom = -Infinity;
    var top = Infinity;
    Array.prototype.forEach.call(container.querySelectorAll(".pb-label"), function (label) {
      var box = label.getBoundingClientRect();
      var under = label.classList.contains("pb-group-below") ||
        (label.parentNode.classList && label.parentNode.classList.contains("pb-label-below"));
      if (under) { bottom = Math.max(bottom, box.bottom); } else { top = Math.min(top, box.top); }
    });
    var gap = 3;
    return isFinite(bottom) && isFinite(top) && bottom + gap > top ? Math.ceil(bottom + gap - top) : 0;
  }

  /**
   * Draws `position` into `container`, replacing its content.
   *   layout:   {width, height, piles: [{id, x, y, fan: "down"|"right"|"none", room, role, group, row}]},
   *             units = card widths (a card is 1 x 1.4), x/y = the pile's top left corner, room
   *             (optional) = the length a fan may use, its card included; longer fans are squeezed.
   *   position: {piles: [{id, role, cards: ["#Qs", "5h", ...]}]}, cards bottom to top.
   *   options:  {names: {pid: name}, highlight: {source, target, count, done}, faceDown: "face down"
   *              text, empty: "(empty)" text, ranks: the rank marks (parseCard), labels: true to
   *              write each pile's name by it} (all optional; names, texts and marks in the page
   *              language).
   * A highlight frames cards, not piles: before a move (`done` false: a hint) the `count` cards
   * that move off the source (its top card when count is missing) and the target's top card; after
   * it (`done` true: a step of an example) the `count` cards now on the target and the source's top
   * card; a pile without cards gets its empty place framed. The piles also get the classes
   * pb-source and pb-target.
   * Labels (span.pb-label, hidden from assistive technology, which reads the pile's aria-label)
   * go under the piles of the top row (`row` 0) and over the others; a group whose names do not
   * fit by its piles gets its piles' numbers there and its name once across them. The drawing keeps its
   * proportions (aspect-ratio) and is at least `layout.width` times the CSS length --pb-min-card
   * wide (0 unless a style sets it), so a wide table can scroll rather than shrink its cards.
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
    board.style.aspectRatio = layout.width + " / " + layout.height;
    board.style.minWidth = "calc(" + layout.width + " * var(--pb-min-card, 0px))";
    var drawn = {};

    layout.piles.forEach(function (pile) {
      var cards = cardsById[pile.id] || [];
      var el = document.createElement("div");
      el.className = "pb-pile pb-role-" + (pile.role || "other") + " pb-fan-" + (pile.fan || "none") +
        (cards.length ? "" : " pb-empty");
      if (pile.id === highlight.source) { el.className += " pb-source"; }
      if (pile.id === highlight.target) { el.className += " pb-target"; }
      if (options.labels) { el.className += pile.row ? " pb-label-above" : " pb-label-below"; }
      el.setAttribute("data-pile", pile.id);
      el.setAttribute("role", "group");
      el.setAttribute("aria-label", names[pile.id] || pile.id);
      el.title = names[pile.id] || pile.id;
      el.style.left = percent(pile.x / layout.width);
      el.style.top = percent(pile.y / layout.height);
      el.style.width = percent(1 / layout.width);
      el.style.height = percent(CARD_HEIGHT / layout.height);

      var parsed = cards.map(function (text) { return parseCard(text, options.ranks); });
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
      if (options.labels && !underAnother(pile, layout)) {
        var label = labelElement(names[pile.id] || pile.id);
        // As wide as the step to the next pile of the row, centred on the pile.
        var slot = labelRoom(pile, layout);
        label.style.width = percent(slot);
        label.style.left = pile.fan === "right" ? "0%" : percent((1 - slot) / 2);
        if (pile.fan === "right") { label.style.justifyContent = "flex-start"; }
        el.appendChild(label);
      }
      if (pile.id === highlight.source) {
        frameMove(el, cards, highlight.count, !highlight.done, "pb-frame-source");
      }
      if (pile.id === highlight.target) {
        frameMove(el, cards, highlight.count, !!highlight.done, "pb-frame-target");
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
    if (options.labels) { fitLabels(board, layout, names, drawn); }
    return { piles: drawn };
  }

  global.PatienceBookCards = {
    render: render, frame: frame, labelOverlap: labelOverlap, parseCard: parseCard, cardLabel: cardLabel
  };
  // The scripts that draw with it load asynchronously too: tell them it is here.
  document.dispatchEvent(new Event("patiencebook:cards"));
}(window));
