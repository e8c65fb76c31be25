#!/usr/bin/env python3
"""A program in a real pseudo-terminal, its output read through pyte (a VT emulator).

The eventctl watch tests (Tests/EventctlTests/WatchCLITests.swift) drive it over
stdin/stdout, one JSON object per line each way:

  {"op": "wait", "text": "Today", "timeout": 5}   until the screen shows text
  {"op": "screen"}                                the screen now
  {"op": "keys", "data": "q"}                     typed into the terminal
  {"op": "resize", "cols": 60, "rows": 20}        the terminal resized (SIGWINCH)
  {"op": "signal", "signal": 15}                  a signal sent to the program
  {"op": "quiet", "ms": 300, "after": 1234}       until nothing is written for ms (after
                                                  more than "after" bytes, when given)
  {"op": "frames"}                                the screens seen since the last call,
                                                  one per pause of 8 ms in the output
  {"op": "exit", "timeout": 5}                    until the program exits
  {"op": "png", "path": "x.png"}                  the screen drawn as an image (Pillow)
  {"op": "inject", "data": "junk"}                written to the terminal by another
                                                  process (as `echo junk > /dev/pts/N`)
  {"op": "styles"}                                the screen now, with "styles": each cell's
                                                  look as letters (b bold, u underline, r
                                                  reverse) and "/" its background if not
                                                  the default (pyte's name or rrggbb)

Every answer carries "bytes" (all bytes written so far), "screen" (lines), "title"
(what OSC titles set), "cursor_hidden", "alt_screen" (from the smcup/rmcup sequences
seen; pyte itself has one screen), "mouse" (mouse reporting on, from the xterm
private modes 1000-1003 seen), "colors" (foreground of each cell on each line).
"""
import codecs, fcntl, json, os, re, struct, subprocess, sys, termios, threading, time

import pyte

ALT_ON = [b"\x1b[?1049h", b"\x1b[?1047h", b"\x1b[?47h"]
ALT_OFF = [b"\x1b[?1049l", b"\x1b[?1047l", b"\x1b[?47l"]
# A private mode set or reset naming one of the mouse reporting modes (curses may join
# them with others: ESC [ ? 1006 ; 1000 h).
MOUSE_MODE = re.compile(rb"\x1b\[\?([0-9;]*)([hl])")


class Screen(pyte.Screen):
    """pyte's screen with the scrolling it lacks and curses uses (terminfo's indn and
    rin: CSI n S and CSI n T): the scrolling region moved n lines, the cursor left
    where it was. Without them a screen curses scrolled keeps its old lines."""

    def scroll_up(self, count=None, *args, **kwargs):
        self._scroll(count, bottom=True)

    def scroll_down(self, count=None, *args, **kwargs):
        self._scroll(count, bottom=False)

    def _scroll(self, count, bottom):
        top, last = self.margins or pyte.screens.Margins(0, self.lines - 1)
        y = self.cursor.y
        self.cursor.y = last if bottom else top
        for _ in range(max(1, count or 1)):
            self.index() if bottom else self.reverse_index()
        self.cursor.y = y


class Stream(pyte.Stream):
    csi = dict(pyte.Stream.csi, S="scroll_up", T="scroll_down")


class Terminal:
    def __init__(self, argv, cols, rows):
        self.screen = Screen(cols, rows)
        self.stream = Stream(self.screen)
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self.lock = threading.Lock()
        self.total = 0
        self.raw = b""
        self.alt = False
        self.mouse = False
        self.last_output = time.monotonic()
        self.frames = []
        self.frame_pending = False
        self.master, slave = os.openpty()
        self.slave_path = os.ttyname(slave)
        self.set_size(slave, cols, rows)
        self.child = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, start_new_session=True,
                                      preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
        os.close(slave)
        threading.Thread(target=self.read_loop, daemon=True).start()
        threading.Thread(target=self.frame_loop, daemon=True).start()

    @staticmethod
    def set_size(fd, cols, rows):
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))

    def read_loop(self):
        while True:
            try:
                data = os.read(self.master, 65536)
            except OSError:
                return
            if not data:
                return
            with self.lock:
                self.total += len(data)
                window = self.raw + data
                on = max(window.rfind(s) for s in ALT_ON)
                off = max(window.rfind(s) for s in ALT_OFF)
                if on != off:
                    self.alt = on > off
                for match in MOUSE_MODE.finditer(window):
                    if set(match.group(1).split(b";")) & {b"1000", b"1001", b"1002", b"1003"}:
                        self.mouse = match.group(2) == b"h"
                self.raw = window[-16:]
                self.stream.feed(self.decoder.decode(data))
                self.last_output = time.monotonic()
                self.frame_pending = True

    def frame_loop(self):
        while True:
            time.sleep(0.002)
            with self.lock:
                if self.frame_pending and time.monotonic() - self.last_output >= 0.008:
                    self.frame_pending = False
                    self.frames.append(list(self.screen.display))

    def state(self):
        with self.lock:
            colors = [[self.screen.buffer[y][x].fg for x in range(self.screen.columns)] for y in range(self.screen.lines)]
            return {"bytes": self.total, "screen": list(self.screen.display), "title": self.screen.title,
                    "cursor_hidden": self.screen.cursor.hidden, "alt_screen": self.alt, "mouse": self.mouse,
                    "colors": colors}

    def handle(self, request):
        op = request["op"]
        if op == "wait":
            deadline = time.monotonic() + request.get("timeout", 5)
            while time.monotonic() < deadline:
                with self.lock:
                    if any(request["text"] in line for line in self.screen.display):
                        break
                time.sleep(0.01)
            else:
                return dict(self.state(), ok=False)
            return dict(self.state(), ok=True)
        if op == "keys":
            os.write(self.master, request["data"].encode())
        elif op == "inject":
            fd = os.open(self.slave_path, os.O_WRONLY | os.O_NOCTTY)
            try:
                os.write(fd, request["data"].encode())
            finally:
                os.close(fd)
        elif op == "signal":
            self.child.send_signal(request["signal"])
        elif op == "resize":
            with self.lock:
                self.screen.resize(request["rows"], request["cols"])
            self.set_size(self.master, request["cols"], request["rows"])
        elif op == "quiet":
            deadline = time.monotonic() + request.get("timeout", 10)
            while time.monotonic() < deadline:
                with self.lock:
                    if self.total > request.get("after", -1) and time.monotonic() - self.last_output >= request["ms"] / 1000:
                        break
                time.sleep(0.005)
        elif op == "frames":
            with self.lock:
                frames, self.frames = self.frames, []
            return dict(self.state(), frames=frames)
        elif op == "exit":
            try:
                status = self.child.wait(timeout=request.get("timeout", 5))
            except subprocess.TimeoutExpired:
                status = None
            time.sleep(0.05)
            return dict(self.state(), status=status)
        elif op == "styles":
            with self.lock:
                styles = [["".join(flag for flag, on in (("b", c.bold), ("u", c.underscore), ("r", c.reverse)) if on)
                           + ("" if c.bg == "default" else "/" + c.bg)
                           for c in (self.screen.buffer[y][x] for x in range(self.screen.columns))]
                          for y in range(self.screen.lines)]
            return dict(self.state(), styles=styles)
        elif op == "png":
            from pty_png import render
            with self.lock:
                render(self.screen, request["path"])
        return self.state()


def main():
    cols, rows = int(sys.argv[1]), int(sys.argv[2])
    terminal = Terminal(sys.argv[3:], cols, rows)
    for line in sys.stdin:
        answer = terminal.handle(json.loads(line))
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    if terminal.child.poll() is None:
        terminal.child.kill()
        terminal.child.wait()


if __name__ == "__main__":
    main()
