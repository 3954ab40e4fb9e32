"""Serves a built site on the local machine, with the MIME types and headers the in-browser engine needs.

Binds to 127.0.0.1 by default and serves only regular files that really lie inside the site:
no dot names (the build cache ``.patiencebook-cache``, ``.patiencebook-site``), no traversal, no
links out of the site, no folder listings. Every response carries headers that stop content
sniffing, framing and scripts from anywhere but the site; each request is bounded in time and size.
The live board's runtime files, whose names carry a digest of their content, may be kept by the
browser for good (``Cache-Control: immutable``); the service worker at the site's root is checked
again on every load (:func:`cache_control`).
"""

from __future__ import annotations

import email.utils
import functools
import ipaddress
import os
import re
import socket
import stat
import sys
import threading
import time
import urllib.parse
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from patiencebook.generator.project import SITE_MARKER
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

#: Content-Security-Policy of every response (W3C CSP Level 3). Scripts come only from the site (the
#: pages hold no inline script: generator/sphinxext/templates/searchbox.html), plus
#: WebAssembly compilation for Pyodide ('wasm-unsafe-eval'); Pyodide fetches its runtime, standard
#: library and the engine archive from the site (connect-src). Inline styles stay allowed because
#: Sphinx writes ``style`` attributes and the language chooser a ``<style>`` block.
CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'none'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "connect-src 'self'",
    "img-src 'self' data:",
    "style-src 'self' 'unsafe-inline'",
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])

#: Headers added to every response, errors included.
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}

#: ``Cache-Control`` of the live board's runtime files, whose names carry a digest of their content
#: (``_pyodide/<version>-<digest>/…``, ``_engine/<name>-<digest>.<ext>``: generator/pages/board.py,
#: BoardFiles): the same name never gets other bytes, so a browser keeps them for good (RFC 8246).
IMMUTABLE = "public, max-age=31536000, immutable"
#: ``Cache-Control`` of the site's service worker: checked again on every load, so a rebuilt site's
#: worker is used at once.
REVALIDATE = "no-cache"
_VERSIONED = re.compile(r"^/(?:_pyodide/[^/]+-[0-9a-f]{12}/[^/]+|_engine/[^/]+-[0-9a-f]{12}\.[A-Za-z0-9.]+)$")
_WORKER = "/pb-sw.js"

#: Methods answered with 405 and ``Allow: GET, HEAD``; any other method gets 501 (RFC 9110, 15.5.6, 15.6.2).
KNOWN_METHODS = ("POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT")

#: Host names a loopback-bound server answers to; others are refused so that a web page cannot
#: read the site through a name rebound to 127.0.0.1 (DNS rebinding).
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "[::1]"})


class SiteServer(ThreadingHTTPServer):
    """A threaded HTTP server for one site folder, with bounded handling.

    Attributes:
        site_root: the site folder, absolute with links resolved (a ``str``).
        connection_timeout: seconds a single read or write on a connection may wait.
        request_deadline: seconds from the start of reading a request to the end of its response;
            a connection still busy then is shut down (a slow client cannot hold a thread).
        max_handlers: most connections handled at once; a further one waits up to ``slot_wait``
            seconds for a free handler, then gets ``503 Service Unavailable``.
        allowed_hosts: names the ``Host`` header may give (without port), or ``None`` for any.
        verbose: log every request and connection error to stderr.
    """

    daemon_threads = True
    request_queue_size = 64

    def __init__(self, address: tuple[str, int], handler, site_root: str, *, connection_timeout: float,
                 request_deadline: float, max_handlers: int, slot_wait: float,
                 allowed_hosts: frozenset[str] | None, verbose: bool):
        self.site_root = site_root
        self.connection_timeout = connection_timeout
        self.request_deadline = request_deadline
        self.max_handlers = max_handlers
        self.slot_wait = slot_wait
        self.allowed_hosts = allowed_hosts
        self.verbose = verbose
        self._slots = threading.BoundedSemaphore(max_handlers)
        self._deadlines: dict[socket.socket, float] = {}
        self._deadlines_lock = threading.Lock()
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, handler)

    # Handler threads: one slot each, taken before the thread starts and given back when it ends.
    def process_request(self, request, client_address) -> None:
        if not self._take_slot():
            self._refuse(request)
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._slots.release()
            raise

    def process_request_thread(self, request, client_address) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()

    def _take_slot(self) -> bool:
        give_up = time.monotonic() + self.slot_wait
        while not self._slots.acquire(timeout=0.1):
            # The accept loop waits here, so overdue connections are still cut while it waits.
            self.service_actions()
            if time.monotonic() >= give_up:
                return False
        return True

    def _refuse(self, request: socket.socket) -> None:
        head = ["HTTP/1.0 503 Service Unavailable", "Content-Length: 0", "Connection: close", "Retry-After: 1"]
        head += [f"{name}: {value}" for name, value in SECURITY_HEADERS.items()]
        try:
            request.settimeout(0.05)
            request.sendall(("\r\n".join(head) + "\r\n\r\n").encode("ascii"))
            # Read what the client already sent, so closing does not reset the connection before
            # the client reads the answer.
            request.recv(65536)
        except OSError:
            pass
        if self.verbose:
            sys.stderr.write("refused a connection: all handlers busy\n")

    # Deadlines: registered by the handler per request, enforced by the accept loop.
    def start_deadline(self, connection: socket.socket) -> None:
        with self._deadlines_lock:
            self._deadlines[connection] = time.monotonic() + self.request_deadline

    def end_deadline(self, connection: socket.socket) -> None:
        with self._deadlines_lock:
            self._deadlines.pop(connection, None)

    def service_actions(self) -> None:
        now = time.monotonic()
        with self._deadlines_lock:
            overdue = [conn for conn, deadline in self._deadlines.items() if deadline <= now]
            for conn in overdue:
                del self._deadlines[conn]
        for conn in overdue:
            try:
                # Wakes the handler's blocked read or write; it then ends and frees its slot.
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def handle_error(self, request, client_address) -> None:
        # A client that goes away or times out is routine; tracebacks only when asked for.
        if self.verbose:
            super().handle_error(request, client_address)


class SiteHandler(SimpleHTTPRequestHandler):
    """Answers GET and HEAD with files of the server's site folder.

    Refuses (400) request targets that are not a plain path, hold a backslash, NUL or control
    character, an encoded slash or bad UTF-8; refuses (404) dot names, anything that resolves
    outside the site (``..``, links), non-regular files and folders without ``index.html``;
    answers other methods with 405 or 501 and a body that names only the status.
    """

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
    # Errors to a request without a version still get a status line and the security headers.
    default_request_version = "HTTP/1.0"
    # The Server header names no software or version.
    server_version = "patiencebook"
    server: SiteServer

    def setup(self) -> None:
        self.timeout = self.server.connection_timeout
        super().setup()

    def handle_one_request(self) -> None:
        self.server.start_deadline(self.connection)
        try:
            super().handle_one_request()
        finally:
            self.server.end_deadline(self.connection)

    def version_string(self) -> str:
        return self.server_version

    def end_headers(self) -> None:
        for name, value in SECURITY_HEADERS.items():
            self.send_header(name, value)
        super().end_headers()

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """Send status ``code`` with a plain-text body of only the code and its reason phrase, so no
        request text or server detail is echoed; always closes the connection."""
        status = HTTPStatus(code)
        self.log_error("code %d, %s", code, message or status.phrase)
        self.send_response(code, status.phrase)
        self.send_header("Connection", "close")
        self.close_connection = True
        if code == HTTPStatus.METHOD_NOT_ALLOWED:
            self.send_header("Allow", "GET, HEAD")
        body = f"{code} {status.phrase}\n".encode("ascii")
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def parse_request(self) -> bool:
        if not super().parse_request():
            return False
        if len(self.requestline.split()) != 3:
            # HTTP/0.9 has no headers to carry the policies above; browsers never send it.
            self.send_error(HTTPStatus.BAD_REQUEST)
            return False
        allowed = self.server.allowed_hosts
        host = self.headers.get("Host")
        if allowed is not None and host is not None and _host_name(host) not in allowed:
            self.send_error(HTTPStatus.MISDIRECTED_REQUEST)
            return False
        return True

    def _not_allowed(self) -> None:
        self.send_error(HTTPStatus.METHOD_NOT_ALLOWED)

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_TRACE = do_CONNECT = _not_allowed

    def send_head(self):
        """Send the status and headers for ``self.path``; returns the open file for GET to copy,
        or ``None`` when an error or a redirect was sent."""
        located = self._locate()
        if located is None:
            return None
        try:
            fd = os.open(located, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
        except OSError:
            self.send_error(HTTPStatus.NOT_FOUND)
            return None
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                os.close(fd)
                self.send_error(HTTPStatus.NOT_FOUND)
                return None
            file = os.fdopen(fd, "rb")
        except OSError:
            os.close(fd)
            self.send_error(HTTPStatus.NOT_FOUND)
            return None
        if self._not_modified(info.st_mtime):
            file.close()
            self.send_response(HTTPStatus.NOT_MODIFIED)
            self.end_headers()
            return None
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", self.guess_type(located))
        self.send_header("Content-Length", str(info.st_size))
        self.send_header("Last-Modified", self.date_time_string(int(info.st_mtime)))
        caching = cache_control(self.path)
        if caching:
            self.send_header("Cache-Control", caching)
        self.end_headers()
        return file

    def _locate(self) -> str | None:
        """The real path of the regular file to send for ``self.path``, or ``None`` once an error
        or a redirect has been sent."""
        target = self.path.split("?", 1)[0].split("#", 1)[0]
        if not target.startswith("/") or "\\" in target:
            self.send_error(HTTPStatus.BAD_REQUEST)
            return None
        names = []
        for segment in target.split("/")[1:]:
            try:
                name = urllib.parse.unquote(segment, errors="strict")
            except UnicodeDecodeError:
                self.send_error(HTTPStatus.BAD_REQUEST)
                return None
            if any(char in "/\\" or ord(char) < 32 or ord(char) == 127 for char in name):
                self.send_error(HTTPStatus.BAD_REQUEST)
                return None
            if name.startswith("."):
                self.send_error(HTTPStatus.NOT_FOUND)
                return None
            if name:
                names.append(name)
        root = self.server.site_root
        real = _inside(root, os.path.join(root, *names))
        if real is None:
            self.send_error(HTTPStatus.NOT_FOUND)
            return None
        if os.path.isdir(real):
            if not target.endswith("/"):
                self.send_response(HTTPStatus.MOVED_PERMANENTLY)
                self.send_header("Location", "/" + "".join(urllib.parse.quote(name) + "/" for name in names))
                self.send_header("Content-Length", "0")
                self.end_headers()
                return None
            real = _inside(root, os.path.join(real, "index.html"))
        elif target.endswith("/"):
            real = None
        if real is None or not os.path.isfile(real):
            self.send_error(HTTPStatus.NOT_FOUND)
            return None
        return real

    def _not_modified(self, mtime: float) -> bool:
        since = self.headers.get("If-Modified-Since")
        if not since or self.headers.get("If-None-Match"):
            return False
        try:
            when = email.utils.parsedate_to_datetime(since)
        except (TypeError, ValueError, IndexError, OverflowError):
            return False
        return when.tzinfo is not None and int(mtime) <= when.timestamp()

    def list_directory(self, path):
        # Never reached through send_head; kept closed in case a caller uses the base class's path.
        self.send_error(HTTPStatus.NOT_FOUND)
        return None

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's name
        if self.server.verbose:
            super().log_message(format, *args)


def cache_control(target: str) -> str | None:
    """The ``Cache-Control`` value for the request target ``target`` (a path, query allowed):
    :data:`IMMUTABLE` for the live board's versioned runtime files, :data:`REVALIDATE` for the
    service worker, ``None`` (no header) for everything else."""
    path = urllib.parse.unquote(target.split("?", 1)[0].split("#", 1)[0])
    if _VERSIONED.match(path):
        return IMMUTABLE
    if path == _WORKER:
        return REVALIDATE
    return None


def _inside(root: str, path: str) -> str | None:
    """``path`` with every link resolved, or ``None`` when that lies outside ``root`` (itself
    resolved) or passes through a dot name inside it."""
    real = os.path.realpath(path)
    if real == root:
        return real
    if not real.startswith(root + os.sep):
        return None
    if any(part.startswith(".") for part in real[len(root) + 1:].split(os.sep)):
        return None
    return real


def _host_name(value: str) -> str:
    """The name part of a ``Host`` header value, lower case: ``[::1]:8000`` → ``[::1]``."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[:value.find("]") + 1] if "]" in value else value
    return value.partition(":")[0].rstrip(".")


def _is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def make_server(site: Path, host: str = "127.0.0.1", port: int = 8000, verbose: bool = False, *,
                connection_timeout: float = 10.0, request_deadline: float = 60.0, max_handlers: int = 32,
                slot_wait: float = 2.0) -> SiteServer:
    """A server for the site folder ``site`` (not yet serving; call ``serve_forever``).

    ``port`` 0 picks a free port (read it from ``server.server_address[1]``). Bound to a loopback
    address, the server answers only requests whose ``Host`` is ``localhost``, ``127.0.0.1``,
    ``[::1]`` or ``host``. ``connection_timeout`` and ``request_deadline`` are in seconds;
    ``max_handlers`` connections are handled at once, a further one waits ``slot_wait`` seconds
    for a free handler and then gets 503 (see :class:`SiteServer`). Raises :class:`BuildError` when
    ``site`` is not a built site or the address cannot be bound.
    """
    site = Path(site)
    if not (site / SITE_MARKER).is_file():
        raise BuildError("not a site built by patiencebook (run `patiencebook build` first)", site)
    allowed = None
    if _is_loopback(host):
        allowed = LOOPBACK_NAMES | {_host_name(f"[{host}]" if ":" in host else host)}
    handler = functools.partial(SiteHandler, directory=str(site))
    try:
        return SiteServer((host, port), handler, os.path.realpath(site), connection_timeout=connection_timeout,
                          request_deadline=request_deadline, max_handlers=max_handlers, slot_wait=slot_wait,
                          allowed_hosts=allowed, verbose=verbose)
    except OSError as error:
        raise BuildError(f"cannot listen on {host}:{port}: {error.strerror}") from None
