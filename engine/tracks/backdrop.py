"""The backdrop of a track/2 file: a reference image (a board scan) drawn under the track.

The file holds only a reference, `backdrop: {image, x, y, scale, rotation, opacity, locked}`,
with `image` relative to the track file's folder; the image is never embedded. The image's
pixel (px, py) is drawn at drawing position  (x, y) + R(rotation) · scale · (px, py), the same
coordinates the centreline uses, so an import from pixel positions on the board image lines up
with the image at x = y = 0, scale 1. The rules never read it.
"""

from __future__ import annotations

import math
import struct
from dataclasses import asdict, dataclass, fields
from html import escape
from pathlib import Path
from typing import Any

DEFAULT_OPACITY = 0.5  # house value: the track stays readable over the scan


@dataclass(frozen=True, slots=True)
class Backdrop:
    image: str
    x: float = 0.0
    y: float = 0.0
    scale: float = 1.0
    rotation: float = 0.0
    opacity: float = DEFAULT_OPACITY
    locked: bool = False

    def to_data(self) -> dict[str, Any]:
        """The mapping for the file: the image and every value that differs from its default."""
        out: dict[str, Any] = {"image": self.image}
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name != "image" and v != f.default:
                out[f.name] = int(v) if isinstance(v, float) and v.is_integer() else v
        return out

    def path(self, track_file: str | Path) -> Path:
        """The image file, found beside the track file."""
        return Path(track_file).parent / self.image

    def transform(self) -> tuple[float, float, float, float, float, float]:
        """The affine map image pixel -> drawing as (a, b, c, d, e, f): x' = a·px + c·py + e."""
        r = math.radians(self.rotation)
        cos, sin = math.cos(r) * self.scale, math.sin(r) * self.scale
        return (cos, sin, -sin, cos, self.x, self.y)


def backdrop_of(data: Any) -> Backdrop | None:
    """The backdrop of track data, or None (also for a malformed one: the schema reports it)."""
    b = data.get("backdrop") if isinstance(data, dict) else None
    if not isinstance(b, dict) or not isinstance(b.get("image"), str) or not b["image"]:
        return None
    kw: dict[str, Any] = {}
    for k in ("x", "y", "scale", "rotation", "opacity"):
        v = b.get(k)
        if isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v):
            kw[k] = float(v)
    if isinstance(b.get("locked"), bool):
        kw["locked"] = b["locked"]
    if kw.get("scale", 1.0) <= 0:
        kw.pop("scale")
    return Backdrop(b["image"], **kw)


def set_backdrop(data: dict[str, Any], changes: dict[str, Any] | None) -> dict[str, Any]:
    """A copy of `data` with the backdrop's fields changed (`image` sets a new image);
    `changes=None` removes the backdrop."""
    out = dict(data)
    if changes is None:
        out.pop("backdrop", None)
        return out
    old = backdrop_of(data)
    values = asdict(old) if old is not None else {}
    values.update(changes)
    if not values.get("image"):
        return out
    out["backdrop"] = Backdrop(**values).to_data()
    return out


def image_size(path: str | Path) -> tuple[int, int] | None:
    """Width and height of a PNG, JPEG or GIF file from its header, or None."""
    try:
        with open(path, "rb") as f:
            head = f.read(32)
            if head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR":
                w, h = struct.unpack(">II", head[16:24])
                return int(w), int(h)
            if head[:6] in (b"GIF87a", b"GIF89a"):
                w, h = struct.unpack("<HH", head[6:10])
                return int(w), int(h)
            if head[:2] == b"\xff\xd8":
                return _jpeg_size(f)
    except OSError:
        return None
    return None


def _jpeg_size(f: Any) -> tuple[int, int] | None:
    f.seek(2)
    for _ in range(10_000):
        marker = f.read(2)
        if len(marker) < 2 or marker[0] != 0xFF:
            return None
        kind = marker[1]
        if kind in (0xD8, 0x01) or 0xD0 <= kind <= 0xD7:
            continue
        size = f.read(2)
        if len(size) < 2:
            return None
        length = struct.unpack(">H", size)[0]
        if kind in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
            body = f.read(5)
            if len(body) < 5:
                return None
            h, w = struct.unpack(">HH", body[1:5])
            return int(w), int(h)
        f.seek(length - 2, 1)
    return None


def svg_image(b: Backdrop, href: str, size: tuple[int, int]) -> str:
    """An SVG <image> of the backdrop (`href` as the SVG file should refer to the image)."""
    a, bb, c, d, e, f = b.transform()
    return (f'<image href="{escape(href)}" x="0" y="0" width="{size[0]}" height="{size[1]}" '
            f'opacity="{b.opacity:g}" preserveAspectRatio="none" '
            f'transform="matrix({a:.6g} {bb:.6g} {c:.6g} {d:.6g} {e:.6g} {f:.6g})"/>')
