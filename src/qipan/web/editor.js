// The position editor: set up any position of any game, by clicking pieces onto the board
// (games that declare a position editor) or by its position text (every game), with the side
// to move and the pieces in hand; the game's own position reader says why a position is
// impossible. Then analyse it, play a level from it or invite a friend to it (a game on the
// site that starts from the position); the address holds the position.
import { api, el, myName } from "./api.js";
import { createAndGo } from "./create-game.js";
import { gameName, t, translateError, translatePicture } from "./i18n.js";

const $ = (id) => document.getElementById(id);
let specs = [];
let registry = {};
let game = null;
let position = null;   // the position text shown (as the reader wrote it back)
let shown = null;      // the server's answer for it
let piece;            // the piece clicks place; null removes (undefined: the first piece)

async function send(body) {
  try {
    const answer = await api("POST", "/api/editor/position", { game, position, ...body });
    $("error").textContent = "";
    shown = answer;
    position = answer.position;
    draw();
  } catch (err) {
    $("error").textContent = translateError(err.message);
  }
}

function draw() {
  $("board").innerHTML = shown.svg || "";
  translatePicture($("board"));
  const svg = $("board").querySelector("svg");
  if (svg) { svg.removeAttribute("width"); svg.removeAttribute("height"); }
  $("position-text").value = position;
  $("status").textContent = shown.result
    ? t("analysis.over", { result: translateError(shown.result.text), reason: translateError(shown.result.reason) })
    : t("analysis.to_move", { player: shown.to_move + 1 });
  const editor = shown.editor;
  $("pieces").hidden = !editor;
  $("mover-label").hidden = !editor;
  $("hands").hidden = !(editor && editor.hands_field);
  if (editor) drawTools(editor);
  const params = new URLSearchParams({ game, position });
  $("analyse-link").href = `/analysis?${new URLSearchParams({ game, players: shown.players, position })}`;
  drawPlay();
  const link = `${location.origin}/editor?${params}`;
  $("share-link").value = link;
  history.replaceState(null, "", link.slice(location.origin.length));
}

function drawTools(editor) {
  const used = editor.pieces.slice(0, Math.max(shown.players, 2));
  if (piece === undefined || (piece !== null && !used.includes(piece))) piece = used[0];
  const choice = (value, label) => el("label", {},
    el("input", { type: "radio", name: "piece", value: value ?? "", checked: piece === value, onchange: () => { piece = value; } }), " ", label);
  $("piece-choices").replaceChildren(...used.map((p, i) => choice(p, t("study.piece_of", { player: i + 1 }))), choice(null, t("study.remove")));
  $("mover").replaceChildren(...editor.movers.slice(0, shown.players).map((m, i) =>
    el("option", { value: m, selected: shown.to_move === i }, t("study.player_n", { player: i + 1 }))));
  if (editor.hands_field) {
    const hands = (position.split(/\s+/).find((w) => w.startsWith(editor.hands_field)) || "").slice(editor.hands_field.length).split(",");
    $("hand-inputs").replaceChildren(...[0, 1].map((i) => el("input", {
      type: "number", min: 0, max: 99, value: hands[i] || 0, "aria-label": t("study.hand_of", { player: i + 1 }),
      onchange: () => send({ action: "hands", hands: [...$("hand-inputs").querySelectorAll("input")].map((x) => Number(x.value)) }),
    })));
  }
}

/** The levels offered for the game (the server's list), and the seats to play from. */
function drawPlay() {
  const spec = specs.find((s) => s.id === game);
  const levels = (spec && spec.levels) || registry.levels || [];
  const open = !shown.result && shown.players === 2;
  $("play-from-here").hidden = !open;
  if (!open) return;
  const chosen = $("level-select").value;
  $("level-select").replaceChildren(...levels.map((lv) => el("option", { value: lv.level, selected: String(lv.level) === chosen || (!chosen && lv.level === 3) },
    `${t("lobby.level", { n: lv.level })}`)));
  $("level-label").hidden = $("play-level").hidden = !levels.length;
  $("play-seat").replaceChildren(...[0, 1].map((i) =>
    el("option", { value: i, selected: i === shown.to_move }, t("study.player_n", { player: i + 1 }))));
}

/** A game on the site from this position: against the chosen level, or with a free seat
 * whose invite link the game page shows. */
async function playFromHere(withLevel) {
  const spec = specs.find((s) => s.id === game);
  const levels = (spec && spec.levels) || registry.levels || [];
  const mine = Number($("play-seat").value) || 0;
  const lv = levels.find((l) => String(l.level) === $("level-select").value) || levels[0];
  const other = withLevel ? { kind: "bot", agent: lv.agent, limits: { ...(lv.limits || {}) } } : { kind: "human" };
  const seats = [0, 1].map((i) => (i === mine ? { kind: "human", name: myName() || null, join: true } : other));
  $("play-error").textContent = "";
  try {
    await createAndGo({ game, players: 2, position, seats, public: false });
  } catch (err) { $("play-error").textContent = translateError(err.message); }
}

function onBoardClick(event) {
  if (!shown || !shown.editor) return;
  const node = event.target.closest && event.target.closest("[data-target]");
  if (!node || !$("board").contains(node)) return;
  send({ action: "place", target: node.getAttribute("data-target"), piece });
}

function start(name) {
  game = name;
  position = null;
  piece = undefined;
  $("game-select").value = game;
  send({});
}

async function main() {
  try {
    registry = await api("GET", "/api/specs");
    specs = registry.games;
  } catch (err) {
    $("error").textContent = translateError(err.message);
    return;
  }
  $("game-select").replaceChildren(...specs.map((s) => el("option", { value: s.id }, gameName(s.id, s.title))));
  $("game-select").onchange = () => start($("game-select").value);
  $("reset").onclick = () => start(game);
  $("board").addEventListener("click", onBoardClick);
  $("mover").onchange = () => send({ action: "mover", mover: $("mover").value });
  $("play-level").onclick = () => playFromHere(true);
  $("invite-friend").onclick = () => playFromHere(false);
  $("apply-text").onclick = () => { position = $("position-text").value.trim(); send({}); };
  const params = new URLSearchParams(location.search);
  game = params.get("game") || specs[0].id;
  $("game-select").value = game;
  position = params.get("position");
  send({});
}

main();
