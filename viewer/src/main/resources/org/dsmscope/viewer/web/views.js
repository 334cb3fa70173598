// dsmscope view: the views beside the space-time view: the overview of the whole run, utilization over time
// (seed 002 §4.5, Figure 3), message queues (§4.6), the hosts graph (§4.3), per-process utilization (§4.5,
// Figure 4) and the transport summary (§4.1.3).
'use strict';
(function () {
  const D = window.dsmview.internal;
  const {S, COLORS, LEFT, $, sizeCanvas, box, rects, x, SIZES, pixel, pixels} = D;

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
    // the stacked columns pixel by pixel into one reused ImageData: the cost is the view's pixels, not its columns
    const dpr = window.devicePixelRatio || 1;
    const P = pixels('util', Math.max(1, Math.ceil((W - LEFT) * dpr)), Math.ceil(H * dpr));
    const colors = states.map((s) => pixel(s === 'blocked' || s === 'idle' ? '#c8c8c8' : COLORS[s]));
    for (let b = 0; b < d.bins; b++) {
      let acc = 0;
      const x0 = x(d.t0 + b * bw), x1 = x(d.t0 + (b + 1) * bw);
      if (x1 < LEFT || x0 > W) continue;
      const p0 = Math.round((Math.max(LEFT, x0) - LEFT) * dpr), p1 = Math.max(p0 + 1, Math.round((x1 - LEFT) * dpr));
      for (let s = 0; s < n; s++) {
        const v = d.util[b * n + s];
        if (!v) continue;
        P.box(p0, p1, Math.round(yOf(acc + v) * dpr), Math.round(yOf(acc) * dpr), colors[s]);
        acc += v;
      }
    }
    P.draw(g, LEFT, 0);
    g.fillStyle = '#555';
    let lx = LEFT;
    for (const s of states) {
      g.fillStyle = s === 'blocked' || s === 'idle' ? '#c8c8c8' : COLORS[s];
      g.fillRect(lx, H - 10, 10, 8);
      g.fillStyle = '#333';
      g.fillText(s, lx + 13, H - 3);
      lx += 20 + g.measureText(s).width;
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

  /** What the hosts graph shows (sizes, states, colours, tables): a frame that changes none of it keeps it. */
  const hostsShown = {key: '', meta: null, tables: null};
  function drawHosts() {
    const c = $('hosts');
    const g = sizeCanvas(c, 150);
    const W = box(c).w;
    const n = S.meta.lanes.length;
    const t = S.cursor !== null ? S.cursor : (S.t0 + S.t1) / 2;
    let key = c.width + ' ' + c.height + ' ' + S.meta.states.map((s) => COLORS[s]).join(' ');
    for (let l = 0; l < n; l++) key += ' ' + stateAt(l, t);
    if (key === hostsShown.key && S.meta === hostsShown.meta && S.tables === hostsShown.tables) return;
    Object.assign(hostsShown, {key, meta: S.meta, tables: S.tables});
    g.clearRect(0, 0, W, 150);
    if (!n) return;
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

  Object.assign(D, {drawOverview, drawUtil, drawQueues, drawHosts, drawTables, perProcessRows, stateAt, utilAt, queueAt});
})();
