#!/usr/bin/env python3
"""Minimal Chrome DevTools Protocol driver for headless Chromium (stdlib only).

Talks CDP over --remote-debugging-pipe: chromium reads NUL-terminated JSON
messages on fd 3 and writes them on fd 4.  Typical use in a test:

    import cdp, sys
    if cdp.chromium_path() is None:
        sys.exit(77)                      # ctest SKIP_RETURN_CODE
    with cdp.Browser() as b:
        page = b.open("file:///tmp/report.html")
        page.click("rect[data-x='1']")
        assert page.eval("document.querySelector('#panel').hidden") is False
        assert page.requests == ["file:///tmp/report.html"]

CLI:  cdp.py screenshot FILE.html OUT.png [--width W --height H]
      cdp.py dom FILE.html
"""
import base64, collections, json, os, pathlib, shutil, signal, subprocess
import re, sys, tempfile, threading

DEFAULT_TIMEOUT = 20.0
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--disable-default-apps", "--mute-audio",
         "--remote-debugging-pipe", "--hide-scrollbars",
         "--host-resolver-rules=MAP * ~NOTFOUND"]
# harmless stderr lines: no D-Bus in containers; Debian wrapper's shell test
NOISE = re.compile(r"ERROR:dbus/|Failed to connect to the bus|unexpected operator")
# key -> (code, windowsVirtualKeyCode, text typed on keyDown)
KEYS = {"Tab": ("Tab", 9, ""), "Enter": ("Enter", 13, "\r"),
        "Escape": ("Escape", 27, ""), " ": ("Space", 32, " "),
        "ArrowLeft": ("ArrowLeft", 37, ""), "ArrowUp": ("ArrowUp", 38, ""),
        "ArrowRight": ("ArrowRight", 39, ""), "ArrowDown": ("ArrowDown", 40, "")}


class CDPError(RuntimeError):
    """A CDP command failed, a script threw, or a wait timed out."""


def chromium_path():
    """Path of a usable chromium binary, or None (tests should then exit 77)."""
    if os.access("/usr/bin/chromium", os.X_OK):
        return "/usr/bin/chromium"
    return shutil.which("chromium") or shutil.which("chromium-browser")


def to_url(path_or_url):
    """Turn a file path into a file:// URL; leave URLs alone."""
    if "://" in str(path_or_url) or str(path_or_url).startswith(("about:", "data:")):
        return str(path_or_url)
    return pathlib.Path(path_or_url).resolve().as_uri()


class Browser:
    """A headless chromium process; use as a context manager."""

    def __init__(self, timeout=DEFAULT_TIMEOUT, binary=None, extra_flags=()):
        self.timeout = timeout
        self.binary = binary or chromium_path()
        if not self.binary:
            raise CDPError("chromium not found")
        self.extra_flags = list(extra_flags)
        self.proc = None
        self._pages = {}                        # sessionId -> Page
        self._results = {}                      # command id -> response
        self._next_id = 0
        self._cond = threading.Condition()
        self._wlock = threading.Lock()
        self._dead = False

    def __enter__(self):
        self.tmp = tempfile.mkdtemp(prefix="cdp-")
        try:
            for headless in ("--headless=new", "--headless"):
                self._start(headless)
                try:
                    self.version = self.send("Browser.getVersion")["product"]
                    return self
                except CDPError:
                    self._stop()
            raise CDPError(f"{self.binary} did not start (exit status {self.status})\n"
                           "--- chromium stderr (tail) ---\n" + self.stderr_tail())
        except BaseException:
            self.__exit__()
            raise

    def __exit__(self, *exc):
        self._stop()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def _start(self, headless):
        profile = tempfile.mkdtemp(dir=self.tmp, prefix="profile-")
        to_chrome, self._wfd = os.pipe()        # we write, chromium reads fd 3
        self._rfd, from_chrome = os.pipe()      # chromium writes fd 4, we read

        def child_fds():                        # runs in the child before exec
            a, b = os.dup(to_chrome), os.dup(from_chrome)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self._err = open(os.path.join(self.tmp, "stderr.txt"), "ab")
        argv = [self.binary, headless, *FLAGS, "--user-data-dir=" + profile,
                *self.extra_flags, "about:blank"]
        self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                                     stdout=self._err, stderr=self._err,
                                     pass_fds=(3, 4), preexec_fn=child_fds,
                                     start_new_session=True)
        os.close(to_chrome)
        os.close(from_chrome)
        self._dead = False
        self._thread = threading.Thread(target=self._reader, args=(self._rfd,), daemon=True)
        self._thread.start()

    def _stop(self):
        """Ask chromium to quit, then kill its whole process group."""
        if not self.proc:
            return
        if self.proc.poll() is None and not self._dead:
            try:
                self.send("Browser.close", timeout=3)
            except CDPError:
                pass
        os.close(self._wfd)                     # EOF on fd 3 also makes chromium quit
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)   # stray renderers/zygotes
        except (ProcessLookupError, PermissionError):
            pass
        self.status = self.proc.wait()
        self._thread.join(timeout=5)
        self._err.close()
        self.proc = None

    def _reader(self, fd):
        """Background thread: split fd 4 on NUL bytes and dispatch messages."""
        buf = bytearray()
        try:
            while chunk := os.read(fd, 1 << 20):
                buf += chunk
                while (end := buf.find(b"\0")) >= 0:
                    msg = json.loads(buf[:end])
                    del buf[:end + 1]
                    if "id" in msg:
                        with self._cond:
                            self._results[msg["id"]] = msg
                            self._cond.notify_all()
                    elif msg.get("sessionId") in self._pages:
                        self._pages[msg["sessionId"]]._event(msg["method"],
                                                             msg.get("params", {}))
        finally:                                # EOF or garbage: chromium is gone
            os.close(fd)
            with self._cond:
                self._dead = True
                self._cond.notify_all()

    def stderr_tail(self, n=6000):
        """Last n bytes of chromium's stderr minus known noise, for error messages."""
        try:
            with open(os.path.join(self.tmp, "stderr.txt"), "rb") as f:
                f.seek(0, 2)
                f.seek(max(0, f.tell() - n))
                lines = f.read().decode("utf-8", "replace").splitlines()
            return "\n".join(l for l in lines if not NOISE.search(l))
        except OSError:
            return ""

    def wait_for(self, predicate, what, timeout=None):
        """Block until predicate() is true; raise CDPError on timeout/crash."""
        with self._cond:
            ok = self._cond.wait_for(lambda: predicate() or self._dead,
                                     timeout or self.timeout)
            if ok and predicate():
                return
        why = "chromium exited" if self._dead else "timed out"
        raise CDPError(f"{why} waiting for {what}\n--- chromium stderr (tail) ---\n"
                       + self.stderr_tail())

    def send(self, method, params=None, session=None, timeout=None):
        """Send one CDP command and return its result (raises on error)."""
        with self._wlock:
            self._next_id += 1
            cid = self._next_id
            msg = {"id": cid, "method": method, "params": params or {}}
            if session:
                msg["sessionId"] = session
            try:
                os.write(self._wfd, json.dumps(msg).encode() + b"\0")
            except OSError as e:
                raise CDPError(f"{method}: pipe to chromium broken: {e}") from e
        self.wait_for(lambda: cid in self._results, method, timeout)
        with self._cond:
            reply = self._results.pop(cid)
        if "error" in reply:
            raise CDPError(f"{method} failed: {reply['error'].get('message')}")
        return reply.get("result", {})

    def open(self, url, width=1400, height=900):
        """Open url (a path or URL) in a new tab, wait for load, return a Page."""
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        sid = self.send("Target.attachToTarget",
                        {"targetId": target, "flatten": True})["sessionId"]
        page = self._pages[sid] = Page(self, sid, target)
        for domain in ("Page", "Runtime", "Network", "Log"):
            page.send(domain + ".enable")
        page.send("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        page.navigate(url)
        return page


class Page:
    """One tab.  `requests` and `console_errors` accumulate until you clear them."""

    def __init__(self, browser, session, target):
        self.browser, self.session, self.target = browser, session, target
        self.requests, self.console_errors = [], []
        self._events = collections.Counter()    # CDP event name -> times seen
        self._seen = collections.Counter()      # ... of which consumed by waits

    def send(self, method, params=None):
        return self.browser.send(method, params, session=self.session)

    def _event(self, method, p):                # called on the reader thread
        with self.browser._cond:
            self._events[method] += 1
            self.browser._cond.notify_all()
        if method == "Network.requestWillBeSent":
            self.requests.append(p["request"]["url"])
        elif method == "Runtime.exceptionThrown":
            d = p["exceptionDetails"]
            self.console_errors.append(d.get("exception", {}).get("description")
                                       or d.get("text", "exception"))
        elif method == "Runtime.consoleAPICalled" and p["type"] in ("error", "assert"):
            self.console_errors.append("console.error: " + " ".join(
                str(a.get("value", a.get("description", ""))) for a in p["args"]))
        elif method == "Log.entryAdded" and p["entry"]["level"] == "error":
            e = p["entry"]
            self.console_errors.append(f"{e['source']}: {e['text']} {e.get('url', '')}")
        elif method == "Page.javascriptDialogOpening":   # never block on alert()
            threading.Thread(target=self.send, args=("Page.handleJavaScriptDialog",
                                                     {"accept": True})).start()

    def wait_event(self, method, timeout=None):
        """Wait for the next `method` event (e.g. Page.loadEventFired) not yet waited for."""
        self.browser.wait_for(lambda: self._events[method] > self._seen[method],
                              method, timeout)
        self._seen[method] = self._events[method]

    def wait_load(self, timeout=None):
        """Wait for the next Page.loadEventFired not yet waited for."""
        self.wait_event("Page.loadEventFired", timeout)

    def _forget(self, *methods):
        with self.browser._cond:
            for m in methods:
                self._seen[m] = self._events[m]

    def navigate(self, url, wait=True):
        """Go to url; wait for load, or for the commit if only the fragment changes."""
        self._forget("Page.loadEventFired", "Page.navigatedWithinDocument")
        r = self.send("Page.navigate", {"url": to_url(url)})
        if r.get("errorText"):
            raise CDPError(f"navigate {url}: {r['errorText']}")
        if wait:   # no loaderId = same-document; the reply comes before the commit
            self.wait_event("Page.loadEventFired" if r.get("loaderId")
                            else "Page.navigatedWithinDocument")

    def reload(self, wait=True):
        """Reload the current document (keeps location.hash) and wait for load."""
        self._forget("Page.loadEventFired")
        self.send("Page.reload", {"ignoreCache": True})
        if wait:
            self.wait_load()

    def eval(self, expression):
        """Evaluate JS (promises awaited) and return its JSON value."""
        r = self.send("Runtime.evaluate", {"expression": expression,
                      "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in r:
            d = r["exceptionDetails"]
            raise CDPError("script threw: " + (d.get("exception", {}).get("description")
                                               or d.get("text", "?")))
        return r["result"].get("value")

    def _centre(self, selector):
        """Scroll the element into view; return its centre in viewport pixels."""
        box = self.eval(f"""(() => {{
            const el = document.querySelector({json.dumps(selector)});
            if (!el) return null;
            el.scrollIntoView({{block: 'center', inline: 'center'}});
            const r = el.getBoundingClientRect(), x = r.x + r.width / 2, y = r.y + r.height / 2;
            const hit = document.elementFromPoint(x, y);
            return {{x, y, hit: !!hit && (hit === el || el.contains(hit)),
                     top: hit ? hit.outerHTML.slice(0, 80) : null}};
        }})()""")
        if box is None:
            raise CDPError(f"no element matches {selector!r}")
        if not box["hit"]:
            raise CDPError(f"{selector!r} is covered at its centre by {box['top']}")
        return box["x"], box["y"]

    def _mouse(self, kind, x, y, **extra):
        self.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, **extra})

    def click(self, selector):
        """Real left click (move, press, release) at the element's centre."""
        x, y = self._centre(selector)
        self._mouse("mouseMoved", x, y)
        for kind in ("mousePressed", "mouseReleased"):
            self._mouse(kind, x, y, button="left", buttons=1, clickCount=1)

    def hover(self, selector):
        """Move the mouse to the element's centre."""
        self._mouse("mouseMoved", *self._centre(selector))

    def key(self, key, shift=False):
        """Press and release a key: Tab, Enter, Escape, ' ', Arrow*."""
        code, vk, text = KEYS[key]
        base = {"key": key, "code": code, "windowsVirtualKeyCode": vk,
                "nativeVirtualKeyCode": vk, "modifiers": 8 if shift else 0}
        self.send("Input.dispatchKeyEvent",
                  {"type": "keyDown" if text else "rawKeyDown", "text": text, **base})
        self.send("Input.dispatchKeyEvent", {"type": "keyUp", **base})

    def screenshot(self, path, full_page=False):
        """Write a PNG of the viewport (or the whole document) to path."""
        params = {"format": "png"}
        if full_page:
            size = self.send("Page.getLayoutMetrics")["cssContentSize"]
            params.update(captureBeyondViewport=True, clip={
                "x": 0, "y": 0, "width": size["width"], "height": size["height"],
                "scale": 1})
        data = base64.b64decode(self.send("Page.captureScreenshot", params)["data"])
        pathlib.Path(path).write_bytes(data)
        return path

    def timing(self):
        """Milliseconds since navigation start: DOMContentLoaded, load, first paint, now."""
        return self.eval("""(() => {
            const n = performance.getEntriesByType('navigation')[0] || {};
            const fp = performance.getEntriesByName('first-contentful-paint')[0];
            return {dom_content_loaded: n.domContentLoadedEventEnd, load: n.loadEventEnd,
                    first_paint: fp ? fp.startTime : null, now: performance.now()};
        })()""")

    def close(self):
        self.browser.send("Target.closeTarget", {"targetId": self.target})
        self.browser._pages.pop(self.session, None)


def main(argv=None):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("screenshot", help="render FILE to a PNG")
    s.add_argument("file"), s.add_argument("out")
    s.add_argument("--width", type=int, default=1400)
    s.add_argument("--height", type=int, default=900)
    s.add_argument("--full-page", action="store_true")
    sub.add_parser("dom", help="print the DOM after load").add_argument("file")
    args = ap.parse_args(argv)
    if chromium_path() is None:
        print("chromium not found", file=sys.stderr)
        return 77
    with Browser() as b:
        if args.cmd == "screenshot":
            page = b.open(args.file, args.width, args.height)
            page.screenshot(args.out, args.full_page)
        else:
            page = b.open(args.file)
            print(page.eval("document.documentElement.outerHTML"))
        for err in page.console_errors:
            print("console error:", err, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
