"""Charts draw every player name: accents, Hangul, CJK, Cyrillic, Arabic and emoji come from a font fallback
chain, in real PNGs, with no glyph drawn as an empty box. The glyphs are checked as matplotlib lays them out for its
Agg renderer: which font draws each character, that none is the missing-glyph box, and in which order."""

from __future__ import annotations

import warnings

from PIL import Image

from combat_analysis.charts import draw as charts
from combat_analysis.charts.fonts import use_fallback_fonts
from combat_analysis.ingest.run import ingest_log
from combat_analysis.ingest.simulate import write_match
from combat_analysis.reports.match import build_match_report

NAMES = ["🐉Drako", "Kuro猫", "小龙Xiao", "ジン_jin", "강철Steel", "Nguyễn99", "D'Artagnan", "✨Stella✨", "Ørjan Ås",
         "ÁngelDeth"]


def missing_glyphs(caught) -> list[str]:
    return [str(w.message) for w in caught if "missing from font" in str(w.message)]


def test_the_chain_covers_latin_cjk_and_emoji():
    found = use_fallback_fonts()
    assert found[0] == "DejaVu Sans"
    assert {"Droid Sans Fallback", "Noto Sans CJK JP", "Noto Sans CJK SC", "WenQuanYi Zen Hei"} & set(found)
    assert {"Symbola", "Noto Emoji"} & set(found)


def test_a_chart_of_varied_names_draws_every_glyph(tmp_path):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        path = charts.bar_h(tmp_path / "names.png", NAMES, list(range(10, 110, 10)), title="Damage 🐉 伤害",
                            xlabel="damage")
    assert missing_glyphs(caught) == []
    with Image.open(path) as img:
        assert img.format == "PNG" and img.width >= 400


def test_a_match_report_with_such_names_draws_them_all(tmp_path):
    log = tmp_path / "names.log"
    write_match(log, 9, minutes=12, names=NAMES)
    result = ingest_log(log, tmp_path / "wh")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        report = build_match_report(tmp_path / "wh", result.match_id, tmp_path / "report", battery=False)
    assert missing_glyphs(caught) == []
    assert len(report.charts) >= 2 and all(p.exists() for p in report.charts.values())
    assert "🐉Drako" in report.markdown


# --- the glyphs as drawn: which font draws each character, in which order, and with ink --------------------------

SCRIPTS = {"hangul": "강철Steel", "cjk": "小龙Xiao", "kana": "ジン_jin", "cyrillic": "Кирилл", "arabic": "محمد",
           "arabic_digits": "علي99", "emoji": "🐉Drako", "accents": "Ørjan Ås"}


def drawn_glyphs(text: str) -> list:
    """The glyphs matplotlib lays out for `text` with the chart fonts: its own layout, as its Agg renderer draws."""
    import matplotlib
    from matplotlib import _text_helpers, font_manager

    use_fallback_fonts()
    props = font_manager.FontProperties(family=matplotlib.rcParams["font.family"])
    font = font_manager.get_font(font_manager.fontManager._find_fonts_by_props(props))
    font.set_size(10, 72)
    return list(_text_helpers.layout(text, font))


def test_every_character_of_every_script_is_a_real_glyph():
    for script, name in SCRIPTS.items():
        glyphs = drawn_glyphs(name)
        assert glyphs, script
        assert all(g.glyph_index != 0 for g in glyphs), (script, [g.char for g in glyphs if g.glyph_index == 0])


def test_hangul_syllables_come_whole_from_one_font():
    # A font with only some syllables made "강철" a mix of two fonts (one of them drew it as loose letters).
    hangul = [g for g in drawn_glyphs("강철 김민준 이서연") if "\uac00" <= g.char <= "\ud7a3"]
    assert len(hangul) == 8
    assert {g.ft_object.family_name for g in hangul} == {"NanumGothic"}
    assert len({g.glyph_index for g in hangul}) == 8  # eight different syllables, eight different glyphs


def test_emoji_come_from_an_emoji_font_and_latin_from_the_first_font():
    glyphs = drawn_glyphs("🐉Drako")
    assert glyphs[0].ft_object.family_name == "Symbola" and glyphs[0].char == "🐉"
    assert {g.ft_object.family_name for g in glyphs[1:]} == {"DejaVu Sans"}


def test_arabic_is_joined_and_drawn_right_to_left():
    glyphs = drawn_glyphs("محمد")
    # drawn left to right on the page: the last letter (dal) first, the first letter (meem) last
    assert [g.char for g in sorted(glyphs, key=lambda g: g.x)] == list("دمحم")
    isolated = {ch: drawn_glyphs(ch)[0].glyph_index for ch in "محد"}
    joined = {g.char: g.glyph_index for g in glyphs if g.char != "م"}
    assert all(joined[ch] != isolated[ch] for ch in "حد")  # contextual forms, not the letters standing alone
    digits_then_word = sorted(drawn_glyphs("علي99"), key=lambda g: g.x)
    assert [g.char for g in digits_then_word] == list("99يلع")

