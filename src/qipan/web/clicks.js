// Turning clicks into moves, for any game: a legal move's `path` lists its click targets;
// the SVG marks clickable elements with data-target. See docs/contract.md.

export class PathPicker {
  constructor() { this.legal = []; this.chosen = []; }

  // New legal moves; the clicks so far survive if some move still continues them.
  setLegal(legal) {
    this.legal = legal;
    if (this.chosen.length && this.candidates().length === 0) this.chosen = [];
  }

  reset() { this.chosen = []; }

  // Legal moves whose path starts with the clicks so far.
  candidates() {
    const n = this.chosen.length;
    return this.legal.filter((m) => m.path.length >= n && this.chosen.every((t, i) => m.path[i] === t));
  }

  // Targets that can be clicked next.
  nextTargets() {
    const n = this.chosen.length;
    const out = [];
    for (const m of this.candidates()) {
      if (m.path.length > n && !out.includes(m.path[n])) out.push(m.path[n]);
    }
    return out;
  }

  // Click a target: returns the move text to send when the clicks complete exactly one
  // legal move's path (and no longer path continues them), else null.
  click(target) {
    if (!this.nextTargets().includes(target)) return null;
    this.chosen.push(target);
    const left = this.candidates();
    if (left.length === 1 && left[0].path.length === this.chosen.length) {
      const text = left[0].text;
      this.chosen = [];
      return text;
    }
    return null;
  }
}
