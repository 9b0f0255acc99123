// The lobby's "play the computer": pick a game and a level 1-8 (the levels /api/specs lists
// for each game), or, where the server lists no levels, one of the game's agents with a time
// per move; then a game against it opens at once.
import { api, el, myName } from "./api.js";
import { createAndGo } from "./lobby.js";
import { familyName, gameName, has, t, translateError } from "./i18n.js";

const $ = (id) => document.getElementById(id);
// Seconds per move offered for an agent when the server lists no levels.
const AGENT_TIMES = [0.5, 1, 3, 10];
let registry = { games: [], agents: [] };

function spec() { return registry.games.find((g) => g.id === $("computer-game").value); }

/** The levels the server offers for a game (its own list, else the registry's), or []. */
export function levelsOf(game) {
  return (game && game.levels) || registry.levels || [];
}

function levelLabel(lv) {
  const name = has(`level.${lv.level}`) ? t(`level.${lv.level}`) : lv.title || "";
  const rating = lv.rating === null || lv.rating === undefined ? ""
    : ` · ${t(lv.measured ? "lobby.rating_measured" : "lobby.rating_provisional", { rating: Math.round(lv.rating) })}`;
  return `${t("lobby.level", { n: lv.level })} ${name}${rating}`;
}

function agentsOf(game, players) {
  return registry.agents.filter((a) => game.agents.includes(a.name) && !a.local_only
    && (!a.players || a.players.includes(players)));
}

function renderChoice() {
  const game = spec();
  if (!game) return;
  const players = game.players.includes(2) ? 2 : game.players[0];
  const levels = levelsOf(game);
  const box = $("computer-choice");
  if (levels.length) {
    const select = el("select", { id: "computer-level", name: "level" },
      levels.map((lv) => el("option", { value: lv.level, selected: lv.level === 3 }, levelLabel(lv))));
    box.replaceChildren(el("label", {}, `${t("lobby.level_label")} `, select));
    $("computer-note").textContent = "";
  } else {
    const agents = agentsOf(game, players);
    box.replaceChildren(
      el("label", {}, `${t("lobby.opponent")} `, el("select", { id: "computer-agent" },
        agents.map((a) => el("option", { value: a.name, title: a.description }, a.name)))),
      el("label", {}, `${t("lobby.think_time")} `, el("select", { id: "computer-time" },
        AGENT_TIMES.map((s) => el("option", { value: s, selected: s === 1 }, t("lobby.seconds_per_move", { n: s }))))));
    $("computer-note").textContent = t("lobby.no_levels");
  }
  // One human seat; in games for one player there is no opponent to choose.
  $("computer-seat").replaceChildren(...Array.from({ length: players }, (_, i) =>
    el("option", { value: i }, t("lobby.seat", { n: i + 1 }))));
  $("computer-seat").closest("label").hidden = players < 2;
  $("computer-button").disabled = players > 1 && !levels.length && !agentsOf(game, players).length;
}

/** The bot seat the form describes: a level, or an agent with a time per move. */
export function botSeat() {
  const game = spec();
  const levels = levelsOf(game);
  if (levels.length) {
    const lv = levels.find((l) => String(l.level) === $("computer-level").value) || levels[0];
    return { kind: "bot", agent: lv.agent, limits: { ...(lv.limits || {}) } };
  }
  return { kind: "bot", agent: $("computer-agent").value, limits: { time: Number($("computer-time").value) } };
}

async function start(event) {
  event.preventDefault();
  const game = spec();
  const players = game.players.includes(2) ? 2 : game.players[0];
  const mine = Number($("computer-seat").value) || 0;
  const seats = Array.from({ length: players }, (_, i) => (i === mine
    ? { kind: "human", name: myName() || null, join: true } : botSeat()));
  $("computer-error").textContent = "";
  try {
    await createAndGo({ game: game.id, players, seats, public: false });
  } catch (err) { $("computer-error").textContent = translateError(err.message); }
}

/** Choose an agent in the form (from the bot list's "play" buttons). */
export function chooseAgent(name) {
  const select = $("computer-agent");
  if (!select) return false;
  const option = select.querySelector(`option[value="${CSS.escape(name)}"]`);
  if (!option) return false;
  select.value = name;
  return true;
}

async function main() {
  registry = await api("GET", "/api/specs");
  const byFamily = {};
  for (const g of registry.games) (byFamily[g.family] ||= []).push(g);
  $("computer-game").replaceChildren(...Object.entries(byFamily).map(([family, games]) =>
    el("optgroup", { label: familyName(family) }, games.map((g) => el("option", { value: g.id }, gameName(g.id, g.title))))));
  if (registry.featured) $("computer-game").value = registry.featured;
  $("computer-game").addEventListener("change", renderChoice);
  $("computer-form").addEventListener("submit", start);
  renderChoice();
}

main();
