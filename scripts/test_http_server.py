#!/usr/bin/env python3
"""A local HTTP server for eventd's live-source tests (standard library only).

Binds 127.0.0.1 on a free port, prints "PORT <n>" and serves, for the tests:
  /files/NAME          a file of ROOT, with ETag, Last-Modified and 304s (?gzip=1: gzip)
  /redirect/N/NAME     N redirects, then /files/NAME
  /loop                redirects to itself forever
  /badetag             a calendar whose ETag holds a bare CR
  /switch/NAME         /files/NAME, or /endless once NAME.endless exists
  /slow/SECONDS        answers after SECONDS
  /status/CODE         that status
  /html                an HTML login page with status 200
  /page/NAME           the file ROOT/NAME as an HTML page (a page on another port)
  /truncated           promises more bytes than it sends, then closes
  /oversize/MIB        a body of MIB MiB
  /endless             a body that never ends
  /headers             header lines that never end
Every request is appended to ROOT/requests.log ("path status"), and its whole head to
ROOT/heads.log (what a browser sent: the tests replay it elsewhere). It stops by itself:
after LIFETIME seconds, or when its parent (the test process) is gone. With CERT and
KEY (PEM files) it speaks TLS with that certificate.

Usage: test_http_server.py ROOT [LIFETIME] [CERT KEY]
"""
import gzip, hashlib, os, ssl, sys, threading, time
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROOT = sys.argv[1]
LIFETIME = float(sys.argv[2]) if len(sys.argv) > 2 else 600
LOG_LOCK = threading.Lock()
CALENDAR = b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//eventd tests//EN\r\n"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def record(self, status):
        with LOG_LOCK, open(os.path.join(ROOT, "requests.log"), "a") as log:
            log.write(f"{self.path} {status}\n")
        # Every head as sent (a recorder for what a browser gives away), blank-line separated.
        with LOG_LOCK, open(os.path.join(ROOT, "heads.log"), "a") as log:
            log.write(self.requestline + "\n" + str(self.headers).strip("\n") + "\n\n")

    def answer(self, status, body=b"", headers=()):
        self.record(status)
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        path, _, query = self.path.partition("?")
        parts = path.strip("/").split("/")
        try:
            handler = getattr(self, "route_" + parts[0])
        except AttributeError:
            return self.answer(404, b"not found")
        try:
            handler(parts[1:], query)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def route_files(self, parts, query):
        name = os.path.basename("/".join(parts))
        try:
            with open(os.path.join(ROOT, name), "rb") as f:
                body = f.read()
            mtime = os.path.getmtime(os.path.join(ROOT, name))
        except OSError:
            return self.answer(404, b"no such file")
        etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
        headers = [("ETag", etag), ("Last-Modified", formatdate(mtime, usegmt=True)),
                   ("Content-Type", "text/calendar; charset=utf-8")]
        if self.headers.get("If-None-Match") == etag:
            return self.answer(304, b"", [("ETag", etag)])
        if "gzip=1" in query and "gzip" in (self.headers.get("Accept-Encoding") or ""):
            body = gzip.compress(body)
            headers.append(("Content-Encoding", "gzip"))
        self.answer(200, body, headers)

    def route_redirect(self, parts, query):
        count = int(parts[0])
        rest = "/".join(parts[1:])
        target = f"/redirect/{count - 1}/{rest}" if count > 1 else f"/files/{rest}"
        self.answer(302, b"", [("Location", target)])

    def route_badetag(self, parts, query):
        # An ETag with a bare CR inside: a client must not send it back.
        self.answer(200, CALENDAR + b"END:VCALENDAR\r\n", [("ETag", '"a\rInjected: 1"')])

    def route_loop(self, parts, query):
        self.answer(302, b"", [("Location", "/loop")])

    def route_slow(self, parts, query):
        time.sleep(float(parts[0]))
        self.answer(200, CALENDAR + b"END:VCALENDAR\r\n")

    def route_status(self, parts, query):
        self.answer(int(parts[0]), b"an error page")

    def route_page(self, parts, query):
        try:
            with open(os.path.join(ROOT, os.path.basename("/".join(parts)) or "page.html"), "rb") as f:
                body = f.read()
        except OSError:
            return self.answer(404, b"no such page")
        self.answer(200, body, [("Content-Type", "text/html; charset=utf-8")])

    def route_html(self, parts, query):
        self.answer(200, b"<!DOCTYPE html><html><body>Please sign in</body></html>", [("Content-Type", "text/html")])

    def route_truncated(self, parts, query):
        self.record(200)
        self.send_response(200)
        self.send_header("Content-Length", "100000")
        self.end_headers()
        self.wfile.write(CALENDAR + b"BEGIN:VEVENT\r\nUID:cut@x\r\n")
        self.close_connection = True

    def route_oversize(self, parts, query):
        size = int(parts[0]) << 20
        self.record(200)
        self.send_response(200)
        self.send_header("Content-Length", str(size))
        self.end_headers()
        chunk = b"X" * 65536
        for _ in range(size // len(chunk)):
            self.wfile.write(chunk)

    def route_endless(self, parts, query):
        self.record(200)
        self.send_response(200)
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        chunk = CALENDAR + b"X" * 65536
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            self.wfile.write(chunk)

    def route_switch(self, parts, query):
        # /files/NAME, or /endless once ROOT/NAME.endless exists (a source that goes bad).
        name = os.path.basename("/".join(parts))
        if os.path.exists(os.path.join(ROOT, name + ".endless")):
            return self.route_endless(parts, query)
        return self.route_files(parts, query)

    def route_headers(self, parts, query):
        self.record(200)
        # Written by hand: send_response would hold the status line back until
        # end_headers, which never comes.
        self.wfile.write(b"HTTP/1.1 200 OK\r\n")
        self.close_connection = True
        line = b"X-Filler: " + b"y" * 1000 + b"\r\n"
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            self.wfile.write(line * 64)


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    if len(sys.argv) > 4:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[3], sys.argv[4])
        server.socket = context.wrap_socket(server.socket, server_side=True)
    print("PORT", server.server_address[1], flush=True)
    parent = os.getppid()
    started = time.monotonic()

    def watchdog():
        while time.monotonic() - started < LIFETIME and os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watchdog, daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
