"""The types of the pictures' C quantizer (`_octree.c`, compiled by `pip install`)."""

def quantize(pixels: bytes, colours: int, size: int = 4, /) -> tuple[bytes, bytes]:
    """(an index a pixel, three bytes a palette entry): an RGBA picture's bytes (alpha ignored), or an RGB one's
    (`size` 3), in `colours` colours, as Pillow's fast octree quantizer maps the picture in RGB."""
