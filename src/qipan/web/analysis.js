// The analysis page: open a record (any format the server reads) or start a game, step
// through it, branch off with your own moves, ask the engine, share the position's link.
//
// The page keeps the position as data: the game, its options and player count, the moves
// from the start, and the ply shown. The server replays them for every view
// (/api/analysis/position), so the address bar (?game=&players=&options=&moves=&ply=) is
// the whole position and a shared link opens exactly it.
import { api, el } from "./api.js";
import { PathPicker } from "./clicks.js";
import { BoardView } from "./board-view.js";
import { showExplorer } from "./explorer.js";
import { gameName, t, translateError } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const picker = new PathPicker();
const board = new BoardView($("board"));
// Uploads above this are refused by the server (its request body limit): say so first.
const MAX_UPLOAD = 60 * 1024;
const THINK_SECONDS = [0.5, 1, 2, 5];
const PERFECT_KEYS = { win: "analysis.perfect_win", draw: "analysis.perfect_draw", loss: "analysis.perfect_loss" };

let specs = [];
let view = { game: null, options: {}, players: null, seed: null, moves: [], ply: 0 };
let record = null;      // the moves of the opened record: the line a branch leaves
let recordResult = null; // its result as recorded (a resignation is not on the board)
let uploaded = [];      // the games of the uploaded file
let shown = null;       // the server's answer for the position shown
let request = 0;        // answers to older requests are dropped

function showError(message) { $("error").textContent = message ? translateError(message) : ""; }

// -- the position ---------------------------------------------------------------------------
// The "start a game" form follows the game shown, so Start begins that game afresh.
function syncForm() {
  if (!specs.some((s) => s.id === view.game) || $("game-select").value === view.game) return;
  $("game-select").value = view.game;
  fillPlayers();
  if (view.players) $("players-select").value = view.players;
}

async function show(ply) {
  if (!view.game) return;
  syncForm();
  view.ply = Math.max(0, Math.min(ply, view.moves.length));
  const mine = ++request;
  try {
    const pos = await api("POST", "/api/analysis/position", {
      game: view.game, options: view.options, players: view.players, seed: view.seed, position: view.position,
      moves: view.moves.slice(0, view.ply), result: atRecordEnd() ? recordResult : null,
    });
    if (mine !== request) return;
    shown = pos;
    showError("");
    draw(pos);
  } catch (err) {
    if (mine === request) showError(err.message);
  }
}

function draw(pos) {
  board.draw(pos.svg, { result: pos.result });  // the game page's picture: result cells marked
  picker.setLegal(pos.legal);
  picker.reset();
  highlight();
  $("text").textContent = pos.text || "";
  $("slider").max = view.moves.length;
  $("slider").value = view.ply;
  $("ply").textContent = t("analysis.ply_of", { ply: view.ply, plies: view.moves.length });
  $("status").textContent = pos.result
    ? t("analysis.over", { result: translateError(pos.result.text), reason: translateError(pos.result.reason) })
    : pos.to_move === "chance" ? t("analysis.chance_to_move") : t("analysis.to_move", { player: pos.to_move + 1 });
  $("status").dataset.ply = view.ply;
  $("result").textContent = pos.result ? translateError(pos.result.text) : "";
  $("result").dataset.winners = pos.result ? pos.result.winners.join(",") : "";
  $("engine-output").replaceChildren();
  $("analyse").disabled = Boolean(pos.result) || pos.to_move === "chance";
  renderMoves();
  updateLink();
  showExplorer($("explorer"), { game: view.game, options: view.options, players: view.players, seed: view.seed, position: view.position,
    moves: view.moves.slice(0, view.ply) }, play);
}

// The ply shown is the record's last, on the record's own line.
function atRecordEnd() {
  return record !== null && view.ply === record.length && record.every((m, i) => view.moves[i] === m);
}

function renderMoves() {
  // Moves from the first one that differs from the record on are the branch.
  let split = view.moves.length;
  if (record !== null) {
    split = view.moves.findIndex((m, i) => m !== record[i]);
    if (split < 0) split = view.moves.length;
  }
  const items = view.moves.map((text, i) => {
    const branch = record !== null && i >= split;
    const classes = [branch ? "branch" : "", i + 1 === view.ply ? "current" : ""].filter(Boolean).join(" ");
    return el("li", { class: classes, "data-ply": i + 1 }, el("button", { type: "button", onclick: () => show(i + 1) }, text));
  });
  $("moves").replaceChildren(...items);
  const left = record !== null && (view.moves.length !== record.length || view.moves.some((m, i) => m !== record[i]));
  $("back-to-record").hidden = !left;
}

// -- moves from the board or the notation box: a branch from the ply shown -----------------------
function play(text) {
  const legal = shown ? shown.legal.find((m) => m.text === text) : null;
  if (!legal) {
    showError(t("analysis.illegal", { move: text }));
    return;
  }
  const ply = view.ply;
  // The same move as the line's next one just steps forward; another one starts a branch.
  if (view.moves[ply] !== text) view.moves = [...view.moves.slice(0, ply), text];
  show(ply + 1);
}

function highlight() {
  const next = new Set(picker.nextTargets());
  const present = board.presentTargets();
  // The game page's marks: on boards with many targets (Pente) shown on hover only.
  board.markTargets([...next], picker.chosen);
  // Path steps with nothing to click on the board (tile faces, rotations) become buttons.
  const buttons = [...next].filter((target) => !present.has(target)).map((target) =>
    el("button", { type: "button", class: "choice", "data-choice": target, onclick: () => choose(target) }, target));
  if (picker.chosen.length) {
    buttons.push(el("button", { type: "button", class: "cancel", onclick: () => { picker.reset(); highlight(); } },
      t("analysis.cancel", { steps: picker.chosen.join(" ") })));
  }
  $("choices").replaceChildren(...buttons);
}

function choose(target) {
  const text = picker.click(target);
  if (text) play(text);
  else highlight();
}

function onBoardClick(event) {
  const next = picker.nextTargets();
  const stack = [event.target, ...document.elementsFromPoint(event.clientX, event.clientY)];
  for (const hit of stack) {
    const node = hit.closest && hit.closest("[data-target]");
    if (node && $("board").contains(node) && next.includes(node.getAttribute("data-target"))) {
      choose(node.getAttribute("data-target"));
      return;
    }
  }
}

// -- the engine ---------------------------------------------------------------------------------
async function analyse() {
  const out = $("engine-output");
  out.replaceChildren(el("p", {}, t("analysis.thinking")));
  $("analyse").disabled = true;
  const mine = request;
  try {
    const answer = await api("POST", "/api/analysis/evaluate", {
      game: view.game, options: view.options, players: view.players, seed: view.seed, position: view.position,
      moves: view.moves.slice(0, view.ply), seconds: Number($("seconds").value), line: 4,
    });
    if (mine !== request) return;
    out.replaceChildren(engineReport(answer));
  } catch (err) {
    if (mine === request) out.replaceChildren(el("p", { class: "error" }, translateError(err.message)));
  } finally {
    if (mine === request) $("analyse").disabled = false;
  }
}

function engineReport(answer) {
  const rows = [[t("analysis.agent"), answer.agent]];
  rows.push([t("analysis.best"), answer.best ?? "—"]);
  const line = el("span", { id: "engine-line" });
  answer.line.forEach((step, i) => {
    // Clicking a move of the line plays the line up to it (a branch from here).
    line.append(el("button", { type: "button", class: "choice", onclick: () => playLine(answer.line.slice(0, i + 1)) }, step.text), " ");
  });
  rows.push([t("analysis.line"), line]);
  if (answer.evaluation !== null) {
    rows.push([t("analysis.evaluation"), t("analysis.evaluation_value", {
      value: formatValue(answer.evaluation), after: formatValue(answer.evaluation_after_line), player: answer.to_move + 1,
    })]);
  } else {
    rows.push([t("analysis.evaluation"), t("analysis.no_evaluation")]);
  }
  if (answer.perfect) {
    const p = answer.perfect;
    rows.push([t("analysis.perfect"), p.building ? t("analysis.perfect_building", { seconds: p.about_seconds })
      : p.error ? translateError(p.error)
      : t(PERFECT_KEYS[p.value], { plies: p.plies ?? "?", best: p.best.join(", ") || "—", player: answer.to_move + 1 })]);
  }
  if (answer.forced) rows.push([t("analysis.forced"), forcedReport(answer.forced)]);
  rows.push([t("analysis.cpu"), t("analysis.seconds_value", { n: answer.cpu_seconds })]);
  return el("dl", { id: "engine-report" }, ...rows.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v)]));
}

// Forced wins by threats (the game's forced_line): the side to move's, then the opponent's.
function forcedReport(forced) {
  if (forced.error) return translateError(forced.error);
  if (!forced.wins.length) return t("analysis.forced_none");
  return el("span", { id: "forced-wins" }, ...forced.wins.map((w) => el("div", { class: "forced-win" },
    t(w.to_move ? "analysis.forced_win" : "analysis.forced_threat", { player: w.player + 1, plies: w.plies, line: w.line.join(" ") }))));
}

function formatValue(v) { return v === null || v === undefined ? "—" : (v > 0 ? "+" : "") + Number(v).toFixed(2); }

function playLine(steps) {
  const ply = view.ply;
  const texts = steps.map((s) => s.text);
  const same = texts.every((text, i) => view.moves[ply + i] === text);
  if (!same) view.moves = [...view.moves.slice(0, ply), ...texts];
  show(ply + texts.length);
}

// -- opening records and games ------------------------------------------------------------------
async function openFile(file) {
  showError("");
  if (file.size > MAX_UPLOAD) {
    showError(t("analysis.too_large", { size: Math.ceil(file.size / 1024), limit: MAX_UPLOAD / 1024 }));
    return;
  }
  try {
    const answer = await api("POST", "/api/analysis/records", { text: await file.text() });
    uploaded = answer.games;
  } catch (err) {
    showError(err.message);
    return;
  }
  const select = $("record-games");
  select.replaceChildren(...uploaded.map((g, i) => el("option", { value: i },
    t("analysis.record_entry", {
      n: i + 1, game: gameName(g.game, g.title || g.game), plies: g.moves.length,
      result: g.error ? t("analysis.record_bad", { why: translateError(g.error) }) : translateError(g.result_text || ""),
    }))));
  select.hidden = uploaded.length < 2;
  const first = uploaded.findIndex((g) => !g.error);
  select.value = first;
  openRecord(uploaded[first], true);
}

function openRecord(game, toEnd) {
  if (game.error) { showError(game.error); return; }
  view = { game: game.game, options: game.options || {}, players: game.players, seed: game.seed ?? null, moves: [...game.moves], ply: 0 };
  record = [...game.moves];
  recordResult = game.result || null;
  showSolutions(game.solutions || []);
  show(toEnd ? view.moves.length : 0);
}

// A puzzle's solutions, as the file gives them: each legal one plays from the puzzle's position.
function showSolutions(solutions) {
  const items = solutions.map((s) => s.legal
    ? el("button", { type: "button", class: "choice", onclick: () => { view.moves = [...record, s.text]; show(record.length + 1); } }, s.text)
    : el("span", { class: "error" }, t("analysis.solution_illegal", { move: s.text, why: translateError(s.error) })));
  $("record-solutions").replaceChildren(...(items.length ? [t("analysis.solutions"), " ", ...items] : []));
  $("record-solutions").hidden = !items.length;
}

function startGame() {
  const spec = specs.find((s) => s.id === $("game-select").value);
  if (!spec) return;
  view = { game: spec.id, options: {}, players: Number($("players-select").value), seed: null, moves: [], ply: 0 };
  record = null;
  recordResult = null;
  showSolutions([]);
  show(0);
}

function fillGames() {
  $("game-select").replaceChildren(...specs.map((s) => el("option", { value: s.id }, gameName(s.id, s.title))));
  $("game-select").onchange = fillPlayers;
  fillPlayers();
}

function fillPlayers() {
  const spec = specs.find((s) => s.id === $("game-select").value);
  $("players-select").replaceChildren(...(spec ? spec.players : []).map((n) => el("option", { value: n }, String(n))));
}

// -- the link: the position in the address bar --------------------------------------------------
function linkFor() {
  const params = new URLSearchParams({ game: view.game });
  if (view.players) params.set("players", view.players);
  if (Object.keys(view.options).length) params.set("options", JSON.stringify(view.options));
  if (view.seed !== null && view.seed !== undefined) params.set("seed", view.seed);
  if (view.position) params.set("position", view.position);  // set up in the position editor
  if (view.moves.length) params.set("moves", JSON.stringify(view.moves));
  params.set("ply", view.ply);
  return `${location.origin}/analysis?${params}`;
}

function updateLink() {
  const link = linkFor();
  $("share-link").value = link;
  history.replaceState(null, "", link.slice(location.origin.length));
}

function fromLink() {
  const params = new URLSearchParams(location.search);
  if (!params.get("game")) return false;
  try {
    view = {
      game: params.get("game"),
      options: params.get("options") ? JSON.parse(params.get("options")) : {},
      players: params.get("players") ? Number(params.get("players")) : null,
      seed: params.get("seed") ? Number(params.get("seed")) : null,
      moves: params.get("moves") ? JSON.parse(params.get("moves")) : [],
      position: params.get("position"),
      ply: 0,
    };
  } catch {
    showError(t("analysis.bad_link"));
    return false;
  }
  if (!Array.isArray(view.moves)) { showError(t("analysis.bad_link")); return false; }
  record = [...view.moves];
  const ply = params.has("ply") ? Number(params.get("ply")) : view.moves.length;
  show(Number.isFinite(ply) ? ply : view.moves.length);
  return true;
}

// -- start ---------------------------------------------------------------------------------------
async function main() {
  $("seconds").replaceChildren(...THINK_SECONDS.map((n) =>
    el("option", { value: n, selected: n === 1 }, t("analysis.seconds_value", { n }))));
  $("board").addEventListener("click", onBoardClick);
  $("record-file").addEventListener("change", (e) => { if (e.target.files[0]) openFile(e.target.files[0]); });
  $("record-games").addEventListener("change", (e) => openRecord(uploaded[Number(e.target.value)], true));
  $("start").onclick = startGame;
  $("first").onclick = () => show(0);
  $("prev").onclick = () => show(view.ply - 1);
  $("next").onclick = () => show(view.ply + 1);
  $("last").onclick = () => show(view.moves.length);
  $("slider").oninput = (e) => show(Number(e.target.value));
  $("analyse").onclick = analyse;
  $("back-to-record").onclick = () => { view.moves = [...record]; show(Math.min(view.ply, record.length)); };
  $("copy-link").onclick = async () => {
    try { await navigator.clipboard.writeText($("share-link").value); $("copy-link").textContent = t("analysis.copied"); }
    catch { $("share-link").select(); }
  };
  $("notation-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("notation").value.trim();
    if (!text || !shown) return;
    // Typed notation is matched leniently (case, spaces), as the rules' own parser does.
    const wanted = text.replace(/\s+/g, " ").toLowerCase();
    const move = shown.legal.find((m) => m.text === text) || shown.legal.find((m) => m.text.toLowerCase() === wanted);
    play(move ? move.text : text);
    $("notation").value = "";
  });
  document.addEventListener("keydown", (e) => {
    if (["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;  // typing, not stepping
    if (e.key === "ArrowLeft") show(view.ply - 1);
    if (e.key === "ArrowRight") show(view.ply + 1);
  });
  try {
    specs = (await api("GET", "/api/specs")).games;
  } catch (err) {
    showError(err.message);
  }
  fillGames();
  if (!fromLink()) startGame();
}

main();
