// The signed-in account on every page: the header (log in / your name, "your turn" count,
// log out), requests that carry the session's CSRF token, and the seats an account owns.
import { api, el, every, mySeats, rememberSeat } from "./api.js";
import { languageSwitch, t } from "./i18n.js";
import { showNotices } from "./notices.js";

let me = null;          // {account, csrf, your_turn} once loaded
let loading = null;

export function whoami(refresh = false) {
  if (!loading || refresh) {
    loading = api("GET", "/api/account/me")
      .catch(() => ({ account: null }))
      .then((data) => { me = data; return data; });
  }
  return loading;
}

// A request with the session cookie and the CSRF token (for every change an account makes).
export async function siteApi(method, path, body) {
  return api(method, path, body, undefined, me && me.csrf ? { "X-CSRF-Token": me.csrf } : {});
}

// The seats this account owns in a game (from any device) become this browser's too.
export async function loadAccountSeats(gameId) {
  const data = await whoami();
  if (!data.account) return;
  try {
    const { seats } = await siteApi("GET", `/api/account/games/${gameId}/seats`);
    if (!seats.length) return;
    const held = mySeats()[gameId] || {};
    const all = [...(held.seats || []), ...seats].filter((s, i, list) => list.findIndex((t) => t.seat === s.seat) === i);
    const first = held.token ? { seat: held.seat, token: held.token } : seats[0];
    rememberSeat(gameId, first.seat, first.token, { seats: all, linked: true });
  } catch { /* an unknown game: the page says so */ }
}

// Seats this browser holds as a guest join the account once it is signed in.
async function linkGuestSeats() {
  const all = mySeats();
  for (const [gameId, info] of Object.entries(all)) {
    if (info.linked) continue;
    const tokens = [info.token, ...(info.seats || []).map((s) => s.token)].filter(Boolean);
    for (const token of new Set(tokens)) {
      try { await siteApi("POST", "/api/account/seats", { game: gameId, token }); } catch { /* taken or gone */ }
    }
    rememberSeat(gameId, info.seat, info.token, { linked: true });
  }
}

// The header's language switch: one element, kept when the account links are redrawn.
let switcher = null;

function renderHeader(data) {
  const bar = document.querySelector("header.bar");
  if (!bar) return;
  let nav = document.getElementById("account-nav");
  if (!nav) { nav = el("nav", { id: "account-nav", class: "account-nav" }); bar.append(nav); }
  switcher ||= languageSwitch();
  if (!data.account) {
    nav.replaceChildren(el("a", { href: "/account", id: "login-link" }, t("account.login_signup")), switcher);
    return;
  }
  const waiting = data.waiting || [];
  const list = showNotices(waiting);
  nav.replaceChildren(...[
    waiting.length ? list : null,
    el("a", { href: `/u/${encodeURIComponent(data.account.username)}`, id: "me-link" }, data.account.username),
    el("a", { href: "/account" }, t("account.account")),
    el("button", { type: "button", id: "logout", class: "link", onclick: logout }, t("account.logout")), switcher].filter(Boolean));
}

// "won", "lost", "draw" or the state of a game (in the page's language), for the account
// holding ``g.my_seats``.
export function resultFor(g) {
  if (g.status !== "over" || !g.result) {
    return g.your_turn ? t("lobby.your_turn") : g.status === "active" ? t("account.playing") : t(`status.${g.status}`);
  }
  if (!g.result.winners.length || g.result.winners.length === g.players) return t("account.draw");
  return g.my_seats.some((s) => g.result.winners.includes(s)) ? t("account.won") : t("account.lost");
}

/** Ask the server again now (a game of this page just ended or started). */
export async function refreshHeader() { renderHeader(await whoami(true)); }

export async function logout() {
  try { await siteApi("POST", "/api/account/logout"); } catch { /* already out */ }
  location.href = "/";
}

async function init() {
  const data = await whoami();
  renderHeader(data);
  if (data.account) {
    linkGuestSeats();
    // The "your turn" marker follows correspondence and live games without a reload.
    const refresh = async () => renderHeader(await whoami(true));
    every(10000, refresh);
    window.addEventListener("focus", refresh);
  }
}

init();
