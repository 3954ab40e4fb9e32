/* Patience Book service worker, served from the site's root (pb-sw.js, scope: the whole site).
 *
 * It keeps the live board's runtime in the browser's Cache Storage, so that a reader who starts the
 * board on one page finds Pyodide, the engine archive and the Python snapshot there on every other
 * page, with or without a network. Only those files go through it: <root>_pyodide/<id>/<file> and
 * <root>_engine/<name>-<digest>.<ext>, whose names change whenever their content does (see
 * generator/pages/board.py, BoardFiles); it answers them from the cache, or fetches and keeps them.
 * When a file of a newer runtime is kept, the same file of older ones is dropped. Every other request
 * (pages, styles, scripts) goes to the network as if there were no service worker; where the browser
 * has static routes (InstallEvent.addRoutes), it does not even start the worker for them. */
"use strict";

var CACHE = "patiencebook-runtime-1";
var ROOT = new URL("./", self.location.href).pathname;     // the folder of this file, the site's root
var RUNTIME = [ROOT + "_pyodide/*", ROOT + "_engine/*"];

/* The file's family (the same file of any runtime version), or null when it is not a runtime file. */
function family(url) {
  if (url.origin !== self.location.origin || url.pathname.indexOf(ROOT) !== 0) { return null; }
  var rest = url.pathname.slice(ROOT.length);
  var match = /^_pyodide\/[^/]+\/([^/]+)$/.exec(rest);
  if (match) { return "_pyodide/*/" + match[1]; }
  match = /^_engine\/([^/]+)-[0-9a-f]{6,64}(\.[A-Za-z0-9.]+)$/.exec(rest);
  return match ? "_engine/" + match[1] + "-*" + match[2] : null;
}

/* Drops what the cache holds of `kind` under another URL than `keep`. */
function prune(cache, kind, keep) {
  return cache.keys().then(function (requests) {
    return Promise.all(requests.filter(function (request) {
      return request.url !== keep && family(new URL(request.url)) === kind;
    }).map(function (request) { return cache.delete(request); }));
  });
}

self.addEventListener("install", function (event) {
  if (typeof event.addRoutes === "function") {
    var runtime = RUNTIME.map(function (pathname) { return { urlPattern: { pathname: pathname } }; });
    try {
      event.waitUntil(event.addRoutes([
        { condition: { or: runtime }, source: "fetch-event" },
        { condition: { urlPattern: { pathname: "*" } }, source: "network" }
      ]).catch(function () { /* the fetch handler passes them on instead */ }));
    } catch (ignore) { /* an older form of the API */ }
  }
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("patiencebook-runtime-") === 0 && name !== CACHE;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET" || request.headers.has("range")) { return; }
  var kind = family(new URL(request.url));
  if (!kind) { return; }
  event.respondWith(caches.open(CACHE).then(function (cache) {
    return cache.match(request.url).then(function (kept) {
      if (kept) { return kept; }
      return fetch(request).then(function (response) {
        if (response.status === 200 && response.type === "basic") {
          event.waitUntil(cache.put(request.url, response.clone()).then(function () {
            return prune(cache, kind, request.url);
          }).catch(function () { /* full storage: served without keeping it */ }));
        }
        return response;
      });
    });
  }));
});
