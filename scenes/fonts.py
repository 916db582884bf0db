"""The shipped DejaVu fonts (they have Cyrillic glyphs) as Panda3D fonts, for every text the window draws."""

from __future__ import annotations

from typing import Any

from panda3d.core import Filename

from scenes.core.i18n import FONT_BOLD, FONT_REGULAR

_fonts: dict[tuple[int, bool], Any] = {}


def ui_font(loader: Any, bold: bool = False) -> Any:
    """The shipped DejaVu font (Cyrillic), loaded once per loader; pixels-per-unit high for crisp text."""
    key = (id(loader), bold)
    font = _fonts.get(key)
    if font is None:
        path = FONT_BOLD if bold else FONT_REGULAR
        font = loader.loadFont(Filename.fromOsSpecific(str(path)).getFullpath())
        # Panda3D's font pool hands a second loader (a new window in the same process, an offscreen render)
        # the font the first one set up and drew with: its glyph pages exist, and they were made at 48 already.
        if font.getNumPages() == 0:
            font.setPixelsPerUnit(48)
        _fonts[key] = font
    return font
