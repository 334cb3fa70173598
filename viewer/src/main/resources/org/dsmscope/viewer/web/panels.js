// dsmscope view: the panels beside the time views: each process's standard output (seed 002 §4.6, XPVM's
// output view) linked to the time cursor, and the form that starts a DSM program from the page (Xunify's menus).
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  const I = () => window.dsmview.internal;
  const LIMIT = 60;
  const out = {key: null, answer: null, busy: false, fetched: 0};

  // ---------------------------------------------------------------- standard output per process
  // the latest lines of every process at the cursor (the window's end while no cursor is set)
  function outputAt() {
    const S = I().S;
    return S.cursor !== null ? S.cursor : S.t1;
  }
  function refreshOutput() {
    const S = I().S;
    if (!S.meta || out.busy) return;
    const at = Math.floor(outputAt());
    const key = S.input + ':' + at + ':' + S.meta.version + ':' + (S.meta.source === 'live' ? Math.floor(Date.now() / 1000) : 0);
    if (key === out.key) return;
    out.busy = true;
    I().api('/api/output', {at, limit: LIMIT}).then((a) => {
      out.key = key;
      out.fetched++;
      const text = JSON.stringify(a);
      if (text === out.text) return; // the same lines: the panel's elements stay (no layout of the page)
      out.text = text;
      out.answer = a;
      drawOutput();
    }).catch(() => {}).finally(() => { out.busy = false; });
  }
  function drawOutput() {
    const {S, fmt} = I();
    const a = out.answer;
    const el = $('output');
    el.innerHTML = '';
    if (!a) return;
    if (!a.available) {
      const p = document.createElement('div');
      p.className = 'none';
      p.textContent = a.note;
      el.appendChild(p);
      return;
    }
    for (const pr of a.processes) {
      const col = document.createElement('div');
      col.className = 'proc';
      col.dataset.name = pr.name;
      const h = document.createElement('div');
      h.className = 'head';
      h.textContent = pr.name + ' · ' + pr.upToTime + ' of ' + pr.total + ' lines';
      col.appendChild(h);
      const box = document.createElement('div');
      box.className = 'lines';
      if (!pr.lines.length) {
        const e = document.createElement('div');
        e.className = 'none';
        e.textContent = pr.total ? 'nothing written before the cursor' : 'wrote nothing';
        box.appendChild(e);
      }
      for (const [t, stream, text] of pr.lines) {
        const ln = document.createElement('div');
        ln.className = 'line ' + stream;
        ln.dataset.time = t;
        ln.title = 'click: move the cursor to ' + fmt(t);
        const ts = document.createElement('span');
        ts.className = 't';
        ts.textContent = fmt(t);
        const tx = document.createElement('span');
        tx.className = 'x';
        tx.textContent = text;
        ln.appendChild(ts);
        ln.appendChild(tx);
        ln.addEventListener('click', () => jumpTo(t));
        box.appendChild(ln);
      }
      col.appendChild(box);
      el.appendChild(col);
      box.scrollTop = box.scrollHeight;
    }
  }
  // a clicked line moves the cursor to its time, centred in the window (its width kept)
  function jumpTo(t) {
    const {S, scheduleLoad} = I();
    const w = S.t1 - S.t0;
    S.cursor = t;
    S.follow = false;
    S.t0 = t - w / 2;
    S.t1 = t + w / 2;
    scheduleLoad();
  }

  // ---------------------------------------------------------------- hosts: a click on an icon shows its host
  function hostClick(e) {
    const {S, showDetails} = I();
    const hosts = S.drawnHosts || [];
    if (!hosts.length || !S.meta) return;
    const px = e.clientX - $('hosts').getBoundingClientRect().left;
    let best = 0;
    hosts.forEach((h, i) => { if (Math.abs(h.x - px) < Math.abs(hosts[best].x - px)) best = i; });
    const hi = S.meta.lanes[best].hostInfo || {};
    showDetails({process: hosts[best].name, host: hi.host, architecture: hi.arch, 'operating system': hi.os,
      cores: hi.cores ? hi.cores : 'unknown', jvm: hi.jvm});
  }
  $('hosts').addEventListener('click', hostClick);

  // ---------------------------------------------------------------- starting a DSM program (view --launch)
  const launch = {enabled: false, started: 0, error: null};
  function setupLaunch() {
    I().api('/api/launch').then((a) => {
      launch.enabled = a.enabled;
      if (!a.enabled) return;
      $('launchPanel').hidden = false;
      const sel = $('lProgram');
      sel.innerHTML = '';
      for (const p of a.programs) {
        const o = document.createElement('option');
        o.value = p;
        o.textContent = p.replace(/^.*\./, '');
        sel.appendChild(o);
      }
      $('lMembers').max = a.maxMembers;
    }).catch(() => {});
  }
  function startRun(e) {
    e.preventDefault();
    const {api, showError} = I();
    const q = new URLSearchParams({program: $('lProgram').value, members: $('lMembers').value,
      args: $('lArgs').value, loss: $('lLoss').value});
    const tok = new URLSearchParams(location.search).get('token');
    if (tok) q.set('token', tok);
    $('lStart').disabled = true;
    $('launchInfo').textContent = 'starting…';
    fetch('/api/launch?' + q.toString(), {method: 'POST', headers: {'X-Dsmscope': 'launch'}})
      .then((r) => r.json().then((j) => { if (!r.ok) throw new Error(j.error || r.status); return j; }))
      .then((j) => {
        launch.started++;
        $('launchInfo').textContent = 'running as input ' + j.input + ': the views follow it live';
        return api('/api/inputs').then((inputs) => {
          const sel = $('input');
          sel.innerHTML = '';
          for (const i of inputs) {
            const o = document.createElement('option');
            o.value = i.input;
            o.textContent = i.title + ' (' + i.source + ')';
            sel.appendChild(o);
          }
          sel.value = String(j.input);
          $('banner').hidden = true;
          I().S.follow = true;
          return I().openInput(j.input);
        });
      })
      .catch((err) => { launch.error = String(err.message || err); $('launchInfo').textContent = 'error: ' + launch.error; })
      .finally(() => { $('lStart').disabled = false; });
  }
  $('launchForm').addEventListener('submit', startRun);
  setupLaunch();

  // ---------------------------------------------------------------- test API
  Object.assign(window.dsmview, {
    output: () => out.answer,
    outputFetched: () => out.fetched,
    launch: () => Object.assign({}, launch),
    outputLines: () => Array.from(document.querySelectorAll('#output .line .x')).map((e) => e.textContent)
  });

  setInterval(refreshOutput, 300);
})();
