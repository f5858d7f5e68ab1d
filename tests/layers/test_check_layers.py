#!/usr/bin/env python3
"""check_layers.py on a tree of its own, made in a temporary directory: it passes a tree that keeps
its table, and fails, naming the file and line, each way a tree can break it."""
import os
import subprocess
import sys
import tempfile

CHECKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check_layers.py")

DESIGN = """# design

## Layers

| folder | library | what it holds | may include |
|---|---|---|---|
| `models/base` | `acmesim_base` | the bottom | — |
| `sim/top` | `acmesim_top` | the top | `models/base` |

## Next
"""


def write(root, path, text):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w", encoding="utf-8") as f:
        f.write(text)


def make_tree(root):
    write(root, "docs/design.md", DESIGN)
    write(root, "CMakeLists.txt", "acmesim_folder_library(models/base LINKS x)\nacmesim_folder_library(sim/top LINKS y)\n")
    write(root, "models/base/README.md", "# models/base\nMay include: nothing of the tree.\n")
    write(root, "sim/top/README.md", "# sim/top\nMay include: `models/base`.\n")
    write(root, "models/base/Base.hpp", "#pragma once\n#include <string>\n")
    write(root, "sim/top/Top.hpp", '#pragma once\n#include "models/base/Base.hpp"\n')
    write(root, "sim/top/Top.cpp", '#include "sim/top/Top.hpp"\n')


def run(root):
    done = subprocess.run([sys.executable, CHECKER, root], capture_output=True, text=True)
    return done.returncode, done.stdout


def expect(condition, what, output):
    if not condition:
        print(f"FAIL: {what}\n{output}")
        sys.exit(1)


def main():
    cases = [
        ("an include of a folder above", lambda r: write(r, "models/base/Base.cpp", '\n#include "sim/top/Top.hpp"\n'),
         "models/base/Base.cpp:2: includes sim/top/Top.hpp, but models/base may include only: nothing of the tree"),
        ("a row that allows a folder below it",
         lambda r: write(r, "docs/design.md", DESIGN.replace("| the bottom | — |", "| the bottom | `sim/top` |")),
         "models/base may include sim/top, which is not listed above it"),
        ("files of a folder in a circle",
         lambda r: (write(r, "sim/top/Other.hpp", '#pragma once\n#include "sim/top/Top.hpp"\n'),
                    write(r, "sim/top/Top.cpp", '#include "sim/top/Top.hpp"\n#include "sim/top/Other.hpp"\n')),
         "sim/top: these files include each other in a circle: sim/top/Other, sim/top/Top"),
        ("a folder without a row", lambda r: write(r, "sim/loose/Loose.hpp", "#pragma once\n"),
         "sim/loose: holds sources but has no row"),
        ("a README that says otherwise", lambda r: write(r, "sim/top/README.md", "May include: nothing.\n"),
         "sim/top/README.md: 'May include:' says [], docs/design.md says ['models/base']"),
        ("a folder built as no library", lambda r: write(r, "CMakeLists.txt", "acmesim_folder_library(models/base LINKS x)\n"),
         "builds no acmesim_folder_library(sim/top ...)"),
        ("a row naming another library",
         lambda r: write(r, "docs/design.md", DESIGN.replace("`acmesim_top`", "`acmesim_other`")),
         "sim/top's library is acmesim_top, not acmesim_other"),
        ("a folder without a README", lambda r: os.remove(os.path.join(r, "sim/top/README.md")),
         "sim/top/README.md: missing"),
        ("a README that does not say what the folder may include",
         lambda r: write(r, "sim/top/README.md", "# sim/top\n"), "sim/top/README.md: no 'May include:' line"),
        ("an include in angle brackets of a folder above",
         lambda r: write(r, "models/base/Base.cpp", "#include <sim/top/Top.hpp>\n"),
         "models/base/Base.cpp:1: includes sim/top/Top.hpp, but models/base may include only"),
        ("a relative include", lambda r: write(r, "sim/top/Top.cpp", '#include "../top/Top.hpp"\n'),
         "sim/top/Top.cpp:1: includes ../top/Top.hpp: spell a header of the tree by its path from the root"),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        good = os.path.join(tmp, "good")
        make_tree(good)
        code, out = run(good)
        expect(code == 0, "a tree that keeps its table passes", out)
        for name, breaks, message in cases:
            root = os.path.join(tmp, name.replace(" ", "-"))
            make_tree(root)
            breaks(root)
            code, out = run(root)
            expect(code == 1 and message in out, f"{name}: expected exit 1 and '{message}'", out)
    print(f"check_layers.py passes a good tree and fails each of {len(cases)} broken ones")
    return 0


if __name__ == "__main__":
    sys.exit(main())
