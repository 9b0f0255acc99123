"""The click-to-move rules of docs/contract.md, run on the page's own module in Chromium."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.e2e


def run(page, legal, clicks):
    return page.evaluate(
        """async ([legal, clicks]) => {
          const { PathPicker } = await import('/static/clicks.js');
          const p = new PathPicker();
          p.setLegal(legal);
          const out = { start: p.nextTargets(), steps: [] };
          for (const t of clicks) out.steps.push({ sent: p.click(t), next: p.nextTargets(), chosen: [...p.chosen] });
          return out;
        }""",
        [legal, clicks],
    )


def move(text, *path):
    return {"text": text, "path": list(path)}


@pytest.fixture
def page(live_server, new_page):
    p = new_page()
    p.goto(live_server.base + "/")
    return p


def test_next_targets_and_sending(page):
    legal = [
        move("d2-d3", "d2", "d3"),
        move("d2-c2", "d2", "c2"),
        move("d2-d3xb4", "d2", "d3", "b4"),
        move("a1", "a1"),
    ]
    out = run(page, legal, ["d2", "d3", "b4"])
    assert out["start"] == ["d2", "a1"]
    assert out["steps"][0] == {"sent": None, "next": ["d3", "c2"], "chosen": ["d2"]}
    # d2,d3 is a full path but also the prefix of d2-d3xb4: it is sent only by typing.
    assert out["steps"][1] == {"sent": None, "next": ["b4"], "chosen": ["d2", "d3"]}
    assert out["steps"][2] == {"sent": "d2-d3xb4", "next": ["d2", "a1"], "chosen": []}
    assert run(page, legal, ["a1"])["steps"][0]["sent"] == "a1"
    assert run(page, legal, ["d2", "c2"])["steps"][1]["sent"] == "d2-c2"


def test_clicks_that_fit_no_move_are_ignored(page):
    legal = [move("a1", "a1"), move("b1-b2", "b1", "b2")]
    out = run(page, legal, ["z9", "b2", "b1", "a1", "b2"])
    assert [s["sent"] for s in out["steps"]] == [None, None, None, None, "b1-b2"]
    assert out["steps"][3]["chosen"] == ["b1"]  # a1 is not a continuation of b1


def test_clicks_survive_new_legal_moves_only_if_still_valid(page):
    kept = page.evaluate(
        """async () => {
          const { PathPicker } = await import('/static/clicks.js');
          const p = new PathPicker();
          p.setLegal([{ text: "x", path: ["a", "b"] }]);
          p.click("a");
          p.setLegal([{ text: "x", path: ["a", "b"] }, { text: "y", path: ["c"] }]);
          const kept = [...p.chosen];
          p.setLegal([{ text: "y", path: ["c"] }]);
          return [kept, [...p.chosen]];
        }"""
    )
    assert kept == [["a"], []]
