"""MkDocs hook: a page whose front matter says ``notebook: true`` runs its ```` ```python ````
blocks in order at build time, like notebook cells sharing one namespace; when a block's
last line is an expression whose value has ``_repr_svg_`` (a qipan State), the SVG is
drawn under the block, as Jupyter would draw it. So the page always shows what the code
does today."""

from __future__ import annotations

import ast
import re

_BLOCK = re.compile(r"^```python\n(.*?)^```\n", re.S | re.M)


def _run(code: str, namespace: dict):
    """Run a cell; the value of its last line if that is an expression."""
    tree = ast.parse(code)
    last = tree.body[-1] if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    if last is not None:
        tree.body.pop()
    exec(compile(tree, "<notebook>", "exec"), namespace)  # noqa: S102 - the docs' own code
    if last is not None:
        return eval(compile(ast.Expression(last.value), "<notebook>", "eval"), namespace)  # noqa: S307
    return None


def on_page_markdown(markdown: str, page, config, files):
    if not page.meta.get("notebook"):
        return markdown
    namespace: dict = {}

    def cell(match: re.Match) -> str:
        value = _run(match.group(1), namespace)
        out = match.group(0)
        if value is not None and hasattr(value, "_repr_svg_"):
            out += f'\n<div class="qipan-board" markdown="0">{value._repr_svg_()}</div>\n\n'
        elif value is not None:
            out += f"\n```text\n{value!r}\n```\n\n"
        return out

    return _BLOCK.sub(cell, markdown)
