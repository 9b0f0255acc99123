// The game page's terms: rated or casual, the time class, and the players' accounts with
// their ratings; once a rated game is over, what it changed.
import { api, el } from "./api.js";
import { familyName, t } from "./i18n.js";

const gameId = location.pathname.split("/")[2];

function player(p) {
  const rating = p.rating === undefined ? "" : ` ${p.rating}${p.provisional ? "?" : ""}`;
  const change = p.change === null || p.change === undefined ? null
    : el("span", { class: p.change >= 0 ? "gain" : "loss", "data-change": p.change }, ` ${p.change >= 0 ? "+" : ""}${Math.round(p.change)}`);
  return el("span", { class: "player", "data-seat": p.seat },
    el("a", { href: `/u/${encodeURIComponent(p.username)}` }, p.username), rating, change);
}

// True once there is nothing more to wait for; false to look again (also when the server
// cannot be reached for now: api.js shows that, and the next poll tries again).
async function refresh(box) {
  let data;
  try {
    data = await api("GET", `/api/games/${gameId}/terms`);
  } catch (err) {
    return !err.unreachable;
  }
  if (!data.terms && !data.players.length) { box.hidden = true; return true; }
  box.hidden = false;
  const terms = data.terms ? `${data.terms.rated ? t("terms.rated") : t("terms.casual")} · ${familyName(data.family)} · ${t(`time_class.${data.terms.time_class}`)}`
    + (data.terms.days ? ` (${t("lobby.days_per_move", { n: data.terms.days })})` : "") : t("terms.casual");
  box.replaceChildren(el("span", { class: "kind" }, terms), ...data.players.map(player));
  return data.players.some((p) => p.change !== null && p.change !== undefined) || (data.terms && !data.terms.rated
    && document.getElementById("status")?.dataset.status === "over");
}

// The header's link to the rules page of this game's preset (/rules/<preset>).
async function rulesLink() {
  const bar = document.querySelector("header.bar");
  if (!bar) return;
  const { game } = await api("GET", `/api/games/${gameId}`).catch(() => ({}));
  if (!game || document.getElementById("game-rules")) return;
  const link = el("a", { href: `/rules/${encodeURIComponent(game)}`, id: "game-rules", class: "rules-link", "data-rules": game },
    t("site.rules"));
  bar.querySelector(".brand").after(link);
}

async function main() {
  rulesLink();
  const side = document.querySelector(".side");
  if (!side) return;
  const box = el("div", { id: "game-terms", class: "game-terms", hidden: true });
  side.prepend(box);
  // Until the result is in the ratings (a few seconds after the end), look again now and then.
  if (await refresh(box)) return;
  const timer = setInterval(async () => { if (await refresh(box)) clearInterval(timer); }, 3000);
}

main();
