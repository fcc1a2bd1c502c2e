"use strict";
// The approver's page. Everything a requester sent is put on the page as text (textContent),
// never as markup. Answers carry the CSRF token; the cookie goes with them on its own.
const csrf = document.querySelector('meta[name="csrf"]').content;
let state = { requests: [], events: [], link: "" };
let received = performance.now();
let shown = 0;      // the id of the request on the page
let armed = null;   // {id, key, at}: a lasting answer waiting for its second tap
let sending = false;
const CONFIRM_GAP = 300; // ms: a second tap sooner than this confirms nothing

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
}

function say(text) { document.getElementById("status").textContent = text; }

function current() {
  const rs = state.requests;
  return rs.find(r => r.id === shown) || rs[0] || null;
}

function render() {
  const r = current();
  shown = r ? r.id : 0;
  if (armed && (!r || armed.id !== r.id)) armed = null;
  document.getElementById("link").textContent = state.requests.length
    ? state.requests.length + " waiting" : "live";
  const tabs = document.getElementById("tabs");
  tabs.replaceChildren(...(state.requests.length > 1 ? state.requests.map(x => {
    const b = el("button", { type: "button", "data-id": String(x.id),
                             "aria-current": String(x.id === shown) }, "#" + x.id);
    b.addEventListener("click", () => { shown = x.id; armed = null; render(); });
    return b;
  }) : []));
  const main = document.getElementById("request");
  if (!r) {
    main.replaceChildren(el("p", { class: "idle" }, "No request is waiting."));
  } else {
    main.replaceChildren(...request(r));
  }
  document.getElementById("history").hidden = !state.events.length;
  document.getElementById("events").replaceChildren(
    ...state.events.map(t => el("li", {}, t)));
  tick();
}

function request(r) {
  const pre = el("pre", { class: "command", id: "command" });
  r.rows.forEach((row, i) => {
    if (i) pre.append("\n");
    for (const [style, text] of row) pre.append(style === "mark" ? el("mark", {}, text) : text);
  });
  const why = el("ul", { class: "why" }, ...r.lines.map(l => el("li", {}, l)));
  const where = el("dl", { class: "where" },
    el("dt", {}, "session"), el("dd", {}, r.session),
    el("dt", {}, "workspace"), el("dd", {}, r.workspace || "(none)"),
    el("dt", {}, "cwd"), el("dd", {}, r.cwd));
  const choices = el("div", { class: "choices" }, ...r.choices.map(c => {
    const b = el("button", { type: "button", "data-key": c.key, "data-scope": c.scope },
                 el("span", { class: "key" }, "[" + c.key + "]"), c.text);
    if (armed && armed.id === r.id && armed.key === c.key) {
      b.classList.add("armed");
      b.replaceChildren(el("span", { class: "key" }, "[" + c.key + "]"),
                        "tap again to confirm: " + c.text);
    }
    b.addEventListener("click", () => choose(r, c));
    return b;
  }));
  const head = el("p", { class: "head" },
    "request #" + r.id + " (" + r.position + " of " + state.requests.length + ") via " + r.origin);
  return [head, pre, why, where, el("p", { class: "left", id: "left" }, ""), choices];
}

function tick() {
  const r = current();
  const left = document.getElementById("left");
  if (!r || !left) return;
  const s = Math.max(0, r.left - (performance.now() - received) / 1000);
  left.textContent = "denied in " + Math.ceil(s) + " s unless answered";
}

function choose(r, c) {
  if (sending) return;
  if (c.confirm) {
    const now = performance.now();
    if (!armed || armed.id !== r.id || armed.key !== c.key) {
      armed = { id: r.id, key: c.key, at: now };
      say("tap again to confirm " + c.text);
      render();
      return;
    }
    if (now - armed.at < CONFIRM_GAP) return;
  }
  armed = null;
  answer(r.id, c.key, c.confirm);
}

async function answer(id, key, confirmed) {
  sending = true;
  say("sending…");
  try {
    const resp = await fetch("/answer", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify({ id, key, confirmed }),
      credentials: "same-origin",
    });
    const got = await resp.json().catch(() => ({ error: "guard: the approver's reply was not JSON" }));
    say(got.error || got.said || "");
  } catch (e) {
    say("guard: the approver could not be reached; answer at the terminal");
  } finally {
    sending = false;
  }
}

function connect() {
  const source = new EventSource("/events");
  source.onmessage = (e) => {
    state = JSON.parse(e.data);
    received = performance.now();
    render();
  };
  source.onerror = () => {
    document.getElementById("link").textContent = "reconnecting…";
  };
}

setInterval(tick, 500);
connect();
