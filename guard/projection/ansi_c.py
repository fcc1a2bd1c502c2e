"""Decoding `$'…'` strings the way bash does."""

from __future__ import annotations

_SIMPLE = {
    "a": "\a",
    "b": "\b",
    "e": "\x1b",
    "E": "\x1b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "?": "?",
}
_HEX = "0123456789abcdefABCDEF"


def decode_ansi_c(body: str) -> str:
    """The value of `$'body'`: escapes decoded; `\\cX` control characters; NUL ends the string."""
    out: list[str] = []
    i = 0
    n = len(body)
    while i < n:
        ch = body[i]
        if ch != "\\" or i + 1 >= n:
            out.append(ch)
            i += 1
            continue
        esc = body[i + 1]
        i += 2
        if esc in _SIMPLE:
            out.append(_SIMPLE[esc])
        elif esc in "01234567":
            j = i - 1
            digits = body[j : j + 3]
            k = 0
            while k < len(digits) and digits[k] in "01234567":
                k += 1
            out.append(chr(int(digits[:k], 8) & 0xFF))
            i = j + k
        elif esc in "xuU":
            limit = {"x": 2, "u": 4, "U": 8}[esc]
            k = 0
            while k < limit and i + k < n and body[i + k] in _HEX:
                k += 1
            if k == 0:
                out.append("\\" + esc)
            else:
                code = min(int(body[i : i + k], 16), 0x10FFFF)
                # a lone surrogate is no character: keep the escape as written
                out.append(body[i - 2 : i + k] if 0xD800 <= code <= 0xDFFF else chr(code))
                i += k
        elif esc == "c" and i < n:
            out.append(chr(ord(body[i].upper()) ^ 0x40) if body[i] != "?" else "\x7f")
            i += 1
        else:
            out.append("\\" + esc)
    text = "".join(out)
    return text.split("\0", 1)[0]
