"""Checks a rendered report (the report_smoke test): OUT_DIR/report.md exists, every image it
links exists and is a PNG that decodes (chunk CRCs, IHDR, the zlib stream of its IDAT chunks
inflating to exactly the scanlines IHDR announces) with at least the given size, and every
figure named on the command line is among them. Independent of matplotlib: only the PNG
specification and zlib.

Usage: check_report.py OUT_DIR STEM...   (exit status 1 and one line per problem)
"""
import re
import struct
import sys
import zlib
from pathlib import Path

SIGNATURE = b"\x89PNG\r\n\x1a\n"
MIN_SIDE = 100  # pixels: a figure smaller than this is not a readable plot
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}  # colour type -> samples per pixel


def png_size(data):
    """(width, height) of a PNG that decodes; raises ValueError saying what is wrong."""
    if not data.startswith(SIGNATURE):
        raise ValueError("no PNG signature")
    at, header, compressed = len(SIGNATURE), None, b""
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at : at + 8]) if at + 8 <= len(data) else (0, b"")
        if not kind or at + 12 + length > len(data):
            raise ValueError("truncated chunk")
        body = data[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length : at + 12 + length])
        if zlib.crc32(kind + body) != crc:
            raise ValueError(f"bad {kind!r} chunk")
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            compressed += body
        elif kind == b"IEND":
            break
        at += 12 + length
    else:
        raise ValueError("no IEND chunk")
    if header is None:
        raise ValueError("no IHDR chunk")
    width, height, depth, colour, _, _, interlace = header
    if colour not in CHANNELS or interlace != 0:
        raise ValueError(f"unexpected colour type {colour} or interlace {interlace}")
    row_bytes = 1 + (width * CHANNELS[colour] * depth + 7) // 8  # filter byte + samples
    if len(zlib.decompress(compressed)) != height * row_bytes:
        raise ValueError("image data does not match IHDR's size")
    return width, height


def problems(out_dir, stems):
    report = out_dir / "report.md"
    if not report.exists():
        return [f"{report} was not written"]
    linked = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", report.read_text())
    found = [
        f"figure {stem}.png is not in report.md" for stem in stems if f"{stem}.png" not in linked
    ]
    for name in linked:
        try:
            width, height = png_size((out_dir / name).read_bytes())
            if min(width, height) < MIN_SIDE:
                found.append(f"{name}: {width}x{height} pixels, below {MIN_SIDE}")
        except (OSError, ValueError, zlib.error) as error:
            found.append(f"{name}: {error}")
    return found


def main(argv):
    if len(argv) < 1:
        print(__doc__, file=sys.stderr)
        return 2
    found = problems(Path(argv[0]), argv[1:])
    for problem in found:
        print(f"check_report.py: {problem}")
    if not found:
        print(f"check_report.py: report.md and its {len(argv) - 1}+ figures decode")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
