"""Fuzzing every record reader: qipan's own JSON and PGN-like forms and every family format
registered in ``qipan.core.formats``. Whatever the text, reading it (and replaying what was
read) either succeeds or raises a QipanError, and it returns quickly: no other exception,
no hang on a huge count.

Samples are written by the formats' own writers from random games, then mutated: bytes
inserted, deleted and repeated, numbers made huge or negative."""

from __future__ import annotations

import os
import random
import re
import signal
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qipan.core import CHANCE, QipanError, load, resolve_chance, specs
from qipan.core.formats import formats, read_records_text
from qipan.core.records import Record, loads

#: Seconds one read-and-replay may take before it counts as a hang.
HANG_SECONDS = 3.0
#: Examples per format: 60 in CI (about 30 s in all); set QIPAN_FUZZ_EXAMPLES for a
#: longer, randomised hunt.
EXAMPLES = int(os.environ.get("QIPAN_FUZZ_EXAMPLES", "60"))

NASTY = [
    "99999999999999999999",
    "-1",
    "0",
    "1e999",
    "NaN",
    "\ud800",
    "\x00",
    "[",
    "]",
    "{",
    "}",
    '"',
    "\\",
    "\t",
    "\n",
    "1.",
    "*",
    "1-0",
    '[Players "99999999999999999999"]\n',
    '[Options "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["]\n',
]


def random_game_record(game_id: str, seed: int, plies: int = 30) -> Record | None:
    try:
        game = load(game_id)
        spec_players = next(s.players for s in specs() if s.id == game_id)
        state = game.new(players=spec_players[0], seed=seed)
    except QipanError:
        return None
    rng = random.Random(seed)
    for _ in range(plies):
        if state.outcome is not None:
            break
        if state.to_move == CHANCE:
            resolve_chance(state, rng)
            continue
        moves = state.legal_moves()
        if not moves:
            break
        state.play(rng.choice(moves))
    return Record.from_state(state, names=[f"P{i + 1}" for i in range(state.num_players)])


def samples() -> dict[str, list[str]]:
    """Valid texts for every format (by name): written by the format's writer from random
    games of every preset it can write; qipan's own forms from a few games."""
    out: dict[str, list[str]] = {"qipan-json": [], "qipan-pgn": []}
    games = [s.id for s in specs()]
    records = [r for g in games if (r := random_game_record(g, seed=1)) is not None]
    for rec in records[:6]:
        out["qipan-json"].append(rec.to_json())
        out["qipan-pgn"].append(rec.to_pgn())
    for fmt in formats():
        texts = out.setdefault(fmt.name, [])
        if fmt.write is None:
            continue
        for rec in records:
            try:
                text = fmt.write([rec])
            except Exception:  # noqa: BLE001 - a writer given another game's record
                continue
            if fmt.sniff(text):
                texts.append(text)
    return out


SAMPLES = samples()
READERS = {"qipan-json": loads, "qipan-pgn": loads} | {f.name: f.read for f in formats()}


class Hang(Exception):
    pass


@contextmanager
def deadline(seconds: float):
    def alarm(_signum, _frame):
        raise Hang(f"no answer within {seconds} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def read_and_replay(reader, text: str) -> None:
    """Read ``text`` and replay each record; only QipanError may come out."""
    with deadline(HANG_SECONDS):
        try:
            records = reader(text)
            for record in records if isinstance(records, list) else [records]:
                record.replay()
        except QipanError:
            pass


@st.composite
def mutated(draw, base: str) -> str:
    text = base
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["insert", "delete", "repeat", "number"]))
        at = draw(st.integers(0, len(text)))
        if kind == "insert":
            piece = draw(st.one_of(st.sampled_from(NASTY), st.text(max_size=8)))
            text = text[:at] + piece + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 40)) :]
        elif kind == "repeat":
            piece = text[at : at + draw(st.integers(1, 30))]
            text = text[:at] + piece * draw(st.integers(2, 60)) + text[at:]
        else:  # a number in the text made huge, negative or fractional
            digits = [i for i, c in enumerate(text) if c.isdigit()]
            if digits:
                i = draw(st.sampled_from(digits))
                text = (
                    text[:i]
                    + draw(st.sampled_from(["99999999999999999999", "-7", "0", "2.5"]))
                    + text[i + 1 :]
                )
    return text


FORMAT_NAMES = sorted(READERS)


@pytest.mark.parametrize("name", FORMAT_NAMES)
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize="QIPAN_FUZZ_EXAMPLES" not in os.environ,
)
@given(data=st.data())
def test_reading_any_text_raises_only_qipan_errors(name, data):
    reader = READERS[name]
    bases = SAMPLES.get(name) or [""]
    base = data.draw(st.sampled_from(bases))
    text = data.draw(st.one_of(mutated(base), st.text(max_size=200)))
    read_and_replay(reader, text)
    read_and_replay(read_records_text, text)


def test_every_format_has_a_sample_or_no_writer():
    """The fuzzing starts from real texts wherever a format can write one."""
    for fmt in formats():
        assert SAMPLES[fmt.name] or fmt.write is None, fmt.name


@pytest.mark.parametrize(
    "text",
    [
        '[Game "pente"]\n[Players "99999999999999999999"]',
        '[Game "pente"]\n[Players "-5"]',
        '{"game": "pente", "players": 1e999}',
        '{"game": "pente", "players": 99999999999999999999}',
        '{"game": "pente", "moves": ' + "[" * 5000 + "]" * 5000 + "}",
        '{"game": "pente", "names": 5}',
        '{"game": "pente", "result": {"winners": "x"}}',
        '{"game": "pente", "tags": [1, 2]}',
        '{"game": "pente", "seed": "x"}',
    ],
)
def test_known_bad_records_raise_record_errors_quickly(text):
    with deadline(HANG_SECONDS), pytest.raises(QipanError):
        loads(text).replay()


DEEP = "[" * 5000 + "]" * 5000


@pytest.mark.parametrize(
    "name, edit",
    [
        ("pente.org", lambda t: t.replace("\n", f'\n[Qipan Options "{DEEP}"]\n', 1)),
        ("tantrix-turns", lambda t: t.replace('[Players "2"]', '[Players "99999999999999999999"]')),
        ("tantrix-turns", lambda t: re.sub(r'\[Options "[^\n]*"\]', f'[Options "{DEEP}"]', t)),
        (
            "pipemania-level/1",
            lambda t: t.replace('"game": "pipemania",', '"game": "pipemania", "players": 1e999,'),
        ),
        ("pipemania-level/1", lambda t: t.replace('"options": {', '"options": [{', 1)),
        ("pipemania-level/1", lambda t: t.replace('"game"', '"deep": ' + DEEP + ', "game"', 1)),
    ],
    ids=[
        "pente deep options",
        "tantrix huge players",
        "tantrix deep options",
        "pipemania inf players",
        "pipemania options list",
        "pipemania deep",
    ],
)
def test_family_readers_refuse_hostile_counts_with_record_errors(name, edit):
    text = edit(SAMPLES[name][0])
    assert text != SAMPLES[name][0]
    with deadline(HANG_SECONDS), pytest.raises(QipanError):
        for record in READERS[name](text):
            record.replay()


def test_a_tantrix_hand_that_is_no_tile_number_is_a_record_error():
    # Found by the fuzzing above (QIPAN_FUZZ_EXAMPLES=600): int("2-7") escaped as ValueError.
    text = (
        '[Tantrix "tantrix-doubles"]\n[Players "4"]\n'
        "[Options \"{'colours': '', 'doubles': true, 'setup': 'casual', 'tiebreak': 'draw'}\"]\n"
        '[Start "P1 +8 P2 +48 P3 +43 P4 +15"]\n'
        '[Hands "P1 3 4 8 2-7 31 53 | P2 5 25 28 37 45 48 | P3 1 2 24 42 43 49 | P4 14 15 26 40 52 54"]\n'
        "P2: 28@0,0r1 +56\n"
    )
    with deadline(HANG_SECONDS), pytest.raises(QipanError, match="Hands"):
        READERS["tantrix-turns"](text)


#: Results a record may carry that are no result: parts missing, wrong types, seats that do
#: not exist, numbers that are not finite.
HOSTILE_RESULTS = [
    {"winners": [0]},
    {"scores": [1, 0]},
    {"reason": "resigned"},
    "1-0",
    7,
    [0, 1],
    {"winners": [9], "scores": [1, 0]},
    {"winners": [True], "scores": [1, 0]},
    {"winners": [0], "scores": ["x", 1]},
    {"winners": "0", "scores": [1, 0]},
    {"winners": [0], "scores": [1, 0], "cells": 5},
    {"winners": [0], "scores": [1, 0], "reason": ["x"]},
    {"winners": [0], "scores": [1, 0] * 50},
]
HOSTILE_TAGS = ["2-0", "1-1", "winners 9", "winners 1,1", "0-1-0", "99999999999999999999-0", ""]


def result_variants(text: str) -> list[str]:
    """``text`` with its result made hostile, in each way its format can carry one: a JSON
    "result" member, PGN-like Result and Scores tags, a result token at the end."""
    import json

    out = []
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    documents = data if isinstance(data, list) else [data]
    if data is not None and all(isinstance(d, dict) for d in documents):
        for hostile in HOSTILE_RESULTS:
            out.append(
                json.dumps(
                    [d | {"result": hostile} for d in documents]
                    if isinstance(data, list)
                    else data | {"result": hostile}
                )
            )
        out.append(text.replace('"result"', '"result": 1e999, "x"', 1))
    for tag in ("Result", "Scores", "Reason"):
        if f"[{tag} " in text:
            for hostile in HOSTILE_TAGS + ["inf nan", "1e999 0"]:
                out.append(re.sub(rf'\[{tag} "[^"\n]*"\]', f'[{tag} "{hostile}"]', text, count=1))
    for token in HOSTILE_TAGS[:4] + ["{winners 9}"]:
        out.append(text.rstrip() + " " + token + "\n")
    return out


@pytest.mark.parametrize("name", [n for n in FORMAT_NAMES if SAMPLES.get(n)])
def test_every_format_reads_its_result_through_the_checked_path(name):
    """A hostile result is a RecordError in every format (the pipemania-level reader took
    Outcome.from_dict unchecked: a KeyError or TypeError, a 500 on the analysis upload)."""
    variants = [v for text in SAMPLES[name] for v in result_variants(text)]
    assert variants
    for text in variants:
        read_and_replay(READERS[name], text)
        read_and_replay(read_records_text, text)
