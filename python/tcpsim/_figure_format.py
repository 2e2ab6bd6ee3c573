"""The file formats and resolution of every figure tcpsim writes, apart from the drawing
(`tcpsim.plots.style`) so that the command line can offer ``--format`` without
importing matplotlib (about 0.7 s on every command).
"""

from __future__ import annotations

#: Resolution of the raster (PNG) files every figure is written at, dots per inch.
#: 200 dpi keeps a 9-inch-wide plot sharp when a journal column shrinks it to 3.5 inches
#: (about 500 dpi there); PDF and SVG are vector files and ignore it except for images.
DPI = 200

#: The file formats figures are written in (``--format`` of `tcpsim plot`, `tcpsim run
#: --plot` and `tcpsim reproduce`); the first is the default.
FORMATS = ("png", "pdf", "svg")


def check_format(fmt: str) -> str:
    """`fmt` itself if it is one of `FORMATS`, else a ValueError naming them."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    return fmt
