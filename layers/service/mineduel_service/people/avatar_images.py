"""Is an uploaded avatar really an image we serve? Its bytes are checked here, never its name or
declared type, and what gets stored is a clean copy re-encoded from the decoded pixels.

The format is told from the first bytes (the file signature), so the decoder that runs is the one
for that format alone: Pillow's parsers for other formats never see uploaded bytes. The size on
each side is read from the header (by that format's plugin alone, before Pillow's
decompression-bomb check, which would call a huge claim unreadable) and checked before any pixel
is decoded, so a small file that claims a huge picture costs nothing and is refused for its size.
Re-encoding drops every metadata block (EXIF, with any location in it, comments, text chunks),
turns the picture upright by its EXIF orientation first, keeps only the first frame of an
animation, and means no byte of the upload is ever served.

Only the avatar upload function imports this module; Pillow comes from that function's own
requirements.txt, not from the service layer, so no other function carries it.
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass

from PIL import (
    Image,
    ImageOps,
    JpegImagePlugin,
    PngImagePlugin,
    UnidentifiedImageError,
    WebPImagePlugin,
)

from .errors import AvatarBadDimensions, AvatarNotAnImage, AvatarTooLarge, AvatarUnsupportedType

MAX_BYTES = 256 * 1024
MIN_SIDE = 16
MAX_SIDE = 1024
CONTENT_TYPES = {"PNG": "image/png", "JPEG": "image/jpeg", "WEBP": "image/webp"}
JPEG_QUALITY = 90
WEBP_QUALITY = 90

# Other images people may try, told apart so the refusal can say which type was sent.
_OTHER_SIGNATURES: tuple[tuple[int, bytes, str], ...] = (
    (0, b"GIF87a", "a GIF"),
    (0, b"GIF89a", "a GIF"),
    (0, b"BM", "a BMP"),
    (0, b"II*\x00", "a TIFF"),
    (0, b"MM\x00*", "a TIFF"),
    (0, b"\x00\x00\x01\x00", "an ICO"),
    (4, b"ftypavif", "an AVIF"),
    (4, b"ftypheic", "a HEIC"),
    (4, b"ftypmif1", "a HEIF"),
    (0, b"<svg", "an SVG"),
    (0, b"<?xml", "an SVG (XML)"),
    (0, b"%PDF", "a PDF"),
)


@dataclass(frozen=True)
class CheckedImage:
    """An accepted avatar: the re-encoded bytes and what they are."""

    data: bytes
    content_type: str
    width: int
    height: int


def too_large(size: int) -> AvatarTooLarge:
    """The upload is over the limit."""
    return AvatarTooLarge(
        f"An avatar is at most {MAX_BYTES // 1024} KB; the upload is {-(-size // 1024)} KB."
    )


def unsupported(what: str) -> AvatarUnsupportedType:
    """An image, but not of a type avatars may be."""
    return AvatarUnsupportedType(f"Avatars are PNG, JPEG or WebP images; this is {what}.")


def not_an_image() -> AvatarNotAnImage:
    """The bytes are not a PNG, JPEG or WebP picture that decodes."""
    return AvatarNotAnImage()


def bad_dimensions(width: int, height: int) -> AvatarBadDimensions:
    """Too small or too large a picture."""
    return AvatarBadDimensions(
        f"An avatar is {MIN_SIDE} to {MAX_SIDE} pixels on each side; this one is "
        f"{width} x {height}."
    )


def sniff(data: bytes) -> str | None:
    """The Pillow format name of ``data`` by its signature, if it is one avatars may be."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "PNG"
    if data.startswith(b"\xff\xd8\xff"):
        return "JPEG"
    if len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WEBP"
    return None


def other_type(data: bytes) -> str | None:
    """A description of another known file type (for the refusal), or None."""
    for offset, signature, what in _OTHER_SIGNATURES:
        if data[offset : offset + len(signature)] == signature:
            return what
    return None


def check(data: bytes) -> CheckedImage:
    """The clean avatar made from ``data``; a refusal saying what is wrong otherwise."""
    if len(data) > MAX_BYTES:
        raise too_large(len(data))
    kind = sniff(data)
    if kind is None:
        other = other_type(data)
        raise unsupported(other) if other else not_an_image()
    try:
        width, height = header_size(data, kind)
        if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
            raise bad_dimensions(width, height)
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data), formats=[kind]) as image:
                if image.size != (width, height):
                    raise not_an_image()
                image.load()
                upright = ImageOps.exif_transpose(image)
                clean = _encode(upright, kind)
    except (AvatarBadDimensions, AvatarNotAnImage):
        raise
    except (
        UnidentifiedImageError,
        Image.DecompressionBombWarning,
        Image.DecompressionBombError,
        OSError,
        SyntaxError,
        ValueError,
        EOFError,
    ):
        raise not_an_image() from None
    return CheckedImage(clean, CONTENT_TYPES[kind], upright.width, upright.height)


_PLUGINS: dict[
    str,
    type[
        PngImagePlugin.PngImageFile | JpegImagePlugin.JpegImageFile | WebPImagePlugin.WebPImageFile
    ],
] = {
    "PNG": PngImagePlugin.PngImageFile,
    "JPEG": JpegImagePlugin.JpegImageFile,
    "WEBP": WebPImagePlugin.WebPImageFile,
}


def header_size(data: bytes, kind: str) -> tuple[int, int]:
    """The width and height ``data``'s header claims, read by ``kind``'s own Pillow plugin and
    nothing else: ``Image.open`` would first run Pillow's decompression-bomb check on them, and
    refuse a picture claiming 100000 x 100000 as unreadable instead of as the wrong size."""
    with _PLUGINS[kind](io.BytesIO(data)) as header:
        width, height = header.size
    return int(width), int(height)


def _encode(image: Image.Image, kind: str) -> bytes:
    """``image`` encoded afresh in its own format, without any metadata (Pillow's encoders
    would otherwise carry comments, profiles and EXIF over from ``info``)."""
    transparency = image.info.get("transparency")
    image = image.copy()
    image.info = {}
    if kind == "JPEG" and image.mode not in ("L", "RGB"):
        image = image.convert("RGB")
    if kind == "WEBP" and image.mode not in ("RGB", "RGBA"):
        image = image.convert("RGBA" if image.has_transparency_data else "RGB")
    out = io.BytesIO()
    if kind == "PNG":
        options: dict[str, object] = {}
        if transparency is not None:
            options["transparency"] = transparency
        image.save(out, format="PNG", **options)
    elif kind == "JPEG":
        image.save(out, format="JPEG", quality=JPEG_QUALITY)
    else:
        image.save(out, format="WEBP", quality=WEBP_QUALITY)
    return out.getvalue()
