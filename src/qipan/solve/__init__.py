"""Retrograde analysis over indexed position spaces (issue 18).

A game describes its positions as a :class:`~qipan.solve.space.PositionSpace`: sub-databases
(segments) with a perfect index each, grouped into components whose dependencies form a DAG,
and a kernel that lists every position's successors. This package solves such a space
component by component (children first), stores one byte per position (win/draw/loss with
the distance to the end, :mod:`qipan.solve.codes`) in memory-mapped files with a hashed
manifest, and answers probes. It needs NumPy; Numba compiles the kernels when it is installed
(``pip install 'qipan[solve]'``). Nothing here knows any game: the spaces live in the game
packages (``qipan.games.morris.tables``)."""

from .codes import DRAW, UNKNOWN, decode, distance, encode, is_loss, is_win

__all__ = ["DRAW", "UNKNOWN", "decode", "distance", "encode", "is_loss", "is_win"]
