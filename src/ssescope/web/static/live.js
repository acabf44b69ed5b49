// ssescope web page, Live view: the exchanges of `ssescope proxy`, listed as they arrive.
// A separate module from app.js: it opens an exchange through the page's own Inspect
// button, so the debugger view is the normal one. Stream values go in with textContent.

const $ = (id) => document.getElementById(id);
const POLL_MS = 1000;

const live = {
  dir: null,
  opened: null,      // name of the exchange shown in the debugger view
  openedLive: false, // it was still streaming when last loaded
  seen: new Map(),   // name -> the last listing entry
};

function timeOf(name) {
  // names start with 20261201T041512.123456Z: show the local time
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})/.exec(name);
  if (!m) return "";
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]));
  return d.toLocaleTimeString([], { hour12: false });
}

function entryText(e) {
  const verdict = e.live ? "streaming…" : (e.verdict || "-");
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
    li.addEventListener("click", () => openExchange(e.name, e.live));
    list.appendChild(li);
  }
  $("live-count").textContent = entries.length ? "(" + entries.length + ")" : "";
}

async function openExchange(name, streaming) {
  const res = await fetch("/api/live/" + encodeURIComponent(name));
  if (!res.ok) { $("error").textContent = "cannot load exchange " + name; return; }
  const text = await res.text();
  live.opened = name;
  live.openedLive = !!streaming;
  document.body.dataset.liveOpened = name;
  document.body.dataset.liveOpenedState = streaming ? "streaming" : "finished";
  $("paste").value = text;
  $("inspect").click();
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
  const current = answer.exchanges.find((e) => e.name === live.opened);
  if (current && live.openedLive) {
    // the opened exchange was streaming: show what arrived since, and its end
    openExchange(current.name, current.live);
  }
  setTimeout(poll, POLL_MS);
}

poll();
