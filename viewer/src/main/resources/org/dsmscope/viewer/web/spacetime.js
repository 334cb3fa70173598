// dsmscope view: the space-time view of seed 002 §4.3 (Figure 1; §4.6's synchronization arrows, Figure 5): bars
// per process, events, arrows and bundles drawn from the server's window answer; the frame that draws every view.
'use strict';
(function () {
  const D = window.dsmview.internal;
  const {S, COLORS, COMM_MARKS, LANE_H, BAR_H, TOP, LEFT, $, fmt, stCanvas, plotWidth, SIZES, box, sizeCanvas, x, laneY,
    SHADES, pixel, kindsByCode} = D;

  function layout() {
    SIZES.clear();
    if (!S.meta) return;
    sizeCanvas(stCanvas(), TOP + S.meta.lanes.length * LANE_H + 8);
    draw();
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
  /** Draws at the next animation frame; any number of requests before it cost one frame. */
  function requestDraw() {
    if (!S.raf) S.raf = requestAnimationFrame(() => { S.raf = 0; draw(); });
  }
  function draw() {
    if (!S.meta) return;
    if (S.raf) { cancelAnimationFrame(S.raf); S.raf = 0; }
    const t = performance.now();
    S.pw = plotWidth(); // one layout read per frame, not one per coordinate
    drawSpaceTime();
    performance.measure('dsmview:space-time', {start: t});
    D.drawOverview();
    D.drawUtil();
    D.drawQueues();
    D.drawHosts();
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

  Object.assign(D, {layout, requestDraw, draw, hitArrow});
})();
