// A board to play moves on, for any game: draws the server's SVG of a position, marks the
// next click targets of its legal moves' paths, turns clicks (and buttons for path steps
// with nothing to click on the board) into a move, and hands the move's text to ``onMove``.
import { el } from "./api.js";
import { PathPicker } from "./clicks.js";
import { t, translatePicture } from "./i18n.js";

export class MoveBoard {
  constructor(board, choices, onMove) {
    this.board = board;
    this.choices = choices;
    this.onMove = onMove;
    this.picker = new PathPicker();
    // A press and its release make the move, the target read at the press: a real-time
    // board is redrawn every tick, and a redraw between press and release would otherwise
    // swallow the click (the browser sends it to no cell). Clicks not made by a pointer
    // (keyboard, scripts) still play.
    this.press = null;
    board.addEventListener("pointerdown", (event) => this.pressed(event));
    board.addEventListener("pointerup", (event) => this.released(event));
    board.addEventListener("pointercancel", () => { this.press = null; });  // a scroll on a phone
    board.addEventListener("click", (event) => this.clicked(event));
  }

  /** Draw ``svg`` with ``legal`` ([{text, path}]) playable (an empty list: nothing to click). */
  show(svg, legal) {
    this.board.innerHTML = svg || "";
    translatePicture(this.board);
    const picture = this.board.querySelector("svg");
    if (picture) {
      if (!picture.getAttribute("viewBox") && picture.getAttribute("width") && picture.getAttribute("height")) {
        picture.setAttribute("viewBox", `0 0 ${parseFloat(picture.getAttribute("width"))} ${parseFloat(picture.getAttribute("height"))}`);
      }
      picture.removeAttribute("width");
      picture.removeAttribute("height");
    }
    this.picker.setLegal(legal);
    this.picker.reset();
    this.mark();
  }

  mark() {
    const next = new Set(this.picker.nextTargets());
    const present = new Set();
    for (const node of this.board.querySelectorAll("[data-target]")) {
      const target = node.getAttribute("data-target");
      present.add(target);
      node.classList.toggle("qp-target", next.has(target));
      node.classList.toggle("qp-chosen", this.picker.chosen.includes(target));
    }
    const buttons = [...next].filter((target) => !present.has(target)).map((target) =>
      el("button", { type: "button", class: "choice", "data-choice": target, onclick: () => this.choose(target) }, target));
    if (this.picker.chosen.length) {
      buttons.push(el("button", { type: "button", class: "cancel", onclick: () => { this.picker.reset(); this.mark(); } },
        t("analysis.cancel", { steps: this.picker.chosen.join(" ") })));
    }
    this.choices.replaceChildren(...buttons);
  }

  choose(target) {
    const text = this.picker.click(target);
    if (text) this.onMove(text);
    else this.mark();
  }

  /** The playable target under ``event`` (a cell, an edge, a stone), or null. */
  targetAt(event) {
    const next = this.picker.nextTargets();
    for (const hit of [event.target, ...document.elementsFromPoint(event.clientX, event.clientY)]) {
      const node = hit.closest && hit.closest("[data-target]");
      if (node && this.board.contains(node) && next.includes(node.getAttribute("data-target"))) {
        return node.getAttribute("data-target");
      }
    }
    return null;
  }

  pressed(event) {
    this.press = event.button === 0 ? { target: this.targetAt(event), x: event.clientX, y: event.clientY } : null;
  }

  released(event) {
    const press = this.press;
    this.press = null;
    // A drag is not a click; a target no longer playable after a redraw is not played.
    if (!press || !press.target || Math.hypot(event.clientX - press.x, event.clientY - press.y) > 10) return;
    if (this.picker.nextTargets().includes(press.target)) this.choose(press.target);
  }

  clicked(event) {
    if (event.detail > 0) return;  // made by a pointer: its press and release played it
    const target = this.targetAt(event);
    if (target) this.choose(target);
  }
}
