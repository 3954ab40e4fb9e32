/* Patience Book step-through examples: each figure[data-pb-example] made by the DocBook parser holds
 * its trace as JSON; this script draws the trace's positions with PatienceBookCards and steps through
 * them with buttons and keys. A classic script with no network use, so it works from file://; loaded
 * deferred or async, it draws each example as soon as the parser has read it (see start()).
 * Every text it shows comes from the trace, already in the page's language. */
(function (global) {
  "use strict";

  var firstStepMarked = false;
  var KEYS = { ArrowLeft: "previous", ArrowUp: "previous", ArrowRight: "next", ArrowDown: "next",
               Home: "first", End: "last" };

  function format(template, values) {
    return String(template).replace(/\{(\w+)\}/g, function (whole, key) {
      return Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : whole;
    });
  }

  /**
   * Brings one example to life. `root` is the figure; its script.pb-trace holds the trace
   * ({layout, names, ui, steps: [{n, announce, position, source, target, refused, ...}]}).
   * Returns {show(index)} or null when the trace cannot be read (the list of steps stays as it is).
   */
  function setUp(root) {
    var cards = global.PatienceBookCards;
    var data = root.querySelector("script.pb-trace");
    var widget = root.querySelector(".pb-example-widget");
    if (!cards || !data || !widget) { return null; }
    var trace;
    try {
      trace = JSON.parse(data.textContent);
    } catch (error) {
      if (global.console) { global.console.error("pb-example: unreadable trace in #" + root.id, error); }
      return null;
    }
    var steps = trace.steps || [];
    if (!steps.length || !trace.layout) { return null; }
    var ui = trace.ui || {};
    var board = widget.querySelector(".pb-example-board");
    var status = widget.querySelector(".pb-example-status");
    var buttons = {};
    Array.prototype.forEach.call(widget.querySelectorAll("button[data-pb-go]"), function (button) {
      buttons[button.getAttribute("data-pb-go")] = button;
    });
    var items = root.querySelectorAll("li[data-pb-step]");
    var score = document.createElement("p");
    score.className = "pb-example-score";
    board.parentNode.insertBefore(score, board.nextSibling);
    var current = 0;

    // A click move ("stock", "dbl:chooser") names one pile and may come without a source: show it.
    function clickedPile(move) {
      var match = /^(?:[a-z]+:)?([A-Za-z0-9_-]+)$/.exec(move || "");
      return match && (trace.names || {})[match[1]] !== undefined ? match[1] : null;
    }

    function show(index) {
      current = Math.max(0, Math.min(steps.length - 1, index));
      var step = steps[current];
      cards.render(board, trace.layout, step.position, {
        names: trace.names || {},
        // The position is the one after the move: the cards framed on the target are the ones that moved.
        highlight: { source: step.source || clickedPile(step.move), target: step.target, count: step.count,
                     done: true },
        faceDown: ui.face_down,
        empty: ui.empty,
        ranks: ui.ranks
      });
      status.textContent = step.announce || "";
      status.classList.toggle("pb-refused", !!step.refused);
      var points = step.position && step.position.score;
      score.textContent = ui.score && points !== null && points !== undefined ? format(ui.score, { score: points }) : "";
      Array.prototype.forEach.call(items, function (item) {
        if (Number(item.getAttribute("data-pb-step")) === step.n) {
          item.setAttribute("aria-current", "step");
        } else {
          item.removeAttribute("aria-current");
        }
      });
      // aria-disabled rather than disabled: a button keeps the focus when it reaches the end.
      setDisabled("first", current === 0);
      setDisabled("previous", current === 0);
      setDisabled("next", current === steps.length - 1);
      setDisabled("last", current === steps.length - 1);
    }

    function setDisabled(go, off) {
      if (buttons[go]) { buttons[go].setAttribute("aria-disabled", off ? "true" : "false"); }
    }

    function go(where) {
      var target = { first: 0, previous: current - 1, next: current + 1, last: steps.length - 1 }[where];
      if (target !== undefined && target >= 0 && target < steps.length && target !== current) {
        show(target);
      }
    }

    Object.keys(buttons).forEach(function (where) {
      buttons[where].addEventListener("click", function () { go(where); });
    });
    widget.addEventListener("keydown", function (event) {
      if (event.altKey || event.ctrlKey || event.metaKey || !KEYS[event.key]) { return; }
      event.preventDefault();
      go(KEYS[event.key]);
    });

    // Drawn while still hidden, so the live region does not announce every example on page load.
    show(0);
    widget.hidden = false;
    root.classList.add("pb-example-live");
    if (!firstStepMarked && global.performance && global.performance.mark) {
      firstStepMarked = true;
      global.performance.mark("pb-example-first-step");
    }
    return { show: show };
  }

  /* Whether the parser has read all of `root`: some node of the document comes after it. */
  function parsed(root) {
    if (document.readyState !== "loading") { return true; }
    var last = document.documentElement;
    while (last.lastChild) { last = last.lastChild; }
    return last !== root && !root.contains(last);
  }

  /* Brings to life every example the parser has read and that is not yet set up. */
  function setUpParsed() {
    Array.prototype.forEach.call(document.querySelectorAll("figure[data-pb-example]"), function (root) {
      if (root.pbExample !== undefined || !parsed(root)) { return; }
      root.pbExample = setUp(root);
    });
  }

  /* The examples are drawn as soon as this script and pb-cards.js have run and the parser has read
   * them: at once when loaded deferred (the page is parsed), figure by figure when loaded async. */
  function start() {
    setUpParsed();
    if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", setUpParsed);
    }
  }

  global.PatienceBookExamples = { setUp: setUp };
  if (global.PatienceBookCards) {
    start();
  } else {
    document.addEventListener("patiencebook:cards", start, { once: true });
  }
}(window));
