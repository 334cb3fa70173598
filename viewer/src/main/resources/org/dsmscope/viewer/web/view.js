// dsmscope view: the space-time, utilization, hosts and transport views of seed 002 §4.3-4.6 on one time axis.
// The server answers each visible window with at most a few thousand drawables; this page only draws them.
'use strict';
(function () {
  const COLORS = {
    computation: '#35b535', overhead: '#f2d019', blocked: '#ffffff',
    busy: '#35b535', idle: '#ffffff', imbalance: '#f58231', contention: '#9a3fd0', io: '#4a7bd8',
    message: '#e01b24', sync: '#1c5fe0', lock: '#d4148c', barrier: '#0f8f8f', mark: '#333333', phase: '#e8e0ff',
    RAW: '#d7191c', WAR: '#7b3294', WAW: '#2c7bb6', RAR: '#1a9641'
  };
  const COMM_MARKS = ['RAW', 'WAR', 'WAW', 'RAR'];
  const LANE_H = 26, BAR_H = 14, TOP = 22, LEFT = 90;
  const $ = (id) => document.getElementById(id);
  const token = new URLSearchParams(location.search).get('token');
  const S = {
    input: 0, meta: null, t0: 0, t1: 1, data: null, tables: null, cursor: null, selected: null,
    filters: {seg: '', ec: '', mtype: 'data,request,reply', arrows: '', level: '', proc: ''},
    drawn: {arrows: [], marks: [], lanes: []}, seq: 0, loaded: 0, follow: true, version: -1, search: null,
    frames: [], pw: 0, raf: 0,
    // what the last frame drew, for clicks and tests: flat typed arrays reused from frame to frame
    hit: {arrows: new Float64Array(7 * 256), na: 0, marks: new Float64Array(5 * 256), nm: 0}
  };

  function api(path, params) {
    const q = new URLSearchParams(params || {});
    q.set('input', S.input);
    if (token) q.set('token', token);
    return fetch(path + '?' + q.toString()).then((r) => r.json().then((j) => {
      if (!r.ok) throw new Error(j.error || r.status);
      return j;
    }));
  }

  // ---------------------------------------------------------------- time formatting
  function fmt(t) {
    if (!S.meta) return '-';
    if (S.meta.unit === 'clock') {
      const a = Math.abs(t);
      if (a >= 1e9) return (t / 1e9).toFixed(3) + ' G clocks';
      if (a >= 1e6) return (t / 1e6).toFixed(3) + ' M clocks';
      if (a >= 1e3) return (t / 1e3).toFixed(2) + ' k clocks';
      return Math.round(t) + ' clocks';
    }
    const a = Math.abs(t);
    if (a >= 1e9) return (t / 1e9).toFixed(3) + ' s';
    if (a >= 1e6) return (t / 1e6).toFixed(3) + ' ms';
    if (a >= 1e3) return (t / 1e3).toFixed(2) + ' µs';
    return Math.round(t) + ' ns';
  }

  // ---------------------------------------------------------------- URL keeps the view
  function writeUrl() {
    const h = new URLSearchParams();
    h.set('input', S.input);
    h.set('t0', Math.round(S.t0));
    h.set('t1', Math.round(S.t1));
    for (const k of Object.keys(S.filters)) if (S.filters[k]) h.set(k, S.filters[k]);
    history.replaceState(null, '', location.pathname + location.search + '#' + h.toString());
  }
  function readUrl() {
    const h = new URLSearchParams(location.hash.slice(1));
    const r = {};
    for (const [k, v] of h) r[k] = v;
    return r;
  }

  // ---------------------------------------------------------------- loading
  function filterParams() {
    const p = {};
    for (const k of Object.keys(S.filters)) if (S.filters[k]) p[k] = S.filters[k];
    return p;
  }
  function stCanvas() { return $('spacetime'); }
  function plotWidth() { return Math.max(50, box(stCanvas()).w - LEFT - 10); }
  /**
   * Canvas sizes in CSS pixels, read from the layout once and kept until the layout may have changed (a resize,
   * new tables, a new height): reading them in every frame after the header's text changed would force a layout
   * of the whole page inside the frame.
   */
  const SIZES = new Map();
  function box(c) {
    let b = SIZES.get(c);
    if (!b) SIZES.set(c, b = {w: c.clientWidth, h: c.clientHeight});
    return b;
  }

  function load(boot) {
    const seq = ++S.seq;
    const p = Object.assign(filterParams(), {t0: Math.floor(S.t0), t1: Math.ceil(S.t1), bins: Math.round(plotWidth() / 2)});
    writeUrl();
    S.pending = (S.pending || 0) + 1;
    window.dsmview.ready = false;
    // the picture first, the tables (transport summary of the window) when they come
    const win = (boot && boot.win || api('/api/window', p)).then((w) => {
      if (seq !== S.seq) return;
      S.data = w;
      requestDraw();
    });
    const tab = (boot && boot.tab || api('/api/tables', {t0: p.t0, t1: p.t1})).then((tables) => {
      if (seq !== S.seq) return;
      S.tables = tables;
    });
    return Promise.all([win, tab]).then(() => {
      if (seq !== S.seq) return;
      S.loaded++;
      draw();
      drawTables();
      if (!S.firstPicture) {
        S.firstPicture = performance.now();
        performance.mark('dsmview:first-picture');
      }
      window.dsmview.ready = true;
    }).catch((e) => showError(e)).finally(() => { S.pending--; });
  }
  let loadTimer = null;
  function scheduleLoad() {
    requestDraw();
    clearTimeout(loadTimer);
    window.dsmview.ready = false;
    loadTimer = setTimeout(load, 60);
  }
  function showError(e) {
    const b = $('banner');
    b.hidden = false;
    b.textContent = 'error: ' + (e && e.message ? e.message : e);
    window.dsmview.ready = true;
  }

  function showTitle() {
    const m = S.meta;
    $('title').textContent = m.title + ' (' + m.source + ', ' + m.lanes.length + ' ' +
      (m.source === 'replay' ? 'threads' : 'processes') + ', ' + m.events + ' events)';
  }

  function openInput(i, fromUrl, boot) {
    S.input = i;
    return (boot && boot.meta || api('/api/meta')).then((m) => {
      S.meta = m;
      S.version = m.version;
      showTitle();
      const b = $('banner');
      b.hidden = !m.damage;
      b.textContent = m.damage || '';
      $('live').hidden = m.source !== 'live';
      const u = fromUrl || {};
      for (const k of Object.keys(S.filters)) S.filters[k] = u[k] !== undefined ? u[k] : (k === 'mtype' ? 'data,request,reply' : '');
      S.t0 = u.t0 !== undefined ? Number(u.t0) : 0;
      S.t1 = u.t1 !== undefined ? Number(u.t1) : Math.max(1, m.end);
      buildLegend();
      buildFilters();
      layout();
      return load(boot);
    }).catch(showError);
  }

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
      c.addEventListener('input', () => { COLORS[name] = c.value; requestDraw(); drawTables(); });
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
        scheduleLoad();
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
    const text = (id, key) => $(id).addEventListener('change', () => { S.filters[key] = $(id).value.replace(/\s+/g, ''); scheduleLoad(); });
    text('fSeg', 'seg');
    text('fEc', 'ec');
    for (const c of $('fMtype').querySelectorAll('input')) {
      c.addEventListener('change', () => {
        const on = [...$('fMtype').querySelectorAll('input')].filter((x) => x.checked).map((x) => x.value);
        S.filters.mtype = on.length ? on.join(',') : 'none';
        scheduleLoad();
      });
    }
    $('filters').addEventListener('submit', (e) => e.preventDefault());
  }

  // ---------------------------------------------------------------- layout and drawing
  function sizeCanvas(c, h) {
    const dpr = window.devicePixelRatio || 1;
    if (h && c.style.height !== h + 'px') { c.style.height = h + 'px'; SIZES.delete(c); }
    const w = Math.round(box(c).w * dpr), hh = Math.round((h || box(c).h) * dpr);
    if (c.width !== w || c.height !== hh) { c.width = w; c.height = hh; } // a resize reallocates: only when needed
    const g = c.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    return g;
  }
  function layout() {
    SIZES.clear();
    if (!S.meta) return;
    sizeCanvas(stCanvas(), TOP + S.meta.lanes.length * LANE_H + 8);
    draw();
    drawTables();
  }
  /**
   * Rectangles collected per colour and filled with one path each (thousands of columns cost a few fills). The
   * coordinates go to typed arrays kept from frame to frame: a frame allocates no large array.
   */
  const RECT_POOL = new Map();
  function rects() {
    for (const b of RECT_POOL.values()) b.n = 0;
    return {
      add(color, x0, y0, w, h) {
        let b = RECT_POOL.get(color);
        if (!b) RECT_POOL.set(color, b = {a: new Float64Array(1024), n: 0});
        if (b.n + 4 > b.a.length) { const a = new Float64Array(b.a.length * 2); a.set(b.a); b.a = a; }
        const a = b.a;
        a[b.n] = x0; a[b.n + 1] = y0; a[b.n + 2] = w; a[b.n + 3] = h;
        b.n += 4;
      },
      fill(g) {
        for (const [color, b] of RECT_POOL) {
          if (!b.n) continue;
          const a = b.a;
          g.fillStyle = color;
          g.beginPath();
          for (let i = 0; i < b.n; i += 4) g.rect(a[i], a[i + 1], a[i + 2], a[i + 3]);
          g.fill();
          b.n = 0;
        }
      }
    };
  }
  /** Records a drawn arrow (id, kind index, ends, count) in the reused hit array. */
  function hitArrowPush(id, kind, x1, y1, x2, y2, count) {
    let a = S.hit.arrows;
    const o = 7 * S.hit.na++;
    if (o + 7 > a.length) { const b = new Float64Array(a.length * 2); b.set(a); S.hit.arrows = a = b; }
    a[o] = id; a[o + 1] = kind; a[o + 2] = x1; a[o + 3] = y1; a[o + 4] = x2; a[o + 5] = y2; a[o + 6] = count;
  }
  /** Records a drawn event (id and its box) in the reused hit array. */
  function hitMarkPush(id, x0, x1, y0, y1) {
    let a = S.hit.marks;
    const o = 5 * S.hit.nm++;
    if (o + 5 > a.length) { const b = new Float64Array(a.length * 2); b.set(a); S.hit.marks = a = b; }
    a[o] = id; a[o + 1] = x0; a[o + 2] = x1; a[o + 3] = y0; a[o + 4] = y1;
  }
  /** Drawn arrow i as an object (clicks, tests). */
  function hitArrow(i) {
    const a = S.hit.arrows, o = 7 * i;
    return {id: a[o], kind: S.meta.arrowKinds[a[o + 1]], x1: a[o + 2], y1: a[o + 3], x2: a[o + 4], y2: a[o + 5], count: a[o + 6]};
  }
  /** Draws at the next animation frame; any number of requests before it cost one frame. */
  function requestDraw() {
    if (!S.raf) S.raf = requestAnimationFrame(() => { S.raf = 0; draw(); });
  }
  function x(t) { return LEFT + (t - S.t0) / (S.t1 - S.t0) * (S.pw || plotWidth()); }
  function tAt(px) { return S.t0 + (px - LEFT) / plotWidth() * (S.t1 - S.t0); }
  function laneY(l) { return TOP + l * LANE_H + (LANE_H - BAR_H) / 2; }

  function draw() {
    if (!S.meta) return;
    if (S.raf) { cancelAnimationFrame(S.raf); S.raf = 0; }
    const t = performance.now();
    S.pw = plotWidth(); // one layout read per frame, not one per coordinate
    drawSpaceTime();
    performance.measure('dsmview:space-time', {start: t});
    drawOverview();
    drawUtil();
    drawQueues();
    drawHosts();
    $('total').textContent = fmt(S.meta.end);
    $('elapsed').textContent = fmt(S.t1 - S.t0) + ' (' + fmt(S.t0) + ' – ' + fmt(S.t1) + ')';
    $('cursor').textContent = S.cursor === null ? '-' : fmt(S.cursor);
    S.frames.push(performance.now() - t);
    if (S.frames.length > 500) {
      S.frames.shift();
      performance.clearMeasures('dsmview:frame');
      performance.clearMeasures('dsmview:space-time');
    }
    performance.measure('dsmview:frame', {start: t});
  }

  function drawSpaceTime() {
    const c = stCanvas();
    const g = sizeCanvas(c, TOP + S.meta.lanes.length * LANE_H + 8);
    const W = box(c).w, H = box(c).h;
    g.clearRect(0, 0, W, H);
    g.font = '11px system-ui, sans-serif';
    const drawn = {lanes: [], arrowCount: {message: 0, sync: 0, lock: 0, barrier: 0}, bundles: 0};
    S.drawn = drawn;
    S.hit.na = 0;
    S.hit.nm = 0;
    // time axis ticks
    g.fillStyle = '#666';
    g.strokeStyle = '#eee';
    const ticks = 8;
    for (let i = 0; i <= ticks; i++) {
      const tt = S.t0 + (S.t1 - S.t0) * i / ticks;
      const px = x(tt);
      g.beginPath(); g.moveTo(px, TOP - 4); g.lineTo(px, H); g.stroke();
      if (i < ticks) g.fillText(fmt(tt), px + 2, 10);
    }
    const d = S.data;
    const states = S.meta.states;
    // phases band (replayed trace sets)
    if (d) {
      for (const [a, b, name] of d.phases) {
        const x0 = Math.max(LEFT, x(a)), x1 = Math.min(W, x(b));
        g.fillStyle = COLORS.phase;
        g.fillRect(x0, 12, x1 - x0, 8);
        g.strokeStyle = '#8877cc';
        g.strokeRect(x0, 12, x1 - x0, 8);
        if (x1 - x0 > 40) { g.fillStyle = '#333'; g.fillText(name, x0 + 2, 19); }
      }
    }
    const columnLanes = [];
    for (let l = 0; l < S.meta.lanes.length; l++) {
      const y = laneY(l);
      g.fillStyle = '#222';
      g.fillText(S.meta.lanes[l].name, 4, y + BAR_H - 3);
      if (!d) continue;
      const ln = d.lanes[l];
      if (!ln || ln.mode === 'empty') continue;
      const xa = Math.max(LEFT, x(ln.start)), xb = Math.min(W, x(ln.end));
      if (ln.mode !== 'exact') { columnLanes.push(l); continue; } // painted pixel by pixel below
      g.fillStyle = COLORS[states[0]];
      g.fillRect(xa, y, Math.max(1, xb - xa), BAR_H);
      for (let i = 0; i < ln.iv.length; i += 3) {
        const x0 = Math.max(LEFT, x(ln.iv[i])), x1 = Math.min(W, x(ln.iv[i + 1]));
        g.fillStyle = COLORS[states[ln.iv[i + 2]]];
        g.fillRect(x0, y, Math.max(1, x1 - x0), BAR_H);
      }
      g.strokeStyle = '#888';
      g.strokeRect(xa, y, Math.max(1, xb - xa), BAR_H);
      drawn.lanes.push({lane: l, y0: y, y1: y + BAR_H});
    }
    if (!d) return;
    const markColumns = d.marks.mode !== 'exact';
    if (columnLanes.length || markColumns) paintColumns(g, d, columnLanes, markColumns, W, drawn);
    // events: rectangles for the DSM calls (Create / Advance / Await ...), ticks for transport marks; one path
    // per style (three strokes however many events)
    const kinds = kindsByCode();
    const m = d.marks.list;
    if (d.marks.mode === 'exact') {
      const boxes = new Path2D(), red = new Path2D(), dark = new Path2D(), comm = {};
      for (let i = 0; i < m.length; i += 5) {
        const id = m[i], t = m[i + 1], l = m[i + 2], k = kinds[m[i + 3]], du = m[i + 4];
        const y = laneY(l);
        const x0 = x(t), x1 = Math.max(x0 + 3, x(t + du));
        if (x1 < LEFT || x0 > W) continue;
        if (k.draw === 'rect') {
          boxes.rect(Math.max(LEFT, x0), y + 2, Math.max(3, x1 - Math.max(LEFT, x0)), BAR_H - 4);
          hitMarkPush(id, Math.max(LEFT, x0), x1, y, y + BAR_H);
        } else {
          const p = COMM_MARKS.includes(k.name) ? (comm[k.name] || (comm[k.name] = new Path2D()))
            : k.level === 'transport' ? red : dark;
          p.moveTo(x0, y - 3); p.lineTo(x0, y + BAR_H + 3);
          hitMarkPush(id, x0 - 2, x0 + 2, y - 3, y + BAR_H + 3);
        }
      }
      g.lineWidth = 1; g.strokeStyle = '#000'; g.stroke(boxes);
      g.lineWidth = 2; g.strokeStyle = '#c00000'; g.stroke(red);
      g.strokeStyle = '#333'; g.stroke(dark);
      for (const name of Object.keys(comm)) { g.strokeStyle = COLORS[name]; g.stroke(comm[name]); }
      g.lineWidth = 1;
    }
    drawArrows(g, d, W, H, drawn);
    g.lineWidth = 1;
    if (S.cursor !== null) {
      g.strokeStyle = '#000';
      g.setLineDash([4, 3]);
      g.beginPath(); g.moveTo(x(S.cursor), TOP - 6); g.lineTo(x(S.cursor), H); g.stroke();
      g.setLineDash([]);
    }
  }
  /** Event-count dashes by decade of the count: black at 20 / 40 / 60 / 80 % over white, as opaque greys. */
  const SHADES = [204, 153, 102, 51].map((v) => (255 << 24 | v << 16 | v << 8 | v) >>> 0);
  /** '#rrggbb' as a little-endian RGBA pixel (ImageData's byte order), cached per colour. */
  const PIXELS = new Map();
  function pixel(color) {
    let v = PIXELS.get(color);
    if (v === undefined) {
      const n = parseInt(color.slice(1), 16);
      v = (255 << 24 | (n & 255) << 16 | (n >> 8 & 255) << 8 | n >> 16) >>> 0;
      PIXELS.set(color, v);
    }
    return v;
  }
  /**
   * The columns of the level of detail (lanes in 'bins' mode: state fractions per column; events counted per lane
   * and column) painted pixel by pixel into one reused ImageData and drawn with one drawImage: the cost is the bars'
   * pixels, whatever the number of columns and states.
   */
  function paintColumns(g, d, lanes, markColumns, W, drawn) {
    const dpr = window.devicePixelRatio || 1, states = S.meta.states, n = states.length - 1;
    const iw = Math.max(1, Math.ceil((W - LEFT) * dpr)), ih = Math.max(1, Math.ceil(S.meta.lanes.length * LANE_H * dpr));
    let P = S.columns;
    if (!P || P.img.width !== iw || P.img.height !== ih) {
      const c = document.createElement('canvas');
      c.width = iw; c.height = ih;
      const img = new ImageData(iw, ih);
      P = S.columns = {canvas: c, ctx: c.getContext('2d'), img, px: new Uint32Array(img.data.buffer)};
    }
    const px = P.px;
    px.fill(0);
    const bw = (d.t1 - d.t0) / d.bins, row = (v) => Math.round((v - TOP) * dpr);
    const colPx = (b) => Math.round((x(d.t0 + b * bw) - LEFT) * dpr);
    const fillBox = (x0, x1, y0, y1, v) => {
      x0 = Math.max(0, x0); x1 = Math.min(iw, x1); y0 = Math.max(0, y0); y1 = Math.min(ih, y1);
      for (let yy = y0; yy < y1; yy++) px.fill(v, yy * iw + x0, yy * iw + Math.max(x0, x1));
    };
    const base = pixel(COLORS[states[0]]), colors = states.map((st) => pixel(COLORS[st]));
    for (const l of lanes) {
      const ln = d.lanes[l], y = laneY(l), top = row(y), bottom = row(y + BAR_H), h = bottom - top;
      fillBox(Math.round((Math.max(LEFT, x(ln.start)) - LEFT) * dpr), Math.round((Math.min(W, x(ln.end)) - LEFT) * dpr), top, bottom, base);
      for (let b = 0; b < d.bins; b++) {
        const x0 = colPx(b), x1 = Math.max(x0 + 1, colPx(b + 1));
        if (x1 <= 0 || x0 >= iw) continue;
        let off = 0;
        for (let st = 0; st < n; st++) {
          const f = ln.fr[b * n + st];
          if (!f) continue;
          const rows = Math.round(h * f / 100);
          fillBox(x0, x1, bottom - off - rows, bottom - off, colors[st + 1]);
          off += rows;
        }
      }
    }
    if (markColumns) {
      const m = d.marks.list;
      for (let i = 0; i < m.length; i += 3) {
        const l = m[i], b = m[i + 1], x0 = colPx(b), y = row(laneY(l) - 4);
        fillBox(x0, Math.max(x0 + Math.round(2 * dpr), colPx(b + 1)), y, y + Math.round(3 * dpr), SHADES[Math.min(3, Math.floor(Math.log10(m[i + 2] + 1)))]);
      }
    }
    P.ctx.putImageData(P.img, 0, 0);
    g.drawImage(P.canvas, LEFT, TOP, iw / dpr, ih / dpr);
    g.strokeStyle = '#888';
    for (const l of lanes) {
      const ln = d.lanes[l], y = laneY(l), xa = Math.max(LEFT, x(ln.start)), xb = Math.min(W, x(ln.end));
      g.strokeRect(xa, y, Math.max(1, xb - xa), BAR_H);
      drawn.lanes.push({lane: l, y0: y, y1: y + BAR_H});
    }
    drawn.lanes.sort((a, b) => a.lane - b.lane);
  }
  /** Event kinds by code, built once per description of the input. */
  function kindsByCode() {
    if (S.kindsOf !== S.meta) {
      S.kinds = {};
      for (const k of S.meta.kinds) S.kinds[k.code] = k;
      S.kindsOf = S.meta;
    }
    return S.kinds;
  }
  /**
   * The window's arrows (or bundles): one path of shafts and one of heads per kind and width; bundle counts only
   * where a 48 × 12 px cell of the canvas has no label yet, so labels cost O(pixels), not O(bundles).
   */
  function drawArrows(g, d, W, H, drawn) {
    const a = d.arrows.list;
    const step = d.arrows.mode === 'exact' ? 6 : 7;
    let biggest = 1;
    if (step === 7) for (let i = 6; i < a.length; i += 7) biggest = Math.max(biggest, a[i]);
    const cols = Math.ceil(W / 48) + 1, cells = cols * (Math.ceil(H / 12) + 1);
    if (!S.labelCells || S.labelCells.length < cells) S.labelCells = new Uint8Array(cells);
    const used = S.labelCells;
    used.fill(0);
    const paths = new Map();
    for (let i = 0; i < a.length; i += step) {
      const id = a[i], kind = S.meta.arrowKinds[a[i + 1]];
      const x1 = x(a[i + 3]), y1 = laneY(a[i + 2]) + BAR_H / 2, x2 = x(a[i + 5]), y2 = laneY(a[i + 4]) + BAR_H / 2;
      const count = step === 7 ? a[i + 6] : 1;
      const width = count > 1 ? Math.min(6, 1 + Math.round(Math.log2(count))) : (S.selected && S.selected.arrow === id ? 3 : 1.2);
      const key = a[i + 1] * 16 + width * 2;
      let p = paths.get(key);
      if (!p) paths.set(key, p = {kind, width, shafts: new Path2D(), heads: new Path2D()});
      p.shafts.moveTo(x1, y1); p.shafts.lineTo(x2, y2);
      head(p.heads, x1, y1, x2, y2);
      if (count > 1 && count * 4 >= biggest) {
        const lx = (x1 + x2) / 2 + 3, ly = (y1 + y2) / 2;
        const cell = Math.max(0, Math.floor(ly / 12)) * cols + Math.max(0, Math.min(cols - 1, Math.floor(lx / 48)));
        if (cell < cells && !used[cell]) { used[cell] = 1; g.fillStyle = COLORS[kind]; g.fillText(String(count), lx, ly); }
      }
      hitArrowPush(id, a[i + 1], x1, y1, x2, y2, count);
      drawn.arrowCount[kind] += count;
      if (count > 1) drawn.bundles++;
    }
    for (const p of paths.values()) {
      g.strokeStyle = COLORS[p.kind];
      g.fillStyle = COLORS[p.kind];
      g.lineWidth = p.width;
      g.stroke(p.shafts);
      g.fill(p.heads);
    }
  }
  /** Adds an arrow head at (x2, y2) to path g (a context or a Path2D). */
  function head(g, x1, y1, x2, y2) {
    const ang = Math.atan2(y2 - y1, x2 - x1), L = 7;
    g.moveTo(x2, y2);
    g.lineTo(x2 - L * Math.cos(ang - 0.4), y2 - L * Math.sin(ang - 0.4));
    g.lineTo(x2 - L * Math.cos(ang + 0.4), y2 - L * Math.sin(ang + 0.4));
    g.closePath();
  }

  function drawOverview() {
    const c = $('overview');
    const g = sizeCanvas(c, 44);
    const W = box(c).w;
    g.clearRect(0, 0, W, 44);
    const end = Math.max(1, S.meta.end);
    const ox = (t) => LEFT + t / end * (W - LEFT - 10);
    // lanes' extents as thin lines
    const n = S.meta.lanes.length;
    for (let l = 0; l < n; l++) {
      const ln = S.meta.lanes[l];
      g.fillStyle = COLORS[S.meta.states[0]];
      g.fillRect(ox(ln.start), 4 + l * 36 / n, Math.max(1, ox(ln.end) - ox(ln.start)), Math.max(1, 36 / n - 1));
    }
    g.fillStyle = '#444';
    g.font = '11px system-ui, sans-serif';
    g.fillText('whole run', 4, 26);
    g.fillStyle = 'rgba(40,60,200,0.18)';
    g.strokeStyle = '#2838c8';
    const a = ox(Math.max(0, S.t0)), b = ox(Math.min(end, S.t1));
    g.fillRect(a, 1, Math.max(2, b - a), 42);
    g.strokeRect(a, 1, Math.max(2, b - a), 42);
    S.overviewX = ox;
  }

  function drawUtil() {
    const c = $('util');
    const g = sizeCanvas(c, 120);
    const W = box(c).w, H = 120;
    g.clearRect(0, 0, W, H);
    const d = S.data;
    if (!d) return;
    const states = S.meta.states, n = states.length, lanes = Math.max(1, S.meta.lanes.length);
    const bw = (d.t1 - d.t0) / d.bins;
    const yOf = (v) => H - 14 - v / lanes * (H - 24);
    g.strokeStyle = '#ddd';
    g.fillStyle = '#666';
    g.font = '10px system-ui, sans-serif';
    for (let v = 0; v <= lanes; v += Math.max(1, Math.ceil(lanes / 4))) {
      g.beginPath(); g.moveTo(LEFT, yOf(v)); g.lineTo(W, yOf(v)); g.stroke();
      g.fillText(String(v), LEFT - 16, yOf(v) + 3);
    }
    g.fillText('processes', 4, 14);
    const batch = rects();
    for (let b = 0; b < d.bins; b++) {
      let acc = 0;
      const x0 = x(d.t0 + b * bw), x1 = x(d.t0 + (b + 1) * bw);
      if (x1 < LEFT || x0 > W) continue;
      for (let s = 0; s < n; s++) {
        const v = d.util[b * n + s];
        if (!v) continue;
        batch.add(states[s] === 'blocked' || states[s] === 'idle' ? '#c8c8c8' : COLORS[states[s]],
          Math.max(LEFT, x0), yOf(acc + v), Math.max(1, x1 - Math.max(LEFT, x0)), yOf(acc) - yOf(acc + v));
        acc += v;
      }
    }
    batch.fill(g);
    g.fillStyle = '#555';
    let lx = LEFT;
    for (const s of states) {
      g.fillStyle = s === 'blocked' || s === 'idle' ? '#c8c8c8' : COLORS[s];
      g.fillRect(lx, H - 10, 10, 8);
      g.fillStyle = '#333';
      g.fillText(s, lx + 13, H - 3);
      lx += 20 + g.measureText(s).width;
    }
    if (S.cursor !== null) {
      g.strokeStyle = '#000';
      g.beginPath(); g.moveTo(x(S.cursor), 0); g.lineTo(x(S.cursor), H - 12); g.stroke();
    }
  }

  function drawQueues() {
    const c = $('queues');
    const n = S.meta.lanes.length, row = 18;
    const g = sizeCanvas(c, Math.max(30, n * row + 6));
    const W = box(c).w;
    g.clearRect(0, 0, W, box(c).h);
    const d = S.data;
    if (!d || !d.queues) return;
    let max = 1;
    for (const q of d.queues) for (const v of q) max = Math.max(max, v);
    const bw = (d.t1 - d.t0) / d.bins;
    g.font = '10px system-ui, sans-serif';
    for (let l = 0; l < n; l++) {
      const y = 3 + l * row;
      g.fillStyle = '#222';
      g.fillText(S.meta.lanes[l].name, 4, y + 12);
      const q = d.queues[l] || [], batch = rects();
      for (let b = 0; b < q.length; b++) {
        if (!q[b]) continue;
        const x0 = x(d.t0 + b * bw), x1 = x(d.t0 + (b + 1) * bw);
        if (x1 < LEFT || x0 > W) continue;
        const h = (row - 4) * q[b] / max;
        batch.add(COLORS.message, Math.max(LEFT, x0), y + row - 3 - h, Math.max(1, x1 - Math.max(LEFT, x0)), h);
      }
      batch.fill(g);
    }
    g.fillStyle = '#666';
    g.fillText('max ' + max, W - 50, 10);
  }

  /** Messages queued at lane l at time t (from the window's columns), or null. */
  function queueAt(l, t) {
    const d = S.data;
    if (!d || !d.queues) return null;
    const b = Math.min(d.bins - 1, Math.max(0, Math.floor((t - d.t0) / ((d.t1 - d.t0) / d.bins))));
    return d.queues[l][b];
  }

  /** State of lane l at time t from the window's data: index into states, or -1 outside the lane. */
  function stateAt(l, t) {
    const d = S.data;
    if (!d || !d.lanes[l] || d.lanes[l].mode === 'empty') return -1;
    const ln = d.lanes[l];
    if (t < ln.start || t > ln.end) return -1;
    if (ln.mode === 'exact') {
      for (let i = 0; i < ln.iv.length; i += 3) if (ln.iv[i] <= t && t < ln.iv[i + 1]) return ln.iv[i + 2];
      return 0;
    }
    const n = S.meta.states.length - 1, b = Math.floor((t - d.t0) / ((d.t1 - d.t0) / d.bins));
    let best = 0, bestF = 0, rest = 100;
    for (let s = 0; s < n; s++) { const f = ln.fr[b * n + s] || 0; rest -= f; if (f > bestF) { bestF = f; best = s + 1; } }
    return rest >= bestF ? 0 : best;
  }
  function utilAt(t) {
    const out = {};
    for (const s of S.meta.states) out[s] = 0;
    for (let l = 0; l < S.meta.lanes.length; l++) {
      const s = stateAt(l, t);
      if (s >= 0) out[S.meta.states[s]]++;
    }
    return out;
  }

  function drawHosts() {
    const c = $('hosts');
    const g = sizeCanvas(c, 150);
    const W = box(c).w;
    g.clearRect(0, 0, W, 150);
    const n = S.meta.lanes.length;
    if (!n) return;
    const t = S.cursor !== null ? S.cursor : (S.t0 + S.t1) / 2;
    const pos = (l) => 30 + (l + 0.5) * (W - 60) / n;
    const busY = 128;
    g.strokeStyle = '#555';
    g.lineWidth = 3;
    g.beginPath(); g.moveTo(20, busY); g.lineTo(W - 20, busY); g.stroke();
    g.lineWidth = 1;
    // links: bandwidth between each pair in the visible window
    const pairs = (S.tables && S.tables.transportWindow) || [];
    let max = 1;
    const bytes = {};
    for (const p of pairs) {
      if (p.from === p.to) continue;
      const a = Math.min(p.from, p.to), b = Math.max(p.from, p.to);
      bytes[a + ',' + b] = (bytes[a + ',' + b] || 0) + (p.dataSent + p.retransmissions > 0 ? p.throughputBytesPerSec : 0);
      max = Math.max(max, bytes[a + ',' + b]);
    }
    const laneOfProc = {};
    const procs = (S.tables && S.tables.processes) || [];
    procs.forEach((p) => { laneOfProc[p.process] = S.meta.lanes.findIndex((l) => l.name === p.name); });
    S.drawnLinks = 0;
    for (const k of Object.keys(bytes)) {
      const [a, b] = k.split(',').map(Number);
      const la = laneOfProc[a], lb = laneOfProc[b];
      if (la === undefined || lb === undefined || la < 0 || lb < 0 || !bytes[k]) continue;
      const f = bytes[k] / max;
      g.strokeStyle = 'hsl(' + Math.round(120 - 120 * f) + ',80%,45%)';
      g.lineWidth = 1 + 6 * f;
      const xa = pos(la), xb = pos(lb);
      g.beginPath();
      g.moveTo(xa, 52);
      g.quadraticCurveTo((xa + xb) / 2, Math.max(-20, 16 - 10 * Math.abs(la - lb)), xb, 52);
      g.stroke();
      S.drawnLinks++;
    }
    g.lineWidth = 1;
    S.drawnHosts = [];
    for (let l = 0; l < n; l++) {
      const s = stateAt(l, t);
      const px = pos(l);
      g.strokeStyle = '#555';
      g.beginPath(); g.moveTo(px, 90); g.lineTo(px, busY); g.stroke();
      g.fillStyle = s < 0 ? '#ddd' : COLORS[S.meta.states[s]];
      g.strokeStyle = '#222';
      const bw = Math.min(110, Math.max(48, (W - 60) / n - 8));
      g.fillRect(px - bw / 2, 52, bw, 38);
      g.strokeRect(px - bw / 2, 52, bw, 38);
      g.fillStyle = '#000';
      g.font = '11px system-ui, sans-serif';
      const name = S.meta.lanes[l].name;
      g.fillText(name, px - g.measureText(name).width / 2, 64);
      // the host name and architecture (seed 002 §4.3's icon labels); "unknown" for older recordings, none for
      // a replayed trace set's threads
      const hi = S.meta.source === 'replay' ? {host: '', arch: ''} : S.meta.lanes[l].hostInfo || {host: 'unknown', arch: 'unknown'};
      g.font = '9px system-ui, sans-serif';
      const fit = (t) => { while (t.length > 3 && g.measureText(t).width > bw - 4) t = t.slice(0, -2) + '…'; return t; };
      const host = fit(hi.host), arch = fit(hi.arch);
      g.fillText(host, px - g.measureText(host).width / 2, 75);
      g.fillText(arch, px - g.measureText(arch).width / 2, 86);
      S.drawnHosts.push({name, state: s < 0 ? 'none' : S.meta.states[s], host: hi.host, arch: hi.arch, x: px,
        label: name + ' ' + hi.host + ' ' + hi.arch});
    }
  }

  // ---------------------------------------------------------------- tables
  function drawTables() {
    if (!S.meta) return;
    const pp = $('perProcess');
    pp.innerHTML = '';
    const rows = perProcessRows();
    for (const r of rows) {
      const div = document.createElement('div');
      div.className = 'pp';
      div.dataset.name = r.name;
      const nm = document.createElement('span');
      nm.className = 'name';
      nm.textContent = r.name;
      const bar = document.createElement('span');
      bar.className = 'bar';
      const txt = [];
      r.pct.forEach((v, s) => {
        const seg = document.createElement('span');
        seg.style.width = Math.max(0, v) + '%';
        seg.style.background = COLORS[S.meta.states[s]];
        seg.title = S.meta.states[s] + ' ' + v.toFixed(1) + '%';
        bar.appendChild(seg);
        txt.push(v.toFixed(1) + '%');
      });
      const pct = document.createElement('span');
      pct.className = 'pct';
      pct.textContent = txt.join(' / ');
      div.appendChild(nm); div.appendChild(bar); div.appendChild(pct);
      pp.appendChild(div);
    }
    transport($('transportWindow'), S.tables ? S.tables.transportWindow : null);
    transport($('transportRun'), S.tables ? S.tables.transportRun : null);
    SIZES.clear(); // new rows may have brought a scroll bar
  }
  function perProcessRows() {
    if (S.tables && S.tables.processes) {
      return S.tables.processes.map((p) => ({name: p.name, pct: [p.computationPercent, p.overheadPercent, p.blockedPercent]}));
    }
    return S.meta.lanes.filter((l) => l.totals).map((l) => {
      const sum = l.totals.reduce((a, b) => a + b, 0) || 1;
      return {name: l.name, pct: l.totals.map((v) => 100 * v / sum)};
    });
  }
  function transport(table, pairs) {
    table.innerHTML = '';
    if (!pairs) { table.innerHTML = '<tr><td>no transport events in this input</td></tr>'; return; }
    const names = {};
    ((S.tables && S.tables.processes) || []).forEach((p) => { names[p.process] = p.name; });
    const head = ['pair', 'KB/s', 'data', 'loss%', 'retrans', 'timeout', 'nack', 'NACKs', 'dup', 'disc'];
    const tr = document.createElement('tr');
    for (const h of head) { const th = document.createElement('th'); th.textContent = h; tr.appendChild(th); }
    table.appendChild(tr);
    for (const p of pairs) {
      if (p.dataSent + p.retransmissions + p.dataReceived + p.ackSent + p.nackSent === 0) continue;
      const r = document.createElement('tr');
      if (p.retransmissions > 0 || p.nackSent > 0) r.className = 'bad';
      const v = [(names[p.from] || p.from) + '→' + (names[p.to] || p.to), (p.throughputBytesPerSec / 1024).toFixed(1),
        p.dataSent + p.retransmissions, (100 * p.dataLossRate).toFixed(2), p.retransmissions, p.retransByTimeout,
        p.retransByNack, p.nackSent, p.duplicateMessages + p.duplicateFragments, p.discards];
      for (const x of v) { const td = document.createElement('td'); td.textContent = x; r.appendChild(td); }
      table.appendChild(r);
    }
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
    const d = S.drawn;
    let best = null, bd = 5;
    for (let i = 0; i < S.hit.na; i++) {
      const a = hitArrow(i);
      const dist = distSeg(px, py, a);
      if (dist < bd) { bd = dist; best = a; }
    }
    if (best && best.id >= 0) {
      S.selected = {arrow: best.id};
      return api('/api/arrow', {id: best.id}).then((j) => { showDetails(j); draw(); });
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
        const s = stateAt(ln.lane, t);
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
      return load();
    }).catch(showError);
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
    scheduleLoad();
  }
  function pan(fraction) {
    const w = S.t1 - S.t0;
    S.t0 += w * fraction;
    S.t1 += w * fraction;
    S.follow = false;
    $('follow').checked = false;
    scheduleLoad();
  }
  function whole() {
    S.t0 = 0;
    S.t1 = Math.max(1, S.meta.end);
    scheduleLoad();
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
      if (e.target === c || drag) requestDraw();
    });
    window.addEventListener('mouseup', (e) => {
      if (!drag) return;
      const r = c.getBoundingClientRect();
      if (drag.moved) scheduleLoad();
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
      scheduleLoad();
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
      else if (k === 'Escape') { $('help').hidden = true; S.selected = null; draw(); }
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
        api('/api/levels', {levels: on.length ? on.join(',') : 'none'}).catch(showError);
      });
    }
    $('input').addEventListener('change', () => openInput(Number($('input').value)));
    window.addEventListener('resize', layout);
    wireFilters();
  }
  function toggleHelp() { $('help').hidden = !$('help').hidden; }

  // ---------------------------------------------------------------- live: the views grow as events arrive
  // the fallback of live.js's push channel: while it is open (S.push) nothing is polled
  function poll() {
    if (S.push || !S.meta || S.meta.source !== 'live' || S.pending) return;
    S.polls = (S.polls || 0) + 1;
    api('/api/meta').then(liveMeta).catch(() => {});
  }
  // a newer description of the live input (polled, or pushed by live.js); false while a load still runs
  function liveMeta(m) {
    if (S.pending) return false;
    if (m.version === S.version) return true;
    const grew = m.lanes.length !== S.meta.lanes.length;
    const wasWhole = S.t0 <= 0 && S.t1 >= S.meta.end;
    S.meta = m;
    S.version = m.version;
    showTitle();
    if (grew) { buildFilters(); layout(); }
    if (S.follow) {
      // the whole run stays whole; a zoomed-in window keeps its width and follows the newest time
      const w = S.t1 - S.t0;
      if (wasWhole) { S.t0 = 0; S.t1 = Math.max(1, m.end * 1.02); }
      else { S.t1 = m.end + w * 0.05; S.t0 = S.t1 - w; }
    }
    load();
    return true;
  }

  // ---------------------------------------------------------------- test API (counts, not pixels)
  window.dsmview = {
    ready: false,
    range: () => [S.t0, S.t1],
    meta: () => S.meta,
    data: () => S.data,
    counts: () => ({arrows: Object.assign({}, S.drawn.arrowCount), arrowsDrawn: S.hit.na,
      bundles: S.drawn.bundles, marks: S.data ? S.data.marks.count : 0, lanes: S.drawn.lanes.length,
      hosts: (S.drawnHosts || []).length, links: S.drawnLinks || 0}),
    lanes: () => S.meta.lanes.map((l) => l.name),
    perProcess: () => perProcessRows(),
    utilAt: (t) => utilAt(t),
    queueAt: (l, t) => queueAt(l, t),
    hosts: () => S.drawnHosts || [],
    arrowPoint: (i) => {
      const a = i < S.hit.na ? hitArrow(i) : null;
      return a ? {id: a.id, kind: a.kind, x: (a.x1 + a.x2) / 2, y: (a.y1 + a.y2) / 2} : null;
    },
    arrows: () => Array.from({length: S.hit.na}, (_, i) => hitArrow(i)),
    setCursor: (t) => { S.cursor = t; draw(); },
    frameTimes: () => S.frames.slice(),
    loaded: () => S.loaded,
    firstPicture: () => S.firstPicture || null,
    events: () => (S.meta ? S.meta.events : 0)
  };
  // the state and helpers the panels of panels.js (output, launch) share with this page
  window.dsmview.internal = {S, api, fmt, scheduleLoad, openInput, showError, showDetails, liveMeta};

  /**
   * The first picture's requests, sent at once with the input list instead of one after another: the description,
   * and, when the address names no window or filter (the whole run by default), the whole run's window and tables.
   */
  function bootRequests(u) {
    S.input = u.input !== undefined ? Number(u.input) : 0;
    const boot = {meta: api('/api/meta')};
    if (!Object.keys(u).some((k) => k !== 'input')) {
      boot.win = api('/api/window', {mtype: S.filters.mtype, bins: Math.round(plotWidth() / 2)});
      boot.tab = api('/api/tables', {});
    }
    for (const k of Object.keys(boot)) boot[k].catch(() => {}); // reported when used
    return boot;
  }

  const boot = bootRequests(readUrl());
  api('/api/inputs').then((inputs) => {
    const sel = $('input');
    for (const i of inputs) {
      const o = document.createElement('option');
      o.value = i.input;
      o.textContent = i.title + ' (' + i.source + ')';
      sel.appendChild(o);
    }
    wire();
    setInterval(poll, 250);
    if (!inputs.length) {
      // view --launch without inputs: nothing to show until a program is started from the form
      $('banner').hidden = false;
      $('banner').textContent = 'no input yet: start a DSM program with the form on the right';
      window.dsmview.ready = true;
      return null;
    }
    const u = readUrl();
    const i = u.input !== undefined ? Number(u.input) : 0;
    sel.value = String(i);
    return openInput(i, u, boot);
  }).catch(showError);
})();
