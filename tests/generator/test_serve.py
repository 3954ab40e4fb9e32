"""`patiencebook serve`: the site on 127.0.0.1 with the MIME types WebAssembly and modules need, only
files really inside the site, security headers on every response, and bounded request handling.

Requests that urllib would normalise are written verbatim to a socket and read back with
http.client's response parser.
"""

from __future__ import annotations

import http.client
import os
import socket
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from patiencebook.generator.project import SITE_MARKER
from patiencebook.generator.errors import BuildError
from patiencebook.generator.serve import make_server

SECRET = b"SECRET-OUTSIDE-THE-SITE"


def make_site(root: Path) -> Path:
    """A small built site in ``root/site`` with links into and out of it; files with ``SECRET``
    lie beside it in ``root``."""
    site = root / "site"
    (site / "en").mkdir(parents=True)
    (site / SITE_MARKER).write_text("", encoding="utf-8")
    (site / "en" / "index.html").write_text("<!DOCTYPE html><title>x</title>", encoding="utf-8")
    (site / "engine.wasm").write_bytes(b"\0asm\1\0\0\0")
    (site / "board.mjs").write_text("export const x = 1;", encoding="utf-8")
    (site / ".patiencebook-cache" / "en").mkdir(parents=True)
    (site / ".patiencebook-cache" / "en" / "state.json").write_text("{}", encoding="utf-8")
    (site / "_static").mkdir()
    (site / "_static" / "basic.css").write_text("body {}", encoding="utf-8")
    (root / "secret.txt").write_bytes(SECRET)
    (root / "outdir").mkdir()
    (root / "outdir" / "secret.txt").write_bytes(SECRET)
    (root / "outdir" / "index.html").write_bytes(SECRET)
    (site / "out.txt").symlink_to(root / "secret.txt")
    (site / "outdir").symlink_to(root / "outdir", target_is_directory=True)
    (site / "relative-out.txt").symlink_to(Path("..") / "secret.txt")
    (site / "alias.html").symlink_to(Path("en") / "index.html")
    (site / "english").symlink_to(Path("en"), target_is_directory=True)
    (site / "cache").symlink_to(Path(".patiencebook-cache"), target_is_directory=True)
    return site


@pytest.fixture
def start(tmp_path):
    """Starts servers on 127.0.0.1 (a free port) in threads; returns ``start(site, **options)`` →
    the port, and stops every server afterwards."""
    servers = []

    def _start(site: Path, **options) -> int:
        server = make_server(site, port=0, **options)
        servers.append(server)
        # A short poll interval lets each test's server stop quickly.
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        return server.server_address[1]

    yield _start
    for server in servers:
        server.shutdown()
        server.server_close()


@pytest.fixture
def site(tmp_path):
    return make_site(tmp_path)


@pytest.fixture
def port(site, start):
    return start(site)


@pytest.fixture
def served(port):
    return f"http://127.0.0.1:{port}"


def fetch(url: str):
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.headers, response.read()


def raw(port: int, request: bytes, method: str = "GET"):
    """Send ``request`` verbatim; returns (status, headers, body) of the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        response = http.client.HTTPResponse(sock, method=method)
        response.begin()
        return response.status, response.headers, response.read()


def get(port: int, target: str, host: str = "127.0.0.1"):
    return raw(port, f"GET {target} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode("latin-1"))


def read_all(sock: socket.socket) -> bytes:
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data


def test_server_binds_to_loopback_only_by_default(tmp_path):
    (tmp_path / SITE_MARKER).write_text("", encoding="utf-8")
    server = make_server(tmp_path, port=0)
    try:
        assert server.server_address[0] == "127.0.0.1"
    finally:
        server.server_close()


def test_wasm_and_modules_get_their_registered_types_and_nosniff(served):
    headers, body = fetch(f"{served}/engine.wasm")
    assert headers["Content-Type"] == "application/wasm"
    assert body == b"\0asm\1\0\0\0"
    assert headers["X-Content-Type-Options"] == "nosniff"
    headers, _ = fetch(f"{served}/board.mjs")
    assert headers["Content-Type"] == "text/javascript"
    headers, body = fetch(f"{served}/en/index.html")
    assert headers["Content-Type"] == "text/html" and body.startswith(b"<!DOCTYPE html>")


def test_versioned_runtime_files_are_immutable_and_the_service_worker_is_revalidated(site, served):
    runtime = site / "_pyodide" / "0.29.5-0123456789ab"
    runtime.mkdir(parents=True)
    (runtime / "pyodide.asm.wasm").write_bytes(b"\0asm\1\0\0\0")
    (site / "_engine").mkdir()
    (site / "_engine" / "patiencebook-engine-abcdef012345.zip").write_bytes(b"PK\5\6" + bytes(18))
    (site / "_engine" / "python-abcdef012345.snapshot.gz").write_bytes(b"\x1f\x8b")
    (site / "_engine" / "patiencebook-engine.zip").write_bytes(b"PK\5\6" + bytes(18))
    (site / "pb-sw.js").write_text('"use strict";', encoding="utf-8")
    for path, kind in [("/_pyodide/0.29.5-0123456789ab/pyodide.asm.wasm", "application/wasm"),
                       ("/_engine/patiencebook-engine-abcdef012345.zip", "application/zip"),
                       ("/_engine/python-abcdef012345.snapshot.gz", "application/gzip")]:
        headers, _ = fetch(served + path)
        assert headers["Cache-Control"] == "public, max-age=31536000, immutable", path
        assert headers["Content-Type"] == kind
    # A service worker must come as JavaScript; it is checked again on every load.
    headers, body = fetch(f"{served}/pb-sw.js")
    assert headers["Content-Type"] == "text/javascript" and headers["Cache-Control"] == "no-cache"
    assert body == b'"use strict";'
    # Names without a digest, and pages, may change under their name: no caching header.
    for path in ("/_engine/patiencebook-engine.zip", "/en/index.html", "/_static/basic.css"):
        headers, _ = fetch(served + path)
        assert "Cache-Control" not in headers, path


def test_a_folder_that_is_not_a_built_site_is_refused(tmp_path):
    with pytest.raises(BuildError, match="not a site built by patiencebook"):
        make_server(tmp_path, port=0)


@pytest.mark.parametrize("path", ["/.patiencebook-cache/en/state.json", "/.patiencebook-site",
                                  "/%2Epatiencebook-site", "/en/../.patiencebook-site"])
def test_dot_names_are_not_served(served, path):
    with pytest.raises(urllib.error.HTTPError) as caught:
        fetch(served + path)
    assert caught.value.code == 404


# Paths and links


@pytest.mark.parametrize(("target", "status"), [
    ("/../secret.txt", 404),
    ("/../../../../../../etc/passwd", 404),
    ("/en/../../secret.txt", 404),
    ("/%2e%2e/secret.txt", 404),
    ("/%2E%2E/%2e%2e/etc/passwd", 404),
    ("/en/%2e%2e/%2e%2e/secret.txt", 404),
    ("/..%2fsecret.txt", 400),
    ("/en%2F..%2F..%2Fsecret.txt", 400),
    ("/..\\secret.txt", 400),
    ("/en%5c..%5c..%5csecret.txt", 400),
    ("/etc/passwd", 404),
    ("//etc/passwd", 404),
    ("secret.txt", 400),
    ("http://127.0.0.1/../secret.txt", 400),
    ("/en/index.html%00", 400),
    ("/en/index.html%00.txt", 400),
    ("/en/index.html\0", 400),
    ("/en/index.html%0d%0aX-Injected:%201", 400),
    ("/%ff%fe", 400),
])
def test_traversal_requests_sent_verbatim_never_reach_files_outside_the_site(port, target, status):
    code, headers, body = get(port, target)
    assert code == status
    assert SECRET not in body and b"root:" not in body
    assert "X-Injected" not in headers


def test_absolute_path_of_a_file_outside_is_looked_up_inside_the_site(port, tmp_path):
    code, _, body = get(port, str(tmp_path / "secret.txt"))
    assert code == 404 and SECRET not in body


@pytest.mark.parametrize("target", ["/out.txt", "/relative-out.txt", "/outdir/secret.txt", "/outdir/",
                                    "/outdir", "/cache/en/state.json"])
def test_links_out_of_the_site_or_into_dot_names_are_not_served(port, target):
    code, _, body = get(port, target)
    assert code == 404
    assert SECRET not in body


def test_links_that_stay_inside_the_site_are_served(port):
    assert get(port, "/alias.html")[::2] == (200, b"<!DOCTYPE html><title>x</title>")
    assert get(port, "/english/index.html")[::2] == (200, b"<!DOCTYPE html><title>x</title>")
    assert get(port, "/english/")[::2] == (200, b"<!DOCTYPE html><title>x</title>")


def test_a_folder_is_served_by_its_index_and_never_listed(port):
    assert get(port, "/en/")[::2] == (200, b"<!DOCTYPE html><title>x</title>")
    code, _, body = get(port, "/_static/")
    assert code == 404
    assert b"basic.css" not in body


def test_a_folder_without_its_slash_is_redirected_to_it_on_the_same_site(port):
    code, headers, _ = get(port, "/en")
    assert code == 301 and headers["Location"] == "/en/"
    code, headers, _ = get(port, "//en")
    assert code == 301 and headers["Location"] == "/en/"


def test_a_file_with_a_trailing_slash_is_not_found(port):
    assert get(port, "/engine.wasm/")[0] == 404


def test_a_fifo_inside_the_site_is_refused_without_blocking(site, start):
    os.mkfifo(site / "pipe.html")
    port = start(site)
    started = time.monotonic()
    assert get(port, "/pipe.html")[0] == 404
    assert time.monotonic() - started < 2


# Headers


def _assert_security_headers(headers) -> None:
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["Cross-Origin-Opener-Policy"] == "same-origin"
    policy = dict(part.strip().split(" ", 1) for part in headers["Content-Security-Policy"].split(";"))
    assert policy["default-src"] == "'none'"
    assert policy["script-src"] == "'self' 'wasm-unsafe-eval'"
    assert policy["connect-src"] == "'self'"
    assert policy["frame-ancestors"] == "'none'"
    assert policy["base-uri"] == "'none'"


@pytest.mark.parametrize(("request_bytes", "status"), [
    (b"GET /en/index.html HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 200),
    (b"GET /en HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 301),
    (b"GET /missing.html HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 404),
    (b"GET /..\\x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 400),
    (b"POST /en/index.html HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n", 405),
    (b"BREW /en/index.html HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 501),
    (b"GET /en/index.html HTTP/1.1\r\nHost: attacker.example\r\n\r\n", 421),
])
def test_every_response_carries_the_security_headers(port, request_bytes, status):
    code, headers, _ = raw(port, request_bytes)
    assert code == status
    _assert_security_headers(headers)


def test_the_server_header_names_no_software_version(port):
    _, headers, _ = get(port, "/en/index.html")
    assert headers["Server"] == "patiencebook"


def test_conditional_get_of_an_unchanged_file_answers_304(port):
    _, headers, _ = get(port, "/board.mjs")
    request = f"GET /board.mjs HTTP/1.1\r\nHost: 127.0.0.1\r\nIf-Modified-Since: {headers['Last-Modified']}\r\n\r\n"
    code, headers, body = raw(port, request.encode("ascii"))
    assert (code, body) == (304, b"")
    _assert_security_headers(headers)


# Methods and hosts


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT"])
def test_methods_other_than_get_and_head_are_not_allowed_and_echo_nothing(port, method):
    request = f"{method} /en/index.html HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Marker: echo-me-9137\r\n\r\n"
    code, headers, body = raw(port, request.encode("ascii"))
    assert code == 405
    assert headers["Allow"] == "GET, HEAD"
    assert body == b"405 Method Not Allowed\n"


def test_an_unknown_method_is_not_implemented_and_its_name_is_not_echoed(port):
    code, _, body = raw(port, b"BREW<script> /en/index.html HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert (code, body) == (501, b"501 Not Implemented\n")


def test_head_sends_the_headers_of_get_and_no_body(port):
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"HEAD /engine.wasm HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        answer = read_all(sock)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.0 200 ")
    assert b"\r\nContent-Length: 8\r\n" in head and b"\r\nContent-Type: application/wasm\r\n" in head
    assert body == b""


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "LOCALHOST:8000", "[::1]:8000"])
def test_a_loopback_server_answers_to_loopback_names(port, host):
    assert get(port, "/en/index.html", host=f"{host}")[0] == 200


@pytest.mark.parametrize("host", ["attacker.example", "attacker.example:8000", "127.0.0.1.attacker.example",
                                  "192.168.1.5"])
def test_a_loopback_server_refuses_other_host_names_against_dns_rebinding(port, host):
    code, _, body = get(port, "/en/index.html", host=host)
    assert code == 421
    assert b"<title>" not in body


def test_a_request_without_a_host_header_is_served(port):
    assert raw(port, b"GET /en/index.html HTTP/1.0\r\n\r\n")[0] == 200


def test_a_request_without_a_version_gets_a_status_line_and_headers(port):
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"GET /en/index.html\r\n\r\n")
        answer = read_all(sock)
    assert answer.startswith(b"HTTP/1.0 400 ")
    assert b"\r\nX-Content-Type-Options: nosniff\r\n" in answer
    assert b"<title>" not in answer


# Bounds


def test_a_request_line_longer_than_65536_bytes_is_refused_with_414(port):
    code, headers, _ = raw(port, b"GET /" + b"a" * 70000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert code == 414
    _assert_security_headers(headers)


def test_a_header_line_longer_than_65536_bytes_is_refused_with_431(port):
    code, _, _ = raw(port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Long: " + b"a" * 70000 + b"\r\n\r\n")
    assert code == 431


def test_a_request_with_100_header_lines_or_more_is_refused_with_431(port):
    # http.client counts the blank line that ends the headers against its limit of 100 lines.
    def with_headers(count: int) -> bytes:
        lines = "".join(f"X-H{i}: {i}\r\n" for i in range(count - 1))
        return f"GET /en/index.html HTTP/1.1\r\nHost: 127.0.0.1\r\n{lines}\r\n".encode("ascii")

    assert raw(port, with_headers(99))[0] == 200
    assert raw(port, with_headers(100))[0] == 431
    assert raw(port, with_headers(1000))[0] == 431


def test_a_silent_connection_is_closed_after_the_connection_timeout(site, start):
    port = start(site, connection_timeout=0.5)
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        started = time.monotonic()
        sock.sendall(b"GET /en/index.html HTTP/1.1\r\n")
        assert read_all(sock) == b""
        assert 0.4 < time.monotonic() - started < 3


def test_a_client_that_trickles_its_headers_is_cut_at_the_request_deadline(site, start):
    # Each byte comes well within the connection timeout, so only the deadline can end this request.
    port = start(site, connection_timeout=5, request_deadline=1)
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        started = time.monotonic()
        sock.sendall(b"GET /en/index.html HTTP/1.1\r\n")
        closed = False
        while time.monotonic() - started < 5:
            try:
                sock.sendall(b"X")
            except OSError:
                closed = True
                break
            sock.settimeout(0.2)
            try:
                closed = sock.recv(1024) == b""
            except TimeoutError:
                pass
            except OSError:
                closed = True
            if closed:
                break
        assert closed
        assert time.monotonic() - started < 3


def test_connections_beyond_the_handler_cap_get_503_until_a_handler_is_free(site, start):
    port = start(site, max_handlers=2, slot_wait=0.2, connection_timeout=5)
    idle = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(2)]
    try:
        time.sleep(0.2)   # both are accepted and each holds a handler, waiting for a request line
        code, headers, body = get(port, "/en/index.html")
        assert (code, body) == (503, b"")
        assert headers["Retry-After"] == "1"
        _assert_security_headers(headers)
    finally:
        for sock in idle:
            sock.close()
    deadline = time.monotonic() + 3
    while (code := get(port, "/en/index.html")[0]) != 200 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert code == 200
