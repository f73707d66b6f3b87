#!/usr/bin/env python3
"""scripts/upgrade_sync.py: keep the routines an upgrade fragment re-creates
in step with the install script's sources.

    python3 scripts/upgrade_sync.py src/upgrade/0.2--0.3/40_refuse.sql [...]

An upgrade fragment re-creates a changed routine in full (CREATE [OR
REPLACE] FUNCTION pgbenchx.name(...) ... $$;).  When several changes touch
the same routine, each fragment's copy must be the final one of src/sql, or
ALTER EXTENSION UPDATE would leave an older body than a fresh install has
(test/t/036_upgrade.pl compares them).  This rewrites, in each fragment
given, the body of every routine it creates with the one src/sql/*.sql
creates under the same name, keeping the fragment's own CREATE or CREATE
OR REPLACE.  It prints what it replaced, and fails on a routine src/sql does
not have.
"""
import glob
import re
import sys

START = re.compile(r'^CREATE (OR REPLACE )?(FUNCTION|PROCEDURE) ([\w.]+)\(', re.M)


def routine_end(text, start):
    """The end (after its ';' and newline) of the routine starting at start."""
    m = re.compile(r'^(?:END )?\$\$;\n|^LANGUAGE [^\n]*;\n', re.M).search(text, start)
    if m is None:
        raise SystemExit('no end of the routine at offset %d' % start)
    # a body quoted with $$ ends at its closing $$; a C function at LANGUAGE ...;
    dollar = text.find('$$', start)
    if dollar != -1 and dollar < m.start():
        close = re.compile(r'\$\$[^\n]*;\n').search(text, text.find('$$', dollar + 2))
        return close.end()
    return m.end()


def routines(text):
    out = {}
    for m in START.finditer(text):
        out.setdefault(m.group(3), []).append((m.start(), routine_end(text, m.start())))
    return out


def main(paths):
    source = ''.join(open(p).read() for p in sorted(glob.glob('src/sql/*.sql')))
    src = routines(source)
    for path in paths:
        text = open(path).read()
        found = routines(text)
        # replace from the end so that offsets stay valid
        edits = []
        for name, spans in found.items():
            if name not in src or len(src[name]) != 1:
                # overloaded (run_sweep) or unknown: match by the first line
                for (a, b) in spans:
                    first = text[a:text.index('\n', a)]
                    first = re.sub(r'^CREATE (OR REPLACE )?', 'CREATE ', first)
                    cands = [(x, y) for (x, y) in src.get(name, []) if source[x:source.index('\n', x)] == first]
                    if len(cands) > 1:
                        # the same first line (run_sweep): the first parameter tells them apart
                        second = text[a:text.index('\n', text.index('\n', a) + 1)]
                        cands = [(x, y) for (x, y) in cands
                                 if source[x + len('CREATE '):source.index('\n', source.index('\n', x) + 1)]
                                 == re.sub(r'^CREATE (OR REPLACE )?', '', second)]
                    if len(cands) != 1:
                        raise SystemExit('%s: %s is not created once in src/sql' % (path, name))
                    edits.append((a, b, cands[0]))
            else:
                for (a, b) in spans:
                    edits.append((a, b, src[name][0]))
        for (a, b, (x, y)) in sorted(edits, reverse=True):
            head = 'CREATE OR REPLACE ' if text[a:b].startswith('CREATE OR REPLACE ') else 'CREATE '
            body = source[x:y]
            body = head + body[len('CREATE '):] if body.startswith('CREATE ') and not body.startswith('CREATE OR REPLACE ') else body
            if text[a:b] != body:
                print('%s: %s' % (path, text[a:text.index('(', a)].split()[-1]))
            text = text[:a] + body + text[b:]
        open(path, 'w').write(text)


if __name__ == '__main__':
    main(sys.argv[1:])
