"""The explorer's HTTP server: the standard library's ``ThreadingHTTPServer``, hardened.

Why the standard library and not Starlette + uvicorn: the app is six read-only JSON
endpoints and three static files, each answered by one NumPy matrix product that
releases the GIL, so a thread per request gives the parallelism there is and async
would buy nothing; ``http.server`` needs no new dependency and lets us set every limit
ourselves.  The limits (each one a clear JSON error, never a hung worker):

* a socket timeout per connection (``SOCKET_TIMEOUT``): a client that stops sending
  (slowloris) frees its thread after that many seconds;
* request line at most ``MAX_URL`` bytes (414); headers as ``http.server`` limits them
  (431); a body only on POST, with a Content-Length of at most ``MAX_BODY`` (411, 413);
* at most ``MAX_ACTIVE`` requests computing at once; beyond that 503 at once;
* GET/HEAD/POST only (405); malformed percent-encoding, non-UTF-8 or non-JSON input (400).

Responses carry a Content-Security-Policy that allows nothing but this server, so the
page provably loads nothing from the network.
"""

import importlib.resources
import json
import logging
import sys
import threading
import urllib.parse
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

log = logging.getLogger(__name__)

SOCKET_TIMEOUT = 10.0
MAX_URL = 8192
MAX_BODY = 64 * 1024
MAX_ACTIVE = 16
STATIC = {"/": ("index.html", "text/html; charset=utf-8"),
          "/index.html": ("index.html", "text/html; charset=utf-8"),
          "/explorer.js": ("explorer.js", "text/javascript; charset=utf-8"),
          "/explorer.css": ("explorer.css", "text/css; charset=utf-8")}
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def static_file(name):
    return importlib.resources.files("wordvec.serve").joinpath("static", name).read_bytes()


class ExplorerHandler(BaseHTTPRequestHandler):
    """One request: static page files, or ``/api/<endpoint>`` answered by ``server.api``."""

    server_version = "wordvec-explorer"
    timeout = SOCKET_TIMEOUT  # StreamRequestHandler sets it on the socket

    def do_GET(self):
        self._serve(body=None)

    def do_HEAD(self):
        self._serve(body=None, head=True)

    def do_POST(self):
        body = self._read_body()
        if body is not None:
            self._serve(body=body)

    def _method_not_allowed(self):
        self._send_json(405, {"error": f"method {self.command} is not allowed; use GET or POST"},
                        extra_headers={"Allow": "GET, HEAD, POST"})

    do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _method_not_allowed

    # -- the request -------------------------------------------------------------------

    def _read_body(self):
        length = self.headers.get("Content-Length")
        if length is None:
            self._send_json(411, {"error": "a POST needs a Content-Length header"})
            return None
        try:
            size = int(length)
            if size < 0:
                raise ValueError
        except ValueError:
            self._send_json(400, {"error": f"Content-Length must be a whole number, not {length[:40]!r}"})
            return None
        if size > MAX_BODY:
            self._send_json(413, {"error": f"request body of {size} bytes is larger than the {MAX_BODY} allowed"})
            return None
        return self.rfile.read(size)  # the socket timeout bounds a client that never sends it

    def _serve(self, body, head=False):
        if len(self.path) > MAX_URL:
            self._send_json(414, {"error": f"the URL is longer than {MAX_URL} characters"})
            return
        parts = urllib.parse.urlsplit(self.path)
        if parts.path in STATIC and body is None:
            name, kind = STATIC[parts.path]
            self._send(200, static_file(name), kind, head=head)
            return
        if not parts.path.startswith("/api/"):
            self._send_json(404, {"error": f"nothing at {parts.path[:100]}; the page is at /, the API under /api/"})
            return
        try:
            params = self._params(parts.query, body)
        except ValueError as error:
            self._send_json(400, {"error": str(error)})
            return
        if not self.server.active.acquire(blocking=False):
            self._send_json(503, {"error": "the server is busy; try again in a moment"})
            return
        try:
            status, answer = self.server.api.handle(parts.path[len("/api/"):], params)
        except Exception:  # a bug, not bad input: log it, answer briefly, keep serving
            log.exception("error answering %s", self.path[:200])
            status, answer = 500, {"error": "internal error; see the server's log"}
        finally:
            self.server.active.release()
        self._send_json(status, answer, head=head)

    @staticmethod
    def _params(query, body):
        """Query-string parameters, or the JSON object of a POST body (ValueError if malformed)."""
        if body is not None:
            try:
                params = json.loads(body.decode("utf-8")) if body.strip() else {}
            except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
                raise ValueError("the request body is not a JSON object in UTF-8") from None
            if not isinstance(params, dict):
                raise ValueError("the request body must be a JSON object of parameters")
            try:  # JSON's \ud800 escapes decode to lone surrogates, which no answer can encode
                json.dumps(params, ensure_ascii=False).encode("utf-8")
            except UnicodeEncodeError:
                raise ValueError("the request body holds a lone surrogate (an escape such as \\ud800 that is "
                                 "half of a character)") from None
            return params
        try:
            pairs = urllib.parse.parse_qsl(query, keep_blank_values=True, strict_parsing=False,
                                           encoding="utf-8", errors="strict", max_num_fields=20)
        except UnicodeDecodeError:
            raise ValueError("the query string is not valid UTF-8 after percent-decoding") from None
        except ValueError:
            raise ValueError("too many query parameters") from None
        params = {}
        for name, value in pairs:
            if name in params:
                raise ValueError(f"parameter {name[:40]!r} is given twice")
            params[name] = value
        return params

    # -- the response ------------------------------------------------------------------

    def _send_json(self, status, obj, head=False, extra_headers=None):
        data = json.dumps(obj, ensure_ascii=False).encode("utf-8")
        self._send(status, data, "application/json; charset=utf-8", head=head, extra_headers=extra_headers)

    def _send(self, status, data, kind, head=False, extra_headers=None):
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        for name, value in {**SECURITY_HEADERS, **(extra_headers or {})}.items():
            self.send_header(name, value)
        self.end_headers()
        if not head:
            self.wfile.write(data)

    def send_error(self, code, message=None, explain=None):
        """http.server's own errors (malformed request line, headers too long) as JSON.

        Its two 5xx answers are the client's fault here, so they become 4xx: an unknown
        method (501) is 405, an unknown HTTP version (505) is 400."""
        if code == 501:
            code, message = 405, f"method {str(self.command)[:20]!r} is not allowed; use GET or POST"
        elif code >= 500:
            code = 400
        try:
            short = HTTPStatus(code).phrase
        except ValueError:
            short = "error"
        self.close_connection = True
        if self.request_version == "HTTP/0.9":  # a garbled request line: still answer with headers
            self.request_version = "HTTP/1.0"
        self._send_json(code, {"error": f"{short}: {message or explain or 'bad request'}"[:300]},
                        head=self.command == "HEAD")

    def log_message(self, format, *args):
        log.debug("%s - %s", self.address_string(), format % args)


class ExplorerServer(ThreadingHTTPServer):
    daemon_threads = True  # a stuck connection never keeps the process alive
    allow_reuse_address = True

    def __init__(self, address, api):
        super().__init__(address, ExplorerHandler)
        self.api = api
        self.active = threading.BoundedSemaphore(MAX_ACTIVE)

    def handle_error(self, request, client_address):
        """A client that hangs up or times out is routine; anything else is logged once."""
        error = sys.exc_info()[1]
        if isinstance(error, (ConnectionError, TimeoutError)):
            log.debug("%s went away: %s", client_address[0], error)
        else:
            log.error("error serving %s", client_address[0], exc_info=True)
