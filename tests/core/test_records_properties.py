"""Property tests: the PGN-like text form keeps any move text, name and option intact."""

from hypothesis import given, settings
from hypothesis import strategies as st

from qipan.core.outcome import Outcome
from qipan.records import Record, loads

texts = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=12)


@settings(max_examples=200, deadline=None)
@given(
    moves=st.lists(texts, max_size=12),
    names=st.lists(texts.filter(lambda s: s.strip() == s), max_size=2),
    players=st.integers(2, 4),
    draw=st.booleans(),
)
def test_pgn_round_trip_keeps_everything(moves, names, players, draw):
    moves = [" ".join(m.split()) for m in moves]
    moves = [m for m in moves if m]
    result = Outcome.draw(players, "agreed") if draw else Outcome.win((1,), players, "resignation")
    record = Record("g", {"size": 9, "rule": 'a "b"'}, players, names[:players], moves, result, seed=5)
    again = loads(record.to_pgn())
    assert again.moves == record.moves
    assert again.names == record.names
    assert again.options == record.options
    assert again.result == record.result
    assert again.seed == 5
    assert loads(record.to_json()).to_dict() == record.to_dict()
