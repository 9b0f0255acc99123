// The board picture on the game page: draws the game's SVG, marks the click targets (subtly:
// dots or outlines; on hover only when there are many), the cells of the result, and makes
// small targets at least MIN_TARGET px on touch screens by enlarging the picture inside a
// scrollable (pan, pinch-zoom) frame. Game-agnostic: it reads only data-target, data-cell,
// data-announce and the result's cells.

import { translatePicture } from "./i18n.js";

//: Smallest comfortable touch target (px); WCAG 2.5.8 asks 24, phones' guidelines 44-48.
export const MIN_TARGET = 32;
//: With more targets than this, they are shown on hover only (Pente's 361 points).
const MANY = 40;

// A touch screen (a phone's finger, not a mouse): what needs bigger targets and a confirm step.
export const touchScreen = () => window.matchMedia("(pointer: coarse)").matches || navigator.maxTouchPoints > 0;

export class BoardView {
  constructor(node) { this.node = node; this.scale = 1; }

  draw(svgText, { result = null, myFill = null } = {}) {
    const node = this.node;
    node.innerHTML = svgText || "";
    translatePicture(node);
    const svg = this.svg();
    if (!svg) return;
    if (!svg.getAttribute("viewBox") && svg.getAttribute("width") && svg.getAttribute("height")) {
      svg.setAttribute("viewBox", `0 0 ${parseFloat(svg.getAttribute("width"))} ${parseFloat(svg.getAttribute("height"))}`);
    }
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    if (myFill) node.style.setProperty("--my-fill", myFill);
    else node.style.removeProperty("--my-fill");
    this.over = !!result;
    this.markResult(result);
    this.applyScale();
  }

  svg() { return this.node.querySelector("svg"); }

  targetElements() { return Array.from(this.node.querySelectorAll("[data-target]")); }

  presentTargets() { return new Set(this.targetElements().map((n) => n.getAttribute("data-target"))); }

  clickable() { return this.targetElements().filter((n) => n.classList.contains("qp-target")); }

  markTargets(next, chosen, waiting = []) {
    const nextSet = new Set(next), chosenSet = new Set(chosen), waitingSet = new Set(waiting);
    let count = 0;
    for (const n of this.targetElements()) {
      const t = n.getAttribute("data-target");
      const on = nextSet.has(t);
      if (on) count += 1;
      n.classList.toggle("qp-target", on);
      n.classList.toggle("qp-chosen", chosenSet.has(t) || waitingSet.has(t));
      n.classList.remove("qp-focus");
    }
    this.node.classList.toggle("many-targets", count > MANY);
  }

  // The cells the result names (a winning line, loop or path), wherever the picture names them.
  markResult(result) {
    const cells = new Set(result && result.cells ? result.cells : []);
    this.node.classList.toggle("has-win", cells.size > 0);
    if (!cells.size) return;
    for (const n of this.node.querySelectorAll("[data-cell], [data-target]")) {
      const name = n.getAttribute("data-cell") ?? n.getAttribute("data-target");
      if (cells.has(name)) n.classList.add("qp-win");
    }
  }

  announcement() { return this.node.querySelector("[data-announce]"); }

  // The highlighted target under the pointer (a stone or a label may cover it), or null.
  targetAt(event, next) {
    const stack = [event.target, ...document.elementsFromPoint(event.clientX, event.clientY)];
    for (const hit of stack) {
      const n = hit.closest && hit.closest("[data-target]");
      if (n && this.node.contains(n) && next.includes(n.getAttribute("data-target"))) return n.getAttribute("data-target");
    }
    return this.nearestTarget(event, next);
  }

  // The named point under the pointer, whether or not it is a legal choice now.
  namedAt(event) {
    const stack = [event.target, ...document.elementsFromPoint(event.clientX, event.clientY)];
    for (const hit of stack) {
      const n = hit.closest && hit.closest("[data-target]");
      if (n && this.node.contains(n)) return n.getAttribute("data-target");
    }
    return null;
  }

  // The index of the focusable element nearest in direction [dx, dy] from focusable[index].
  nearest(focusable, index, [dx, dy]) {
    const centre = (n) => { const r = n.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; };
    const [x0, y0] = centre(focusable[index]);
    let best = index, bestScore = Infinity;
    focusable.forEach((n, i) => {
      const [x, y] = centre(n);
      const along = (x - x0) * dx + (y - y0) * dy;
      if (i === index || along <= 1) return;
      const across = Math.abs((x - x0) * dy) + Math.abs((y - y0) * dx);
      const score = along + 2 * across;
      if (score < bestScore) { bestScore = score; best = i; }
    });
    return best;
  }

  // On a touch screen, enlarge the picture until its click targets are MIN_TARGET px
  // apart (a tap goes to the nearest target: targetAt), the frame then scrolls (one finger
  // pans, two pinch-zoom). A target counts as big as its element or its distance to the
  // nearest other target, whichever is larger (Morris's small points stand far apart).
  fitTargets() {
    const svg = this.svg();
    if (!svg) return;
    const { scrollLeft, scrollTop } = this.node;
    const before = this.scale;
    this.scale = 1;
    this.applyScale();
    // A finished game has nothing to tap: the whole board fits the screen, result and all.
    if (!touchScreen() || this.over) return;
    const smallest = this.smallestTarget();
    if (smallest !== null && smallest < MIN_TARGET) {
      this.scale = Math.min(4, MIN_TARGET / smallest);
      this.applyScale();
    }
    if (this.scale === before) Object.assign(this.node, { scrollLeft, scrollTop });  // keep the player's view
  }

  // The smallest target's effective size in px (see fitTargets), or null without targets.
  smallestTarget() {
    // The targets clickable now, one element per name (a stone and its point share one).
    const seen = new Set();
    const nodes = (this.clickable().length ? this.clickable() : this.targetElements()).filter((n) => {
      const name = n.getAttribute("data-target");
      return seen.has(name) ? false : seen.add(name);
    });
    const boxes = nodes.map((n) => n.getBoundingClientRect()).filter((r) => r.width > 0 && r.height > 0);
    if (!boxes.length) return null;
    const centres = boxes.map((r) => [r.x + r.width / 2, r.y + r.height / 2]);
    let smallest = Infinity;
    boxes.forEach((r, i) => {
      let gap = Infinity;
      centres.forEach(([x, y], j) => {
        if (j !== i) gap = Math.min(gap, Math.hypot(x - centres[i][0], y - centres[i][1]));
      });
      smallest = Math.min(smallest, Math.max(Math.min(r.width, r.height), gap === Infinity ? 0 : gap));
    });
    return smallest;
  }

  // On a touch screen, a tap next to a target (within half the target spacing) takes it.
  nearestTarget(event, next) {
    if (!touchScreen()) return null;
    let best = null, bestDistance = MIN_TARGET / 2 + 4;
    for (const n of this.targetElements()) {
      const t = n.getAttribute("data-target");
      if (!next.includes(t)) continue;
      const r = n.getBoundingClientRect();
      const d = Math.hypot(event.clientX - (r.x + r.width / 2), event.clientY - (r.y + r.height / 2)) - Math.min(r.width, r.height) / 2;
      if (d < bestDistance) { bestDistance = d; best = t; }
    }
    return best;
  }

  applyScale() {
    const svg = this.svg();
    if (!svg) return;
    this.node.classList.toggle("zoomed", this.scale > 1);
    svg.style.width = this.scale > 1 ? `${Math.ceil(this.scale * 100)}%` : "";
    svg.style.maxWidth = this.scale > 1 ? "none" : "";
    svg.style.maxHeight = this.scale > 1 ? "none" : "";
  }
}
