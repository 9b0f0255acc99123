"""MkDocs hook: a page whose front matter names a ``board`` (a preset, its set-up seed and a
move list) shows that position under its title, drawn by the game itself (``state.svg()``)
at build time, so the picture is always today's rendering of real play.

    ---
    board: {game: pente, moves: "K10; L11; K12", caption: "After three moves"}
    ---
"""

from __future__ import annotations

import html


def picture(board: dict) -> str:
    import qipan

    state = qipan.load(board["game"]).new(seed=board.get("seed"))
    state.play_many(m.strip() for m in board.get("moves", "").split(";") if m.strip())
    caption = html.escape(board.get("caption", ""))
    return (
        f'<figure class="qipan-board" markdown="0">{state.svg()}<figcaption>{caption}</figcaption></figure>'
    )


def on_page_markdown(markdown: str, page, config, files):
    board = page.meta.get("board")
    if not board:
        return markdown
    title, newline, rest = markdown.partition("\n")
    return f"{title}{newline}\n{picture(board)}\n\n{rest}"
