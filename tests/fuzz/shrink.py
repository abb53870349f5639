"""Shrinks a failing fuzz program to a small reproducer.

Greedy reduction of the program's AST (prog.py), repeated until nothing more goes: each candidate edit
is kept when the edited program is still well-defined (its plain build passes, fuzz.plain_check) and
still fails the same way (same class; for a wrong derivative the same first failing check; for an
internal error or a crash the same message).  Edits, biggest first:

  - remove a name: a helper function, or a variable/array with every statement that mentions it
  - delete a statement (not the ones marked `keep`: the loop filling an array before it is read, a
    barrier between phases, heap allocation and realloc)
  - replace an if/else, a block, a single/masked/critical block by its body
  - lower loop bounds (to the least value the bound could take, so indices stay in range) and the
    bounds of data-dependent while loops
  - replace an expression by a constant or by one of its operands (the guarded forms, log(1 + b*b) and
    so on, are single nodes: replacing one never produces an unguarded call); a condition by 1 or 0;
    an index by 0
  - drop OpenMP schedule clauses, struct fields, the harness's width-4 and split-mode checks, and lower n

Usage from fuzz.py (--shrink) or alone:  python3 tests/fuzz/shrink.py SEED [--omp] --opt O2 [--threads T]
"""

import copy
import os
import re
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fuzz  # noqa: E402
import gen  # noqa: E402
from prog import (Expr, Stmt, Num, Var, Idx, Fld, Cmp, Bin, Decl, If, For, While, Omp, Block, Ret, Assign,  # noqa: E402
                  Func, walk)


def nodes(p):
    return list(walk(p))


def ident(name):
    return re.compile(r"\b%s\b" % re.escape(name))


def stmt_lists(p):
    """Every list of statements: (owner, field)."""
    for node, *_ in walk(p):
        for f in node.F:
            v = getattr(node, f)
            if isinstance(v, list) and v and isinstance(v[0], Stmt):
                yield node, f


def header(st):
    """The text of a statement without the statements inside it."""
    if isinstance(st, If) or isinstance(st, While):
        return st.k.c()
    if isinstance(st, For):
        return "%s %s %s" % (st.lo if isinstance(st.lo, int) else st.lo.c(), st.hi.c(), " ".join(st.pragma or []))
    if isinstance(st, Omp):
        return " ".join(st.clauses)
    if isinstance(st, Block):
        return ""
    return "\n".join(st.lines(""))


class Kept(Exception):
    """An edit would delete a statement the program needs to stay well-defined."""


def fills(st, rx):
    """st is a kept statement that only gives the thing rx names its values (its declaration, allocation,
    reallocation, or filling loop): it goes with it."""
    if isinstance(st, Decl) or isinstance(st, Ret):
        return True
    if isinstance(st, For):
        return all(isinstance(a, Assign) and rx.search(a.lhs.c()) for a in st.body)
    if isinstance(st, Assign):
        return bool(rx.search(st.lhs.c()))
    return not isinstance(st, (For, Assign))     # realloc, a whole parallel region


def purge(p, name, lists=None):
    """Deletes every statement that mentions name (compound statements only when their own header
    does), and name from the blocks freed at returns; in every function, or in `lists` [(node, field)].
    Raises Kept where that would delete a kept statement that is not name's own (the loop filling
    another array from name, say: that array would be read uninitialised)."""
    rx = ident(name)
    hit = False

    def clean(lst):
        nonlocal hit
        out = []
        for st in lst:
            if st.keep and rx.search("\n".join(st.lines(""))) and not fills(st, rx):
                if rx.search(header(st)) or not isinstance(st, (For, Omp)):
                    raise Kept()
            if isinstance(st, Ret):
                if name in st.frees:
                    st.frees.remove(name)
                    hit = True
                if st.e is not None and rx.search(st.e.c()):
                    hit = True
                    continue
                out.append(st)
                continue
            if rx.search(header(st)):
                hit = True
                continue
            for f in st.F:
                v = getattr(st, f)
                if isinstance(v, list):
                    setattr(st, f, clean(v))
            out.append(st)
        return out
    for node, field in lists or [(fn, "body") for fn in p.funcs]:
        setattr(node, field, clean(getattr(node, field)))
    return hit


# ---------------------------------------------------------------- edits: (sites(p) -> list, apply(q, site) -> bool)

def names_sites(p):
    out = [("fn", fn.name) for fn in p.funcs if fn.name != "f"] + [("struct", st.name) for st in p.structs]
    for node, *_ in walk(p):
        if isinstance(node, Decl):
            out.append(("var", node.name))
    return out


def names_apply(q, site):
    kind, name = site
    if kind == "fn":
        q.funcs = [fn for fn in q.funcs if fn.name != name]
    if kind == "struct":     # only when nothing uses it any more (else it does not compile)
        q.structs = [st for st in q.structs if st.name != name]
        return True
    return purge(q, name) or kind == "fn"


def delete_sites(p):
    """Statements in a list, but the kept ones (unless they are loops left empty) and a function's final
    return."""
    out = []
    for i, (node, parent, field, idx) in enumerate(nodes(p)):
        empty = isinstance(node, For) and not node.body
        if isinstance(node, Stmt) and idx is not None and (not node.keep or empty):
            if not (isinstance(node, Ret) and isinstance(parent, Func)):
                out.append(i)
    return out


def delete_apply(q, i):
    node, parent, field, idx = nodes(q)[i]
    getattr(parent, field).pop(idx)
    return True


def splice_sites(p):
    out = []
    for i, (node, parent, field, idx) in enumerate(nodes(p)):
        if idx is None:
            continue
        if isinstance(node, If):
            out += [(i, "then"), (i, "els")] if node.els else [(i, "then")]
        elif isinstance(node, Block) or (isinstance(node, Omp) and node.what in ("single", "masked", "master", "critical",
                                                                                  "parallel")):
            out.append((i, "body"))
    return out


def splice_apply(q, site):
    i, f = site
    node, parent, field, idx = nodes(q)[i]
    lst = getattr(parent, field)
    lst[idx:idx + 1] = getattr(node, f) or []
    return True


def bound_sites(p):
    out = []
    for i, (node, *_) in enumerate(nodes(p)):
        if isinstance(node, For) and not node.keep:
            lo = getattr(node, "himin", None)
            if isinstance(node.hi, Num) and node.hi.v > 1:
                out.append((i, 1))
            elif not isinstance(node.hi, Num) and lo is not None and lo >= 1:
                out.append((i, lo))
        if isinstance(node, While) and node.bound > 1:
            out.append((i, 1))
    return out


def bound_apply(q, site):
    i, v = site
    node = nodes(q)[i][0]
    if isinstance(node, While):
        node.bound = v
    else:
        node.hi = Num(v, "int")
    return True


def lvalue_ids(p):
    """Nodes that must stay as they are: assignment targets and what they are made of (the indices of a
    kept assignment too: the loop filling an array must fill all of it)."""
    out, frozen = set(), set()
    for node, *_ in walk(p):
        if isinstance(node, Assign):
            for n, *_ in walk(node.lhs):
                out.add(id(n))
                if node.keep:
                    frozen.add(id(n))
    return out, frozen


def expr_sites(p):
    out = []
    lv, frozen = lvalue_ids(p)
    for i, (node, parent, field, idx) in enumerate(nodes(p)):
        if not isinstance(node, Expr) or id(node) in frozen:
            continue
        if isinstance(parent, Idx) and field == "i" and not isinstance(node, Num):
            out.append((i, "zero"))             # an index: 0 is always in range
            continue
        if id(node) in lv:
            continue
        if isinstance(node, Cmp) and isinstance(parent, (If, While)):
            out += [(i, "one"), (i, "zeroc")]
            continue
        if isinstance(parent, Decl) and parent.ty == "int":
            out.append((i, "zero"))             # a data-dependent trip count
            continue
        if node.ty not in ("double", "float") or isinstance(node, Num):
            continue
        if isinstance(parent, (Idx, Fld)) and field == "base":
            continue
        out.append((i, "const"))
        for f in node.F:
            v = getattr(node, f)
            kids = v if isinstance(v, list) else [v]
            for k, kid in enumerate(kids):
                if isinstance(kid, Expr) and kid.ty in ("double", "float", "int") and not isinstance(kid, Num) \
                        and not (isinstance(node, (Idx, Fld)) and f == "base"):
                    out.append((i, (f, k if isinstance(v, list) else None)))
    return out


def expr_apply(q, site):
    i, how = site
    node, parent, field, idx = nodes(q)[i]
    if how == "zero":
        new = Num(0, "int")
    elif how == "one":
        new = Num(1, "int")
    elif how == "zeroc":
        new = Num(0, "int")
    elif how == "const":
        new = Num(0.5, node.ty)
    else:
        f, k = how
        new = getattr(node, f)[k] if k is not None else getattr(node, f)
    if idx is None:
        setattr(parent, field, new)
    else:
        getattr(parent, field)[idx] = new
    return True


DATA_CLAUSE = re.compile(r"^(reduction\([^:]*:|private\(|firstprivate\(|lastprivate\()\s*(\w+)\s*\)$")


def clause_sites(p):
    """OpenMP clauses: a schedule, nowait, a critical section's name; a data clause together with every
    statement of the construct that mentions its variable (so that no race appears)."""
    out = []
    for i, (node, *_) in enumerate(nodes(p)):
        cl = node.pragma if isinstance(node, For) and node.pragma else node.clauses if isinstance(node, Omp) else []
        for j, c in enumerate(cl):
            if c.startswith("schedule") or c == "nowait" or c.startswith("(") or DATA_CLAUSE.match(c):
                out.append((i, j))
    return out


def clause_apply(q, site):
    i, j = site
    node = nodes(q)[i][0]
    cl = node.pragma if isinstance(node, For) else node.clauses
    m = DATA_CLAUSE.match(cl[j])
    cl.pop(j)
    if m:
        purge(q, m.group(2), [(node, "body")])
    return True


def field_sites(p):
    return [(k, name) for k, st in enumerate(p.structs) for ty, name in st.fields if len(st.fields) > 1]


def field_apply(q, site):
    k, name = site
    st = q.structs[k]
    st.fields = [f for f in st.fields if f[1] != name]
    rx = re.compile(r"(\.|->)%s\b" % re.escape(name))

    def clean(lst):
        out = []
        for s in lst:
            if s.keep and isinstance(s, Assign) and rx.search("\n".join(s.lines(""))) and not rx.search(s.lhs.c()):
                raise Kept()
            if isinstance(s, Ret) and s.e is not None and rx.search(s.e.c()):
                continue
            if rx.search(header(s)):
                continue
            for f in s.F:
                v = getattr(s, f)
                if isinstance(v, list):
                    setattr(s, f, clean(v))
            out.append(s)
        return out
    for fn in q.funcs:
        fn.body = clean(fn.body)
    return True


def harness_sites(p):
    h = p.h
    out = []
    if h.get("width4"):
        out.append("width4")
    if h.get("split"):
        out.append("split")
    if h["n"] > gen.NMIN:
        out.append("n")
    return out


def harness_apply(q, site):
    h = q.h
    if site == "n":
        h["n"] = gen.NMIN
        for k in ("x0", "w", "c0"):
            h[k] = h[k][:gen.NMIN]
    else:
        h[site] = False
    return True


PASSES = [("names", names_sites, names_apply), ("delete", delete_sites, delete_apply),
          ("splice", splice_sites, splice_apply), ("harness", harness_sites, harness_apply),
          ("bounds", bound_sites, bound_apply), ("clauses", clause_sites, clause_apply),
          ("fields", field_sites, field_apply), ("exprs", expr_sites, expr_apply)]


def size(p):
    return len(p.body_c())


def shrink(p, still_fails, max_tests=600, max_seconds=1200, log=None):
    """Greedy reduction of program p while still_fails(candidate) holds."""
    start = time.time()
    tests = 0
    changed = True
    while changed:
        changed = False
        for pname, sites, apply in PASSES:
            pos = 0
            while True:
                if tests >= max_tests or time.time() - start > max_seconds:
                    return p
                cands = sites(p)
                if pos >= len(cands):
                    break
                q = copy.deepcopy(p)
                try:
                    ok = apply(q, cands[pos])
                    text_changed = ok and q.body_c() != p.body_c() or q.h != p.h
                except Exception:
                    text_changed = False
                if not text_changed:
                    pos += 1
                    continue
                tests += 1
                if still_fails(q):
                    if log:
                        log("  %s: %d -> %d chars (%d tests)" % (pname, size(p), size(q), tests))
                    p = q
                    changed = True
                else:
                    pos += 1
    return p


def tester(want, work, opt, omp, threads):
    """A still_fails for results like `want` (a fuzz.Result): same class and detail."""
    counter = [0]

    def still_fails(q):
        counter[0] += 1
        src = os.path.join(work, "cand%d.c" % counter[0])
        with open(src, "w") as f:
            f.write(q.c())
        try:
            if fuzz.plain_check(src, src[:-2] + "-plain", omp):
                return False
            cls, detail = fuzz.build(src, src[:-2] + "-exe", opt, omp)
            if want.cls in ("internal", "refused"):
                return cls == want.cls and detail == want.detail
            if cls != "ok":
                return False
            r = fuzz.run(src[:-2] + "-exe", threads or 1)
            return r[0] == want.cls and r[1] == want.detail
        finally:
            for suffix in (".c", "-plain", "-exe"):
                try:
                    os.remove(src[:-2] + suffix)
                except OSError:
                    pass
    return still_fails


def reproducer_text(p, r, opt, omp, threads, fails):
    """The shrunk program with a header saying how to see the failure."""
    name = "repro.c"
    build = "bin/parad-cc -%s%s %s -o repro" % (opt, " -fopenmp" if omp else "", name)
    run = "%s./repro" % ("OMP_NUM_THREADS=%d " % threads if omp else "")
    what = {"wrong": "wrong derivative, first failing check '%s'" % r.detail,
            "internal": r.detail,
            "crash": "the built program crashes: %s" % r.detail,
            "refused": "refused: %s" % r.detail}.get(r.cls, r.cls)
    head = ["/* Parad fuzz reproducer, shrunk from %s seed %d (tests/fuzz/fuzz.py)." % ("OpenMP" if omp else "serial", r.seed),
            " *   %s && %s" % (build, run),
            " * What is wrong: %s" % what]
    if r.cls in ("wrong", "crash"):
        for line in fails.splitlines()[:8]:
            head.append(" *   " + line)
    head.append(" * The checks and tolerances are described in tests/fuzz/harness.py; the plain build")
    head.append(" *   clang -O1 -DFUZZ_PLAIN%s %s -lm -o plain && ./plain   shows the program itself is fine. */" %
                (" -fopenmp" if omp else "", name))
    return "\n".join(head) + "\n" + p.c()


def shrink_one(r, outdir, features=None, log=print, max_tests=600):
    """Shrinks the failure r (a fuzz.Result); writes outdir/repro-<class>-<program>-<opt>.c; returns its path."""
    os.makedirs(outdir, exist_ok=True)
    work = tempfile.mkdtemp(prefix="parad-shrink-")
    p = gen.generate(r.seed, r.omp, features)
    if "ran out of time" in r.detail:
        fuzz.COMPILE_TIMEOUT = 20     # the programs build in a second or two: 20 s is a hang already
    still = tester(r, work, r.opt, r.omp, r.threads)
    if not still(p):
        log("shrink: %s does not fail the same way again (flaky?); not shrunk" % r.name())
        q = p
    else:
        q = shrink(p, still, max_tests=max_tests, log=log)
    # the failure lines of the shrunk program, for its header
    src = os.path.join(work, "final.c")
    with open(src, "w") as f:
        f.write(q.c())
    fails = ""
    cls, detail = fuzz.build(src, src[:-2] + "-exe", r.opt, r.omp)
    if cls == "ok":
        res = fuzz.run(src[:-2] + "-exe", r.threads or 1)
        fails = res[2] if len(res) > 2 else ""
    else:
        fails = detail
    path = os.path.join(outdir, "repro-%s-%s-%s.c" % (r.cls, fuzz.program_name(r.seed, r.omp), r.opt))
    with open(path, "w") as f:
        f.write(reproducer_text(q, r, r.opt, r.omp, r.threads or 1, fails))
    import shutil
    shutil.rmtree(work, ignore_errors=True)
    log("shrink: %s -> %s (%d -> %d chars)" % (r.name(), path, size(p), size(q)))
    return path


def shrink_failures(results, outdir, features=None):
    """One failure of each distinct signature (class, detail, serial/OpenMP), shrunk."""
    seen = set()
    for r in sorted(results, key=lambda r: (r.omp, r.seed, r.opt)):
        if r.cls in ("ok", "refused", "genbug") or r.signature() in seen:
            continue
        seen.add(r.signature())
        shrink_one(r, outdir, features)


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument("seed", type=int)
    ap.add_argument("--omp", action="store_true")
    ap.add_argument("--opt", default="O2")
    ap.add_argument("--threads", type=int)
    ap.add_argument("--out", default="fuzz-repro")
    ap.add_argument("--max-tests", type=int, default=600)
    ap.add_argument("--refusal", action="store_true", help="shrink a refusal too (to see what is refused)")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="parad-shrink-")
    fuzz.COMPILE_TIMEOUT = 30
    rs = fuzz.fuzz_one(a.seed, a.omp, [a.opt], [a.threads or 1], work)
    r = rs[0]
    if r.cls == "ok" or (r.cls == "refused" and not a.refusal):
        sys.exit("seed %d: %s %s, nothing to shrink" % (a.seed, r.cls, r.detail))
    print("shrinking %s: %s %s" % (r.name(), r.cls, r.detail))
    shrink_one(r, a.out, max_tests=a.max_tests)
