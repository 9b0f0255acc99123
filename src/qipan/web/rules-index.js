// The lobby's list of rules pages: every game and preset, grouped by family, in the page's
// language (the seeds' names).
import { api, el } from "./api.js";
import { familyName, gameName } from "./i18n.js";

async function main() {
  const list = document.getElementById("rules-list");
  if (!list) return;
  const { games } = await api("GET", "/api/specs");
  const byFamily = {};
  for (const g of games) (byFamily[g.family] ||= []).push(g);
  list.replaceChildren(...Object.entries(byFamily).map(([family, presets]) => el("li", {},
    el("strong", {}, familyName(family)), " ",
    ...presets.map((g) => el("a", { href: `/rules/${encodeURIComponent(g.id)}`, "data-rules": g.id }, gameName(g.id, g.title))))));
}

main();
