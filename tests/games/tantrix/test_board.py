"""The 56 tiles against the combinatorial definition (rules 4.2) and the data table."""

from itertools import combinations, permutations

from tests.data import DATA

from qipan.games.tantrix.board import TILES, link_kind, rotate

DATA_TSV = DATA / "tantrix" / "tantrix_tiles.tsv"

# The four link patterns Tantrix uses (edge pairs, a-f mapped to our edge indices).
PATTERNS = {
    "brid": ((0, 1), (2, 5), (3, 4)),  # 2 sharp + 1 straight
    "sint": ((0, 1), (2, 4), (3, 5)),  # 1 sharp + 2 crossing gentles
    "rond": ((0, 1), (2, 3), (4, 5)),  # 3 sharp
    "chin": ((0, 3), (1, 5), (2, 4)),  # 1 straight + 2 gentle
}
THREE_STRAIGHTS = ((0, 3), (1, 4), (2, 5))


def canonical(edges: str) -> str:
    return min(rotate(edges, k) for k in range(6))


def colourings(pattern, colours):
    out = set()
    for order in permutations(colours):
        edges = [""] * 6
        for colour, (a, b) in zip(order, pattern, strict=True):
            edges[a] = edges[b] = colour
        out.add(canonical("".join(edges)))
    return out


def test_56_tiles_equal_the_combinatorial_set():
    generated = set()
    for subset in combinations("RYGB", 3):
        per_subset = set()
        counts = {}
        for name, pattern in PATTERNS.items():
            found = colourings(pattern, subset)
            counts[name] = len(found)
            per_subset |= found
        assert counts == {"brid": 3, "sint": 6, "rond": 2, "chin": 3}
        assert len(per_subset) == 14
        # The unused pattern would add 2 more per colour triple.
        assert len(per_subset | colourings(THREE_STRAIGHTS, subset)) == 16
        generated |= per_subset
    assert len(generated) == 56
    table = {canonical(t.edges) for t in TILES.values()}
    assert table == generated
    assert sorted(TILES) == list(range(1, 57))


def test_tiles_match_the_shared_data_table():
    rows = [line.split("\t") for line in open(DATA_TSV) if line.strip() and not line.startswith("#")][1:]
    assert len(rows) == 56
    for row in rows:
        tile = TILES[int(row[0])]
        assert tile.edges == row[1] and tile.kind == row[2]
        assert tile.colours == row[3] and "RYGB".replace(row[4], "") == "".join(
            c for c in "RYGB" if c in tile.edges
        )
        links = " ".join(f"{c}:{a}-{b}({link_kind(a, b)})" for c, a, b in tile.links())
        assert links == row[5].strip()


def test_link_types_and_structure():
    kinds = {
        "brid": {"sharp": 2, "straight": 1},
        "sint": {"sharp": 1, "gentle": 2},
        "rond": {"sharp": 3},
        "chin": {"straight": 1, "gentle": 2},
    }
    for tile in TILES.values():
        seen = {}
        for _, a, b in tile.links():
            seen[link_kind(a, b)] = seen.get(link_kind(a, b), 0) + 1
        assert seen == kinds[tile.kind], tile
        assert all(tile.edges.count(c) == 2 for c in set(tile.edges)) and len(set(tile.edges)) == 3
        # No tile looks the same in two rotations (three different colours).
        assert len(set(tile.oriented)) == 6
    missing = {n: "".join(c for c in "RYGB" if c not in TILES[n].edges) for n in TILES}
    assert all(missing[n] == "G" for n in range(1, 15))
    assert all(missing[n] == "R" for n in range(43, 57))
    assert all(missing[n] == "B" for n in [*range(15, 24), *range(31, 36)])
    assert all(missing[n] == "Y" for n in [*range(24, 31), *range(36, 43)])
    assert all(sum(c in t.edges for t in TILES.values()) == 42 for c in "RYGB")
    assert "".join(TILES[n].back for n in range(1, 11)) == "YYYRRBRBYB"


def test_rotation_moves_colours_clockwise():
    tile = TILES[1]
    for k in range(6):
        for d in range(6):
            assert tile.oriented[k][d] == tile.edges[(d - k) % 6]


def test_fit_table_matches_trying_every_rotation():
    import random

    from qipan.games.tantrix.board import ORIENTED, fitting

    assert fitting("......") == {t: tuple(range(6)) for t in ORIENTED}
    rng = random.Random(3)
    for _ in range(300):
        pattern = "".join(rng.choice(".....RYGB") for _ in range(6))
        expected = {}
        for number, tile in TILES.items():
            # Rotation k shows edges[(d - k) % 6] on side d.
            rots = tuple(
                k for k in range(6) if all(pattern[d] in (".", tile.edges[(d - k) % 6]) for d in range(6))
            )
            if rots:
                expected[number] = rots
        assert fitting(pattern) == expected, pattern
