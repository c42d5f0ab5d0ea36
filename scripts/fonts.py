#!/usr/bin/env python3
"""Copy the webfonts RummyHub serves from node_modules (Fontsource packages, installed by `npm ci`)
into the git-ignored static/vendor/fonts/, with only the subsets and weights the site needs, and write
their @font-face rules (font-display: swap, each subset's unicode-range: a page downloads only the
files its text uses) to static/vendor/fonts/fonts.css.  Run by the Makefile.

Latin, Romanian and Corsican: Noto Sans; Persian: Vazirmatn; Tamil: Noto Sans Tamil; the suits
(♠ ♥ ♦ ♣), the joker's star and the arrows: Noto Sans Symbols 2.  A machine with no fonts of its own
then shows every language of the site (tests/browser/test_i18n_screens.py looks).
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

from fontTools import subset  # fonttools (requirements.txt): cuts the symbols font to the site's few

ROOT = Path(__file__).resolve().parent.parent
NODE = ROOT / "node_modules" / "@fontsource"
OUT = ROOT / "static" / "vendor" / "fonts"

# package -> (subsets, weights)
WANTED = {
    "noto-sans": (("latin", "latin-ext", "greek"), (400, 700)),
    "vazirmatn": (("arabic",), (400, 700)),
    "noto-sans-tamil": (("tamil",), (400, 700)),
    "noto-sans-symbols-2": (("symbols",), (400,)),
}
# Of the symbols subset (380 KB) the site draws only these: the arrows, the geometric shapes (● ○ ▶ ◀),
# the stars and the suits (♠ ♥ ♦ ♣).  The font is cut down to them (about 10 KB).
SYMBOLS = "U+2190-2193,U+25A0-25FF,U+2605-2606,U+2660-2667"


def cut_to_symbols(source: Path, target: Path) -> None:
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["*"]
    font = subset.load_font(str(source), options)
    unicodes = subset.parse_unicodes(SYMBOLS)
    sub = subset.Subsetter(options)
    sub.populate(unicodes=unicodes)
    sub.subset(font)
    subset.save_font(font, str(target), options)


RULE = re.compile(r"/\* (?P<name>[\w-]+) \*/\s*@font-face \{(?P<body>.*?)\}", re.S)


def rules(package: str, subsets: tuple[str, ...], weight: int) -> list[str]:
    css = (NODE / package / f"{weight}.css").read_text()
    out = []
    for match in RULE.finditer(css):
        name, body = match["name"], match["body"]
        if name.removeprefix(package + "-").removesuffix(f"-{weight}-normal") not in subsets:
            continue
        font = f"{name}.woff2"
        if package == "noto-sans-symbols-2":
            font = f"{package}-suits-{weight}-normal.woff2"
            cut_to_symbols(NODE / package / "files" / f"{name}.woff2", OUT / font)
            body = re.sub(r"unicode-range: [^;]+;", f"unicode-range: {SYMBOLS};", body)
        else:
            shutil.copy2(NODE / package / "files" / font, OUT / font)
        body = re.sub(r"src: [^;]+;", f"src: url(./{font}) format('woff2');", body)
        out.append(f"/* {name} */\n@font-face {{{body}}}\n")
    if not out:
        sys.exit(f"fonts.py: no {subsets} rules at weight {weight} in {package}")
    return out


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    css = ["/* Written by scripts/fonts.py from the Fontsource packages (OFL-1.1); do not edit. */\n"]
    for package, (subsets, weights) in WANTED.items():
        for weight in weights:
            css += rules(package, subsets, weight)
        for licence in ("LICENSE",):
            if (NODE / package / licence).exists():
                shutil.copy2(NODE / package / licence, OUT / f"{package}.{licence}")
    (OUT / "fonts.css").write_text("\n".join(css))


if __name__ == "__main__":
    main()
