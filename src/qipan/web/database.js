// The game database page: search the stored games (players, game, result, dates, length,
// a position reached after some moves, turned or mirrored too), open one on the analysis
// page, see what the database holds, and (operators) import record files.
import { api, el } from "./api.js";
import { whoami } from "./account.js";
import { gameName, t, translateError } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const MAX_UPLOAD = 60 * 1024;
let specs = [];

function analysisLink(g, ply) {
  const params = new URLSearchParams({ game: g.game, players: g.players, moves: JSON.stringify(g.moves), ply });
  if (Object.keys(g.options || {}).length) params.set("options", JSON.stringify(g.options));
  if (g.seed !== null && g.seed !== undefined) params.set("seed", g.seed);
  return `/analysis?${params}`;
}

function filters() {
  const body = {};
  for (const [id, name] of [["f-player", "player"], ["f-opponent", "opponent"], ["f-game", "game"], ["f-result", "result"],
    ["f-from", "date_from"], ["f-to", "date_to"]]) {
    if ($(id).value.trim()) body[name] = $(id).value.trim();
  }
  for (const [id, name] of [["f-min", "min_plies"], ["f-max", "max_plies"]]) {
    if ($(id).value !== "") body[name] = Number($(id).value);
  }
  const moves = $("f-moves").value.trim();
  if (moves) {
    body.position = { game: body.game || specs[0].id, moves: moves.split(/\s+/) };
    body.symmetric = $("f-symmetric").checked;
  }
  return body;
}

async function search(event) {
  if (event) event.preventDefault();
  $("search-error").textContent = "";
  let found;
  try {
    found = await api("POST", "/api/db/search", filters());
  } catch (err) {
    $("search-error").textContent = translateError(err.message);
    return;
  }
  $("found").textContent = t("study.found", { n: found.total });
  const head = el("tr", {}, ...["analysis.game", "study.date", "study.players", "study.result", "study.plies", ""].map((k) => el("th", {}, k ? t(k) : "")));
  const rows = found.games.map((g) => el("tr", { "data-id": g.id },
    el("td", {}, gameName(g.game, g.game)),
    el("td", {}, g.date || "—"),
    el("td", {}, g.names.map((n, i) => (g.ratings[i] ? `${n} (${Math.round(g.ratings[i])})` : n)).join(" – ")),
    el("td", {}, g.result),
    el("td", { class: "num" }, String(g.plies)),
    el("td", {}, el("button", { type: "button", class: "link", onclick: () => openGame(g.id) }, t("study.open")))));
  $("results").replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
}

async function openGame(id) {
  try {
    const g = await api("GET", `/api/db/games/${id}`);
    location.href = analysisLink(g, 0);
  } catch (err) {
    $("search-error").textContent = translateError(err.message);
  }
}

async function stats() {
  const counts = await api("GET", "/api/db/stats");
  $("stats").replaceChildren(...counts.by_game.map((row) =>
    el("li", {}, t("study.db_count", { game: gameName(row.game, row.game), source: t(`study.source_${row.source}`), n: row.games }))),
  el("li", {}, t("study.db_total", { n: counts.total })));
}

async function importFile(file) {
  const out = $("import-report");
  if (file.size > MAX_UPLOAD) {
    out.textContent = t("analysis.too_large", { size: Math.ceil(file.size / 1024), limit: MAX_UPLOAD / 1024 });
    return;
  }
  const me = await whoami();
  out.textContent = t("study.importing");
  try {
    const report = await api("POST", "/api/db/import", { text: await file.text() }, null, { "X-CSRF-Token": me.csrf || "" });
    out.replaceChildren(t("study.imported", { games: report.games, added: report.added, duplicates: report.duplicates, rejected: report.rejected.length }),
      ...report.rejected.slice(0, 20).map((r) => el("div", { class: "error" }, t("study.import_rejected", { game: r.game, why: translateError(r.reason) }))));
    stats();
  } catch (err) {
    out.textContent = translateError(err.message);
  }
}

async function main() {
  try {
    specs = (await api("GET", "/api/specs")).games;
  } catch (err) {
    $("search-error").textContent = translateError(err.message);
    return;
  }
  $("f-game").replaceChildren(el("option", { value: "" }, t("study.any")), ...specs.map((s) => el("option", { value: s.id }, gameName(s.id, s.title))));
  $("search-form").addEventListener("submit", search);
  $("import-file").addEventListener("change", (e) => { if (e.target.files[0]) importFile(e.target.files[0]); });
  await Promise.all([stats(), search()]);
}

main();
