#!/usr/bin/env python3
"""Prints the README's fenced code blocks of one language, so the tests compile and run
them as they are written: `scripts/readme-blocks.py ts|python|go`."""
import pathlib
import sys

lang = sys.argv[1]
readme = pathlib.Path(__file__).resolve().parent.parent / "README.md"
blocks, current = [], None
for line in readme.read_text().splitlines():
    if current is None and line.strip() == f"```{lang}":
        current = []
    elif current is not None and line.strip() == "```":
        blocks.append("\n".join(current))
        current = None
    elif current is not None:
        current.append(line)
if not blocks:
    sys.exit(f"README.md has no ```{lang} block")
print("\n\n".join(blocks))
