"""``qipan.rl.vector_kernel`` builds a game's batched loops from its hooks, passing each hook
the fields of ``VectorArrays`` it names: a hook naming a field the game lacks, or a field
named like one of the loops' own variables, is refused when the loops are made (the batched
games themselves are checked ply by ply in ``test_vector.py``)."""

from __future__ import annotations

import types
from typing import NamedTuple

import pytest

pytest.importorskip("numba")
from qipan.fast import njit_inline  # noqa: E402
from qipan.games.morris import vector as morris_vector  # noqa: E402
from qipan.rl.vector_kernel import vector_loops  # noqa: E402


def game_module(fields: tuple[str, ...], **hooks):
    """A module with the Morris twin's hooks, ``VectorArrays`` of ``fields`` and ``hooks``
    in place of some."""
    module = types.ModuleType("toy_vector")
    for name in dir(morris_vector):
        if name.startswith("vec_"):
            setattr(module, name, getattr(morris_vector, name))
    module.VectorArrays = NamedTuple("VectorArrays", [(f, int) for f in fields])
    for name, hook in hooks.items():
        setattr(module, name, njit_inline(hook))
    return module


MORRIS_FIELDS = morris_vector.VectorArrays._fields


def test_the_morris_twin_makes_its_loops():
    loops = vector_loops(game_module(MORRIS_FIELDS))
    assert callable(loops.step_all) and callable(loops.play_scored)


def test_a_hook_naming_a_missing_field_is_refused():
    def vec_play(s, code, pt, pieces):
        pass

    with pytest.raises(TypeError, match="vec_play names \\['pieces'\\]"):
        vector_loops(game_module(MORRIS_FIELDS, vec_play=vec_play))


def test_a_field_named_like_a_loop_variable_is_refused():
    with pytest.raises(TypeError, match="\\['pos'\\]"):
        vector_loops(game_module((*MORRIS_FIELDS, "pos")))
