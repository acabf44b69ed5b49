// ssescope web page, Live view: the exchanges of `ssescope proxy`, listed as they arrive.
// A separate module from app.js: an exchange is analysed by the server from its capture
// (GET /api/live/NAME/inspect, at most its first 4 MiB, and only sent again when it
// changed) and shown in the page's normal debugger view. Stream values go in with
// textContent.

import { setStreaming, showAnswer } from "./app.js";

const $ = (id) => document.getElementById(id);
const POLL_MS = 1000;

const live = {
  dir: null,
  opened: null,      // name of the exchange shown in the debugger view
  openedLive: false, // it may still change (streaming, or its last analysis is to come)
  version: null,     // the version of its analysis the page shows
};

function fmtSize(n) {
  if (n < 1024) return n + " B";
  if (n < 1024 * 1024) return (n / 1024).toFixed(1) + " KiB";
  if (n < 1024 * 1024 * 1024) return (n / 1024 / 1024).toFixed(1) + " MiB";
  return (n / 1024 / 1024 / 1024).toFixed(2) + " GiB";
}

// What the view covers of an exchange too large to be analysed whole in the page.
function detailNote(meta, records) {
  const box = $("live-detail");
  if (meta.analysed_bytes >= meta.capture_bytes) { box.hidden = true; box.textContent = ""; return; }
  let text = "This capture is " + fmtSize(meta.capture_bytes) + (meta.ended ? "" : " so far") +
    ": the view below shows its first " + fmtSize(meta.analysed_bytes) + " (" + records.toLocaleString("en") + " records).";
  const whole = meta.whole;
  if (whole) {
    text += " The proxy's verdict for the whole exchange: " + (whole.verdict || "-") + " (" +
      (whole.records ?? 0).toLocaleString("en") + " records, " + (whole.provider || "unknown provider") + ").";
  } else if (!meta.ended) {
    text += " It is still streaming; the proxy's verdict comes when it ends.";
  }
  text += " `ssescope inspect` of the capture reads it whole.";
  box.textContent = text;
  box.hidden = false;
}

function timeOf(name) {
  // names start with 20261201T041512.123456Z: show the local time
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})/.exec(name);
  if (!m) return "";
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]));
  return d.toLocaleTimeString([], { hour12: false });
}

function secs(s) {
  return s === null || s === undefined ? "?" : s.toFixed(1) + " s";
}

function entryText(e) {
  // a stream in flight has no verdict yet: its age and how long it has been idle
  let verdict = e.live ? "streaming… " + secs(e.age_s) + " · idle " + secs(e.idle_s) : (e.verdict || "-");
  // a silence without content, in the proxy line's words ("idle 8.0 s mid tool call")
  if (!e.live && e.content_idle_note) verdict += " · " + e.content_idle_note;
  const size = e.live ? (e.capture_bytes || 0) + " B so far" : (e.bytes || 0) + " B";
  return [timeOf(e.name), e.method || "", e.path || "", e.status ?? "…", e.provider || "", verdict, size]
    .filter((x) => x !== "").join("  ");
}

function renderList(entries) {
  const list = $("live-list");
  list.textContent = "";
  for (const e of entries) {
    const li = document.createElement("li");
    li.setAttribute("data-testid", "live-item");
    li.dataset.name = e.name;
    li.dataset.live = e.live ? "true" : "false";
    li.dataset.verdict = e.verdict || "";
    li.setAttribute("aria-current", e.name === live.opened ? "true" : "false");
    li.title = e.capture || "";
    const text = document.createElement("span");
    text.className = "live-verdict";
    text.textContent = entryText(e);
    li.appendChild(text);
    li.addEventListener("click", () => { live.version = null; openExchange(e.name); });
    list.appendChild(li);
  }
  $("live-count").textContent = entries.length ? "(" + entries.length + ")" : "";
}

async function openExchange(name) {
  const params = new URLSearchParams({ provider: $("provider").value, framing: $("framing").value });
  if (live.opened === name && live.version !== null) params.set("have", String(live.version));
  let answer;
  try {
    const res = await fetch("/api/live/" + encodeURIComponent(name) + "/inspect?" + params);
    answer = await res.json();
    if (!res.ok) throw new Error(answer.error || res.statusText);
  } catch (err) {
    $("error").textContent = "cannot load exchange " + name + ": " + String(err.message || err);
    return;
  }
  const meta = answer.live;
  const again = live.opened !== name;
  live.opened = name;
  live.version = meta.version;
  live.openedLive = !meta.final;
  document.body.dataset.liveOpened = name;
  document.body.dataset.liveOpenedState = meta.final ? "finished" : "streaming";
  if (!answer.unchanged || again) {
    showAnswer(answer, {
      bytes: async () => new Uint8Array(await (await fetch("/api/live/" + encodeURIComponent(name))).arrayBuffer()),
      reinspect: () => { live.version = null; openExchange(name); },
    }, meta.ended ? null : meta.streaming);
    detailNote(meta, (answer.report && answer.report.records && answer.report.records.total) || 0);
  } else if (!meta.ended) setStreaming(meta.streaming);
  for (const li of $("live-list").children) li.setAttribute("aria-current", li.dataset.name === name ? "true" : "false");
}

async function poll() {
  let answer;
  try {
    const res = await fetch("/api/live");
    answer = await res.json();
  } catch (e) {
    setTimeout(poll, POLL_MS * 5);
    return;
  }
  live.dir = answer.dir;
  if (!answer.dir) {
    $("live-note").textContent = "No proxy recording here. Start `ssescope proxy --web`, or `ssescope web --live DIR` on a proxy's --record folder.";
    document.body.dataset.live = "off";
    return;
  }
  document.body.dataset.live = "on";
  $("live-panel").open = true;
  $("live-note").textContent = "Exchanges recorded in " + answer.dir + " (click one to open it; a stream in flight refreshes until it ends).";
  renderList(answer.exchanges);
  if (live.opened && live.openedLive) {
    // the opened exchange may have changed: the server answers "unchanged" if it did not
    await openExchange(live.opened);
  }
  setTimeout(poll, POLL_MS);
}

poll();
