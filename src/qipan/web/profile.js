// /u/<name>: a player's ratings per variant (grouped by family) and time class, their history as a plot,
// and their games with results and links to the replays.
import { api, el } from "./api.js";
import { resultFor } from "./account.js";
import { familyName, gameName, t, translateError } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const username = decodeURIComponent(location.pathname.split("/")[2] || "");
const SVG = "http://www.w3.org/2000/svg";
const COLOURS = ["#1565c0", "#e65100", "#2e7d32", "#6a1b9a", "#ad1457", "#00838f"];

function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

// One line per family and time class over the games played (x: game number, y: rating).
export function historyPlot(history) {
  const series = {};
  // Every series starts from the new player's rating (1500), so one game already draws a line.
  // Series are keyed by family and time class ids (data-series); labels are translated.
  const labels = {};
  for (const h of history) {
    const key = `${h.variant} ${h.time_class}`;
    labels[key] = `${gameName(h.variant, h.variant)} ${t(`time_class.${h.time_class}`)}`;
    (series[key] ||= [{ rating: 1500 }]).push(h);
  }
  const names = Object.keys(series);
  const W = 640, H = 240, pad = 40;
  const plot = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "plot", role: "img", "aria-label": t("profile.history") });
  if (!history.length) { plot.append(svg("text", { x: pad, y: H / 2 }, t("profile.no_rated_games"))); return plot; }
  const ratings = [1500, ...history.map((h) => h.rating)];
  const low = Math.floor((Math.min(...ratings) - 20) / 50) * 50, high = Math.ceil((Math.max(...ratings) + 20) / 50) * 50;
  const longest = Math.max(...names.map((n) => series[n].length));
  const x = (i) => pad + (longest > 1 ? (i * (W - 2 * pad)) / (longest - 1) : (W - 2 * pad) / 2);
  const y = (r) => H - pad - ((r - low) * (H - 2 * pad)) / Math.max(1, high - low);
  plot.append(svg("line", { x1: pad, y1: H - pad, x2: W - pad, y2: H - pad, class: "axis" }),
    svg("line", { x1: pad, y1: pad, x2: pad, y2: H - pad, class: "axis" }),
    svg("text", { x: 4, y: y(high) + 4 }, String(high)), svg("text", { x: 4, y: y(low) + 4 }, String(low)),
    svg("text", { x: W - pad, y: H - pad + 16, "text-anchor": "end" }, t("lobby.games")));
  names.forEach((name, k) => {
    const colour = COLOURS[k % COLOURS.length];
    const points = series[name].map((h, i) => `${x(i).toFixed(1)},${y(h.rating).toFixed(1)}`).join(" ");
    plot.append(svg("polyline", { points, fill: "none", stroke: colour, "stroke-width": 2, "data-series": name }));
    series[name].forEach((h, i) => plot.append(svg("circle", { cx: x(i), cy: y(h.rating), r: 3, fill: colour },
      undefined)));
    plot.append(svg("text", { x: pad + 8, y: pad - 10 + 0 + k * 14, fill: colour }, `${labels[name]}: ${series[name].at(-1).rating}`));
  });
  return plot;
}

async function main() {
  let data;
  try { data = await api("GET", `/api/users/${encodeURIComponent(username)}`); } catch (err) {
    $("profile-error").textContent = translateError(err.message);
    return;
  }
  document.title = `qipan — ${data.username}`;
  $("profile-name").textContent = data.username;
  $("ratings").querySelector("tbody").replaceChildren(...data.ratings.map((r) => el("tr", {},
    el("td", {}, `${gameName(r.variant, r.variant)} (${familyName(r.family)})`), el("td", {}, t(`time_class.${r.time_class}`)),
    el("td", { class: "num" }, `${Math.round(r.rating)}${r.provisional ? "?" : ""}`),
    el("td", { class: "num" }, String(Math.round(r.rd))), el("td", { class: "num" }, String(r.games)))));
  $("skills").querySelector("tbody").replaceChildren(...(data.skills || []).map((r) => el("tr", {},
    el("td", {}, `${gameName(r.variant, r.variant)} (${familyName(r.family)})`), el("td", {}, t(`time_class.${r.time_class}`)),
    el("td", { class: "num" }, r.ordinal.toFixed(1)), el("td", { class: "num" }, `${r.mu.toFixed(1)} ± ${r.sigma.toFixed(1)}`),
    el("td", { class: "num" }, String(r.games)))));
  $("history").replaceChildren(historyPlot(data.history));
  $("profile-games").replaceChildren(...data.games.map((g) => {
    const others = g.seats.filter((s) => !g.my_seats.includes(s.seat));
    return el("li", {},
      el("span", {}, `${gameName(g.game, g.title)} ${t("profile.vs")} `, ...others.map((s) => g.accounts[s.seat]
        ? el("a", { href: `/u/${encodeURIComponent(g.accounts[s.seat])}` }, g.accounts[s.seat]) : s.name),
      g.terms ? ` · ${g.terms.rated ? t("lobby.rated") : t("lobby.casual")} ${t(`time_class.${g.terms.time_class}`)}` : "",
      ` — ${resultFor(g)}${g.result ? ` (${translateError(g.result.text)}, ${translateError(g.result.reason)})` : ""}`),
      el("a", { href: g.status === "over" ? `/replay/${g.id}` : `/g/${g.id}` }, g.status === "over" ? t("lobby.replay") : t("lobby.watch")));
  }));
}

main();
