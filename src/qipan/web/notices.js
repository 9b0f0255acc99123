// "Your turn" on every page: the tab's title and icon, the list of the account's games
// waiting for it, and (once asked for, off by default) a browser notification when a
// correspondence or tournament game needs the player while the page is in the background.
import { el } from "./api.js";
import { gameName, t } from "./i18n.js";

const ASKED = "qipan.notify";
const ON = "1";  // the stored choice (asked once)
const DOT = "data:image/svg+xml," + encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#d32f2f"/></svg>');
let count = 0;
let known = null;         // the waiting game ids at the last look (null: none yet)
let observer = null;

function icon() {
  let link = document.querySelector("link[rel~='icon']");
  if (!link) { link = el("link", { rel: "icon" }); document.head.append(link); }
  return link;
}

function prefix() { return count ? `(${count}) ${t("notice.your_turn")} · ` : ""; }

function applyTitle() {
  const bare = document.title.replace(/^\(\d+\) [^·]* · /, "");
  const wanted = prefix() + bare;
  if (document.title !== wanted) document.title = wanted;
}

export function notificationsOn() {
  return typeof Notification !== "undefined" && Notification.permission === "granted" && localStorage.getItem(ASKED) === ON;
}

async function askOnce() {
  if (typeof Notification === "undefined") return;
  localStorage.setItem(ASKED, ON);
  if (Notification.permission === "default") await Notification.requestPermission();
}

function notify(waiting) {
  if (!notificationsOn() || !document.hidden || known === null) return;
  for (const g of waiting) {
    if (known.has(g.id) || !(g.correspondence || g.tournament)) continue;
    const note = new Notification(t("notice.your_turn"), { body: gameName(g.game, g.game), tag: g.id });
    note.onclick = () => { window.focus(); location.href = `/g/${g.id}`; };
  }
}

/** The account's waiting games (GET /api/account/me's ``waiting``): title, icon, list. */
export function showNotices(waiting) {
  notify(waiting);
  known = new Set(waiting.map((g) => g.id));
  count = waiting.length;
  icon().href = count ? DOT : "data:,";
  document.documentElement.dataset.yourTurn = String(count);
  if (!observer) {
    const title = document.querySelector("title") || document.head.appendChild(el("title"));
    observer = new MutationObserver(applyTitle);
    observer.observe(title, { childList: true, characterData: true, subtree: true });
  }
  applyTitle();
  const here = location.pathname.split("/")[2];
  return el("details", { id: "waiting", class: "waiting" },
    el("summary", { id: "your-turn", class: "badge", title: t("account.your_turn_help") }, t("account.your_turn_count", { n: count })),
    el("ul", {}, waiting.map((g) => el("li", {}, el("a", { href: `/g/${g.id}`, class: g.id === here ? "here" : "" },
      gameName(g.game, g.game), g.tournament ? ` · ${t("notice.tournament")}` : g.correspondence ? ` · ${t("notice.correspondence")}` : "")))),
    typeof Notification !== "undefined" && !notificationsOn()
      ? el("button", { type: "button", id: "notify-on", class: "link", onclick: askOnce }, t("notice.turn_on")) : null);
}

/** No waiting games: the plain title and icon. */
export function clearNotices() { showNotices([]); }
