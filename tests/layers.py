#!/usr/bin/env python3
"""The layers of the source tree, read from its #include lines.

- Arrows point down only: src/app may include src/sim and src/physics,
  src/sim may include src/physics, src/physics only itself and the public
  header include/ballpit/ballpit.h.
- The physics includes neither SDL nor <stdio.h> (it prints nothing and
  opens no file); the sim layer includes no SDL.
- Of src/physics, src/sim and src/app include program.h alone: the one
  header that says what the program's own layers use beyond the public
  header.
- No include circles between modules (a module is a .c with its .h): the
  graph of "A's files include B.h" has no cycle, inside a layer too.

usage: layers.py SOURCE_DIR   (TAP on stdout)
"""
import os
import re
import sys

from taplib import check, done

LAYERS = ["src/physics", "src/sim", "src/app"]  # bottom to top
INCLUDE = re.compile(r'^\s*#\s*include\s+([<"])([^>"]+)[>"]', re.M)


def read_tree(source):
    """{module: (layer, set of (kind, name, path from source or None) included)}

    A module is named by its path in its layer without the extension
    (src/physics/solver/bodies.c: solver/bodies). A quoted include is
    looked for beside the file first, then under each layer and include/,
    as the compiler does with the build's include directories."""
    files, modules = [], {}
    for layer in LAYERS + ["include/ballpit"]:
        for top, dirs, names in os.walk(os.path.join(source, layer)):
            dirs.sort()
            for name in sorted(names):
                if name.endswith((".c", ".h")):
                    path = os.path.relpath(os.path.join(top, name), source)
                    files.append((layer, path))
    for layer, path in files:
        module = os.path.splitext(os.path.relpath(path, layer))[0]
        with open(os.path.join(source, path)) as f:
            incs = set()
            for kind, name in INCLUDE.findall(f.read()):
                roots = [os.path.dirname(path)] + LAYERS if kind == '"' else ["include"]
                found = [os.path.normpath(os.path.join(root, name)) for root in roots
                         if os.path.isfile(os.path.join(source, root, name))]
                if kind == "<" and name != "ballpit/ballpit.h":
                    found = []  # a system header, even if a file of ours has its name
                incs.add((kind, name, found[0] if found else None))
        old = modules.get(module, (layer, set()))
        if old[0] != layer:
            raise SystemExit("module %s in both %s and %s" % (module, old[0], layer))
        modules[module] = (layer, old[1] | incs)
    return modules


def cycles(graph):
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def main():
    source = sys.argv[1]
    modules = read_tree(source)
    rank = {layer: k for k, layer in enumerate(LAYERS)}
    rank["include/ballpit"] = 0
    graph, upward, banned, inside = {}, [], [], []
    for module, (layer, incs) in modules.items():
        graph[module] = set()
        for kind, name, path in incs:
            if kind == "<":
                if name.startswith("SDL") and layer in ("src/physics", "src/sim", "include/ballpit"):
                    banned.append("%s/%s includes <%s>" % (layer, module, name))
                if name == "stdio.h" and layer in ("src/physics", "include/ballpit"):
                    banned.append("%s/%s includes <stdio.h>" % (layer, module))
            if path is None:
                continue  # a system header, or a header of its own directory that is not ours
            owner = next(l for l in LAYERS + ["include/ballpit"] if path.startswith(l + "/"))
            target = os.path.splitext(os.path.relpath(path, owner))[0]
            if target == module:
                continue
            if (layer != "src/physics" and modules[target][0] == "src/physics"
                    and target != "program"):
                inside.append("%s/%s includes %s" % (layer, module, name))
            if rank[modules[target][0]] > rank[layer]:
                upward.append("%s/%s includes %s (%s)" % (layer, module, name,
                                                          modules[target][0]))
            graph[module].add(target)
    check(not upward, "no layer includes one above it", "\n".join(upward))
    check(not banned, "no SDL below the app, no stdio in the physics", "\n".join(banned))
    check(not inside, "the program's layers reach the physics through program.h alone",
          "\n".join(inside))
    found = cycles(graph)
    check(not found, "no include circles between modules",
          "\n".join(" <-> ".join(c) for c in found))
    check(len(modules) > 40, "the tree was read (%d modules)" % len(modules))
    return done()


if __name__ == "__main__":
    sys.exit(main())
