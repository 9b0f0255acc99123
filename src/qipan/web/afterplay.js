// The game page's end-of-game and absent-player controls: a rematch (offer, accept, then
// on to the new game with this browser's new seat) and, while the game is on, the grace
// period after which an absent opponent counts as gone (claim the win or a draw).
import { api, el, every, rememberSeat } from "./api.js";
import { t, translateError } from "./i18n.js";
import { refreshHeader } from "./account.js";

const POLL_MS = 2000;
let timer = null;
let current = { gameId: null, state: null, token: null, seat: null };

async function call(method, path, body) {
  return api(method, path, body, current.token);
}

function box() { return document.getElementById("afterplay"); }

// Redrawn only when what it shows changes: a button replaced every poll could not be clicked.
let shown = null;
function changed(what) {
  const key = JSON.stringify(what);
  if (key === shown) return false;
  shown = key;
  return true;
}

async function refresh() {
  const { gameId, state, token, seat } = current;
  if (!state || token === null) { shown = null; box().replaceChildren(); return; }
  try {
    if (state.status === "over") await showRematch(gameId, seat);
    else if (state.status === "active") await showPresence(gameId, state, seat);
    else { shown = null; box().replaceChildren(); }
  } catch (err) { shown = null; box().replaceChildren(el("p", { class: "error" }, translateError(err.message))); }
}

async function showRematch(gameId, seat) {
  const r = await call("GET", `/api/games/${gameId}/rematch`);
  if (!changed(["rematch", seat, r])) return;
  if (r.game && r.token) {
    rememberSeat(r.game, r.seat, r.token);
    box().replaceChildren(el("a", { href: `/g/${r.game}`, id: "rematch-link", class: "your-turn" }, t("game.rematch_ready")));
    if (r.offered.includes(seat)) location.href = `/g/${r.game}`;
    return;
  }
  const mine = r.offered.includes(seat);
  const theirs = r.offered.some((s) => s !== seat);
  const offer = async () => {
    try {
      const out = await call("POST", `/api/games/${gameId}/rematch`, { action: "offer" });
      if (out.game) { rememberSeat(out.game, out.seat, out.token); location.href = `/g/${out.game}`; return; }
      refresh();
    } catch (err) { box().append(el("p", { class: "error" }, translateError(err.message))); }
  };
  box().replaceChildren(
    mine ? el("p", { id: "rematch-status" }, t("game.rematch_offered")) : el("button", { type: "button", id: "rematch", onclick: offer },
      theirs ? t("game.rematch_accept") : t("game.rematch_offer")),
    theirs && !mine ? el("p", { id: "rematch-status" }, t("game.rematch_asked")) : null);
}

async function showPresence(gameId, state, seat) {
  const p = await call("GET", `/api/games/${gameId}/presence`);
  // What is shown: whole seconds while a player is away, then "gone" (the buttons), which must
  // not look like the last whole second of the countdown (2.6 s and 3.4 s both round to 3).
  const view = Object.fromEntries(Object.entries(p.gone).map(([s, v]) => [s, v >= (p.grace ?? 0) ? "gone" : Math.round(v)]));
  if (!changed(["presence", seat, p.grace, view])) return;
  if (p.grace === null) { box().replaceChildren(); return; }
  const nodes = [el("p", { class: "help", id: "grace" }, t("game.grace", { n: Math.round(p.grace) }))];
  const gone = Object.entries(p.gone).filter(([s]) => Number(s) !== seat);
  for (const [s, seconds] of gone) {
    const name = state.seats[Number(s)].name;
    if (seconds < p.grace) {
      nodes.push(el("p", {}, t("game.gone_for", { name, n: Math.round(seconds), left: Math.ceil(p.grace - seconds) })));
    } else if (state.seats.length === 2) {
      const claim = (action) => call("POST", `/api/games/${gameId}/abandoned`, { action }).catch((err) =>
        box().append(el("p", { class: "error" }, translateError(err.message))));
      nodes.push(el("p", {}, t("game.gone", { name })),
        el("button", { type: "button", id: "claim-win", onclick: () => claim("win") }, t("game.claim_win")),
        el("button", { type: "button", id: "claim-draw", onclick: () => claim("draw") }, t("game.claim_draw")));
    }
  }
  box().replaceChildren(...nodes);
}

/** Called by the game page after every state it draws. */
export function renderAfterplay(gameId, state, tokens) {
  const seats = Object.keys(tokens).map(Number);
  const before = current.state?.status;
  current = { gameId, state, token: seats.length ? tokens[seats[0]] : null, seat: seats.length ? seats[0] : null };
  if (!timer) timer = every(POLL_MS, refresh);
  if (before !== state.status) {
    refresh();
    if (before) refreshHeader();  // the list of games waiting for you changes with this one
  }
}
