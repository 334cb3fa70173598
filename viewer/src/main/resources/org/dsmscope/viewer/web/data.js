// dsmscope view: data fetching: each visible window's answer and tables from the server (the level of detail is
// the server's), the input's description, and the live input's updates (polling; dsmview.liveUpdate for a push).
'use strict';
(function () {
  const D = window.dsmview.internal;
  const {S, $, api, writeUrl, filterParams, plotWidth} = D;

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
      D.requestDraw();
    });
    const tab = (boot && boot.tab || api('/api/tables', {t0: p.t0, t1: p.t1})).then((tables) => {
      if (seq !== S.seq) return;
      S.tables = tables;
    });
    return Promise.all([win, tab]).then(() => {
      if (seq !== S.seq) return;
      S.loaded++;
      D.drawTables();
      // the window's picture not drawn yet, or drawn at a width the tables changed (a scroll bar): now
      if (S.raf || plotWidth() !== S.pw) D.redraw();
      else D.drawHosts(); // the links follow the window's transport table
      if (!S.firstPicture) {
        S.firstPicture = performance.now();
        performance.mark('dsmview:first-picture');
      }
      window.dsmview.ready = true;
    }).catch((e) => showError(e)).finally(() => {
      S.pending--;
      if (updateAgain && !S.pending) { updateAgain = false; liveUpdate(); }
    });
  }
  let loadTimer = null;
  function scheduleLoad() {
    D.requestDraw();
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
      D.buildLegend();
      D.buildFilters();
      D.layout();
      return load(boot);
    }).catch(showError);
  }

  // ---------------------------------------------------------------- live: the views grow as events arrive
  // The one place that asks whether a live input grew: polling every 250 ms, or a push channel that stops the
  // polling (dsmview.polling(false)) and calls dsmview.liveUpdate(end) whenever the server has more.
  let pollTimer = null, updateAgain = false;
  function startPolling() { if (!pollTimer) pollTimer = setInterval(poll, 250); }
  function stopPolling() { clearInterval(pollTimer); pollTimer = null; }
  // the fallback of live.js's push channel: while it is open (S.push) nothing is polled
  function poll() {
    if (S.push || !S.meta || S.meta.source !== 'live' || S.pending) return;
    S.polls = (S.polls || 0) + 1;
    refreshLive();
  }
  /** Asks for the live input's description and, if it grew, its window again (what a push calls on news). */
  function liveUpdate() {
    if (!S.meta || S.meta.source !== 'live') return;
    if (S.pending) { updateAgain = true; return; } // once the answer in flight is drawn
    refreshLive();
  }
  function refreshLive() {
    api('/api/meta').then(liveMeta).catch(() => {});
  }
  /** A newer description of the live input (polled, or pushed by live.js); false while a load still runs. */
  function liveMeta(m) {
    if (S.pending) return false;
    if (m.version === S.version) return true;
    const grew = m.lanes.length !== S.meta.lanes.length;
    const wasWhole = S.t0 <= 0 && S.t1 >= S.meta.end;
    S.meta = m;
    S.version = m.version;
    showTitle();
    if (grew) { D.buildFilters(); D.layout(); }
    if (S.follow) {
      // the whole run stays whole; a zoomed-in window keeps its width and follows the newest time
      const w = S.t1 - S.t0;
      if (wasWhole) { S.t0 = 0; S.t1 = Math.max(1, m.end * 1.02); }
      else { S.t1 = m.end + w * 0.05; S.t0 = S.t1 - w; }
    }
    load();
    return true;
  }
  Object.assign(window.dsmview, {liveUpdate, polling: (on) => (on ? startPolling() : stopPolling())});

  Object.assign(D, {load, scheduleLoad, showError, showTitle, openInput, startPolling, liveMeta});
})();
