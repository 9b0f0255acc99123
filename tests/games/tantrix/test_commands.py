"""``qipan tiles``: the 56 tiles in the terminal, or as SVG."""

from click.testing import CliRunner

from qipan.cli.main import cli
from qipan.games.tantrix.render import gallery_svg, gallery_text


def test_qipan_tiles_prints_the_gallery_and_writes_the_svg(tmp_path):
    out = CliRunner().invoke(cli, ["tiles"], catch_exceptions=False).output
    assert out == gallery_text() + "\n"
    path = tmp_path / "tiles.svg"
    res = CliRunner().invoke(cli, ["tiles", "--svg", str(path)], catch_exceptions=False)
    assert res.exit_code == 0 and path.read_text(encoding="utf-8") == gallery_svg()
