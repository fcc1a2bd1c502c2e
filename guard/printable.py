"""Text from a command line made safe to print: the one escaping function every output uses.

A command line is written by whoever typed it, or by an agent. Printed raw, its control
characters could clear the screen (``\\e[2J``), retitle the terminal (``\\e]0;…\\a``) or move the
cursor back (``\\r``) and rewrite the very line a human is asked to approve. Everything guard
prints that came from a line, a path, a policy file or a requester goes through :func:`escaped`.
"""

from __future__ import annotations

# as bash's $'…' writes them
NAMED = {
    "\x1b": "\\e", "\r": "\\r", "\n": "\\n", "\t": "\\t", "\b": "\\b", "\f": "\\f", "\v": "\\v",
}  # fmt: skip
HIDING = frozenset(("Cc", "Cf", "Cs", "Co", "Zl", "Zp"))


def escaped(text: str) -> str:
    """``text`` with every character that could hide or rewrite what is shown written as
    ``$'…'`` would write it: ``\\e``, ``\\r``, ``\\n``, ``\\t``, other C0 characters and DEL as
    ``\\x07``, C1 and format characters (bidi overrides, zero-width spaces) as ``\\u202e``, bytes
    that were not UTF-8 (surrogate escapes) as ``\\xff``. Printable text is left alone, so an
    ordinary line prints exactly as it was typed."""
    if text.isprintable() and text.isascii():
        return text  # the common case, and the per-line path: no work
    import unicodedata  # only for text that is not plain printable ASCII

    out = []
    for ch in text:
        o = ord(ch)
        if ch in NAMED:
            out.append(NAMED[ch])
        elif o < 0x20 or o == 0x7F:
            out.append(f"\\x{o:02x}")
        elif 0xDC80 <= o <= 0xDCFF:
            out.append(f"\\x{o - 0xDC00:02x}")
        elif o > 0x7F and unicodedata.category(ch) in HIDING:
            out.append(f"\\u{o:04x}" if o <= 0xFFFF else f"\\U{o:08x}")
        else:
            out.append(ch)
    return "".join(out)


def denied(reasons: tuple[str, ...] | list[str], *, most: int = 3) -> str:
    """The one line that says a line was refused: ``guard: denied: WHY; WHY``. The verdict's
    reasons start with the decision of their request (``deny: …``, ``ask: …``); the line says
    "denied" once, the refusing reasons first, and how many more there were."""
    firm = [r.removeprefix("deny: ") for r in reasons if r.startswith("deny: ")]
    soft = [r.removeprefix("ask: ") for r in reasons if not r.startswith("deny: ")]
    why = list(dict.fromkeys(firm + soft))
    if not why:
        return "guard: denied"
    more = f" (and {len(why) - most} more)" if len(why) > most else ""
    return escaped("guard: denied: " + "; ".join(why[:most]) + more)
