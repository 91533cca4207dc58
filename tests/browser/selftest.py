#!/usr/bin/env python3
"""Self-test for cdp.py.  Exit 0 = pass, 1 = failure, 77 = chromium missing (skip)."""
import contextlib, io, os, pathlib, struct, sys, tempfile, time, traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>cdp selftest</title>
<style>body{margin:0;font:14px sans-serif} #spacer{height:2000px}</style></head>
<body>
<svg id="chart" width="400" height="120">
  <rect tabindex="0" data-x="a" x="10" y="10" width="80" height="80" fill="#c33"/>
  <rect tabindex="0" data-x="b" x="110" y="10" width="80" height="80" fill="#3c3"/>
  <rect tabindex="0" data-x="c" x="210" y="10" width="80" height="80" fill="#33c"/>
</svg>
<button id="btn">count</button> <span id="count">0</span>
<div id="hoverinfo"></div>
<div id="panel" hidden></div>
<div id="spacer"></div>
<svg width="200" height="100"><rect tabindex="0" data-x="d" width="80" height="80"/></svg>
<script>
const panel = document.getElementById('panel');
function openPanel(x) { panel.hidden = false; panel.textContent = 'selected ' + x;
                        location.hash = 'sel=' + x; }
function closePanel() { panel.hidden = true; location.hash = ''; }
for (const r of document.querySelectorAll('rect')) {
  r.addEventListener('click', () => openPanel(r.dataset.x));
  r.addEventListener('keydown', e => { if (e.key === 'Enter') openPanel(r.dataset.x); });
  r.addEventListener('mouseenter', () => {
    document.getElementById('hoverinfo').textContent = 'hover ' + r.dataset.x; });
}
document.addEventListener('keydown', e => { if (e.key === 'Escape') closePanel(); });
document.getElementById('btn').addEventListener('click', () => {
  const c = document.getElementById('count'); c.textContent = +c.textContent + 1; });
const m = location.hash.match(/^#sel=(\\w+)$/);
if (m) openPanel(m[1]);
</script>
</body></html>
"""

LEAKY = """<!doctype html><html><body>
<img src="http://example.com/x.png">
<script>throw new Error('load-boom-42');</script>
</body></html>"""

FAILURES = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        FAILURES.append(what)


def png_size(path):
    """(width, height) from a PNG's IHDR, or None if it is not a PNG."""
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", head[16:24])


def poll(fn, timeout=5.0):
    end = time.monotonic() + timeout
    while not fn() and time.monotonic() < end:
        time.sleep(0.02)
    return fn()


def group_alive(pgid):
    """True if any non-zombie process is still in process group pgid."""
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            return True
    return False


def run(tmp):
    page_path = os.path.join(tmp, "page.html")
    leaky_path = os.path.join(tmp, "leaky.html")
    pathlib.Path(page_path).write_text(PAGE)
    pathlib.Path(leaky_path).write_text(LEAKY)
    url = cdp.to_url(page_path)

    with cdp.Browser() as b:
        print("     browser:", b.version)
        t0 = time.monotonic()
        p = b.open(page_path, width=800, height=600)
        print(f"     open+load: {1000 * (time.monotonic() - t0):.0f} ms, timing {p.timing()}")
        check(p.requests == [url], f"only the page itself was requested: {p.requests}")
        check(p.console_errors == [], f"no console errors: {p.console_errors}")
        check(p.eval("document.title") == "cdp selftest", "eval returns a value")
        check(p.eval("Promise.resolve(6 * 7)") == 42, "eval awaits promises")
        check(p.eval("undefined") is None, "undefined evaluates to None")
        try:
            p.eval("null.x")
            check(False, "throwing eval raises")
        except cdp.CDPError as e:
            check("TypeError" in str(e), f"throwing eval raises with the message: {e}")

        p.click("rect[data-x='b']")
        check(p.eval("panel.hidden") is False, "click on SVG rect opens the panel")
        check(p.eval("panel.textContent") == "selected b", "panel shows the clicked rect")
        check(p.eval("location.hash") == "#sel=b", "state written to location.hash")
        p.key("Escape")
        check(p.eval("panel.hidden") is True, "Escape closes the panel")

        p.eval("document.activeElement.blur()")
        p.key("Tab")
        check(p.eval("document.activeElement.dataset.x") == "a", "Tab focuses first rect")
        p.key("Tab")
        p.key("Enter")
        check(p.eval("panel.textContent") == "selected b", "Tab, Tab, Enter opens rect b")
        p.key("Tab", shift=True)
        check(p.eval("document.activeElement.dataset.x") == "a", "Shift+Tab goes back")
        p.key("Escape")
        check(p.eval("panel.hidden") is True, "Escape closes again")
        for _ in range(3):
            p.key("Tab")
        check(p.eval("document.activeElement.id") == "btn", "Tab reaches the button")
        p.key("Enter")
        p.click("#btn")
        check(p.eval("+count.textContent") == 2, "Enter and click both activate the button")

        p.hover("rect[data-x='c']")
        check(p.eval("hoverinfo.textContent") == "hover c", "hover fires mouseenter")

        p.click("rect[data-x='d']")
        check(p.eval("scrollY") > 1000, "click scrolls an off-screen element into view")
        check(p.eval("panel.textContent") == "selected d", "click off-screen rect works")

        p.reload()
        check(p.eval("location.hash") == "#sel=d", "hash survives reload")
        check(p.eval("panel.textContent") == "selected d", "state restored from hash")
        p.navigate(url + "#sel=a")          # same document: no load event, no wait
        p.reload()
        got = p.eval("[location.hash, panel.textContent]")
        check(got == ["#sel=a", "selected a"], f"navigate(#frag) + reload: {got}")
        check(set(p.requests) == {url}, f"still only the page requested: {set(p.requests)}")

        p.eval("setTimeout(() => { throw new Error('late-boom-7'); }, 0)")
        check(poll(lambda: any("late-boom-7" in e for e in p.console_errors)),
              "asynchronous exception lands in console_errors")
        p.eval("console.error('console-err-9')")
        check(poll(lambda: any("console-err-9" in e for e in p.console_errors)),
              "console.error lands in console_errors")

        shot = p.screenshot(os.path.join(tmp, "view.png"))
        check(png_size(shot) == (800, 600), f"viewport screenshot is 800x600 PNG: {png_size(shot)}")
        full = p.screenshot(os.path.join(tmp, "full.png"), full_page=True)
        size = png_size(full)
        check(size is not None and size[0] == 800 and size[1] > 2000,
              f"full-page screenshot is taller than the document: {size}")

        t = time.monotonic()
        try:
            p.wait_load(timeout=0.3)
            check(False, "wait_load with nothing loading times out")
        except cdp.CDPError as e:
            check("timed out" in str(e) and "chromium stderr" in str(e),
                  "wait_load times out with a clear error")
        check(time.monotonic() - t < 2, "timeout honoured")

        q = b.open(leaky_path)
        check("http://example.com/x.png" in q.requests,
              f"external request recorded: {q.requests}")
        check(any("load-boom-42" in e for e in q.console_errors),
              f"load-time exception recorded: {q.console_errors}")
        q.close()
        pgid = b.proc.pid
    check(b.proc is None and not group_alive(pgid), "no chromium process left behind")

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = cdp.main(["dom", page_path])
    check(rc == 0 and '<svg id="chart"' in out.getvalue(), "CLI dom prints the DOM")
    cli_png = os.path.join(tmp, "cli.png")
    rc = cdp.main(["screenshot", page_path, cli_png, "--width", "640", "--height", "480"])
    check(rc == 0 and png_size(cli_png) == (640, 480), "CLI screenshot writes a 640x480 PNG")


def main():
    if cdp.chromium_path() is None:
        print("SKIP: chromium not found")
        return 77
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="cdp-selftest-") as tmp:
        try:
            run(tmp)
        except Exception:
            traceback.print_exc()
            FAILURES.append("exception")
    print(f"{'FAILED' if FAILURES else 'PASSED'} in {time.monotonic() - t0:.2f} s")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
