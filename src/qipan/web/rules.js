// /rules/<preset>: a game's rules in the page's language, with diagrams drawn by the game's
// own pictures (server-rendered from positions the rules build) and its history.
// /rules: the list of games only.
import { api, el } from "./api.js";
import "./account.js";  // the header: account, games waiting for you
import { currentLanguage, familyName, gameName, t, translateError } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const preset = decodeURIComponent(location.pathname.split("/")[2] || "");
const HISTORY_FIELDS = ["names", "inventor", "year", "origin", "source"];

function historyRows(history) {
  return HISTORY_FIELDS.filter((k) => history[k]).flatMap((k) => [
    el("dt", {}, t(`rules.history_${k}`)),
    el("dd", {}, Array.isArray(history[k]) ? history[k].join(" · ") : String(history[k])),
  ]);
}

/** "2", "2–4" for a run of counts, else "1, 2". */
export function playerCounts(counts) {
  const sorted = [...counts].sort((a, b) => a - b);
  const run = sorted.every((n, i) => i === 0 || n === sorted[i - 1] + 1);
  return run && sorted.length > 1 ? `${sorted[0]}–${sorted.at(-1)}` : sorted.join(", ");
}

async function show() {
  const data = await api("GET", `/api/rules/${encodeURIComponent(preset)}?lang=${encodeURIComponent(currentLanguage())}`);
  const title = gameName(data.preset, data.title);
  document.title = t("rules.title", { game: title });
  $("rules-title").textContent = title;
  $("rules-players").textContent = `${familyName(data.family)} · ${t("rules.players", { n: playerCounts(data.players) })}`;
  $("rules-play").href = `/?game=${encodeURIComponent(data.preset)}`;
  $("rules-actions").hidden = false;
  $("rules-variants").replaceChildren(...(data.presets.length > 1 ? data.presets.map((p) => el("li", {},
    p.id === data.preset ? el("strong", {}, gameName(p.id, p.title))
      : el("a", { href: `/rules/${encodeURIComponent(p.id)}`, "data-rules": p.id }, gameName(p.id, p.title)))) : []));
  $("rules-body").innerHTML = data.html;  // the server's rendering of our own rules files
  $("history-list").replaceChildren(...historyRows(data.history));
  $("rules-history").hidden = false;
}

async function main() {
  if (!preset) {
    $("rules-title").textContent = t("rules.all_games");
    $("rules-body").replaceChildren(el("p", {}, t("rules.choose")));
    return;
  }
  try { await show(); } catch (err) { $("rules-error").textContent = translateError(err.message); }
}

main();
