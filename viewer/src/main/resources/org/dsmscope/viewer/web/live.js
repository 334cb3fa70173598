// dsmscope view: the live push channel (viewer/README.md "Push channel", seed 002 §4.3's display while the program
// runs). The server says over a WebSocket when a live input has new events indexed (its end, counts and lane
// totals, "dsmscope-view-push 1"); the page then fetches only the window it draws, through data.js's liveMeta.
// While the channel is not open, data.js polls every 250 ms, and the live status line says so.
'use strict';
(function () {
  const V = window.dsmview, I = V.internal, S = I.S;
  // what the channel did, for tests and benchmarks
  const P = V.push = {state: 'connecting', opened: 0, received: 0, updates: 0, applied: 0, missed: 0, metas: 0};
  const latest = new Map(); // input -> its newest update not yet applied
  let retryTimer = null, applyTimer = null;

  function status(text) {
    let el = document.getElementById('pushStatus');
    if (!el) {
      el = document.createElement('span');
      el.id = 'pushStatus';
      document.getElementById('live').appendChild(el);
    }
    el.textContent = ' · ' + text;
  }

  function connect() {
    retryTimer = null;
    const token = new URLSearchParams(location.search).get('token');
    const url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/api/push' +
      (token ? '?token=' + encodeURIComponent(token) : '');
    let ws;
    try {
      ws = new WebSocket(url);
    } catch (e) {
      closed('cannot open the push channel');
      return;
    }
    ws.onopen = () => {
      P.state = 'open';
      P.opened++;
      P.pollsAtOpen = S.polls || 0;
      S.push = true;
      status('updates pushed');
    };
    ws.onmessage = (e) => {
      const m = JSON.parse(e.data);
      P.received++;
      if (m.missed) P.missed += m.missed;
      if (m.kind === 'update') {
        P.updates++;
        latest.set(m.input, m);
        apply();
      }
    };
    ws.onclose = () => closed('push channel closed');
  }

  function closed(why) {
    S.push = false;
    P.state = 'closed';
    status('polling every 250 ms (' + why + ')');
    if (!retryTimer) retryTimer = setTimeout(connect, 5000);
  }

  /** The shown input's newest update, once no load is running: merged into the description, or a full one. */
  function apply() {
    applyTimer = null;
    const m = latest.get(S.input);
    if (!m || !S.meta || S.meta.source !== 'live') return;
    const meta = S.meta;
    if (m.version === S.version && m.damage === meta.damage) { latest.delete(S.input); return; }
    if (S.pending) { // the picture being loaded comes first; the newest update goes right after it
      if (!applyTimer) applyTimer = setTimeout(apply, 8);
      return;
    }
    latest.delete(S.input);
    P.applied++;
    if (m.damage !== meta.damage) { // events dropped for the viewer: the banner says how many, no other request
      const b = document.getElementById('banner');
      b.hidden = !m.damage;
      b.textContent = m.damage || '';
      meta.damage = m.damage;
    }
    if (m.lanes.length !== meta.lanes.length || m.hosts !== meta.hosts || m.notes !== (meta.notes || []).length) {
      // new lanes, hosts or notes: the full description, once
      P.metas++;
      I.api('/api/meta').then((full) => {
        if (full.version === S.version) {
          // nothing new to draw: only the lanes' hosts or the notes changed
          Object.assign(S.meta, {lanes: full.lanes, hosts: full.hosts, notes: full.notes});
        } else if (!I.liveMeta(full)) {
          latest.set(S.input, m);
          apply();
        }
      }).catch(() => {});
      return;
    }
    const lanes = meta.lanes.map((l, i) => Object.assign({}, l, m.lanes[i]));
    I.liveMeta(Object.assign({}, meta, {version: m.version, end: m.end, events: m.events, arrows: m.arrows, lanes}));
  }

  if (!('WebSocket' in window)) closed('this browser has no WebSocket');
  else connect();
})();
