// droidflame's page: the UI on the main thread. All analysis runs in a worker (see
// worker.js); this file only asks for products and shows them. Trace text is untrusted:
// it is only ever set as textContent, and flame graphs live in sandboxed iframes.
'use strict';

(function () {
  // ---- the worker ------------------------------------------------------------------

  // Talks to the analysis worker; replaces it after a crash.
  class Engine {
    constructor(boot) {
      this.boot = boot;
      this.worker = null;
      this.pending = new Map();
      this.nextId = 1;
    }

    async ensure() {
      if (this.worker) return;
      if (!this.module) this.module = this.boot.wasmModule();
      const module = await this.module;
      if (this.worker) return;
      this.worker = this.boot.createWorker();
      this.worker.onmessage = (event) => this.receive(event.data);
      this.worker.onerror = (event) => {
        event.preventDefault();
        this.crash(event.message || 'the analysis worker stopped');
      };
      this.worker.postMessage({ type: 'init', module });
    }

    crash(message) {
      if (this.worker) this.worker.terminate();
      this.worker = null;
      for (const job of this.pending.values()) job.reject(new Error(message));
      this.pending.clear();
    }

    receive(message) {
      const job = this.pending.get(message.id);
      if (!job) return;
      if (message.type === 'progress') {
        if (job.progress) job.progress(message.done, message.total);
        return;
      }
      this.pending.delete(message.id);
      if (message.type === 'ok') {
        job.resolve(message);
        return;
      }
      job.reject(new Error(message.message));
      if (message.fatal) this.crash('the analysis engine crashed: ' + message.message);
    }

    async call(request, progress) {
      await this.ensure();
      const id = this.nextId++;
      return new Promise((resolve, reject) => {
        this.pending.set(id, { resolve, reject, progress });
        this.worker.postMessage(Object.assign({ id }, request));
      });
    }

    analyze(key, inputs, progress) {
      return this.call({ type: 'analyze', key, inputs }, progress);
    }

    svg(key, thread, clock) {
      return this.call({ type: 'svg', key, thread, clock }).then((r) => r.svg);
    }

    folded(key, clock, tid) {
      return this.call({ type: 'folded', key, clock, tid }).then((r) => r.folded);
    }

    release(key) {
      return this.call({ type: 'release', key });
    }
  }

  const engine = new Engine(window.DROIDFLAME_BOOT);

  // ---- small helpers -----------------------------------------------------------------

  const $ = (id) => document.getElementById(id);
  const grouped = new Intl.NumberFormat('en-US');

  function micros(value) {
    return value === null || value === undefined ? '—' : grouped.format(value);
  }

  function millis(us) {
    if (us === null || us === undefined) return '—';
    if (us >= 1e6) return (us / 1e6).toFixed(us >= 1e7 ? 1 : 2) + ' s';
    if (us >= 1e3) return (us / 1e3).toFixed(us >= 1e4 ? 0 : 1) + ' ms';
    return us + ' µs';
  }

  function percent(part, whole) {
    if (part === null || part === undefined || !whole) return '';
    return (part * 100 / whole).toFixed(1) + '%';
  }

  function element(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (name === 'class') node.className = value;
      else if (name === 'text') node.textContent = value;
      else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
      else node.setAttribute(name, value === true ? '' : value);
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  // A name fit for a downloaded file, whatever the trace was called.
  function fileStem(name) {
    const stem = String(name || 'trace').replace(/\.(gz)$/i, '').replace(/\.(trace|key|data)$/i, '');
    return stem.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '').slice(0, 80) || 'trace';
  }

  function download(name, text, type) {
    const url = URL.createObjectURL(new Blob([text], { type }));
    const link = element('a', { href: url, download: name });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  function setState(state) {
    document.body.dataset.state = state;
    $('welcome').hidden = state !== 'idle';
    $('progress').hidden = state !== 'loading';
    $('error').hidden = state !== 'error';
    $('report').hidden = state !== 'done';
  }

  // ---- what is shown -----------------------------------------------------------------

  const view = {
    key: 'ui',
    name: '',
    summary: null,
    edges: [],
    clock: 'wall',
    thread: 0, // index into summary.threads, or -1 for all threads
    svgs: new Map(),
    methodSort: { column: 'incl', descending: true },
    methodsStale: false,
    selectedMethod: -1,
  };

  function clocks() {
    const c = view.summary.format.clock;
    return { wall: c === 'wall' || c === 'dual', cpu: c === 'thread-cpu' || c === 'dual' };
  }

  function threadTotal(thread, clock) {
    return clock === 'cpu' ? thread.cpu_us : thread.wall_us;
  }

  function grandTotal(clock) {
    return view.summary.threads.reduce((sum, t) => sum + (threadTotal(t, clock) || 0), 0);
  }

  async function open(inputs, name) {
    setState('loading');
    $('progress-bar').value = 0;
    $('progress-text').textContent = 'Reading ' + name + '…';
    view.svgs.clear();
    const started = performance.now();
    try {
      const result = await engine.analyze(view.key, inputs, (done, total) => {
        $('progress-bar').value = total ? done / total : 0;
        $('progress-text').textContent = 'Reading ' + name + ': ' + sizeText(done) + ' of ' + sizeText(total);
      });
      document.body.dataset.wasmBytes = String(result.wasmBytes);
      view.summary = JSON.parse(result.summary);
      view.edges = JSON.parse(result.calls).edges.map((e) => [e.caller === null ? -1 : e.caller, e.callee, e.calls, e.incl_wall_us, e.incl_cpu_us]);
      view.name = name;
      view.clock = clocks().wall ? 'wall' : 'cpu';
      view.selectedMethod = -1;
      $('progress-bar').value = 1;
      $('progress-text').textContent = 'Drawing the flame graph…';
      const order = sortedThreads();
      view.thread = order.length ? order[0] : -1;
      await showGraph();
      renderReport();
      setState('done');
      document.body.dataset.firstGraphMs = String(Math.round(performance.now() - started));
      return view.summary;
    } catch (error) {
      showError(error.message);
      throw error;
    }
  }

  function sizeText(bytes) {
    if (bytes >= 1 << 20) return (bytes / (1 << 20)).toFixed(1) + ' MB';
    if (bytes >= 1 << 10) return (bytes / (1 << 10)).toFixed(0) + ' KB';
    return bytes + ' bytes';
  }

  function showError(message) {
    $('error-text').textContent = message;
    setState('error');
  }

  function sortedThreads() {
    const threads = view.summary.threads;
    return threads.map((_, i) => i).sort((a, b) =>
      (threadTotal(threads[b], view.clock) || 0) - (threadTotal(threads[a], view.clock) || 0) || a - b);
  }

  function renderReport() {
    $('file-name').textContent = view.name;
    renderFacts();
    renderWarnings();
    renderClockSwitch();
    renderThreads();
    showMethodsWhenVisible();
    renderTraceTab();
  }

  // The methods table (thousands of rows to sort) is built when its tab is shown, not
  // while the first graph is waited for.
  function showMethodsWhenVisible() {
    view.methodsStale = true;
    if (!$('tab-methods').hidden) renderMethods();
  }

  function renderFacts() {
    const s = view.summary;
    const f = s.format;
    const elapsed = s.header['elapsed-time-usec'] !== undefined
      ? Number(s.header['elapsed-time-usec'])
      : s.header['elapsed-time-nsec'] !== undefined ? Math.round(Number(s.header['elapsed-time-nsec']) / 1000) : null;
    const facts = [
      (f.family === 'art' ? 'Method trace, ' + f.layout + ' v' + f.version : 'System trace (atrace), ' + f.layout) +
        (f.gzip ? ', gzip' : ''),
      'clock ' + f.clock,
      f.vm ? 'VM ' + f.vm : null,
      s.header.pid ? 'pid ' + s.header.pid : null,
      elapsed !== null ? 'elapsed ' + millis(elapsed) : null,
      grouped.format(s.records) + ' records',
      s.threads.length + ' threads',
      f.sampling_interval_us ? 'sampled every ~' + millis(f.sampling_interval_us) : null,
    ].filter(Boolean);
    $('facts').textContent = facts.join(' · ');
  }

  // Every repair counter that is not zero, in words.
  function repairNotes() {
    const r = view.summary.repairs;
    const notes = [];
    const add = (count, text) => { if (count) notes.push(text.replace('N', grouped.format(count))); };
    if (r.truncated) notes.push('The trace is incomplete (cut short); what it holds is shown.');
    if (r.overflow) notes.push('The recording buffer overflowed: later events were dropped.');
    add(r.unmatched_exits, 'N methods were already running when tracing began; they are shown from each thread\'s first record.');
    add(r.mismatched_exits, 'N exits closed frames above them that had no exit of their own.');
    add(r.open_at_end, 'N frames were still running at the end; they are closed at their thread\'s last record.');
    add(r.unknown_methods, 'N method ids have no name in the trace; they are shown as <unknown 0x…>.');
    add(r.unknown_threads, 'N threads have no name in the trace; they are shown by id.');
    add(r.invalid_records, 'N records with an invalid action were skipped.');
    add(r.time_wraps, 'Times wrapped around N times and were unwrapped.');
    add(r.reused_thread_ids, 'N thread ids were reused by another thread.');
    add(r.unmatched_ends, 'N slice ends had no open slice (it began before the capture) and were ignored.');
    add(r.unparsed_lines, 'N lines were not trace events and were skipped.');
    add(r.out_of_order, 'N events were earlier than the event before them.');
    add(r.too_deep, 'N slices nested deeper than 512 were dropped.');
    add(r.long_names, 'N names longer than 4 KiB were cut short; they end in "…".');
    // The core merges frames below this depth in folded stacks and graphs.
    const deep = view.summary.threads.filter((t) => t.max_depth > 1024).length;
    add(deep, 'Stacks deeper than 1,024 frames (threads affected: N) are merged below that depth into one "[frames below depth 1024, merged]" frame in the graphs.');
    return notes;
  }

  function renderWarnings() {
    const box = $('warnings');
    box.replaceChildren();
    const notes = repairNotes().concat(view.summary.warnings);
    box.hidden = notes.length === 0;
    const seen = new Set();
    for (const note of notes) {
      if (seen.has(note)) continue;
      seen.add(note);
      box.append(element('li', { text: note.charAt(0).toUpperCase() + note.slice(1) }));
    }
  }

  function renderClockSwitch() {
    const available = clocks();
    for (const clock of ['wall', 'cpu']) {
      const input = $('clock-' + clock);
      input.disabled = !available[clock];
      input.checked = view.clock === clock;
      input.parentElement.title = available[clock] ? '' : 'This trace has no ' + clock + ' clock';
    }
  }

  // ---- threads -------------------------------------------------------------------------

  function renderThreads() {
    const body = $('thread-rows');
    body.replaceChildren();
    const filter = $('thread-filter').value.trim().toLowerCase();
    const total = grandTotal(view.clock);
    let group;
    for (const index of [-1].concat(threadRows())) {
      const t = index < 0 ? null : view.summary.threads[index];
      const haystack = t ? (t.name + ' ' + t.tid + ' ' + (t.process || '') + ' ' + (t.pid || '')).toLowerCase() : '';
      if (t && filter && !haystack.includes(filter)) continue;
      if (t && t.pid !== undefined && t.pid !== group) {
        group = t.pid;
        body.append(element('tr', { class: 'process' },
          element('th', { colspan: '5', scope: 'rowgroup', text: (t.process || 'process') + ' (pid ' + t.pid + ')' })));
      }
      const value = t ? threadTotal(t, view.clock) : total;
      const share = t ? (total ? value / total : 0) : 1;
      const row = element('tr', {
        tabindex: '0',
        'aria-selected': String(view.thread === index),
        'data-thread': String(index),
        onclick: () => selectThread(index),
        onkeydown: (event) => threadKey(event, index),
      },
      element('td', { class: 'name', title: t ? t.name + ' [' + t.tid + ']' : 'All threads' },
        element('span', { class: 'label', text: t ? t.name : 'All threads' }),
        t && t.track ? element('span', { class: 'badge', text: 'async', title: 'A track of async slices, not a thread' }) : null,
        element('span', { class: 'share', style: 'width:' + (share * 100).toFixed(2) + '%' })),
      element('td', { class: 'n', text: t && !t.track ? t.tid : '' }),
      element('td', { class: 'n', text: millis(t ? t.wall_us : clocks().wall ? grandTotal('wall') : null) }),
      element('td', { class: 'n', text: millis(t ? t.cpu_us : clocks().cpu ? grandTotal('cpu') : null) }),
      element('td', { class: 'n', text: t ? percent(value, total) : '' }));
      body.append(row);
    }
    $('thread-count').textContent = view.summary.threads.length + ' threads';
  }

  // Threads by time; where the trace names processes, grouped under them (the busiest
  // process first).
  function threadRows() {
    const order = sortedThreads();
    const threads = view.summary.threads;
    if (!threads.some((t) => t.pid !== undefined)) return order;
    const groupTotal = new Map();
    for (const t of threads) groupTotal.set(t.pid, (groupTotal.get(t.pid) || 0) + (threadTotal(t, view.clock) || 0));
    const rank = new Map(Array.from(groupTotal.keys()).sort((a, b) =>
      groupTotal.get(b) - groupTotal.get(a) || (a === undefined) - (b === undefined) || a - b).map((pid, i) => [pid, i]));
    return order.map((index, position) => [rank.get(threads[index].pid), position, index])
      .sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((entry) => entry[2]);
  }

  function threadKey(event, index) {
    const rows = Array.from($('thread-rows').querySelectorAll('tr[data-thread]'));
    const at = rows.indexOf(event.currentTarget);
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      selectThread(index);
    } else if (event.key === 'ArrowDown' && at + 1 < rows.length) {
      event.preventDefault();
      rows[at + 1].focus();
    } else if (event.key === 'ArrowUp' && at > 0) {
      event.preventDefault();
      rows[at - 1].focus();
    }
  }

  async function selectThread(index) {
    view.thread = index;
    for (const row of $('thread-rows').children) {
      row.setAttribute('aria-selected', String(row.dataset.thread === String(index)));
    }
    await showGraph();
  }

  // ---- flame graph ---------------------------------------------------------------------

  async function currentSvg() {
    const key = view.thread + ':' + view.clock;
    if (!view.svgs.has(key)) view.svgs.set(key, await engine.svg(view.key, view.thread, view.clock));
    return view.svgs.get(key);
  }

  async function showGraph() {
    const frame = $('flame');
    let svg;
    try {
      svg = await currentSvg();
    } catch (error) {
      $('graph-error').textContent = error.message;
      $('graph-error').hidden = false;
      frame.hidden = true;
      return;
    }
    $('graph-error').hidden = true;
    frame.hidden = false;
    const height = /<svg[^>]*\sheight="(\d+)"/.exec(svg);
    frame.style.height = Math.max(240, height ? Number(height[1]) + 8 : 600) + 'px';
    // The SVG's own script gives zoom and search; the sandbox keeps it away from this page.
    // inferno's fluid mode drops the SVG's width; inline in HTML it must then be told to fill.
    frame.srcdoc = '<!doctype html><meta charset="utf-8"><style>html,body{margin:0;background:#fff}' +
      'body>svg{display:block;width:100%}</style>' +
      svg.replace(/^<\?xml[^>]*\?>\s*/, '').replace(/<!DOCTYPE[^>]*>\s*/i, '');
    // Flame graphs grow upwards: start at the bottom, where the roots are.
    const scroller = frame.parentElement;
    requestAnimationFrame(() => { scroller.scrollTop = scroller.scrollHeight; });
    const t = view.thread < 0 ? null : view.summary.threads[view.thread];
    $('graph-title').textContent = (t ? t.name + ' [' + t.tid + ']' : 'All threads') + ' — ' +
      (view.clock === 'cpu' ? 'thread CPU time' : 'wall time');
  }

  async function setClock(clock) {
    if (!clocks()[clock] || view.clock === clock) return;
    view.clock = clock;
    renderThreads();
    showMethodsWhenVisible();
    await showGraph();
  }

  // ---- methods ---------------------------------------------------------------------------

  const METHOD_LIMIT = 500;

  const methodColumns = [
    { id: 'name', label: 'Method', value: (m) => m.name, text: true },
    { id: 'incl', label: 'Inclusive', value: (m) => clockValue(m, 'incl'), time: true },
    { id: 'incl%', label: '%', value: (m) => clockValue(m, 'incl'), share: true },
    { id: 'excl', label: 'Exclusive', value: (m) => clockValue(m, 'excl'), time: true },
    { id: 'excl%', label: '%', value: (m) => clockValue(m, 'excl'), share: true },
    { id: 'other-incl', label: 'Inclusive', value: (m) => clockValue(m, 'incl', true), time: true, other: true },
    { id: 'other-excl', label: 'Exclusive', value: (m) => clockValue(m, 'excl', true), time: true, other: true },
    { id: 'calls', label: 'Calls', value: (m) => m.calls },
    { id: 'recursive', label: 'Recursive', value: (m) => m.recursive_calls },
  ];

  function clockValue(method, kind, other) {
    const clock = other ? (view.clock === 'wall' ? 'cpu' : 'wall') : view.clock;
    return method[kind + '_' + clock + '_us'];
  }

  function renderMethods() {
    view.methodsStale = false;
    const otherClock = view.clock === 'wall' ? 'cpu' : 'wall';
    const showOther = clocks()[otherClock];
    const head = $('method-head');
    head.replaceChildren();
    for (const column of methodColumns) {
      if (column.other && !showOther) continue;
      const label = column.other ? column.label + ' ' + (otherClock === 'cpu' ? 'CPU' : 'wall') : column.label;
      const sorted = view.methodSort.column === column.id;
      head.append(element('th', {
        class: column.text ? '' : 'n',
        scope: 'col',
        'aria-sort': sorted ? (view.methodSort.descending ? 'descending' : 'ascending') : 'none',
      }, element('button', {
        type: 'button',
        onclick: () => sortMethods(column.id),
      }, label, sorted ? (view.methodSort.descending ? ' ▾' : ' ▴') : '')));
    }
    const filter = $('method-filter').value.trim().toLowerCase();
    const column = methodColumns.find((c) => c.id === view.methodSort.column) || methodColumns[1];
    const sign = view.methodSort.descending ? -1 : 1;
    const order = view.summary.methods
      .map((m, i) => i)
      .filter((i) => !filter || view.summary.methods[i].name.toLowerCase().includes(filter) ||
        view.summary.methods[i].signature.toLowerCase().includes(filter))
      .sort((a, b) => {
        const x = column.value(view.summary.methods[a]);
        const y = column.value(view.summary.methods[b]);
        if (column.text) return sign * String(x).localeCompare(String(y));
        return sign * ((x || 0) - (y || 0)) || a - b;
      });
    const total = grandTotal(view.clock);
    const body = $('method-rows');
    body.replaceChildren();
    for (const index of order.slice(0, METHOD_LIMIT)) {
      const m = view.summary.methods[index];
      const row = element('tr', {
        tabindex: '0',
        'aria-selected': String(view.selectedMethod === index),
        onclick: () => selectMethod(index),
        onkeydown: (event) => {
          if (event.key === 'Enter' || event.key === ' ') {
            event.preventDefault();
            selectMethod(index);
          }
        },
      });
      for (const c of methodColumns) {
        if (c.other && !showOther) continue;
        const value = c.value(m);
        let text;
        if (c.text) text = value;
        else if (c.share) text = percent(value, total);
        else if (c.time) text = micros(value);
        else text = grouped.format(value);
        if (c.text) {
          // Overloads share a name: the signature tells them apart.
          row.append(element('td', { class: 'name', title: m.name + ' ' + m.signature + (m.source ? ' (' + m.source + ')' : '') },
            m.name, ' ', element('span', { class: 'sig', text: m.signature })));
        } else {
          row.append(element('td', { class: 'n', text }));
        }
      }
      body.append(row);
    }
    const more = order.length - METHOD_LIMIT;
    $('method-note').textContent = (more > 0 ? 'Showing ' + METHOD_LIMIT + ' of ' + grouped.format(order.length) +
      ' methods; filter to see others. ' : grouped.format(order.length) + ' methods. ') +
      'Times in µs on the ' + (view.clock === 'cpu' ? 'thread CPU' : 'wall') + ' clock; inclusive time counts ' +
      'a recursive method once.';
    renderMethodDetail();
  }

  function sortMethods(columnId) {
    const same = view.methodSort.column === columnId;
    view.methodSort = { column: columnId, descending: same ? !view.methodSort.descending : columnId !== 'name' };
    renderMethods();
  }

  function selectMethod(index) {
    view.selectedMethod = index;
    for (const row of $('method-rows').children) row.setAttribute('aria-selected', 'false');
    renderMethods();
  }

  function renderMethodDetail() {
    const box = $('method-detail');
    const index = view.selectedMethod;
    box.hidden = index < 0;
    if (index < 0) return;
    const m = view.summary.methods[index];
    $('method-detail-name').textContent = m.name;
    $('method-detail-facts').textContent = [m.signature, m.source ? 'in ' + m.source : null,
      grouped.format(m.calls) + ' calls' + (m.recursive_calls ? ' (' + grouped.format(m.recursive_calls) + ' recursive)' : '')]
      .filter(Boolean).join(' · ');
    const clockIndex = view.clock === 'cpu' ? 4 : 3;
    const list = (rows, other) => {
      const body = element('tbody');
      const sorted = rows.slice().sort((a, b) => (b[clockIndex] || 0) - (a[clockIndex] || 0));
      for (const edge of sorted) {
        const target = edge[other];
        const name = target < 0 ? '(thread top level)' : view.summary.methods[target].name;
        const cell = element('td', { class: 'name', text: name });
        const row = element('tr', {}, cell,
          element('td', { class: 'n', text: grouped.format(edge[2]) }),
          element('td', { class: 'n', text: micros(edge[clockIndex]) }));
        if (target >= 0) {
          row.tabIndex = 0;
          row.addEventListener('click', () => selectMethod(target));
          row.addEventListener('keydown', (event) => { if (event.key === 'Enter') selectMethod(target); });
        }
        body.append(row);
      }
      return body;
    };
    $('callers').replaceChildren(list(view.edges.filter((e) => e[1] === index), 0));
    $('callees').replaceChildren(list(view.edges.filter((e) => e[0] === index), 1));
  }

  // ---- trace tab -------------------------------------------------------------------------

  function renderTraceTab() {
    const s = view.summary;
    const rows = [
      ['Format', s.format.family + ' ' + s.format.layout + ', version ' + s.format.version],
      ['Streaming', s.format.streaming ? 'yes' : 'no'],
      ['Compressed', s.format.gzip ? 'gzip' : 'no'],
      ['Split .key + .data', s.format.split ? 'yes' : 'no'],
      ['Clock', s.format.clock],
      ['VM', s.format.vm || '—'],
      ['Records', grouped.format(s.records)],
      ['Sampling', s.format.sampling_interval_us ? 'yes, about every ' + millis(s.format.sampling_interval_us) : 'no (method tracing)'],
      ['Buffer overflow', s.repairs.overflow ? 'yes: later events were dropped' : 'no'],
    ];
    for (const [key, value] of Object.entries(s.repairs)) rows.push(['repairs.' + key, String(value)]);
    for (const [key, value] of Object.entries(s.header)) rows.push([key, value]);
    const body = $('trace-rows');
    body.replaceChildren();
    for (const [key, value] of rows) {
      body.append(element('tr', {}, element('th', { scope: 'row', text: key }), element('td', { text: value })));
    }
  }

  // ---- tabs, downloads, input -----------------------------------------------------------

  function selectTab(name) {
    for (const tab of document.querySelectorAll('[role=tab]')) {
      const selected = tab.dataset.tab === name;
      tab.setAttribute('aria-selected', String(selected));
      tab.tabIndex = selected ? 0 : -1;
      $('tab-' + tab.dataset.tab).hidden = !selected;
    }
    if (name === 'methods' && view.methodsStale) renderMethods();
  }

  async function saveSvg() {
    const t = view.thread < 0 ? 'all-threads' : 'thread-' + view.summary.threads[view.thread].tid;
    download(fileStem(view.name) + '-' + t + '-' + view.clock + '.svg', await currentSvg(), 'image/svg+xml');
  }

  async function saveFolded() {
    download(fileStem(view.name) + '-' + view.clock + '.folded', await engine.folded(view.key, view.clock), 'text/plain');
  }

  // A download that fails (the folded text can pass the in-memory limit) says why, next to
  // the graph, which stays as it is.
  async function saving(save) {
    try {
      await save();
    } catch (error) {
      $('graph-error').textContent = 'Nothing was saved: ' + error.message;
      $('graph-error').hidden = false;
    }
  }

  function saveSummary() {
    download(fileStem(view.name) + '-summary.json', JSON.stringify(view.summary, null, 2) + '\n', 'application/json');
  }

  function openFiles(fileList) {
    const files = Array.from(fileList || []);
    if (files.length === 0) return Promise.resolve();
    if (files.length > 2) {
      showError('Open one trace file, or the .key and .data files of a split trace (got ' + files.length + ' files).');
      return Promise.resolve();
    }
    return open(files, files.map((f) => f.name).join(' + ')).catch(() => {});
  }

  function wireInput() {
    $('picker').addEventListener('change', (event) => {
      openFiles(event.target.files);
      event.target.value = '';
    });
    for (const button of document.querySelectorAll('[data-open]')) {
      button.addEventListener('click', () => $('picker').click());
    }
    let depth = 0;
    const overlay = $('drop-overlay');
    window.addEventListener('dragenter', (event) => {
      if (!event.dataTransfer || !Array.from(event.dataTransfer.types).includes('Files')) return;
      event.preventDefault();
      depth++;
      overlay.hidden = false;
    });
    window.addEventListener('dragleave', () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) overlay.hidden = true;
    });
    window.addEventListener('dragover', (event) => event.preventDefault());
    window.addEventListener('drop', (event) => {
      event.preventDefault();
      depth = 0;
      overlay.hidden = true;
      if (event.dataTransfer) openFiles(event.dataTransfer.files);
    });
    $('thread-filter').addEventListener('input', () => renderThreads());
    $('method-filter').addEventListener('input', () => renderMethods());
    $('clock-wall').addEventListener('change', () => setClock('wall'));
    $('clock-cpu').addEventListener('change', () => setClock('cpu'));
    $('save-svg').addEventListener('click', () => saving(saveSvg));
    $('save-folded').addEventListener('click', () => saving(saveFolded));
    $('save-summary').addEventListener('click', saveSummary);
    const tabs = Array.from(document.querySelectorAll('[role=tab]'));
    for (const tab of tabs) {
      tab.addEventListener('click', () => selectTab(tab.dataset.tab));
      tab.addEventListener('keydown', (event) => {
        const at = tabs.indexOf(tab);
        const next = event.key === 'ArrowRight' ? tabs[(at + 1) % tabs.length]
          : event.key === 'ArrowLeft' ? tabs[(at + tabs.length - 1) % tabs.length] : null;
        if (next) {
          event.preventDefault();
          next.focus();
          selectTab(next.dataset.tab);
        }
      });
    }
  }

  // ---- embedding -------------------------------------------------------------------------

  function toBytes(bytes) {
    if (bytes instanceof Uint8Array) return bytes.slice();
    if (bytes instanceof ArrayBuffer) return new Uint8Array(bytes.slice(0));
    if (ArrayBuffer.isView(bytes)) return new Uint8Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    throw new TypeError('droidflame.analyze takes a Uint8Array or an ArrayBuffer');
  }

  let apiCalls = 0;

  // window.droidflame.analyze(bytes, {clock}) -> {summary, threads: [{tid, name, svg}]}
  async function analyzeApi(bytes, options) {
    const key = 'api-' + (++apiCalls);
    const clock = options && options.clock ? options.clock : undefined;
    try {
      const result = await engine.analyze(key, [toBytes(bytes)]);
      const summary = JSON.parse(result.summary);
      const threads = [];
      for (let i = 0; i < summary.threads.length; i++) {
        const t = summary.threads[i];
        threads.push({ tid: t.tid, name: t.name, svg: await engine.svg(key, i, clock) });
      }
      return { summary, threads };
    } finally {
      engine.release(key).catch(() => {});
    }
  }

  // index.html#embed: a host page sends {type: 'droidflame:analyze', bytes, name} and gets
  // {type: 'droidflame:result', summary} or {type: 'droidflame:error', message} back.
  function wireEmbed() {
    if (location.hash !== '#embed') return;
    document.body.classList.add('embed');
    window.addEventListener('message', async (event) => {
      const message = event.data;
      if (!message || message.type !== 'droidflame:analyze' || !event.source) return;
      const answer = (data) => event.source.postMessage(data, event.origin === 'null' ? '*' : event.origin);
      try {
        const summary = await open([toBytes(message.bytes)], String(message.name || 'trace'));
        answer({ type: 'droidflame:result', summary });
      } catch (error) {
        answer({ type: 'droidflame:error', message: error.message });
      }
    });
    if (window.parent !== window) window.parent.postMessage({ type: 'droidflame:ready' }, '*');
  }

  window.droidflame = Object.freeze({ analyze: analyzeApi, version: '1' });
  wireInput();
  wireEmbed();
  selectTab('flame');
  setState('idle');
})();
