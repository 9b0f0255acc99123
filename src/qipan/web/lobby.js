// The lobby: a new-game form generated from the registry, and lists of games.
import { api, el, mySeats, myName, rememberSeat, setMyName } from "./api.js";

let registry = { games: [], agents: [] };
const $ = (id) => document.getElementById(id);

function gameSpec() { return registry.games.find((g) => g.id === $("game-select").value); }

export function optionInput(opt) {
  const name = `opt_${opt.name}`;
  const title = opt.help || opt.name;
  if (opt.type === "bool") {
    return el("label", { class: "check", title }, el("input", { type: "checkbox", name, checked: !!opt.default }), ` ${opt.name}`);
  }
  let input;
  if (opt.choices) {
    input = el("select", { name }, opt.choices.map((c) => el("option", { value: c, selected: c === opt.default }, String(c))));
    if (opt.allow_none) input.append(el("option", { value: "none", selected: opt.default === null }, "none"));
  } else if ((opt.type === "int" || opt.type === "float") && !opt.allow_none) {
    input = el("input", { type: "number", name, value: opt.default ?? "", min: opt.minimum ?? undefined,
      max: opt.maximum ?? undefined, step: opt.type === "int" ? 1 : "any" });
  } else {
    input = el("input", { name, value: opt.default === null ? "none" : opt.default ?? "" });
  }
  return el("label", { title }, `${opt.name} `, input, opt.help ? el("small", { class: "help" }, opt.help) : null);
}

function seatRow(i, players) {
  const select = el("select", { name: `seat_${i}`, "data-seat": i },
    el("option", { value: "me", selected: i === 0 }, "me"),
    el("option", { value: "invite", selected: i !== 0 }, "a friend (invite link)"),
    // Only the agents that declare they play this game with this many players.
    registry.agents.filter((a) => gameSpec().agents.includes(a.name) && (!a.players || a.players.includes(players)))
      .map((a) => el("option", { value: `bot:${a.name}`, title: a.description }, `bot: ${a.name}`)));
  const time = el("input", { type: "number", name: `seat_time_${i}`, min: "0.05", max: "60", step: "any", value: "1",
    title: "bot seconds per move", class: "bot-time" });
  return el("div", { class: "seat-row" }, el("span", {}, `Seat ${i + 1}${players > 1 ? "" : ""}`), select,
    el("label", { class: "bot-only" }, "s/move ", time));
}

function renderForm() {
  const spec = gameSpec();
  if (!spec) return;
  // the reference pictures a game declares (capabilities.pictures), e.g. a tile gallery
  const pictures = (spec.capabilities && spec.capabilities.pictures) || [];
  $("game-description").replaceChildren(spec.description || "", ...pictures.map((name) => el("a", {
    href: `/api/specs/${encodeURIComponent(spec.id)}/pictures/${encodeURIComponent(name)}`,
    target: "_blank", class: "picture-link",
  }, ` [${name}]`)));
  const players = $("players-select");
  players.replaceChildren(...spec.players.map((n) => el("option", { value: n }, String(n))));
  const options = $("options");
  options.replaceChildren(el("legend", {}, "Options"), ...spec.options.map(optionInput));
  options.hidden = spec.options.length === 0;
  renderSeats();
}

function renderSeats() {
  const n = Number($("players-select").value);
  $("seats").replaceChildren(el("legend", {}, "Seats"), ...Array.from({ length: n }, (_, i) => seatRow(i, n)));
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
    const created = await api("POST", "/api/games", body);
    const mine = created.seats.filter((s) => s.joined);
    const invites = created.seats.filter((s) => !s.joined).map((s) => ({ seat: s.seat, invite: s.invite }));
    const first = mine[0];
    rememberSeat(created.id, first ? first.seat : null, first ? first.token : null,
      { invites, seats: mine.map((s) => ({ seat: s.seat, token: s.token })), title: created.state.title });
    location.href = `/g/${created.id}`;
  } catch (err) {
    $("create-error").textContent = err.message;
  }
}

function describeGame(g) {
  const seats = g.seats.map((s) => `${s.name}${s.joined ? "" : " (free)"}`).join(" · ");
  const status = g.status === "over" ? (g.result ? `${g.result.text} — ${g.result.reason}` : "over")
    : g.status === "open" ? "waiting for players" : `ply ${g.ply}`;
  return `${g.title}: ${seats} — ${status}`;
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
    el("a", { href: `/g/${g.id}` }, g.status === "over" ? "view" : "play"),
    g.status === "over" ? el("a", { href: `/replay/${g.id}` }, "replay") : null])));
  $("open-games").replaceChildren(...open.games.filter((g) => !mine[g.id]).map((g) => gameItem(g,
    g.seats.filter((s) => s.kind === "human" && !s.joined).map((s) =>
      el("button", { type: "button", class: "join", onclick: () => join(g.id, s.seat) }, `join as seat ${s.seat + 1}`)))));
  $("recent-games").replaceChildren(...recent.games.map((g) => gameItem(g, [el("a", { href: `/replay/${g.id}` }, "replay")])));
}

async function join(gameId, seat) {
  try {
    const joined = await api("POST", `/api/games/${gameId}/join`, { seat, name: $("my-name").value.trim() || null });
    rememberSeat(gameId, joined.seat, joined.token);
    location.href = `/g/${gameId}`;
  } catch (err) {
    alert(err.message);
  }
}

async function main() {
  $("my-name").value = myName();
  registry = await api("GET", "/api/specs");
  const byFamily = {};
  for (const g of registry.games) (byFamily[g.family] ||= []).push(g);
  $("game-select").replaceChildren(...Object.entries(byFamily).map(([family, games]) =>
    el("optgroup", { label: family }, games.map((g) => el("option", { value: g.id }, `${g.title}`)))));
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
  renderForm();
  await refreshLists();
  setInterval(refreshLists, 5000);
}

main();
