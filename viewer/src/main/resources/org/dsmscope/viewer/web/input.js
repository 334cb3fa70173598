// dsmscope view: input: the legend and filters (seed 002 §4.4, §4.6), search, details of a clicked bar, arrow or
// event, zoom and pan by keys, wheel and drag, the overview's window, and the help overlay.
'use strict';
(function () {
  const D = window.dsmview.internal;
  const {S, COLORS, COMM_MARKS, LEFT, $, api, fmt, filterParams, stCanvas, plotWidth, tAt} = D;

  // ---------------------------------------------------------------- legend and filters
  function buildLegend() {
    const el = $('legend');
    el.innerHTML = '';
    const items = S.meta.states.slice();
    for (const k of S.meta.arrowKinds) items.push(k);
    // CIAT's communication events on a replayed trace set (their own colours)
    for (const k of S.meta.kinds) if (COMM_MARKS.includes(k.name)) items.push(k.name);
    for (const name of items) {
      const it = document.createElement('span');
      it.className = 'item';
      const c = document.createElement('input');
      c.type = 'color';
      c.value = COLORS[name] || '#888888';
      c.title = 'colour of ' + name;
      c.addEventListener('input', () => { COLORS[name] = c.value; D.requestDraw(true); D.drawTables(); });
      it.appendChild(c);
      it.appendChild(document.createTextNode(name + (S.meta.arrowKinds.includes(name) ? ' arrows'
        : COMM_MARKS.includes(name) ? ' marks' : '')));
      el.appendChild(it);
    }
  }
  function checks(container, label, values, current, key) {
    const el = $(container);
    el.innerHTML = label + ' ';
    const set = current ? current.split(',') : values.map((v) => String(v.value));
    for (const v of values) {
      const l = document.createElement('label');
      const c = document.createElement('input');
      c.type = 'checkbox';
      c.value = v.value;
      c.checked = set.includes(String(v.value));
      c.addEventListener('change', () => {
        const on = [...el.querySelectorAll('input')].filter((x) => x.checked).map((x) => x.value);
        S.filters[key] = on.length === values.length ? '' : on.join(',');
        if (on.length === 0) S.filters[key] = 'none';
        D.scheduleLoad();
      });
      l.appendChild(c);
      l.appendChild(document.createTextNode(v.label));
      el.appendChild(l);
    }
  }
  function buildFilters() {
    $('fSeg').value = S.filters.seg;
    $('fEc').value = S.filters.ec;
    checks('fArrows', 'arrows', S.meta.arrowKinds.map((k) => ({value: k, label: k})), S.filters.arrows, 'arrows');
    const levels = [...new Set(S.meta.kinds.map((k) => k.level))];
    checks('fLevel', 'levels', levels.map((l) => ({value: l, label: l})), S.filters.level, 'level');
    checks('fProc', 'processes', S.meta.lanes.map((l, i) => ({value: i, label: l.name})), S.filters.proc, 'proc');
    const mt = S.filters.mtype.split(',');
    for (const c of $('fMtype').querySelectorAll('input')) c.checked = mt.includes(c.value);
  }
  function wireFilters() {
    const text = (id, key) => $(id).addEventListener('change', () => { S.filters[key] = $(id).value.replace(/\s+/g, ''); D.scheduleLoad(); });
    text('fSeg', 'seg');
    text('fEc', 'ec');
    for (const c of $('fMtype').querySelectorAll('input')) {
      c.addEventListener('change', () => {
        const on = [...$('fMtype').querySelectorAll('input')].filter((x) => x.checked).map((x) => x.value);
        S.filters.mtype = on.length ? on.join(',') : 'none';
        D.scheduleLoad();
      });
    }
    $('filters').addEventListener('submit', (e) => e.preventDefault());
  }

  // ---------------------------------------------------------------- details, search
  function showDetails(obj) {
    const el = $('details');
    el.innerHTML = '';
    const tbl = document.createElement('table');
    const row = (k, v) => {
      const tr = document.createElement('tr');
      const a = document.createElement('td'); a.textContent = k;
      const b = document.createElement('td'); b.textContent = v;
      tr.appendChild(a); tr.appendChild(b); tbl.appendChild(tr);
    };
    const ev = (prefix, e) => {
      row(prefix + 'type', e.type + ' (' + e.level + ')');
      row(prefix + 'process', e.process + (e.peer !== undefined && e.peer >= 0 ? ' (peer ' + e.peer + ')' : ''));
      row(prefix + 'time', fmt(e.time) + (e.duration > 0 ? ' for ' + fmt(e.duration) : ''));
      for (const f of Object.keys(e.fields)) row(prefix + f, e.fields[f]);
    };
    if (obj.kind) {
      row('arrow', obj.kind + (obj.messageType ? ' (' + obj.messageType + ')' : ''));
      row('from', obj.from + ' at ' + fmt(obj.fromTime));
      row('to', obj.to + ' at ' + fmt(obj.toTime));
      for (const k of ['context', 'eventcount', 'address']) if (obj[k] !== undefined) row(k, obj[k]);
      if (obj.source) ev('from.', obj.source);
      if (obj.destination) ev('to.', obj.destination);
    } else if (obj.type) {
      ev('', obj);
    } else {
      for (const k of Object.keys(obj)) row(k, obj[k]);
    }
    el.appendChild(tbl);
    el.dataset.kind = obj.kind || obj.type || 'lane';
  }
  function distSeg(px, py, a) {
    const dx = a.x2 - a.x1, dy = a.y2 - a.y1;
    const L = dx * dx + dy * dy || 1;
    const u = Math.max(0, Math.min(1, ((px - a.x1) * dx + (py - a.y1) * dy) / L));
    const qx = a.x1 + u * dx, qy = a.y1 + u * dy;
    return Math.hypot(px - qx, py - qy);
  }
  function click(px, py) {
    if (S.hit.t0 !== S.t0 || S.hit.t1 !== S.t1) D.redraw(); // the picture on screen is a shifted one: draw it
    const d = S.drawn;
    let best = null, bd = 5;
    for (let i = 0; i < S.hit.na; i++) {
      const a = D.hitArrow(i);
      const dist = distSeg(px, py, a);
      if (dist < bd) { bd = dist; best = a; }
    }
    if (best && best.id >= 0) {
      S.selected = {arrow: best.id};
      return api('/api/arrow', {id: best.id}).then((j) => { showDetails(j); D.redraw(); });
    }
    if (best) { showDetails({bundle: best.count + ' ' + best.kind + ' arrows', hint: 'zoom in to see them one by one'}); return Promise.resolve(); }
    const hm = S.hit.marks;
    for (let i = 0; i < 5 * S.hit.nm; i += 5) {
      if (px >= hm[i + 1] - 1 && px <= hm[i + 2] + 1 && py >= hm[i + 3] && py <= hm[i + 4]) {
        S.selected = {event: hm[i]};
        return api('/api/event', {id: hm[i]}).then(showDetails);
      }
    }
    for (const ln of d.lanes) {
      if (py >= ln.y0 - 4 && py <= ln.y1 + 4) {
        const t = tAt(px);
        const s = D.stateAt(ln.lane, t);
        showDetails({bar: S.meta.lanes[ln.lane].name, time: fmt(t), state: s < 0 ? 'not running' : S.meta.states[s]});
        return Promise.resolve();
      }
    }
    return Promise.resolve();
  }
  function search(dir) {
    const q = $('q').value.trim();
    if (!q) return Promise.resolve();
    const from = S.search && S.search.q === q ? S.search.time : (dir === 'next' ? S.t0 - 1 : S.t1 + 1);
    return api('/api/search', Object.assign(filterParams(), {q, from, dir})).then((r) => {
      if (r.id < 0) { $('searchInfo').textContent = r.matches + ' matches; no ' + dir + ' one'; return; }
      S.search = {q, time: r.time, id: r.id};
      $('searchInfo').textContent = r.matches + ' matches; at ' + fmt(r.time);
      const w = S.t1 - S.t0;
      S.t0 = r.time - w / 2;
      S.t1 = r.time + w / 2;
      S.cursor = r.time;
      S.selected = {event: r.id};
      showDetails(r.event);
      return D.load();
    }).catch(D.showError);
  }

  // ---------------------------------------------------------------- zoom and pan
  function zoom(factor, center) {
    const c = center === undefined ? (S.cursor !== null && S.cursor > S.t0 && S.cursor < S.t1 ? S.cursor : (S.t0 + S.t1) / 2) : center;
    const w = Math.max(10, (S.t1 - S.t0) * factor);
    const f = (c - S.t0) / (S.t1 - S.t0);
    S.t0 = c - f * w;
    S.t1 = S.t0 + w;
    S.follow = false;
    $('follow').checked = false;
    D.scheduleLoad();
  }
  function pan(fraction) {
    const w = S.t1 - S.t0;
    S.t0 += w * fraction;
    S.t1 += w * fraction;
    S.follow = false;
    $('follow').checked = false;
    D.scheduleLoad();
  }
  function whole() {
    S.t0 = 0;
    S.t1 = Math.max(1, S.meta.end);
    D.scheduleLoad();
  }

  function wire() {
    const c = stCanvas();
    let drag = null;
    c.addEventListener('wheel', (e) => {
      e.preventDefault();
      const r = c.getBoundingClientRect();
      if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) pan((e.deltaX || e.deltaY) / 1000);
      else zoom(e.deltaY > 0 ? 1.25 : 0.8, tAt(e.clientX - r.left));
    }, {passive: false});
    c.addEventListener('mousedown', (e) => { drag = {x: e.clientX, t0: S.t0, t1: S.t1, moved: false}; c.focus(); });
    window.addEventListener('mousemove', (e) => {
      const r = c.getBoundingClientRect();
      if (e.target === c) { S.cursor = tAt(e.clientX - r.left); }
      if (drag) {
        const dx = e.clientX - drag.x;
        if (Math.abs(dx) > 3) drag.moved = true;
        if (drag.moved) {
          const dt = dx / plotWidth() * (drag.t1 - drag.t0);
          S.t0 = drag.t0 - dt;
          S.t1 = drag.t1 - dt;
          S.follow = false;
        }
      }
      if (drag) D.requestDraw();
      else if (e.target === c) D.requestCursor(); // the cursor layer only: the bars stay
    });
    window.addEventListener('mouseup', (e) => {
      if (!drag) return;
      const r = c.getBoundingClientRect();
      if (drag.moved) D.scheduleLoad();
      else if (e.target === c) click(e.clientX - r.left, e.clientY - r.top);
      drag = null;
    });
    const ov = $('overview');
    let ovDrag = false;
    const ovMove = (e) => {
      const r = ov.getBoundingClientRect();
      const end = Math.max(1, S.meta.end);
      const t = (e.clientX - r.left - LEFT) / (ov.clientWidth - LEFT - 10) * end;
      const w = S.t1 - S.t0;
      S.t0 = t - w / 2;
      S.t1 = t + w / 2;
      S.follow = false;
      D.scheduleLoad();
    };
    ov.addEventListener('mousedown', (e) => { ovDrag = true; ovMove(e); });
    window.addEventListener('mousemove', (e) => { if (ovDrag) ovMove(e); });
    window.addEventListener('mouseup', () => { ovDrag = false; });
    document.addEventListener('keydown', (e) => {
      if (e.target.tagName === 'INPUT' && e.target.type !== 'checkbox') {
        if (e.key === 'Enter' && e.target.id === 'q') search(e.shiftKey ? 'prev' : 'next');
        return;
      }
      const k = e.key;
      if (k === '?') toggleHelp();
      else if (k === 'Escape') { $('help').hidden = true; S.selected = null; D.redraw(); }
      else if (k === 'w' || k === 'W') zoom(0.8);
      else if (k === 's' || k === 'S') zoom(1.25);
      else if (k === 'a' || k === 'A' || k === 'ArrowLeft') pan(-0.2);
      else if (k === 'd' || k === 'D' || k === 'ArrowRight') pan(0.2);
      else if (k === '0' || k === 'Home') whole();
      else if (k === 'n') search('next');
      else if (k === 'N') search('prev');
      else if (k === '/') { e.preventDefault(); $('q').focus(); }
      else if (k === 'f' || k === 'F') { S.follow = !S.follow; $('follow').checked = S.follow; }
      else return;
      e.preventDefault();
    });
    $('helpButton').addEventListener('click', toggleHelp);
    $('helpClose').addEventListener('click', toggleHelp);
    $('next').addEventListener('click', () => search('next'));
    $('prev').addEventListener('click', () => search('prev'));
    $('follow').addEventListener('change', () => { S.follow = $('follow').checked; });
    for (const c of $('liveLevels').querySelectorAll('input')) {
      // the live stream's `levels` command: the members switch their event classes at once
      c.addEventListener('change', () => {
        const on = [...$('liveLevels').querySelectorAll('input')].filter((x) => x.checked).map((x) => x.value);
        api('/api/levels', {levels: on.length ? on.join(',') : 'none'}).catch(D.showError);
      });
    }
    $('input').addEventListener('change', () => D.openInput(Number($('input').value)));
    window.addEventListener('resize', D.layout);
    wireFilters();
  }
  function toggleHelp() { $('help').hidden = !$('help').hidden; }

  Object.assign(D, {buildLegend, buildFilters, showDetails, wire});
})();
