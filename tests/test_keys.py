"""Keys are data, never paths: the one key -> folder-name mapping is safe, reversible and collision-free."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combat_analysis.keys import (
    MAX_KEY_CHARS,
    KeyRefused,
    check_key,
    folder_name,
    key_from_folder_name,
    path_for_key,
)

keepable = st.text(
    alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Cn")), min_size=1, max_size=20)  # 20 x 12 bytes fits


@pytest.mark.parametrize(("key", "name"), [
    ("5147276662", "5147276662"),
    ("sample-match", "sample-match"),
    ("VoidWalker", "+void+walker"),
    ("a/b", "a_2fb"),
    ("a_b", "a_5fb"),
    ("..", "_2e_2e"),
    ("../../../evil_q", "_2e_2e_2f_2e_2e_2f_2e_2e_2fevil_5fq"),
    ("Kuro猫", "+kuro_e7_8c_ab"),
])
def test_known_keys_map_to_known_names(key, name):
    assert folder_name(key) == name
    assert key_from_folder_name(name) == key


def test_numbers_are_keys_as_text():
    assert check_key(5147276662) == "5147276662"
    assert folder_name(5147276662) == folder_name("5147276662")


@pytest.mark.parametrize(("key", "reason"), [
    ("", "empty"),
    ("x" * (MAX_KEY_CHARS + 1), "201 characters"),
    ("a\x00b", "NUL"),
    ("a\nb", r"U\+000A"),
    ("a\x1bb", r"U\+001B"),
    ("猫" * 30, "too long"),
    (None, "must be text"),
    (True, "must be text"),
])
def test_keys_that_cannot_be_kept_are_refused_in_one_line(key, reason):
    with pytest.raises(KeyRefused, match=reason) as caught:
        folder_name(key, "match id")
    assert "\n" not in str(caught.value)
    assert str(caught.value).startswith("match id") or "must be text" in str(caught.value)


@pytest.mark.parametrize("name", ["", "A", "a.b", "a/b", "_zz", "+", "_61", "+A", "x_c3"])
def test_names_no_key_maps_to_are_refused(name):
    with pytest.raises(KeyRefused):
        key_from_folder_name(name)


@given(keepable)
def test_every_keepable_key_round_trips_to_a_safe_name(key):
    name = folder_name(key)
    assert key_from_folder_name(name) == key
    assert set(name) <= set("abcdefghijklmnopqrstuvwxyz0123456789-+_")
    assert name not in (".", "..")


@given(keepable, keepable)
def test_distinct_keys_never_share_a_name_even_ignoring_case(a, b):
    if a != b:
        assert folder_name(a).lower() != folder_name(b).lower()


def test_paths_stay_inside_their_base(tmp_path):
    assert path_for_key(tmp_path, "../../etc/passwd", ".json").parent == tmp_path
    with pytest.raises(KeyRefused):
        path_for_key(tmp_path, "ok", "/../x")
