// The puzzle page: a position from a real game where the side to move wins by force. The
// solver plays its moves on the board; the server judges each one and answers with the
// defence that resists longest, until the win (or shows the solution after a miss). A
// logged-in solver's first try of a puzzle moves its puzzle rating and the puzzle's.
import { api, el } from "./api.js";
import { whoami } from "./account.js";
import { gameName, t, translateError } from "./i18n.js";
import { MoveBoard } from "./move-board.js";

const $ = (id) => document.getElementById(id);
let puzzle = null;
let line = [];       // the moves played in the puzzle: the solver's and the defences
let done = false;
let themes = [];
const board = new MoveBoard($("board"), $("choices"), (text) => move(text));

// ok: true (a right move), false (a miss), null (nothing said yet).
function setVerdict(key, ok = null, params = {}) {
  $("verdict").textContent = key ? t(key, params) : "";
  $("verdict").className = ok === null ? "" : ok ? "right" : "wrong";
}

async function show() {
  const pos = await api("POST", "/api/analysis/position", {
    game: puzzle.game, options: puzzle.options, players: puzzle.players, seed: puzzle.seed,
    moves: [...puzzle.moves, ...line],
  });
  board.show(pos.svg, done || pos.to_move !== puzzle.solver ? [] : pos.legal);
  $("line").replaceChildren(...line.map((m, i) => el("li", { class: i % 2 ? "" : "mine" }, m)));
  const params = new URLSearchParams({ game: puzzle.game, players: puzzle.players, moves: JSON.stringify([...puzzle.moves, ...line]) });
  if (Object.keys(puzzle.options || {}).length) params.set("options", JSON.stringify(puzzle.options));
  if (puzzle.seed !== null && puzzle.seed !== undefined) params.set("seed", puzzle.seed);
  $("analyse-link").href = `/analysis?${params}`;
}

async function open(found) {
  puzzle = found;
  line = [];
  done = false;
  setVerdict("");
  $("error").textContent = "";
  history.replaceState(null, "", `/puzzles/${encodeURIComponent(puzzle.id)}`);
  $("task").textContent = t("study.task", { player: puzzle.solver + 1, moves: puzzle.plies });
  $("about").replaceChildren(...[
    [t("analysis.game"), gameName(puzzle.game, puzzle.game)],
    [t("study.theme"), t(`study.theme_${puzzle.theme}`)],
    [t("study.rating"), String(puzzle.rating)],
    [t("study.attempts"), String(puzzle.attempts)],
    [t("study.from_game"), puzzle.source || "—"],
  ].flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v)]));
  await show();
}

async function move(text) {
  line.push(text);
  const me = await whoami();
  let verdict;
  try {
    verdict = await api("POST", `/api/puzzles/${encodeURIComponent(puzzle.id)}/move`, { line }, null,
      me.csrf ? { "X-CSRF-Token": me.csrf } : {});
  } catch (err) {
    line.pop();
    $("error").textContent = translateError(err.message);
    return;
  }
  if (!verdict.correct) {
    done = true;
    line.pop();
    setVerdict("study.wrong", false, { solution: verdict.solution.join(" ") });
  } else if (verdict.done) {
    done = true;
    setVerdict("study.solved", true);
  } else {
    line.push(verdict.reply);
    setVerdict("study.right", true, { reply: verdict.reply });
  }
  if (verdict.rating) showRating(verdict.rating.after);
  await show();
}

function showRating(rating) {
  $("my-rating").textContent = rating === null ? t("study.log_in_to_rate") : String(rating);
}

async function load(path) {
  try {
    await open(await api("GET", path));
  } catch (err) {
    $("error").textContent = translateError(err.message);
  }
}

function fillThemes() {
  const game = $("puzzle-game").value;
  const names = [...new Set(themes.filter((x) => !game || x.game === game).map((x) => x.theme))];
  $("puzzle-theme").replaceChildren(el("option", { value: "" }, t("study.any")),
    ...names.map((n) => el("option", { value: n }, t(`study.theme_${n}`))));
}

function nextPath() {
  const params = new URLSearchParams();
  if ($("puzzle-game").value) params.set("game", $("puzzle-game").value);
  if ($("puzzle-theme").value) params.set("theme", $("puzzle-theme").value);
  if (puzzle) params.set("after", puzzle.id);
  return `/api/puzzles/next?${params}`;
}

async function main() {
  themes = (await api("GET", "/api/puzzles/themes")).themes;
  const games = [...new Set(themes.map((x) => x.game))];
  $("puzzle-game").replaceChildren(el("option", { value: "" }, t("study.any")),
    ...games.map((g) => el("option", { value: g }, gameName(g, g))));
  fillThemes();
  $("puzzle-game").onchange = fillThemes;
  $("daily").onclick = () => load("/api/puzzles/daily");
  $("next").onclick = () => load(nextPath());
  const mine = await api("GET", "/api/puzzles/me");
  showRating(mine.rating);
  const id = decodeURIComponent(location.pathname.split("/")[2] || "");
  await load(id ? `/api/puzzles/${encodeURIComponent(id)}` : "/api/puzzles/daily");
}

main();
