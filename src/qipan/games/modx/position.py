"""The MOD X position text: a header ``<players> <turn> <phase> [<jokers to place>]`` (or
``<players> - over <winners|draw>: <reason>``) and eight rows, rank 8 first, of eight cells.
A cell is ``.`` or the marker stack bottom→top in lower-case colour letters followed by an
optional upper-case top piece: ``R``/``B``/``Y``/``O`` for an X piece, ``J`` for a joker.
``brR`` = a black marker under a red marker, under a red X piece."""

from __future__ import annotations

import re

from ...core.errors import NotationError
from ...core.outcome import Outcome
from .board import BIT, KING_AREA, LETTERS, MARKERS, NAMES, PLAY, RELOCATE, SETUP, SIZE, X_PIECES
from .rules import ModXGame, ModXState

_CELL = re.compile(r"\.|[rbyo]*[RBYOJ]?")


def cell_text(state: ModXState, s: int) -> str:
    out = "".join(LETTERS[p].lower() for p in state.stacks[s])
    bit = BIT[s]
    if state.jokers & bit:
        out += "J"
    else:
        for p, xs in enumerate(state.xs):
            if xs & bit:
                out += LETTERS[p]
                break
    return out or "."


def write_position(state: ModXState) -> str:
    n = state.num_players
    if state.outcome is not None:
        who = "".join(LETTERS[p] for p in state.outcome.winners) or "draw"
        header = f"{n} - over {who}: {state.outcome.reason}"
    elif state.phase == PLAY:
        header = f"{n} {LETTERS[state.to_move]} {PLAY}"
    else:
        header = f"{n} {LETTERS[state.to_move]} {state.phase} {state.pending}"
    rows = []
    for rank in range(SIZE - 1, -1, -1):
        rows.append(" ".join(cell_text(state, rank * SIZE + f) for f in range(SIZE)))
    return "\n".join([header, *rows])


def read_position(game: ModXGame, text: str) -> ModXState:
    lines = [line.strip() for line in str(text).strip().splitlines() if line.strip()]
    if len(lines) != SIZE + 1:
        raise NotationError(f"a MOD X position has a header and {SIZE} rows, not {len(lines)} lines")
    header = lines[0].split()
    try:
        n = int(header[0])
    except (ValueError, IndexError):
        raise NotationError(f"the header {lines[0]!r} must start with the number of players") from None
    if n not in game.players:
        raise NotationError(f"{game.title} is played by 2, 3 or 4 players, not {n}")
    if game.teams and n != 4:
        raise NotationError("teams are played by 4 players")
    state = ModXState(game, n)
    _read_header(state, header, lines[0])
    for row, line in enumerate(lines[1:]):
        cells = line.split()
        if len(cells) != SIZE:
            raise NotationError(f"row {SIZE - row} has {len(cells)} cells, not {SIZE}")
        for f, cell in enumerate(cells):
            _read_cell(state, (SIZE - 1 - row) * SIZE + f, cell)
    _check_counts(state)
    if state.phase == SETUP:
        if any(state.xs) or any(state.stacks):
            raise NotationError("during the setup the board holds jokers only")
        for s in range(64):
            if state.jokers & BIT[s] and KING_AREA[s] & state.jokers & ~BIT[s]:
                raise NotationError(f"setup jokers may not touch ({NAMES[s]})")
        if state.jokers.bit_count() + state.pending != game.jokers:
            raise NotationError(f"the setup must place {game.jokers} jokers in all")
    return state


def _read_header(state: ModXState, header: list[str], line: str) -> None:
    n = state.num_players
    if len(header) >= 3 and header[1] == "-" and header[2] == "over":
        rest = line.split("over", 1)[1]
        who, _, reason = rest.partition(":")
        who = who.strip()
        if who == "draw":
            winners = ()
        elif who and all(c in LETTERS[:n] for c in who):
            winners = tuple(sorted(LETTERS.index(c) for c in who))
        else:
            raise NotationError(f"bad winners {who!r} in {line!r}")
        state.to_move = None
        state.phase = PLAY
        state.pending = 0
        state.outcome = Outcome(winners, (), reason.strip() or "final position")
        return
    if len(header) < 3 or len(header[1]) != 1 or header[1] not in LETTERS[:n]:
        raise NotationError(f"the header {line!r} must read '<players> <R|B|Y|O> <phase> [<jokers>]'")
    state.to_move = LETTERS.index(header[1])
    phase = header[2].lower()
    if phase == PLAY and len(header) == 3:
        state.phase, state.pending = PLAY, 0
    elif phase in (SETUP, RELOCATE) and len(header) == 4 and header[3].isdigit() and int(header[3]) > 0:
        state.phase, state.pending = phase, int(header[3])
        if phase == SETUP and state.to_move != 0:
            raise NotationError("the first player (R) places the setup jokers")
    else:
        raise NotationError(f"bad phase in {line!r}: expected play, setup N or relocate N")


def _read_cell(state: ModXState, s: int, cell: str) -> None:
    if not _CELL.fullmatch(cell) or cell == "":
        raise NotationError(f"bad cell {cell!r} at {NAMES[s]}")
    if cell == ".":
        return
    top = cell[-1] if cell[-1].isupper() else ""
    markers = cell[:-1] if top else cell
    stack = tuple(LETTERS.index(c.upper()) for c in markers)
    if any(p >= state.num_players for p in stack):
        raise NotationError(
            f"{NAMES[s]} holds a marker of a colour not in this {state.num_players}-player game"
        )
    state.stacks[s] = stack
    if stack:
        state.top[s] = stack[-1]
        state.topmask[stack[-1]] |= BIT[s]
        state.points[stack[-1]] += 1
    if top == "J":
        state.jokers |= BIT[s]
    elif top:
        p = LETTERS.index(top)
        if p >= state.num_players:
            raise NotationError(
                f"{NAMES[s]} holds an X of a colour not in this {state.num_players}-player game"
            )
        state.xs[p] |= BIT[s]


def _check_counts(state: ModXState) -> None:
    for p in range(state.num_players):
        on_board = state.xs[p].bit_count()
        markers = sum(stack.count(p) for stack in state.stacks)
        if on_board > X_PIECES or markers > MARKERS:
            raise NotationError(f"{LETTERS[p]} has more than {X_PIECES} X pieces or {MARKERS} markers")
        state.supply_x[p] = X_PIECES - on_board
        state.supply_m[p] = MARKERS - markers
    if state.jokers.bit_count() + state.pending > 8:
        raise NotationError("there are only 8 jokers")
    if state.outcome is not None:
        o = state.outcome
        state.outcome = Outcome(o.winners, tuple(float(p) for p in state.points), o.reason)
