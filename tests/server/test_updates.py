"""SVG patches and update messages rebuild exactly what the server would send in full."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qipan.server.updates import apply, svg_patch, svg_text, svg_tokens

tags = st.sampled_from(
    [
        '<circle cx="1" cy="2" r="3" class="point">',
        '<circle cx="1" cy="2" r="3" class="point" stroke="#d02020">',
        "</circle>",
        "\n<text>a</text>",
        "  <text>棋盤</text>",
        "<title>e3</title>",
        "<g>",
        "</g>",
    ]
)
svgs = st.lists(tags, max_size=40).map(lambda parts: "<svg>" + "".join(parts) + "</svg>")


@settings(max_examples=300, deadline=None)
@given(old=svgs, new=svgs)
def test_an_svg_patch_turns_the_old_picture_into_the_new_one(old, new):
    state = {"id": "g", "version": 1, "moves": [], "svg": old, "legal": []}
    message = {
        "type": "update",
        "id": "g",
        "base": 1,
        "version": 2,
        "svg_patch": svg_patch(old, new),
        "legal": ["a1", ["a1-a4", "a1", "a4"]],
    }
    got = apply(state, message)
    assert got["svg"] == new
    assert got["legal"] == [{"text": "a1", "path": ["a1"]}, {"text": "a1-a4", "path": ["a1", "a4"]}]
    assert svg_text(svg_tokens(new)) == new


def test_an_update_for_another_version_is_refused():
    state = {"id": "g", "version": 3, "moves": [], "svg": "", "legal": []}
    with pytest.raises(ValueError, match="resync"):
        apply(state, {"type": "update", "id": "g", "base": 2, "version": 4, "legal": []})


def _patched(old: str, new: str) -> str:
    state = {"id": "g", "version": 1, "moves": [], "svg": old, "legal": []}
    message = {"type": "update", "id": "g", "base": 1, "version": 2, "svg_patch": svg_patch(old, new)}
    return apply(state, message | {"legal": []})["svg"]


# Texts of a few letters and many '<': the common start and end found on the text (not the
# tokens) meet token edges in every way (one text a prefix of the other, empty tokens, '<'
# at either end), and runs longer than the comparison step of 2,048 characters.
texts = st.one_of(
    st.text(alphabet="<ab", max_size=30),
    st.builds(
        lambda a, b, c: a * 700 + b + c * 700,
        st.sampled_from(["<a", "b<", "<"]),
        st.text("<ab"),
        st.text("<ab"),
    ),
)


@settings(max_examples=500, deadline=None)
@given(old=texts, new=texts)
def test_a_patch_is_right_wherever_the_texts_start_and_end_alike(old, new):
    assert _patched(old, new) == new


@given(prefix=st.text("<ab", max_size=5000), old=st.text("<ab", max_size=8), new=st.text("<ab", max_size=8))
@settings(max_examples=200, deadline=None)
def test_a_patch_leaves_out_the_common_start_and_end(prefix, old, new):
    a, b = prefix + old + prefix[::-1], prefix + new + prefix[::-1]
    assert _patched(a, b) == b
    # Only tokens around the change are sent, however long the common parts are.
    assert sum(len(inserted) for _, _, inserted in svg_patch(a, b)) <= new.count("<") + 3


@pytest.mark.parametrize(
    ("kept", "added", "moves_from"),
    [(3, ["d"], 3), (1, [], 1), (1, ["x"], 1), (0, [], 0), (3, [], None)],
    ids=["a move", "an undo", "an undo and a move", "back to the start", "no move"],
)
def test_an_update_sends_only_the_moves_after_those_both_hold(kept, added, moves_from):
    from qipan.server.updates import update

    moves = [{"text": t, "player": i % 2} for i, t in enumerate("abc")]
    old = {"id": "g", "version": 1, "ply": 3, "to_move": 0, "clock": None, "svg": "<svg>", "legal": []}
    old["moves"] = moves
    new_moves = moves[:kept] + [{"text": t, "player": 1} for t in added]
    new = old | {"version": 2, "moves": new_moves}
    message = update(old, new, {}, mover=False)
    assert message.get("moves_from") == moves_from
    assert message.get("moves", []) == new_moves[kept:]
    assert apply(old, message)["moves"] == new_moves
