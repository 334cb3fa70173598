// dsmscope view: the page's shared state and helpers (seed 002 §4.3-4.6: one time axis, one selection for every
// view): the namespace window.dsmview (its `internal` object is what the page's scripts share), the state S, the
// API client, time formatting, the address that keeps the view, canvas sizes and the time-to-pixel mapping.
// Loaded first; core.js, data.js, spacetime.js, views.js, input.js, panels.js, main.js run in this order.
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
    frames: [], pw: 0, raf: 0, dirty: true,
    // pictures drawn: the space-time view from the data, shifted from the last picture, its cursor layer (tests)
    paints: {spaceTime: 0, shifted: 0, cursor: 0},
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

  // ---------------------------------------------------------------- canvases and the time axis
  function sizeCanvas(c, h) {
    const dpr = window.devicePixelRatio || 1;
    if (h && c.style.height !== h + 'px') { c.style.height = h + 'px'; SIZES.delete(c); }
    const w = Math.round(box(c).w * dpr), hh = Math.round((h || box(c).h) * dpr);
    if (c.width !== w || c.height !== hh) { c.width = w; c.height = hh; } // a resize reallocates: only when needed
    const g = c.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    return g;
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
  function x(t) { return LEFT + (t - S.t0) / (S.t1 - S.t0) * (S.pw || plotWidth()); }
  function tAt(px) { return S.t0 + (px - LEFT) / plotWidth() * (S.t1 - S.t0); }
  function laneY(l) { return TOP + l * LANE_H + (LANE_H - BAR_H) / 2; }
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
   * A reused buffer of iw × ih device pixels per key (an ImageData, its pixels as a Uint32Array and a canvas to
   * draw it from), cleared: a view painted pixel by pixel costs its pixels, not its number of shapes.
   */
  const BUFFERS = new Map();
  function pixels(key, iw, ih) {
    let P = BUFFERS.get(key);
    if (P && P.iw === iw && P.ih === ih) {
      P.px.fill(0);
      return P;
    }
    const canvas = document.createElement('canvas');
    canvas.width = iw;
    canvas.height = ih;
    // a canvas kept in memory (willReadFrequently): where the page's canvases are on a GPU, putting pixels into it
    // costs no upload before the one drawImage
    const ctx = canvas.getContext('2d', {willReadFrequently: true}), img = new ImageData(iw, ih);
    const px = new Uint32Array(img.data.buffer);
    P = {iw, ih, px,
      /** Fills device pixels [x0, x1) × [y0, y1), clipped to the buffer, with pixel value v. */
      box(x0, x1, y0, y1, v) {
        x0 = Math.max(0, x0); x1 = Math.min(iw, x1); y0 = Math.max(0, y0); y1 = Math.min(ih, y1);
        if (x1 <= x0) return;
        for (let y = y0; y < y1; y++) px.fill(v, y * iw + x0, y * iw + x1);
      },
      /** Draws the buffer on g with its top left corner at (x0, y0) in CSS pixels. */
      draw(g, x0, y0) {
        const dpr = window.devicePixelRatio || 1;
        ctx.putImageData(img, 0, 0);
        g.drawImage(canvas, x0, y0, iw / dpr, ih / dpr);
      }};
    BUFFERS.set(key, P);
    return P;
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

  /** The page's test API (counts, not pixels) and, under `internal`, what its scripts share. */
  window.dsmview = {ready: false};
  window.dsmview.internal = {S, COLORS, COMM_MARKS, LANE_H, BAR_H, TOP, LEFT, $, api, fmt, writeUrl, readUrl,
    filterParams, stCanvas, plotWidth, SIZES, box, sizeCanvas, rects, x, tAt, laneY, SHADES, pixel, pixels, kindsByCode};
})();
