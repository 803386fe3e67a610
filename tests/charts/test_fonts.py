"""Charts draw every player name: accents, CJK characters and emoji come from a font fallback chain, in real
PNGs, with no glyph drawn as an empty box."""

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
