import numpy as np
import pytest

from qipan.core.errors import QipanError
from qipan.solve.codes import DRAW, decode, encode
from qipan.solve.database import Database
from qipan.solve.retrograde import retrograde, sweep

from .toy import ToySpace


def _chain():
    # 0 -> 1 -> 2 -> 3 (3 cannot move: lost); 4 <-> 5 cycle with an exit from 5 to 3.
    start = np.array([0, 1, 2, 3, 3, 4, 6], dtype=np.int64)
    dest = np.array([1, 2, 3, 5, 4, 3], dtype=np.int64)
    ext = np.full(len(dest), 255, dtype=np.uint8)
    terminal = np.array([0, 0, 0, 1, 0, 0], dtype=np.int8)
    return start, dest, ext, terminal


def test_a_chain_alternates_loss_and_win_with_distances():
    codes = retrograde(*_chain())
    assert list(sweep(*_chain())) == list(codes)
    # 5 wins by moving to 3; 4 can only move to 5, so it loses.
    assert [decode(c) for c in codes] == [
        ("win", 3),
        ("loss", 2),
        ("win", 1),
        ("loss", 0),
        ("loss", 2),
        ("win", 1),
    ]


def test_a_position_that_can_cycle_forever_is_a_draw():
    # 0 <-> 1, and 1 may also move to 2 which is lost for its mover: 1 wins, 0 loses.
    # 3 <-> 4 with no exit: both draw.
    start = np.array([0, 1, 3, 3, 4, 5], dtype=np.int64)
    dest = np.array([1, 0, 2, 4, 3], dtype=np.int64)
    ext = np.full(5, 255, dtype=np.uint8)
    terminal = np.array([0, 0, 1, 0, 0], dtype=np.int8)
    codes = retrograde(start, dest, ext, terminal)
    assert [decode(c) for c in codes] == [
        ("loss", 2),
        ("win", 1),
        ("loss", 0),
        ("draw", None),
        ("draw", None),
    ]


def test_external_successors_delay_a_loss_to_their_distance():
    # One position, both moves external: to a win after 1 ply and a win after 7 plies.
    start = np.array([0, 2], dtype=np.int64)
    dest = np.array([-1, -1], dtype=np.int64)
    ext = np.array([encode(1), encode(7)], dtype=np.uint8)
    codes = retrograde(start, dest, ext, np.zeros(1, dtype=np.int8))
    assert decode(codes[0]) == ("loss", 8)
    ext[1] = DRAW
    assert decode(retrograde(start, dest, ext, np.zeros(1, dtype=np.int8))[0]) == ("draw", None)


def test_an_unsolved_external_successor_is_refused():
    start = np.array([0, 1], dtype=np.int64)
    with pytest.raises(QipanError, match="not solved"):
        retrograde(start, np.array([-1]), np.array([255], dtype=np.uint8), np.zeros(1, dtype=np.int8))


@pytest.mark.parametrize("seed", range(6))
def test_retrograde_sweep_and_plain_iteration_agree_on_random_spaces(tmp_path, seed):
    space = ToySpace(seed=seed)
    db = Database(tmp_path, space)
    db.solve(check=True)  # fails if the forward sweep disagrees with the retrograde kernel
    expected = space.reference()
    for (s, i), value in expected.items():
        assert decode(db.probe((s,), i)) == value, (s, i)


def test_manifest_hash_is_reproducible_and_an_interrupted_build_resumes(tmp_path):
    space = ToySpace(seed=3)
    first = Database(tmp_path / "a", space).solve()
    calls = []
    again = Database(tmp_path / "b", space)
    assert again.solve() == first
    # Lose one segment's file (an interrupted or damaged build): only its component is redone.
    (tmp_path / "b" / "t2.u8").unlink()
    again = Database(tmp_path / "b", space)
    assert not again.complete()
    assert again.solve(progress=lambda done, total, label, seconds: calls.append((label, seconds))) == first
    assert len(calls) == 2
    # A file whose bytes changed is detected by its hash and rebuilt.
    path = tmp_path / "b" / "t0.u8"
    data = bytearray(path.read_bytes())
    data[0] ^= 1
    path.write_bytes(bytes(data))
    assert Database(tmp_path / "b", space).solve() == first


def test_a_directory_of_another_space_is_refused_and_left_alone(tmp_path):
    Database(tmp_path, ToySpace(seed=1)).solve()
    before = (tmp_path / "manifest.json").read_bytes()
    with pytest.raises(QipanError, match="another game"):
        Database(tmp_path, ToySpace(seed=2))
    assert (tmp_path / "manifest.json").read_bytes() == before


def test_probing_an_unsolved_segment_says_so(tmp_path):
    db = Database(tmp_path, ToySpace(seed=1))
    with pytest.raises(QipanError, match="not solved"):
        db.probe((0,), 0)
    with pytest.raises(QipanError, match="no segment"):
        db.probe((9,), 0)
