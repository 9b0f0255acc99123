"""The six forms of Three Men's Morris in the shared data file, and the preset and options
that play each (used by the exhaustive solver's and the retrograde tables' tests)."""

THREE_MENS_FORMS = {
    "simple_4each_placement_only_no_diagonals": ("three-mens-morris", {}),
    "simple_4each_placement_only_with_diagonals": ("three-mens-morris", {"diagonal_lines": True}),
    "kurna_3each_diagonal_board_adjacent_moves": ("three-mens-morris-kurna", {}),
    "square_board_no_diagonals_3each_adjacent_moves": ("three-mens-morris-kurna", {"diagonal_lines": False}),
    "nine_holes_any_vacant_point_with_diagonal_lines": ("three-mens-morris-kurna", {"move_anywhere": True}),
    "nine_holes_any_vacant_point_orthogonal_lines": (
        "three-mens-morris-kurna",
        {"move_anywhere": True, "diagonal_lines": False},
    ),
}
