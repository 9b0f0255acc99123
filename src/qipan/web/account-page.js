// /account: log in or sign up; for an account: its games, password change, muted players.
import { el } from "./api.js";
import { resultFor, siteApi, whoami } from "./account.js";
import { gameName, t, translateError } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const next = new URLSearchParams(location.search).get("next") || "/";

async function send(form, path, errorId, extra = {}) {
  $(errorId).textContent = "";
  try {
    await siteApi("POST", path, { username: form.username.value.trim(), password: form.password.value, ...extra });
    location.href = next.startsWith("/") ? next : "/";
  } catch (err) { $(errorId).textContent = translateError(err.message); }
}

function describe(g) {
  const opponent = g.seats.filter((s) => !g.my_seats.includes(s.seat)).map((s) => s.name).join(", ");
  const terms = g.terms ? ` · ${g.terms.rated ? t("lobby.rated") : t("lobby.casual")} ${t(`time_class.${g.terms.time_class}`)}` : "";
  return `${t("lobby.versus", { game: gameName(g.game, g.title), opponents: opponent || "—" })}${terms} — ${resultFor(g)}`
    + (g.result ? ` (${translateError(g.result.text)})` : "");
}

async function member(data) {
  $("member").hidden = false;
  $("member-title").textContent = t("account.title_named", { name: data.account.username });
  $("profile-link").href = `/u/${encodeURIComponent(data.account.username)}`;
  const { games } = await siteApi("GET", "/api/account/games");
  $("account-games").replaceChildren(...games.map((g) => el("li", { class: g.your_turn ? "yours" : "" },
    el("span", {}, describe(g)), el("a", { href: g.status === "over" ? `/replay/${g.id}` : `/g/${g.id}` },
      g.status === "over" ? t("lobby.replay") : t("lobby.play")))));
  await showMuted((await siteApi("GET", "/api/account/mutes")).muted);
  $("password-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    $("password-error").textContent = $("password-done").textContent = "";
    try {
      await siteApi("POST", "/api/account/password", { old: e.target.old.value, new: e.target.new.value });
      $("password-done").textContent = t("account.password_changed");
      e.target.reset();
    } catch (err) { $("password-error").textContent = translateError(err.message); }
  });
  $("mute-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    $("mute-error").textContent = "";
    try {
      await showMuted((await siteApi("POST", "/api/account/mutes", { username: e.target.username.value.trim() })).muted);
      e.target.reset();
    } catch (err) { $("mute-error").textContent = translateError(err.message); }
  });
}

async function showMuted(names) {
  $("muted").replaceChildren(...names.map((name) => el("li", {}, el("span", {}, name),
    el("button", { type: "button", onclick: async () =>
      showMuted((await siteApi("POST", "/api/account/mutes", { username: name, muted: false })).muted) }, t("account.unmute")))));
}

async function main() {
  const data = await whoami();
  if (data.account) { await member(data); return; }
  $("guest-login").hidden = $("guest-signup").hidden = false;
  $("login-form").addEventListener("submit", (e) => { e.preventDefault(); send(e.target, "/api/account/login", "login-error"); });
  $("signup-form").addEventListener("submit", (e) => {
    e.preventDefault();
    if (e.target.password.value !== e.target.again.value) { $("signup-error").textContent = t("account.passwords_differ"); return; }
    send(e.target, "/api/account/signup", "signup-error");
  });
}

main();
