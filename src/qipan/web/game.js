// The game page: live play over a WebSocket, or (at /replay/<id>) a replay viewer.
import { api, el, formatSeconds, myName, mySeats, rememberSeat } from "./api.js";
import { PathPicker } from "./clicks.js";
import { loadAccountSeats } from "./account.js";
import { gameName, t, translateError } from "./i18n.js";
import { BoardView } from "./board-view.js";
import { Previews } from "./previews.js";
import { Reconnect } from "./reconnect.js";
import { resultText, seatColour, seatLabel, seatName, youAre } from "./seats.js";
import { renderAfterplay } from "./afterplay.js";
import { renderNameForm } from "./seat-name.js";

const $ = (id) => document.getElementById(id);
const gameId = location.pathname.split("/")[2];
const replayMode = location.pathname.startsWith("/replay/");
const picker = new PathPicker();
const board = new BoardView($("board"));
let state = null;
let socket = null;
let clockBase = 0;      // performance.now() when the last clock snapshot arrived
let focusIndex = -1;    // keyboard focus among the clickable targets
let pending = null;     // a real-time move sent and waiting for its tick: { text, ply }

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

function canMove() { return !replayMode && state && state.status === "active" && tokenToMove() !== null; }

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
    showError(err);
  }
}

// Errors from the server or the rules, in the page's language (unreachable: the banner says it).
function showError(err) {
  if (err && err.unreachable) return;
  const message = typeof err === "string" ? err : err ? err.message : "";
  $("error").textContent = message ? translateError(message) : "";
}

// -- the board: targets, previews, explanations ----------------------------------------
const previews = new Previews({
  gameId,
  board,
  token: () => tokenToMove(),
  ply: () => (state ? state.ply : 0),
  play: (text) => { picker.reset(); sendMove(text); highlight(); },
  cancel: () => { picker.reset(); highlight(); },
});

function highlight() {
  const next = picker.nextTargets();
  board.markTargets(next, picker.chosen, pending ? [pending.target] : []);
  const focusable = board.clickable();
  if (focusIndex >= focusable.length) focusIndex = -1;
  if (focusIndex >= 0) focusable[focusIndex].classList.add("qp-focus");
  const present = board.presentTargets();
  const choices = next.filter((target) => !present.has(target));
  // Path elements with nothing to click in the SVG become buttons (tile faces, rotations...):
  // with pictures of the position each would make when every one of them ends a move.
  const completing = picker.candidates().filter((m) => m.path.length === picker.chosen.length + 1);
  const pictured = choices.length > 0 && choices.length === completing.length && picker.chosen.length > 0;
  const buttons = choices.map((target, i) => el("button", {
    type: "button", class: "choice", "data-choice": target, title: i < 9 ? t("game.key_hint", { n: i + 1 }) : "",
    onclick: () => (pictured ? previews.choose(i) : choose(target)),
    onmouseenter: pictured ? () => previews.hover(i) : undefined,
    onfocus: pictured ? () => previews.hover(i) : undefined,
  }, el("span", { class: "thumb" }), el("span", { class: "label" }, target)));
  if (picker.chosen.length) {
    buttons.push(el("button", { type: "button", class: "cancel", onclick: () => { picker.reset(); previews.stop(); highlight(); } },
      t("game.cancel", { chosen: picker.chosen.join(" ") })));
  }
  $("choices").replaceChildren(...buttons);
  if (pictured) previews.start(completing.map((m) => m.text), $("choices"));
  else previews.stop();
}

function choose(target) {
  const text = picker.click(target);
  if (text) sendMove(text, target);
  highlight();
}

function onBoardClick(event) {
  if (previews.active()) { previews.boardClick(event); return; }
  const next = picker.nextTargets();
  const hit = board.targetAt(event, next);
  if (hit !== null) { choose(hit); return; }
  // A click on a point that is no legal choice: say why (the rules' own reason).
  const named = board.namedAt(event);
  if (named !== null && canMove()) explain(named);
}

async function explain(target) {
  if (picker.chosen.length) {
    showError(t("game.not_next", { target }));
    return;
  }
  try {
    await api("GET", `/api/games/${gameId}/preview?move=${encodeURIComponent(target)}`, undefined, tokenToMove());
    showError(t("game.not_here", { target }));
  } catch (err) {
    showError(err);
  }
}

// Arrow keys move a focus between the clickable targets (nearest in that direction);
// Enter or Space clicks it; digits pick the buttons; R (or the wheel) turns a preview;
// Escape cancels.
function onKey(event) {
  if (event.target.closest("input, select, textarea")) return;
  if (previews.active() && previews.key(event)) return;
  const focusable = board.clickable();
  const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  if (dirs[event.key] && focusable.length) {
    event.preventDefault();
    if (focusIndex < 0) { focusIndex = 0; highlight(); return; }
    focusIndex = board.nearest(focusable, focusIndex, dirs[event.key]);
    highlight();
  } else if ((event.key === "Enter" || event.key === " ") && focusIndex >= 0 && focusable[focusIndex]) {
    event.preventDefault();
    choose(focusable[focusIndex].getAttribute("data-target"));
  } else if (/^[1-9]$/.test(event.key)) {
    const button = $("choices").querySelectorAll("button.choice")[Number(event.key) - 1];
    if (button) button.click();
  } else if (event.key === "Escape") {
    picker.reset();
    previews.stop();
    highlight();
  }
}

// -- the rest of the page ----------------------------------------------------------------
function render() {
  const title = gameName(state.game, state.title);
  document.title = `qipan — ${title}`;
  const mine = myTokens();
  const seatsHeld = Object.keys(mine).map(Number);
  $("title").textContent = title;
  $("you-are").textContent = seatsHeld.length ? youAre(state, seatsHeld) : t("game.watching");
  if (pending && state.ply !== pending.ply) pending = null;
  board.draw(state.svg, { result: state.result, myFill: seatsHeld.length === 1 ? seatColour(state, seatsHeld[0])?.fill : null });
  picker.setLegal(canMove() ? state.legal : []);
  highlight();
  board.fitTargets();
  renderStatus();
  renderAnnouncement();
  renderSeats(mine);
  clockBase = performance.now();
  tickClocks();
  const result = state.result ? resultText(state) : "";
  $("result").textContent = result;
  if (state.result) $("result").dataset.winners = state.result.winners.join(",");
  else delete $("result").dataset.winners;
  renderOffers(mine);
  if (!replayMode) {
    renderAfterplay(gameId, state, mine);
    renderNameForm(gameId, state, mine);
  }
  $("notation-form").hidden = !canMove();
  renderMoves();
  if (state.text !== undefined) $("text").textContent = state.text;
  else if ($("text-details").open) loadText();
  const invites = seatInfo()?.invites || [];
  const free = invites.filter((inv) => state.seats[inv.seat] && !state.seats[inv.seat].joined);
  $("invites").replaceChildren(...(free.length ? [el("h3", {}, t("game.invite_links")), ...free.map((inv) => {
    const url = `${location.origin}${inv.invite}`;
    return el("p", {}, t("game.seat_n", { n: inv.seat + 1 }), " ", el("input", { readonly: true, value: url, class: "invite", onclick: (e) => e.target.select() }));
  })] : []));
  $("record-link").href = `/api/games/${gameId}/record`;
  $("replay-link").href = `/replay/${gameId}`;
  $("play-link").href = `/g/${gameId}`;
}

function renderStatus() {
  let status;
  if (state.status === "open") status = t("game.waiting");
  else if (state.status === "over") status = state.result ? t("game.over_result", { result: resultText(state) }) : t("game.over");
  else if (state.to_move === null || state.to_move < 0) status = "…";
  else if (canMove()) status = t("game.your_move", { seat: seatName(state, state.to_move) });
  else status = t(state.bot_thinking ? "game.to_move_thinking" : "game.to_move", { seat: seatName(state, state.to_move) });
  if (state.realtime && state.status === "active") status += ` · ${t("game.realtime", { seconds: state.realtime })}`;
  if (pending) status += ` · ${t("game.queued", { move: pending.text })}`;
  $("status").textContent = status;
  $("status").dataset.ply = state.ply;
  $("status").dataset.status = state.status;
}

// The rules' own etiquette (Pente's tria and tessera), which the picture declares.
function renderAnnouncement() {
  const node = board.announcement();
  const box = $("announce");
  if (!node || state.status !== "active") { box.textContent = ""; box.hidden = true; return; }
  const word = node.getAttribute("data-announce");
  const who = Number(node.getAttribute("data-player"));
  box.hidden = false;
  box.dataset.word = word;
  box.textContent = t("game.announces", { seat: seatName(state, who), word: t(`game.announce.${word}`) });
}

function renderSeats(mine) {
  $("seats").replaceChildren(...state.seats.map((s, i) => {
    const colour = seatColour(state, i);
    const winner = state.result && state.result.winners.includes(i);
    return el("li", {
      class: `seat${state.to_move === i ? " to-move" : ""}${mine[i] ? " mine" : ""}${winner ? " winner" : ""}`, "data-seat": i },
      el("span", { class: "dot", "aria-hidden": "true" }, state.to_move === i ? "●" : "○"),
      colour ? el("span", { class: "swatch", style: `background:${colour.fill}`, title: colour.name }) : null,
      el("span", { class: "name" }, `${seatLabel(s, i)}${s.kind === "bot" && s.agent !== "level" ? ` (${s.agent})` : ""}`,
        colour ? el("span", { class: "colour" }, ` · ${colour.label}`) : null,
        mine[i] ? el("strong", { class: "you" }, ` — ${t("game.you")}`) : null),
      el("span", { class: "presence" }, s.joined ? (s.online ? "" : ` ${t("game.offline")}`) : ` ${t("game.free_seat")}`),
      state.result ? el("span", { class: "score" }, ` ${state.result.scores[i]}`) : null,
      state.clock ? el("span", { class: "clock", "data-clock": i }, "") : null);
  }));
}

function renderOffers(mine) {
  const active = state.status === "active" && Object.keys(mine).length > 0 && !replayMode;
  const offers = [];
  // Offers belong to a game under way: an agreed draw or a finished game shows none.
  if (state.status === "active") {
    if (state.offers.draw.length) offers.push(t("game.draw_offered", { seats: state.offers.draw.map((s) => seatName(state, s)).join(", ") }));
    if (state.offers.undo.length) offers.push(t("game.undo_asked", { seats: state.offers.undo.map((s) => seatName(state, s)).join(", ") }));
  }
  $("offers").textContent = offers.join(" · ");
  $("actions").hidden = !active;
  $("draw").textContent = canAccept(state.offers.draw, mine) ? t("game.accept_draw") : t("game.offer_draw");
  $("undo").textContent = canAccept(state.offers.undo, mine) ? t("game.accept_undo") : t("game.ask_undo");
}

function renderMoves(current = null) {
  $("moves").replaceChildren(...state.moves.map((m, i) => el("li", {
    class: `${m.player < 0 ? "chance" : ""}${current === i + 1 ? " current" : ""}`,
    title: m.player < 0 ? t("game.chance") : seatName(state, m.player),
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
    left = Math.max(0, left);
    node.textContent = formatSeconds(left);
    node.classList.toggle("low", left < 10);
  }
}

// -- acting -----------------------------------------------------------------------------
async function sendMove(text, target = null) {
  showError("");
  const token = tokenToMove();
  if (!token) return;
  // Real time: the move waits on the server for this seat's next tick; show it meanwhile.
  if (state.realtime) { pending = { text, target: target ?? text, ply: state.ply }; renderStatus(); highlight(); }
  const info = seatInfo();
  if (socket && socket.readyState === WebSocket.OPEN && token === info.token) {
    socket.send(JSON.stringify({ type: "move", move: text, ...(state.realtime ? {} : { ply: state.ply }) }));
  } else {
    try {
      await api("POST", `/api/games/${gameId}/move`, { move: text, ...(state.realtime ? {} : { ply: state.ply }) }, token);
    } catch (err) { pending = null; showError(err); }
  }
}

// The seat an action comes from. Playing several seats on one screen (hot seat): an offer
// standing from one of them is accepted by another of them, and an undo is asked by the
// seat whose move it takes back.
function actingToken(kind) {
  const tokens = myTokens();
  const mine = Object.keys(tokens).map(Number);
  if (kind === "undo" || kind === "draw") {
    const offered = state.offers[kind] || [];
    const other = mine.find((s) => !offered.includes(s));
    if (offered.length && other !== undefined) return tokens[other];
    if (kind === "undo") {
      const last = [...state.moves].reverse().find((m) => mine.includes(m.player));
      if (last) return tokens[last.player];
    }
  }
  return tokens[state.to_move] || Object.values(tokens)[0];
}

/** An offer stands that a seat of mine has not made yet: the button accepts it. */
function canAccept(offered, mine) { return offered.length > 0 && Object.keys(mine).some((s) => !offered.includes(Number(s))); }

async function act(kind, body = {}) {
  showError("");
  const token = actingToken(kind);
  try {
    await api("POST", `/api/games/${gameId}/${kind}`, body, token);
  } catch (err) { showError(err); }
}

async function loadText() {
  const token = tokenToMove() || seatInfo()?.token;
  try {
    const full = await api("GET", `/api/games/${gameId}`, undefined, token);
    $("text").textContent = full.text || "";
  } catch (err) { showError(err); }
}

async function onState(message) {
  state = message;
  // Several seats on one screen: a game that hides information shows each seat its own
  // view, so fetch the view (and legal moves) of the seat to move when it is not ours.
  const token = tokenToMove();
  if (token && token !== seatInfo()?.token && state.status === "active" && state.legal.length === 0) {
    try { state = await api("GET", `/api/games/${gameId}`, undefined, token); } catch (err) { showError(err); }
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
      const edited = inserted.map((tk, i) => (typeof tk === "string" ? tk
        : tokens[start + i].slice(0, tk[0]) + tk[2] + tokens[start + i].slice(tokens[start + i].length - tk[1])));
      tokens.splice(start, end - start, ...edited);
    }
    next.svg = tokens.join("<");
  }
  next.legal = message.legal.map((m) => (typeof m === "string" ? { text: m, path: [m] } : { text: m[0], path: m.slice(1) }));
  delete next.text; // fetched again when the text panel is open
  onState(next);
}

const reconnect = new Reconnect($("connection"), () => connect());

function connect() {
  const info = seatInfo();
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/games/${gameId}`);
  socket.onopen = () => {
    reconnect.connected();
    // The seat's token goes in the first message, never in the URL (URLs reach logs).
    if (info && info.token) socket.send(JSON.stringify({ type: "auth", token: info.token }));
  };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") onState(message);
    else if (message.type === "update") onUpdate(message);
    else if (message.type === "error") { pending = null; showError(message.error); if (state) renderStatus(); }
  };
  socket.onclose = (event) => {
    if (event.code >= 4000) { showError(t("game.refused", { code: event.code - 4000 })); return; }
    reconnect.lost();
  };
}

// -- replay -----------------------------------------------------------------------------
let replayPly = 0;

async function showPly(ply) {
  ply = Math.max(0, Math.min(ply, state.moves.length));
  try {
    const pos = await api("GET", `/api/games/${gameId}/position?ply=${ply}`);
    replayPly = ply;
    board.draw(pos.svg, { result: ply === state.moves.length ? state.result : null });
    $("text").textContent = pos.text || "";
    $("replay-slider").value = ply;
    $("replay-ply").textContent = `${ply} / ${state.moves.length}${pos.move ? ` — ${pos.move}` : ""}`;
    $("status").dataset.ply = ply;
    renderMoves(ply);
  } catch (err) { showError(err); }
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
  $("board").addEventListener("wheel", (e) => previews.wheel(e), { passive: false });
  if (replayMode) { await startReplay(); return; }
  document.addEventListener("keydown", onKey);
  $("text-details").addEventListener("toggle", () => { if ($("text-details").open) loadText(); });
  $("notation-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("notation").value.trim();
    if (text) { sendMove(text); $("notation").value = ""; }
  });
  $("resign").onclick = () => { if (confirm(t("game.resign_confirm"))) act("resign"); };
  $("draw").onclick = () => act("draw", { action: "offer" });
  $("undo").onclick = () => act("undo", { action: "offer" });
  window.addEventListener("resize", () => board.fitTargets());
  await claimInvite();
  await loadAccountSeats(gameId);  // an account's seats, on any device
  connect();
  setInterval(tickClocks, 200);
}

main();
