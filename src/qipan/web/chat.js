// Chat on the game page: the players' room and the spectators' room, as text only (messages
// are inserted as text nodes, never as HTML). Polled, so it works with any server process.
import { api, el, every, mySeats } from "./api.js";
import { loadAccountSeats, siteApi, whoami } from "./account.js";
import { t, translateError } from "./i18n.js";

const gameId = location.pathname.split("/")[2];
const $ = (id) => document.getElementById(id);
let room = null;
let lastId = 0;
let me = null;

function myToken() {
  const info = mySeats()[gameId];
  return info ? info.token || (info.seats || [])[0]?.token || null : null;
}

async function request(method, path, body) {
  const token = myToken();
  if (!token || room === "spectators") return siteApi(method, path, body);
  return api(method, path, body, token);  // players use their seat token (no cookie or CSRF token)
}

function panel() {
  const tab = (name, label) => el("button", { type: "button", id: `chat-tab-${name}`, "data-room": name,
    "aria-selected": "false", onclick: () => show(name) }, label);
  return el("section", { class: "chat", id: "chat" },
    el("h3", {}, t("game.chat")),
    el("div", { class: "tabs", role: "tablist" }, tab("players", t("game.chat_players")), tab("spectators", t("game.chat_spectators"))),
    el("ol", { id: "chat-messages", "aria-live": "polite" }),
    el("form", { id: "chat-form", onsubmit: send },
      el("input", { id: "chat-input", maxlength: "300", autocomplete: "off", placeholder: t("game.chat_placeholder"), "aria-label": t("game.chat_label") }),
      el("button", { type: "submit", id: "chat-send" }, t("game.chat_send"))),
    el("p", { class: "error", id: "chat-error", role: "alert" }));
}

function line(m) {
  const mine = me && me.account && m.name === me.account.username;
  const mute = me && me.account && !mine ? el("button", { type: "button", class: "mute", title: t("game.chat_mute_who", { name: m.name }),
    onclick: () => mute(m.name) }, t("game.chat_mute")) : null;
  return el("li", { "data-id": m.id }, el("span", { class: "who" }, m.name), el("span", { class: "text" }, m.text), mute);
}

function gameOver() {
  return location.pathname.startsWith("/replay/") || document.getElementById("status")?.dataset.status === "over";
}

async function poll() {
  if (!room) return;
  // Spectators see the players' room once the game is over, on the live page too (the game
  // may end, or its state arrive, after this panel was made).
  if (gameOver()) $("chat-tab-players").hidden = false;
  try {
    const { messages } = await request("GET", `/api/games/${gameId}/chat?room=${room}&after=${lastId}`);
    const list = $("chat-messages");
    for (const m of messages) { list.append(line(m)); lastId = Math.max(lastId, m.id); }
    if (messages.length) list.scrollTop = list.scrollHeight;
    if ($("chat-error").dataset.unreachable) { $("chat-error").textContent = ""; delete $("chat-error").dataset.unreachable; }
  } catch (err) {
    if (err.unreachable) {  // the server is down: say so, keep the room, poll again
      $("chat-error").textContent = t("game.unreachable");
      $("chat-error").dataset.unreachable = "1";
    } else if (room === "players" && err.status === 403) {  // not a player of this game
      $("chat-tab-players").hidden = true;
      show("spectators");
    } else $("chat-error").textContent = translateError(err.message);
  }
}

function show(name) {
  room = name;
  lastId = 0;
  $("chat-messages").replaceChildren();
  for (const r of ["players", "spectators"]) $(`chat-tab-${r}`).setAttribute("aria-selected", String(r === name));
  const canWrite = name === "players" ? !!myToken() || !!(me && me.account) : !!(me && me.account);
  $("chat-form").hidden = !canWrite;
  $("chat-error").textContent = "";
  if (!canWrite && name === "spectators") {
    $("chat-error").replaceChildren(t("game.chat_login_first"),
      el("a", { href: `/account?next=${encodeURIComponent(location.pathname)}` }, t("game.chat_login")));
  }
  poll();
}

async function send(event) {
  event.preventDefault();
  const input = $("chat-input");
  const text = input.value.trim();
  if (!text) return;
  $("chat-error").textContent = "";
  try {
    await request("POST", `/api/games/${gameId}/chat`, { room, text });
    input.value = "";
    poll();
  } catch (err) { $("chat-error").textContent = translateError(err.message); }
}

async function mute(name) {
  try {
    await siteApi("POST", "/api/account/mutes", { username: name });
    show(room);
  } catch (err) { $("chat-error").textContent = translateError(err.message); }
}

async function main() {
  me = await whoami();
  await loadAccountSeats(gameId);
  const side = document.querySelector(".side");
  if (!side) return;
  side.append(panel());
  // Spectators see the players' room only once the game is over (the replay shows it).
  $("chat-tab-players").hidden = !myToken() && !gameOver();
  show(myToken() ? "players" : "spectators");
  every(2000, poll);
}

main();
