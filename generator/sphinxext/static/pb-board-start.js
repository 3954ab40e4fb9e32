/* Patience Book live board, starting: what a game page does before and while the board starts.
 *
 * On load, every div[data-pb-board] gets its PatienceBookBoard (pb-board.js) and shows the deal's
 * starting position, which the build computed with the engine (the board JSON's "start"), drawn by
 * PatienceBookCards without Python, with a "Play" button. Nothing of the runtime is fetched then:
 * Pyodide (about 12 MB) and the engine load when the reader starts the board, with the button or a
 * click or key on the cards. After the page has loaded, when the browser is idle, it registers the
 * site's service worker (../pb-sw.js, generator/pages/static/pb-sw.js), which keeps the runtime for
 * every page of the site once one page has loaded it.
 *
 * window.PatienceBookRuntime.load(data) loads the runtime once per page: pyodide.js, then Python
 * restored from the build's memory snapshot (data.snapshot, gzip; kept decompressed in Cache Storage
 * for the next page) with the engine imported, or, when there is none or it cannot be used, Python
 * started the ordinary way and the engine archive (data.engine) unpacked and put on sys.path. It
 * resolves to the Pyodide object; a missing runtime (no pyodide.js) rejects with error.unavailable
 * set. A classic script, loaded with defer after pb-board.js. */
(function (global) {
  "use strict";

  // Where the engine is unpacked; the snapshot was made with the engine there (pb-snapshot.mjs).
  var ENGINE_DIR = "/home/pyodide/patiencebook-engine";
  // How long a start waits for the service worker to take the page (so the runtime gets kept).
  var WORKER_WAIT_MS = 500;
  // The page's own Cache Storage: the decompressed snapshot, kept for the site's other pages.
  var RAW_CACHE = "patiencebook-snapshot-1";
  var runtime = null;
  var worker = null;

  function absolute(url) {
    return new URL(url, global.location.href).href;
  }

  function fetchOk(url) {
    return global.fetch(absolute(url), { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) { throw new Error(response.status + " " + response.url); }
      return response;
    });
  }

  function loadScript(url) {
    return new Promise(function (resolve, reject) {
      var tag = document.createElement("script");
      tag.src = absolute(url);
      tag.async = true;
      tag.onload = resolve;
      tag.onerror = function () {
        var error = new Error(tag.src);
        error.unavailable = true;
        reject(error);
      };
      document.head.appendChild(tag);
    });
  }

  /* The snapshot's bytes: from the page's own copy in Cache Storage when an earlier page kept it
   * decompressed, else fetched and decompressed as they arrive (and then kept so); null when there
   * is none or the browser cannot decompress gzip. */
  function snapshotBytes(data) {
    if (!data.snapshot || typeof global.DecompressionStream !== "function" || typeof global.Response !== "function") {
      return null;
    }
    var url = absolute(data.snapshot);
    var raw = url.replace(/\.gz$/, "");
    var store = global.caches && raw !== url ? global.caches.open(RAW_CACHE).catch(function () { return null; })
      : Promise.resolve(null);
    var bytes = store.then(function (cache) {
      return (cache ? cache.match(raw) : Promise.resolve(null)).then(function (kept) {
        if (kept) { return kept.arrayBuffer(); }
        return fetchOk(url).then(function (response) {
          return new global.Response(response.body.pipeThrough(new global.DecompressionStream("gzip"))).arrayBuffer();
        }).then(function (buffer) {
          if (cache) { keepRaw(cache, raw, buffer); }
          return buffer;
        });
      });
    });
    bytes.catch(function () { /* reported when Python is started without it */ });
    return bytes;
  }

  /* Keeps the decompressed snapshot for the site's other pages, in place of any older one. */
  function keepRaw(cache, raw, buffer) {
    var headers = { "Content-Type": "application/octet-stream" };
    cache.put(raw, new global.Response(buffer.slice(0), { headers: headers })).then(function () {
      return cache.keys();
    }).then(function (requests) {
      return Promise.all(requests.filter(function (request) {
        return request.url !== raw && /\/_engine\/[^/]+\.snapshot$/.test(request.url);
      }).map(function (request) { return cache.delete(request); }));
    }).catch(function () { /* no room: the next page decompresses it again */ });
  }

  function startPython(data, snapshot) {
    var options = { indexURL: absolute(data.pyodide), fullStdLib: false };
    if (snapshot) { options._loadSnapshot = snapshot; }
    return global.loadPyodide(options);
  }

  function engineBytes(data) {
    var engine = fetchOk(data.engine).then(function (response) { return response.arrayBuffer(); });
    engine.catch(function () { /* reported when the runtime waits for it */ });
    return engine;
  }

  /* Makes the engine importable: unpacked from `buffer` (after an ordinary start), or imported
   * already (from the snapshot, buffer null). A random generator restored from the snapshot would
   * repeat the snapshot's state: it is seeded afresh. */
  function prepare(pyodide, buffer) {
    if (buffer) { pyodide.unpackArchive(buffer, "zip", { extractDir: ENGINE_DIR }); }
    pyodide.runPython("import sys\nif " + JSON.stringify(ENGINE_DIR) + " not in sys.path:\n" +
                      "    sys.path.insert(0, " + JSON.stringify(ENGINE_DIR) + ")\n" +
                      "if 'random' in sys.modules:\n    sys.modules['random'].seed()\n");
    return pyodide;
  }

  /* Loads the runtime (once per page) and resolves to the Pyodide object with the engine importable.
   * From the snapshot the engine archive is not needed; when Python cannot start from it (none in
   * the site, another Pyodide build, no gzip in the browser), it starts the ordinary way. */
  function load(data) {
    if (runtime) { return runtime; }
    var snapshot = null;
    var engine = null;
    function ordinary() {
      engine = engine || engineBytes(data);
      return startPython(data, null).then(function (pyodide) {
        return engine.then(function (buffer) { return prepare(pyodide, buffer); });
      });
    }
    // Fetched once the service worker has the page (or could not get it), so it keeps them.
    runtime = whenKept().then(function () {
      snapshot = snapshotBytes(data);
      if (!snapshot) { engine = engineBytes(data); }
      return loadScript(data.pyodide + "pyodide.js");
    }).then(function () {
      if (!snapshot) { return ordinary(); }
      return startPython(data, snapshot).then(function (pyodide) {
        // A snapshot without the engine (no module of it imported) is not ours.
        if (!pyodide.runPython("import sys\n'patiencebook.engine.frontend' in sys.modules")) {
          throw new Error("the snapshot has no engine");
        }
        return prepare(pyodide, null);
      }).catch(function (error) {
        if (global.console) { global.console.warn("pb-board: Python started without the snapshot:", error); }
        return ordinary();
      });
    });
    return runtime;
  }

  global.PatienceBookRuntime = { load: load };

  // -- the service worker ----------------------------------------------------------------------

  /* Registers the site's service worker (once per page); resolves when done or impossible. */
  function keep(data) {
    if (worker) { return worker; }
    var container = global.navigator && global.navigator.serviceWorker;
    if (!container || !global.isSecureContext || !data.worker) {
      worker = Promise.resolve(null);
      return worker;
    }
    worker = container.register(absolute(data.worker), { scope: absolute(data.root || "../") })
      .catch(function (error) {
        if (global.console) { global.console.warn("pb-board: no service worker:", error); }
        return null;
      });
    return worker;
  }

  /* Resolves when the service worker controls the page, so the runtime's files get kept, or after
   * WORKER_WAIT_MS, or at once when there is none. */
  function whenKept() {
    var container = global.navigator && global.navigator.serviceWorker;
    if (!worker || !container || container.controller) { return Promise.resolve(); }
    return worker.then(function (registration) {
      if (!registration || container.controller) { return; }
      return new Promise(function (resolve) {
        var timer = global.setTimeout(resolve, WORKER_WAIT_MS);
        container.addEventListener("controllerchange", function () {
          global.clearTimeout(timer);
          resolve();
        }, { once: true });
      });
    });
  }

  function whenIdle(callback) {
    function later() {
      if (typeof global.requestIdleCallback === "function") {
        global.requestIdleCallback(callback, { timeout: 5000 });
      } else {
        global.setTimeout(callback, 1000);
      }
    }
    if (document.readyState === "complete") { later(); } else { global.addEventListener("load", later, { once: true }); }
  }

  // -- the starting position and the Play button -----------------------------------------------

  /* Draws the deal's starting position, as the build computed it, with no engine. */
  function drawStart(board) {
    var start = board.data.start;
    var cards = global.PatienceBookCards;
    if (!start || !start.piles || !board.data.layout) { return; }
    cards.render(board.table, board.data.layout, start, {
      names: board.data.names || {},
      faceDown: board.text("setup_face_down"),
      empty: board.text("play_empty"),
      ranks: (board.data.ui || {}).card_ranks,
      labels: true
    });
    Array.prototype.forEach.call(board.table.querySelectorAll(".pb-pile[data-pile]"), function (el) {
      el.tabIndex = 0;
    });
    board.root.setAttribute("data-status", "start");
  }

  /* Starts `board` (the runtime, then the engine's game); the Play panel goes once it is playable. */
  function begin(board) {
    if (board.ready) { return board.ready; }
    var panel = board.startPanel;
    if (panel) {
      panel.button.disabled = true;
      panel.button.setAttribute("aria-busy", "true");
    }
    var hadFocus = panel && (document.activeElement === panel.button || board.table.contains(document.activeElement));
    keep(board.data);
    board.ready = board.start().then(function (playable) {
      if (panel && panel.parentNode) { panel.parentNode.removeChild(panel); }
      board.startPanel = null;
      if (playable && hadFocus) {
        var first = board.table.querySelector(".pb-pile[data-pile]");
        if (first && !board.table.contains(document.activeElement)) { first.focus(); }
      }
      return playable;
    });
    return board.ready;
  }

  function offerPlay(board) {
    var panel = document.createElement("div");
    panel.className = "pb-board-start";
    var button = document.createElement("button");
    button.type = "button";
    button.className = "pb-board-play";
    button.textContent = board.text("board_play");
    var note = document.createElement("p");
    note.className = "pb-board-start-note";
    note.textContent = board.text("board_start");
    panel.appendChild(button);
    panel.appendChild(note);
    panel.button = button;
    board.root.insertBefore(panel, board.table);
    board.startPanel = panel;
    // pointerdown starts it a moment before the click; click also covers Enter and Space.
    button.addEventListener("pointerdown", function (event) { if (event.button === 0) { begin(board); } });
    button.addEventListener("click", function () { begin(board); });
    board.table.addEventListener("pointerdown", function (event) {
      if (event.button === 0 && !board.ready) { begin(board); }
    });
    board.table.addEventListener("keydown", function (event) {
      if (!board.ready && (event.key === "Enter" || event.key === " ")) {
        event.preventDefault();
        begin(board);
      }
    });
  }

  function setUp(root) {
    var Board = global.PatienceBookBoard;
    if (root.pbBoard || !Board) { return; }
    var board;
    try {
      board = new Board(root);
    } catch (error) {
      if (global.console) { global.console.error(error); }
      return;
    }
    root.pbBoard = board;
    global.PatienceBookBoards.push(board);
    whenCards(function () { drawStart(board); });
    if (global.location.protocol === "file:") {
      root.classList.add("pb-board-off");
      board.say(board.text("board_needs_server"), "note");
    } else if (board.data.available === false) {
      root.classList.add("pb-board-off");
      board.say(board.text("board_unavailable"), "note");
    } else {
      offerPlay(board);
      // A link to a deal (?deal=N&variant=ID) is a wish to play it: the board starts at once.
      var asked = new global.URLSearchParams(global.location.search);
      if (asked.has("deal") || asked.has("variant")) {
        begin(board);
      } else {
        whenIdle(function () { keep(board.data); });
      }
    }
  }

  function whenCards(callback) {
    if (global.PatienceBookCards) {
      callback();
    } else {
      document.addEventListener("patiencebook:cards", callback, { once: true });
    }
  }

  function setUpAll() {
    Array.prototype.forEach.call(document.querySelectorAll("div[data-pb-board]"), setUp);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUpAll);
  } else {
    setUpAll();
  }
}(window));
