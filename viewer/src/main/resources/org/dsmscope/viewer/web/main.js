// dsmscope view: the test API (counts, not pixels) and the page's start: the input list, the first picture's
// requests sent at once, the wiring of the input handlers and of the live polling. Loaded last.
'use strict';
(function () {
  const D = window.dsmview.internal;
  const {S, $, api, readUrl, plotWidth} = D;

  Object.assign(window.dsmview, {
    range: () => [S.t0, S.t1],
    meta: () => S.meta,
    data: () => S.data,
    counts: () => ({arrows: Object.assign({}, S.drawn.arrowCount), arrowsDrawn: S.hit.na,
      bundles: S.drawn.bundles, marks: S.data ? S.data.marks.count : 0, lanes: S.drawn.lanes.length,
      hosts: (S.drawnHosts || []).length, links: S.drawnLinks || 0}),
    lanes: () => S.meta.lanes.map((l) => l.name),
    perProcess: () => D.perProcessRows(),
    utilAt: (t) => D.utilAt(t),
    queueAt: (l, t) => D.queueAt(l, t),
    hosts: () => S.drawnHosts || [],
    arrowPoint: (i) => {
      const a = i < S.hit.na ? D.hitArrow(i) : null;
      return a ? {id: a.id, kind: a.kind, x: (a.x1 + a.x2) / 2, y: (a.y1 + a.y2) / 2} : null;
    },
    arrows: () => Array.from({length: S.hit.na}, (_, i) => D.hitArrow(i)),
    setCursor: (t) => { S.cursor = t; D.draw(); },
    frameTimes: () => S.frames.slice(),
    /** Space-time pictures drawn: {spaceTime: from the data, shifted: the last one moved, cursor: its cursor layer}. */
    paints: () => Object.assign({}, S.paints),
    loaded: () => S.loaded,
    firstPicture: () => S.firstPicture || null,
    events: () => (S.meta ? S.meta.events : 0)
  });

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
    D.wire();
    D.startPolling();
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
    return D.openInput(i, u, boot);
  }).catch(D.showError);
})();
