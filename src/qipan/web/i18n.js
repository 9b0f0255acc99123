// Translation for every page: English and Traditional Chinese.
//
// The server merges every catalogue locales/<area>.<lang>.json into one flat table
// (GET /api/i18n). The language is the one this browser chose with the switch (kept in
// localStorage), else the server's pick from the browser's Accept-Language. The table is
// loaded before any module that imports this one runs (top-level await), so t() is
// synchronous everywhere.
//
//   t("lobby.new_game")                       -> "New game" / "新對局"
//   t("lobby.waiting", { game: "Pente" })     -> {game} replaced by the parameter
//   <h2 data-i18n="lobby.new_game">New game</h2>           text replaced on load
//   <input data-i18n-attr="placeholder:lobby.anonymous">   attributes too (name:key;name:key)

import { api } from "./api.js";

export const LANGUAGES = { en: "English", "zh-TW": "繁體中文" };
const SAVED = "qipan.lang";

function saved() {
  try {
    const lang = localStorage.getItem(SAVED);
    return lang in LANGUAGES ? lang : null;
  } catch { return null; }
}

async function load() {
  const chosen = saved();
  try {
    return await api("GET", chosen ? `/api/i18n?lang=${encodeURIComponent(chosen)}` : "/api/i18n");
  } catch { /* the server is unreachable or refused: keys fall back to themselves */ }
  return { lang: chosen || "en", messages: {}, errors: [] };
}

const loaded = await load();
const messages = loaded.messages || {};
const language = loaded.lang in LANGUAGES ? loaded.lang : "en";
// Engine and server messages (English) -> keys: [{ key, pattern, names }] built from the
// English templates of the "error." keys, so a template is written once.
const errorPatterns = (loaded.errors || []).map(({ key, template }) => compileTemplate(key, template));
// The texts the games draw in their pictures: the "picture." templates with the errors' ones.
const picturePatterns = (loaded.pictures || []).map(({ key, template }) => compileTemplate(key, template));

export function currentLanguage() { return language; }

/** Remember the choice for this browser and show the page again in that language. */
export function setLanguage(lang) {
  if (!(lang in LANGUAGES)) throw new Error(`unknown language ${lang}: one of ${Object.keys(LANGUAGES).join(", ")}`);
  localStorage.setItem(SAVED, lang);
  if (lang !== language) location.reload();
}

export function has(key) { return Object.prototype.hasOwnProperty.call(messages, key); }

/** The message for a key with {name} replaced by params.name; a missing key shows itself. */
export function t(key, params = {}) {
  if (!has(key)) {
    console.warn(`i18n: no message for ${key}`);
    return key;
  }
  return fill(messages[key], params);
}

function fill(template, params) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** A game or preset's name as the seeds give it ("preset.<id>"), else the registry's title. */
export function gameName(id, fallback) { return has(`preset.${id}`) ? t(`preset.${id}`) : fallback ?? id; }

/** A game family's name ("family.<family>"), else the family id. */
export function familyName(family) { return has(`family.${family}`) ? t(`family.${family}`) : family; }

function compileTemplate(key, template) {
  const names = [];
  const escaped = template.split(/(\{\w+\})/).map((part) => {
    const m = part.match(/^\{(\w+)\}$/);
    if (m) { names.push(m[1]); return "(.+?)"; }
    return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  });
  return { key, names, pattern: new RegExp(`^${escaped.join("")}$`, "s") };
}

/** An English message from the rules or the server in the current language: the first
 * "error." template that matches gives the key, its {names} the parameters (themselves
 * translated when they are messages too, such as a game-over reason). Unknown messages
 * are shown as they are. */
export function translateError(message) { return byTemplates(String(message ?? ""), errorPatterns) ?? String(message ?? ""); }

// The first template that matches gives the key, its {names} the parameters (translated
// by the same templates where they match); null when none matches (as i18n.translate).
function byTemplates(text, patterns) {
  if (language === "en") return text;
  for (const { key, names, pattern } of patterns) {
    const m = text.match(pattern);
    if (!m) continue;
    const params = {};
    names.forEach((name, i) => { params[name] = byTemplates(m[i + 1], patterns) ?? m[i + 1]; });
    return t(key, params);
  }
  return null;
}

/** The captions, legends, labels and tooltips a game's SVG draws below root (its <text>
 * and <title> elements), in the current language; texts no template matches
 * (coordinates, numbers) stay as they are. As i18n.translate_svg on the server. */
export function translatePicture(root) {
  if (language === "en" || !root) return;
  for (const node of root.querySelectorAll("text, title")) {
    if (node.childElementCount) continue;
    const text = node.textContent.trim();
    const done = text && byTemplates(text, picturePatterns);
    if (done) node.textContent = done;
  }
}

/** Apply data-i18n (text) and data-i18n-attr ("attr:key;attr:key") below root. */
export function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of node.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":").map((s) => s.trim());
      if (attr && key) node.setAttribute(attr, t(key));
    }
  }
}

/** A <select> that switches the language (placed in the header by the pages). */
export function languageSwitch() {
  const select = document.createElement("select");
  select.className = "language-switch";
  select.setAttribute("aria-label", t("site.language"));
  for (const [lang, name] of Object.entries(LANGUAGES)) {
    const option = document.createElement("option");
    option.value = lang;
    option.textContent = name;
    option.selected = lang === language;
    select.append(option);
  }
  select.addEventListener("change", () => setLanguage(select.value));
  return select;
}

document.documentElement.lang = language;
translatePage();
// Any element with class "language-slot" (the pages' headers) gets the switch.
for (const slot of document.querySelectorAll(".language-slot")) slot.replaceChildren(languageSwitch());
