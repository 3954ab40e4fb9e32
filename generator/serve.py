"""Serves a built site on the local machine, with the MIME types the in-browser engine needs.

Binds to 127.0.0.1 by default. WebAssembly (``application/wasm``) and JavaScript modules
(``.mjs``) get their registered types, which browsers require before they will compile or import
them; every response says ``X-Content-Type-Options: nosniff``. Paths with a part that starts
with a dot (the build cache ``.patiencebook-cache``, ``.patiencebook-site``, ``..``) are not served.
"""

from __future__ import annotations

import functools
import urllib.parse
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from patiencebook.generator.build import SITE_MARKER
from patiencebook.generator.errors import BuildError

#: Types added to (or corrected in) the standard library's table; from the IANA media-type registry.
MIME_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".whl": "application/zip",
    ".zip": "application/zip",
}


class SiteHandler(SimpleHTTPRequestHandler):
    """Serves files of one folder, none under a dot name; quiet unless ``verbose``; adds
    ``nosniff`` to every response."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
    verbose = False

    def end_headers(self) -> None:
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def send_head(self):
        path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path)
        if any(part.startswith(".") for part in path.split("/")):
            self.send_error(404, "Not found")
            return None
        return super().send_head()

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's name
        if self.verbose:
            super().log_message(format, *args)


def make_server(site: Path, host: str = "127.0.0.1", port: int = 8000, verbose: bool = False
                ) -> ThreadingHTTPServer:
    """A server for the site folder ``site`` (not yet serving; call ``serve_forever``).

    ``port`` 0 picks a free port (read it from ``server.server_address[1]``). Raises
    :class:`BuildError` when ``site`` is not a built site or the address cannot be bound.
    """
    site = Path(site)
    if not (site / SITE_MARKER).is_file():
        raise BuildError("not a site built by patiencebook (run `patiencebook build` first)", site)
    handler = functools.partial(type("Handler", (SiteHandler,), {"verbose": verbose}), directory=str(site))
    try:
        return ThreadingHTTPServer((host, port), handler)
    except OSError as error:
        raise BuildError(f"cannot listen on {host}:{port}: {error.strerror}") from None
