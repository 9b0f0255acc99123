"""The position text form: ``game.position(text)`` and ``state.position()``.

One line of ``key=value`` fields, for example::

    players=2 phase=play turn=1/1 order=40,12 board=1@0,0r0;2@1,0r4 hands=3,5,7|8,9,10 bag=rest

* ``board``: placements ``tile@q,r rot`` joined by ``;`` (``-`` for none);
* ``hands``: each seat's tiles joined by ``,``, seats joined by ``|`` (``-`` for an empty hand);
* ``bag``: the tiles in the bag, ``rest`` for every tile not on the board or in a hand,
  ``-`` for an empty bag (tiles in none of the three are out of the game: test set-ups);
* ``turn=P/S``: seat P (1-based) to act, in step S (1 forced, 2 free, 3 forced again);
  ``draw=yes`` when P is about to draw a replacement;
* ``phase``: ``order`` (start-order draws), ``deal`` or ``play``; ``order``: the start draws.

A solitaire puzzle's position has two fields: ``board=<placements joined by ;>
hand=<tiles joined by ,>`` (``-`` for none), e.g. ``board=1@0,0r0;2@1,0r4 hand=3``."""

from __future__ import annotations

from ...core import NotationError
from .board import ALL_NUMBERS, DEAL, FLOWER_CELLS, ORDER, ORIENTED, PLAY, TILES, mismatch
from .notation import read_placement
from .rules import TantrixGame, TantrixState
from .solitaire import SolitaireGame, SolitaireState

_KEYS = ("players", "phase", "turn", "draw", "order", "board", "hands", "bag")


def _numbers(text: str) -> list[int]:
    return [] if text == "-" else [int(x) for x in text.split(",") if x]


def _board_text(board) -> str:
    return ";".join(f"{t}@{q},{r}r{k}" for (q, r), (t, k) in sorted(board.items())) or "-"


def _check_matching(edges, where: str) -> None:
    pair = mismatch(edges)
    if pair is not None:
        (q, r), (q2, r2) = pair
        raise NotationError(f"{where}the tiles at {q},{r} and {q2},{r2} do not match")


def write_position(state: TantrixState | SolitaireState) -> str:
    if isinstance(state, SolitaireState):
        return f"board={_board_text(state.board)} hand={','.join(map(str, state.hand)) or '-'}"
    board = _board_text(state.board)
    hands = "|".join(",".join(map(str, sorted(h))) or "-" for h in state.hands)
    used = {t for t, _ in state.board.values()}
    used.update(t for h in state.hands for t in h)
    rest = set(ALL_NUMBERS) - used
    if state.phase == ORDER and state.game.options["setup"] == "tournament":
        rest -= set(state.order_draws)
    if state.bag == rest and state.bag:
        bag = "rest"
    else:
        bag = ",".join(map(str, sorted(state.bag))) or "-"
    fields = [
        f"players={state.num_players}",
        f"phase={state.phase}",
        f"turn={state.current + 1}/{state.step}",
    ]
    if state.draw_pending:
        fields.append("draw=yes")
    fields += [
        f"order={','.join(map(str, state.order_draws)) or '-'}",
        f"board={board}",
        f"hands={hands}",
        f"bag={bag}",
    ]
    return " ".join(fields)


def read_position(game: TantrixGame | SolitaireGame, text: str) -> TantrixState | SolitaireState:
    """The state ``text`` describes; NotationError (nothing set up) if it is malformed."""
    if isinstance(game, SolitaireGame):
        return _read_solitaire(game, text)
    fields: dict[str, str] = {}
    for token in str(text).split():
        key, sep, value = token.partition("=")
        if not sep or key not in _KEYS:
            raise NotationError(f"bad field {token!r} in a Tantrix position; fields are {', '.join(_KEYS)}")
        if key in fields:
            raise NotationError(f"field {key} given twice")
        fields[key] = value
    try:
        players = int(fields.get("players", "2"))
        if players not in (2, 3, 4):
            raise NotationError(f"players={players}: Tantrix is played by 2-4 players")
        state = TantrixState(game, players)
        phase = fields.get("phase", PLAY)
        if phase not in (ORDER, DEAL, PLAY):
            raise NotationError(f"phase={phase}: expected order, deal or play")
        seat, _, step = fields.get("turn", "1/1").partition("/")
        current, step = int(seat) - 1, int(step or "1")
        if not 0 <= current < players or step not in (1, 2, 3):
            raise NotationError(f"turn={fields.get('turn')}: expected seat 1-{players} / step 1-3")
        order = _numbers(fields.get("order", "-"))
        hands_text = fields.get("hands", "|".join("-" * players))
        hands = [_numbers(h) for h in hands_text.split("|")]
        if len(hands) != players:
            raise NotationError(f"hands: {len(hands)} hands given for {players} players")
        board = {}
        for item in fields.get("board", "-").split(";"):
            if item == "-" or not item:
                continue
            tile, cell, rot, forced = read_placement(item)
            if forced:
                raise NotationError(f"board entry {item!r}: no F on the board")
            if cell in board:
                raise NotationError(f"board: two tiles on {cell[0]},{cell[1]}")
            board[cell] = (tile, rot)
    except ValueError as exc:
        raise NotationError(f"malformed Tantrix position: {exc}") from exc
    placed = [t for t, _ in board.values()]
    held = [t for h in hands for t in h]
    bag_text = fields.get("bag", "rest")
    if bag_text == "rest":
        bag = set(ALL_NUMBERS) - set(placed) - set(held)
        if phase == ORDER and game.options["setup"] == "tournament":
            bag -= set(order)
    else:
        try:
            bag = set(_numbers(bag_text))
        except ValueError as exc:
            raise NotationError(f"malformed bag {bag_text!r}") from exc
    every = placed + held + sorted(bag)
    if any(t not in ORIENTED for t in every + order):
        raise NotationError("tiles are numbered 1-56")
    if len(set(every)) != len(every):
        raise NotationError("a tile appears twice among board, hands and bag")
    if any(len(h) > 6 for h in hands):
        raise NotationError("a hand holds at most 6 tiles")
    if phase == ORDER and len(order) >= players:
        raise NotationError("the start-order draw is complete: phase should be deal or play")
    if phase != ORDER and len(order) != players:
        raise NotationError(f"order: expected the {players} start-order draws")
    for cell, (tile, rot) in board.items():
        state._place(tile, cell, rot)
    _check_matching(state.edges, "board: ")
    state.hands = [sorted(h) for h in hands]
    state.bag = bag
    state.order_draws = order
    state.phase, state.current, state.step = phase, current, step
    if phase != ORDER:
        state.starter = max(range(players), key=lambda p: order[p])
    if phase == ORDER:
        state.current = len(order)  # the next seat to draw its start tile
    elif phase == DEAL:
        short = [p for p in ((state.starter + i) % players for i in range(players)) if len(hands[p]) < 6]
        if not short:
            raise NotationError("phase=deal but every hand is full: phase should be play")
        state.current = short[0]  # hands are filled from the starter round the table
    if phase == PLAY and fields.get("draw") != "yes":
        state._advance()
    else:
        if phase == PLAY and not bag:
            raise NotationError("draw=yes with an empty bag")
        state.to_move, state._moves = -1, state._draws()
    return state


def _read_solitaire(game: SolitaireGame, text: str) -> SolitaireState:
    fields = {}
    for token in str(text).split():
        key, sep, value = token.partition("=")
        if not sep or key not in ("board", "hand") or key in fields:
            raise NotationError(f"bad field {token!r}: a solitaire position has board=... hand=...")
        fields[key] = value
    state = SolitaireState(game)
    try:
        hand = [] if fields.get("hand", "-") == "-" else [int(x) for x in fields["hand"].split(",")]
    except ValueError as exc:
        raise NotationError(f"malformed hand: {exc}") from exc
    board = {}
    for item in fields.get("board", "-").split(";"):
        if item and item != "-":
            tile, cell, rot, _ = read_placement(item)
            if cell in board:
                raise NotationError(f"two tiles on {cell[0]},{cell[1]}")
            board[cell] = (tile, rot)
    tiles = hand + [t for t, _ in board.values()]
    if len(set(tiles)) != len(tiles) or any(t not in TILES for t in tiles):
        raise NotationError("each tile (1-56) at most once")
    allowed = set(range(1, game.options["n"] + 1)) if not state.flower else set(ALL_NUMBERS)
    if not set(tiles) <= allowed or (not state.flower and len(tiles) != game.options["n"]):
        raise NotationError(f"the Discovery puzzle uses exactly the tiles 1..{game.options['n']}")
    if state.flower and (len(tiles) > 7 or any(c not in FLOWER_CELLS for c in board)):
        raise NotationError("the Flower puzzle has 7 tiles on the centre and the six cells around it")
    state.hand, state.board, state.edges, state.counts = sorted(hand), {}, {}, {}
    state.bag = set(ALL_NUMBERS) - set(tiles) if state.flower else set()
    for cell, (tile, rot) in board.items():
        state._place(tile, cell, rot)
    _check_matching(state.edges, "")
    state._settle()
    return state
