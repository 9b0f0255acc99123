// The lobby: a new-game form generated from the registry, and lists of games.
import { api, el, every, mySeats, myName, rememberSeat, setMyName } from "./api.js";
import { currentLanguage, familyName, gameName, has, t, translateError } from "./i18n.js";
import { createAndGo } from "./create-game.js";

export { createAndGo };

let registry = { games: [], agents: [] };
const $ = (id) => document.getElementById(id);

/** A preset's description in the page's language, else the registry's. */
export function describe(spec) {
  const key = `preset.${spec.id}.description`;
  return has(key) ? t(key) : spec.description || "";
}

function gameSpec() { return registry.games.find((g) => g.id === $("game-select").value); }

// An option's label and help in the page's language (registry.<lang>.json), else the registry's.
function optionText(family, opt) {
  const key = `option.${family}.${opt.name}`;
  return { label: has(key) ? t(key) : opt.name, help: has(`${key}.help`) ? t(`${key}.help`) : opt.help || "" };
}

// A choice's words in the page's language ("never taken", "和局"); numbers stand as they are.
function choiceText(value) {
  const key = `choice.${value}`;
  return has(key) ? t(key) : String(value);
}

export function optionInput(opt, family) {
  const name = `opt_${opt.name}`;
  const { label, help } = optionText(family, opt);
  const title = help || label;
  if (opt.type === "bool") {
    return el("label", { class: "check", title }, el("input", { type: "checkbox", name, checked: !!opt.default }), ` ${label}`);
  }
  let input;
  if (opt.choices) {
    input = el("select", { name }, opt.choices.map((c) => el("option", { value: c, selected: c === opt.default }, choiceText(c))));
    if (opt.allow_none) input.append(el("option", { value: "none", selected: opt.default === null }, t("lobby.none")));
  } else if ((opt.type === "int" || opt.type === "float") && !opt.allow_none) {
    input = el("input", { type: "number", name, value: opt.default ?? "", min: opt.minimum ?? undefined,
      max: opt.maximum ?? undefined, step: opt.type === "int" ? 1 : "any" });
  } else {
    input = el("input", { name, value: opt.default === null ? "none" : opt.default ?? "" });
  }
  return el("label", { title }, `${label} `, input, help ? el("small", { class: "help" }, help) : null);
}

function seatRow(i, players) {
  const select = el("select", { name: `seat_${i}`, "data-seat": i },
    el("option", { value: "me", selected: i === 0 }, t("lobby.seat_me")),
    el("option", { value: "invite", selected: i !== 0 }, t("lobby.seat_invite")),
    // Only the agents that declare they play this game with this many players.
    registry.agents.filter((a) => gameSpec().agents.includes(a.name) && (!a.players || a.players.includes(players)))
      .map((a) => el("option", { value: `bot:${a.name}`, title: a.description }, t("lobby.seat_bot", { name: a.name }))));
  const time = el("input", { type: "number", name: `seat_time_${i}`, min: "0.05", max: "60", step: "any", value: "1",
    title: t("lobby.bot_seconds"), class: "bot-time" });
  return el("div", { class: "seat-row" }, el("span", {}, t("lobby.seat", { n: i + 1 })), select,
    el("label", { class: "bot-only" }, `${t("lobby.per_move")} `, time));
}

function renderForm() {
  const spec = gameSpec();
  if (!spec) return;
  // the reference pictures a game declares (capabilities.pictures), e.g. a tile gallery
  const pictures = (spec.capabilities && spec.capabilities.pictures) || [];
  $("game-description").replaceChildren(describe(spec), " ",
    el("a", { href: `/rules/${encodeURIComponent(spec.id)}`, class: "rules-link", "data-rules": spec.id }, t("lobby.read_rules")),
    ...pictures.map((name) => el("a", {
    href: `/api/specs/${encodeURIComponent(spec.id)}/pictures/${encodeURIComponent(name)}?lang=${encodeURIComponent(currentLanguage())}`,
    target: "_blank", class: "picture-link",
  }, ` [${name}]`)));
  const players = $("players-select");
  players.replaceChildren(...spec.players.map((n) => el("option", { value: n }, String(n))));
  const options = $("options");
  options.replaceChildren(el("legend", {}, t("lobby.options")), ...spec.options.map((o) => optionInput(o, spec.family)));
  options.hidden = spec.options.length === 0;
  // Real time on by default where the game declares a tick (Pipe Mania), at its pace.
  const realtime = document.querySelector("#new-game-form input[name=realtime]");
  if (realtime) realtime.value = (spec.capabilities && spec.capabilities.realtime_tick) || "";
  renderSeats();
}

function renderSeats() {
  const n = Number($("players-select").value);
  $("seats").replaceChildren(el("legend", {}, t("lobby.seats")), ...Array.from({ length: n }, (_, i) => seatRow(i, n)));
  updateVisibility();
}

function updateVisibility() {
  for (const row of document.querySelectorAll(".seat-row")) {
    row.querySelector(".bot-only").hidden = !row.querySelector("select").value.startsWith("bot:");
  }
  const mode = $("clock-mode").value;
  for (const f of document.querySelectorAll(".clock-field")) f.hidden = !mode;
  for (const f of document.querySelectorAll(".total-only")) f.hidden = mode !== "total";
}

export function coerce(opt, raw) {
  if (opt.type === "bool") return raw;
  if (raw === "none" && opt.allow_none) return null;
  if (opt.type === "int" && /^-?\d+$/.test(raw)) return Number(raw);
  if (opt.type === "float" && raw !== "" && !Number.isNaN(Number(raw))) return Number(raw);
  return raw;
}

async function createGame(event) {
  event.preventDefault();
  const form = event.target;
  const spec = gameSpec();
  const me = form.me.value.trim();
  setMyName(me);
  const options = {};
  for (const opt of spec.options) {
    const input = form.elements[`opt_${opt.name}`];
    options[opt.name] = coerce(opt, opt.type === "bool" ? input.checked : input.value.trim());
  }
  const players = Number(form.players.value);
  const seats = [];
  for (let i = 0; i < players; i++) {
    const choice = form.elements[`seat_${i}`].value;
    if (choice === "me") seats.push({ kind: "human", name: me || null, join: true });
    else if (choice === "invite") seats.push({ kind: "human" });
    else seats.push({ kind: "bot", agent: choice.slice(4), limits: { time: Number(form.elements[`seat_time_${i}`].value) || 1 } });
  }
  const body = { game: spec.id, options, players, seats, public: form.public.checked };
  if (form.clock_mode.value) {
    body.clock = { mode: form.clock_mode.value, initial: Number(form.clock_initial.value),
      increment: Number(form.clock_increment.value) || 0 };
  }
  if (form.realtime.value) body.realtime = Number(form.realtime.value);
  $("create-error").textContent = "";
  try {
    await createAndGo(body);
  } catch (err) {
    $("create-error").textContent = translateError(err.message);
  }
}

function describeGame(g) {
  const seats = g.seats.map((s) => (s.joined ? s.name : t("lobby.seat_free", { name: s.name }))).join(" · ");
  const status = g.status === "over" ? (g.result ? `${translateError(g.result.text)} — ${translateError(g.result.reason)}` : t("lobby.over"))
    : g.status === "open" ? t("lobby.waiting_players") : t("lobby.ply", { n: g.ply });
  return `${gameName(g.game, g.title)}: ${seats} — ${status}`;
}

function gameItem(g, actions) {
  return el("li", {}, el("span", {}, describeGame(g)), " ", ...actions);
}

async function refreshLists() {
  const mine = mySeats();
  const ids = Object.keys(mine).sort((a, b) => (mine[b].at || 0) - (mine[a].at || 0)).slice(0, 50);
  const [yours, open, recent] = await Promise.all([
    ids.length ? api("GET", `/api/games?ids=${ids.join(",")}&limit=50`) : { games: [] },
    api("GET", "/api/games?status=open&limit=30"),
    api("GET", "/api/games?status=over&limit=20"),
  ]);
  $("your-games").replaceChildren(...yours.games.map((g) => gameItem(g, [
    el("a", { href: `/g/${g.id}` }, g.status === "over" ? t("lobby.view") : t("lobby.play")),
    g.status === "over" ? el("a", { href: `/replay/${g.id}` }, t("lobby.replay")) : null])));
  $("open-games").replaceChildren(...open.games.filter((g) => !mine[g.id]).map((g) => gameItem(g,
    g.seats.filter((s) => s.kind === "human" && !s.joined).map((s) =>
      el("button", { type: "button", class: "join", onclick: () => join(g.id, s.seat) }, t("lobby.join_seat", { n: s.seat + 1 }))))));
  $("recent-games").replaceChildren(...recent.games.map((g) => gameItem(g, [el("a", { href: `/replay/${g.id}` }, t("lobby.replay"))])));
}

async function join(gameId, seat) {
  try {
    const joined = await api("POST", `/api/games/${gameId}/join`, { seat, name: $("my-name").value.trim() || null });
    rememberSeat(gameId, joined.seat, joined.token);
    location.href = `/g/${gameId}`;
  } catch (err) {
    alert(translateError(err.message));
  }
}

async function main() {
  $("my-name").value = myName();
  registry = await api("GET", "/api/specs");
  const byFamily = {};
  for (const g of registry.games) (byFamily[g.family] ||= []).push(g);
  $("game-select").replaceChildren(...Object.entries(byFamily).map(([family, games]) =>
    el("optgroup", { label: familyName(family) }, games.map((g) => el("option", { value: g.id }, gameName(g.id, g.title))))));
  // The game in ?game=ID, else the one chosen last time, else the registry's featured game.
  const wanted = new URLSearchParams(location.search).get("game") || localStorage.getItem("qipan.lastGame");
  const initial = [wanted, registry.featured].find((id) => registry.games.some((g) => g.id === id));
  if (initial) $("game-select").value = initial;
  $("game-select").addEventListener("change", () => {
    localStorage.setItem("qipan.lastGame", $("game-select").value);
    renderForm();
  });
  $("players-select").addEventListener("change", renderSeats);
  $("seats").addEventListener("change", updateVisibility);
  $("clock-mode").addEventListener("change", updateVisibility);
  $("new-game-form").addEventListener("submit", createGame);
  // Phone first: the quick actions come first and the full form waits behind its button;
  // a wide screen has room to show it open.
  if (window.matchMedia("(min-width: 700px)").matches) $("new-game-details").open = true;
  renderForm();
  await refreshLists();
  every(5000, refreshLists);
}

main();
