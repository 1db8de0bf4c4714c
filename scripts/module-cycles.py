#!/usr/bin/env python3
"""Fails on import cycles among the modules of a folder: for every folder under the crate roots
given, its modules (each .rs file but mod.rs, each subfolder as one) and the paths each names
(`super::x`, `crate::a::x`, `use super::{x, y}`), outside comments and test modules. A cycle is a
set of modules that reach each other; `--known FOLDER` names a folder whose cycles are known and
still to be untangled (reported, not failed).

Usage: module-cycles.py [--known FOLDER]... CRATE_SRC...   (e.g. src core/src)"""
import os
import re
import sys


def source_of(path):
    """The file's text without comments and without its test module."""
    text = open(path, encoding='utf-8', errors='replace').read()
    cut = re.search(r'#\[cfg\(test\)\]\s*mod tests\b', text)
    if cut:
        text = text[:cut.start()]
    text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
    return re.sub(r'//[^\n]*', '', text)


def module_path(crate_src, path):
    """The module path of a file, as segments from the crate root (mod.rs: its folder's)."""
    parts = os.path.relpath(path, crate_src)[:-3].split(os.sep)
    if parts[-1] in ('mod', 'lib', 'main'):
        parts = parts[:-1]
    return parts


def named_paths(text, here, is_folder_module):
    """Absolute module paths (segments) the text names, `super::` resolved from `here`."""
    paths = []
    spans = [(m.group(1), m.group(2)) for m in re.finditer(r'\b((?:crate|super|self)(?:::\w+)*)::\{([^{}]*)\}', text)]
    for prefix, group in spans:
        for item in group.split(','):
            head = re.match(r'\s*(\w+)', item)
            if head:
                paths.append(prefix + '::' + head.group(1))
    paths += re.findall(r'\b(?:crate|super|self)(?:::\w+)+', text)
    # `super` in a folder's mod.rs is the folder's parent; in a file, the file's folder.
    base = here if is_folder_module else here[:-1]
    out = []
    for p in paths:
        segs = p.split('::')
        if segs[0] == 'crate':
            out.append(segs[1:])
            continue
        at = list(base) if segs[0] in ('super', 'self') else []
        if segs[0] == 'self':
            at = list(here)
        rest = segs[1:]
        if segs[0] == 'super':
            rest = segs[1:]
            while rest and rest[0] == 'super':
                at = at[:-1]
                rest = rest[1:]
        out.append(at + rest)
    return out


def cycles(crate_src, folder):
    """The cycles among the modules of `folder` (a directory under `crate_src`)."""
    mods = set()
    for entry in os.listdir(folder):
        full = os.path.join(folder, entry)
        if entry.endswith('.rs') and entry not in ('mod.rs', 'lib.rs', 'main.rs'):
            mods.add(entry[:-3])
        elif os.path.isdir(full) and any(f.endswith('.rs') for _, _, fs in os.walk(full) for f in fs):
            mods.add(entry)
    prefix = module_path(crate_src, os.path.join(folder, 'mod.rs'))
    edges = {m: set() for m in mods}
    for dirpath, _, files in os.walk(folder):
        for f in files:
            if not f.endswith('.rs'):
                continue
            path = os.path.join(dirpath, f)
            here = module_path(crate_src, path)
            if len(here) <= len(prefix):
                continue
            me = here[len(prefix)]
            for named in named_paths(source_of(path), here, f == 'mod.rs'):
                if named[:len(prefix)] == prefix and len(named) > len(prefix):
                    other = named[len(prefix)]
                    if other in mods and other != me:
                        edges[me].add(other)
    return strongly_connected(edges)


def strongly_connected(edges):
    """Tarjan's strongly connected components of more than one module, each sorted."""
    index, low, stack, on, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def main(args):
    known, roots = set(), []
    while args:
        arg = args.pop(0)
        if arg == '--known':
            known.add(os.path.normpath(args.pop(0)))
        else:
            roots.append(arg)
    failed = False
    for crate_src in roots:
        for dirpath, _, _ in os.walk(crate_src):
            for cycle in cycles(crate_src, dirpath):
                folder = os.path.normpath(dirpath)
                if folder in known:
                    print(f'module-cycles: known, still to untangle in {folder}: {" ".join(cycle)}')
                else:
                    print(f'module-cycles: {folder}: {" ".join(cycle)} import each other')
                    failed = True
    if failed:
        sys.exit(1)
    print('module-cycles: no import cycles inside a folder' + (' but the known ones' if known else ''))


if __name__ == '__main__':
    main(sys.argv[1:])
