"""A font fallback chain for charts, so every player name is drawn: accents, CJK characters and emoji.

Matplotlib (3.6+) draws each glyph from the first family in the chain that has it. DejaVu Sans covers Latin,
Greek, Cyrillic, Arabic and many symbols; NanumGothic covers every Hangul syllable; Droid Sans Fallback covers
Chinese and Japanese; Symbola covers emoji (as black-and-white glyphs: matplotlib cannot draw colour bitmap emoji
fonts); Unifont draws whatever is left (rare scripts). Matplotlib (3.11+) shapes the text: Arabic letters
joined, right-to-left runs in reading order. `.ci/run` installs the Debian packages `fonts-nanum`,
`fonts-droid-fallback`, `fonts-symbola` and `fonts-unifont`; other CJK or emoji fonts in the chain are used when
present.
"""

from __future__ import annotations

import logging
import warnings
from functools import cache
from pathlib import Path

import matplotlib
from matplotlib import font_manager

# Earlier families win; later ones fill the glyphs earlier ones lack.
FALLBACK_CHAIN = (
    "DejaVu Sans",
    "Noto Sans",
    # Hangul from one font with every precomposed syllable: Droid has only some, so a name mixed two fonts
    "NanumGothic",
    "Noto Sans CJK KR",
    "Droid Sans Fallback",
    "Noto Sans CJK JP",
    "Noto Sans CJK SC",
    "WenQuanYi Zen Hei",
    "WenQuanYi Micro Hei",
    "Symbola",
    "Noto Emoji",
    "Noto Sans Symbols2",
    "Unifont",  # the last resort: a glyph for every code point of the Basic Multilingual Plane
    "Unifont Upper",
)


@cache
def use_fallback_fonts() -> tuple[str, ...]:
    """Make the chain matplotlib's font family list; returns the families found on this machine.

    Matplotlib caches the fonts it saw when it first ran, so fonts installed since are looked up once among the
    system's font files and added.
    """
    known = {f.name for f in font_manager.fontManager.ttflist}
    if not set(FALLBACK_CHAIN) <= known and _add_system_fonts(set(FALLBACK_CHAIN) - known, known):
        _save_font_cache()
    found = tuple(family for family in FALLBACK_CHAIN if family in known)
    # The fallback fonts have no bold face; matplotlib then uses their regular one, and need not say so.
    logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)
    # Fallback runs over the families named in font.family itself, not inside a generic family's list.
    matplotlib.rcParams["font.family"] = [*found, "sans-serif"]
    return found


def _add_system_fonts(wanted: set[str], known: set[str]) -> bool:
    added = False
    for path in font_manager.findSystemFonts():
        try:
            name = font_manager.FontProperties(fname=path).get_name()
        except (OSError, RuntimeError, ValueError):
            continue
        if name in wanted and name not in known:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                font_manager.fontManager.addfont(path)
            known.add(name)
            added = True
    return added


def _save_font_cache() -> None:
    """Keep the added fonts in matplotlib's own font cache, so later processes need not look again."""
    cache_file = Path(matplotlib.get_cachedir()) / f"fontlist-v{font_manager.FontManager.__version__}.json"
    try:
        font_manager.json_dump(font_manager.fontManager, cache_file)
    except OSError:
        pass  # a read-only cache only costs the next process the same look-up
