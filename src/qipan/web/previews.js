// Previews of the last step of a move (Trax's tile faces, Tantrix's rotations, Black Path's
// tiles): the server draws the position each choice would make (GET .../preview, nothing
// is played); the choice buttons show it small, cropped around the new tile, and the board
// shows the current one in place, the forced tiles it causes drawn faintly. Hover, the
// buttons, the mouse wheel or R (Shift+R back) go through the legal choices only; a click
// on the button plays it, or on a touch screen selects it and a Confirm button plays it.
import { api, el } from "./api.js";
import { t, translatePicture } from "./i18n.js";
import { touchScreen as touch } from "./board-view.js";

export class Previews {
  constructor({ gameId, board, token, ply, play, cancel }) {
    Object.assign(this, { gameId, board, token, ply, play, cancel });
    this.shownKey = null;        // ply + choices being previewed
    this.texts = [];
    this.svgs = [];         // preview SVG text per choice (null until loaded)
    this.index = 0;
    this.real = null;       // the board's own <svg>, put back when the preview ends
    this.container = null;
  }

  active() { return this.shownKey !== null; }

  start(texts, container) {
    const shownKey = `${this.ply()}|${texts.join("\u0000")}`;
    this.container = container;
    if (shownKey === this.shownKey) {
      this.decorate();
      if (this.svgs[this.index] && this.board.svg() !== this.shown) this.show(this.index);
      return;
    }
    this.shownKey = shownKey;
    this.texts = texts;
    this.svgs = texts.map(() => null);
    this.index = 0;
    this.real = this.board.svg();
    this.shown = null;
    this.decorate();
    texts.forEach((text, i) => this.load(shownKey, text, i));
  }

  async load(key, text, i) {
    try {
      const data = await api("GET", `/api/games/${this.gameId}/preview?move=${encodeURIComponent(text)}`, undefined, this.token());
      if (key !== this.shownKey) return;
      this.svgs[i] = data.svg;
      this.thumbnail(i);
      if (i === this.index) this.show(i);
    } catch { /* no picture for this choice: its button keeps its label */ }
  }

  stop() {
    if (this.shownKey === null) return;
    this.shownKey = null;
    if (this.real && this.board.svg() !== this.real && this.shown === this.board.svg()) this.board.node.replaceChildren(this.real);
    this.board.node.classList.remove("previewing");
    this.real = null;
    this.shown = null;
  }

  buttons() { return this.container ? Array.from(this.container.querySelectorAll("button.choice")) : []; }

  // The buttons show which choice is current, and a Confirm button on touch screens.
  decorate() {
    this.buttons().forEach((b, i) => {
      b.classList.toggle("current", i === this.index);
      b.setAttribute("aria-pressed", i === this.index ? "true" : "false");
      if (this.svgs[i]) this.thumbnail(i);
    });
    if (!this.container) return;
    let confirm = this.container.querySelector("button.confirm");
    if (touch() && !confirm) {
      confirm = el("button", { type: "button", class: "confirm", onclick: () => this.play(this.texts[this.index]) }, t("game.confirm"));
      this.container.prepend(confirm);
    }
    if (confirm) confirm.textContent = t("game.confirm_move", { move: this.texts[this.index] });
  }

  thumbnail(i) {
    const button = this.buttons()[i];
    if (!button || !this.svgs[i]) return;
    const box = button.querySelector(".thumb");
    if (!box || box.dataset.loaded === this.shownKey) return;
    box.dataset.loaded = this.shownKey;
    box.innerHTML = this.svgs[i];
    translatePicture(box);
    const svg = box.querySelector("svg");
    if (!svg) return;
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    // Crop around what the move adds (marked last-move by the game's picture).
    const placed = svg.querySelector(".last-move");
    if (placed && placed.getBBox) {
      const b = placed.getBBox();
      const pad = Math.max(b.width, b.height) * 0.6;
      svg.setAttribute("viewBox", `${b.x - pad} ${b.y - pad} ${b.width + 2 * pad} ${b.height + 2 * pad}`);
    }
    for (const n of svg.querySelectorAll("[data-target]")) n.removeAttribute("data-target");
  }

  show(i) {
    if (!this.svgs[i]) return;
    this.board.node.innerHTML = this.svgs[i];
    translatePicture(this.board.node);
    const svg = this.board.svg();
    if (svg) {
      if (this.real && this.real.getAttribute("style")) svg.setAttribute("style", this.real.getAttribute("style"));
      svg.removeAttribute("width");
      svg.removeAttribute("height");
      for (const n of svg.querySelectorAll("[data-target]")) n.removeAttribute("data-target");
    }
    this.shown = svg;
    this.board.node.classList.add("previewing");
  }

  select(i) {
    this.index = (i + this.texts.length) % this.texts.length;
    this.decorate();
    this.show(this.index);
  }

  hover(i) { if (!touch()) this.select(i); }

  // A choice button: plays it (mouse), or makes it current for the Confirm button (touch).
  choose(i) {
    if (touch()) this.select(i);
    else this.play(this.texts[i]);
  }

  // On the board: the new tile plays the current choice, anywhere else cancels.
  boardClick(event) {
    const onNew = event.target.closest && event.target.closest(".last-move, .forced");
    if (onNew) this.play(this.texts[this.index]);
    else { this.stop(); this.cancel(); }
  }

  wheel(event) {
    if (!this.active()) return;
    event.preventDefault();
    this.select(this.index + (event.deltaY > 0 ? 1 : -1));
  }

  key(event) {
    if (event.key === "r" || event.key === "R") {
      this.select(this.index + (event.shiftKey ? -1 : 1));
      return true;
    }
    if (event.key === "Enter") {
      event.preventDefault();
      this.play(this.texts[this.index]);
      return true;
    }
    if (event.key === "Escape") {
      this.stop();
      this.cancel();
      return true;
    }
    return false;
  }
}
