/* The lineage chart's page (inlined by src/chart/html.c): hover, panel, search, range zoom,
 * keyboard, the view kept in the URL fragment.  Plain DOM; text goes in as textContent only. */
(function () {
  'use strict';
  function byId(id) { return document.getElementById(id); }
  var root = byId('maintevo-chart');
  var data = JSON.parse(byId('maintevo-chart-data').textContent);
  var svg = byId('maintevo-chart-svg'), plot = byId('maintevo-chart-plot');
  var panel = byId('maintevo-chart-panel'), tip = byId('maintevo-chart-tooltip');
  var search = byId('maintevo-chart-search'), results = byId('maintevo-chart-results');
  var selFrom = byId('maintevo-chart-from'), selTo = byId('maintevo-chart-to');
  var status = byId('maintevo-chart-status'), reset = byId('maintevo-chart-reset');
  var R = data.releases, X = data.x, n = R.length;
  var state = { lineage: null, from: 0, to: n - 1, q: '' };
  var lastFocus = null;

  /* A record is an array; data.fields names its fields, per kind of record, in the order
   * src/chart/html.c writes them, so the script reads them by name.  The few (the plot
   * area, the lineages) become objects; the many (events, sections, paths) stay arrays,
   * read through their names' indexes: e[E.support].  In sections and paths the last
   * two fields are a pair repeated to the end of the record. */
  function fieldsOf(names) { var at = {}; names.forEach(function (k, i) { at[k] = i; }); return at; }
  function record(names, a) { var o = {}; names.forEach(function (k, i) { o[k] = a[i]; }); return o; }
  var E = fieldsOf(data.fields.events), S = fieldsOf(data.fields.sections), P = fieldsOf(data.fields.paths);
  var area = record(data.fields.plot, data.plot), left = area.left, right = area.right;

  /* lineages by id; bands by their data-lineage */
  var lineages = data.lineages.map(lineageRecord);
  var lin = {};
  lineages.forEach(function (l) { lin[l.id] = l; });
  var band = {};
  data.bands.forEach(function (b, i) { band[String(b.id)] = b; b.index = i; });
  var bandEls = Array.prototype.slice.call(svg.querySelectorAll('path.band'));
  /* --- names: what a lineage's cluster is called where one looks (src/chart/names.c) --- */
  /* a lineage's record, its pairs (at, called) as l.names: [[release, name], ...] */
  function lineageRecord(a) {
    var f = data.fields.lineages, l = record(f, a), at = f.indexOf('at');
    l.names = [];
    for (var k = at; k + 1 < a.length; k += 2) l.names.push([a[k], a[k + 1]]);
    return l;
  }
  /* the name lineage id's cluster has at release r: the last change at or before it */
  function nameAt(id, r) {
    var l = lin[id], name = l ? l.name : 'lineage ' + id;
    if (l) l.names.forEach(function (p) { if (p[0] <= r) name = p[1]; });
    return name;
  }
  /* "CLOCK, now DEVICETREE REBASING SUBTREE": the name it holds for good at its end too */
  function titleOf(l) {
    return l.now ? l.name + ', ' + (l.last === n - 1 ? 'now ' : 'later ') + l.now : l.name;
  }
  /* another lineage in an event at release r: by the name its cluster has there */
  function nameThere(id, r) {
    var there = nameAt(id, r);
    return there === nameOf(id) ? there : there + ' (lineage ' + nameOf(id) + ')';
  }
  /* the panel's list of a renamed lineage's names, release by release */
  function namesList(l) {
    var ul = el('ul', null, 'mc-names'), runs = l.names.slice();
    if (!runs.length || runs[0][0] > l.first) runs.unshift([l.first, l.name]);
    runs.forEach(function (p, i) {
      var end = i + 1 < runs.length ? runs[i + 1][0] - 1 : l.last;
      var li = el('li', p[1] + ': ' + R[p[0]] + (end > p[0] ? '\u2013' + R[end] : ''));
      li.setAttribute('data-release', R[p[0]]);
      ul.appendChild(li);
    });
    return ul;
  }

  function keyOf(id) { var l = lin[id]; return l && l.band ? String(id) : 'other'; }
  function nameOf(id) { return lin[id] ? lin[id].name : 'lineage ' + id; }
  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  function fmt(v) { return Number(v).toLocaleString('en-US'); }

  /* --- the tooltip: under the mouse, or beside the band that has the keyboard's focus --- */
  function releaseAt(ev) {
    var pt = svg.createSVGPoint();
    pt.x = ev.clientX; pt.y = ev.clientY;
    var p = pt.matrixTransform(plot.getScreenCTM().inverse());
    var best = 0;
    for (var r = 1; r < n; r++) if (Math.abs(X[r] - p.x) < Math.abs(X[best] - p.x)) best = r;
    return best;
  }
  /* the tooltip of band `key` at release r, with its corner near (x, y) in the window */
  function showTip(key, r, x, y) {
    var b = band[key];
    if (!b) return;
    var name = key === 'other' ? 'other lineages' : nameOf(Number(key));
    var lines = [name, R[r] + ': ' + fmt(b.lines[r]) + ' lines, ' +
                 (data.has_files ? fmt(b.files[r]) + ' files, ' : '') + fmt(b.sections[r]) + ' sections'];
    if (!b.lines[r] && !b.sections[r]) lines[1] = R[r] + ': not alive';
    else if (key !== 'other' && nameAt(Number(key), r) !== name) lines.push('called ' + nameAt(Number(key), r) + ' there');
    tip.textContent = lines.join('\n');
    tip.hidden = false;
    var tx = x + 14, ty = y + 14;
    if (tx + tip.offsetWidth > window.innerWidth) tx = x - tip.offsetWidth - 8;
    if (ty + tip.offsetHeight > window.innerHeight) ty = y - tip.offsetHeight - 8;
    tip.style.left = tx + 'px'; tip.style.top = ty + 'px';
  }
  svg.addEventListener('mousemove', function (ev) {
    var t = ev.target;
    if (t.classList && t.classList.contains('band')) showTip(t.getAttribute('data-lineage'), releaseAt(ev), ev.clientX, ev.clientY);
    else tip.hidden = true;
  });
  svg.addEventListener('mouseleave', function () { tip.hidden = true; });
  /* A focused band's tooltip is at its largest node in view: the release where it is
   * at its largest, and the node's right edge, from the band's drawing (a node is
   * "M x y h w v h h -w Z"). */
  function largestRelease(b) {
    var v = b[data.measure], best = state.from;
    for (var r = state.from; r <= state.to; r++) if (v[r] > v[best]) best = r;
    return best;
  }
  function nodeEdge(bandEl, r) {
    var re = /M([-\d.]+) ([-\d.]+)h([-\d.]+)v([-\d.]+)h/g, m, best = null;
    while ((m = re.exec(bandEl.getAttribute('d')))) {
      var x = Number(m[1]) + Number(m[3]) / 2;
      if (!best || Math.abs(x - X[r]) < Math.abs(best.x - X[r]))
        best = { x: x, right: Number(m[1]) + Number(m[3]), y: Number(m[2]) + Number(m[4]) / 2 };
    }
    var pt = svg.createSVGPoint();
    pt.x = best ? best.right : X[r]; pt.y = best ? best.y : area.top;
    return pt.matrixTransform(plot.getScreenCTM());
  }
  /* only a focus the browser shows (the keyboard's, not a click's: that one has the
   * tooltip under the mouse already) */
  bandEls.forEach(function (b) {
    b.setAttribute('aria-describedby', tip.id);
    b.addEventListener('focus', function () {
      if (!b.matches(':focus-visible')) return;
      var key = b.getAttribute('data-lineage'), r = largestRelease(band[key]), at = nodeEdge(b, r);
      showTip(key, r, at.x, at.y - 14);
    });
    b.addEventListener('blur', function () { tip.hidden = true; });
  });

  /* --- the panel -------------------------------------------------------- */
  function explainCmd(id, a, b) {
    var cmd = ['maintevo', 'explain'];
    if (data.store) cmd.push('--store', shq(data.store));
    cmd.push('--from', shq(R[a]), '--to', shq(R[b]), '--lineage', String(id));
    return cmd.join(' ');
  }
  function shq(s) { return /^[A-Za-z0-9._\/+:=@-]+$/.test(s) ? s : "'" + s.replace(/'/g, "'\\''") + "'"; }
  function eventsOf(id) {
    return data.events.filter(function (e) { return e[E.from_lineage] === id || e[E.to_lineage] === id; });
  }
  /* an event: its kind, pair and support, and below them with whom and (withCause) why;
   * returns its first row */
  function eventRows(table, e, id, withCause) {
    var kind = e[E.kind], rel = e[E.release], from = e[E.from_lineage], support = e[E.support];
    var tr = el('tr', null, 'mc-head'), other = from === id ? e[E.to_lineage] : from;
    tr.setAttribute('data-kind', kind);
    tr.setAttribute('data-from', R[rel - 1]);
    tr.setAttribute('data-to', R[rel]);
    tr.appendChild(el('td', kind));
    tr.appendChild(el('td', R[rel - 1] + ' \u2192 ' + R[rel]));
    tr.appendChild(el('td', support === null ? '' : Math.round(support * 100) + '%'));
    table.appendChild(tr);
    var td = el('td');
    td.colSpan = 3;
    if (other && other !== id)
      td.appendChild(el('div', (from === id ? 'to ' + nameThere(other, rel) : 'from ' + nameThere(other, rel - 1)) +
                               ' (' + fmt(e[E.lines]) + ' lines)'));
    else if (lin[id].first < rel && lin[id].last >= rel && nameAt(id, rel - 1) !== nameAt(id, rel))
      td.appendChild(el('div', 'its cluster ' + nameAt(id, rel - 1) + ' \u2192 ' + nameAt(id, rel) +
                               ' (' + fmt(e[E.lines]) + ' lines)', 'mc-own'));
    if (e[E.cause_kind] && withCause) td.appendChild(el('div', 'cause (' + e[E.cause_kind] + '): ' + e[E.cause], 'mc-cause'));
    if (td.firstChild) {
      var why = el('tr', null, 'mc-why');
      why.appendChild(td);
      table.appendChild(why);
    } else {
      tr.className = '';
    }
    return tr;
  }
  /* The events of one release pair that share a cause: the cause once, in a row of its
   * own (data-events: how many it explains), the events it explains under it. */
  function causeGroups(events) {
    var groups = [], at = {};
    events.forEach(function (e) {
      var key = e[E.cause_kind] ? [e[E.release], e[E.cause_kind], e[E.cause]].join('\u0000') : null;
      if (key !== null && at[key] !== undefined) { groups[at[key]].push(e); return; }
      if (key !== null) at[key] = groups.length;
      groups.push([e]);
    });
    return groups;
  }
  function eventTable(table, events, id) {
    causeGroups(events).forEach(function (g) {
      if (g.length === 1) { eventRows(table, g[0], id, true); return; }
      var tr = el('tr', null, 'mc-group'), td = el('td');
      td.colSpan = 3;
      td.appendChild(el('div', 'cause (' + g[0][E.cause_kind] + ') of the ' + g.length + ' events below: ' + g[0][E.cause], 'mc-cause'));
      tr.setAttribute('data-events', String(g.length));
      tr.appendChild(td);
      table.appendChild(tr);
      g.forEach(function (e) { eventRows(table, e, id, false).classList.add('mc-grouped'); });
    });
  }
  function sectionsOf(id) {
    var per = [];
    for (var r = 0; r < n; r++) per.push([]);
    data.sections.forEach(function (s) {
      if (s[S.lineage] !== id) return;
      for (var k = S.start; k + 1 < s.length; k += 2) for (var r = s[k]; r <= s[k + 1]; r++) per[r].push(s[S.title]);
    });
    return per;
  }
  function sectionList(id) {
    var per = sectionsOf(id), ul = el('ul'), prev = null;
    for (var r = 0; r < n; r++) {
      var cur = per[r].slice().sort();
      if (!cur.length && !prev) continue;
      var text;
      if (!prev) text = cur.join(', ');
      else {
        var add = cur.filter(function (t) { return prev.indexOf(t) < 0; });
        var del = prev.filter(function (t) { return cur.indexOf(t) < 0; });
        if (!add.length && !del.length) continue;
        text = add.map(function (t) { return '+ ' + t; }).concat(del.map(function (t) { return '\u2212 ' + t; })).join(', ');
      }
      var li = el('li');
      li.setAttribute('data-release', R[r]);
      li.appendChild(el('strong', R[r] + ' (' + cur.length + '): '));
      li.appendChild(document.createTextNode(text));
      ul.appendChild(li);
      prev = cur.length ? cur : null;
    }
    return ul;
  }
  /* --- listed people (src/chart/people.c; only when the store has a flow) --- */
  var L = data.fields.listed ? fieldsOf(data.fields.listed) : null;
  var PE = data.fields.people ? fieldsOf(data.fields.people) : null;
  function inSpans(s, r) {
    for (var k = S.start; k + 1 < s.length; k += 2) if (s[k] <= r && r <= s[k + 1]) return true;
    return false;
  }
  /* the people listed in lineage id's sections at release r: {title, name, entry, role, state, last} */
  function listedAt(id, r) {
    var out = [];
    data.listed.forEach(function (a) {
      var s = data.sections[a[L.section]], cur = -1;
      if (s[S.lineage] !== id || !inSpans(s, r)) return;
      for (var k = L.release; k + 2 < a.length && a[k] <= r; k += 3) cur = k;
      if (cur < 0 || a[cur + 1] === '') return;
      var p = data.people[a[L.person]];
      out.push({ title: s[S.title], name: p[PE.name], entry: p[PE.entry], role: a[L.role],
                 state: a[cur + 1], last: a[cur + 2] });
    });
    out.sort(function (x, y) {
      return x.title < y.title ? -1 : x.title > y.title ? 1 : x.role < y.role ? -1 : x.role > y.role ? 1
        : (x.name || x.entry).localeCompare(y.name || y.entry);
    });
    return out;
  }
  function day(d) { return d === null ? '' : new Date(d * 86400000).toISOString().slice(0, 10); }
  function peopleTable(box, id, r) {
    while (box.firstChild) box.removeChild(box.firstChild);
    var rows = listedAt(id, r), count = {}, sections = 0, table = el('table', null, 'mc-people'), head = el('tr'), title = null;
    rows.forEach(function (p) { count[p.state] = (count[p.state] || 0) + 1; });
    ['state', 'person', 'role', 'last active'].forEach(function (h) { head.appendChild(el('th', h)); });
    table.appendChild(head);
    rows.forEach(function (p) {
      if (p.title !== title) {
        var tr = el('tr', null, 'mc-sec'), td = el('td', p.title);
        td.colSpan = 4;
        tr.appendChild(td);
        table.appendChild(tr);
        title = p.title; sections++;
      }
      var row = el('tr');
      row.setAttribute('data-state', p.state);
      row.appendChild(el('td', p.state.replace('_', ' '), 'mc-state'));
      var who = el('td', p.name || p.entry);
      who.title = p.entry;
      row.appendChild(who);
      row.appendChild(el('td', p.role));
      row.appendChild(el('td', day(p.last)));
      table.appendChild(row);
    });
    var sum = rows.length + ' listed in ' + sections + ' sections';
    ['active', 'quiet', 'gone', 'never_seen', 'unknown'].forEach(function (k) {
      if (count[k]) sum += ', ' + count[k] + ' ' + k.replace('_', ' ');
    });
    box.appendChild(el('p', rows.length ? sum : 'No one is listed in its sections at ' + R[r] + '.'));
    if (rows.length) box.appendChild(table);
  }
  /* the panel's part "Listed people": at the release chosen in it (first the last one in view) */
  function peoplePart(id, l) {
    if (!L || !data.listed) return;
    panel.appendChild(el('h3', 'Listed people'));
    var p = el('p', 'M: and R: of its sections at '), sel = el('select'), box = el('div');
    sel.id = 'maintevo-chart-people-release';
    for (var r = l.first; r <= l.last; r++) {
      var o = el('option', R[r]);
      o.value = String(r);
      sel.appendChild(o);
    }
    sel.value = String(Math.max(l.first, Math.min(l.last, state.to)));
    p.appendChild(sel);
    panel.appendChild(p);
    box.id = 'maintevo-chart-people';
    panel.appendChild(box);
    sel.addEventListener('change', function () { peopleTable(box, id, Number(sel.value)); });
    peopleTable(box, id, Number(sel.value));
  }
  /* the panel's heading: where the keyboard's focus goes when the panel opens, and its name */
  function heading(text) {
    var h = el('h2', text);
    h.id = 'maintevo-chart-panel-heading';
    h.tabIndex = -1;
    panel.appendChild(h);
  }
  function otherPanel() {
    var small = lineages.filter(function (l) { return !l.band; });
    heading('other: ' + small.length + ' smaller lineages');
    panel.appendChild(el('p', 'Each is drawn together with the others in the grey band; the largest of them:'));
    small.sort(function (a, b) { return b.peak - a.peak || a.id - b.id; });
    var ul = el('ul');
    small.slice(0, 30).forEach(function (l) {
      ul.appendChild(el('li', l.name + ' (lineage ' + l.id + ', ' + R[l.first] + '\u2013' + R[l.last] + ', peak ' + fmt(l.peak) + ')'));
    });
    panel.appendChild(ul);
  }
  function fillPanel(key) {
    while (panel.firstChild) panel.removeChild(panel.firstChild);
    var close = el('button', 'Close', 'mc-close');
    close.type = 'button';
    close.addEventListener('click', function () { closePanel(); });
    panel.appendChild(close);
    panel.setAttribute('data-lineage', key);
    if (key === 'other') { otherPanel(); return; }
    var id = Number(key), l = lin[id];
    panel.style.borderLeftColor = band[key] ? band[key].color : '#888';
    heading(titleOf(l));
    var meta = 'lineage ' + id + ', ' + R[l.first] + ' to ' + R[l.last] + ', at most ' + fmt(l.peak) + ' ' + data.measure;
    if (l.parent) meta += '; split from ' + nameOf(l.parent);
    panel.appendChild(el('p', meta));
    if (l.names.length) {
      panel.appendChild(el('p', 'The name of its cluster, release by release:'));
      panel.appendChild(namesList(l));
    }
    panel.appendChild(el('p', 'The whole account, with every MAINTAINERS and file change:'));
    panel.appendChild(el('code', explainCmd(id, Math.max(l.first - 1, 0), Math.min(l.last + 1, n - 1))));
    peoplePart(id, l);
    panel.appendChild(el('h3', 'Events'));
    var table = el('table'), head = el('tr');
    ['event', 'releases', 'support'].forEach(function (h) { head.appendChild(el('th', h)); });
    table.appendChild(head);
    eventTable(table, eventsOf(id), id);
    panel.appendChild(table);
    var det = el('details'), sum = el('summary', 'Sections per release (changes only)');
    det.appendChild(sum);
    det.appendChild(sectionList(id));
    panel.appendChild(det);
  }
  /* focus: move the keyboard's focus to the panel's heading (a selection by keyboard) */
  function select(key, focus) {
    bandEls.forEach(function (b) {
      var on = b.getAttribute('data-lineage') === key;
      b.classList.toggle('selected', on);
      b.setAttribute('aria-expanded', on ? 'true' : 'false');
    });
    if (key === null || !band[key] && !lin[key]) { panel.hidden = true; state.lineage = null; return; }
    state.lineage = key;
    fillPanel(key);
    panel.hidden = false;
    if (focus) byId('maintevo-chart-panel-heading').focus();
  }
  /* Esc, or Close, gives the focus back to where the panel was opened from */
  function openPanel(key, focus) {
    lastFocus = document.activeElement;
    select(key, focus);
    save();
  }
  function closePanel() {
    select(null);
    save();
    if (lastFocus && lastFocus.focus) lastFocus.focus();
  }
  bandEls.forEach(function (b) {
    b.setAttribute('aria-controls', panel.id);
    b.addEventListener('click', function () { openPanel(b.getAttribute('data-lineage'), false); });
    b.addEventListener('keydown', function (ev) {
      if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); openPanel(b.getAttribute('data-lineage'), true); }
    });
  });
  document.addEventListener('keydown', function (ev) {
    if (ev.key === 'Escape' && !panel.hidden) { ev.preventDefault(); closePanel(); }
  });

  /* --- search ----------------------------------------------------------- */
  var fullPaths = null;
  function pathsMatching(q) {
    if (!data.paths || !data.paths.length) return [];
    if (!fullPaths) fullPaths = data.paths.map(function (p) { return data.dirs[p[P.dir]] + p[P.name]; });
    var dir = q.replace(/\/+$/, '') + '/', out = [];
    fullPaths.forEach(function (p, i) { if (p === q || p.lastIndexOf(dir, 0) === 0) out.push(i); });
    return out;
  }
  function find(q) {
    var hits = {}, why = {}, ql = q.toLowerCase();
    function hit(id, reason) { if (!hits[id]) { hits[id] = 1; why[id] = reason; } }
    pathsMatching(q).forEach(function (i) {
      var p = data.paths[i];
      for (var k = P.release; k + 1 < p.length; k += 2) data.sets[p[k + 1]].forEach(function (id) { hit(id, 'covered ' + q); });
    });
    lineages.forEach(function (l) { if (l.name.toLowerCase().indexOf(ql) >= 0) hit(l.id, 'name'); });
    lineages.forEach(function (l) {
      l.names.forEach(function (p) { if (p[1].toLowerCase().indexOf(ql) >= 0) hit(l.id, 'called ' + p[1] + ' from ' + R[p[0]]); });
    });
    data.sections.forEach(function (s) {
      if (s[S.title].toLowerCase().indexOf(ql) >= 0) hit(s[S.lineage], 'section ' + s[S.title]);
    });
    return { ids: Object.keys(hits).map(Number).sort(function (a, b) { return a - b; }), why: why };
  }
  /* The results are a listbox (role=option each) with one stop for Tab: the option
   * last moved to; arrow keys, Home and End move among them, Down from the search box
   * enters them, Up from the first leaves them; Enter opens a lineage's panel.  The
   * status (a live region) says how many match. */
  var listed = 200, active = 0;
  function options() { return Array.prototype.slice.call(results.children); }
  function moveTo(i, focus) {
    var all = options();
    if (!all.length) return;
    active = Math.max(0, Math.min(i, all.length - 1));
    all.forEach(function (li, k) {
      li.tabIndex = k === active ? 0 : -1;
      li.setAttribute('aria-selected', k === active ? 'true' : 'false');
    });
    if (focus) all[active].focus();
  }
  function resultKey(ev) {
    var i = options().indexOf(ev.target);
    if (ev.key === 'ArrowDown') moveTo(i + 1, true);
    else if (ev.key === 'ArrowUp') { if (i > 0) moveTo(i - 1, true); else search.focus(); }
    else if (ev.key === 'Home') moveTo(0, true);
    else if (ev.key === 'End') moveTo(options().length - 1, true);
    else if (ev.key === 'Enter' || ev.key === ' ') openPanel(keyOf(Number(ev.target.getAttribute('data-lineage'))), true);
    else if (ev.key === 'Escape' && panel.hidden) search.focus();
    else return;
    ev.preventDefault();
  }
  results.addEventListener('keydown', resultKey);
  results.addEventListener('click', function (ev) {
    var li = ev.target.closest('li');
    if (li) { moveTo(options().indexOf(li), false); openPanel(keyOf(Number(li.getAttribute('data-lineage'))), false); }
  });
  function applySearch() {
    var q = state.q.trim();
    while (results.firstChild) results.removeChild(results.firstChild);
    bandEls.forEach(function (b) { b.classList.remove('hit'); });
    root.classList.toggle('searching', q !== '');
    results.hidden = true;
    if (q === '') { status.textContent = ''; return; }
    var f = find(q), keys = {};
    f.ids.forEach(function (id) { keys[keyOf(id)] = 1; });
    bandEls.forEach(function (b) { if (keys[b.getAttribute('data-lineage')]) b.classList.add('hit'); });
    status.textContent = f.ids.length + (f.ids.length === 1 ? ' lineage matches' : ' lineages match') +
      (f.ids.length > listed ? ', the first ' + listed + ' listed' : '');
    f.ids.slice(0, listed).forEach(function (id) {
      var li = el('li', nameOf(id) + (keyOf(id) === 'other' ? ' (in other)' : '') + ' \u2014 ' + f.why[id]);
      li.setAttribute('role', 'option');
      li.setAttribute('data-lineage', String(id));
      results.appendChild(li);
    });
    results.hidden = !f.ids.length;
    moveTo(0, false);
  }
  var timer = null;
  function searchNow() { clearTimeout(timer); state.q = search.value; applySearch(); save(); }
  search.addEventListener('input', function () {
    clearTimeout(timer);
    timer = setTimeout(searchNow, 150);
  });
  search.addEventListener('keydown', function (ev) {
    if (ev.key === 'Enter') searchNow();
    else if (ev.key === 'ArrowDown') {
      if (state.q !== search.value) searchNow();
      if (!results.hidden) { ev.preventDefault(); moveTo(active, true); }
    }
  });

  /* --- range ------------------------------------------------------------ */
  R.forEach(function (t, i) {
    var a = el('option', t), b = el('option', t);
    a.value = b.value = String(i);
    selFrom.appendChild(a); selTo.appendChild(b);
  });
  function applyRange() {
    var a = state.from, b = state.to;
    selFrom.value = String(a); selTo.value = String(b);
    var whole = a === 0 && b === n - 1;
    var sx = whole ? 1 : (right - left) / (X[b] - X[a]);
    var tx = whole ? 0 : left - X[a] * sx;
    function mx(x) { return tx + x * sx; }
    if (whole) plot.removeAttribute('transform');
    else plot.setAttribute('transform', 'translate(' + tx + ' 0) scale(' + sx + ' 1)');
    function inside(x) { return x >= left - 8 && x <= right + 8; }
    svg.querySelectorAll('.marks circle').forEach(function (c) {
      if (!c.hasAttribute('data-x')) c.setAttribute('data-x', c.getAttribute('cx'));
      var x = mx(Number(c.getAttribute('data-x')));
      c.setAttribute('cx', x); c.style.display = inside(x) ? '' : 'none';
    });
    svg.querySelectorAll('.marks rect').forEach(function (c) {
      if (!c.hasAttribute('data-x')) c.setAttribute('data-x', c.getAttribute('x'));
      var x = mx(Number(c.getAttribute('data-x')) + 1) - 1;
      c.setAttribute('x', x); c.style.display = inside(x) ? '' : 'none';
    });
    svg.querySelectorAll('.labels text').forEach(function (t) {
      if (!t.hasAttribute('data-x')) t.setAttribute('data-x', t.getAttribute('x'));
      var x = mx(Number(t.getAttribute('data-x'))), tr = t.getAttribute('transform');
      t.setAttribute('x', x); t.style.display = whole || (x >= left && x < right - 40) ? '' : 'none';
      if (tr) t.setAttribute('transform', tr.replace(/rotate\(([-\d.]+) [^ ]+ /, 'rotate($1 ' + x + ' '));
    });
    svg.querySelectorAll('.axis text').forEach(function (t) {
      var r = Number(t.getAttribute('data-release'));
      if (!t.hasAttribute('data-x')) t.setAttribute('data-x', t.getAttribute('x'));
      var dx = mx(X[r]) - X[r], x = Number(t.getAttribute('data-x')) + dx;
      t.setAttribute('x', x);
      var tr = t.getAttribute('transform');
      if (tr) t.setAttribute('transform', tr.replace(/rotate\(-90 [^ ]+ /, 'rotate(-90 ' + x + ' '));
      t.style.display = r >= a && r <= b ? '' : 'none';
      if (t.previousSibling && t.previousSibling.nodeName === 'path') t.previousSibling.style.display = t.style.display;
    });
    placeUnread(mx, a, b);
  }
  /* A release whose script leaves MAINTAINERS files of its tree unread: its mark
   * (a triangle at the plot's top, drawn by unread.c) follows the range, and says why
   * in the tooltip on keyboard focus as its <title> does under the mouse. */
  function placeUnread(mx, a, b) {
    svg.querySelectorAll('.unread-mark').forEach(function (m) {
      var r = Number(m.getAttribute('data-release'));
      if (!m.hasAttribute('data-d')) m.setAttribute('data-d', m.getAttribute('d'));
      m.setAttribute('d', m.getAttribute('data-d').replace(/^M[-\d.]+/, 'M' + mx(X[r]).toFixed(1)));
      m.style.display = r >= a && r <= b ? '' : 'none';
    });
  }
  function unreadTips() {
    svg.querySelectorAll('.unread-mark').forEach(function (m) {
      m.addEventListener('focus', function () {
        var box = m.getBoundingClientRect();
        tip.textContent = m.getAttribute('aria-label');
        tip.hidden = false;
        tip.style.left = Math.max(0, Math.min(box.left, window.innerWidth - tip.offsetWidth - 8)) + 'px';
        tip.style.top = box.bottom + 6 + 'px';
      });
      m.addEventListener('blur', function () { tip.hidden = true; });
    });
  }
  unreadTips();
  function rangeChanged() {
    var a = Number(selFrom.value), b = Number(selTo.value);
    if (b <= a) { if (this === selFrom) b = Math.min(a + 1, n - 1); else a = Math.max(b - 1, 0); }
    if (b <= a) { a = 0; b = n - 1; }
    state.from = a; state.to = b;
    applyRange(); save();
  }
  selFrom.addEventListener('change', rangeChanged);
  selTo.addEventListener('change', rangeChanged);
  reset.addEventListener('click', function () { state.from = 0; state.to = n - 1; applyRange(); save(); });

  /* --- the view in the URL fragment -------------------------------------- */
  function save() {
    var parts = [];
    if (state.lineage !== null) parts.push('lineage=' + encodeURIComponent(state.lineage));
    if (state.from !== 0) parts.push('from=' + encodeURIComponent(R[state.from]));
    if (state.to !== n - 1) parts.push('to=' + encodeURIComponent(R[state.to]));
    if (state.q.trim() !== '') parts.push('q=' + encodeURIComponent(state.q.trim()));
    var h = parts.length ? '#' + parts.join('&') : '';
    if (location.hash !== h) history.replaceState(null, '', h || location.pathname + location.search);
  }
  function load() {
    var p = {};
    location.hash.replace(/^#/, '').split('&').forEach(function (kv) {
      var i = kv.indexOf('=');
      if (i > 0) {
        try { p[kv.slice(0, i)] = decodeURIComponent(kv.slice(i + 1)); } catch (e) { /* a bad escape: ignored */ }
      }
    });
    var a = p.from !== undefined ? R.indexOf(p.from) : 0, b = p.to !== undefined ? R.indexOf(p.to) : n - 1;
    state.from = a >= 0 ? a : 0; state.to = b >= 0 ? b : n - 1;
    if (state.to <= state.from) { state.from = 0; state.to = n - 1; }
    state.q = p.q || '';
    search.value = state.q;
    applyRange();
    applySearch();
    var key = p.lineage !== undefined && (band[p.lineage] || lin[p.lineage]) ? p.lineage : null;
    if (key !== null && !band[key]) key = keyOf(Number(key));
    select(key, false);
  }
  window.addEventListener('hashchange', load);
  load();
  root.setAttribute('data-ready', '1');
})();
