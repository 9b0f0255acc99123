// The lobby's game-finding cards: quick pairing, seeks, live games, leaderboards, bots,
// and the account's games. Generated from the registry: no game is named here.
import { api, el, every } from "./api.js";
import { TIME_CONTROLS, controlLabel } from "./time-controls.js";
import { siteApi, whoami } from "./account.js";
import { coerce, optionInput } from "./lobby.js";
import { familyName, gameName, has, t, translateError } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const TIME_CLASSES = ["bullet", "blitz", "rapid", "classical", "correspondence"];
let registry = { games: [] };
let account = null;
let waitingSeeks = new Set();   // my open seeks: when one is accepted, go to its game

function timeClass(tc) {
  if (tc.days) return "correspondence";
  const estimate = tc.clock.initial + 40 * tc.clock.increment;
  return estimate < 180 ? "bullet" : estimate < 480 ? "blitz" : estimate < 1500 ? "rapid" : "classical";
}

function twoPlayerGames() { return registry.games.filter((g) => g.players.includes(2)); }

function gameOptions(select, games) {
  const byFamily = {};
  for (const g of games) (byFamily[g.family] ||= []).push(g);
  select.replaceChildren(...Object.entries(byFamily).map(([family, list]) =>
    el("optgroup", { label: familyName(family) }, list.map((g) => el("option", { value: g.id }, gameName(g.id, g.title))))));
  if (registry.featured && games.some((g) => g.id === registry.featured)) select.value = registry.featured;
}

function title(gameId) { return gameName(gameId, (registry.games.find((g) => g.id === gameId) || { title: gameId }).title); }


function describeTerms(s) {
  const control = s.days ? t("lobby.days_per_move", { n: s.days }) : s.clock
    ? (s.clock.mode === "move" ? t("lobby.seconds_per_move", { n: s.clock.initial }) : `${s.clock.initial / 60}+${s.clock.increment}`)
    : t("lobby.untimed");
  return `${control} · ${s.rated ? t("lobby.rated") : t("lobby.casual")}`;
}

function needLogin(node) {
  node.textContent = "";
  node.append(`${t("lobby.need_login")} `, el("a", { href: "/account?next=/" }, t("lobby.login_or_signup")));
}

// -- quick pairing -----------------------------------------------------------------------
function renderPairing() {
  $("pairing-grid").replaceChildren(...TIME_CONTROLS.map((tc, i) => el("button", {
    type: "button", class: "pair", "data-setup": tc.label, onclick: () => quick(i) },
  controlLabel(tc), el("span", { class: "klass" }, t(`time_class.${timeClass(tc)}`)))));
}

async function quick(i) {
  const tc = TIME_CONTROLS[i];
  $("pairing-status").textContent = "";
  if (!account) { needLogin($("pairing-status")); return; }
  const body = { game: $("pair-game").value, rated: $("pair-rated").checked, ...(tc.days ? { days: tc.days } : { clock: tc.clock }) };
  try {
    const result = await siteApi("POST", "/api/quick", body);
    if (result.game) { location.href = `/g/${result.game}`; return; }
    waitingSeeks.add(result.seek);
    $("pairing-status").textContent = t("lobby.waiting_opponent", { game: title(body.game), time: controlLabel(tc) });
    refreshSeeks();
  } catch (err) { $("pairing-status").textContent = translateError(err.message); }
}

// -- seeks -------------------------------------------------------------------------------
async function postSeek(event) {
  event.preventDefault();
  const form = event.target;
  $("seek-error").textContent = "";
  if (!account) { needLogin($("seek-error")); return; }
  const choice = form.time.value;
  const body = { game: form.game.value, rated: form.rated.checked, options: {} };
  const spec = registry.games.find((g) => g.id === form.game.value);
  for (const opt of spec ? spec.options : []) {
    const input = form.elements[`opt_${opt.name}`];
    if (input) body.options[opt.name] = coerce(opt, opt.type === "bool" ? input.checked : input.value.trim());
  }
  if (choice !== "none") {
    const tc = TIME_CONTROLS[Number(choice)];
    Object.assign(body, tc.days ? { days: tc.days } : { clock: tc.clock });
  }
  if (form.rating_min.value) body.rating_min = Number(form.rating_min.value);
  if (form.rating_max.value) body.rating_max = Number(form.rating_max.value);
  try {
    const { id } = await siteApi("POST", "/api/seeks", body);
    waitingSeeks.add(id);
    await refreshSeeks();
  } catch (err) { $("seek-error").textContent = translateError(err.message); }
}

// The chosen game's options, as in the new-game form.
function renderSeekOptions() {
  const spec = registry.games.find((g) => g.id === $("seek-game").value);
  const options = spec ? spec.options : [];
  $("seek-options").replaceChildren(el("legend", {}, t("lobby.options")), ...options.map((o) => optionInput(o, spec.family)));
  $("seek-options-box").hidden = options.length === 0;
}

async function accept(seekId) {
  $("seek-error").textContent = "";
  if (!account) { needLogin($("seek-error")); return; }
  try {
    const game = await siteApi("POST", `/api/seeks/${seekId}/accept`);
    location.href = `/g/${game.game}`;
  } catch (err) { $("seek-error").textContent = translateError(err.message); refreshSeeks(); }
}

async function cancel(seekId) {
  try { await siteApi("DELETE", `/api/seeks/${seekId}`); } catch (err) { $("seek-error").textContent = translateError(err.message); }
  waitingSeeks.delete(seekId);
  refreshSeeks();
}

async function refreshSeeks() {
  const { seeks } = await api("GET", "/api/seeks");
  const me = account && account.username;
  $("seek-list").replaceChildren(...seeks.map((s) => el("li", { "data-seek": s.id },
    el("span", {}, `${s.username} (${s.rating}${s.provisional ? "?" : ""}) · ${title(s.game)} · ${describeTerms(s)}`,
      Object.keys(s.options).length ? ` · ${Object.entries(s.options).map(([k, v]) => `${k}=${v}`).join(", ")}` : "",
      s.rating_min !== null || s.rating_max !== null ? ` · ${s.rating_min ?? ""}–${s.rating_max ?? ""}` : ""),
    s.username === me
      ? el("button", { type: "button", class: "cancel-seek", onclick: () => cancel(s.id) }, t("lobby.cancel"))
      : el("button", { type: "button", class: "accept", onclick: () => accept(s.id) }, t("lobby.accept")))));
  if (!seeks.length) $("seek-list").append(el("li", { class: "help" }, t("lobby.no_seeks")));
  if (account) {
    // A seek of mine that someone accepted: go to the game.
    const mine = (await siteApi("GET", "/api/account/seeks")).seeks;
    for (const s of mine) {
      if (s.status === "accepted" && s.game_id && waitingSeeks.has(s.id)) { location.href = `/g/${s.game_id}`; return; }
      if (s.status === "open") waitingSeeks.add(s.id);
    }
  }
}

// -- live games, leaderboards, bots, my games --------------------------------------------
async function refreshLive() {
  const { games } = await api("GET", "/api/games?status=active&limit=30");
  $("live-games").replaceChildren(...games.map((g) => el("li", {},
    el("span", {}, `${title(g.game)}: ${g.seats.map((s) => s.name).join(" – ")} · ${t("lobby.ply", { n: g.ply })}`),
    el("a", { href: `/g/${g.id}`, class: "watch" }, t("lobby.watch")))));
  if (!games.length) $("live-games").append(el("li", { class: "help" }, t("lobby.no_live")));
}

let boardAsked = 0;

async function refreshLeaderboard() {
  const family = $("board-family").value, klass = $("board-class").value;
  const asked = ++boardAsked;
  const { players } = await api("GET", `/api/leaderboard?family=${encodeURIComponent(family)}&time_class=${klass}`);
  if (asked !== boardAsked) return;  // a later choice's answer wins, whichever arrives first
  $("leaderboard").querySelector("tbody").replaceChildren(...players.map((p, i) => el("tr", {},
    el("td", { class: "num" }, String(i + 1)),
    el("td", {}, el("a", { href: `/u/${encodeURIComponent(p.username)}` }, p.username)),
    el("td", {}, title(p.variant)),
    el("td", { class: "num" }, `${Math.round(p.rating)}${p.provisional ? "?" : ""}`),
    el("td", { class: "num" }, String(p.games)))));
}

async function renderBots() {
  // The ratings of the game chosen in "play the computer", as its level list shows them.
  const game = $("computer-game") && $("computer-game").value;
  const { bots } = await api("GET", game ? `/api/bots?game=${encodeURIComponent(game)}` : "/api/bots");
  $("bots-note").textContent = t(bots.length && bots.every((b) => b.measured) ? "lobby.bots_measured" : "lobby.bots_provisional");
  $("bot-list").replaceChildren(...bots.map((b) => el("li", {},
    el("span", { title: b.description }, `${botName(b)} — ${t(b.measured ? "lobby.rating_measured" : "lobby.rating_provisional", { rating: Math.round(b.rating) })}`
      + (b.families ? ` (${b.families.map(familyName).join(", ")})` : "")),
    el("button", { type: "button", class: "play-bot",
      onclick: () => (b.agent === "level" ? playLevel(b.level) : playBot(b.name)) }, t("lobby.play")))));
}

/** A bot's name in the page's language: "Level 3 casual" for the levels, else the agent's name. */
function botName(b) {
  return b.agent === "level" ? `${t("lobby.level", { n: b.level })} ${has(`level.${b.level}`) ? t(`level.${b.level}`) : ""}` : b.name;
}

function playLevel(level) {
  // The bots are the levels: "play the computer" (computer.js) offers them for each game.
  const select = $("computer-level");
  if (select) select.value = String(level);
  $("play-computer").scrollIntoView({ behavior: "smooth" });
}

function playBot(name) {
  // Fill the new-game form: me against this bot (when it plays the chosen game).
  const seat = document.querySelector("select[name=seat_1]") || document.querySelector("select[name=seat_0]");
  const option = seat && seat.querySelector(`option[value="bot:${name}"]`);
  if (!option) { $("bot-error").textContent = t("lobby.bot_not_for_game", { name }); return; }
  $("bot-error").textContent = "";
  seat.value = `bot:${name}`;
  seat.dispatchEvent(new Event("change", { bubbles: true }));
  $("new-game-details").open = true;
  $("new-game").scrollIntoView({ behavior: "smooth" });
}

async function refreshMyGames() {
  if (!account) { $("account-games-card").hidden = true; return; }
  $("account-games-card").hidden = false;
  const { games } = await siteApi("GET", "/api/account/games");
  const current = games.filter((g) => g.status !== "over").slice(0, 20);
  $("account-games").replaceChildren(...current.map((g) => el("li", { class: g.your_turn ? "yours" : "" },
    el("span", {}, t("lobby.versus", { game: title(g.game), opponents: g.seats.filter((s) => !g.my_seats.includes(s.seat)).map((s) => s.name).join(", ") })
      + (g.terms ? ` · ${g.terms.rated ? t("lobby.rated") : t("lobby.casual")} ${t(`time_class.${g.terms.time_class}`)}` : "")
      + (g.your_turn ? ` — ${t("lobby.your_turn")}` : "")),
    el("a", { href: `/g/${g.id}` }, t("lobby.play")))));
  if (!current.length) $("account-games").append(el("li", { class: "help" }, t("lobby.no_game_in_progress")));
}

async function main() {
  const [me, specs] = await Promise.all([whoami(), api("GET", "/api/specs")]);
  account = me.account;
  registry = specs;
  const games = twoPlayerGames();
  gameOptions($("pair-game"), games);
  gameOptions($("seek-game"), games);
  $("pair-rated").checked = $("seek-rated").checked = !!account;
  $("seek-time").replaceChildren(el("option", { value: "none" }, t("lobby.untimed_casual")),
    ...TIME_CONTROLS.map((tc, i) => el("option", { value: i, selected: tc.label === "5+3" }, `${controlLabel(tc)} (${t(`time_class.${timeClass(tc)}`)})`)));
  const families = [...new Set(registry.games.map((g) => g.family))];
  $("board-family").replaceChildren(...families.map((f) => el("option", { value: f }, familyName(f))));
  const featured = registry.games.find((g) => g.id === registry.featured);
  if (featured) $("board-family").value = featured.family;
  $("board-class").replaceChildren(...TIME_CLASSES.map((c) => el("option", { value: c, selected: c === "blitz" }, t(`time_class.${c}`))));
  $("board-family").addEventListener("change", refreshLeaderboard);
  $("board-class").addEventListener("change", refreshLeaderboard);
  if ($("computer-game")) $("computer-game").addEventListener("change", renderBots);
  $("seek-form").addEventListener("submit", postSeek);
  $("seek-game").addEventListener("change", renderSeekOptions);
  renderSeekOptions();
  renderPairing();
  if (!account) { needLogin($("pairing-status")); }
  await Promise.all([refreshSeeks(), refreshLive(), refreshLeaderboard(), renderBots(), refreshMyGames()]);
  every(2000, () => Promise.all([refreshSeeks(), refreshLive()]));
  every(15000, refreshMyGames);
}

main();
