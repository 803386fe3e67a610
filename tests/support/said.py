"""What an answer's text says: the numbers written in it, for tests that check a figure was said.

>>> numbers("VoidWalker dealt 192,395 damage at 12:34, -3.5 behind")
[192395.0, 12.0, 34.0, -3.5]
>>> numbers("VoidWalker dealt 192,395 damage at 12:34", clocks=False)
[192395.0]
>>> says("took 2 towers", 2), says("died to towers once", 1), says("took 2 towers", 3)
(True, True, False)
"""

from __future__ import annotations

import re

# a number not glued to a word or to another number's decimal point ("x2", "v1.5" are not numbers said)
_NUMBER = re.compile(r"(?<![\w.])-?\d[\d,]*(?:\.\d+)?")
# the same, leaving out both parts of a match clock ("12:34"), for answers that print times beside figures
_NOT_CLOCK = re.compile(r"(?<![\w.:])-?\d[\d,]*(?:\.\d+)?(?![\d:])")
_ONCE = re.compile(r"\bonce\b")


def numbers(text: str, *, clocks: bool = True) -> list[float]:
    """Every number written in `text`, thousands separators dropped; `clocks=False` skips match clocks."""
    return [float(n.replace(",", "")) for n in (_NUMBER if clocks else _NOT_CLOCK).findall(text)]


def says(text: str, value: float, tol: float = 0.5, *, clocks: bool = True) -> bool:
    """Whether `text` writes `value` (within `tol`); the word "once" says 1."""
    if value == 1 and _ONCE.search(text):
        return True
    return any(abs(n - value) <= tol for n in numbers(text, clocks=clocks))


def has_number(text: str, *, clocks: bool = True) -> bool:
    """Whether `text` writes any number at all (a refusal must not)."""
    return bool((_NUMBER if clocks else _NOT_CLOCK).search(text))
