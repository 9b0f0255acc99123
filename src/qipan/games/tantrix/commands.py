"""The Tantrix package's CLI command: ``qipan tiles`` prints the 56 tiles by number, and
``qipan tiles --svg FILE`` writes them as one SVG picture (registered in ``__init__.py``;
the CLI extra provides Click)."""

from __future__ import annotations

from pathlib import Path

import click

from .render import gallery_svg, gallery_text


@click.command("tiles")
@click.option(
    "--svg", "svg_path", default=None, type=click.Path(dir_okay=False), help="write the gallery as SVG here"
)
def tiles(svg_path):
    """The 56 Tantrix tiles by number: pattern, colours and links."""
    if svg_path:
        Path(svg_path).write_text(gallery_svg(), encoding="utf-8")
        click.echo(f"wrote the 56 Tantrix tiles to {svg_path}")
        return
    click.echo(gallery_text())
