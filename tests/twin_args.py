"""The arguments an ns-2 twin script runs with: its own defaults (its `array set opt
{...}`, read by lib.tcl's parse_keyword_args) overridden by the KEY=VALUE words of a
command. Shared by the twin-argument tests of documents 000 and 003."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Dict, List


def script_defaults(script: Path) -> Dict[str, str]:
    """The twin's own defaults: an argument an experiment does not pass takes these."""
    body = re.search(r"array set opt \{(.*?)\}\n", script.read_text(), re.S).group(1)
    words = re.findall(r'""|\S+', body)
    return {k: ("" if v == '""' else v) for k, v in zip(words[::2], words[1::2])}


def twin_arguments(script: Path, command: List[str]) -> Dict[str, str]:
    """Every argument of `command` (the script's path, then KEY=VALUE words) with the
    script's defaults for those it does not pass."""
    return {**script_defaults(script), **dict(a.split("=", 1) for a in command[1:])}
