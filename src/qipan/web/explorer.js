// The opening explorer panel of the analysis page: the moves played from the position shown,
// in the game database and in the site's rated games, with their counts, how they scored
// for the player who played them, and the mean rating of those players. Clicking a move
// plays it on the board.
import { api, el } from "./api.js";
import { t } from "./i18n.js";

let asked = 0;  // answers to older positions are dropped

/** Fill ``box`` for ``position`` ({game, options, players, seed, moves}); ``play(text)`` plays a move. */
export async function showExplorer(box, position, play) {
  const mine = ++asked;
  box.replaceChildren(el("p", { class: "help" }, t("study.explorer_loading")));
  let answer;
  try {
    answer = await api("POST", "/api/explorer", position);
  } catch (err) {
    if (mine === asked) box.replaceChildren(el("p", { class: "help" }, t("study.explorer_none")));
    return;
  }
  if (mine !== asked) return;
  box.replaceChildren(
    el("h4", {}, t("study.explorer_database")), movesTable(answer.database, play, "explorer-database"),
    el("h4", {}, t("study.explorer_rated")), movesTable(answer.rated, play, "explorer-rated"));
}

function movesTable(moves, play, id) {
  if (!moves.length) return el("p", { class: "help", id }, t("study.explorer_empty"));
  const head = el("tr", {}, ...["study.move", "study.games", "study.score", "study.rating"].map((k) => el("th", {}, t(k))));
  const rows = moves.map((m) => {
    const decided = m.wins + m.draws + m.losses;
    const score = decided ? Math.round((100 * (m.wins + m.draws / 2)) / decided) : null;
    return el("tr", { "data-move": m.move },
      el("td", {}, el("button", { type: "button", class: "choice", onclick: () => play(m.move) }, m.move)),
      el("td", { class: "num" }, String(m.games)),
      el("td", { class: "num", title: t("study.wdl", { w: m.wins, d: m.draws, l: m.losses }) },
        score === null ? "—" : `${score}%`),
      el("td", { class: "num" }, m.rating === null ? "—" : String(m.rating)));
  });
  return el("div", { class: "table-wrap" }, el("table", { class: "board-table", id }, el("thead", {}, head), el("tbody", {}, ...rows)));
}
