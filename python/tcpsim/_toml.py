"""Small TOML writing helpers shared by the scenario API and sweeps (Python has a TOML
reader, ``tomllib``, but no writer)."""

from __future__ import annotations

import re

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def toml_key(key: str) -> str:
    """A key as TOML needs it: bare when it can be, else a quoted string."""
    return key if _BARE_KEY.match(key) else toml_string(key)


def toml_string(s: str) -> str:
    """A basic TOML string, with quotes, backslashes and control characters escaped."""
    out = ['"']
    for ch in s:
        code = ord(ch)
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\u{code:04X}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)
