#!/usr/bin/env python3
"""guide_snippets.py GUIDE LANG DIR: write every ```LANG code block of the
user guide to DIR/NN.LANG (NN: its place among the blocks of LANG), with
the guide's U-Boot release tags turned into the demo history's
(scripts/make-demo-repo.sh), so that the snippets run on the demo store.
A block whose info string says "norun" (```sh norun: installing, cloning,
a crontab line) is left out.  Prints how many blocks it wrote.
"""
import os
import re
import sys

# U-Boot's tags in the guide -> the demo's (v1.0 .. v1.7)
TAGS = {"v2023.07": "v1.5", "v2023.10": "v1.6", "v2026.07": "v1.7"}


def main():
    guide, lang, out = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(out, exist_ok=True)
    blocks, cur, info = [], None, None
    with open(guide, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^```(.*)$", line.rstrip("\n"))
            if m and cur is None:
                cur, info = [], m.group(1).split()
            elif m:
                if info and info[0] == lang and "norun" not in info[1:]:
                    blocks.append("".join(cur))
                cur = None
            elif cur is not None:
                cur.append(line)
    for i, text in enumerate(blocks, 1):
        for uboot, demo in TAGS.items():
            text = text.replace(uboot, demo)
        with open(os.path.join(out, f"{i:02d}.{lang}"), "w", encoding="utf-8") as f:
            f.write(text)
    print(len(blocks))


main()
