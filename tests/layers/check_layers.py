#!/usr/bin/env python3
"""Checks the tree against the layer table of docs/design.md ("Layers"): each folder of models/ and
sim/ is a row, in order from the bottom up, with the folders it may include. Fails (exit 1), naming
the file and the line, when

- a file includes a header of a folder its row does not allow (in quotes or angle brackets), or
  one not spelt by its path from the root (models/... or sim/...), whose folder cannot be told;
- a row allows a folder that is not listed above it (so no folder can depend on one above it, nor
  on itself through another);
- files of one folder include each other in a circle (a header and its .cpp count as one);
- a folder with sources has no row, or a row names no folder;
- a folder's README.md is missing, or its "May include:" line says other than its row;
- a row's library is not that folder's library in CMakeLists.txt (acmesim_folder_library).

Usage: check_layers.py [ROOT]   (ROOT: the source tree, by default the one this script is in)
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*(?:"([^"]+)"|<([^>]+)>)')
ROW = re.compile(r'^\|\s*`([^`]+)`\s*\|\s*([^|]*)\|[^|]*\|\s*([^|]*)\|\s*$')
SOURCE_EXTENSIONS = (".cpp", ".hpp")
LAYER_ROOTS = ("models", "sim")


def read_table(root):
    """[(folder, library, [allowed patterns], line number)] of docs/design.md's Layers table."""
    path = os.path.join(root, "docs", "design.md")
    rows, in_layers = [], False
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.startswith("## "):
                in_layers = line.strip() == "## Layers"
                continue
            match = ROW.match(line.rstrip("\n")) if in_layers else None
            if match:
                folder, library, allowed = match.groups()
                patterns = re.findall(r"`([^`]+)`", allowed)
                rows.append((folder, library.strip().strip("`"), patterns, number))
    return rows


def expand(pattern, folders):
    """The folders a "may include" entry names: one folder, or every folder under a root (`models/*`)."""
    if pattern.endswith("/*"):
        return [f for f in folders if f.startswith(pattern[:-1])]
    return [pattern] if pattern in folders else []


def source_folders(root):
    found = set()
    for top in LAYER_ROOTS:
        for directory, _, files in os.walk(os.path.join(root, top)):
            if any(name.endswith(SOURCE_EXTENSIONS) for name in files):
                found.add(os.path.relpath(directory, root))
    return found


def includes_of(root, folder):
    """(file, line number, included path) of every project include in the folder's sources."""
    out = []
    for name in sorted(os.listdir(os.path.join(root, folder))):
        if not name.endswith(SOURCE_EXTENSIONS):
            continue
        path = os.path.join(folder, name)
        with open(os.path.join(root, path), encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                match = INCLUDE.match(line)
                if not match:
                    continue
                quoted, angled = match.groups()
                # A header of the tree, however it is spelt; <vector> and the like are not.
                if quoted is not None or angled.split("/")[0] in LAYER_ROOTS:
                    out.append((path, number, quoted if quoted is not None else angled))
    return out


def circles(edges):
    """Every set of units that include each other in a circle (Tarjan's strongly connected components)."""
    index, low, stack, on_stack, found, counter = {}, {}, [], set(), [], [0]

    def visit(unit):
        index[unit] = low[unit] = counter[0]
        counter[0] += 1
        stack.append(unit)
        on_stack.add(unit)
        for other in sorted(edges.get(unit, ())):
            if other not in index:
                visit(other)
                low[unit] = min(low[unit], low[other])
            elif other in on_stack:
                low[unit] = min(low[unit], index[other])
        if low[unit] == index[unit]:
            component = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                component.append(other)
                if other == unit:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for unit in sorted(edges):
        if unit not in index:
            visit(unit)
    return found


def check(root):
    problems = []
    rows = read_table(root)
    if not rows:
        return ["docs/design.md: no Layers table (a '## Layers' section with rows | `folder` | library | ... |)"]
    table = [r[0] for r in rows]
    on_disk = source_folders(root)
    allowed = {}
    for position, (folder, library, patterns, line) in enumerate(rows):
        where = f"docs/design.md:{line}"
        if table.count(folder) > 1:
            problems.append(f"{where}: {folder} has more than one row")
        if not os.path.isdir(os.path.join(root, folder)):
            problems.append(f"{where}: {folder}: no such folder")
        below = table[:position]
        allowed[folder] = set()
        for pattern in patterns:
            named = expand(pattern, table)
            if not named:
                problems.append(f"{where}: {folder} may include {pattern}, which names no folder of the table")
            for other in named:
                if other not in below:
                    problems.append(f"{where}: {folder} may include {other}, which is not listed above it")
                allowed[folder].add(other)
        readme = os.path.join(root, folder, "README.md")
        if not os.path.isfile(readme):
            problems.append(f"{folder}/README.md: missing (what the folder holds, what it may include, where its tests are)")
        else:
            with open(readme, encoding="utf-8") as f:
                said = [l for l in f if l.startswith("May include:")]
            names = set(re.findall(r"`([^`]+)`", said[0])) if said else None
            expanded = {o for p in (names or ()) for o in expand(p, table)} if names else set()
            if said and "nothing" in said[0] and not names:
                expanded = set()
            if not said:
                problems.append(f"{folder}/README.md: no 'May include:' line")
            elif expanded != allowed[folder]:
                problems.append(f"{folder}/README.md: 'May include:' says {sorted(expanded)}, "
                                f"docs/design.md says {sorted(allowed[folder])}")
        if library.startswith("acmesim_"):
            cmake = open(os.path.join(root, "CMakeLists.txt"), encoding="utf-8").read()
            if f"acmesim_folder_library({folder} " not in cmake and f"acmesim_folder_library({folder})" not in cmake:
                problems.append(f"{where}: {folder} is library {library}, but CMakeLists.txt builds no "
                                f"acmesim_folder_library({folder} ...)")
            elif library != "acmesim_" + os.path.basename(folder):
                problems.append(f"{where}: {folder}'s library is acmesim_{os.path.basename(folder)}, not {library}")
    for folder in sorted(on_disk - set(table)):
        problems.append(f"{folder}: holds sources but has no row in docs/design.md's Layers table")

    for folder in table:
        if folder not in on_disk:
            continue
        units = {}
        for path, line, included in includes_of(root, folder):
            target = os.path.dirname(included)
            if included.split("/")[0] in LAYER_ROOTS and target not in table:
                problems.append(f"{path}:{line}: includes {included}, which is in no folder of the table")
                continue
            if target == "" or ".." in included.split("/"):
                problems.append(f"{path}:{line}: includes {included}: spell a header of the tree by its path from "
                                f"the root (models/... or sim/...), so that its folder can be checked")
                continue
            if target == folder:
                unit = os.path.splitext(path)[0]
                units.setdefault(unit, set()).add(os.path.splitext(included)[0])
            elif target in table and target not in allowed[folder]:
                may = ", ".join(sorted(allowed[folder])) or "nothing of the tree"
                problems.append(f"{path}:{line}: includes {included}, but {folder} may include only: {may} "
                                f"(docs/design.md, Layers)")
        for circle in circles({u: {v for v in vs if v != u} for u, vs in units.items()}):
            problems.append(f"{folder}: these files include each other in a circle: {', '.join(circle)}")
    return problems


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    problems = check(os.path.abspath(root))
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} layering problems")
        return 1
    print("layers: every include within what docs/design.md allows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
