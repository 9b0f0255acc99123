// The game page: live play over a WebSocket, or (at /replay/<id>) a replay viewer.
import { api, el, formatSeconds, myName, mySeats, rememberSeat } from "./api.js";
import { PathPicker } from "./clicks.js";
import { loadAccountSeats } from "./account.js";

const $ = (id) => document.getElementById(id);
const gameId = location.pathname.split("/")[2];
const replayMode = location.pathname.startsWith("/replay/");
const picker = new PathPicker();
let state = null;
let socket = null;
let clockBase = 0;      // performance.now() when the last clock snapshot arrived
let focusIndex = -1;    // keyboard focus among the clickable targets

function seatInfo() { return mySeats()[gameId] || null; }

// Every seat this browser holds for this game (one, or several for play on one screen).
function myTokens() {
  const info = seatInfo();
  if (!info) return {};
  const out = {};
  for (const s of info.seats || []) out[s.seat] = s.token;
  if (info.token !== null && info.token !== undefined) out[info.seat] = info.token;
  return out;
}

function tokenToMove() {
  if (!state || state.to_move === null || state.to_move < 0) return null;
  return myTokens()[state.to_move] || null;
}

async function claimInvite() {
  // An invite link carries #seat=N&invite=CODE (once: the server answers with this seat's
  // own fresh token); hide it from the address bar. Older links carried the seat's token.
  const params = new URLSearchParams(location.hash.slice(1));
  const invite = params.get("invite");
  const token = params.get("token");
  if (!invite && !token) return;
  history.replaceState(null, "", location.pathname);
  try {
    const body = { name: myName() || null, ...(invite ? { invite } : {}) };
    const joined = await api("POST", `/api/games/${gameId}/join`, body, invite ? undefined : token);
    rememberSeat(gameId, joined.seat, joined.token);
  } catch (err) {
    showError(err.message);
  }
}

function showError(message) { $("error").textContent = message || ""; }

// -- drawing ----------------------------------------------------------------------------
function drawBoard(svgText) {
  const board = $("board");
  board.innerHTML = svgText || "";
  const svg = board.querySelector("svg");
  if (!svg) return;
  if (!svg.getAttribute("viewBox") && svg.getAttribute("width") && svg.getAttribute("height")) {
    svg.setAttribute("viewBox", `0 0 ${parseFloat(svg.getAttribute("width"))} ${parseFloat(svg.getAttribute("height"))}`);
  }
  svg.removeAttribute("width");
  svg.removeAttribute("height");
}

function targetElements() {
  return Array.from($("board").querySelectorAll("[data-target]"));
}

function highlight() {
  const next = new Set(picker.nextTargets());
  const chosen = new Set(picker.chosen);
  const present = new Set();
  for (const node of targetElements()) {
    const t = node.getAttribute("data-target");
    present.add(t);
    node.classList.toggle("qp-target", next.has(t));
    node.classList.toggle("qp-chosen", chosen.has(t));
    node.classList.remove("qp-focus");
  }
  const focusable = clickable();
  if (focusIndex >= focusable.length) focusIndex = -1;
  if (focusIndex >= 0) focusable[focusIndex].classList.add("qp-focus");
  // Path elements with nothing to click in the SVG become buttons (tile faces, rotations...).
  const buttons = [...next].filter((t) => !present.has(t)).map((t, i) =>
    el("button", { type: "button", class: "choice", "data-choice": t, title: i < 9 ? `key ${i + 1}` : "",
      onclick: () => choose(t) }, t));
  if (picker.chosen.length) {
    buttons.push(el("button", { type: "button", class: "cancel", onclick: () => { picker.reset(); highlight(); } },
      `cancel (${picker.chosen.join(" ")})`));
  }
  $("choices").replaceChildren(...buttons);
}

function clickable() { return targetElements().filter((n) => n.classList.contains("qp-target")); }

function choose(target) {
  const text = picker.click(target);
  if (text) sendMove(text);
  highlight();
}

function onBoardClick(event) {
  const next = picker.nextTargets();
  // The clicked element, or (when a stone or label covers it) a highlighted target under the pointer.
  const stack = [event.target, ...document.elementsFromPoint(event.clientX, event.clientY)];
  for (const hit of stack) {
    const node = hit.closest && hit.closest("[data-target]");
    if (node && $("board").contains(node) && next.includes(node.getAttribute("data-target"))) {
      choose(node.getAttribute("data-target"));
      return;
    }
  }
}

// Arrow keys move a focus between the clickable targets (nearest in that direction);
// Enter or Space clicks it; digits pick the buttons; Escape cancels.
function onKey(event) {
  if (event.target.closest("input, select, textarea")) return;
  const focusable = clickable();
  const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  if (dirs[event.key] && focusable.length) {
    event.preventDefault();
    const centre = (n) => { const r = n.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; };
    if (focusIndex < 0) { focusIndex = 0; highlight(); return; }
    const [dx, dy] = dirs[event.key];
    const [x0, y0] = centre(focusable[focusIndex]);
    let best = -1, bestScore = Infinity;
    focusable.forEach((n, i) => {
      const [x, y] = centre(n);
      const along = (x - x0) * dx + (y - y0) * dy;
      if (i === focusIndex || along <= 1) return;
      const across = Math.abs((x - x0) * dy) + Math.abs((y - y0) * dx);
      const score = along + 2 * across;
      if (score < bestScore) { bestScore = score; best = i; }
    });
    if (best >= 0) focusIndex = best;
    highlight();
  } else if ((event.key === "Enter" || event.key === " ") && focusIndex >= 0 && focusable[focusIndex]) {
    event.preventDefault();
    choose(focusable[focusIndex].getAttribute("data-target"));
  } else if (/^[1-9]$/.test(event.key)) {
    const button = $("choices").querySelectorAll("button.choice")[Number(event.key) - 1];
    if (button) button.click();
  } else if (event.key === "Escape") {
    picker.reset();
    highlight();
  }
}

function seatLabel(i) {
  const s = state.seats[i];
  return s ? s.name : `player ${i + 1}`;
}

function render() {
  document.title = `qipan — ${state.title}`;
  $("title").textContent = `${state.title}${Object.keys(myTokens()).length ? "" : " (watching)"}`;
  drawBoard(state.svg);
  const mine = myTokens();
  const canMove = !replayMode && state.status === "active" && tokenToMove() !== null;
  picker.setLegal(canMove ? state.legal : []);
  highlight();
  let status;
  if (state.status === "open") status = "Waiting for players to join…";
  else if (state.status === "over") status = state.result ? `Game over: ${state.result.text} — ${state.result.reason}` : "Game over";
  else if (state.to_move === null || state.to_move < 0) status = "…";
  else status = canMove ? `Your move (${seatLabel(state.to_move)})` : `${seatLabel(state.to_move)} to move${state.bot_thinking ? " (thinking…)" : ""}`;
  if (state.realtime && state.status === "active") status += ` · real time: ${state.realtime}s per tick`;
  $("status").textContent = status;
  $("status").dataset.ply = state.ply;
  $("status").dataset.status = state.status;
  $("seats").replaceChildren(...state.seats.map((s, i) => el("li", {
    class: `seat${state.to_move === i ? " to-move" : ""}${mine[i] ? " mine" : ""}`, "data-seat": i },
    el("span", { class: "dot" }, state.to_move === i ? "●" : "○"),
    el("span", { class: "name" }, `${s.name}${s.kind === "bot" ? ` (${s.agent})` : ""}${mine[i] ? " — you" : ""}`),
    el("span", { class: "presence" }, s.joined ? (s.online ? "" : " offline") : " (free seat)"),
    state.result ? el("span", { class: "score" }, ` ${state.result.scores[i]}`) : null,
    state.clock ? el("span", { class: "clock", "data-clock": i }, "") : null)));
  clockBase = performance.now();
  tickClocks();
  $("result").textContent = state.result ? `${state.result.text}: ${state.result.reason}` : "";
  const offers = [];
  if (state.offers.draw.length) offers.push(`Draw offered by ${state.offers.draw.map(seatLabel).join(", ")}`);
  if (state.offers.undo.length) offers.push(`Undo asked by ${state.offers.undo.map(seatLabel).join(", ")}`);
  $("offers").textContent = offers.join(" · ");
  const active = state.status === "active" && Object.keys(mine).length > 0 && !replayMode;
  $("actions").hidden = !active;
  $("draw").textContent = state.offers.draw.length && !state.offers.draw.some((s) => mine[s]) ? "Accept draw" : "Offer draw";
  $("undo").textContent = state.offers.undo.length && !state.offers.undo.some((s) => mine[s]) ? "Accept undo" : "Ask to undo";
  $("notation-form").hidden = !canMove;
  renderMoves();
  if (state.text !== undefined) $("text").textContent = state.text;
  else if ($("text-details").open) loadText();
  const invites = seatInfo()?.invites || [];
  const free = invites.filter((inv) => state.seats[inv.seat] && !state.seats[inv.seat].joined);
  $("invites").replaceChildren(...(free.length ? [el("h3", {}, "Invite links"), ...free.map((inv) => {
    const url = `${location.origin}${inv.invite}`;
    return el("p", {}, `Seat ${inv.seat + 1}: `, el("input", { readonly: true, value: url, class: "invite", onclick: (e) => e.target.select() }));
  })] : []));
  $("record-link").href = `/api/games/${gameId}/record`;
  $("replay-link").href = `/replay/${gameId}`;
  $("play-link").href = `/g/${gameId}`;
}

function renderMoves(current = null) {
  $("moves").replaceChildren(...state.moves.map((m, i) => el("li", {
    class: `${m.player < 0 ? "chance" : ""}${current === i + 1 ? " current" : ""}`,
    title: m.player < 0 ? "chance" : seatLabel(m.player),
    onclick: replayMode ? () => showPly(i + 1) : undefined }, m.text)));
  const list = $("moves");
  list.scrollTop = list.scrollHeight;
}

function tickClocks() {
  if (!state || !state.clock) return;
  const elapsed = (performance.now() - clockBase) / 1000;
  for (const node of document.querySelectorAll("[data-clock]")) {
    const i = Number(node.dataset.clock);
    let left = state.clock.remaining[i];
    if (state.clock.running === i && state.status === "active") left -= elapsed;
    node.textContent = formatSeconds(left);
    node.classList.toggle("low", left < 10);
  }
}

// -- acting -----------------------------------------------------------------------------
async function sendMove(text) {
  showError("");
  const token = tokenToMove();
  if (!token) return;
  const info = seatInfo();
  if (socket && socket.readyState === WebSocket.OPEN && token === info.token) {
    socket.send(JSON.stringify({ type: "move", move: text, ply: state.ply }));
  } else {
    try {
      await api("POST", `/api/games/${gameId}/move`, { move: text, ply: state.ply }, token);
    } catch (err) { showError(err.message); }
  }
}

async function act(kind, action) {
  showError("");
  const tokens = myTokens();
  const token = tokens[state.to_move] || Object.values(tokens)[0];
  try {
    const body = action ? { action } : {};
    await api("POST", `/api/games/${gameId}/${kind}`, body, token);
  } catch (err) { showError(err.message); }
}

async function loadText() {
  const token = tokenToMove() || seatInfo()?.token;
  try {
    const full = await api("GET", `/api/games/${gameId}`, undefined, token);
    $("text").textContent = full.text || "";
  } catch (err) { showError(err.message); }
}

async function onState(message) {
  state = message;
  // Several seats on one screen: a game that hides information shows each seat its own
  // view, so fetch the view (and legal moves) of the seat to move when it is not ours.
  const token = tokenToMove();
  if (token && token !== seatInfo()?.token && state.status === "active" && state.legal.length === 0) {
    try { state = await api("GET", `/api/games/${gameId}`, undefined, token); } catch (err) { showError(err.message); }
  }
  render();
}

// After the first state the server sends updates: the changed fields, new moves, the
// legal moves (to the seat to move), and the picture as a patch of the SVG we hold (tokens
// cut at every "<"; replacements [start, end, tokens] applied last to first). Anything
// that does not fit what we hold: ask for the whole state again.
function onUpdate(message) {
  if (!state || message.base !== state.version || message.id !== state.id) {
    socket.send(JSON.stringify({ type: "resync" }));
    return;
  }
  const next = { ...state };
  for (const [key, value] of Object.entries(message)) {
    if (!["type", "base", "moves_from", "moves", "svg_patch", "legal"].includes(key)) next[key] = value;
  }
  next.type = "state";
  if ("moves_from" in message) next.moves = state.moves.slice(0, message.moves_from).concat(message.moves);
  if (message.svg_patch) {
    const tokens = state.svg.split("<");
    for (const [start, end, inserted] of [...message.svg_patch].reverse()) {
      // One for one, a token may come as [keep, cut, middle]: an edit of the old token.
      const edited = inserted.map((t, i) => (typeof t === "string" ? t
        : tokens[start + i].slice(0, t[0]) + t[2] + tokens[start + i].slice(tokens[start + i].length - t[1])));
      tokens.splice(start, end - start, ...edited);
    }
    next.svg = tokens.join("<");
  }
  next.legal = message.legal.map((m) => (typeof m === "string" ? { text: m, path: [m] } : { text: m[0], path: m.slice(1) }));
  delete next.text; // fetched again when the text panel is open
  onState(next);
}

function connect() {
  const info = seatInfo();
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/games/${gameId}`);
  // The seat's token goes in the first message, never in the URL (URLs reach logs).
  if (info && info.token) socket.onopen = () => socket.send(JSON.stringify({ type: "auth", token: info.token }));
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") onState(message);
    else if (message.type === "update") onUpdate(message);
    else if (message.type === "error") showError(message.error);
  };
  socket.onclose = (event) => {
    if (event.code >= 4000) { showError(`connection refused (${event.code - 4000})`); return; }
    setTimeout(connect, 1000);
  };
}

// -- replay -----------------------------------------------------------------------------
let replayPly = 0;

async function showPly(ply) {
  ply = Math.max(0, Math.min(ply, state.moves.length));
  try {
    const pos = await api("GET", `/api/games/${gameId}/position?ply=${ply}`);
    replayPly = ply;
    drawBoard(pos.svg);
    $("text").textContent = pos.text || "";
    $("replay-slider").value = ply;
    $("replay-ply").textContent = `${ply} / ${state.moves.length}${pos.move ? ` — ${pos.move}` : ""}`;
    $("status").dataset.ply = ply;
    renderMoves(ply);
  } catch (err) { showError(err.message); }
}

async function startReplay() {
  state = await api("GET", `/api/games/${gameId}`);
  render();
  $("replay-controls").hidden = false;
  $("notation-form").hidden = true;
  $("actions").hidden = true;
  $("replay-slider").max = state.moves.length;
  $("replay-first").onclick = () => showPly(0);
  $("replay-prev").onclick = () => showPly(replayPly - 1);
  $("replay-next").onclick = () => showPly(replayPly + 1);
  $("replay-last").onclick = () => showPly(state.moves.length);
  $("replay-slider").oninput = (e) => showPly(Number(e.target.value));
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowLeft") showPly(replayPly - 1);
    if (e.key === "ArrowRight") showPly(replayPly + 1);
  });
  await showPly(0);
}

async function main() {
  $("board").addEventListener("click", onBoardClick);
  if (replayMode) { await startReplay(); return; }
  document.addEventListener("keydown", onKey);
  $("text-details").addEventListener("toggle", () => { if ($("text-details").open) loadText(); });
  $("notation-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("notation").value.trim();
    if (text) { sendMove(text); $("notation").value = ""; }
  });
  $("resign").onclick = () => { if (confirm("Resign this game?")) act("resign"); };
  $("draw").onclick = () => act("draw", "offer");
  $("undo").onclick = () => act("undo", "offer");
  await claimInvite();
  await loadAccountSeats(gameId);  // an account's seats, on any device
  connect();
  setInterval(tickClocks, 200);
}

main();
