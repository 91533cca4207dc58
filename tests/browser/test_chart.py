#!/usr/bin/env python3
"""test_chart.py MAINTEVO SOURCE_DIR: the lineage chart ('maintevo chart') in
headless Chromium, on the demo history and on a hostile one built here.

Asserts on the DOM after the page's script ran: one band per lineage shown
(and "other"), a real click opens the panel with that lineage's events (as
'maintevo events' lists them), the keyboard (Tab to a band shows its tooltip,
Enter moves into the panel, Esc back to the band; the search's results a
listbox the arrow keys walk, counted by a live region), the search for a path lights
the lineages 'maintevo history PATH' names, the URL fragment restores the
view after a reload, nothing but the page is requested, no console error;
titles and paths holding markup, quotes, newlines, right-to-left text and
1000-byte names show as text and run nothing; a release whose script
leaves MAINTAINERS files unread is marked, and the mark says why; after
'maintevo flow' each lineage's panel lists, at each of its releases, the
people 'export listed' names in its sections there, with state and last
date (a name holding quotes and an entity as text), and without flow nothing
of people.
Exit 0 pass, 1 fail, 77 skipped (no chromium, no git)."""
import csv
import io
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402

FAILS = []


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print("FAIL:", what)
    return cond


def run(*args, cwd=None, env=None):
    p = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"FAIL: {' '.join(args)} exited {p.returncode}: {p.stderr.strip()}")
    return p.stdout


def rows(text):
    return list(csv.DictReader(io.StringIO(text)))


def git_env(tmp):
    env = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null", HOME=tmp,
               GIT_AUTHOR_NAME="A U Thor", GIT_AUTHOR_EMAIL="author@example.org",
               GIT_COMMITTER_NAME="C O Mitter", GIT_COMMITTER_EMAIL="committer@example.org",
               LC_ALL="C", TZ="UTC")
    return env


def click_band(p, key):
    """A real click inside band `key`: the middle of its tallest node."""
    pt = p.eval("""(() => {
        const b = document.querySelector('path.band[data-lineage="%s"]');
        b.scrollIntoView({block: 'center'});
        let best = null;
        for (const m of b.getAttribute('d').matchAll(/M([-\\d.]+) ([-\\d.]+)h([-\\d.]+)v([-\\d.]+)h/g)) {
            const r = {x: +m[1] + +m[3] / 2, y: +m[2] + +m[4] / 2, h: +m[4]};
            if (!best || r.h > best.h) best = r;
        }
        const svg = document.getElementById('maintevo-chart-svg'), pt = svg.createSVGPoint();
        pt.x = best.x; pt.y = best.y;
        const q = pt.matrixTransform(document.getElementById('maintevo-chart-plot').getScreenCTM());
        const hit = document.elementFromPoint(q.x, q.y);
        return {x: q.x, y: q.y, ok: hit === b};
    })()""" % key)
    check(pt["ok"], f"the middle of band {key}'s tallest node is on the band")
    p._mouse("mouseMoved", pt["x"], pt["y"])
    for kind in ("mousePressed", "mouseReleased"):
        p._mouse(kind, pt["x"], pt["y"], button="left", buttons=1, clickCount=1)


def page_data(page):
    """The JSON the page's script reads."""
    with open(page, encoding="utf-8") as fh:
        html = fh.read()
    start = html.index('id="maintevo-chart-data">') + len('id="maintevo-chart-data">')
    return json.loads(html[start:html.index("</script>", start)])


def check_fields(data, lineages, events):
    """Every record holds the fields "fields" names for its kind, in that order."""
    f = data["fields"]
    check(len(data["plot"]) == len(f["plot"]), "the plot area has its four fields")
    check(all(len(r) == len(f["events"]) for r in data["events"]), f"every record of events has {f['events']}")
    for kind in ("lineages", "sections", "paths"):  # the last two names: a pair repeated to the end
        fixed = len(f[kind]) - 2
        check(all(len(r) >= fixed and (len(r) - fixed) % 2 == 0 for r in data[kind]),
              f"every record of {kind} has {f[kind][:fixed]} and whole pairs")
    name = {int(r["lineage"]): r["name"] for r in lineages}
    L = {k: i for i, k in enumerate(f["lineages"])}
    check(all(name.get(r[L["id"]]) == r[L["name"]] for r in data["lineages"]),
          "each lineage's id and name as 'lineages' prints them")
    E = {k: i for i, k in enumerate(f["events"])}
    tags = data["releases"]
    said = {(e["event"], e["from_release"], e["to_release"]) for e in events}
    check(all((r[E["kind"]], tags[r[E["release"]] - 1], tags[r[E["release"]]]) in said for r in data["events"]),
          "each event's kind and release as 'events' prints them")


def panel_events(p):
    return sorted(tuple(r) for r in p.eval("""Array.from(document.querySelectorAll(
        '#maintevo-chart-panel tr[data-kind]')).map(r => [r.dataset.kind, r.dataset.from, r.dataset.to])"""))


def check_focus_tooltip(p, key, lineages):
    """The focused band (focused by the keyboard) shows its tooltip: its name first."""
    name = "other lineages" if key == "other" else next(r["name"] for r in lineages if r["lineage"] == key)
    tip = p.eval("""(() => { const t = document.getElementById('maintevo-chart-tooltip'), r = t.getBoundingClientRect();
        return {hidden: t.hidden, text: t.textContent, x: r.x, y: r.y, w: r.width, h: r.height,
                inside: r.x >= 0 && r.y >= 0 && r.right <= innerWidth && r.bottom <= innerHeight}; })()""")
    check(tip["hidden"] is False, f"focusing band {key} shows the tooltip")
    check(tip["text"].split("\n")[0] == name, f"the tooltip names the lineage: {tip['text']!r}, want {name!r}")
    check(tip["inside"] and tip["w"] > 0, f"the tooltip is inside the window: {tip}")
    check(p.eval("document.activeElement.getAttribute('aria-describedby')") == "maintevo-chart-tooltip",
          "the band is described by the tooltip")


def type_search(p, text):
    """Type into the search box as a user does (no Enter); wait for the search (the URL says it)."""
    p.eval("(() => { const s = document.getElementById('maintevo-chart-search'); s.value = ''; s.focus(); })()")
    p.send("Input.insertText", {"text": text})
    return p.eval("""new Promise(ok => { const t0 = Date.now(); (function wait() {
        const s = document.getElementById('maintevo-chart-status').textContent;
        if (location.hash.includes('q=' + encodeURIComponent(%s)) || Date.now() - t0 > 3000) ok(s);
        else setTimeout(wait, 20); })(); })""" % json.dumps(text))


def check_search_keyboard(p, lineages):
    """Search results: a listbox of options, counted by a live region, walked by arrows, opened by Enter."""
    p.eval("document.getElementById('maintevo-chart-search').value = ''")
    p.key("Enter")  # an empty search: no results, no status
    q = "usb"  # in the demo: two lineages, one of them in "other"
    want = sorted(int(r["lineage"]) for r in lineages if q in r["name"].lower())
    said = type_search(p, q.upper())
    ids = [int(x) for x in p.eval("Array.from(document.querySelectorAll('#maintevo-chart-results li'))"
                                  ".map(li => li.dataset.lineage)")]
    check(set(want) <= set(ids) and ids, f"typing {q!r} lists {ids}, holding {want}")
    n = len(ids)
    check(said == "%d %s" % (n, "lineage matches" if n == 1 else "lineages match"), f"the status says {said!r}")
    live = p.eval("""(() => { const s = document.getElementById('maintevo-chart-status');
        return [s.getAttribute('role'), s.getAttribute('aria-live'), s.getAttribute('aria-atomic')]; })()""")
    check(live == ["status", "polite", "true"], f"the status is a live region: {live}")
    lb = p.eval("""(() => { const u = document.getElementById('maintevo-chart-results');
        return {role: u.getAttribute('role'), label: u.getAttribute('aria-label'), hidden: u.hidden,
                roles: Array.from(u.children).map(li => li.getAttribute('role')),
                selected: Array.from(u.children).map(li => li.getAttribute('aria-selected')),
                tabs: Array.from(u.children).map(li => li.tabIndex),
                controls: document.getElementById('maintevo-chart-search').getAttribute('aria-controls')}; })()""")
    check(lb["role"] == "listbox" and lb["label"] and not lb["hidden"], f"the results are a named listbox: {lb}")
    check(set(lb["roles"]) == {"option"}, "each result is an option")
    check(lb["selected"][0] == "true" and lb["selected"][1:].count("true") == 0, "the first option is selected")
    check(lb["tabs"][0] == 0 and all(t == -1 for t in lb["tabs"][1:]), "one Tab stop in the list")
    check(lb["controls"] == "maintevo-chart-results", "the search box controls the list")
    p.key("ArrowDown")
    check(p.eval("document.activeElement.getAttribute('role')") == "option" and
          p.eval("document.activeElement.dataset.lineage") == str(ids[0]), "Down from the box: the first result")
    if n > 1:
        p.key("ArrowDown")
        check(p.eval("document.activeElement.dataset.lineage") == str(ids[1]) and
              p.eval("document.activeElement.getAttribute('aria-selected')") == "true", "Down: the second")
    chosen = p.eval("document.activeElement.dataset.lineage")
    p.key("Enter")
    key = p.eval("document.getElementById('maintevo-chart-panel').dataset.lineage")
    band = p.eval("!!document.querySelector('path.band[data-lineage=\"%s\"]')" % chosen)
    check(key == (chosen if band else "other"), f"Enter on result {chosen} opens its panel ({key})")
    check(p.eval("document.getElementById('maintevo-chart-panel').contains(document.activeElement)"),
          "and moves the focus into it")
    p.key("Escape")
    check(p.eval("document.activeElement.dataset.lineage") == chosen and
          p.eval("document.activeElement.getAttribute('role')") == "option", "Esc: back on the result")
    for _ in range(n):
        p.key("ArrowUp")
    check(p.eval("document.activeElement.id") == "maintevo-chart-search", "Up from the first: the search box")
    said = type_search(p, "no such lineage, section or path")
    check(said == "0 lineages match" and p.eval("document.getElementById('maintevo-chart-results').hidden"),
          f"nothing found: said, and no empty list ({said!r})")


def search(p, q):
    p.eval("document.getElementById('maintevo-chart-search').focus()")
    p.eval("document.getElementById('maintevo-chart-search').value = %s" % json.dumps(q))
    p.key("Enter")
    return sorted(int(x) for x in p.eval("""Array.from(document.querySelectorAll(
        '#maintevo-chart-results li')).map(li => li.dataset.lineage)"""))


def panel_people(p):
    """The panel's listed people: [section, person, entry, role, state, last active] per row."""
    return p.eval("""(() => {
        const out = []; let sec = null;
        for (const tr of document.querySelectorAll('#maintevo-chart-people tr')) {
            const td = tr.querySelectorAll('td');
            if (tr.classList.contains('mc-sec')) { sec = tr.textContent; continue; }
            if (!td.length) continue;
            out.push([sec, td[1].textContent, td[1].title, td[2].textContent, tr.dataset.state, td[3].textContent]);
        }
        return out;
    })()""")


def want_people(listed, data, lid, r):
    """What 'export listed' says of the sections of lineage lid at release r (as the panel shows it)."""
    S = {k: i for i, k in enumerate(data["fields"]["sections"])}
    titles = {s[S["title"]] for s in data["sections"] if s[S["lineage"]] == lid and
              any(s[k] <= r <= s[k + 1] for k in range(S["start"], len(s) - 1, 2))}
    return sorted({(x["section"], x["name"] or x["entry"], x["entry"], x["role"], x["state"], x["last_active"][:10])
                   for x in listed if x["release"] == data["releases"][r] and x["section"] in titles})


def check_people(p, mev, store, page, lid, what):
    """Lineage lid's panel lists, at each of its releases, the people 'export listed' names
    in its sections there, with their state and last date; at first the last release in view."""
    data = page_data(page)
    listed = rows(run(mev, "export", "listed", "--store", store))
    L = {k: i for i, k in enumerate(data["fields"]["lineages"])}
    rec = next(x for x in data["lineages"] if x[L["id"]] == lid)
    p.eval("document.querySelector('path.band[data-lineage=\"%d\"]').dispatchEvent(new MouseEvent('click'))" % lid)
    sel = "document.getElementById('maintevo-chart-people-release')"
    check(p.eval(sel + ".value") == str(rec[L["last"]]), f"{what}: the people at the lineage's last release first")
    seen = 0
    for r in range(rec[L["first"]], rec[L["last"]] + 1):
        p.eval(sel + ".value = '%d'; %s.dispatchEvent(new Event('change'))" % (r, sel))
        got, want = sorted({tuple(x) for x in panel_people(p)}), want_people(listed, data, lid, r)
        check(got == want, f"{what}: lineage {lid} at {data['releases'][r]}: the panel's people\n{got}\n"
                           f"'export listed' says\n{want}")
        seen += len(got)
    check(seen > 0, f"{what}: lineage {lid} lists someone")
    p.key("Escape")


def test_demo(mev, src, tmp, b):
    env = git_env(tmp)
    run("bash", os.path.join(src, "scripts/make-demo-repo.sh"), os.path.join(tmp, "demo"), env=env)
    store = os.path.join(tmp, "demo.store")
    run(mev, "walk", "--repo", os.path.join(tmp, "demo"), "--store", store, "-q")
    run(mev, "track", "--store", store, "-q")
    run(mev, "flow", "--repo", os.path.join(tmp, "demo"), "--store", store, "-q")  # the panel's people
    lineages = rows(run(mev, "lineages", "--store", store))
    events = rows(run(mev, "events", "--store", store))
    top = 6
    page = os.path.join(tmp, "chart.html")
    run(mev, "chart", "--store", store, "--top", str(top), "-o", page)
    check_fields(page_data(page), lineages, events)
    t0 = time.time()
    p = b.open(page, width=1400, height=900)
    print("demo: opened in %.0f ms; timing %s" % ((time.time() - t0) * 1000, p.timing()))
    check(p.requests == [cdp.to_url(page)], f"nothing but the page requested: {p.requests}")
    check(p.console_errors == [], f"no console errors: {p.console_errors}")
    check(p.eval("document.getElementById('maintevo-chart').dataset.ready") == "1", "the script ran")
    keys = p.eval("Array.from(document.querySelectorAll('#maintevo-chart path.band')).map(e => e.dataset.lineage)")
    check(len(keys) == top + 1, f"{top} bands and other: {keys}")
    check("other" in keys, "an 'other' band")
    ids = {int(r["lineage"]) for r in lineages}
    check(all(k == "other" or int(k) in ids for k in keys), "every band is a lineage 'lineages' prints")

    # a click opens the panel with the lineage's events, as 'events' lists them
    shown = [int(k) for k in keys if k != "other"]
    target = max(shown, key=lambda i: sum(1 for e in events if e["event"] not in ("continuation",)
                                          and (int(e["lineage"]) == i or e["from_lineage"] == str(i))))
    want = sorted((e["event"], e["from_release"], e["to_release"]) for e in events
                  if int(e["lineage"]) == target or e["from_lineage"] == str(target))
    click_band(p, str(target))
    check(p.eval("document.getElementById('maintevo-chart-panel').hidden") is False, "the panel opened")
    check(p.eval("document.getElementById('maintevo-chart-panel').dataset.lineage") == str(target),
          "the panel shows the lineage clicked")
    got = panel_events(p)
    check(got == want, f"the panel's events are those of 'maintevo events' for lineage {target}:\n{got}\n{want}")
    name = next(r["name"] for r in lineages if int(r["lineage"]) == target)
    now = lineage_now(page_data(page), target)
    check(p.eval("document.querySelector('#maintevo-chart-panel h2').textContent") ==
          (f"{name}, now {now}" if now else name), "the panel's heading")
    check(f"--lineage {target}" in p.eval("document.querySelector('#maintevo-chart-panel code').textContent"),
          "the reproducing command")
    check(p.eval("location.hash") == f"#lineage={target}", "the selection is in the URL")
    p.key("Escape")
    check(p.eval("document.getElementById('maintevo-chart-panel').hidden") is True, "Esc closes the panel")
    check(p.eval("location.hash") == "", "closing clears the URL's selection")

    # each band's panel: its events' support as 'events' prints it (read by field name)
    for key in shown:
        want = sorted("" if not e["support"] else "%d%%" % math.floor(float(e["support"]) * 100 + 0.5)
                      for e in events if int(e["lineage"]) == key or e["from_lineage"] == str(key))
        got = p.eval("""(() => {
            document.querySelector('path.band[data-lineage="%d"]').dispatchEvent(new MouseEvent('click'));
            return Array.from(document.querySelectorAll(
                '#maintevo-chart-panel tr[data-kind] td:nth-child(3)')).map(td => td.textContent);
        })()""" % key)
        check(sorted(got) == want, f"lineage {key}: the panel's support {sorted(got)}, 'events' says {want}")
    p.key("Escape")

    # keyboard: Tab moves from band to band, Enter opens, Esc closes and gives focus back
    p.eval("document.querySelector('#maintevo-chart path.band').focus()")
    p.key("Tab")
    second = p.eval("document.activeElement.dataset.lineage")
    check(second == keys[1], f"Tab reaches the second band ({second} vs {keys[1]})")
    check_focus_tooltip(p, second, lineages)
    p.key("Enter")
    check(p.eval("document.getElementById('maintevo-chart-panel').dataset.lineage") == second and
          p.eval("document.getElementById('maintevo-chart-panel').hidden") is False, "Enter opens its panel")
    check(p.eval("document.getElementById('maintevo-chart-panel').contains(document.activeElement)"),
          "Enter moves the focus into the panel")
    check(p.eval("document.activeElement.id") == "maintevo-chart-panel-heading" and
          p.eval("document.getElementById('maintevo-chart-panel').getAttribute('aria-labelledby')") ==
          "maintevo-chart-panel-heading", "the focus on the panel's heading, which names the panel")
    check(p.eval("document.activeElement.matches(':focus-visible')"), "the heading shows its focus")
    check(p.eval("document.getElementById('maintevo-chart-tooltip').hidden") is True,
          "the tooltip leaves with the focus")
    p.key("Escape")
    check(p.eval("document.getElementById('maintevo-chart-panel').hidden") is True, "Esc closes it")
    check(p.eval("document.activeElement.matches('path.band')") and
          p.eval("document.activeElement.dataset.lineage") == second, "focus back on the band")
    p.key("Tab")
    p.key("Tab", shift=True)
    p.key(" ")
    check(p.eval("document.getElementById('maintevo-chart-panel').contains(document.activeElement)"),
          "Space opens the panel too")
    p.key("Tab", shift=True)
    check(p.eval("document.activeElement.classList.contains('mc-close')"), "Shift+Tab: the panel's Close")
    p.key("Enter")
    check(p.eval("document.getElementById('maintevo-chart-panel').hidden") is True and
          p.eval("document.activeElement.dataset.lineage") == second, "Close gives the focus back to the band")
    check_search_keyboard(p, lineages)
    check_names(p, mev, store, page, lineages, events, keys)
    for key in shown:
        check_people(p, mev, store, page, key, "demo")

    # a path lights the lineages that covered it, as 'history PATH' says
    path = "drivers/tty/serial/8250/8250_core.c"
    hist = rows(run(mev, "history", "--store", store, path, "--format", "csv"))
    want_ids = sorted({int(r["lineage"]) for r in hist if r["lineage"]})
    got_ids = search(p, path)
    check(got_ids == want_ids, f"search {path}: {got_ids}, 'history' says {want_ids}")
    lit = p.eval("Array.from(document.querySelectorAll('path.band.hit')).map(e => e.dataset.lineage)")
    want_keys = {str(i) if str(i) in keys else "other" for i in want_ids}
    check(set(lit) == want_keys, f"the bands lit: {lit}, want {sorted(want_keys)}")
    folder = "drivers/tty/"
    hist = rows(run(mev, "history", "--store", store, folder, "--format", "csv"))
    want_ids = sorted({int(r["lineage"]) for r in hist if r["lineage"]})
    got_ids = search(p, folder)
    check(set(want_ids) <= set(got_ids), f"search {folder}: {got_ids} holds {want_ids}")

    # the URL fragment restores a view after a reload
    p.eval("location.hash = '#lineage=%s&from=v1.2&to=v1.5&q=%s'" % (keys[0], "serial"))
    p.reload()
    check(p.eval("document.getElementById('maintevo-chart-panel').dataset.lineage") == keys[0] and
          p.eval("document.getElementById('maintevo-chart-panel').hidden") is False, "reload: the panel")
    check(p.eval("document.getElementById('maintevo-chart-search').value") == "serial", "reload: the search")
    check(p.eval("document.getElementById('maintevo-chart-from').selectedOptions[0].textContent") == "v1.2" and
          p.eval("document.getElementById('maintevo-chart-to').selectedOptions[0].textContent") == "v1.5",
          "reload: the range")
    check((p.eval("document.getElementById('maintevo-chart-plot').getAttribute('transform')") or "").startswith(
        "translate("), "reload: the plot is zoomed")
    check(p.eval("document.querySelectorAll('path.band.hit').length") > 0, "reload: the search lit bands")
    check(set(p.requests) == {cdp.to_url(page)}, f"still nothing else requested: {p.requests}")
    check(p.console_errors == [], f"no console errors after all that: {p.console_errors}")
    p.close()


def names_by_release(mev, store, lineages):
    """(lineage, release) -> the name its cluster has there as the chart shows it: the
    representative's display name of its first cluster by number ('export clusters'), or
    its stable name when that is the name (a taken name's " (TAG)" aside)."""
    first = {int(r["lineage"]): (r["name"], r["first_release"]) for r in lineages}
    best = {}
    for r in rows(run(mev, "export", "clusters", "--store", store)):
        if not r["lineage"]:
            continue
        key = (int(r["lineage"]), r["release"])
        if key not in best or int(r["cluster"]) < best[key][0]:
            name, tag = first[key[0]]
            d = r["representative_display_name"]
            best[key] = (int(r["cluster"]), name if name in (d, f"{d} ({tag})") else d)
    return {k: v[1] for k, v in best.items()}


def held_names(names, tags, lid):
    """docs/user-guide.md's rule, written again here: a name held for good is the first, or
    one that holds 2 releases in a row or more; returns the marks (release where a held
    name differs from the one held before) and the name held at the end."""
    runs = []
    for t in tags:
        if (lid, t) in names:
            if runs and runs[-1][1] == names[(lid, t)]:
                runs[-1][2] += 1
            else:
                runs.append([t, names[(lid, t)], 1])
    marks, held = [], runs[0][1] if runs else None
    for t, name, n in runs[1:]:
        if n >= 2 and name != held:
            marks.append(t)
        if n >= 2:
            held = name
    return marks, held


def lineage_now(data, lid):
    L = {k: i for i, k in enumerate(data["fields"]["lineages"])}
    rec = next(r for r in data["lineages"] if r[L["id"]] == lid)
    return rec[L["now"]]


def cut_equal(text, want):
    """text is want, or want cut with an ellipsis."""
    return text == want or (text.endswith("\u2026") and want.startswith(text[:-1].rstrip()) and len(text) > 1)


def check_names(p, mev, store, page, lineages, events, keys):
    """Point 2 of issue 40: labels by the name at their release, "now" in legend and panel,
    a ring where a name changes for good; and the panel's events grouped by shared cause."""
    data = page_data(page)
    tags = data["releases"]
    names = names_by_release(mev, store, lineages)
    stable = {int(r["lineage"]): r["name"] for r in lineages}
    shown = [int(k) for k in keys if k != "other"]
    labels = p.eval("""Array.from(document.querySelectorAll('text.label')).map(t =>
        [t.dataset.lineage, t.dataset.release, t.textContent])""")
    check(len(labels) > 0, "band labels drawn")
    for key, rel, text in labels:
        if key == "other":
            continue
        want = names.get((int(key), tags[int(rel)]))
        check(want is not None and cut_equal(text, want),
              f"the label of band {key} at {tags[int(rel)]} is the name there: {text!r}, want {want!r}")
    marks = sorted((int(c[0]), c[1]) for c in p.eval("""Array.from(document.querySelectorAll(
        'circle.rename')).map(c => [c.dataset.lineage, c.dataset.release])"""))
    want_marks, renamed = [], {}
    for lid in shown:
        m, held = held_names(names, tags, lid)
        want_marks += [(lid, str(tags.index(t))) for t in m]
        if held != stable[lid]:
            renamed[lid] = held
    check(marks == sorted(want_marks), f"rings where a name changes for good: {marks}, want {sorted(want_marks)}")
    check(len(marks) > 0 and renamed, "the demo has a lineage renamed for good")
    last = {int(r["lineage"]): r["last_name"] for r in lineages}
    legend = p.eval("""Array.from(document.querySelectorAll('g.legend text')).map(t =>
        [t.textContent, t.querySelector('tspan.now') ? t.querySelector('tspan.now').textContent : null])""")
    for lid in shown:
        entry = [e for e in legend if f"[{lid}]" in e[0]]
        if not check(len(entry) == 1, f"lineage {lid} in the legend once"):
            continue
        if lid in renamed:
            check(last[lid] == renamed[lid], f"lineage {lid}: the name held at its end is 'lineages' last_name")
            check(lineage_now(data, lid) == renamed[lid], f"lineage {lid}: the page's now")
            check(entry[0][1] is not None and cut_equal(entry[0][1].strip(), "now " + renamed[lid]),
                  f"lineage {lid}'s legend says what it holds now: {entry[0][0]!r}")
            check(entry[0][0].startswith(stable[lid][:12]) and f"[{lid}], now " in entry[0][0],
                  f"the legend reads 'NAME [ID], now NAME': {entry[0][0]!r}")
            p.eval("document.querySelector('path.band[data-lineage=\"%d\"]').dispatchEvent(new MouseEvent('click'))" % lid)
            h = p.eval("document.querySelector('#maintevo-chart-panel h2').textContent")
            check(h == f"{stable[lid]}, now {renamed[lid]}", f"the panel's heading says both names: {h!r}")
            listed = p.eval("Array.from(document.querySelectorAll('#maintevo-chart-panel ul.mc-names li')).length")
            check(listed >= 2, f"the panel lists lineage {lid}'s names ({listed})")
        else:
            check(entry[0][1] is None, f"lineage {lid} keeps its name: no 'now' in the legend")
    for lid, held in renamed.items():  # a lineage is found by the name it holds now too
        words = [w for w in held.lower().split() if w not in stable[lid].lower()]
        if not words:
            continue
        found = search(p, words[0])
        why = p.eval("(document.querySelector('#maintevo-chart-results li[data-lineage=\"%d\"]') || {}).textContent" % lid)
        check(lid in found and "called " + held in (why or ""),
              f"searching {words[0]!r} finds lineage {lid} by its name now: {why!r}")
    check_grouped_causes(p, events, shown)
    p.key("Escape")


def check_grouped_causes(p, events, shown):
    """The events of one pair that share a cause: the cause once, the events under it."""
    groups = 0
    for lid in shown:
        mine = [e for e in events if int(e["lineage"]) == lid or e["from_lineage"] == str(lid)]
        shared = {}
        for e in mine:
            if e["cause_kind"]:
                shared.setdefault((e["from_release"], e["to_release"], e["cause_kind"], e["cause"]), []).append(e)
        want = sorted(len(v) for v in shared.values() if len(v) > 1)
        got = p.eval("""(() => {
            document.querySelector('path.band[data-lineage="%d"]').dispatchEvent(new MouseEvent('click'));
            const causes = Array.from(document.querySelectorAll('#maintevo-chart-panel .mc-cause')).map(d => d.textContent);
            return {groups: Array.from(document.querySelectorAll('#maintevo-chart-panel tr.mc-group')).map(
                        tr => +tr.dataset.events), causes: causes,
                    grouped: document.querySelectorAll('#maintevo-chart-panel tr.mc-grouped[data-kind]').length};
        })()""" % lid)
        check(sorted(got["groups"]) == want, f"lineage {lid}: cause groups {got['groups']}, want {want}")
        check(got["grouped"] == sum(want), f"lineage {lid}: {sum(want)} events listed under their cause")
        for (a, b, kind, cause), v in shared.items():
            n = sum(1 for c in got["causes"] if c.endswith(cause))
            check(n == 1, f"lineage {lid} {a}->{b}: the cause shared by {len(v)} events printed once ({n})")
        groups += len(want)
    check(groups > 0, "the demo has events of one pair that share a cause")


HOSTILE = [
    "</script><img src=x onerror=alert(1)>",
    "\"QUOTED\" 'SINGLE' & <b>bold</b> &amp;",
    "\u202eRIGHT-TO-LEFT \u05e9\u05dc\u05d5\u05dd \u0645\u0631\u062d\u0628\u0627 \u2028 \U0001f600 NUL\x7f",
    "L" * 1000,
]


# git drops '<' and '>' from a name: an entity, quotes and right-to-left text instead
HOSTILE_NAME = "Eve &amp; \"q\" 'q' \u202etxt"


def maintainers(titles):
    out = []
    for i, t in enumerate(titles):
        out += [t, "M: Someone <s%d@example.org>" % i, "S: Maintained", "F: h%d/" % i, ""]
    return "\n".join(out) + "\n"


def test_hostile(mev, src, tmp, b):
    env = git_env(tmp)
    repo = os.path.join(tmp, "hostile")
    os.makedirs(repo)
    run("git", "-c", "init.defaultBranch=master", "init", "-q", repo, env=env)
    files = {
        "h0/<img src=x onerror=alert(2)>.c": 40,
        "h0/a</script>b/c.c": 30,
        "h1/new\nline \"q\" 'q'.c": 25,
        "h2/\u202etxt.exe": 20,
        "h3/" + "/".join(["d" * 240] * 4) + ".c": 35,
    }
    for path, n in files.items():
        full = os.path.join(repo, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write("x\n" * n)
    titles = HOSTILE
    for k, tag in enumerate(["v1.0", "v1.1", "v1.2"]):
        # v1.1 moves a file between sections and grows another
        if k:
            with open(os.path.join(repo, "h1/more%d.c" % k), "w") as f:
                f.write("y\n" * 50 * k)
        with open(os.path.join(repo, "MAINTAINERS"), "w") as f:
            f.write(maintainers(titles))
        d = dict(env, GIT_AUTHOR_DATE=f"{1577880000 + k * 86400} +0000",
                 GIT_COMMITTER_DATE=f"{1577880000 + k * 86400} +0000")
        if k:  # the listed people of h1, under a name holding markup, do the work there
            d.update(GIT_AUTHOR_NAME=HOSTILE_NAME, GIT_AUTHOR_EMAIL="s1@example.org")
        run("git", "-C", repo, "add", "-A", env=d)
        run("git", "-C", repo, "commit", "-q", "-m", tag, env=d)
        run("git", "-C", repo, "tag", tag, env=d)
    store = os.path.join(tmp, "hostile.store")
    run(mev, "walk", "--repo", repo, "--store", store, "--dialect", "linux", "-q")
    run(mev, "track", "--store", store, "-q")
    lineages = rows(run(mev, "lineages", "--store", store))
    page = os.path.join(tmp, "hostile.html")
    run(mev, "chart", "--store", store, "--top", "0", "-o", page)
    svgf = os.path.join(tmp, "hostile.svg")
    run(mev, "chart", "--store", store, "--format", "svg", "-o", svgf)
    import xml.etree.ElementTree as ET
    try:
        ET.parse(svgf)
    except ET.ParseError as e:
        check(False, f"the SVG is XML: {e}")
    raw = open(page, encoding="utf-8").read()
    check(raw.count("</script>") == 2 and "<img" not in raw, "no title's markup in the page's bytes")
    p = b.open(page, width=1400, height=900)
    p.send("Page.addScriptToEvaluateOnNewDocument", {
        "source": "window.alert = window.confirm = window.prompt = function () {"
                  " document.documentElement.setAttribute('data-alerted', '1'); };"})
    p.reload()
    check(set(p.requests) == {cdp.to_url(page)}, f"hostile: nothing but the page requested: {p.requests}")
    check(p.console_errors == [], f"hostile: no console errors: {p.console_errors}")
    check(p.eval("document.documentElement.getAttribute('data-alerted')") is None, "hostile: nothing ran")
    check(p.eval("document.querySelectorAll('img, b, script:not([id]):not(:last-of-type)').length") == 0,
          "hostile: no element made of a title or path")
    check(p.eval("document.getElementById('maintevo-chart').dataset.ready") == "1", "hostile: the script ran")
    labels = p.eval("Array.from(document.querySelectorAll('path.band')).map(e => e.getAttribute('aria-label'))")
    for t in titles[:2]:
        check(t in labels, f"hostile: the title {t[:40]!r} is a band's label, as text")
    for r in lineages:
        key = r["lineage"]
        if p.eval("!!document.querySelector('path.band[data-lineage=\"%s\"]')" % key):
            click_band(p, key)
            h = p.eval("document.querySelector('#maintevo-chart-panel h2').textContent")
            check(h == r["name"], f"hostile: the panel's heading is the name as text: {h[:60]!r}")
            p.key("Escape")
    for path in files:
        if "\n" in path:
            continue  # an <input> drops newlines from what is typed into it
        got = search(p, path)
        check(len(got) >= 1, f"hostile: searching {path[:50]!r} finds its lineage")
    check(p.eval("document.querySelectorAll('img, b').length") == 0, "hostile: still no element made of text")
    check(p.eval("document.documentElement.getAttribute('data-alerted')") is None, "hostile: still nothing ran")
    check(p.console_errors == [], f"hostile: no console errors at the end: {p.console_errors}")
    check(p.eval("document.querySelector('#maintevo-chart-panel') && "
                 "document.querySelectorAll('#maintevo-chart-people').length") == 0,
          "hostile, no flow: the panel says nothing of people")
    p.close()

    # after flow: the panel's people, the name that holds markup as text
    run(mev, "flow", "--repo", repo, "--store", store, "-q")
    run(mev, "chart", "--store", store, "--top", "0", "-o", page)
    p = b.open(page, width=1400, height=900)
    for r in lineages:
        if p.eval("!!document.querySelector('path.band[data-lineage=\"%s\"]')" % r["lineage"]):
            check_people(p, mev, store, page, int(r["lineage"]), "hostile")
    names = set()
    for r in lineages:
        p.eval("document.querySelector('path.band[data-lineage=\"%s\"]').dispatchEvent(new MouseEvent('click'))"
               % r["lineage"])
        names |= {(x[1], x[4]) for x in panel_people(p)}
    check((HOSTILE_NAME, "active") in names, f"hostile: {HOSTILE_NAME!r} listed, active, as text: {names}")
    check(p.eval("document.querySelectorAll('img, b').length") == 0, "hostile: no element made of a name")
    check(p.console_errors == [], f"hostile, with people: no console errors: {p.console_errors}")
    p.close()


def test_unread(mev, src, tmp, b):
    """A release whose script leaves MAINTAINERS files unread (the planted
    U-Boot v2021.10 of tests/fixtures/unread-repo.sh) is marked, the mark's
    tooltip and the legend say why, keyboard focus shows the reason, and
    the mark follows the range."""
    env = git_env(tmp)
    repo, store = os.path.join(tmp, "unread"), os.path.join(tmp, "unread.store")
    run("bash", "-c", '. "$1" && make_unread_repo "$2"', "-",
        os.path.join(src, "tests/fixtures/unread-repo.sh"), repo, env=env)
    # a fourth release, so that a range can leave v2021.10 out
    run("git", "-C", repo, "commit", "-q", "--allow-empty", "-m", "v2022.04", env=env)
    run("git", "-C", repo, "tag", "v2022.04", env=env)
    run(mev, "walk", "--repo", repo, "--store", store, "-q")
    run(mev, "cluster", "--store", store, "-q")
    run(mev, "track", "--store", store, "-q")
    page = os.path.join(tmp, "unread.html")
    run(mev, "chart", "--store", store, "-o", page)
    p = b.open(page, width=1400, height=900)
    check(p.console_errors == [], f"unread: no console errors: {p.console_errors}")
    marks = p.eval("Array.from(document.querySelectorAll('.unread-mark')).map(m => "
                   "[m.dataset.release, m.dataset.unread, m.querySelector('title').textContent])")
    check(len(marks) == 1 and marks[0][:2] == ["1", "2"], f"unread: one mark, at v2021.10, for 2 files: {marks}")
    check(marks and marks[0][2].startswith("v2021.10: its own get_maintainer.pl does not read 2 MAINTAINERS files"),
          f"unread: the mark's tooltip says why: {marks}")
    box = p.eval("(() => { const r = document.querySelector('.unread-mark').getBoundingClientRect();"
                 " return [r.width, r.height]; })()")
    check(box[0] >= 8 and box[1] >= 6, f"unread: the mark is visible: {box}")
    legend = p.eval("Array.from(document.querySelectorAll('.legend text')).map(t => t.textContent).join(' ')")
    check("its script leaves MAINTAINERS files unread" in legend, f"unread: a legend line says it: {legend!r}")
    p.eval("document.querySelector('.unread-mark').focus()")
    tip = p.eval("(() => { const t = document.getElementById('maintevo-chart-tooltip');"
                 " return [t.hidden, t.textContent]; })()")
    check(tip[0] is False and "does not read 2 MAINTAINERS files" in tip[1],
          f"unread: keyboard focus shows the reason: {tip}")
    x0 = p.eval("document.querySelector('.unread-mark').getBoundingClientRect().x")
    p.eval("(() => { const s = document.getElementById('maintevo-chart-from'); s.value = '1';"
           " s.dispatchEvent(new Event('change')); })()")
    x1 = p.eval("document.querySelector('.unread-mark').getBoundingClientRect().x")
    check(x1 < x0 - 100, f"unread: the mark follows the range to v2021.10's new place ({x0} -> {x1})")
    p.eval("(() => { const s = document.getElementById('maintevo-chart-from'); s.value = '2';"
           " s.dispatchEvent(new Event('change')); })()")
    check(p.eval("document.getElementById('maintevo-chart-from').value") == "2", "unread: the range is v2022.01 on")
    check(p.eval("document.querySelector('.unread-mark').style.display") == "none",
          "unread: the mark hides when its release is out of the range")
    p.close()


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    mev, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    if cdp.chromium_path() is None:
        print("SKIP: no chromium")
        return 77
    if shutil.which("git") is None:
        print("SKIP: no git")
        return 77
    tmp = tempfile.mkdtemp(prefix="maintevo-chart.")
    try:
        with cdp.Browser() as b:
            test_demo(mev, src, tmp, b)
            test_hostile(mev, src, tmp, b)
            test_unread(mev, src, tmp, b)
    finally:
        if not os.environ.get("MEV_TEST_KEEP"):
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print("kept", tmp)
    print("%d check(s) failed" % len(FAILS) if FAILS else "all checks passed")
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
