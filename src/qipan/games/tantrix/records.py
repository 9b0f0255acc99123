"""The turn log of rules 4.6: one line per turn with the placements in order, ``F`` for
forced fills and ``+<tile>`` for each draw; the start-order draws and the initial hands in
a header. For example::

    [Tantrix "tantrix"]
    [Players "2"]
    [Start "P1 +12 P2 +40"]
    [Hands "P1 3 12 17 20 33 51 | P2 1 4 9 40 44 50"]
    P2: 40@0,0r3 +17
    P1: F 33@2,-1r4 +17 ; 12@-1,0r0 +5 ; F 5@0,-1r2 +40

``sniff``, ``read`` and ``write`` make the record format ``tantrix-turns`` (registered in
``__init__.py``); reading it gives a qipan Record whose moves are the same chance draws and
placements, so it replays exactly."""

from __future__ import annotations

import json
import re

from ...core import QipanError, RecordError
from ...core.formats import RecordFormat
from ...core.records import Record, check_players, parse_json

_HEADER = re.compile(r'\[(\w+) "([^"]*)"\]')


def turn_log(state) -> str:
    """The turn log of a Tantrix game (its history replayed on a fresh state)."""
    game = state.game
    replay = game.new(players=state.num_players)
    start, turns = [], []
    line_player, prev_step, line = None, None, []
    for move in state.history:
        if replay.phase != "play":
            if replay.phase == "order":
                start.append(f"P{replay.current + 1} {move}")
            replay.play(move)
            continue
        if move.data[0] == "draw":
            line[-1] += f" {move}"
            replay.play(move)
            continue
        player, step = replay.to_move, replay.step
        if player != line_player or step < prev_step or step == prev_step == 2:
            if line:
                turns.append(f"P{line_player + 1}: " + " ; ".join(line))
            line_player, line = player, []
        prev_step = step
        line.append(str(move))
        replay.play(move)
    if line:
        turns.append(f"P{line_player + 1}: " + " ; ".join(line))
    hands = _initial_hands(state)
    header = [f'[Tantrix "{game.preset}"]', f'[Players "{state.num_players}"]']
    if game.options:
        header.append(f'[Options "{json.dumps(game.options, sort_keys=True).replace(chr(34), chr(39))}"]')
    header.append(f'[Start "{" ".join(start)}"]')
    if hands is not None:
        header.append(
            '[Hands "' + " | ".join(f"P{p + 1} " + " ".join(map(str, h)) for p, h in enumerate(hands)) + '"]'
        )
    if state.outcome is not None:
        header.append(f'[Result "{state.outcome.result_text()}"]')
        header.append(f'[Scores "{" ".join(f"{s:g}" for s in state.outcome.scores)}"]')
    return "\n".join(header + turns) + "\n"


def _initial_hands(state):
    replay = state.game.new(players=state.num_players)
    for move in state.history:
        if replay.phase == "play":
            return [sorted(h) for h in replay.hands]
        replay.play(move)
    return [sorted(h) for h in replay.hands] if replay.phase == "play" else None


def read(text: str) -> list[Record]:
    """The game in a turn log as a Record (not yet replayed); RecordError if malformed."""
    headers, moves = {}, []
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        m = _HEADER.fullmatch(line)
        if m:
            headers[m.group(1)] = m.group(2)
            continue
        player, sep, body = line.partition(":")
        if not sep or not re.fullmatch(r"P\d", player):
            raise RecordError(f"bad turn line {line!r}: expected 'P1: 12@0,0r0 +5 ; ...'")
        tokens = body.split()
        i = 0
        while i < len(tokens):
            tok = tokens[i]
            if tok == ";":
                i += 1
            elif tok.upper() == "F" and i + 1 < len(tokens):
                moves.append(f"F {tokens[i + 1]}")
                i += 2
            else:
                moves.append(tok)
                i += 1
    if "Tantrix" not in headers:
        raise RecordError('a Tantrix turn log starts with [Tantrix "<preset>"]')
    players = headers.get("Players", "2").strip()
    if not players.isdigit() or len(players) > 2:
        raise RecordError(f"bad header: Players must be a small whole number, not {players[:20]!r}")
    players = check_players(int(players))
    options = parse_json(headers.get("Options", "{}").replace("'", '"'), "the Options header")
    if not isinstance(options, dict):
        raise RecordError("bad header: Options must be a JSON object")
    setup = [tok for tok in headers.get("Start", "").split() if tok.startswith("+")]
    hands_text = headers.get("Hands")
    # Replay the start draws to learn the starter, then deal the rest of each initial hand.
    record = Record(game=headers["Tantrix"], options=options, players=players, moves=list(setup))
    try:
        state = record.new_state()
        for tok in setup:
            state.play(tok)
        if hands_text is not None:
            hands = [part.split()[1:] for part in hands_text.split("|")]
            if not all(t.isdigit() and len(t) <= 3 for hand in hands for t in hand):
                raise RecordError("[Hands] lists tile numbers: P1 3 4 8 ... | P2 ...")
            if len(hands) != players:
                raise RecordError(f"[Hands] lists {len(hands)} hands for {players} players")
            while state.phase == "deal":
                hand = hands[state.current]
                missing = [t for t in hand if int(t) not in state.hands[state.current]]
                if not missing:
                    raise RecordError("[Hands] does not match the draws")
                state.play(f"+{missing[0]}")
                record.moves.append(f"+{missing[0]}")
    except QipanError as exc:
        raise RecordError(f"the header does not replay: {exc}") from exc
    record.moves += moves
    return [record]


def sniff(text: str) -> bool:
    return text.lstrip().startswith("[Tantrix ")


def write(records: list[Record]) -> str:
    return "\n".join(turn_log(r.replay()) for r in records)


FORMAT = RecordFormat("tantrix-turns", sniff, read, write, suffixes=(".tantrix",))
