"""Keys are data, never paths: the one mapping from any key (a match id, a partition key, a request id) to a
folder or file name, and back.

Match ids come from logs and partition keys from anyone with access to the Dagster UI, so neither may decide
where a file lands. `folder_name` encodes a key into a name that is

- safe: only `[a-z0-9-]` plus the escape characters `+` and `_`, never `.` or `..`, never a separator;
- collision-free, on case-insensitive filesystems too: an upper-case letter is `+` and its lower-case form,
  every other byte outside `[a-z0-9-]` is `_` and two hex digits of its UTF-8 encoding;
- reversible: `key_from_folder_name(folder_name(k)) == k`.

So `5147276662` stays `5147276662`, `VoidWalker` becomes `+void+walker` and `a/b` becomes `a_2fb`, which can
no longer meet `a_b` (`a_5fb`). A key that cannot be kept (empty, too long, control characters, NUL,
malformed Unicode) raises `KeyRefused` with a one-line reason, before anything is written.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

MAX_KEY_CHARS = 200
MAX_FOLDER_NAME_BYTES = 240  # under the 255-byte limit of common filesystems, with room for a suffix

_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")
_ENCODED = re.compile(r"(?:[a-z0-9-]|\+[a-z]|_[0-9a-f]{2})+")


class KeyRefused(ValueError):
    """A key that cannot be kept as data or mapped to a path; the message says why in one line."""


def check_key(key: object, what: str = "key") -> str:
    """`key` as a string, or `KeyRefused` naming the problem. Numbers are keys too: `5147276662` is the
    string `"5147276662"`, whatever it looks like."""
    if isinstance(key, bool) or not isinstance(key, (str, int)):
        raise KeyRefused(f"{what} must be text, not {type(key).__name__}")
    text = str(key)
    if not text:
        raise KeyRefused(f"{what} is empty")
    if len(text) > MAX_KEY_CHARS:
        raise KeyRefused(f"{what} is {len(text)} characters long; at most {MAX_KEY_CHARS} can be kept")
    if "\x00" in text:
        raise KeyRefused(f"{what} contains a NUL character")
    bad = next((c for c in text if unicodedata.category(c) in ("Cc", "Cs", "Cn")), None)
    if bad is not None:
        raise KeyRefused(f"{what} contains the control or unassigned character U+{ord(bad):04X}")
    if len(folder_name_unchecked(text).encode("ascii")) > MAX_FOLDER_NAME_BYTES:
        raise KeyRefused(f"{what} is too long to keep once encoded as a folder name")
    return text


def folder_name_unchecked(key: str) -> str:
    out = []
    for char in key:
        if char in _PLAIN:
            out.append(char)
        elif "A" <= char <= "Z":
            out.append("+" + char.lower())
        else:
            out.extend(f"_{byte:02x}" for byte in char.encode("utf-8"))
    return "".join(out)


def folder_name(key: object, what: str = "key") -> str:
    """The folder or file name that stands for `key`; see the module docstring."""
    return folder_name_unchecked(check_key(key, what))


def key_from_folder_name(name: str) -> str:
    """The key a `folder_name` stands for. Raises `KeyRefused` for a name that no key maps to."""
    if not _ENCODED.fullmatch(name or ""):
        raise KeyRefused(f"{name!r} is not an encoded key")
    raw = bytearray()
    i = 0
    while i < len(name):
        char = name[i]
        if char == "+":
            raw += name[i + 1].upper().encode("ascii")
            i += 2
        elif char == "_":
            raw.append(int(name[i + 1 : i + 3], 16))
            i += 3
        else:
            raw += char.encode("ascii")
            i += 1
    try:
        key = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise KeyRefused(f"{name!r} does not decode to UTF-8 text") from exc
    if folder_name_unchecked(key) != name:  # e.g. "_61" for "a": one key, one name
        raise KeyRefused(f"{name!r} is not the canonical name of any key")
    return key


def path_for_key(base: Path | str, key: object, suffix: str = "", what: str = "key") -> Path:
    """`base / (folder_name(key) + suffix)`, checked to stay inside `base`."""
    base = Path(base)
    if "/" in suffix or "\\" in suffix or suffix in (".", ".."):
        raise KeyRefused(f"suffix {suffix!r} is not a plain file suffix")
    path = base / (folder_name(key, what) + suffix)
    if path.parent != base:  # cannot happen for an encoded name; kept as the last line of defence
        raise KeyRefused(f"{what} would leave {base}")
    return path
