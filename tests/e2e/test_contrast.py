"""WCAG contrast of the text of every page (lobby, account, rules, analysis, the game page of
every family, under way and finished), in the site's one theme: each visible text, in the
page and in the games' pictures, against what is drawn behind it must reach AA, 4.5:1, or
3:1 for large text (24 px, or 18.66 px bold). Disabled controls are exempt (WCAG 1.4.3)."""

from __future__ import annotations

import pytest
from browser_steps import TIMEOUT
from test_game_page import new_game, open_game, play, play_random_to_the_end

pytestmark = pytest.mark.e2e

#: Runs in the page: every failing text with its colours, ratio and the ratio it needs.
AUDIT = r"""
() => {
  const parse = (c) => {
    const m = c && c.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const [r, g, b, a = 1] = m[1].split(/[,\s/]+/).filter(Boolean).map(Number);
    return [r, g, b, a];
  };
  const over = (top, under) => top[3] >= 1 ? top : [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat(1);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  // The page's background behind an HTML element: its own and its ancestors' colours, blended.
  const pageBackground = (node) => {
    const layers = [];
    for (let n = node; n && n.nodeType === 1; n = n.parentElement) {
      const c = parse(getComputedStyle(n).backgroundColor);
      if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
    }
    let colour = [255, 255, 255, 1];
    for (const c of layers.reverse()) colour = over(c, colour);
    return colour;
  };
  // Behind an SVG text: the last filled shape drawn before it (so below it) whose fill holds
  // its centre, else the page behind the picture. Geometric, so it works off screen too.
  const shapes = "rect, circle, ellipse, polygon, path";
  const pictureBackground = (node) => {
    const svg = node.closest("svg");
    const box = node.getBoundingClientRect();
    const centre = new DOMPoint(box.x + box.width / 2, box.y + box.height / 2);
    const below = [...svg.querySelectorAll(shapes)].filter((n) => node.compareDocumentPosition(n) & Node.DOCUMENT_POSITION_PRECEDING);
    for (const shape of below.reverse()) {
      // Its box first: a cheap look that skips most of a big board's shapes.
      const r = shape.getBoundingClientRect();
      if (centre.x < r.left || centre.x > r.right || centre.y < r.top || centre.y > r.bottom) continue;
      const style = getComputedStyle(shape);
      const fill = parse(style.fill);
      if (!fill || style.fill === "none" || fill[3] === 0 || style.display === "none") continue;
      const matrix = shape.getScreenCTM();
      if (!matrix || !shape.isPointInFill(centre.matrixTransform(matrix.inverse()))) continue;
      fill[3] *= Number(style.fillOpacity) * Number(style.opacity);  // a translucent marker shows what is below
      return over(fill, fill[3] < 1 ? pictureBackground(shape) : [255, 255, 255, 1]);
    }
    return pageBackground(svg.parentElement);
  };
  // A text drawn with a halo (a light or dark stroke painted first, 2 units or wider) reads on it.
  const halo = (node, style) => {
    const stroke = parse(style.stroke);
    const ordered = (style.paintOrder || "").trim().startsWith("stroke");
    return stroke && style.stroke !== "none" && ordered && parseFloat(style.strokeWidth) >= 2 ? stroke : null;
  };
  const failures = [];
  const seen = new Set();
  for (const node of document.querySelectorAll("body *")) {
    const own = [...node.childNodes].filter((c) => c.nodeType === 3 && c.textContent.trim()).map((c) => c.textContent.trim()).join(" ");
    if (!own || ["SCRIPT", "STYLE", "OPTION", "TITLE"].includes(node.tagName.toUpperCase())) continue;
    if (node.closest("[hidden], details:not([open]) > :not(summary), :disabled, title")) continue;
    const style = getComputedStyle(node);
    const box = node.getBoundingClientRect();
    if (!box.width || !box.height || style.visibility === "hidden" || Number(style.opacity) === 0) continue;
    const inPicture = node instanceof SVGElement;
    const fg = parse(inPicture ? style.fill : style.color);
    if (!fg) continue;
    const bg = inPicture ? halo(node, style) || pictureBackground(node) : pageBackground(node);
    // A picture's text as it is drawn (scaled with the picture): its box is ~1.2 font sizes high.
    const px = inPicture ? box.height / 1.2 : parseFloat(style.fontSize);
    const bold = Number(style.fontWeight) >= 700;
    const large = px >= 24 || (bold && px >= 18.66);
    const need = large ? 3 : 4.5;
    const got = ratio(over(fg, bg), bg);
    const key = `${own}|${style.color}|${inPicture ? style.fill : ""}`;
    if (got + 0.005 < need && !seen.has(key)) {
      seen.add(key);
      failures.push({ text: own.slice(0, 40), tag: node.tagName, cls: node.getAttribute("class") || "", fg: fg.slice(0, 3).join(","), bg: bg.slice(0, 3).join(","), ratio: Math.round(got * 100) / 100, need });
    }
  }
  return failures;
}
"""


def audit(page) -> list[dict]:
    page.wait_for_timeout(300)  # fonts and late layout
    return page.evaluate(AUDIT)


@pytest.mark.parametrize("path", ["/", "/account", "/rules", "/rules/pente", "/rules/tantrix", "/analysis"])
def test_site_pages_reach_aa(live_server, new_page, path):
    page = new_page()
    page.goto(live_server.base + path)
    page.wait_for_load_state("networkidle", timeout=TIMEOUT)
    assert audit(page) == []


#: Moves that finish a game quickly, where random moves would take a long time (a random
#: Pente game takes hundreds of plies); the others are played to their end at random.
FINISH = {"pente": ["A1", "K11", "A2", "K13", "A3", "K14"]}  # White's five, K10 to K14

GAMES = [
    ("pente", 2, ["K10", "L11", "K12"]),
    ("trax", 2, ["@0/", "A0+"]),
    ("tantrix", 2, None),
    ("modx", 2, ["J@A1", "J@C3", "J@E5", "J@G7", "J@A8", "B2"]),
    ("nine-mens-morris", 2, ["a1", "d1"]),
    ("blackpath", 2, None),
    ("pipemania", 1, None),
]


@pytest.mark.parametrize(("preset", "players", "moves"), GAMES, ids=[g[0] for g in GAMES])
def test_game_pages_reach_aa_under_way_and_finished(live_server, new_page, preset, players, moves):
    base = live_server.base
    game_id, tokens = new_game(base, preset, players=players, seed=2)
    if moves:
        play(base, game_id, tokens, moves)
    page = open_game(new_page, base, game_id, tokens)
    assert audit(page) == [], "under way"
    if preset == "pipemania":
        return  # played in real time: the finished picture is checked by the highlight test's game
    if preset in FINISH:
        play(base, game_id, tokens, FINISH[preset])
    else:
        play_random_to_the_end(base, game_id, tokens, seed=2)
    page.reload()
    page.wait_for_selector('#status[data-status="over"]', state="attached", timeout=TIMEOUT)
    assert audit(page) == [], "finished"
