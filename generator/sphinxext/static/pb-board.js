/* Patience Book live board ("Play this deal"): runs the project's rules engine in the page through
 * Pyodide, served by the site itself, and draws each position with PatienceBookCards.render
 * (pb-cards.js). A classic script that defines window.PatienceBookBoard (one board: its controls,
 * drawing and play) and window.PatienceBookBoards (the page's boards); pb-board-start.js finds every
 * div[data-pb-board], draws its starting position and starts the board when the reader wants it,
 * loading the runtime through window.PatienceBookRuntime. Every text comes from the board JSON
 * (made by generator/pages/board.py), in the page's language; the engine words moves and reasons. */
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
    this.highlight = null;         // {source, target} of a hint
    this.press = null;             // the pointer press under way
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
    this.help = element("p", "pb-board-help", this.text("board_help"));
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

  // -- drawing ---------------------------------------------------------------------------------

  Board.prototype.pileCards = function (pid) {
    var piles = this.current ? this.current.piles : [];
    for (var i = 0; i < piles.length; i++) {
      if (piles[i].id === pid) { return piles[i]; }
    }
    return null;
  };

  Board.prototype.draw = function () {
    var state = this.current;
    var active = document.activeElement;
    var focused = active && this.table.contains(active) ? active.getAttribute("data-pile") : null;
    global.PatienceBookCards.render(this.table, this.data.layout, state, {
      names: this.data.names || {},
      highlight: this.highlight || {},
      faceDown: this.text("setup_face_down"),
      empty: this.text("play_empty")
    });
    var pileEls = this.table.querySelectorAll(".pb-pile[data-pile]");
    Array.prototype.forEach.call(pileEls, function (el) {
      el.tabIndex = 0;
      // Keyboard players keep their place when the table is drawn again.
      if (focused && el.getAttribute("data-pile") === focused) { el.focus(); }
    });
    this.mark();
    this.dealText.textContent = this.text("board_deal", { deal: state.deal });
    this.scoreText.textContent = state.score_text;
    this.buttons.undo.disabled = !state.can_undo;
    this.buttons.redo.disabled = !state.can_redo;
    this.buttons.hint.disabled = state.status !== "playing";
    this.buttons.new_deal.disabled = false;
    this.root.setAttribute("data-status", state.status);
  };

  /* Marks the picked-up cards and the piles they may go to, on the drawn table as it is (a click
   * that picks up a card does not redraw, so a double-click lands on the same elements). */
  Board.prototype.mark = function () {
    var self = this;
    var selection = this.selection;
    Array.prototype.forEach.call(this.table.querySelectorAll(".pb-pile[data-pile]"), function (el) {
      el.classList.toggle("pb-legal", self.targets.indexOf(el.getAttribute("data-pile")) >= 0);
    });
    Array.prototype.forEach.call(this.table.querySelectorAll(".pb-card[data-pile]"), function (el) {
      el.classList.toggle("pb-selected", !!selection && el.getAttribute("data-pile") === selection.pile &&
                          Number(el.getAttribute("data-index")) >= selection.index);
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
    return answer;
  };

  Board.prototype.command = function (name) {
    if (!this.game) { return null; }
    if (name === "hint") {
      var hint = this.call("hint");
      this.selection = null;
      this.targets = [];
      this.highlight = hint.move ? { source: hint.source, target: hint.target } : null;
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

  Board.prototype.select = function (pid, index) {
    var pile = this.pileCards(pid);
    this.selection = { pile: pid, index: index };
    this.targets = this.call("targets", [pid, index]);
    this.mark();
    var label = global.PatienceBookCards.cardLabel(pile.cards[index], this.text("setup_face_down"));
    this.say(this.text("board_selected", { card: label }), null);
  };

  Board.prototype.unselect = function () {
    if (!this.selection) { return; }
    this.selection = null;
    this.targets = [];
    this.mark();
    this.say("", null);
  };

  /* A click (or Enter) on card `index` of pile `pid` (index null: the pile itself, or it is empty). */
  Board.prototype.click = function (pid, index) {
    var pile = this.pileCards(pid);
    if (!pile) { this.unselect(); return; }
    if (this.selection) {
      if (this.selection.pile === pid) { this.unselect(); return; }
      this.play(this.moveText(this.selection.pile, this.selection.index, pid));
      return;
    }
    if (pile.role === "stock") { this.play("stock"); return; }
    if (!pile.cards.length) { return; }
    if (index === null || index === undefined) { index = pile.cards.length - 1; }
    if (pile.cards[index].charAt(0) === "#") {
      if (index === pile.cards.length - 1) { this.play("flip:" + pid); }
      return;
    }
    this.select(pid, index);
  };

  function hit(target, table) {
    var card = target && target.closest ? target.closest(".pb-card[data-pile]") : null;
    var pile = target && target.closest ? target.closest("[data-pile]") : null;
    if (!pile || !table.contains(pile)) { return null; }
    return { pile: pile.getAttribute("data-pile"), index: card ? Number(card.getAttribute("data-index")) : null };
  }

  Board.prototype.bindEvents = function () {
    var self = this;
    var table = this.table;
    table.addEventListener("pointerdown", function (event) {
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
      var pile = where && self.pileCards(where.pile);
      if (!pile || pile.role === "stock") { return; }
      self.selection = null;
      self.play("dbl:" + where.pile);
    });
    table.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && self.selection) {
        event.preventDefault();
        self.unselect();
        return;
      }
      if (event.key !== "Enter" && event.key !== " ") { return; }
      var where = hit(event.target, table);
      if (!where) { return; }
      event.preventDefault();
      self.click(where.pile, null);
    });
  };

  global.PatienceBookBoard = Board;
}(window));
