/* Patience Book live board ("Play this deal"): runs the project's rules engine in the page through
 * Pyodide, served by the site itself (../_pyodide/ and ../_engine/patiencebook-engine.zip), and draws
 * each position with PatienceBookCards.render (pb-cards.js). A classic script: it finds every
 * div[data-pb-board], reads its script.pb-board-data JSON (made by generator/pages/board.py), and shows
 * only a message when the page is opened from file:// or the site has no Pyodide runtime.
 * Every text comes from the board JSON, in the page's language; the engine words moves and reasons.
 * Under the bar: the rule variant, the deal number, Restart, a link that opens this deal and variant
 * (?deal=N&variant=ID), and the solver's winning moves played one at a time. */
(function (global) {
  "use strict";

  var ENGINE_DIR = "/home/pyodide/patiencebook-engine";
  var DRAG_THRESHOLD = 6;          // pixels a pointer moves before a press becomes a drag
  var boards = [];
  var runtime = null;              // one Pyodide for every board of the page
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

  function absolute(url) {
    return new URL(url, global.location.href).href;
  }

  /* Loads pyodide.js, starts Python and unpacks the engine; resolves to the Pyodide object.
   * The engine archive is fetched while Python starts. A missing runtime (no pyodide.js) rejects
   * with error.unavailable set, so the board can say so rather than show a failure. */
  function loadRuntime(data) {
    if (runtime) { return runtime; }
    var engine = global.fetch(absolute(data.engine), { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) { throw new Error(response.status + " " + response.url); }
      return response.arrayBuffer();
    });
    engine.catch(function () { /* reported when the runtime waits for it */ });
    var script = new Promise(function (resolve, reject) {
      var tag = document.createElement("script");
      tag.src = absolute(data.pyodide + "pyodide.js");
      tag.async = true;
      tag.onload = resolve;
      tag.onerror = function () {
        var error = new Error(tag.src);
        error.unavailable = true;
        reject(error);
      };
      document.head.appendChild(tag);
    });
    runtime = script.then(function () {
      return global.loadPyodide({ indexURL: absolute(data.pyodide), fullStdLib: false });
    }).then(function (pyodide) {
      return engine.then(function (buffer) {
        pyodide.unpackArchive(buffer, "zip", { extractDir: ENGINE_DIR });
        pyodide.runPython("import sys\nif " + JSON.stringify(ENGINE_DIR) + " not in sys.path:\n" +
                          "    sys.path.insert(0, " + JSON.stringify(ENGINE_DIR) + ")\n");
        return pyodide;
      });
    });
    return runtime;
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
    return loadRuntime(this.data).then(function (pyodide) {
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
      empty: this.text("play_empty"),
      ranks: this.ui.card_ranks
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
    this.updateControls();
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
    var label = global.PatienceBookCards.cardLabel(pile.cards[index], this.text("setup_face_down"),
                                                   this.ui.card_ranks);
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

  function startAll() {
    var found = document.querySelectorAll("div[data-pb-board]");
    Array.prototype.forEach.call(found, function (root) {
      if (root.pbBoard) { return; }
      var board;
      try {
        board = new Board(root);
      } catch (error) {
        if (global.console) { global.console.error(error); }
        return;
      }
      root.pbBoard = board;
      boards.push(board);
      board.ready = board.start();
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", startAll);
  } else {
    startAll();
  }
}(window));
