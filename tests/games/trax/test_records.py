"""Real games: the GnuTrax 8x8 sample replays to its expected outcomes, the corrupt records
are rejected at their ply, and the .trx / .tsv formats read and write."""

from __future__ import annotations

import pytest
from trax_helpers import DATA, data_rows

from qipan.core.errors import RecordError
from qipan.core.outcome import Outcome
from qipan.core.records import Record
from qipan.games.trax.records import read_trx, sniff_trx, sniff_tsv, write_trx
from qipan.records import read_records, read_records_text

SAMPLE = DATA / "trax_8x8_gnutrax_sample.tsv"


def test_every_sample_game_ends_exactly_as_expected():
    records = read_records(SAMPLE)
    rows = data_rows(SAMPLE.name)
    assert len(records) == len(rows) == 1000
    seen = set()
    for record, row in zip(records, rows, strict=True):
        expected, plies = row[3], int(row[2])
        assert record.game == "trax-8x8"
        assert record.tags["expected_outcome"] == expected
        assert len(record.moves) == plies  # tile moves; a RESIGN/DRAW marker is not a ply
        state = record.new_state()
        for ply, text in enumerate(record.moves, start=1):
            state.play(text)
            if ply < len(record.moves):
                assert state.outcome is None, f"line {row[0]}: earlier end at ply {ply}"
        outcome = state.outcome
        seen.add(expected)
        if expected in ("W", "R"):
            assert outcome.winners == ((0,) if expected == "W" else (1,)), row[0]
            kind = row[4]
            if kind == "both-colours":
                assert "too: the mover wins" in outcome.reason
            else:
                assert kind in outcome.reason
        elif expected == "draw-full":
            assert outcome.is_draw and len(state.board.cells) == 64
        else:
            assert outcome is None, row[0]
            if expected == "draw-marked":
                assert record.result.is_draw
            elif expected.startswith("resign-"):
                loser = 0 if expected == "resign-W" else 1
                assert record.result.winners == (1 - loser,)
                assert state.to_move == loser
            else:
                assert expected == "no-result" and record.result is None
        if record.result is not None:
            record.replay()  # the record's own result (resignation, agreed draw) fits the rules
    assert seen == {"W", "R", "draw-full", "draw-marked", "no-result", "resign-W", "resign-R"}


def test_corrupt_records_are_rejected_at_their_ply():
    records = read_records(DATA / "trax_8x8_gnutrax_corrupt.tsv")
    rows = data_rows("trax_8x8_gnutrax_corrupt.tsv")
    assert len(records) == 6
    for record, row in zip(records, rows, strict=True):
        with pytest.raises(RecordError) as err:
            record.replay()
        assert err.value.ply == int(row[2]) + 1  # the file counts from 0, RecordError from 1
        # everything before the bad ply is fine
        record.replay(upto=int(row[2]))


def test_trx_lines_with_result_tokens():
    text = "# two games\n@0/ @1\\ A0/\n\n@0+ B1/ RESIGN\n@0/ DRAW\n@0/ @1\\ resign\n"
    assert sniff_trx(text)
    records = read_records_text(text)
    assert [r.moves for r in records] == [["@0/", "@1\\", "A0/"], ["@0+", "B1/"], ["@0/"], ["@0/", "@1\\"]]
    assert records[0].result is None and records[0].replay().outcome.winners == (0,)
    assert records[1].result.winners == (1,)  # White, to move after two plies, resigned
    assert records[2].result == Outcome.draw(2, "draw agreed")
    assert records[3].result.winners == (1,)
    assert [r.tags["line"] for r in records] == ["2", "4", "5", "6"]
    assert write_trx(records) == "@0/ @1\\ A0/\n@0+ B1/ RESIGN\n@0/ DRAW\n@0/ @1\\ RESIGN\n"
    assert [r.moves for r in read_trx(write_trx(records))] == [r.moves for r in records]


@pytest.mark.parametrize("text", ["@0/ RESIGN @1\\\n", "@0/ DRAW DRAW\n"])
def test_a_result_token_must_end_the_record(text):
    with pytest.raises(RecordError, match="must end the record"):
        read_trx(text)


def test_malformed_files_are_not_taken_for_trax():
    assert not sniff_trx("hello world\n")
    assert not sniff_trx("# only comments\n")
    assert not sniff_tsv("a\tb\nc\td\n")
    assert not sniff_tsv("@0/ @1\\ A0/\n")  # no tab: that is a .trx
    with pytest.raises(RecordError):
        read_trx("# nothing\n")


def test_trax_records_round_trip_through_qipan_json_and_pgn():
    state = read_records(SAMPLE)[3].replay()
    record = Record.from_state(state)
    again = Record.from_json(record.to_json())
    assert again.moves == [m.text for m in state.history]
    assert again.replay().position() == state.position()
    assert Record.from_pgn(record.to_pgn()).replay().outcome == state.outcome


def test_tsv_with_a_variant_column_and_a_header_row():
    records = read_records(DATA / "trax_test_positions.tsv")
    assert len(records) == 18
    assert records[0].tags["id"] == "T01" and records[0].game == "trax"
    by_id = {r.tags["id"]: r for r in records}
    assert by_id["T13"].game == "trax-8x8"
    assert by_id["T06"].replay().outcome.winners == (1,)
    with pytest.raises(RecordError) as err:
        by_id["T13"].replay()
    assert err.value.ply == 12


def test_puzzle_lines_keep_their_solutions():
    records = read_records(DATA / "trax_puzzles_gnutrax_easy.trx")
    assert [r.tags["solutions"] for r in records] == ["A0/ B0\\", "B2\\ C2/", "B2+", "A1\\", "A0\\ D0/"]
    assert records[0].moves == ["@0/", "@1\\"]


def test_cli_replay_prints_a_summary(tmp_path):
    from click.testing import CliRunner

    from qipan.cli.main import cli

    runner = CliRunner()
    result = runner.invoke(cli, ["replay", str(SAMPLE)])
    assert result.exit_code == 0, result.output
    assert "1000 games: 1000 replayed, 0 rejected" in result.output
    path = tmp_path / "games.trx"
    path.write_text("@0/ @1\\ A0/\n@0/ @1\\ C1\\ B2\\\n")
    result = runner.invoke(cli, ["replay", str(path)])
    assert result.exit_code == 0 and "2 games: 2 replayed" in result.output
    result = runner.invoke(cli, ["replay", str(DATA / "trax_8x8_gnutrax_corrupt.tsv")])
    assert result.exit_code != 0 and "6 rejected" in result.output


def test_traxgame_style_annotated_games():
    text = "8x8 Trax\n  1 @0/   ; a comment\n  2 @1\\   ; White threatens A0/\n  3 A0/ win\n"
    records = read_records_text(text)
    assert len(records) == 1
    record = records[0]
    assert record.game == "trax-8x8" and record.moves == ["@0/", "@1\\", "A0/"]
    assert record.replay().outcome.winners == (0,)
    loop = read_records_text("Loop Trax\n1 @0+\n2 @1+ ; Red\n3 Resign\n")[0]
    assert loop.game == "trax-loop" and loop.result.winners == (1,)  # White resigned on ply 3
    with pytest.raises(RecordError, match="must end the record"):
        read_records_text("Trax\n1 @0/\n2 Resign\n3 @1\\\n")
