/* Patience Book live board ("Play this deal"): runs the project's rules engine in the page through
 * Pyodide, served by the site itself, and draws each position with PatienceBookCards.render
 * (pb-cards.js). A classic script that defines window.PatienceBookBoard (one board: its controls,
 * drawing and play) and window.PatienceBookBoards (the page's boards); pb-board-start.js finds every
 * div[data-pb-board], draws its starting position and starts the board when the reader wants it,
 * loading the runtime through window.PatienceBookRuntime. Every text comes from the board JSON
 * (made by generator/pages/board.py), in the page's language; the engine words moves and reasons.
 * Under the bar: the rule variant, the deal number, Restart, a link that opens this deal and variant
 * (?deal=N&variant=ID), and the solver's winning moves played one at a time. */
(function (global) {
  "use strict";

  var DRAG_THRESHOLD = 6;          // pixels a pointer moves before a press becomes a drag
  var boards = [];
  var marked = false;

  global.PatienceBookBoards = boards;

  function fill(template, values) {
    return String(template).replace(/\{([a-z_]+)\}/g, function (whole, key) {
      return Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : whole;
    });
  }

  function element(tag, className, text) {
    var el = document.createElement(tag);
    if (className) { el.className = className; }
    if (text !== undefined) { el.textContent = text; }
    return el;
  }

  function Board(root) {
    this.root = root;
    var holder = root.querySelector("script.pb-board-data");
    this.dataText = holder ? holder.textContent : "{}";
    this.data = JSON.parse(this.dataText);
    this.ui = this.data.ui || {};
    this.game = null;              // the engine's BoardGame (a Pyodide proxy)
    this.current = null;           // the last state the engine gave
    this.selection = null;         // {pile, index}: the card picked up by a click
    this.targets = [];             // piles the selection may go to
    this.highlight = null;         // {source, target, count} of a hint
    this.press = null;             // the pointer press under way
    this.cursor = null;            // {pile, index}: the keyboard's place (index null: the pile itself)
    this.pointing = false;         // the last thing the player used was the pointer, not a key
    this.build();
  }

  Board.prototype.text = function (key, values) {
    var template = Object.prototype.hasOwnProperty.call(this.ui, key) ? this.ui[key] : key;
    return fill(template, values || {});
  };

  Board.prototype.build = function () {
    var self = this;
    var bar = element("div", "pb-board-bar");
    this.dealText = element("span", "pb-board-deal");
    this.scoreText = element("span", "pb-board-score");
    var buttons = element("span", "pb-board-buttons");
    this.buttons = {};
    [["undo", "board_undo"], ["redo", "board_redo"], ["hint", "board_hint"], ["new_deal", "board_new"]]
      .forEach(function (pair) {
        var button = element("button", "pb-board-" + pair[0].replace("_", "-"), self.text(pair[1]));
        button.type = "button";
        button.disabled = true;
        button.addEventListener("click", function () { self.command(pair[0]); });
        buttons.appendChild(button);
        self.buttons[pair[0]] = button;
      });
    bar.appendChild(this.dealText);
    bar.appendChild(this.scoreText);
    bar.appendChild(buttons);
    this.help = this.helpBlock();
    this.table = element("div", "pb-board-table");
    this.message = element("p", "pb-board-message");
    this.message.setAttribute("role", "status");
    this.message.setAttribute("aria-live", "polite");
    this.root.appendChild(bar);
    this.root.appendChild(this.help);
    this.root.appendChild(this.table);
    this.root.appendChild(this.message);
    this.bar = bar;
    bar.hidden = true;
    this.help.hidden = true;
  };

  Board.prototype.say = function (text, kind) {
    this.message.textContent = text;
    this.message.className = "pb-board-message" + (kind ? " pb-board-" + kind : "");
  };

  Board.prototype.start = function () {
    var self = this;
    if (global.location.protocol === "file:") {
      this.root.classList.add("pb-board-off");
      this.say(this.text("board_needs_server"), "note");
      return Promise.resolve(false);
    }
    if (this.data.available === false || !global.PatienceBookCards) {
      this.root.classList.add("pb-board-off");
      this.say(this.text("board_unavailable"), "note");
      return Promise.resolve(false);
    }
    this.say(this.text("board_loading"), "note");
    return global.PatienceBookRuntime.load(this.data).then(function (pyodide) {
      var frontend = pyodide.pyimport("patiencebook.engine.frontend");
      self.game = frontend.BoardGame.from_json(self.dataText);
      self.current = self.call("state");
      self.bar.hidden = false;
      self.help.hidden = false;
      self.bindEvents();
      self.draw();
      self.say("", null);
      self.controls();
      if (!marked && global.performance && global.performance.mark) {
        marked = true;
        global.performance.mark("pb-board-playable");
      }
      return true;
    }).catch(function (error) {
      self.root.classList.add("pb-board-off");
      if (error && error.unavailable) {
        self.say(self.text("board_unavailable"), "note");
      } else {
        // A Python error's message is its traceback: the last line says what went wrong.
        var lines = String(error && error.message || error).split("\n").filter(function (line) {
          return line.trim();
        });
        self.say(self.text("board_failed", { error: lines[lines.length - 1] || "" }), "refused");
        if (global.console) { global.console.error(error); }
      }
      return false;
    });
  };

  /* Runs an engine command (engine/frontend.py BoardGame.call) and returns its answer as data. */
  Board.prototype.call = function (name, args) {
    return JSON.parse(this.game.call(name, JSON.stringify(args || [])));
  };

  // -- test and scripting interface ------------------------------------------------------------

  Board.prototype.state = function () {
    return this.game ? this.call("state") : null;
  };

  Board.prototype.play = function (text) {
    return this.answer(this.call("play", [String(text)]));
  };

  /* Starts deal number `deal` (the next one when it is not given), as the New deal button does. */
  Board.prototype.newDeal = function (deal) {
    return this.answer(this.call("new_deal", deal === undefined ? [] : [deal]));
  };

  // -- help ------------------------------------------------------------------------------------

  /* What each double-click action of the rules model (engine/rules.py DoubleClick) does, as the
   * key of its sentence in the help. */
  var DOUBLE_CLICK_HELP = [
    ["card-to-foundation", "board_help_dbl_foundation"],
    ["run-to-foundation", "board_help_dbl_run"],
    ["autoplay", "board_help_dbl_autoplay"],
    ["card-to-freecell", "board_help_dbl_freecell"],
    ["card-to-waste", "board_help_dbl_waste"],
    ["card-anywhere", "board_help_dbl_anywhere"]
  ];

  /* The board's help, said only of what this game's rules model (the payload's `ruleset`) allows:
   * moving by click or drag, the stock when there is one, turning cards where a click turns them,
   * the double-click of each of its piles; then the keys. Returns a div.pb-board-help holding two
   * paragraphs (pointer, keyboard). */
  Board.prototype.helpBlock = function () {
    var self = this;
    var rules = this.data.ruleset || {};
    var groups = rules.piles || [];
    var actions = {};
    groups.forEach(function (group) { actions[group.double_click || "none"] = true; });
    var pointer = [this.text("board_help")];
    if (rules.stock) { pointer.push(this.text("board_help_stock")); }
    if (groups.some(function (group) { return group.reveal === "click"; })) {
      pointer.push(this.text("board_help_flip"));
    }
    DOUBLE_CLICK_HELP.forEach(function (pair) {
      if (actions[pair[0]]) { pointer.push(self.text(pair[1])); }
    });
    var keys = [this.text("board_keys")];
    if (DOUBLE_CLICK_HELP.some(function (pair) { return actions[pair[0]]; })) {
      keys.push(this.text("board_keys_dbl"));
    }
    var help = element("div", "pb-board-help");
    help.id = "pb-board-help-" + boards.length;
    help.appendChild(element("p", "pb-board-help-pointer", pointer.join(" ")));
    help.appendChild(element("p", "pb-board-help-keys", keys.join(" ")));
    return help;
  };

  // -- drawing ---------------------------------------------------------------------------------

  Board.prototype.pileCards = function (pid) {
    var piles = this.current ? this.current.piles : [];
    for (var i = 0; i < piles.length; i++) {
      if (piles[i].id === pid) { return piles[i]; }
    }
    return null;
  };

  Board.prototype.name = function (pid) {
    return (this.data.names || {})[pid] || pid;
  };

  Board.prototype.cardName = function (text) {
    return global.PatienceBookCards.cardLabel(text, this.text("setup_face_down"), this.ui.card_ranks);
  };

  /* The piles in reading order: the top row from the left, then the tableau row (layout `row`, `x`). */
  Board.prototype.order = function () {
    if (!this.sorted) {
      this.sorted = (this.data.layout.piles || []).slice().sort(function (a, b) {
        return (a.row || 0) - (b.row || 0) || a.x - b.x;
      });
    }
    return this.sorted;
  };

  Board.prototype.layoutPile = function (pid) {
    var piles = this.order();
    for (var i = 0; i < piles.length; i++) {
      if (piles[i].id === pid) { return piles[i]; }
    }
    return null;
  };

  /* Where the keyboard may stop on a pile, bottom first: each face-up card of a pile fanned down
   * (and its top card when that is face down, to turn it), the top card of any other pile, and
   * the pile itself (null) when it is empty or is the stock, which is clicked as a whole. */
  Board.prototype.stops = function (pid) {
    var pile = this.pileCards(pid);
    var spec = this.layoutPile(pid);
    if (!pile || !pile.cards.length || pile.role === "stock") { return [null]; }
    var top = pile.cards.length - 1;
    if (!spec || spec.fan !== "down") { return [top]; }
    var found = [];
    pile.cards.forEach(function (card, i) {
      if (card.charAt(0) !== "#" || i === top) { found.push(i); }
    });
    return found;
  };

  /* The element of a place: the card `index` of pile `pid`, or the pile itself for null. */
  Board.prototype.placeElement = function (pid, index) {
    var selector = index === null || index === undefined
      ? '.pb-pile[data-pile="' + pid + '"]'
      : '.pb-card[data-pile="' + pid + '"][data-index="' + index + '"]';
    return this.table.querySelector(selector);
  };

  /* Keeps the keyboard's place ({pile, index}) on a stop of the drawn table: a pile that changed
   * keeps the place when it is still a stop, else its top stop; the first pile when there is none. */
  Board.prototype.settleCursor = function () {
    var order = this.order();
    var cursor = this.cursor;
    if (!cursor || !this.layoutPile(cursor.pile)) {
      cursor = { pile: order.length ? order[0].id : null, index: null };
    }
    var stops = this.stops(cursor.pile);
    if (stops.indexOf(cursor.index) < 0) { cursor = { pile: cursor.pile, index: stops[stops.length - 1] }; }
    this.cursor = cursor;
    return cursor;
  };

  /* One tab stop for the whole table (a roving tabindex): the keyboard's place has tabindex 0,
   * every other stop -1. `focus`: move the focus there too. */
  Board.prototype.rove = function (focus) {
    var self = this;
    var cursor = this.settleCursor();
    Array.prototype.forEach.call(this.table.querySelectorAll("[tabindex]"), function (el) {
      el.tabIndex = -1;
    });
    this.order().forEach(function (spec) {
      var pileEl = self.placeElement(spec.id, null);
      if (pileEl) { pileEl.tabIndex = -1; }
      self.stops(spec.id).forEach(function (index) {
        var el = self.placeElement(spec.id, index);
        if (el && index !== null) {
          el.tabIndex = -1;
          el.setAttribute("role", "button");
          // How much of the card shows under the next one (a share of its height), for the focus mark.
          var next = self.placeElement(spec.id, index + 1);
          var shown = next && spec.fan === "down" ? parseFloat(next.style.top) - parseFloat(el.style.top || "0") : NaN;
          if (isFinite(shown)) { el.style.setProperty("--pb-shown", shown + "%"); }
        }
      });
    });
    var el = cursor.pile ? this.placeElement(cursor.pile, cursor.index) : null;
    if (el) {
      el.tabIndex = 0;
      // After a click the page stays where the player put it; the keyboard brings its place into view.
      if (focus) { el.focus({ preventScroll: !!this.pointing }); }
    }
  };

  /* A copy of `layout` with every row below the top one `by` card widths lower. */
  function lowerRows(layout, by) {
    var copy = {};
    Object.keys(layout).forEach(function (key) { copy[key] = layout[key]; });
    copy.height = layout.height + by;
    copy.piles = layout.piles.map(function (pile) {
      var moved = {};
      Object.keys(pile).forEach(function (key) { moved[key] = pile[key]; });
      if (pile.row) { moved.y = pile.y + by; }
      return moved;
    });
    return copy;
  }

  Board.prototype.draw = function () {
    var self = this;
    var state = this.current;
    var active = document.activeElement;
    var focused = !!active && this.table.contains(active);
    var options = {
      names: this.data.names || {},
      highlight: this.highlight || {},
      faceDown: this.text("setup_face_down"),
      empty: this.text("play_empty"),
      ranks: this.ui.card_ranks,
      labels: true
    };
    var cards = global.PatienceBookCards;
    cards.render(this.table, this.layout || this.data.layout, state, options);
    // The labels between the rows take the room they need: the rows below move down (for good).
    var overlap = cards.labelOverlap(this.table);
    var pileEl = this.table.querySelector(".pb-pile");
    var cardWidth = pileEl ? pileEl.getBoundingClientRect().width : 0;
    if (overlap > 0 && cardWidth > 0) {
      this.layout = lowerRows(this.layout || this.data.layout, overlap / cardWidth);
      cards.render(this.table, this.layout, state, options);
    }
    // Accessible names: an empty pile says so, a squared pile how many cards it holds.
    this.order().forEach(function (spec) {
      var pile = self.pileCards(spec.id);
      var el = self.placeElement(spec.id, null);
      if (!el || !pile) { return; }
      var label = self.name(spec.id);
      if (!pile.cards.length) {
        label += " " + self.text("play_empty");
      } else if (spec.fan !== "down") {
        label += " (" + pile.cards.length + ")";
      }
      el.setAttribute("aria-label", label);
    });
    // Keyboard players keep their place when the table is drawn again.
    this.rove(focused);
    this.mark();
    this.dealText.textContent = this.text("board_deal", { deal: state.deal });
    this.scoreText.textContent = state.score_text;
    this.buttons.undo.disabled = !state.can_undo;
    this.buttons.redo.disabled = !state.can_redo;
    this.buttons.hint.disabled = state.status !== "playing";
    this.buttons.new_deal.disabled = false;
    this.root.setAttribute("data-status", state.status);
  };

  /* Marks the picked-up cards (one frame around the run, class pb-selected on each card) and the
   * places they may go to (a frame around each target's top card or empty place, class pb-legal on
   * the pile), on the drawn table as it is (a click that picks up a card does not redraw, so a
   * double-click lands on the same elements). */
  Board.prototype.mark = function () {
    var self = this;
    var selection = this.selection;
    var cards = global.PatienceBookCards;
    Array.prototype.forEach.call(this.table.querySelectorAll(".pb-frame-selected, .pb-frame-legal"), function (el) {
      el.parentNode.removeChild(el);
    });
    Array.prototype.forEach.call(this.table.querySelectorAll(".pb-pile[data-pile]"), function (el) {
      var pid = el.getAttribute("data-pile");
      var legal = self.targets.indexOf(pid) >= 0;
      el.classList.toggle("pb-legal", legal);
      if (legal) {
        var pile = self.pileCards(pid);
        cards.frame(el, pile && pile.cards.length ? pile.cards.length - 1 : null, "pb-frame-legal");
      }
      if (selection && pid === selection.pile) { cards.frame(el, selection.index, "pb-frame-selected"); }
    });
    Array.prototype.forEach.call(this.table.querySelectorAll(".pb-card[data-pile]"), function (el) {
      var index = Number(el.getAttribute("data-index"));
      var on = !!selection && el.getAttribute("data-pile") === selection.pile;
      el.classList.toggle("pb-selected", on && index >= selection.index);
      if (el.getAttribute("role") === "button") {
        el.setAttribute("aria-pressed", on && index === selection.index ? "true" : "false");
      }
    });
  };

  /* Takes an engine answer: the new state, the message, refused or not. */
  Board.prototype.answer = function (answer) {
    this.selection = null;
    this.targets = [];
    if (answer.accepted !== false) { this.highlight = null; }
    this.current = answer.state;
    this.draw();
    var kind = answer.accepted === false ? "refused" : (answer.state.status !== "playing" ? answer.state.status : null);
    this.say(answer.message, kind);
    this.updateControls();
    return answer;
  };

  Board.prototype.command = function (name) {
    if (!this.game) { return null; }
    if (name === "hint") {
      var hint = this.call("hint");
      this.selection = null;
      this.targets = [];
      this.highlight = hint.move ? { source: hint.source, target: hint.target, count: hint.count } : null;
      this.current = hint.state;
      this.draw();
      this.say(hint.message, "hint");
      return hint;
    }
    return this.answer(this.call(name));
  };

  // -- pointer and keyboard ----------------------------------------------------------------------

  Board.prototype.moveText = function (source, index, target) {
    var pile = this.pileCards(source);
    var count = pile ? pile.cards.length - index : 1;
    return count > 1 ? source + ":" + count + ">" + target : source + ">" + target;
  };

  /* A list of pile names in the page's language: "A, B or C". */
  Board.prototype.list = function (names) {
    try {
      var lang = document.documentElement.lang || undefined;
      return new Intl.ListFormat(lang, { type: "disjunction" }).format(names);
    } catch (ignore) {
      return names.join(", ");
    }
  };

  /* Picks up card `index` of pile `pid` with the cards on it, and says which cards and where they
   * may go (the engine's legal targets). */
  Board.prototype.select = function (pid, index) {
    var self = this;
    var pile = this.pileCards(pid);
    this.selection = { pile: pid, index: index };
    this.targets = this.call("targets", [pid, index]);
    this.mark();
    var card = this.cardName(pile.cards[index]);
    var count = pile.cards.length - index;
    var words = count > 1 ? this.text("board_selected_run", { card: card, count: count })
                          : this.text("board_selected", { card: card });
    var where = this.targets.length
      ? this.text("board_targets", { piles: this.list(this.targets.map(function (t) { return self.name(t); })) })
      : this.text("board_no_targets");
    this.say(words + " " + where, null);
  };

  /* Puts the picked-up cards back (Escape, or a second click on them). */
  Board.prototype.unselect = function () {
    if (!this.selection) { return; }
    this.selection = null;
    this.targets = [];
    this.mark();
    this.say(this.text("board_cancelled"), null);
  };

  /* A click (or Enter) on card `index` of pile `pid` (index null: the pile itself, or it is empty):
   * with cards picked up, puts them on that pile (or, on their own pile, picks up the card clicked
   * instead, or puts them back); else clicks the stock, turns a face-down top card or picks up a
   * face-up card with the cards on it. */
  Board.prototype.click = function (pid, index) {
    var pile = this.pileCards(pid);
    if (!pile) { this.unselect(); return; }
    if (this.selection) {
      if (this.selection.pile !== pid) {
        // The keyboard goes on from the top card of the pile the cards were put on.
        if (this.cursor && this.cursor.pile === pid) { this.cursor = { pile: pid, index: undefined }; }
        this.play(this.moveText(this.selection.pile, this.selection.index, pid));
        return;
      }
      if (index === null || index === undefined || index === this.selection.index ||
          pile.cards[index].charAt(0) === "#") {
        this.unselect();
        return;
      }
      this.select(pid, index);
      return;
    }
    if (pile.role === "stock") { this.play("stock"); return; }
    if (!pile.cards.length) {
      this.say(this.text("board_nothing_here", { pile: this.name(pid) }), null);
      return;
    }
    if (index === null || index === undefined) { index = pile.cards.length - 1; }
    if (pile.cards[index].charAt(0) === "#") {
      if (index === pile.cards.length - 1) {
        this.play("flip:" + pid);
      } else {
        this.say(this.text("board_face_down"), null);
      }
      return;
    }
    this.select(pid, index);
  };

  /* The double-click on pile `pid` (the mouse's, or the key F / Shift+Enter); the engine's answer
   * says where the cards went. */
  Board.prototype.doubleClick = function (pid) {
    var pile = this.pileCards(pid);
    if (!pile || pile.role === "stock") { return; }
    this.selection = null;
    this.play("dbl:" + pid);
  };

  /* Moves the keyboard's place: "left"/"right" to the pile before or after in reading order,
   * "up"/"down" to the card above or below in the pile and past its end to the nearest pile of
   * the row above or below, "first"/"last" to the first or last pile. Entering a pile lands on
   * its top card. */
  Board.prototype.moveCursor = function (where) {
    var order = this.order();
    var cursor = this.settleCursor();
    var at = -1;
    order.forEach(function (spec, i) { if (spec.id === cursor.pile) { at = i; } });
    var self = this;
    function enter(spec) {
      var stops = self.stops(spec.id);
      self.cursor = { pile: spec.id, index: stops[stops.length - 1] };
    }
    if (where === "left" && at > 0) { enter(order[at - 1]); }
    if (where === "right" && at < order.length - 1) { enter(order[at + 1]); }
    if (where === "first") { enter(order[0]); }
    if (where === "last") { enter(order[order.length - 1]); }
    if (where === "up" || where === "down") {
      var stops = this.stops(cursor.pile);
      var k = stops.indexOf(cursor.index) + (where === "up" ? -1 : 1);
      if (k >= 0 && k < stops.length) {
        this.cursor = { pile: cursor.pile, index: stops[k] };
      } else {
        var here = order[at];
        var row = (here.row || 0) + (where === "up" ? -1 : 1);
        var best = null;
        order.forEach(function (spec) {
          if ((spec.row || 0) !== row) { return; }
          if (!best || Math.abs(spec.x - here.x) < Math.abs(best.x - here.x)) { best = spec; }
        });
        if (best) { enter(best); }
      }
    }
    this.rove(true);
  };

  function hit(target, table) {
    var card = target && target.closest ? target.closest(".pb-card[data-pile]") : null;
    var pile = target && target.closest ? target.closest("[data-pile]") : null;
    if (!pile || !table.contains(pile)) { return null; }
    return { pile: pile.getAttribute("data-pile"), index: card ? Number(card.getAttribute("data-index")) : null };
  }

  /* The board's keys (listed by ui board_keys, board_keys_dbl). On the table: the arrow keys, Home
   * and End move; Enter or Space takes or puts cards; F or Shift+Enter double-clicks; Escape puts
   * picked-up cards back and clears a hint. Anywhere on the board: U or Ctrl+Z undoes, R, Ctrl+Y
   * or Ctrl+Shift+Z redoes, H asks for a hint. Returns true when the key was the board's. */
  Board.prototype.key = function (event) {
    var onTable = this.table.contains(event.target);
    var key = event.key;
    var lower = key && key.length === 1 ? key.toLowerCase() : key;
    var ctrl = event.ctrlKey || event.metaKey;
    if (event.altKey) { return false; }
    if (ctrl) {
      if (lower === "z" && !event.shiftKey) { this.command("undo"); return true; }
      if (lower === "y" || (lower === "z" && event.shiftKey)) { this.command("redo"); return true; }
      return false;
    }
    if (lower === "u") { this.command("undo"); return true; }
    if (lower === "r") { this.command("redo"); return true; }
    if (lower === "h") { this.command("hint"); return true; }
    if (!onTable) { return false; }
    var moves = { ArrowLeft: "left", ArrowRight: "right", ArrowUp: "up", ArrowDown: "down", Home: "first", End: "last" };
    if (moves[key]) { this.moveCursor(moves[key]); return true; }
    var cursor = this.settleCursor();
    if (lower === "f" || (key === "Enter" && event.shiftKey)) { this.doubleClick(cursor.pile); return true; }
    if (key === "Enter" || key === " ") { this.click(cursor.pile, cursor.index); return true; }
    if (key === "Escape") {
      if (this.selection) {
        this.unselect();
      } else if (this.highlight) {
        this.highlight = null;
        this.draw();
      } else {
        return false;
      }
      return true;
    }
    return false;
  };

  Board.prototype.bindEvents = function () {
    var self = this;
    var table = this.table;
    // A game board: keys go to the board, not to a screen reader's reading commands.
    table.setAttribute("role", "application");
    table.setAttribute("aria-label", this.text("board_title"));
    if (this.help && this.help.id) { table.setAttribute("aria-describedby", this.help.id); }
    table.addEventListener("focusin", function (event) {
      var where = hit(event.target, table);
      if (!where) { return; }
      var cursor = self.cursor;
      if (cursor && cursor.pile === where.pile && cursor.index === where.index) { return; }
      // A pile focused by the pointer stands for its top stop.
      self.cursor = { pile: where.pile, index: where.index };
      if (self.stops(where.pile).indexOf(where.index) < 0) { self.cursor.index = null; }
      Array.prototype.forEach.call(table.querySelectorAll('[tabindex="0"]'), function (el) {
        if (el !== event.target) { el.tabIndex = -1; }
      });
      if (event.target.tabIndex < 0 && event.target.hasAttribute("tabindex")) { event.target.tabIndex = 0; }
    });
    table.addEventListener("pointerdown", function (event) {
      self.pointing = true;
      if (event.button !== 0 || !self.game) { return; }
      var where = hit(event.target, table);
      self.press = { x: event.clientX, y: event.clientY, where: where, id: event.pointerId, dragging: false };
      if (where && where.index !== null) {
        var pile = self.pileCards(where.pile);
        var text = pile && pile.cards[where.index];
        // Face-up cards off a pile other than the stock can be dragged.
        self.press.draggable = pile && pile.role !== "stock" && text && text.charAt(0) !== "#";
      }
    });
    table.addEventListener("pointermove", function (event) {
      var press = self.press;
      if (!press || press.id !== event.pointerId || !press.draggable) { return; }
      var dx = event.clientX - press.x;
      var dy = event.clientY - press.y;
      if (!press.dragging) {
        if (Math.abs(dx) + Math.abs(dy) < DRAG_THRESHOLD) { return; }
        press.dragging = true;
        try { table.setPointerCapture(event.pointerId); } catch (ignore) { /* pointer already gone */ }
        press.cards = Array.prototype.filter.call(
          table.querySelectorAll('.pb-card[data-pile="' + press.where.pile + '"]'),
          function (el) { return Number(el.getAttribute("data-index")) >= press.where.index; });
        press.cards.forEach(function (el) { el.classList.add("pb-dragging"); });
      }
      press.cards.forEach(function (el) { el.style.transform = "translate(" + dx + "px, " + dy + "px)"; });
      event.preventDefault();
    });
    table.addEventListener("pointerup", function (event) {
      var press = self.press;
      self.press = null;
      if (!press || press.id !== event.pointerId) { return; }
      if (!press.dragging) {
        if (press.where) { self.click(press.where.pile, press.where.index); } else { self.unselect(); }
        return;
      }
      // The dragged cards let pointer events through, so the pile under the pointer is found.
      var drop = hit(document.elementFromPoint(event.clientX, event.clientY), table);
      if (drop && drop.pile !== press.where.pile) {
        self.selection = null;
        self.play(self.moveText(press.where.pile, press.where.index, drop.pile));
      } else {
        self.draw();
      }
    });
    table.addEventListener("pointercancel", function () {
      if (self.press && self.press.dragging) { self.draw(); }
      self.press = null;
    });
    table.addEventListener("dblclick", function (event) {
      var where = hit(event.target, table);
      if (where) { self.doubleClick(where.pile); }
    });
    // The labels are fitted to the drawn size: a new width (a phone turned) draws the table again.
    var resizing = null;
    global.addEventListener("resize", function () {
      if (resizing !== null) { global.clearTimeout(resizing); }
      resizing = global.setTimeout(function () {
        resizing = null;
        if (self.current && !self.press) { self.draw(); }
      }, 150);
    });
    this.root.addEventListener("keydown", function (event) {
      self.pointing = false;
      if (!self.game || event.defaultPrevented) { return; }
      var tag = event.target && event.target.tagName;
      if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") { return; }
      // Enter and Space on the board's buttons press them.
      if (tag === "BUTTON" && (event.key === "Enter" || event.key === " ")) { return; }
      if (self.key(event)) { event.preventDefault(); }
    });
  };

  // -- deal, variant, link and solution controls --------------------------------------------------
  // Built once the engine runs (Board.prototype.controls), kept apart from the table's events.

  /* A deal number as the engine takes it: a whole number from the text's ASCII digits, else the
   * text itself (the engine then refuses it, saying what a deal number is). */
  function dealNumber(text) {
    var trimmed = String(text).trim();
    return /^[0-9]{1,10}$/.test(trimmed) ? Number(trimmed) : trimmed;
  }

  /* Lets the browser show a message before work that holds the page (the solver). */
  function afterPaint() {
    return new Promise(function (resolve) {
      if (global.requestAnimationFrame) {
        global.requestAnimationFrame(function () { global.setTimeout(resolve, 0); });
      } else {
        global.setTimeout(resolve, 0);
      }
    });
  }

  function button(className, text, action) {
    var el = element("button", className, text);
    el.type = "button";
    el.addEventListener("click", action);
    return el;
  }

  /* The variant entry of the board JSON with id `id` (null when the game has none of that id). */
  Board.prototype.variantData = function (id) {
    var variants = this.data.variants || [];
    for (var i = 0; i < variants.length; i++) {
      if (variants[i].id === id) { return variants[i]; }
    }
    return null;
  };

  /* Adds the controls: the variant chooser (a game with variants), the deal number with Go,
   * Restart, "Link to this deal" and "Show a solution" with its Previous and Next moves; then opens
   * the deal and variant the page's address names (?deal=N&variant=ID), if it names one. */
  Board.prototype.controls = function () {
    var self = this;
    var form = element("form", "pb-board-controls");
    form.setAttribute("role", "group");
    form.setAttribute("aria-label", this.text("board_controls"));
    form.noValidate = true;
    this.picker = {};
    if ((this.data.variants || []).length > 1) {
      var chooser = element("select", "pb-board-variant");
      this.data.variants.forEach(function (variant) {
        var option = element("option", null, variant.name);
        option.value = variant.id;
        chooser.appendChild(option);
      });
      var variantLabel = element("label", "pb-board-field", this.text("board_variant") + " ");
      variantLabel.appendChild(chooser);
      form.appendChild(variantLabel);
      this.picker.variant = chooser;
    }
    var number = element("input", "pb-board-deal-number");
    number.type = "number";
    number.min = "0";
    number.max = "4294967295";
    number.step = "1";
    number.inputMode = "numeric";
    var numberLabel = element("label", "pb-board-field", this.text("board_deal_number") + " ");
    numberLabel.appendChild(number);
    form.appendChild(numberLabel);
    this.picker.deal = number;
    var go = element("button", "pb-board-go", this.text("board_go"));
    go.type = "submit";
    form.appendChild(go);
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      self.newGame(number.value, self.picker.variant ? self.picker.variant.value : null);
    });
    this.picker.restart = button("pb-board-restart", this.text("board_restart"), function () { self.restart(); });
    this.picker.solve = button("pb-board-solve", this.text("board_solve"), function () { self.showSolution(); });
    this.picker.link = element("a", "pb-board-link", this.text("board_link"));
    [this.picker.restart, this.picker.solve, this.picker.link].forEach(function (el) { form.appendChild(el); });

    var panel = element("div", "pb-board-solution");
    panel.setAttribute("role", "group");
    panel.setAttribute("aria-label", this.text("board_solve"));
    panel.hidden = true;
    this.picker.previous = button("pb-board-solution-previous", this.text("board_solution_previous"),
                                  function () { self.solutionStep(-1); });
    this.picker.next = button("pb-board-solution-next", this.text("board_solution_next"),
                              function () { self.solutionStep(1); });
    this.picker.close = button("pb-board-solution-close", this.text("board_solution_close"),
                               function () { self.closeSolution(); });
    [this.picker.previous, this.picker.next, this.picker.close].forEach(function (el) { panel.appendChild(el); });
    this.picker.panel = panel;
    this.solved = null;            // {moves: [{move, words}], at: moves played} while a solution is shown

    this.root.insertBefore(form, this.help);
    this.root.insertBefore(panel, this.table);
    this.updateControls();
    this.openLink(global.location.search);
  };

  /* Shows the current deal and variant in the controls, points the link at them, and puts away a
   * solution the board has left (a move, undo or new deal other than the solution's own steps). */
  Board.prototype.updateControls = function () {
    var picker = this.picker;
    var state = this.current;
    if (!picker || !state) { return; }
    if (this.solved && !this.stepping) { this.closeSolution(); }
    if (picker.variant && state.variant) { picker.variant.value = state.variant; }
    if (global.document.activeElement !== picker.deal) { picker.deal.value = String(state.deal); }
    picker.link.href = this.linkTo(state.deal, state.variant);
    picker.solve.disabled = state.status !== "playing";
  };

  /* The address of this page opening deal `deal` of variant `variant` on the board. */
  Board.prototype.linkTo = function (deal, variant) {
    var url = new URL(global.location.href);
    var query = new URLSearchParams();
    query.set("deal", String(deal));
    if (variant && (this.data.variants || []).length > 1) { query.set("variant", variant); }
    url.search = "?" + query.toString();
    var section = this.root.closest ? this.root.closest("section[id]") : null;
    url.hash = section ? "#" + section.id : "";
    return url.href;
  };

  /* Opens the deal and variant named by a query string such as "?deal=7&variant=three-card-deals". */
  Board.prototype.openLink = function (search) {
    var query = new URLSearchParams(search || "");
    if (!query.has("deal") && !query.has("variant")) { return null; }
    var deal = query.has("deal") ? query.get("deal") : this.current.deal;
    return this.newGame(deal, query.get("variant"));
  };

  /* Deal `deal` (a number or its text) of variant `variant` (null: the variant played now). */
  Board.prototype.newGame = function (deal, variant) {
    if (!this.game) { return null; }
    var answer = this.call("new_game", [dealNumber(deal), variant || null]);
    var chosen = answer.accepted ? this.variantData(answer.variant) : null;
    if (chosen && chosen.layout) { this.data.layout = chosen.layout; }
    return this.answer(answer);
  };

  Board.prototype.restart = function () {
    return this.game ? this.answer(this.call("restart")) : null;
  };

  /* Asks the engine for a win from the current position (at most data.budget positions) and, when
   * there is one, shows Previous and Next to play it move by move. Resolves to the engine's answer. */
  Board.prototype.showSolution = function () {
    var self = this;
    if (!this.game) { return Promise.resolve(null); }
    this.closeSolution();
    this.picker.solve.disabled = true;
    this.say(this.text("board_solving"), "note");
    return afterPaint().then(function () {
      var found = self.call("solution", [self.data.budget || 10000]);
      self.picker.solve.disabled = self.current.status !== "playing";
      if (!found.found || !found.moves.length) {
        self.say(found.message, found.found ? "won" : "note");
        return found;
      }
      self.solved = { moves: found.moves, at: 0 };
      self.picker.panel.hidden = false;
      self.updateSolution();
      self.say(found.message, null);
      self.picker.next.focus();
      return found;
    });
  };

  /* Plays the solution's next move (`step` 1) or takes its last one back (`step` -1), announcing it. */
  Board.prototype.solutionStep = function (step) {
    var solved = this.solved;
    if (!solved || (step > 0 ? solved.at >= solved.moves.length : solved.at <= 0)) { return null; }
    var played = step > 0 ? solved.moves[solved.at] : solved.moves[solved.at - 1];
    this.stepping = true;
    var answer;
    try {
      answer = this.answer(this.call(step > 0 ? "play" : "undo", step > 0 ? [played.move] : []));
    } finally {
      this.stepping = false;
    }
    if (answer.accepted === false) {
      this.closeSolution();
      return answer;
    }
    solved.at += step;
    var values = { n: step > 0 ? solved.at : solved.at + 1, total: solved.moves.length, move: played.words };
    var text = this.text(step > 0 ? "board_solution_step" : "board_solution_back", values);
    var status = answer.state.status;
    if (status === "won") { text += " " + this.text("board_won"); }
    this.say(text, status === "playing" ? null : status);
    this.updateSolution();
    return answer;
  };

  Board.prototype.updateSolution = function () {
    var solved = this.solved;
    this.picker.previous.disabled = !solved || solved.at <= 0;
    this.picker.next.disabled = !solved || solved.at >= solved.moves.length;
  };

  Board.prototype.closeSolution = function () {
    if (!this.picker) { return; }
    var focused = this.picker.panel.contains(global.document.activeElement);
    this.solved = null;
    this.picker.panel.hidden = true;
    this.updateSolution();
    if (focused) { this.picker.solve.focus(); }
  };

  global.PatienceBookBoard = Board;
}(window));
