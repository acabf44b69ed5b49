// ssescope web page: one ES module, no dependencies, no build step.
// Every value that comes from a stream is written with textContent (never innerHTML).

const $ = (id) => document.getElementById(id);
const ROW_H = 22;
const EVENT_CHARS = 25;  // what the event column shows of a name

const state = {
  bytes: null,       // Uint8Array of what was loaded (stream or container)
  body: null,        // Uint8Array of the body the offsets refer to
  result: null,      // the /api/inspect answer
  view: [],          // indexes of frames shown in the table (after filtering)
  selected: -1,      // selected record index
  scrub: -1,         // scrubber position (record index)
  starts: null,      // Float64Array of frame start times (for Δt)
  entry: null,       // which stream of a capture holding several (its position), or null
  source: null,      // for an answer not made from state.bytes (the Live view): { bytes(), reinspect() }
  streaming: null,   // a stream still in flight (the Live view): { age_s, idle_s }; no verdict yet
};

// ---- helpers -----------------------------------------------------------------------

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

// Make control, bidi and invisible characters visible (table, raw view).
const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb]/g;
function visible(text) {
  return String(text).replace(INVISIBLE, (c) => {
    const code = c.codePointAt(0);
    if (code === 0x0d) return "␍";
    if (code === 0x09) return "→";
    return "⟨U+" + code.toString(16).toUpperCase().padStart(4, "0") + "⟩";
  });
}

function fmtBytes(n) {
  if (n < 1024) return n + " B";
  if (n < 1024 * 1024) return (n / 1024).toFixed(1) + " KiB";
  return (n / 1024 / 1024).toFixed(1) + " MiB";
}

function fmtS(s) {
  if (s === null || s === undefined) return "–";
  if (s < 1) return Math.round(s * 1000) + " ms";
  return s.toFixed(2) + " s";
}

function download(name, blob) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function b64ToBytes(b64) {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

// ---- partial JSON (tool-call arguments while they stream) --------------------------------
// The same reading as the engine's ssescope.aggregate.partial_json.parse_partial, step for
// step, so that the page shows what the library returns (tests/web/test_partial_json.py
// holds the two equal): the text is cut back to its last point where a value could be
// closed, an open string is closed, a dangling key, ":" or "," is dropped, and open
// brackets are closed in order. `ok` says the text is complete JSON as it stands.

const MAX_DEPTH = 128;  // ssescope.limits.MAX_DEPTH: deeper values are left unread
const LITERALS = ["true", "false", "null"];
const TOKEN_END = ',]} \t\r\n"';
const DIGITS = /^\p{Nd}+$/u;  // Python's str.isdigit, for the digits a number holds
const SPACE = /^\s$/u;

// JSON.parse that refuses what the engine's loads_finite refuses: a number beyond a double.
function parseFinite(text) {
  return JSON.parse(text, (key, value) => {
    if (typeof value === "number" && !Number.isFinite(value)) throw new SyntaxError("not a JSON number");
    return value;
  });
}

function nesting(text) {
  let depth = 0, deepest = 0;
  for (const c of text.replace(/"(?:[^"\\]|\\.)*"?/gs, "")) {
    if (c === "[" || c === "{") deepest = Math.max(deepest, ++depth);
    else if (c === "]" || c === "}") depth--;
  }
  return deepest;
}

function tooDeep(text) {
  if (text.length <= MAX_DEPTH) return false;
  const brackets = text.split("[").length + text.split("{").length - 2;
  return brackets > MAX_DEPTH && nesting(text) > MAX_DEPTH;
}

function isNumber(token) {
  let digits = token.replace(/^-+/, "").replace(".", "").replace("e", "").replace("E", "");
  digits = digits.replace("+", "").replace("-", "");
  return DIGITS.test(digits) && !/[.eE+-]$/.test(token);
}

function closeJson(text) {
  let stack = [];
  let inString = false, escape = false;
  let safe = 0, safeStack = [];  // the last place where the prefix may be cut, and its stack
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (inString) {
      if (escape) escape = false;
      else if (c === "\\") escape = true;
      else if (c === '"') { inString = false; safe = i + 1; safeStack = [...stack]; }
    } else if (c === '"') {
      inString = true;
    } else if (c === "[" || c === "{") {
      stack.push(c === "[" ? "]" : "}");
      safe = i + 1; safeStack = [...stack];
    } else if (c === "]" || c === "}") {
      if (!stack.length) return null;
      stack.pop();
      safe = i + 1; safeStack = [...stack];
    } else if (c === ",") {
      safe = i; safeStack = [...stack];
    } else if (!SPACE.test(c) && c !== ":") {
      let j = i;
      while (j < n && !TOKEN_END.includes(text[j])) j++;
      const token = text.slice(i, j);
      if (LITERALS.includes(token) || isNumber(token)) { safe = j; safeStack = [...stack]; }
      i = j;
      continue;
    }
    i++;
  }
  if (inString) {
    // close the open string where it stands, unless it is a dangling object key
    const closed = (escape ? text.slice(0, -1) : text) + '"' + [...stack].reverse().join("");
    try { parseFinite(closed); return closed; } catch (e) { /* cut back below */ }
  }
  let prefix = text.slice(0, safe).trimEnd();
  stack = safeStack;
  while (prefix.endsWith(",") || prefix.endsWith(":")) prefix = prefix.slice(0, -1).trimEnd();
  if (stack.length && stack[stack.length - 1] === "}" && prefix.endsWith('"')) {
    // a key without its value: {"a": 1, "b"
    const k = prefix.lastIndexOf('"', prefix.length - 2);
    const before = prefix.slice(0, k).trimEnd();
    if (before.endsWith("{") || before.endsWith(",")) prefix = before.replace(/,+$/, "").trimEnd();
  }
  return prefix + [...stack].reverse().join("");
}

export function parsePartial(text) {
  if (!text || !text.trim() || tooDeep(text)) return { value: undefined, ok: false };
  try { return { value: parseFinite(text), ok: true }; } catch (e) { /* complete it below */ }
  const closed = closeJson(text);
  if (!closed) return { value: undefined, ok: false };
  try { return { value: parseFinite(closed), ok: false }; } catch (e) { return { value: undefined, ok: false }; }
}

// ---- loading ---------------------------------------------------------------------------

async function inspectBytes(bytes, label, entry = null) {
  state.bytes = bytes;
  state.source = null;
  state.streaming = null;
  state.entry = entry;
  document.body.dataset.state = "busy";  // not "ready" for the previous stream any more
  $("error").textContent = "";
  $("busy").textContent = "inspecting " + (label || "") + " (" + fmtBytes(bytes.length) + ")…";
  const params = new URLSearchParams({ provider: $("provider").value, framing: $("framing").value });
  if (entry !== null) params.set("entry", String(entry));
  let answer;
  try {
    const res = await fetch("/api/inspect?" + params, { method: "POST", body: bytes });
    answer = await res.json();
    if (!res.ok) throw new Error(answer.error || res.statusText);
  } catch (err) {
    $("busy").textContent = "";
    $("error").textContent = String(err.message || err);
    document.body.dataset.state = "error";
    return;
  }
  state.result = answer;
  state.body = answer.body_b64 ? b64ToBytes(answer.body_b64) : bytes;
  $("busy").textContent = "";
  render();
  document.body.dataset.state = "ready";
}

// Show an answer the server made from something else than bytes the page holds (the Live
// view's exchanges): `source.bytes()` fetches those bytes when an export needs them, and
// `source.reinspect()` asks again (another provider or framing). `streaming` ({ age_s,
// idle_s }) marks a stream still in flight: it is shown without a verdict and without its
// error-level findings (a stream not ended yet lacks its end, which is no fault) until it ends.
export function showAnswer(answer, source, streaming = null) {
  state.bytes = null;
  state.source = source;
  state.streaming = streaming;
  state.entry = answer.entry ?? null;
  state.result = answer;
  state.body = answer.body_b64 ? b64ToBytes(answer.body_b64) : new Uint8Array(0);
  $("error").textContent = "";
  $("busy").textContent = "";
  render();
  document.body.dataset.state = "ready";
}

// A stream in flight whose analysis did not change: its age and idle time move on.
export function setStreaming(streaming) {
  if (!state.result || !state.streaming || !streaming) return;
  state.streaming = streaming;
  $("v-reason").textContent = streamingText(streaming);
}

async function currentBytes() {
  return state.source ? await state.source.bytes() : state.bytes;
}

async function loadExample(name) {
  if (!name) return;
  document.body.dataset.state = "busy";
  $("example").value = name;
  const res = await fetch("/api/examples/" + encodeURIComponent(name));
  if (!res.ok) { $("error").textContent = "cannot load example " + name; document.body.dataset.state = "error"; return; }
  const bytes = new Uint8Array(await res.arrayBuffer());
  $("paste").value = bytes.length < 200000 ? new TextDecoder().decode(bytes) : "";
  await inspectBytes(bytes, name);
}

async function loadFile(file) {
  document.body.dataset.state = "busy";
  const bytes = new Uint8Array(await file.arrayBuffer());
  $("paste").value = bytes.length < 200000 ? new TextDecoder().decode(bytes) : "";
  await inspectBytes(bytes, file.name);
}

async function listExamples() {
  try {
    const res = await fetch("/api/examples");
    const list = await res.json();
    const select = $("example");
    for (const ex of list) {
      const opt = el("option", null, ex.name);
      opt.value = ex.name;
      opt.title = ex.description;
      select.appendChild(opt);
    }
  } catch (e) { /* no examples: the select stays with its placeholder */ }
}

// ---- rendering: verdict ----------------------------------------------------------------

function plural(n, word) {
  return n.toLocaleString("en") + " " + word + (n === 1 ? "" : "s");
}

// the index of the last record (the cut tail, when there is one, is not a record)
function lastRecord() {
  const records = state.records;
  return records.length ? records[records.length - 1].index : 0;
}

function render() {
  const { report, frames } = state.result;
  state.records = frames.filter((f) => f.kind !== "tail");
  for (const id of ["verdict", "timeline", "main"]) $(id).hidden = false;
  renderEntries(state.result.entries || [], state.result.entry || 0);
  renderVerdict(report);
  state.starts = new Float64Array(frames.length);
  let prev = null;
  const events = new Set();
  for (let i = 0; i < frames.length; i++) {
    const f = frames[i];
    state.starts[i] = f.time === null ? NaN : (prev === null ? 0 : f.time - prev);
    if (f.time !== null) prev = f.time;
    events.add(eventName(f));
  }
  const evSel = $("event-filter");
  evSel.replaceChildren(el("option", null, "all events"));
  evSel.firstChild.value = "";
  for (const ev of [...events].sort()) { const o = el("option", null, ev); o.value = ev; evSel.appendChild(o); }
  const last = lastRecord();
  const scrubber = $("scrubber");
  scrubber.max = String(last);
  scrubber.value = String(last);
  state.scrub = last;
  state.selected = -1;
  $("raw").hidden = true;
  $("filter").value = "";
  $("only-bad").checked = false;
  scrubLabel();
  applyFilter();
  drawTimeline();
  renderDiagnostics(report);
  renderOutputs();
  renderWebSocket(state.result.websocket);
}

// A stream a WebSocket carried: how the connection ended, and its messages in order. The
// client's messages are the requests (shown, never assembled); the server's are the records.
function renderWebSocket(ws) {
  const box = $("ws");
  box.hidden = !ws;
  if (!ws) return;
  const close = $("ws-close");
  close.textContent = "Connection " + ws.describe;
  close.dataset.close = ws.dropped || !ws.close_known && !ws.ended_by_next_response ? "warn"
    : ws.close_code !== null && ws.close_code !== 1000 ? "bad" : "ok";
  const sent = ws.order.filter((m) => m.dir === "send").length;
  $("ws-count").textContent = plural(ws.messages, "message") + " · " + plural(sent, "request");
  const list = $("ws-messages");
  list.replaceChildren();
  for (const m of ws.order) {
    const item = el("li");
    item.dataset.dir = m.dir;
    item.dataset.testid = "ws-message";
    if (m.dir === "send") {
      item.appendChild(el("span", null, "→ request"));
      if (m.time !== null && m.time !== undefined) item.appendChild(el("span", "muted", fmtS(m.time)));
      item.appendChild(el("b", null, m.type || "(not JSON)"));
      item.appendChild(el("span", "ws-preview", visible(m.preview)));
    } else {
      const n = m.last - m.first + 1;
      item.appendChild(el("span", null, "← server"));
      const link = el("button", "link", n === 1 ? "record #" + m.first : "records #" + m.first + "–#" + m.last);
      link.addEventListener("click", () => select(m.first, true));
      item.appendChild(link);
      item.appendChild(el("span", "muted", plural(n, "message")));
    }
    list.appendChild(item);
  }
}

function problemCounts(report) {
  let errors = 0, warnings = 0;
  for (const d of report.diagnostics) {
    if (d.severity === "error") errors++;
    else if (d.severity === "warning") warnings++;
  }
  const parts = [];
  if (errors) parts.push(plural(errors, "error"));
  if (warnings) parts.push(plural(warnings, "warning"));
  return { errors, warnings, text: parts.join(", ") };
}

// A capture holding several streams (a HAR, a JSONL log): one line per entry, pick one.
function renderEntries(entries, chosen) {
  const box = $("entries");
  box.hidden = entries.length < 2;
  document.body.dataset.entry = String(chosen);
  const list = $("entry-list");
  list.replaceChildren();
  $("entry-count").textContent = entries.length > 1 ? entries.length + " streams" : "";
  entries.forEach((entry, pos) => {
    const item = el("li");
    const button = el("button", "entry");
    button.dataset.testid = "entry-" + pos;
    if (pos === chosen) button.setAttribute("aria-current", "true");
    // the responses of one HAR entry's WebSocket connection: #3.0, #3.1 (as --entry takes them)
    const label = entry.response === undefined || entry.response === null ? String(entry.index) : entry.index + "." + entry.response;
    button.appendChild(el("span", "mono", "#" + label));
    const pill = el("span", "pill status", entry.status);
    pill.dataset.status = entry.status;
    button.appendChild(pill);
    const what = [entry.method, entry.url].filter(Boolean).join(" ") || "stream " + entry.index;
    button.appendChild(el("span", "entry-url", what));
    button.appendChild(el("span", "muted", entry.provider + (entry.started ? " · " + entry.started : "")));
    button.addEventListener("click", () => { if (pos !== state.entry) inspectBytes(state.bytes, "stream #" + label, pos); });
    item.appendChild(button);
    list.appendChild(item);
  });
}

// a stream in flight: how long it has run, and how long since its last data
function streamingText(live) {
  const parts = ["streaming for " + fmtS(live.age_s)];
  if (live.idle_s !== null && live.idle_s !== undefined) parts.push("idle " + fmtS(live.idle_s) + " so far");
  parts.push("no verdict until it ends");
  return parts.join(" · ");
}

// the findings shown: all of them once a stream ended; while in flight, neither those
// about its end (it has not ended) nor any error (it gets no verdict yet)
function shownDiagnostics(report) {
  if (!state.streaming) return report.diagnostics;
  const atEnd = new Set(state.result.end_findings || []);
  return report.diagnostics.filter((d, i) => !atEnd.has(i) && d.severity !== "error");
}

function renderVerdict(report) {
  const status = $("v-status");
  if (state.streaming) {
    status.textContent = "streaming";
    status.dataset.status = "streaming";
    status.dataset.problems = "none";
    $("v-problems").textContent = "";
    $("v-reason").textContent = streamingText(state.streaming);
    renderFacts(report);
    return;
  }
  status.textContent = report.status;
  status.dataset.status = report.status;
  const problems = problemCounts(report);
  // a reply that ended well but has error-level findings does not look clean
  status.dataset.problems = problems.errors ? "errors" : problems.warnings ? "warnings" : "none";
  $("v-problems").textContent = problems.text ? "· " + problems.text : "";
  const http = report.source && report.source.http_status ? " · HTTP " + report.source.http_status : "";
  $("v-reason").textContent = (report.status_reason || "") + http;
  renderFacts(report);
}

function agentFacts(report) {
  const bits = [];
  const titles = [];
  const task = report.task;
  if (task) {
    bits.push("task " + task.state);
    for (const ask of task.asks || []) {
      if (ask.text !== null && ask.text !== undefined) titles.push(ask.state + ": " + ask.text);
    }
    if (titles.length) bits.push("asks");
  }
  const arts = report.artifacts || [];
  if (arts.length) {
    const open = arts.filter((a) => !a.complete).length;
    bits.push(`${arts.length} artifact${arts.length === 1 ? "" : "s"}` + (open ? ` (${open} without last chunk)` : ""));
    for (const a of arts) titles.push(`artifact ${a.id}: ${a.text.length} chars`);
  }
  const notes = report.notifications || [];
  if (notes.length) {
    bits.push(`${notes.length} notification${notes.length === 1 ? "" : "s"}`);
    titles.push("last notification: " + notes[notes.length - 1].method + " " + notes[notes.length - 1].summary);
  }
  return { text: bits.join(" · "), title: titles.join("\n") };
}

function renderFacts(report) {
  $("v-provider").textContent = report.provider;
  $("v-framing").textContent = report.framing;
  $("v-container").textContent = (report.source && report.source.container) || "raw";
  const r = report.records || {};
  let rec = (r.total ?? 0).toLocaleString("en");
  const extra = [];
  if (r.invalid) extra.push(r.invalid + " invalid");
  if (r.unknown) extra.push(r.unknown + " unknown");
  if (r.comments) extra.push(r.comments + " comments");
  if (extra.length) rec += " (" + extra.join(", ") + ")";
  $("v-records").textContent = rec;
  $("v-bytes").textContent = fmtBytes((report.source && report.source.bytes) || 0);
  const u = report.usage;
  $("v-usage").textContent = u
    ? `${u.input_tokens ?? "?"} in · ${u.output_tokens ?? "?"} out` + (u.reasoning_tokens ? ` · ${u.reasoning_tokens} reasoning` : "")
    : "not reported";
  // the shared state an agent stream kept with its client (AG-UI): counts, the document on hover
  const st = report.state;
  $("v-state-wrap").hidden = !st;
  $("v-state").textContent = !st ? "" : `${st.snapshots} snapshot${st.snapshots === 1 ? "" : "s"} · `
    + `${st.deltas} patch${st.deltas === 1 ? "" : "es"}`
    + (st.failed_patches ? ` (${st.failed_patches} did not apply)` : "");
  $("v-state").title = !st ? "" : (typeof st.value === "string" ? st.value : JSON.stringify(st.value));
  // an agent stream's general sections (task, artifacts, notifications): one line, the ask on hover
  const agent = agentFacts(report);
  $("v-agent-wrap").hidden = !agent.text;
  $("v-agent").textContent = agent.text;
  $("v-agent").title = agent.title;
  const t = report.timing || {};
  const known = ["first_byte_s", "first_event_s", "first_content_s", "total_s", "max_gap_s"].some((k) => t[k] !== null && t[k] !== undefined);
  $("v-timing-wrap").hidden = !known;
  // (in flight, the total and the longest gap so far would read as final figures)
  $("v-timing").textContent = !known ? "" : state.streaming
    ? `first byte ${fmtS(t.first_byte_s)} · first content ${fmtS(t.first_content_s)} · so far`
    : `first byte ${fmtS(t.first_byte_s)} · first content ${fmtS(t.first_content_s)} · total ${fmtS(t.total_s)} · max gap ${fmtS(t.max_gap_s)}`;
}

// ---- rendering: the frame table (virtualised) -------------------------------------------------

function frameClass(f) {
  if (f.kind === "tail") return "cut";
  if (f.state === "invalid") return "invalid";
  if (f.state === "unknown") return "unknown";
  if (f.kind === "comment") return "comment";
  return "";
}

function eventName(f) {
  if (f.kind === "tail") return "(cut)";
  return f.event === null ? (f.kind === "comment" ? "(comment)" : "(none)") : f.event;
}

function applyFilter() {
  const frames = state.result.frames;
  const text = $("filter").value.toLowerCase();
  const ev = $("event-filter").value;
  const onlyBad = $("only-bad").checked;
  const view = [];
  for (let i = 0; i < frames.length; i++) {
    const f = frames[i];
    if (onlyBad && !f.state && !f.diagnostics.length) continue;
    if (ev && eventName(f) !== ev) continue;
    if (text && !f.data.toLowerCase().includes(text) && !(f.event || "").toLowerCase().includes(text)) continue;
    view.push(i);
  }
  state.view = view;
  const total = state.records.length;
  $("frame-count").textContent = view.length === frames.length
    ? plural(total, "record") + (frames.length > total ? " + cut" : "")
    : view.length.toLocaleString("en") + " shown of " + plural(total, "record");
  $("spacer").style.height = view.length * ROW_H + "px";
  drawRows(true);
}

const rowPool = [];
function drawRows(force) {
  const table = $("table");
  const frames = state.result.frames;
  const diags = state.result.report.diagnostics;
  const first = Math.max(0, Math.floor(table.scrollTop / ROW_H) - 4);
  const count = Math.ceil(table.clientHeight / ROW_H) + 8;
  const last = Math.min(state.view.length, first + count);
  if (!force && drawRows.first === first && drawRows.last === last) return;
  drawRows.first = first; drawRows.last = last;
  while (rowPool.length < last - first) {
    const row = el("div", "row frame");
    for (let c = 0; c < 7; c++) row.appendChild(el("span"));
    row.addEventListener("click", () => select(Number(row.dataset.index), false));
    rowPool.push(row);
    table.appendChild(row);
  }
  for (let k = 0; k < rowPool.length; k++) {
    const row = rowPool[k];
    const vi = first + k;
    if (vi >= last) { row.hidden = true; continue; }
    const i = state.view[vi];
    const f = frames[i];
    row.hidden = false;
    row.style.transform = `translateY(${vi * ROW_H}px)`;
    row.dataset.index = String(f.index);
    row.dataset.testid = "frame-row";
    row.dataset.state = f.state || (f.kind === "comment" ? "comment" : "ok");
    row.className = "row frame " + frameClass(f) + (f.index === state.selected ? " selected" : "") + (f.index > state.scrub ? " future" : "");
    const cells = row.children;
    cells[0].textContent = f.kind === "tail" ? "cut" : f.index;
    cells[1].textContent = f.start;
    const dt = state.starts[i];
    cells[2].textContent = Number.isNaN(dt) ? "" : (dt * 1000).toFixed(dt < 0.01 ? 1 : 0) + " ms";
    const event = f.kind === "comment" ? ":" : f.kind === "tail" ? "(cut)" : visible(f.event ?? "");
    // cut from the left: `…reasoning_summary_text.delta`, never `response.reasonin…`
    cells[3].textContent = event.length > EVENT_CHARS ? "…" + event.slice(1 - EVENT_CHARS) : event;
    cells[3].title = event;
    cells[4].textContent = visible(f.id ?? "");
    cells[5].textContent = f.size;
    const cell = cells[6];
    cell.replaceChildren();
    if (f.diagnostics.length) {
      // the most severe finding is the one shown; the others are counted (all on hover)
      const rank = { error: 0, warning: 1, info: 2 };
      const d = f.diagnostics.map((j) => diags[j]).sort((a, b) => rank[a.severity] - rank[b.severity])[0];
      const more = f.diagnostics.length > 1 ? " +" + (f.diagnostics.length - 1) : "";
      const badge = el("span", "badge sev-" + d.severity, d.code + more);
      badge.dataset.testid = "row-diagnostic";
      cell.appendChild(badge);
      cell.title = f.diagnostics.map((j) => diags[j].message).join("\n");
    } else cell.title = "";
    cell.appendChild(document.createTextNode(visible(f.preview)));
  }
}

function select(index, scroll) {
  state.selected = index;
  const frames = state.result.frames;
  const pos = frames.findIndex((f) => f.index === index);
  if (pos < 0) return;
  if (scroll) {
    let vi = state.view.indexOf(pos);
    if (vi < 0) { $("filter").value = ""; $("event-filter").value = ""; $("only-bad").checked = false; applyFilter(); vi = pos; }
    const table = $("table");
    const top = vi * ROW_H;
    if (top < table.scrollTop || top > table.scrollTop + table.clientHeight - ROW_H) table.scrollTop = Math.max(0, top - table.clientHeight / 3);
  }
  drawRows(true);
  showRaw(frames[pos]);
}

function showRaw(f) {
  $("raw").hidden = false;
  $("raw-title").textContent = f.kind === "tail"
    ? `cut: ${f.size.toLocaleString("en")} bytes after the last complete record, never dispatched`
    : `record ${f.index} · ${f.kind}` + (f.event ? ` · ${f.event}` : "") + (f.state ? ` · ${f.state}` : "");
  let pretty = f.data;
  try { if (f.kind !== "comment") pretty = JSON.stringify(JSON.parse(f.data), null, 2); } catch (e) { /* not JSON: show as it is */ }
  $("raw-data").textContent = visible(pretty).replace(/⟨U\+000A⟩/g, "\n");
  $("raw-span").textContent = `[${f.start}, ${f.end})`;
  let raw = "";
  if (state.body && f.end <= state.body.length) {
    raw = new TextDecoder("utf-8", { fatal: false }).decode(state.body.subarray(f.start, Math.min(f.end, f.start + 65536)));
  }
  $("raw-bytes").textContent = visible(raw.replace(/\r/g, "\u000d").replace(/\n/g, "↵\n"));
  const list = $("raw-diags");
  list.replaceChildren();
  for (const j of f.diagnostics) list.appendChild(diagItem(state.result.report.diagnostics[j], false));
  $("raw").scrollIntoView({ block: "nearest" });
}

function closeRaw() {
  $("raw").hidden = true;
  state.selected = -1;
  drawRows(true);
}

// ---- rendering: timeline -------------------------------------------------------------

function drawTimeline() {
  const canvas = $("ticks");
  const frames = state.records;
  const width = canvas.clientWidth || 800;
  const ratio = window.devicePixelRatio || 1;
  canvas.width = width * ratio;
  canvas.height = 44 * ratio;
  const ctx = canvas.getContext("2d");
  ctx.scale(ratio, ratio);
  ctx.clearRect(0, 0, width, 44);
  const css = getComputedStyle(document.body);
  const color = (name) => css.getPropertyValue(name).trim();
  const n = frames.length;
  if (!n) return;
  const timed = frames.every((f) => f.time !== null);
  const t0 = timed ? frames[0].time : 0;
  const span = timed ? Math.max(frames[n - 1].time - t0, 1e-9) : Math.max(n - 1, 1);
  const xOf = (i) => 4 + ((timed ? frames[i].time - t0 : i) / span) * (width - 8);
  state.xOf = xOf;
  if (timed) {
    ctx.fillStyle = color("--gap");
    for (let i = 1; i < n; i++) {
      const dt = frames[i].time - frames[i - 1].time;
      if (dt >= 1 || (dt > 0.25 && dt > span / 8)) ctx.fillRect(xOf(i - 1), 0, xOf(i) - xOf(i - 1), 30);
    }
    ctx.fillStyle = color("--burst");
    let runStart = 0;
    for (let i = 1; i <= n; i++) {
      if (i < n && frames[i].time - frames[i - 1].time <= 0.001) continue;
      if (i - runStart >= 8) ctx.fillRect(xOf(runStart) - 1, 32, Math.max(3, xOf(i - 1) - xOf(runStart) + 2), 4);
      runStart = i;
    }
  }
  const step = Math.max(1, Math.floor(n / (width * 2)));
  for (let i = 0; i < n; i += step) {
    const f = frames[i];
    const cls = frameClass(f) || (contentRecords().has(f.index) ? "content" : "other");
    ctx.fillStyle = color("--tick-" + cls);
    const x = Math.round(xOf(i));
    const h = cls === "invalid" || cls === "unknown" ? 30 : cls === "comment" ? 10 : 22;
    ctx.fillRect(x, 30 - h, cls === "invalid" ? 2 : 1, h);
  }
  // bad records are always drawn, even when ticks are sampled
  for (let i = 0; i < n; i++) {
    if (frames[i].state) { ctx.fillStyle = color("--tick-" + frameClass(frames[i])); ctx.fillRect(Math.round(xOf(i)), 0, 2, 30); }
  }
  const pos = frames.findIndex((f) => f.index >= state.scrub);
  if (pos >= 0) {
    ctx.fillStyle = color("--cursor");
    ctx.fillRect(Math.round(xOf(pos)) - 1, 0, 2, 44);
  }
}

// records whose changes touched the assembled content (text, reasoning, refusal, arguments)
const CONTENT_FIELDS = new Set(["text", "reasoning", "refusal"]);
let contentCache = null;
function contentRecords() {
  if (contentCache && contentCache.result === state.result) return contentCache.set;
  const set = new Set();
  for (const [record, , , field, , key, , value] of state.result.timeline) {
    if ((CONTENT_FIELDS.has(field) || key === "arguments") && value) set.add(record);
  }
  contentCache = { result: state.result, set };
  return set;
}

// ---- rendering: outputs, scrubbing ---------------------------------------------------------

// The engine's timeline is a list of changes [record, response, output, field, part, key,
// op, value] (docs/web.md). The state at a record is their replay up to it: plain data
// manipulation, the same as ssescope.aggregate.timeline.state_at; nothing here knows a
// provider or a protocol.
function applyChange(container, at, op, value) {
  const copy = value !== null && typeof value === "object" ? structuredClone(value) : value;
  if (Array.isArray(container) && at === container.length) container.push(copy);
  else if (op === "set") container[at] = copy;
  else if (op === "append") container[at] = (container[at] ?? "") + value;
  else container[at].push(copy);
}

export function replay(changes, upto) {
  const responses = new Map();
  for (const [record, response, output, field, part, key, op, value] of changes) {
    if (record > upto) continue;
    let resp = responses.get(response);
    if (!resp) { resp = { outputs: new Map() }; responses.set(response, resp); }
    let target;
    if (output === null) {
      if (field === null) { Object.assign(resp, structuredClone(value)); continue; }
      target = resp;
    } else {
      if (field === null) { resp.outputs.set(output, structuredClone(value)); continue; }
      target = resp.outputs.get(output);
      if (!target) { target = {}; resp.outputs.set(output, target); }
    }
    if (part !== null) {
      if (key === null) applyChange(target[field], part, op, value);
      else applyChange(target[field][part], key, op, value);
    } else if (key !== null) applyChange(target[field], key, op, value);
    else applyChange(target, field, op, value);
  }
  if (!responses.size) return { response: 0, outputs: [] };
  const number = Math.max(...responses.keys());
  const resp = responses.get(number);
  const outputs = [...resp.outputs.values()].sort((a, b) => a.index - b.index);
  return { ...resp, response: number, outputs };
}

// text, reasoning and refusal are lists of parts in the state; an output shows them joined
function joined(out) {
  const whole = { ...out };
  for (const name of CONTENT_FIELDS) if (Array.isArray(whole[name])) whole[name] = whole[name].join("");
  return whole;
}

function renderOutputs() {
  const { report } = state.result;
  const atEnd = state.scrub >= lastRecord();
  const now = replay(state.result.timeline, state.scrub);
  const outputs = now.outputs.map((o) => ({ ...joined(o), partial: !atEnd }));
  const error = atEnd && !state.streaming ? report.error : now.error;
  const box = $("outputs");
  box.replaceChildren();
  if (error) {
    const err = el("div", "card error-card");
    err.dataset.testid = "provider-error";
    err.appendChild(el("b", null, "error " + (error.type || "")));
    err.appendChild(el("div", "body-text", error.message || ""));
    box.appendChild(err);
  }
  if (!outputs.length) box.appendChild(el("p", "muted", atEnd ? "No output was assembled." : "No output yet at this record."));
  for (const out of outputs) box.appendChild(outputPane(out));
}

function outputPane(out) {
  const pane = el("section", "pane");
  pane.dataset.testid = "output";
  const head = el("div", "pane-head");
  head.appendChild(el("h2", null, "Output " + out.index));
  if (out.finish_reason) {
    const fin = el("span", "pill", out.finish_reason + (out.raw_finish_reason && out.raw_finish_reason !== out.finish_reason ? " (" + out.raw_finish_reason + ")" : ""));
    fin.dataset.testid = "finish-reason";
    head.appendChild(fin);
  }
  if (out.partial) head.appendChild(el("span", "pill partial", "replay up to record " + state.scrub));
  else if (state.streaming) head.appendChild(el("span", "pill partial", "so far: still streaming"));
  pane.appendChild(head);
  if (out.reasoning) {
    const det = el("details", "reasoning");
    det.open = true;
    det.appendChild(el("summary", null, "Reasoning · " + out.reasoning.length.toLocaleString("en") + " chars"));
    const body = el("div", "body-text", out.reasoning);
    body.dataset.testid = "reasoning";
    det.appendChild(body);
    pane.appendChild(det);
  }
  const text = el("div", "body-text text", out.text);
  text.dataset.testid = "text";
  if (!out.text) { text.classList.add("muted"); text.textContent = "(no text)"; }
  pane.appendChild(text);
  if (out.refusal) {
    const ref = el("div", "card refusal");
    ref.appendChild(el("b", null, "Refusal"));
    const body = el("div", "body-text", out.refusal);
    body.dataset.testid = "refusal";
    ref.appendChild(body);
    pane.appendChild(ref);
  }
  if (out.audio) {
    // audio is counted and sized, never kept: the transcript is what there is to read
    const card = el("div", "card audio");
    card.dataset.testid = "audio";
    const a = out.audio;
    card.appendChild(el("b", null, "Audio · " + plural(a.chunks || 0, "chunk") + " · " + fmtBytes(a.bytes || 0) + (a.format ? " · " + a.format : "")));
    const body = el("div", "body-text", a.transcript || "(no transcript)");
    body.dataset.testid = "audio-transcript";
    card.appendChild(body);
    pane.appendChild(card);
  }
  for (const call of out.tool_calls || []) pane.appendChild(callCard(call, out.partial));
  if (out.citations && out.citations.length) {
    const cit = el("div", "card citations");
    cit.dataset.testid = "citations";
    cit.appendChild(el("b", null, "Citations"));
    const list = el("ol");
    for (const c of out.citations) {
      // citations are shown as text; URLs are never turned into live links
      const item = el("li", "mono", typeof c === "string" ? c : JSON.stringify(c));
      list.appendChild(item);
    }
    cit.appendChild(list);
    pane.appendChild(cit);
  }
  return pane;
}

// What the request's tool schemas say of a call, when the capture keeps its request: the
// engine's tool.schema-mismatch and tool.not-offered findings, matched by the call's label.
const SCHEMA_CODES = new Set(["tool.schema-mismatch", "tool.not-offered"]);

function schemaNotes(call) {
  const report = state.result && state.result.report;
  if (!report || !report.diagnostics) return [];
  const label = call.id || (call.index !== null && call.index !== undefined ? "#" + call.index : "(no id)");
  return report.diagnostics.filter((d) => SCHEMA_CODES.has(d.code) && d.args && d.args.label === label);
}

function schemaNote(d) {
  if (d.code === "tool.not-offered") return "not offered: the request declares no tool of this name";
  const a = d.args;
  const cut = d.form === "cut" ? ", before the cut" : "";
  return `schema: ${a.path}: ${a.detail} (rule ${a.rule}${a.strict || ""}${cut})`;
}

function callCard(call, partial) {
  const card = el("div", "card call");
  card.dataset.testid = "tool-call";
  const head = el("div", "call-head");
  const name = el("b", "mono", call.name || "(no name)");
  name.dataset.testid = "tool-name";
  head.appendChild(name);
  if (call.id) head.appendChild(el("span", "muted mono", call.id));
  const parsed = parsePartial(call.arguments);
  // a call not ended yet at a replayed record is still arriving, not incomplete
  let status = call.complete ? "complete" : partial ? (parsed.ok ? "valid so far" : "building…") : "incomplete";
  if (call.error) status = "error";
  const pill = el("span", "pill " + status.replace(/[^a-z]/g, ""), status);
  pill.dataset.testid = "tool-status";
  head.appendChild(pill);
  card.appendChild(head);
  if (call.error) card.appendChild(el("div", "error-text", typeof call.error === "string" ? call.error : JSON.stringify(call.error)));
  if (!partial) {
    for (const d of schemaNotes(call)) {
      const note = el("div", "error-text", schemaNote(d));
      note.dataset.testid = "tool-schema";
      card.appendChild(note);
    }
  }
  // The arguments as they arrived come first; a complete, valid call is shown parsed.
  const args = el("pre", "args");
  args.dataset.testid = "tool-args";
  const whole = call.input !== undefined && call.input !== null && call.complete;
  args.textContent = whole ? JSON.stringify(call.input, null, 2) : (call.arguments || "(no arguments)");
  card.appendChild(args);
  if (!whole && !parsed.ok && parsed.value !== undefined) {
    const repaired = el("details", "raw-args");
    repaired.dataset.testid = "tool-repaired";
    repaired.appendChild(el("summary", null, "repaired view: open strings and brackets closed to read it; not what was sent"));
    const pre = el("pre", "args", JSON.stringify(parsed.value, null, 2));
    pre.dataset.testid = "tool-repaired-value";
    repaired.appendChild(pre);
    card.appendChild(repaired);
  }
  return card;
}

function scrubLabel() {
  const last = lastRecord();
  $("scrub-label").textContent = state.scrub >= last ? "all " + plural(state.records.length, "record") : `up to record ${state.scrub} of ${last}`;
}

function setScrub(record) {
  state.scrub = record;
  $("scrubber").value = String(record);
  scrubLabel();
  renderOutputs();
  drawTimeline();
  drawRows(true);
}

// ---- diagnostics ---------------------------------------------------------------------

function diagItem(d, link) {
  const li = el("li", "diag sev-" + d.severity);
  li.dataset.testid = "diagnostic";
  li.appendChild(el("span", "badge sev-" + d.severity, d.severity));
  li.appendChild(el("code", null, d.code));
  const tail = state.result.frames.find((f) => f.kind === "tail");
  if (link && d.record !== null && d.record !== undefined) {
    const a = el("button", "link", "record " + d.record);
    a.dataset.testid = "diagnostic-link";
    a.addEventListener("click", () => select(d.record, true));
    li.appendChild(a);
  } else if (link && tail && d.offset !== null && d.offset !== undefined && d.offset >= tail.start) {
    const a = el("button", "link", "cut @" + d.offset);
    a.dataset.testid = "diagnostic-link";
    a.addEventListener("click", () => select(tail.index, true));
    li.appendChild(a);
  } else if (d.offset !== null && d.offset !== undefined) li.appendChild(el("span", "muted", "@" + d.offset));
  li.appendChild(el("div", "msg", d.message));
  return li;
}

function renderDiagnostics(report) {
  const list = $("diagnostics");
  list.replaceChildren();
  const shown = shownDiagnostics(report);
  $("diag-count").textContent = String(shown.length);
  if (state.streaming) {
    const note = el("li", "muted", "Still streaming: findings about its end come when it ends.");
    note.dataset.testid = "diagnostics-held";
    list.appendChild(note);
  } else if (!shown.length) list.appendChild(el("li", "muted", "No diagnostics: nothing looks wrong."));
  const order = { error: 0, warning: 1, info: 2 };
  const sorted = [...shown].sort((a, b) => order[a.severity] - order[b.severity]);
  for (const d of sorted) list.appendChild(diagItem(d, true));
}

// ---- wiring --------------------------------------------------------------------------

function wire() {
  $("inspect").addEventListener("click", () => {
    const text = $("paste").value;
    if (!text) { $("error").textContent = "Paste a stream first, or pick a file or an example."; return; }
    inspectBytes(new TextEncoder().encode(text), "pasted text");
  });
  $("example").addEventListener("change", (e) => loadExample(e.target.value));
  $("file").addEventListener("change", (e) => { if (e.target.files[0]) loadFile(e.target.files[0]); });
  for (const id of ["provider", "framing"]) {
    $(id).addEventListener("change", () => {
      if (state.source) state.source.reinspect();
      else if (state.bytes) inspectBytes(state.bytes, "again", state.entry);
    });
  }
  $("filter").addEventListener("input", () => applyFilter());
  $("event-filter").addEventListener("change", () => applyFilter());
  $("only-bad").addEventListener("change", () => applyFilter());
  $("table").addEventListener("scroll", () => drawRows(false), { passive: true });
  $("table").addEventListener("keydown", (e) => {
    if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
    e.preventDefault();
    const frames = state.result.frames;
    const pos = frames.findIndex((f) => f.index === state.selected);
    const vi = state.view.indexOf(pos) + (e.key === "ArrowDown" ? 1 : -1);
    if (vi >= 0 && vi < state.view.length) select(frames[state.view[vi]].index, true);
  });
  $("raw-close").addEventListener("click", closeRaw);
  $("open-file").addEventListener("click", () => $("file").click());
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && !$("raw").hidden) { e.preventDefault(); closeRaw(); }
    else if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); $("inspect").click(); }
  });
  $("scrubber").addEventListener("input", (e) => setScrub(Number(e.target.value)));
  const canvas = $("ticks");
  const scrubFromMouse = (e) => {
    const frames = state.records;
    if (!frames.length || !state.xOf) return;
    const x = e.clientX - canvas.getBoundingClientRect().left;
    let lo = 0, hi = frames.length - 1;
    while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (state.xOf(mid) <= x) lo = mid; else hi = mid - 1; }
    setScrub(frames[lo].index);
  };
  canvas.addEventListener("pointerdown", (e) => { scrubFromMouse(e); canvas.setPointerCapture(e.pointerId); });
  canvas.addEventListener("pointermove", (e) => { if (e.buttons) scrubFromMouse(e); });
  window.addEventListener("resize", () => { if (state.result) { drawTimeline(); drawRows(true); } });
  $("copy-text").addEventListener("click", async () => {
    const text = state.result.report.outputs.map((o) => o.text).join("\n\n");
    try { await navigator.clipboard.writeText(text); flash("copy-text", "Copied"); } catch (e) { flash("copy-text", "Copy failed"); }
  });
  $("export-report").addEventListener("click", () => {
    download("report.json", new Blob([JSON.stringify(state.result.report, null, 2) + "\n"], { type: "application/json" }));
  });
  $("export-redacted").addEventListener("click", async () => {
    const params = new URLSearchParams({ provider: $("provider").value, framing: $("framing").value, redact: "1" });
    const res = await fetch("/api/report?" + params, { method: "POST", body: await currentBytes() });
    if (!res.ok) { $("error").textContent = "export failed: " + res.statusText; return; }
    download("report.redacted.json", await res.blob());
  });
  $("export-ssecap").addEventListener("click", async () => {
    const query = state.entry === null ? "" : "?entry=" + state.entry;
    const res = await fetch("/api/ssecap" + query, { method: "POST", body: await currentBytes() });
    if (!res.ok) { $("error").textContent = "export failed: " + res.statusText; return; }
    download("stream.ssecap", await res.blob());
  });
  let depth = 0;
  document.addEventListener("dragenter", (e) => { e.preventDefault(); depth++; $("drop").hidden = false; });
  document.addEventListener("dragleave", () => { depth = Math.max(0, depth - 1); if (!depth) $("drop").hidden = true; });
  document.addEventListener("dragover", (e) => e.preventDefault());
  document.addEventListener("drop", (e) => {
    e.preventDefault(); depth = 0; $("drop").hidden = true;
    const file = e.dataTransfer && e.dataTransfer.files[0];
    if (file) loadFile(file);
    else if (e.dataTransfer) { const text = e.dataTransfer.getData("text/plain"); if (text) { $("paste").value = text; inspectBytes(new TextEncoder().encode(text), "dropped text"); } }
  });
}

function flash(id, text) {
  const b = $(id);
  const old = b.textContent;
  b.textContent = text;
  setTimeout(() => { b.textContent = old; }, 1200);
}

wire();
const wanted = new URLSearchParams(location.search).get("example");
listExamples().then(() => {
  document.body.dataset.examples = "loaded";
  if (wanted) loadExample(wanted);
});
