// dsmscope view: the space-time view of seed 002 §4.3 (Figure 1; §4.6's synchronization arrows, Figure 5): bars
// per process, events, arrows and bundles drawn from the server's window answer; the frame that draws every view.
'use strict';
(function () {
  const D = window.dsmview.internal;
  const {S, COLORS, COMM_MARKS, LANE_H, BAR_H, TOP, LEFT, $, fmt, stCanvas, plotWidth, SIZES, box, sizeCanvas, x, laneY,
    SHADES, pixel, pixels, kindsByCode} = D;

  function layout() {
    SIZES.clear();
    PICTURES.clear();
    if (!S.meta) return;
    sizeCanvas(stCanvas(), TOP + S.meta.lanes.length * LANE_H + 8);
    redraw();
    D.drawTables();
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
  /**
   * Draws at the next animation frame; any number of requests before it cost one frame. With {@code again} the
   * frame draws the data again even where the last picture would do (colours, the selection changed).
   */
  function requestDraw(again) {
    if (again) S.dirty = true;
    if (!S.raf) S.raf = requestAnimationFrame(() => { S.raf = 0; draw(); });
  }
  /** Draws the cursor layer and what follows the cursor at the next animation frame (a mouse move): no bars. */
  function requestCursor() {
    if (!S.rafCursor) S.rafCursor = requestAnimationFrame(() => { S.rafCursor = 0; drawCursor(); });
  }
  /** Draws now, the data again (not the last picture shifted). */
  function redraw() {
    S.dirty = true;
    draw();
  }
  /** Whether the data's window is the window shown (else a pan or zoom waits for the server's answer). */
  function answered() {
    const d = S.data;
    return !!d && Math.abs(d.t0 - S.t0) < 1 && Math.abs(d.t1 - S.t1) < 1;
  }
  /** Sets an element's text only when it changed (a change costs the page a layout at the next frame). */
  function text(id, s) {
    const e = $(id);
    if (e.textContent !== s) e.textContent = s;
  }

  /**
   * One frame: the time views (space-time, utilization, queues) from the data when the data answers the window
   * shown, else their last complete pictures shifted and scaled to it (a pan or zoom before the server's answer);
   * the overview, the cursor layer, the hosts and the header always.
   */
  function draw() {
    if (!S.meta) return;
    if (S.raf) { cancelAnimationFrame(S.raf); S.raf = 0; }
    const t = performance.now();
    S.pw = plotWidth(); // one layout read per frame, not one per coordinate
    const fresh = S.dirty || answered();
    S.dirty = false;
    if (timeView(stCanvas(), fresh, drawSpaceTime, 12, 0)) {
      performance.measure('dsmview:picture', {start: t});
    } else {
      axisLabels(stCanvas().getContext('2d'));
      S.paints.shifted++;
    }
    performance.measure('dsmview:space-time', {start: t});
    D.drawOverview();
    timeView($('util'), fresh, D.drawUtil, 0, 12);
    timeView($('queues'), fresh, D.drawQueues, 0, 0);
    drawCursor();
    text('total', fmt(S.meta.end));
    text('elapsed', fmt(S.t1 - S.t0) + ' (' + fmt(S.t0) + ' – ' + fmt(S.t1) + ')');
    S.frames.push(performance.now() - t);
    if (S.frames.length > 500) {
      S.frames.shift();
      performance.clearMeasures('dsmview:frame');
      performance.clearMeasures('dsmview:space-time');
      performance.clearMeasures('dsmview:picture');
    }
    performance.measure('dsmview:frame', {start: t});
  }

  /**
   * The last complete picture of each time view by canvas: the window it shows and, from the first frame that
   * needs it, a copy of its pixels.
   */
  const PICTURES = new Map();
  /**
   * Draws time view c: with fn from the data when {@code fresh} (or when there is no picture of this size yet),
   * else its last picture shifted and scaled to the window shown: rows top..H-bottom of the plot move with the
   * time axis (one drawImage), the names on the left and the rows outside stay. Returns whether fn drew.
   */
  function timeView(c, fresh, fn, top, bottom) {
    let p = PICTURES.get(c);
    if (fresh || !p || p.w !== c.width || p.h !== c.height) {
      fn();
      if (!p) PICTURES.set(c, p = {copy: null});
      p.t0 = S.t0; p.t1 = S.t1; p.w = c.width; p.h = c.height; p.copied = false;
      return true;
    }
    const dpr = window.devicePixelRatio || 1;
    if (!p.copied) { // the first frame of a gesture: the canvas still shows the picture
      if (!p.copy) p.copy = document.createElement('canvas');
      if (p.copy.width !== c.width || p.copy.height !== c.height) { p.copy.width = c.width; p.copy.height = c.height; }
      const cg = p.copy.getContext('2d');
      cg.clearRect(0, 0, c.width, c.height);
      cg.drawImage(c, 0, 0);
      p.copied = true;
    }
    const g = c.getContext('2d'), W = box(c).w, H = box(c).h, yb = H - bottom;
    const k = (p.t1 - p.t0) / (S.t1 - S.t0), dx = LEFT + (p.t0 - S.t0) / (S.t1 - S.t0) * S.pw;
    g.clearRect(0, 0, W, H);
    g.imageSmoothingEnabled = false;
    g.drawImage(p.copy, 0, 0, LEFT * dpr, H * dpr, 0, 0, LEFT, H);
    if (bottom > 0) g.drawImage(p.copy, LEFT * dpr, yb * dpr, (W - LEFT) * dpr, bottom * dpr, LEFT, yb, W - LEFT, bottom);
    // the part of the picture that lands in [LEFT, W] at the new scale
    const s0 = Math.max(LEFT, LEFT + (LEFT - dx) / k), s1 = Math.min(W, LEFT + (W - dx) / k);
    if (s1 > s0) {
      g.drawImage(p.copy, s0 * dpr, top * dpr, (s1 - s0) * dpr, (yb - top) * dpr, dx + (s0 - LEFT) * k, top,
        (s1 - s0) * k, yb - top);
    }
    g.imageSmoothingEnabled = true;
    return false;
  }
  /** The time axis's labels (above the phases band) for the window shown. */
  function axisLabels(g) {
    g.font = '11px system-ui, sans-serif';
    g.fillStyle = '#666';
    for (let i = 0; i < 8; i++) {
      const tt = S.t0 + (S.t1 - S.t0) * i / 8;
      g.fillText(fmt(tt), x(tt) + 2, 10);
    }
  }

  /**
   * The cursor layer (a canvas over the space-time view and one over the utilization view: the bars are not
   * drawn again when the cursor moves), the hosts coloured by their state at the cursor, and the cursor's time.
   */
  function drawCursor() {
    cursorLine($('spacetimeCursor'), stCanvas(), TOP - 6, 0, true);
    cursorLine($('utilCursor'), $('util'), 0, 12, false);
    D.drawHosts();
    text('cursor', S.cursor === null ? '-' : fmt(S.cursor));
  }
  /** Where each cursor layer's line is drawn (by canvas). */
  const CURSOR_SHOWN = new Map();
  function cursorLine(o, under, top, bottom, dashed) {
    const g = sizeCanvas(o, under.height / (window.devicePixelRatio || 1)); // the same CSS height as the view
    const W = box(o).w, H = box(o).h;
    const key = (S.cursor === null ? '-' : Math.round(4 * x(S.cursor))) + ' ' + o.width + ' ' + o.height;
    if (CURSOR_SHOWN.get(o) === key) return; // the line is where it was: the layer stays as it is
    CURSOR_SHOWN.set(o, key);
    if (under === stCanvas()) S.paints.cursor++;
    g.clearRect(0, 0, W, H);
    if (S.cursor === null) return;
    g.strokeStyle = '#000';
    if (dashed) g.setLineDash([4, 3]);
    g.beginPath(); g.moveTo(x(S.cursor), top); g.lineTo(x(S.cursor), H - bottom); g.stroke();
    g.setLineDash([]);
  }

  function drawSpaceTime() {
    const c = stCanvas();
    const g = sizeCanvas(c, TOP + S.meta.lanes.length * LANE_H + 8);
    const W = box(c).w, H = box(c).h;
    g.clearRect(0, 0, W, H);
    g.font = '11px system-ui, sans-serif';
    const drawn = {lanes: [], arrowCount: {message: 0, sync: 0, lock: 0, barrier: 0}, bundles: 0};
    S.drawn = drawn;
    S.paints.spaceTime++;
    S.hit.na = 0;
    S.hit.nm = 0;
    S.hit.t0 = S.t0;
    S.hit.t1 = S.t1;
    // the time axis: grid lines (one path) and labels
    g.strokeStyle = '#eee';
    g.beginPath();
    for (let i = 0; i <= 8; i++) {
      const px = x(S.t0 + (S.t1 - S.t0) * i / 8);
      g.moveTo(px, TOP - 4); g.lineTo(px, H);
    }
    g.stroke();
    axisLabels(g);
    const d = S.data;
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
    g.fillStyle = '#222';
    for (let l = 0; l < S.meta.lanes.length; l++) g.fillText(S.meta.lanes[l].name, 4, laneY(l) + BAR_H - 3);
    if (!d) return;
    paintBars(g, d, W, drawn);
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
  }
  /**
   * The bars (lanes in 'exact' mode: their intervals; in 'bins' mode: the state fractions per column, stacked) and
   * the event counts per lane and column painted pixel by pixel into one reused ImageData and drawn with one
   * drawImage: the cost is the bars' pixels, whatever the number of intervals, columns and states.
   */
  function paintBars(g, d, W, drawn) {
    const dpr = window.devicePixelRatio || 1, states = S.meta.states, n = states.length - 1;
    const P = pixels('bars', Math.max(1, Math.ceil((W - LEFT) * dpr)), Math.max(1, Math.ceil(S.meta.lanes.length * LANE_H * dpr)));
    const bw = (d.t1 - d.t0) / d.bins, row = (v) => Math.round((v - TOP) * dpr);
    const px = (t) => Math.round((Math.min(W, Math.max(LEFT, x(t))) - LEFT) * dpr);
    const colPx = (b) => Math.round((x(d.t0 + b * bw) - LEFT) * dpr);
    const colors = states.map((st) => pixel(COLORS[st]));
    for (let l = 0; l < S.meta.lanes.length; l++) {
      const ln = d.lanes[l];
      if (!ln || ln.mode === 'empty') continue;
      const y = laneY(l), top = row(y), bottom = row(y + BAR_H), h = bottom - top;
      const xa = px(ln.start);
      P.box(xa, Math.max(xa + 1, px(ln.end)), top, bottom, colors[0]);
      if (ln.mode === 'exact') {
        const iv = ln.iv;
        for (let i = 0; i < iv.length; i += 3) {
          const x0 = px(iv[i]);
          P.box(x0, Math.max(x0 + 1, px(iv[i + 1])), top, bottom, colors[iv[i + 2]]);
        }
        continue;
      }
      for (let b = 0; b < d.bins; b++) {
        const x0 = colPx(b), x1 = Math.max(x0 + 1, colPx(b + 1));
        if (x1 <= 0 || x0 >= P.iw) continue;
        let off = 0;
        for (let st = 0; st < n; st++) {
          const f = ln.fr[b * n + st];
          if (!f) continue;
          const rows = Math.round(h * f / 100);
          P.box(x0, x1, bottom - off - rows, bottom - off, colors[st + 1]);
          off += rows;
        }
      }
    }
    if (d.marks.mode !== 'exact') {
      const m = d.marks.list;
      for (let i = 0; i < m.length; i += 3) {
        const l = m[i], b = m[i + 1], x0 = colPx(b), y = row(laneY(l) - 4);
        P.box(x0, Math.max(x0 + Math.round(2 * dpr), colPx(b + 1)), y, y + Math.round(3 * dpr), SHADES[Math.min(3, Math.floor(Math.log10(m[i + 2] + 1)))]);
      }
    }
    P.draw(g, LEFT, TOP);
    g.strokeStyle = '#888';
    for (let l = 0; l < S.meta.lanes.length; l++) {
      const ln = d.lanes[l];
      if (!ln || ln.mode === 'empty') continue;
      const y = laneY(l), xa = Math.max(LEFT, x(ln.start)), xb = Math.min(W, x(ln.end));
      g.strokeRect(xa, y, Math.max(1, xb - xa), BAR_H);
      drawn.lanes.push({lane: l, y0: y, y1: y + BAR_H});
    }
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
  /** Adds an arrow head at (x2, y2) to path g (a context or a Path2D), a triangle left open: fill() closes it. */
  function head(g, x1, y1, x2, y2) {
    const ang = Math.atan2(y2 - y1, x2 - x1), L = 7;
    g.moveTo(x2, y2);
    g.lineTo(x2 - L * Math.cos(ang - 0.4), y2 - L * Math.sin(ang - 0.4));
    g.lineTo(x2 - L * Math.cos(ang + 0.4), y2 - L * Math.sin(ang + 0.4));
  }

  Object.assign(D, {layout, requestDraw, requestCursor, draw, redraw, hitArrow, drawSpaceTime});
})();
