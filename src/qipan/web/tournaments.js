// /tournaments: the events (upcoming, running, finished) and a form to create one;
// /t/<id>: one event, its standings and games, brought up to date every few seconds.
import { api, el, every } from "./api.js";
import { siteApi, whoami } from "./account.js";
import { familyName, gameName, t, translateError } from "./i18n.js";
import { TIME_CONTROLS, controlLabel } from "./time-controls.js";

const $ = (id) => document.getElementById(id);
const KINDS = ["arena", "swiss", "round_robin"];
const LIVE = TIME_CONTROLS.filter((tc) => !tc.days);
const eventId = location.pathname.startsWith("/t/") ? decodeURIComponent(location.pathname.split("/")[2]) : null;
let registry = { games: [] };
let account = null;

function when(seconds) { return new Date(seconds * 1000).toLocaleString(); }

function terms(e) {
  const clock = e.clock ? `${e.clock.initial / 60}+${e.clock.increment}` : t("lobby.untimed");
  const length = e.kind === "arena" ? t("tournament.arena_minutes", { n: e.minutes })
    : e.kind === "swiss" ? t("tournament.swiss_rounds", { n: e.rounds }) : t("tournament.kind.round_robin");
  return `${t(`tournament.kind.${e.kind}`)} · ${gameName(e.game, e.game)} · ${clock} · ${length} · ${e.rated ? t("lobby.rated") : t("lobby.casual")}`;
}

function status(e) {
  if (e.status === "scheduled") return t("tournament.starts_at", { time: when(e.starts) });
  if (e.status === "running") {
    return e.kind === "arena" ? t("tournament.ends_at", { time: when(e.starts + e.minutes * 60) })
      : t("tournament.round_of", { n: e.round, total: e.kind === "swiss" ? e.rounds : e.entrants.length - 1 + (e.entrants.length % 2) });
  }
  return t("tournament.finished");
}

// -- the list and the form ---------------------------------------------------------------
async function showList() {
  const { tournaments } = await api("GET", "/api/tournaments");
  $("event-list").replaceChildren(...tournaments.map((e) => el("li", {},
    el("a", { href: `/t/${e.id}` }, e.name), ` — ${terms(e)} · ${status(e)} · ${t("tournament.entrants", { n: e.entrants })}`)));
  if (!tournaments.length) $("event-list").replaceChildren(el("li", {}, t("tournament.none")));
}

function setUpForm() {
  $("event-kind").replaceChildren(...KINDS.map((k) => el("option", { value: k }, t(`tournament.kind.${k}`))));
  const games = registry.games.filter((g) => g.players.some((n) => n >= 2));
  const byFamily = {};
  for (const g of games) (byFamily[g.family] ||= []).push(g);
  $("event-game").replaceChildren(...Object.entries(byFamily).map(([family, list]) =>
    el("optgroup", { label: familyName(family) }, list.map((g) => el("option", { value: g.id }, gameName(g.id, g.title))))));
  $("event-control").replaceChildren(...LIVE.map((tc, i) => el("option", { value: i }, controlLabel(tc))));
  $("event-control").value = "2";
  const kindChanged = () => {
    const kind = $("event-kind").value;
    $("event-kind-help").textContent = t(`tournament.kind_help.${kind}`);
    for (const node of document.querySelectorAll(".arena-only")) node.hidden = kind !== "arena";
    for (const node of document.querySelectorAll(".swiss-only")) node.hidden = kind !== "swiss";
  };
  $("event-kind").addEventListener("change", kindChanged);
  kindChanged();
  $("event-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const f = new FormData(event.target);
    const kind = f.get("kind");
    const body = {
      name: f.get("name"), kind, game: f.get("game"), clock: LIVE[Number(f.get("control"))].clock,
      starts: Date.now() / 1000 + Number(f.get("starts_in")) * 60 + 2, max_entrants: Number(f.get("max_entrants")),
      rated: f.get("rated") === "on", bots_allowed: f.get("bots_allowed") === "on",
      berserk: kind === "arena" && f.get("berserk") === "on",
    };
    if (kind === "arena") body.minutes = Number(f.get("minutes"));
    if (kind === "swiss") body.rounds = Number(f.get("rounds"));
    try {
      const { id } = await siteApi("POST", "/api/tournaments", body);
      location.href = `/t/${id}`;
    } catch (err) { $("event-form-error").textContent = translateError(err.message); }
  });
}

// -- one event ---------------------------------------------------------------------------
async function act(path, body) {
  $("event-error").textContent = "";
  try { await siteApi("POST", `/api/tournaments/${eventId}/${path}`, body); await showEvent(); } catch (err) {
    $("event-error").textContent = translateError(err.message);
  }
}

function tieBreaks(kind, r) {
  if (kind === "arena") return `${t("tournament.wins", { n: r.wins })}${r.fire ? " 🔥" : ""}`;
  if (kind === "swiss") return `${t("tournament.buchholz")} ${r.buchholz} · ${t("tournament.sonneborn_berger")} ${r.sonneborn_berger}`;
  return `${t("tournament.sonneborn_berger")} ${r.sonneborn_berger} · ${t("tournament.wins", { n: r.wins })}`;
}

async function showEvent() {
  let e;
  try { e = await api("GET", `/api/tournaments/${eventId}`); } catch (err) {
    $("event-error").textContent = translateError(err.message);
    return;
  }
  $("event").hidden = false;
  $("event-name").textContent = e.name;
  document.title = `qipan — ${e.name}`;
  $("event-terms").textContent = terms(e);
  $("event-status").textContent = status(e);
  $("event-status").dataset.status = e.status;
  const open = e.status === "scheduled" || (e.status === "running" && e.kind === "arena");
  $("event-join").hidden = !account || e.you !== null || !open;
  $("event-withdraw").hidden = !account || e.you === null || e.status === "finished"
    || e.entrants.find((x) => x.number === e.you)?.withdrawn;
  const creator = account && e.bots_allowed && open;
  $("event-add-bot").hidden = !creator;
  $("event-bot-label").hidden = !creator;
  $("tie-break-help").textContent = t(`tournament.tie_break_help.${e.kind}`);
  $("standings").querySelector("tbody").replaceChildren(...e.standings.map((r) => el("tr", { "data-number": r.number },
    el("td", { class: "num" }, String(r.rank)),
    el("td", {}, r.bot ? `${t("tournament.bot", { name: r.name })}` : el("a", { href: `/u/${encodeURIComponent(r.name)}` }, r.name),
      r.withdrawn ? ` (${t("tournament.withdrawn")})` : ""),
    el("td", { class: "num" }, String(r.points)), el("td", {}, tieBreaks(e.kind, r)),
    el("td", { class: "num" }, String(r.games)))));
  const games = [...e.games].reverse();
  $("event-games").replaceChildren(...games.map((g) => el("li", {},
    `${e.kind === "arena" ? "" : `${t("tournament.round", { n: g.round })}: `}${g.names.join(" – ")}`,
    g.game_id ? " " : ` (${t("tournament.bye")})`,
    g.scores && g.game_id ? `${g.scores.join(" – ")} ` : "",
    g.game_id ? el("a", { href: g.scores ? `/replay/${g.game_id}` : `/g/${g.game_id}` }, g.scores ? t("lobby.replay") : t("lobby.watch")) : "")));
  const mine = e.you && e.games.find((g) => !g.scores && g.game_id && g.entrants.includes(e.you));
  $("event-your-game").replaceChildren(...(mine ? [el("a", { href: `/g/${mine.game_id}`, class: "your-turn" }, t("tournament.your_game")),
    e.berserk && !mine.berserk.length ? el("button", { type: "button", id: "berserk",
      onclick: () => act("berserk", { game: mine.game_id }) }, t("tournament.berserk")) : null] : []));
}

async function main() {
  const me = await whoami();
  account = me.account;
  registry = await api("GET", "/api/specs");
  $("event-bot-level").replaceChildren(...[1, 2, 3, 4, 5, 6, 7, 8].map((n) => el("option", { value: n }, t("lobby.level", { n }))));
  $("event-join").addEventListener("click", () => act("join"));
  $("event-withdraw").addEventListener("click", () => act("withdraw"));
  $("event-add-bot").addEventListener("click", () => act("bots", { level: Number($("event-bot-level").value) }));
  if (eventId) {
    $("events").hidden = true;
    await showEvent();
    every(2000, showEvent);  // live: pairings, results, standings
  } else {
    setUpForm();
    await showList();
    every(10000, showList);
    if (!account) $("new-event").hidden = true;
  }
}

main();
