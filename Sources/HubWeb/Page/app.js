// The phone's face: the seeds' phone screens over hyzer-hub serve's JSON API and /live WebSocket.
// The hub decides everything (the scoring rule, the standings, the refusals); this page shows what
// it says and sends what the user taps, as the command line does. docs/WEB.md is its contract.
"use strict";

const VOICE_COMMIT_MS = 1500;   // seeds/001: voice scores auto-commit after 1.5 s unless tapped
const ARROWS_MS = 1500;         // position arrows hold 1.5 s (pill and leaderboard)
const RESHUFFLE_MS = 300;       // rows slide 0.3 s, as on the watch, 20 ms apart
const STAGGER_MS = 20;
const ADVANCE_MS = 800;         // a fully scored hole gives way to the next after 0.5–1 s

const reduceMotion = () => document.documentElement.classList.contains("reduce-motion")
  || window.matchMedia("(prefers-reduced-motion: reduce)").matches;
if (new URLSearchParams(location.search).has("reduce-motion")) document.documentElement.classList.add("reduce-motion");

let state = null;               // the last PageState the hub sent
let previous = null;            // the one before (for arrows and announcements)
const ui = {
  tab: "scoring", hole: null, followCurrent: true, editing: null, layer: null,
  setup: { course: null, players: [], guests: [] }, refusal: null, notice: null,
  connected: false, lastHeard: null, arrows: {}, pulse: false, dismissedSummary: localStorage.getItem("hyzer-dismissed-summary"),
};

// ---- formatting (the hub's rules: "E" for even, "T2" for a tie) -----------------------------
const toPar = (n) => n === 0 ? "E" : n > 0 ? `+${n}` : `${n}`;
const spokenToPar = (n) => n === 0 ? "even" : n > 0 ? `plus ${words(n)}` : `minus ${words(-n)}`;
const place = (s) => s.position == null ? "–" : `${s.tied ? "T" : ""}${s.position}`;
const WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
const words = (n) => n <= 10 ? WORDS[n] : `${n}`;
const ORDINALS = ["", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"];
const shortOrdinal = (n) => n % 100 >= 11 && n % 100 <= 13 ? `${n}th` : `${n}${["th", "st", "nd", "rd"][n % 10] || "th"}`;
const ordinal = (n) => n <= 10 ? ORDINALS[n] : shortOrdinal(n);
// "You finished 2nd", "You finished tied 2nd": a sentence, where a row's column says "2" or "T2" (`place`).
const finishedPlace = (s) => `${s.tied ? "tied " : ""}${shortOrdinal(s.position)}`;
// The same read aloud: "second", "tied second".
const spokenPlace = (s) => `${s.tied ? "tied " : ""}${ordinal(s.position)}`;
const strokes = (n) => `${n} stroke${n === 1 ? "" : "s"}`;
const capitalized = (text) => text.charAt(0).toUpperCase() + text.slice(1);
const holeTone = (rel) => rel < 0 ? "under-par" : rel === 0 ? "at-par" : rel === 1 ? "over-par" : "way-over";
const roundTone = (rel, played) => rel < 0 ? "under-par" : rel === 0 ? "at-par" : played > 0 && rel >= 2 * played ? "way-over" : "over-par";
const time = (iso) => new Date(iso).toLocaleTimeString([], { hour: "numeric", minute: "2-digit" });
const day = (iso) => new Date(iso).toLocaleDateString([], { year: "numeric", month: "long", day: "numeric" });
const ago = (date) => {
  const s = Math.max(0, Math.round((Date.now() - date) / 1000));
  return s < 60 ? "just now" : s < 3600 ? `${Math.floor(s / 60)}m ago` : `${Math.floor(s / 3600)}h ago`;
};

// ---- a tiny element builder ------------------------------------------------------------------
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v == null || v === false) continue;
    if (k === "class") el.className = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "text") el.textContent = v;
    // Through the CSSOM: the page's Content-Security-Policy refuses style attributes.
    else if (k === "style") el.style.cssText = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c != null && c !== false) el.append(c.nodeType ? c : document.createTextNode(c));
  return el;
}

// A name whose lines break only between its words: a word wider than its line is cut with "…"
// rather than broken mid-word (Chromium hyphenates nothing; "Alexandri/a" at 200 % text).
function nameText(name) {
  return h("span", { class: "name" }, name.split(" ").flatMap((word, i) => [i ? " " : null, h("span", { class: "word", text: word })]));
}

let lastSaid = { text: "", at: 0 };
function announce(text) {
  if (!text) return;
  const region = document.getElementById("announcer");
  // What is said within a second of the last joins it (a score, then the standings it moved),
  // so the second does not cut the first off.
  const now = Date.now();
  const said = now - lastSaid.at < 1000 ? `${lastSaid.text} ${text}` : text;
  lastSaid = { text: said, at: now };
  region.textContent = "";
  // A new text in the live region, a frame later, is read even when it repeats the last one.
  requestAnimationFrame(() => { region.textContent = said; });
}

// ---- talking to the hub ----------------------------------------------------------------------
async function api(path, body) {
  let response;
  try {
    response = await fetch(path, {
      method: body === undefined ? "GET" : "POST",
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch {
    throw Object.assign(new Error("The phone is not answering: nothing was recorded. The page reconnects by itself; try again then."), { offline: true });
  }
  const data = await response.json().catch(() => ({ error: `The phone answered ${response.status}.` }));
  if (response.status === 401) { showPairing(data.error); throw new Error(data.error); }
  if (!response.ok) throw new Error(data.error || `The phone answered ${response.status}.`);
  return data;
}

async function act(path, body, after) {
  ui.refusal = null;
  try {
    const answer = await api(path, body);
    if (after) after(answer);
    return answer;
  } catch (error) {
    ui.refusal = error.message;
    ui.refusalOffline = !!error.offline;
    render();
    return null;
  }
}

let socket = null, retry = 1000;
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/live?after=${state ? state.sequence : -1}`);
  socket.onopen = () => {
    ui.connected = true;
    retry = 1000;
    if (ui.refusalOffline) { ui.refusal = null; ui.refusalOffline = false; render(); }
    renderSync();
  };
  socket.onmessage = (message) => {
    const data = JSON.parse(message.data);
    if (data.type === "state") receive(data.body);
  };
  socket.onclose = () => {
    ui.connected = false;
    renderSync();
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 10000);
  };
}

async function start() {
  try {
    const data = await api("/api/state");
    receive(data.body);
    connect();
  } catch (error) {
    if (!document.querySelector(".pair")) showPairing(error.message);
  }
}

function showPairing(message) {
  const screen = document.getElementById("screen");
  screen.replaceChildren(h("form", { class: "pair card", onsubmit: async (event) => {
    event.preventDefault();
    const token = event.target.querySelector("input").value.trim();
    try { await api("/api/pair", { token }); start(); } catch (error) {
      const banner = event.target.querySelector(".refusal");
      banner.hidden = false;
      banner.textContent = error.message;
    }
  } },
    h("h2", { text: "Pair this browser" }),
    h("p", { class: "caption", text: "This phone's face is open only with its pairing token: run hyzer-hub token on the phone." }),
    h("label", { for: "token", text: "Pairing token" }),
    h("div", { class: "transcript" }, h("input", { id: "token", autocomplete: "off", required: true }), h("button", { class: "secondary", type: "submit", text: "Pair" })),
    h("p", { class: "banner refusal", role: "alert", hidden: !message || /pairing token/.test(message) ? true : null, text: message || "" })));
  requestAnimationFrame(() => document.getElementById("token")?.focus());
}

// ---- receiving a state -----------------------------------------------------------------------
function receive(next) {
  if (state && next.sequence < state.sequence && next.snapshot.hubID === state.snapshot.hubID) return;
  previous = state;
  state = next;
  // A notice about the round in play goes with it.
  if (previous && previous.snapshot.round?.id !== state.snapshot.round?.id) { ui.notice = null; ui.refusal = null; }
  ui.lastHeard = Date.now();
  const round = state.snapshot.round;
  if (round) {
    if (ui.hole == null || ui.followCurrent) {
      const moved = previous?.snapshot.round && ui.hole != null && ui.hole !== round.currentHole;
      if (moved) setTimeout(() => { if (ui.followCurrent) { ui.hole = state.snapshot.round?.currentHole ?? ui.hole; ui.editing = null; render(); } }, ADVANCE_MS);
      else ui.hole = round.currentHole;
    }
    ui.hole = Math.min(Math.max(ui.hole, 1), round.holeCount);
  } else {
    ui.hole = null;
    ui.followCurrent = true;
  }
  noteMoves();
  // The hub's words for what changed, the watch's own.
  if (state.announcement && previous && state.sequence !== previous.sequence) announce(state.announcement);
  render();
  // J6: every player has every hole: offer to finalize, once per round.
  if (round?.status === "awaitingFinalization" && ui.promptedFinish !== round.id && !ui.layer) {
    ui.promptedFinish = round.id;
    openLayer({ kind: "finish" });
  }
}

// Who moved since the last state: arrows for 1.5 s, one pulse, one announcement for the burst.
function noteMoves() {
  const before = previous?.snapshot.round?.standings, after = state.snapshot.round?.standings;
  if (!before || !after || previous.snapshot.round.id !== state.snapshot.round.id) return;
  const was = Object.fromEntries(before.map((s) => [s.playerID, s.position]));
  let moved = false;
  for (const s of after) {
    const old = was[s.playerID];
    if (old == null || s.position == null || old === s.position) continue;
    ui.arrows[s.playerID] = { up: s.position < old, until: Date.now() + ARROWS_MS };
    moved = true;
  }
  const changed = JSON.stringify(before.map((s) => [s.playerID, s.scoreRelativeToPar])) !== JSON.stringify(after.map((s) => [s.playerID, s.scoreRelativeToPar]));
  if (moved || changed) {
    ui.pulse = true;
    setTimeout(() => { ui.pulse = false; }, 350);
    setTimeout(render, ARROWS_MS + 50);
  }
}

// ---- rendering -------------------------------------------------------------------------------
function render() {
  if (!state) return;
  document.querySelectorAll(".tab").forEach((tab) => { if (tab.dataset.tab === ui.tab) tab.setAttribute("aria-current", "page"); else tab.removeAttribute("aria-current"); });
  renderSync();
  renderActions();
  const screen = document.getElementById("screen");
  // The pill floats over every tab while a round is in play (the spec's overlay on the tab view):
  // the standings a tap away from History too.
  const round = state.snapshot.round;
  const other = ui.tab === "history" ? historyView() : ui.tab === "courses" ? coursesView() : null;
  const view = other ? [round ? pill(round) : null, ...other] : scoringView();
  const banners = [];
  // The message beside its button, not around it: a 44 px button inline made its line twice as tall.
  const dismissable = (key, kind, role, label) => h("p", { class: `banner${kind} with-action`, role }, h("span", { text: ui[key] }),
    h("button", { class: "text-button", type: "button", onclick: () => { ui[key] = null; render(); }, text: label }));
  if (ui.notice) banners.push(dismissable("notice", "", "status", "OK"));
  if (ui.refusal) banners.push(dismissable("refusal", " refusal", "alert", "Dismiss"));
  if (state.app === "suspended" || state.app === "not-running") {
    banners.push(h("p", { class: "banner", text: `The phone app is ${state.app === "suspended" ? "suspended" : "not running"}: watches are sent nothing until it runs (hyzer-hub app foreground).` }));
  }
  // A state may arrive at any moment: the control the user is on keeps the focus (a keyboard or
  // screen reader user is not thrown back to the top), and a field keeps its text.
  const active = document.activeElement;
  const kept = active && screen.contains(active) && (active.id || active.dataset.key)
    ? { id: active.id, key: active.dataset.key, value: active.value, start: active.selectionStart, end: active.selectionEnd } : null;
  const scrollY = window.scrollY;
  screen.replaceChildren(...banners, ...view.filter((node) => node != null));
  window.scrollTo(0, scrollY);
  const again = kept && (kept.id ? document.getElementById(kept.id) : screen.querySelector(`[data-key="${CSS.escape(kept.key)}"]`));
  if (again && again !== active) {
    if (again.tagName === "INPUT") {
      again.value = kept.value;
      again.setSelectionRange?.(kept.start, kept.end);
    }
    again.focus();
  }
  renderLayer();
}

function renderSync() {
  const sync = document.getElementById("sync");
  if (!state) return;
  // Silence is success: only being out of step is said (the page away from the phone, the phone
  // away from the cloud, scores waiting to go up).
  const cloud = state.sync;
  const waiting = cloud && cloud.eventsWaiting ? ` · ${cloud.eventsWaiting} score${cloud.eventsWaiting === 1 ? "" : "s"} waiting to upload` : "";
  if (!ui.connected) sync.textContent = `Offline · standings from ${ago(ui.lastHeard || Date.now())}`;
  else if (cloud?.state === "offline") sync.textContent = `Cloud offline · scores saving locally${waiting}`;
  else if (cloud?.state === "error") sync.textContent = `Cloud: ${cloud.detail || "error"}${waiting}`;
  else if (cloud?.state === "syncing") sync.textContent = `Syncing…${waiting}`;
  else sync.textContent = waiting.replace(/^ · /, "");
}
setInterval(renderSync, 15000);

function renderActions() {
  const actions = document.getElementById("actions");
  const round = state.snapshot.round;
  actions.replaceChildren(...(round && ui.tab === "scoring" && !ui.setupOpen
    ? [h("button", { class: "text-button", type: "button", onclick: () => openLayer({ kind: "finish" }), text: "Finish Round" })]
    : []));
  // The course names the scoring tab; the other tabs, their own names.
  document.getElementById("title").textContent = ui.tab === "history" ? "History" : ui.tab === "courses" ? "Courses" : round ? round.courseName : "Hyzer";
}

function scoringView() {
  const round = state.snapshot.round;
  if (!round) {
    if (ui.setupOpen) return setupView();
    const finished = state.snapshot.finishedRound;
    if (finished && ui.dismissedSummary !== finished.id) return [summaryCard(finished, state.history.find((r) => r.round.id === finished.id))];
    return [h("p", { class: "empty", text: "No round in progress." }),
      h("button", { class: "primary", type: "button", onclick: () => { ui.setupOpen = true; render(); }, text: "Start Round" })];
  }
  return [pill(round), holeCard(round)];
}

// C1: the floating leaderboard pill.
function pill(round) {
  const you = state.round?.you;
  const open = state.round?.settledBy == null ? state.round?.discrepancies.length || 0 : 0;
  const leader = round.standings[0];
  const label = leader && leader.position != null
    ? `Leaderboard: ${leader.name} leads at ${spokenToPar(leader.scoreRelativeToPar)}. ${round.standings.length} players.`
    : `Leaderboard: no scores yet. ${round.standings.length} players.`;
  const badge = open ? ` ${open} discrepanc${open === 1 ? "y" : "ies"} to resolve.` : "";
  // First names, as the spec writes the pill (the hub's NameText.shortNames: "Sam K." where two share one).
  const names = new Map((state.round?.players || []).map((p) => [p.id, p.shortName]));
  const button = h("button", { class: `pill${ui.pulse ? " pulse" : ""}`, type: "button", "aria-label": label + badge, "aria-description": "View full leaderboard",
    onclick: () => openLayer({ kind: "board" }) },
    h("span", { class: "pill-entries", "aria-hidden": "true" }, round.standings.map((s) =>
      h("span", { class: `pill-entry${s.playerID === you ? " you" : ""}`, "data-player": s.playerID },
        `${s.position == null ? "" : `${place(s)} `}${names.get(s.playerID) ?? s.name} `, h("span", { class: `score ${roundTone(s.scoreRelativeToPar, s.holesPlayed)}`, text: toPar(s.scoreRelativeToPar) }),
        arrow(s.playerID)))),
    open ? h("span", { class: "badge", "aria-hidden": "true", text: `${open}` }) : null,
    h("span", { class: "chevron", "aria-hidden": "true", text: "⌄" }));
  // Keep this phone's owner in view in a long pill.
  requestAnimationFrame(() => button.querySelector(".pill-entry.you")?.scrollIntoView({ block: "nearest", inline: "nearest" }));
  return button;
}

function arrow(playerID) {
  const a = ui.arrows[playerID];
  if (!a || a.until < Date.now()) return h("span", { class: "arrow", "aria-hidden": "true" });
  return h("span", { class: `arrow ${a.up ? "up" : "down"}`, "aria-hidden": "true", text: a.up ? "▲" : "▼" });
}

// C3: the hole card.
function holeCard(round) {
  const hole = ui.hole, par = round.holes.find((x) => x.number === hole)?.par ?? 3;
  const scores = new Map((state.round?.scores || []).filter((s) => s.hole === hole).map((s) => [s.playerID, s]));
  const disputes = new Map((state.round?.discrepancies || []).filter((d) => d.hole === hole).map((d) => [d.playerID, d]));
  const standings = new Map(round.standings.map((s) => [s.playerID, s]));
  const players = state.round?.players || round.standings.map((s) => ({ id: s.playerID, name: s.name }));
  const suggested = players.find((p) => !scores.has(p.id))?.id;
  const rows = players.map((p) => {
    const score = scores.get(p.id), standing = standings.get(p.id), dispute = disputes.get(p.id);
    const label = `Hole ${hole}, par ${par}. ${p.name}, score: ${score ? `${score.strokes}, ${spokenHole(score.strokes - par)}` : "not yet entered"}.${dispute ? " Disputed." : ""}`;
    const row = h("li", { class: `row${p.id === suggested && ui.editing !== p.id ? " suggested" : ""}${p.id === state.round?.you ? " you" : ""}` },
      h("button", { class: "row-button", type: "button", "data-key": `row-${p.id}`, "aria-label": label, "aria-expanded": ui.editing === p.id ? "true" : "false",
        onclick: () => { ui.editing = ui.editing === p.id ? null : p.id; render(); focusPicker(); } },
        h("span", { class: "who" },
          nameText(p.name),
          h("span", { class: "caption" },
            standing ? h("span", { class: `score ${roundTone(standing.scoreRelativeToPar, standing.holesPlayed)}`, text: `${toPar(standing.scoreRelativeToPar)} thru ${standing.holesPlayed}` }) : null,
            score && score.reportedBy !== p.name && score.reportedBy !== youName() ? ` · scored by ${score.reportedBy}` : "",
            dispute ? h("span", { class: "disputed", text: " · disputed" }) : null)),
        h("span", { class: `hole-score score ${score ? holeTone(score.strokes - par) : ""}`, "aria-hidden": "true", text: score ? `${score.strokes}` : "–" })),
      ui.editing === p.id ? picker(p, hole, par, score) : null,
      dispute ? h("button", { class: "text-button", type: "button", onclick: () => openLayer({ kind: "discrepancy", playerID: p.id, hole }),
        text: state.round?.settledBy == null ? "Resolve the discrepancy" : "See the discrepancy" }) : null);
    return row;
  });
  const dots = round.holes.map((x) => h("span", { class: `dot${x.number === hole ? " current" : ""}`, "aria-hidden": "true" }));
  return h("section", { class: "card", "aria-label": `Hole ${hole}, Par ${par}.`, ontouchstart: swipeStart, ontouchend: (event) => swipeEnd(event, hole, round.holeCount) },
    h("div", { class: "card-header" }, h("h2", { text: `Hole ${hole}` }), h("span", { class: "caption", text: `Par ${par} · ${round.courseName}` }),
      hole === round.currentHole ? null : h("button", { class: "text-button", type: "button", onclick: () => goToHole(round.currentHole), text: `Back to hole ${round.currentHole}` })),
    h("ul", { class: "rows" }, rows),
    h("button", { class: "mic", type: "button", "aria-label": "Record scores by voice.", "aria-description": "Say player names and scores", onclick: () => openLayer({ kind: "voice", hole }) }, micIcon()),
    h("div", { class: "hole-nav" },
      h("button", { class: "secondary", type: "button", "aria-label": "Previous hole", disabled: hole <= 1, onclick: () => goToHole(hole - 1), text: "‹" }),
      h("div", { class: "dots", role: "img", "aria-label": `Hole ${hole} of ${round.holeCount}` }, dots),
      h("button", { class: "secondary", type: "button", "aria-label": "Next hole", disabled: hole >= round.holeCount, onclick: () => goToHole(hole + 1), text: "›" })));
}

function micIcon() {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", "28");
  svg.setAttribute("height", "28");
  svg.setAttribute("aria-hidden", "true");
  svg.innerHTML = '<rect x="9" y="3" width="6" height="11" rx="3" fill="currentColor"/><path d="M6 11a6 6 0 0 0 12 0M12 17v4M8 21h8" stroke="currentColor" stroke-width="2" fill="none" stroke-linecap="round"/>';
  return svg;
}

const youName = () => state.round?.players.find((p) => p.id === state.round.you)?.name;

const spokenHole = (rel) => rel === 0 ? "par" : rel < 0 ? `${words(-rel)} under par` : `${words(rel)} over par`;

// Swipe left for the next hole, right for the previous one (seeds/001: the card stack).
let swipeFrom = null;
function swipeStart(event) { swipeFrom = event.touches[0] ? { x: event.touches[0].clientX, y: event.touches[0].clientY } : null; }
function swipeEnd(event, hole, holeCount) {
  const touch = event.changedTouches[0];
  if (!swipeFrom || !touch) return;
  const dx = touch.clientX - swipeFrom.x, dy = touch.clientY - swipeFrom.y;
  swipeFrom = null;
  if (Math.abs(dx) < 60 || Math.abs(dx) < 2 * Math.abs(dy)) return;
  const next = dx < 0 ? hole + 1 : hole - 1;
  if (next >= 1 && next <= holeCount) goToHole(next);
}

function goToHole(hole) {
  ui.hole = hole;
  ui.editing = null;
  ui.followCurrent = hole === state.snapshot.round?.currentHole;
  render();
}

// The inline picker: 1–10, anchored at par (the par button is marked and takes focus).
function picker(player, hole, par, score) {
  const current = score?.strokes;
  return h("div", { class: "picker", role: "group", "aria-label": `Select score for ${player.name}` },
    Array.from({ length: 10 }, (_, i) => i + 1).map((n) =>
      h("button", { type: "button", class: n === par ? "par" : "", "aria-pressed": n === current ? "true" : "false",
        "aria-label": `${n}, ${spokenHole(n - par)}`, "data-strokes": n, "data-key": `pick-${player.id}-${n}`,
        onclick: () => scoreTap(player, hole, n) }, `${n}`)));
}

document.addEventListener("keydown", (event) => {
  const picker = event.target.closest?.(".picker");
  if (!picker) return;
  const buttons = [...picker.querySelectorAll("button")];
  const index = buttons.indexOf(event.target);
  if (event.key === "ArrowRight" || event.key === "ArrowDown") { buttons[Math.min(index + 1, buttons.length - 1)]?.focus(); event.preventDefault(); }
  if (event.key === "ArrowLeft" || event.key === "ArrowUp") { buttons[Math.max(index - 1, 0)]?.focus(); event.preventDefault(); }
  if (event.key === "Escape" && ui.editing != null && !ui.layer) {
    const key = `row-${ui.editing}`;
    ui.editing = null;
    render();
    document.querySelector(`[data-key="${CSS.escape(key)}"]`)?.focus();
    event.stopPropagation();
  }
}, true);

function focusPicker() {
  requestAnimationFrame(() => (document.querySelector(".picker [aria-pressed=true]") || document.querySelector(".picker .par"))?.focus());
}

async function scoreTap(player, hole, strokes) {
  ui.editing = null;
  await act("/api/score", { player: player.name, strokes, hole }, (answer) => {
    navigator.vibrate?.(10);
    const outcome = answer.recorded?.outcome;
    if (outcome === "discrepancy") {
      // Another device says otherwise: recorded, and now disputed until it is settled.
      const others = (answer.recorded.discrepancy || []).filter((e) => e.id !== answer.recorded.event.id).map((e) => e.strokes);
      const settler = state.round?.settledBy ? `by ${state.round.settledBy}` : "here (Resolve the discrepancy)";
      ui.notice = `Recorded ${player.name}: ${strokes} on hole ${hole}. Another device says ${[...new Set(others)].join(" or ")}: the hole is disputed until it is settled ${settler}; the standings count ${answer.recorded.counts ?? "the first score"} until then.`;
      announce(`${player.name}, ${words(strokes)}, recorded; another device says otherwise: a discrepancy.`);
    } else {
      announce(outcome === "unchanged" ? `${player.name} already has ${strokes}.` : answer.spoken);
    }
  });
  render();
  document.querySelector(`[data-key="row-${CSS.escape(player.id)}"]`)?.focus();
}

// ---- layers: sheets and overlays -------------------------------------------------------------
function openLayer(layer) {
  ui.opener = document.activeElement;
  ui.layer = layer;
  if (layer.kind === "voice") ui.voice = { phase: "listen", transcript: "", rows: [], problems: [] };
  renderLayer();
  requestAnimationFrame(() => (document.querySelector("#layer [autofocus]") || document.querySelector("#layer h2"))?.focus());
}

function closeLayer() {
  clearTimeout(ui.voiceTimer);
  ui.layer = null;
  renderLayer();
  const opener = ui.opener;
  const again = opener?.isConnected ? opener : (opener?.dataset?.key && document.querySelector(`[data-key="${CSS.escape(opener.dataset.key)}"]`))
    || (opener?.className && document.querySelector(`.${opener.className.split(" ")[0]}`));
  (again || document.getElementById("screen")).focus?.();
}

document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && ui.layer) closeLayer();
  // A sheet is modal: Tab goes round its own controls.
  if (event.key === "Tab" && ui.layer) {
    const controls = [...document.querySelectorAll("#layer button:not([disabled]), #layer input, #layer [tabindex='-1']")].filter((el) => el.offsetParent !== null);
    if (!controls.length) return;
    const first = controls[0], last = controls[controls.length - 1];
    if (event.shiftKey && document.activeElement === first) { last.focus(); event.preventDefault(); }
    else if (!event.shiftKey && document.activeElement === last) { first.focus(); event.preventDefault(); }
    else if (!document.querySelector("#layer").contains(document.activeElement)) { first.focus(); event.preventDefault(); }
  }
});

let boardPositions = null;
function renderLayer() {
  const root = document.getElementById("layer");
  const layer = ui.layer;
  if (!layer || !state) { root.replaceChildren(); boardPositions = null; return; }
  const before = layer.kind === "board" ? measureBoard() : null;
  let content;
  if (layer.kind === "board") content = boardSheet();
  else if (layer.kind === "voice") content = voiceSheet();
  else if (layer.kind === "discrepancy") content = discrepancySheet(layer);
  else if (layer.kind === "finish") content = finishSheet();
  else if (layer.kind === "history") content = historySheet(layer);
  if (!content) { ui.layer = null; root.replaceChildren(); return; }
  const focused = document.activeElement?.id;
  const same = root.firstChild?.dataset?.kind === layer.kind;
  root.replaceChildren(h("div", { class: "scrim", "data-kind": layer.kind, onclick: (event) => { if (event.target === event.currentTarget) closeLayer(); } }, content));
  if (same) root.querySelector(".sheet").style.animation = "none";
  if (focused) document.getElementById(focused)?.focus();
  if (before) slideBoard(before);
}

function sheet(kind, title, subtitle, ...body) {
  // A sheet that would record something on its own (voice) or asks something (finish) is left by
  // Cancel; one that shows something, by Done.
  const close = kind === "voice" || kind === "finish" ? "Cancel" : "Done";
  return h("section", { class: `sheet ${kind}`, role: "dialog", "aria-modal": "true", "aria-labelledby": `${kind}-title` },
    h("div", { class: "handle", "aria-hidden": "true" }),
    h("div", { class: "sheet-header" }, h("h2", { id: `${kind}-title`, tabindex: "-1", text: title }),
      h("button", { class: "text-button", type: "button", onclick: closeLayer, text: close })),
    subtitle ? h("p", { class: "caption", text: subtitle }) : null, ...body);
}

// C2: the expanded leaderboard; rows slide to new places (FLIP), 20 ms apart, arrows for 1.5 s.
function boardSheet() {
  const round = state.snapshot.round || state.snapshot.finishedRound;
  if (!round) return null;
  const you = state.round?.you;
  const rows = round.standings.map((s) => h("li", { class: `board-row${s.playerID === you ? " you" : ""}`, "data-player": s.playerID,
    "aria-label": `${s.position == null ? "No position" : capitalized(spokenPlace(s))}. ${s.name}. ${spokenToPar(s.scoreRelativeToPar)}. ${strokes(s.totalStrokes)} through ${s.holesPlayed} hole${s.holesPlayed === 1 ? "" : "s"}.${s.discrepancy ? " Disputed." : ""}` },
    h("span", { class: `position${s.position === 1 ? " first" : ""}`, "aria-hidden": "true", text: place(s) }),
    h("span", { class: "who", "aria-hidden": "true" }, nameText(s.name),
      h("span", { class: "caption", text: `${s.holesPlayed} of ${round.holeCount} holes${s.discrepancy ? " · disputed" : ""}` })),
    arrow(s.playerID),
    h("span", { class: `total score ${roundTone(s.scoreRelativeToPar, s.holesPlayed)}`, "aria-hidden": "true", text: toPar(s.scoreRelativeToPar) })));
  return sheet("board", "Leaderboard", `Hole ${round.currentHole} of ${round.holeCount}`, h("ol", { class: "board-list", "aria-label": "Standings" }, rows));
}

function measureBoard() {
  const positions = {};
  document.querySelectorAll("#layer .board-row").forEach((row) => { positions[row.dataset.player] = row.getBoundingClientRect().top; });
  return positions;
}

function slideBoard(before) {
  const rows = [...document.querySelectorAll("#layer .board-row")];
  rows.forEach((row, index) => {
    const old = before[row.dataset.player];
    if (old == null) return;
    const delta = old - row.getBoundingClientRect().top;
    if (Math.abs(delta) < 1) return;
    if (reduceMotion()) {
      // No movement: the rows that changed fade in at their new places.
      row.animate([{ opacity: 0.4 }, { opacity: 1 }], { duration: RESHUFFLE_MS });
      return;
    }
    row.animate([{ transform: `translateY(${delta}px)` }, { transform: "translateY(0)" }],
      { duration: RESHUFFLE_MS, delay: index * STAGGER_MS, easing: "cubic-bezier(0.2, 0.8, 0.2, 1)", fill: "backwards" });
  });
}

// C4: the voice overlay: what was heard, the hub's parse, 1.5 s to correct, then committed.
function voiceSheet() {
  const v = ui.voice;
  const hole = ui.layer.hole;
  const speech = window.SpeechRecognition || window.webkitSpeechRecognition;
  const names = (state.round?.players || []).map((p) => p.name);
  if (v.phase === "listen" || v.phase === "failed") {
    return sheet("voice", "Score by voice", `Hole ${hole}. Say player names and scores.`,
      v.phase === "failed" ? h("p", { class: "banner refusal", role: "alert", text: v.problem || "Couldn't understand. Try again?" }) : null,
      h("form", { class: "transcript", onsubmit: (event) => { event.preventDefault(); hear(event.target.querySelector("input").value); } },
        h("label", { class: "visually-hidden", for: "transcript", text: "What was said" }),
        h("input", { id: "transcript", autofocus: true, autocomplete: "off", placeholder: `${names[0] || "Ann"} 3, ${names[1] || "Ben"} four`, value: v.transcript }),
        h("button", { class: "secondary", type: "submit", text: "Score" })),
      speech ? h("button", { class: "secondary", type: "button", onclick: () => listen(speech), text: v.listening ? "Listening…" : "Speak" }) : null);
  }
  const unresolved = v.rows.filter((r) => !r.name || !r.strokes).length;
  const paused = v.editing != null || unresolved > 0 || v.held;
  const rows = v.rows.map((row, index) => h("li", {},
    h("button", { class: `voice-row${row.name ? "" : " unresolved"}`, type: "button", id: `voice-row-${index}`,
      "aria-label": row.name ? `${row.name}, ${row.strokes ?? "no score"}. Tap to correct.`
        : `${row.heard}: not matched to a player${row.candidates.length ? `; did you mean ${row.candidates.join(" or ")}?` : "."} Tap to choose who.`,
      onclick: () => { v.editing = v.editing === index ? null : index; if (v.editing == null) restartVoice(); else { pauseVoice(); renderLayer(); } } },
      // Unsure, as the watch shows it: the one player it could be ("Jake?"), else what was heard.
      nameText(row.name || `${row.candidates.length === 1 ? row.candidates[0] : row.heard}?`), h("span", { class: "leader", "aria-hidden": "true" }),
      h("span", { class: `said score${row.strokes && v.par ? ` ${holeTone(row.strokes - v.par)}` : ""}`, text: row.strokes ?? "?" })),
    !row.name && row.candidates.length && v.editing !== index
      ? h("p", { class: "caption", text: row.candidates.length === 1 ? `Heard “${row.heard}”` : `Did you mean ${row.candidates.join(" or ")}?` }) : null,
    v.editing === index ? voicePicker(row, index) : null));
  // The bar shows how much of the 1.5 s has gone, across re-renders; paused, it stays where it was.
  const elapsed = v.deadline ? Math.min(VOICE_COMMIT_MS, VOICE_COMMIT_MS - (v.deadline - Date.now())) : 0;
  const bar = paused ? h("div", { style: `transform: scaleX(${v.pausedAt ?? 0})` })
    : h("div", { style: `animation-duration: ${VOICE_COMMIT_MS}ms; animation-delay: -${Math.max(0, elapsed)}ms` });
  const why = unresolved ? `Tap each ? to choose who: ${unresolved === 1 ? "it is" : "they are"} not saved until then. Commit Scores saves the others.`
    : paused ? "Paused while you correct." : "Saving in 1.5 seconds. Tap to correct.";
  return sheet("voice", "Scores heard", `Hole ${hole}${v.par ? `, par ${v.par}` : ""}`,
    h("ul", { class: "voice-rows" }, rows),
    v.problems.map((p) => h("p", { class: "caption", text: p })),
    h("div", { class: `countdown${paused ? "" : " running"}`, "aria-hidden": "true" }, bar),
    h("p", { class: "caption", text: why }),
    h("button", { class: "primary", type: "button", onclick: commitVoice, disabled: !v.rows.some((r) => r.name && r.strokes), text: "Commit Scores" }));
}

function voicePicker(row, index) {
  const players = state.round?.players || [];
  const par = state.snapshot.round?.holes.find((x) => x.number === ui.layer.hole)?.par;
  return h("div", { class: "voice-picker" },
    row.name ? null : h("div", { class: "picker names", role: "group", "aria-label": `Who is “${row.heard}”?` },
      h("span", { class: "caption picker-label", text: "Who" }),
      players.map((p) => h("button", { type: "button", class: row.candidates.includes(p.name) ? "par" : "",
        onclick: () => { row.name = p.name; if (row.strokes) ui.voice.editing = null; restartVoice(); }, text: p.name }))),
    h("div", { class: "picker", role: "group", "aria-label": `Strokes for ${row.name || row.heard}` },
      h("span", { class: "caption picker-label", text: "Strokes" }),
      Array.from({ length: 10 }, (_, i) => i + 1).map((n) => h("button", { type: "button", class: n === par ? "par" : "", "aria-pressed": n === row.strokes ? "true" : "false",
        onclick: () => { row.strokes = n; if (row.name) ui.voice.editing = null; restartVoice(); } }, `${n}`))));
}

function listen(Recognition) {
  const recognition = new Recognition();
  recognition.lang = "en-US";
  ui.voice.listening = true;
  renderLayer();
  recognition.onresult = (event) => hear(event.results[0][0].transcript);
  recognition.onerror = (event) => {
    ui.voice.phase = "failed";
    ui.voice.problem = `This browser could not listen (${event.error}): type what was said.`;
  };
  recognition.onend = () => { ui.voice.listening = false; if (ui.voice.phase !== "confirm") renderLayer(); };
  recognition.start();
}

// The hub's own voice parser reads the transcript (a dry run: nothing is recorded yet).
async function hear(transcript) {
  const v = ui.voice;
  v.transcript = transcript;
  const answer = await act("/api/voice", { transcript, hole: ui.layer.hole, dryRun: true });
  if (!answer) { v.phase = "failed"; v.problem = ui.refusal; ui.refusal = null; renderLayer(); return; }
  v.par = answer.voice.par;
  // Heard with a name that matched, nearly matched, or matched no one: each is a row; what the
  // hub refused (strokes 11) or could not read is said with its reason.
  v.rows = answer.voice.heard.filter((x) => ["record", "didYouMean", "ambiguous", "unknownName"].includes(x.status))
    .map((x) => ({ heard: x.heard, name: x.status === "record" ? x.name : null, strokes: x.strokes, candidates: x.candidates }));
  v.problems = answer.voice.problems.map((p) => `"${p.fragment}": ${p.reason}`);
  if (!v.rows.length) {
    v.phase = "failed";
    v.problem = `Couldn't understand. Try again? ${v.problems.join(" ")}`.trim();
    renderLayer();
    return;
  }
  v.phase = "confirm";
  v.editing = null;
  announce(`Voice scores confirmed. ${v.rows.filter((r) => r.name).map((r) => `${r.name} ${r.strokes}.`).join(" ")} Auto-saving in 1.5 seconds. Tap any score to correct.`);
  restartVoice();
}

function pauseVoice() {
  const v = ui.voice;
  clearTimeout(ui.voiceTimer);
  if (v.deadline) v.pausedAt = Math.min(1, Math.max(0, 1 - (v.deadline - Date.now()) / VOICE_COMMIT_MS));
  v.deadline = null;
}
// A correction, or the rows all resolved: 1.5 s again from now (none while a row has a "?").
function restartVoice() {
  const v = ui.voice;
  clearTimeout(ui.voiceTimer);
  v.deadline = null;
  v.pausedAt = 0;
  const resolved = v.rows.every((r) => r.name && r.strokes);
  if (v.editing == null && resolved && !v.held) {
    v.deadline = Date.now() + VOICE_COMMIT_MS;
    ui.voiceTimer = setTimeout(commitVoice, VOICE_COMMIT_MS);
  }
  renderLayer();
}
// Focus inside the rows (a keyboard or screen reader user reading them) holds the timer; it runs
// again from the start when focus leaves them.
document.addEventListener("focusin", (event) => {
  if (ui.layer?.kind !== "voice" || ui.voice?.phase !== "confirm") return;
  // Only a keyboard's (or a screen reader's) focus: a tap also focuses what it taps.
  const inRows = !!event.target.closest?.(".voice-rows") && event.target.matches(":focus-visible");
  if (inRows && !ui.voice.held) { ui.voice.held = true; pauseVoice(); renderLayer(); }
  if (!inRows && ui.voice.held) { ui.voice.held = false; restartVoice(); }
});

async function commitVoice() {
  clearTimeout(ui.voiceTimer);
  const v = ui.voice;
  const said = v.rows.filter((r) => r.name && r.strokes);
  if (!said.length || v.phase !== "confirm") return;
  v.held = false;
  v.phase = "committing";
  // What the page shows is what is recorded: the rows (corrections included), read by the hub's parser again.
  const answer = await act("/api/voice", { transcript: said.map((r) => `${r.name} ${r.strokes}`).join(", "), hole: ui.layer.hole, dryRun: false });
  closeLayer();
  if (answer) { navigator.vibrate?.(10); announce(`Scores recorded: ${said.map((r) => `${r.name} ${words(r.strokes)}`).join(", ")}.`); }
}

// C9: discrepancy resolution: each claim in play side by side; one tap settles it.
function discrepancySheet(layer) {
  const all = state.round?.discrepancies || [];
  const d = all.find((x) => x.playerID === layer.playerID && x.hole === layer.hole) || all[0];
  if (!d) return null;
  const mayResolve = state.round.settledBy == null;
  const names = ["one", "two", "three", "four", "five", "six"];
  // One option a value, in the claims' order: the organizer settles a value, and two devices that
  // said 6 are one choice (with both names), not two cards that read alike.
  const options = [];
  for (const c of d.claims) {
    const same = options.find((o) => o.strokes === c.strokes);
    if (same) { same.by.push(c.reportedBy); same.at.push(c.createdAt); same.counted ||= c.counted; } else options.push({ strokes: c.strokes, by: [c.reportedBy], at: [c.createdAt], counted: c.counted });
  }
  const who = (by) => by.length > 1 ? `${by.slice(0, -1).join(", ")} and ${by[by.length - 1]}` : by[0];
  return sheet("discrepancy", "Score Discrepancy", `${d.name}, hole ${d.hole} (par ${d.par})${all.length > 1 ? ` · ${all.length} to resolve` : ""}`,
    h("div", { class: "claims", role: "group", "aria-label": `Score discrepancy for ${d.name} on hole ${d.hole}. ${options.map((c, i) => `Option ${names[i] || i + 1}: ${c.strokes}, recorded by ${who(c.by)}.`).join(" ")}${mayResolve ? " Tap to select correct score." : ""}` },
      options.map((c, i) => h("button", { class: "claim", type: "button", disabled: !mayResolve, "data-strokes": c.strokes,
        "aria-label": `Option ${names[i] || i + 1}: ${c.strokes}, recorded by ${who(c.by)} at ${who(c.at.map(time))}${c.counted ? ", counted for now" : ""}`,
        onclick: () => act("/api/resolve", { player: d.name, strokes: c.strokes, hole: d.hole }, () => {
          announce(`Resolved: ${d.name}, hole ${d.hole}, ${words(c.strokes)}.`);
          const rest = (state.round?.discrepancies || []).filter((x) => !(x.playerID === d.playerID && x.hole === d.hole));
          if (rest.length) openLayer({ kind: "discrepancy", playerID: rest[0].playerID, hole: rest[0].hole }); else closeLayer();
        }) },
        // Neutral, not in the score colours: a red 5 beside a white 3 read as the wrong one before
        // anyone chose (the spec's "calm resolution, fairness").
        h("span", { class: "strokes score", text: `${c.strokes}` }),
        h("span", { class: "caption", text: `Recorded by ${who(c.by)}` }),
        // When each said it, in the same order as the names.
        h("span", { class: "caption", text: `${c.at.map(time).join(", ")}${c.counted ? " · counts for now" : ""}` })))),
    h("p", { class: "caption", text: mayResolve ? "Tap the correct score." : `Settled by ${state.round.settledBy}. The standings count the first score until then.` }));
}

// J6: finishing (a lifecycle prompt, not a scoring confirmation).
function finishSheet() {
  const round = state.snapshot.round;
  if (!round) return null;
  const complete = round.standings.every((s) => s.holesPlayed === round.holeCount);
  const open = state.round?.discrepancies.length || 0;
  const missing = round.holeCount * round.standings.length - round.standings.reduce((sum, s) => sum + s.holesPlayed, 0);
  const total = round.holeCount * round.standings.length;
  // Everything that is not done is said, both at once: a round two holes in is not "finished"
  // by an open discrepancy's prompt alone.
  const problems = [
    open ? `${open} discrepanc${open === 1 ? "y is" : "ies are"} still open (the score that counts now stays)` : null,
    complete ? null : `${missing} of ${total} scores are missing (they stay empty, not zero)`,
  ].filter(Boolean);
  const question = problems.length ? `${problems.join("; ")}. Finish anyway?` : "All scores recorded. Finalize round?";
  return sheet("finish", "Finish Round", null, h("p", { text: question }),
    h("button", { class: "primary", type: "button", onclick: () => act("/api/round/finish", { force: !complete || open > 0 }, () => {
      closeLayer();
      ui.dismissedSummary = null;
      announce("Round finished.");
    }), text: "Finish Round" }),
    h("button", { class: "secondary", type: "button", onclick: closeLayer, text: "Not yet" }));
}

// C7: the round summary card.
function summaryCard(round, entry) {
  const you = entry?.you;
  const me = round.standings.find((s) => s.playerID === you);
  const won = winners(round);
  const spoken = `Round complete at ${round.courseName}. ${won ? `${won.who.replace(" won", " finished first")} at ${spokenToPar(won.score.scoreRelativeToPar)}.` : "No scores were recorded."}${me && me.position ? ` You finished ${spokenPlace(me)} at ${spokenToPar(me.scoreRelativeToPar)}.` : ""}`;
  return h("article", { class: "card summary", "aria-label": spoken },
    h("h2", { text: round.courseName }),
    h("p", { class: "caption", text: entry ? day(entry.createdAt) : "" }),
    finalRows(round.standings, you),
    me && me.position ? h("p", { class: "line" }, `You finished ${finishedPlace(me)} at\u00a0`,
      h("span", { class: `score ${roundTone(me.scoreRelativeToPar, me.holesPlayed)}`, text: toPar(me.scoreRelativeToPar) })) : null,
    h("p", { class: "caption", text: `${holesPlayed(round)} of ${round.holeCount} holes played${entry?.organizer ? ` · organized by ${entry.organizer}` : ""}` }),
    h("button", { class: "primary", type: "button", onclick: () => share(round, spoken), text: "Share" }),
    h("button", { class: "secondary", type: "button", onclick: () => { ui.dismissedSummary = round.id; localStorage.setItem("hyzer-dismissed-summary", round.id); render(); }, text: "Done" }));
}

const holesPlayed = (round) => Math.max(0, ...round.standings.map((s) => s.holesPlayed));

// "Ann won at -2", "Ann and Cal tied for first at -2", or no scores at all.
function winners(round) {
  const first = round.standings.filter((s) => s.position === 1);
  if (!first.length) return null;
  const names = first.map((s) => s.name);
  const who = names.length === 1 ? `${names[0]} won` : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]} tied for first`;
  return { who, score: first[0] };
}

async function share(round, text) {
  const lines = [`${round.courseName}`, ...round.standings.map((s) => `${place(s)}. ${s.name} ${toPar(s.scoreRelativeToPar)} (${s.totalStrokes})`)].join("\n");
  if (navigator.share) { try { await navigator.share({ title: round.courseName, text: lines }); return; } catch { /* cancelled */ } }
  try { await navigator.clipboard.writeText(lines); ui.notice = "Copied the standings."; announce("Copied the standings."); } catch { ui.refusal = "This browser cannot share; the standings are above."; }
  render();
}

// ---- setup (J2) ------------------------------------------------------------------------------
function setupView() {
  const s = ui.setup;
  const courses = state.courses;
  const add = (list, input) => {
    const name = input.value.trim();
    if (!name) return;
    if ([...s.players, ...s.guests].some((x) => x.toLowerCase() === name.toLowerCase())) {
      ui.notice = `${name} is already in the round.`;
    } else {
      list.push(name);
      ui.notice = null;
    }
    input.value = "";
    render();
    requestAnimationFrame(() => document.getElementById(input.id)?.focus());
  };
  // J2: "Play with the same group as last time?"
  const last = state.history[0]?.round.standings;
  const sameAsLast = last && !s.players.length && !s.guests.length
    ? h("button", { class: "secondary long", type: "button", onclick: () => {
        s.players = last.filter((p) => !p.playerID.startsWith("guest:")).map((p) => p.name);
        s.guests = last.filter((p) => p.playerID.startsWith("guest:")).map((p) => p.name);
        render();
      }, text: `Same players as last time (${last.map((p) => p.name).join(", ")})` })
    : null;
  const chip = (name, list) => h("span", { class: "chip" }, name, h("button", { type: "button", "aria-label": `Remove ${name}`, onclick: () => { list.splice(list.indexOf(name), 1); render(); }, text: "×" }));
  const course = courses.find((c) => c.name === s.course);
  return [
    h("h2", { text: "New Round" }),
    h("fieldset", {}, h("legend", { text: "Course" }),
      courses.length ? courses.map((c) => h("label", { class: "choice" },
        h("input", { type: "radio", name: "course", value: c.name, checked: c.name === s.course, onchange: () => { s.course = c.name; render(); } }),
        h("span", {}, nameText(c.name), h("br"), h("span", { class: "caption", text: `${c.holes.length} holes · par ${c.par}` }))))
        : h("p", { class: "empty", text: "Add a course to get started: hyzer-hub course add --file COURSE.json" })),
    h("fieldset", {}, h("legend", { text: "Players" }),
      sameAsLast,
      h("datalist", { id: "known-players" }, state.knownPlayers.map((name) => h("option", { value: name }))),
      h("div", { class: "chips" }, s.players.map((n) => chip(n, s.players)), s.guests.map((n) => chip(`${n} (guest)`, s.guests))),
      h("form", { class: "transcript", onsubmit: (e) => { e.preventDefault(); add(s.players, e.target.querySelector("input")); } },
        h("label", { class: "visually-hidden", for: "add-player", text: "Player name" }),
        h("input", { id: "add-player", placeholder: "Player name", autocomplete: "off", list: "known-players" }), h("button", { class: "secondary", type: "submit", text: "Add Player" })),
      h("form", { class: "transcript", onsubmit: (e) => { e.preventDefault(); add(s.guests, e.target.querySelector("input")); } },
        h("label", { class: "visually-hidden", for: "add-guest", text: "Guest name" }),
        h("input", { id: "add-guest", placeholder: "Guest name", autocomplete: "off" }), h("button", { class: "secondary", type: "submit", text: "Add Guest" }))),
    h("p", { class: "caption", text: course ? `${course.name} · ${course.holes.length} holes · ${s.players.length + s.guests.length} players` : "Choose a course, then add players." }),
    h("button", { class: "primary", type: "button", disabled: !course || !s.players.length,
      onclick: () => act("/api/round/start", { course: s.course, players: s.players, guests: s.guests }, () => {
        ui.setupOpen = false; ui.setup = { course: null, players: [], guests: [] }; ui.followCurrent = true; ui.hole = null;
        announce("Round started. Hole 1.");
      }), text: "Start Round" }),
    h("button", { class: "text-button", type: "button", onclick: () => { ui.setupOpen = false; render(); }, text: "Cancel" }),
  ];
}

// ---- history (C8, J8) and courses -----------------------------------------------------------
function historyView() {
  if (!state.history.length) return [h("p", { class: "empty", text: "Your round history will appear here after your first completed round." })];
  return [h("ul", { class: "rows", "aria-label": "Finished rounds, newest first" }, state.history.map((entry) => {
    const r = entry.round, won = winners(r), me = r.standings.find((s) => s.playerID === entry.you);
    // A round finished early says so: "Sarah won at -1" after one hole of 18 is not a win of 18.
    const played = holesPlayed(r), incomplete = played < r.holeCount ? ` · ended after ${played} of ${r.holeCount} holes` : "";
    const players = `${r.standings.length} player${r.standings.length === 1 ? "" : "s"}${incomplete}`;
    const label = `${r.courseName}, ${day(entry.createdAt)}.${incomplete ? ` Ended after ${played} of ${r.holeCount} holes.` : ""} ${won ? `${won.who} at ${spokenToPar(won.score.scoreRelativeToPar)}.` : "No scores."}${me?.position ? ` You finished ${spokenPlace(me)}.` : ""}`;
    return h("li", {}, h("button", { class: "card history-card", type: "button", "aria-label": label, onclick: () => openLayer({ kind: "history", id: r.id }) },
      h("h3", { text: r.courseName }), h("span", { class: "caption", text: `${day(entry.createdAt)} · ${players}` }),
      won ? h("span", { class: "line" }, `${won.who} at\u00a0`, h("span", { class: `score ${roundTone(won.score.scoreRelativeToPar, won.score.holesPlayed)}`, text: toPar(won.score.scoreRelativeToPar) }))
        : h("span", { class: "line caption", text: "No scores recorded" }),
      me?.position ? h("span", { class: "line" }, `You finished ${finishedPlace(me)} at\u00a0`, h("span", { class: `score ${roundTone(me.scoreRelativeToPar, me.holesPlayed)}`, text: toPar(me.scoreRelativeToPar) })) : null));
  }))];
}

function historySheet(layer) {
  const entry = state.history.find((x) => x.round.id === layer.id);
  if (!entry) return null;
  return sheet("history", entry.round.courseName, `${day(entry.createdAt)} · ${holesPlayed(entry.round)} of ${entry.round.holeCount} holes played${entry.organizer ? ` · organized by ${entry.organizer}` : ""}`,
    finalRows(entry.round.standings, entry.you));
}

// A finished round's standings, on the summary card and in the history sheet alike: the place
// (the winner's in the accent, as the leaderboard's first), the name with its strokes under it,
// the score at the leaderboard's size.
function finalRows(standings, you) {
  return h("ol", { class: "final" }, standings.map((s) => h("li", { class: s.playerID === you ? "you" : "",
    "aria-label": `${s.position ? capitalized(spokenPlace(s)) : "No position"}. ${s.name}. ${spokenToPar(s.scoreRelativeToPar)}. ${strokes(s.totalStrokes)}.` },
    h("span", { class: `position${s.position === 1 ? " first" : ""}`, "aria-hidden": "true", text: place(s) }),
    h("span", { class: "who", "aria-hidden": "true" }, nameText(s.name), h("span", { class: "caption", text: strokes(s.totalStrokes) })),
    h("span", { class: `score ${roundTone(s.scoreRelativeToPar, s.holesPlayed)}`, "aria-hidden": "true", text: toPar(s.scoreRelativeToPar) }))));
}

function coursesView() {
  return [h("ul", { class: "rows" }, state.courses.map((c) => h("li", { class: "choice" },
    h("span", {}, nameText(c.name), h("br"), h("span", { class: "caption", text: `${c.holes.length} holes · par ${c.par}` }))))),
    h("p", { class: "caption", text: "Add one from a file on the phone: hyzer-hub course add --file COURSE.json" })];
}

document.querySelectorAll(".tab").forEach((tab) => tab.addEventListener("click", () => { ui.tab = tab.dataset.tab; ui.layer = null; render(); document.getElementById("screen").focus(); }));
start();
