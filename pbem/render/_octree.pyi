"""The types of the pictures' C quantizer (`_octree.c`, compiled by `pip install`)."""

def quantize(rgba: bytes, colours: int, /) -> tuple[bytes, bytes]:
    """(an index a pixel, three bytes a palette entry): the RGBA picture's bytes (alpha ignored) in `colours`
    colours, as Pillow's fast octree quantizer maps the picture in RGB."""
