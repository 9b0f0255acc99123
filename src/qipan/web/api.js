// Talking to the server, and remembering this browser's seats (tokens) in localStorage.

// A server that cannot be reached is told apart from one that refused (ServerUnreachable,
// and a "qipan:reachable" event with detail true/false when that changes), so a page can
// show a banner and try again instead of the browser's "Failed to fetch".
export class ServerUnreachable extends Error {
  constructor() { super("server unreachable"); this.name = "ServerUnreachable"; this.unreachable = true; }
}

let reachable = true;
export function setReachable(value) {
  if (value === reachable) return;
  reachable = value;
  window.dispatchEvent(new CustomEvent("qipan:reachable", { detail: value }));
}

// Every request of the front end goes through here. ``token``: a seat's bearer token;
// ``extra``: more headers (an account's CSRF token). The session cookie goes along.
export async function api(method, path, body, token, extra = {}) {
  const headers = { "Content-Type": "application/json", ...extra };
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { method, headers, credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    setReachable(false);
    throw new ServerUnreachable();
  }
  if (response.status === 502 || response.status === 503 || response.status === 504) {
    setReachable(false);  // a proxy in front of a server that is down
    throw new ServerUnreachable();
  }
  setReachable(true);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(data.error || `${response.status} ${response.statusText}`);
    error.status = response.status;
    throw error;
  }
  return data;
}

// Run ``fn`` every ``ms`` milliseconds, surviving an outage: a failed round is reported (an
// unreachable server by the banner api() raises) and the next round tries again.
export function every(ms, fn) {
  const round = () => Promise.resolve().then(fn).catch((err) => { if (!err.unreachable) console.warn(err); });
  return setInterval(round, ms);
}

const SEATS = "qipan.seats";

export function mySeats() {
  try { return JSON.parse(localStorage.getItem(SEATS)) || {}; } catch { return {}; }
}

export function rememberSeat(gameId, seat, token, extra = {}) {
  const all = mySeats();
  all[gameId] = { ...(all[gameId] || {}), seat, token, ...extra, at: Date.now() };
  localStorage.setItem(SEATS, JSON.stringify(all));
}

export function myName() { return localStorage.getItem("qipan.name") || ""; }
export function setMyName(name) { localStorage.setItem("qipan.name", name); }

export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

export function formatSeconds(s) {
  s = Math.max(0, s);
  if (s < 10) return s.toFixed(1);
  // Correspondence clocks run for days.
  if (s >= 86400) return `${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h`;
  if (s >= 3600) return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
  const m = Math.floor(s / 60), r = Math.floor(s % 60);
  return `${m}:${String(r).padStart(2, "0")}`;
}
