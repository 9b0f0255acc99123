"""Every golden playthrough replayed through its preset's compiled kernel: at every ply the
reference's legal moves equal the golden file's, and the kernel's equal the reference's
(``qipan.fast.check_kernel``: legal move sets, positions and outcomes), to the game's end."""

from __future__ import annotations

import pytest

import qipan
from qipan.fast import HAVE_NUMBA, check_kernel

from .playthrough import SEED, legal_line, path_for, read

pytestmark = pytest.mark.skipif(not HAVE_NUMBA, reason="the kernels need qipan[fast] (numba)")

PRESETS = [s.id for s in qipan.specs()]


def replay(game, plies, kernel=None):
    """Replay ``plies`` (``playthrough.read``) through ``game``'s kernel side by side with its
    rules; returns the plies compared and the outcomes' reasons."""
    moves_played = iter(plies)

    def golden_move(ref, moves, rng):
        legal, text = next(moves_played)
        assert legal_line(moves) == legal, f"{game.preset} ply {ref.ply}: the rules list other legal moves"
        chosen = [m for m in moves if m.text == text]
        assert len(chosen) == 1, f"{game.preset} ply {ref.ply}: {text!r} is not one legal move"
        return chosen[0]

    return check_kernel(game, 1, choose=golden_move, start=lambda: game.new(seed=SEED), kernel=kernel)


@pytest.mark.parametrize("preset", PRESETS)
def test_the_golden_playthrough_replays_through_the_kernel(preset):
    game = qipan.load(preset)
    if game.kernel() is None:
        pytest.skip(f"{preset} has no kernel")
    plies = read(path_for(preset).read_text(encoding="utf-8"))
    compared, reasons = replay(game, plies)
    assert compared == len(plies) and sum(reasons.values()) == 1  # every ply, to the end


class DropsOneLate:
    """``kernel``, except that from ply ``after`` on it leaves one legal move out."""

    searches: tuple[str, ...] = ()
    provides: frozenset[str] = frozenset()

    def __init__(self, kernel, after: int):
        self.kernel, self.after, self.plies = kernel, after, 0

    def state(self, ref):
        return self.kernel.state(ref)

    def legal(self, s):
        codes = self.kernel.legal(s)
        return codes[1:] if self.plies >= self.after else codes

    def play(self, s, code):
        self.plies += 1
        self.kernel.play(s, code)

    def code(self, move):
        return self.kernel.code(move)

    def move(self, code):
        return self.kernel.move(code)

    def snapshot(self, s):
        return self.kernel.snapshot(s)

    def outcome(self, s):
        return self.kernel.outcome(s)

    def warm_up(self, ref):
        self.kernel.warm_up(ref)


def test_a_kernel_that_differs_late_in_the_game_fails():
    game = qipan.load("nine-mens-morris")
    if game.kernel() is None:
        pytest.skip("nine-mens-morris has no kernel")
    plies = read(path_for("nine-mens-morris").read_text(encoding="utf-8"))
    late = len(plies) - 3  # in the flying phase, past where the files used to stop
    with pytest.raises(AssertionError, match=f"ply {late}: kernel lacks"):
        replay(game, plies, kernel=DropsOneLate(game.kernel(), late))


def test_a_golden_file_that_differs_from_the_rules_fails():
    plies = read(path_for("nine-mens-morris").read_text(encoding="utf-8"))
    legal, text = plies[30]
    plies[30] = (legal.replace(" ", "  ", 1), text)
    game = qipan.load("nine-mens-morris")
    if game.kernel() is None:
        pytest.skip("nine-mens-morris has no kernel")
    with pytest.raises(AssertionError, match="the rules list other legal moves"):
        replay(game, plies)
