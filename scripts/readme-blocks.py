#!/usr/bin/env python3
"""Prints the fenced code blocks of one language in the README and in docs/clients.md (the
clients' examples), so the tests compile and run them as they are written:
`scripts/readme-blocks.py ts|python|go`."""
import pathlib
import sys

lang = sys.argv[1]
root = pathlib.Path(__file__).resolve().parent.parent
blocks, current = [], None
text = "\n".join((root / page).read_text() for page in ("README.md", "docs/clients.md"))
for line in text.splitlines():
    if current is None and line.strip() == f"```{lang}":
        current = []
    elif current is not None and line.strip() == "```":
        blocks.append("\n".join(current))
        current = None
    elif current is not None:
        current.append(line)
if not blocks:
    sys.exit(f"README.md and docs/clients.md have no ```{lang} block")
print("\n\n".join(blocks))
