"""Random well-defined C programs for Parad's differential fuzzer (driven by fuzz.py).

`generate(seed, omp)` returns a prog.Program: helper functions and one differentiated entry

    double f(double *x, double *y, const double *c, int n, double s)     (y, c, s and the result optional)

whose objective, for the harness, is  f's result + sum_i w_i y_i  as a function of x[0..n-1] and s.

Well-defined by construction, so that any difference the harness sees is the compiler's:
  - no undefined behaviour: indices are loop variables whose range is known to fit the array, or are
    reduced modulo the array's length (every integer used as an index is non-negative); divisions are by
    (k + b*b) with k > 0; log, sqrt, pow, cbrt take 1 + b*b; exp, tan, sinh, cosh take tanh(b) or sin(b);
    data-dependent integers are (int)(3 + 3 tanh(b)), in 0..6; memcpy never overlaps (memmove where it
    could); every array is filled before it is read; heap blocks are freed on every return path.
  - bounded values, so no inf or NaN: every expression carries a bound on its magnitude (`mag`), every
    variable and array a cap.  A plain assignment must fit half the cap (else its right side is squashed
    by tanh, sin, atan or e/(1+e^2)); the increments `+=` add, times the most iterations of the loops
    around them, must fit the other half; `*=` multiplies by a factor of magnitude at most 1.
  - OpenMP: data-race free and deterministic up to the reassociation of sums.  A worksharing loop writes
    shared arrays only at its own index i and reads them only there; other shared arrays it only reads;
    shared scalars change only through reductions, atomic updates and critical sections; phases of a
    region are separated by barriers.  Values whose last bits depend on the order of a reduction, an
    atomic or a critical sum are `noisy` and never decide a branch, an index or a kink (fabs, fmin, ...):
    otherwise two runs could take different paths.
"""

import math
import random

from prog import (walk, Case, Switch, Num, Var, Idx, Fld, Bin, Div, Un, Fn2, Cmp, Cond, Call, ICast, Cast, Addr, Text, Decl,
                  Assign, ExprS, Raw, If, For, While, Jump, Ret, Omp, Block, Func, StructDef, Program)

NMIN, NMAX = 3, 8        # the harness passes n in this range
LIMIT = {"double": 1000.0, "float": 100.0, "int": 1e6}
ACAP = 100.0             # the cap of every array element but x's
PCAP = 10.0              # the cap of helpers' scalar parameters

SERIAL = ["libm", "libm_extra", "float", "cond", "ternary", "loop_const", "loop_n", "loop_data", "while",
          "break", "return", "nested", "inplace", "alias", "local_array", "vla", "helpers", "noinline",
          "recursion", "structs", "struct_copy", "memcpy", "malloc", "calloc", "realloc", "write_x",
          "gather", "kinks", "struct_ret", "switch", "table", "swap", "grow"]
OPENMP = ["parallel_for", "region", "static", "static_chunk", "dynamic", "guided", "reduction_sum",
          "reduction_prod", "reduction_max", "reduction_min", "critical", "atomic", "private",
          "firstprivate", "lastprivate", "masked", "master", "single", "nowait", "omp_helper"]
# drawn on streams of their own (Gen): "restrict", "taskloop", "checkpoint", "checkpoint_nested",
# "checkpoint_helpers", "fnptr", "index_table", "strided", "clamped", "globals", "sort"
# only when named in --features: "affine" (indices from loop variables alone where a loop is in scope, no
# wrap-around, table or data: every access of a loop bounded, so that the check that the entry's pointers
# lie apart, ad/apart.c, is built for programs without "restrict" far more often)
GLEN = 8                 # the mutable global array G's length
IXLEN, IXMAX = 16, 3     # the index table IX: IXLEN ints in [0, IXMAX), IXMAX no more than any array's length

# magnitude of a unary function's result from its argument's (see prog.UNARY for the guarded forms)
UNARY_MAG = {
    "neg": lambda a: a, "sin": lambda a: min(1, a), "cos": lambda a: 1, "tanh": lambda a: min(1, a),
    "atan": lambda a: min(1.571, a), "fabs": lambda a: a, "exp": lambda a: 2.72, "exps": lambda a: 2.72,
    "log": lambda a: math.log1p(a * a), "sqrt": lambda a: math.sqrt(1 + a * a), "tan": lambda a: 0.55,
    "asinh": lambda a: math.asinh(a), "log1p": lambda a: math.log1p(a * a), "expm1": lambda a: 1.72,
    "erf": lambda a: 1, "cbrt": lambda a: (1 + a * a) ** (1 / 3), "sinh": lambda a: 1.18,
    "cosh": lambda a: 1.55, "floor": lambda a: a + 1, "sq": lambda a: a * a,
}
KINKS = {"fabs", "floor", "fmin", "fmax", "fmod"}
LIBM = ["sin", "cos", "tanh", "atan", "exp", "exps", "log", "sqrt", "tan", "sq"]
LIBM_EXTRA = ["asinh", "log1p", "expm1", "erf", "cbrt", "sinh", "cosh"]
MAXLEN = 12              # no array is longer than this (constant arrays 10, n + 2 grown by realloc to n + 4)
CONSTS = [0.5, 0.25, 0.75, 1.5, 2.0, 0.125, 1.25, 3.0, 0.1, 0.3]


class Len:
    """An array length or loop bound: `var + off` (var an int variable whose value lies in [vmin, vmax]),
    or the constant off."""

    def __init__(s, var, off, vmin=0, vmax=0):
        s.var, s.off, s.vmin, s.vmax = var, off, vmin, vmax

    def min(s):
        return (s.vmin if s.var else 0) + s.off

    def max(s):
        return (s.vmax if s.var else 0) + s.off

    def le(s, o):
        """s <= o whatever the variables hold"""
        if s.var is None:
            return s.off <= o.min()
        return s.var == o.var and s.off <= o.off

    def plus(s, k):
        return Len(s.var, s.off + k, s.vmin, s.vmax)

    def expr(s):
        if s.var is None:
            return Num(s.off, "int")
        if s.off == 0:
            return Var(s.var, "int")
        return Bin("+" if s.off > 0 else "-", Var(s.var, "int"), Num(abs(s.off), "int"))


NLEN = lambda off: Len("n", off, NMIN, NMAX)   # the entry's length n, plus off
MLEN = Len("m", 0, 1, MAXLEN)                  # the length parameter of helpers


class Sym:
    """A name in scope.  kind: scalar, int (non-negative), loop, array, structarr, structval, structptr."""

    def __init__(s, name, kind, ty="double", cap=0.0, length=None, writable=True, st=None):
        s.name, s.kind, s.ty, s.cap, s.length, s.writable, s.st = name, kind, ty, cap, length, writable, st
        s.acc = 0.0          # sum of the increments' bounds (+=, -=) so far, times their loops' trips
        s.noisy = False
        s.active = False     # may hold a value that depends on the inputs
        s.depth = 0          # loops around the declaration
        s.base = None        # a view's array
        s.hidden = False     # not to be read here (a reduction variable inside its loop, ...)
        s.dead = False       # a view of a block that was reallocated
        s.lo, s.hi = 0, None  # a loop variable's range [lo, hi)
        s.other = None       # a pointer chosen between two arrays: the second one

    def root(s):
        return s.base.root() if s.base else s

    def roots(s):
        """The arrays this name may point into."""
        return [s.root()] + ([s.other.root()] if s.other is not None else [])


def meet(a, b):
    return any(x in b for x in a)


class Gen:
    def __init__(s, seed, omp=False, features=None):
        s.r = random.Random(seed * 7919 + (1 if omp else 0))
        s.seed, s.omp = seed, omp
        s.marked_bodies = 0  # checkpointed loops whose inner loops were marked (their streams)
        s.pointer_calls = 0  # calls made through a function pointer, or considered (their streams)
        s.rs = random.Random(seed * 7919 + 24 + omp)  # the strided indices' stream
        s.rc = random.Random(seed * 7919 + 42 + omp)  # the clamped indices' stream
        r = s.r
        if features is None:
            features = {f for f in SERIAL if r.random() < (0.45 if omp else 0.6)}
            features |= {"libm", "cond"}
            if omp:
                features |= {f for f in OPENMP if r.random() < 0.6}
                features.add(r.choice(["parallel_for", "region"]))
                features.add(r.choice(["static", "static_chunk", "dynamic", "guided"]))
            # the entry's pointers declared restrict (the harness passes distinct arrays): drawn from a
            # stream of its own, so that the programs of seeds from before it existed stay the same
            if random.Random(seed * 7919 + 2 + omp).random() < 0.5:
                features.add("restrict")
            # a region's worksharing loops as task loops in a single construct, or as a task per iteration
            # in a task group (task_reduction/in_reduction for sums): a stream of its own too
            if omp and random.Random(seed * 7919 + 4).random() < 0.4:
                features.add("taskloop")
            # the entry's top-level loops checkpointed (__parad_checkpoint_loop()) now and then
            if random.Random(seed * 7919 + 6 + omp).random() < 0.4:
                features.add("checkpoint")
                # and now and then loops inside them too (nested checkpointed loops)
                if random.Random(seed * 7919 + 8 + omp).random() < 0.5:
                    features.add("checkpoint_nested")
            # helpers' loops checkpointed: run again before their reverse sweep (called in loops), on the
            # caller's local arrays, by the threads of a region (a stream of its own)
            if random.Random(seed * 7919 + 12 + omp).random() < 0.3:
                features.add("checkpoint_helpers")
            # helpers called through a function pointer chosen between two of them (a stream of its own)
            if random.Random(seed * 7919 + 16 + omp).random() < 0.4:
                features.add("fnptr")
            # reads at lv1 * S + lv2 (a matrix's columns, shared out among threads where lv2 is a
            # worksharing loop's): a stream of its own
            if random.Random(seed * 7919 + 22 + omp).random() < 0.4:
                features.add("strided")
            # reads at indices clamped into the array, from loop variables and an offset (an image's edge
            # pixel read for the pixels beyond it): a stream of its own
            if random.Random(seed * 7919 + 40 + omp).random() < 0.4:
                features.add("clamped")
            # reads at indices loaded from a constant int table, IX[j] (a sparse matrix's column indices)
            if random.Random(seed * 7919 + 10 + omp).random() < 0.4:
                features.add("index_table")
            # a mutable global array G (a program's field or workspace) that the entry fills first and the
            # helpers read and write: derivatives through a global, across calls (a stream of its own)
            if random.Random(seed * 7919 + 26 + omp).random() < 0.3:
                features.add("globals")
                # half of them a heap block main allocates, kept in a global pointer
                if random.Random(seed * 7919 + 30 + omp).random() < 0.5:
                    features.add("globals_heap")
            # qsort of an array with derivatives, outside loops (a checkpointed loop refuses a library call):
            # a stream of its own
            if random.Random(seed * 7919 + 28 + omp).random() < 0.3:
                features.add("sort")
            # the constant table kept in a mutable global that the entry fills, the first time it runs
            # (lazily initialised state, beside a call counter) or every time and rewrites later on (the
            # reverse sweep needs the values read before): streams of their own
            if "table" in features and random.Random(seed * 7919 + 34 + omp).random() < 0.5:
                features.add(random.Random(seed * 7919 + 38 + omp).choice(["table_lazy", "table_rewritten"]))
        s.feat = set(features)
        s.names = {}
        s.syms = []           # names in scope, in order of declaration
        s.loops = []          # (loop variable, most iterations, kind: for/while/omp/task) around the point of generation
        s.funcs = []
        s.structs = []
        s.heap = []           # heap blocks alive in the entry (freed before every return)
        s.kinky = False       # the function being generated branches or kinks on data
        s.ompctx = None       # inside an OpenMP construct: see omp_ctx
        s.noisy = False       # the program has order-dependent sums
        s.fn = None
        s.nlen = None         # the loop bound 'n' of the function being generated (n, m, or none)
        s.budget = 0          # statements left to generate in this function
        s.swaps = []          # pairs of pointers the loops may swap

    def on(s, f):
        return f in s.feat

    def fresh(s, prefix):
        k = s.names.get(prefix, 0)
        s.names[prefix] = k + 1
        return "%s%d" % (prefix, k)

    def chance(s, p):
        return s.r.random() < p

    # ------------------------------------------------------------------ scope

    def add(s, sym):
        sym.depth = len(s.loops)
        s.syms.append(sym)
        return sym

    def globals_in_scope(s, entry=False):
        """A function's scope starts with the constant global table, and the mutable global G, when the program
        has them. The entry fills G first (its value on entry is the call before's); a helper may read it, and
        write it with plain assignments only (its calls' increments are not counted); in an OpenMP program
        a helper only reads it (it may be called by every thread of a region) and takes it for noisy (what a
        reduction left there must decide nothing)."""
        if s.on("table"):
            s.add(Sym("K", "array", "double", 1.0, Len(None, 8), writable=False))
        if s.on("globals"):
            g = s.add(Sym("G", "array", "double", ACAP, Len(None, GLEN), writable=entry or not s.omp))
            if not entry:
                g.active, g.acc, g.noisy = True, ACAP / 2, s.omp
            return g
        return None

    def scoped(s, fn):
        """Runs fn; the names it declares go out of scope afterwards."""
        n = len(s.syms)
        out = fn()
        del s.syms[n:]
        return out

    def visible(s, kinds, clean=False):
        out = []
        for sym in s.syms:
            if sym.kind in kinds and not sym.hidden and not sym.dead:
                if clean and any(x.noisy for x in sym.roots()):
                    continue
                if s.ompctx is not None and not s.omp_readable(sym):
                    continue
                out.append(sym)
        return out

    def mult(s, sym):
        """How many times a statement here may run per execution of sym's declaration."""
        m = 1
        for _, trip, _ in s.loops[sym.root().depth:]:
            m *= trip
        return m

    # ------------------------------------------------------------------ expressions

    def num(s, ty="double"):
        v = s.r.choice(CONSTS) * s.r.choice([1, 1, -1])
        return Num(v, ty if ty != "int" else "double")

    def mk(s, e, mag, noisy=False):
        """e with its bound and noise; it depends on the inputs (act) when an operand does"""
        e.mag, e.noisy = mag, noisy
        e.act = any(getattr(k, "act", False) for f in e.F for k in
                    (getattr(e, f) if isinstance(getattr(e, f), list) else [getattr(e, f)]))
        return e

    def use(s, e, sym):
        e = s.mk(e, sym.cap, any(x.noisy for x in sym.roots()))
        e.act = any(x.active for x in sym.roots())
        return e

    def live(s, e):
        """e, made to depend on the inputs if it does not (a constant result would check nothing)"""
        if getattr(e, "act", False):
            return e
        for _ in range(6):
            a = s.leaf(e.ty if e.ty != "int" else "double", False)
            if getattr(a, "act", False):
                return s.mk(Bin("+", e, s.fit(a, 10)), e.mag + min(a.mag, 10), e.noisy or a.noisy)
        return e

    def index(s, arr):
        """A non-negative int below arr's length (None where arr may not be indexed here)."""
        r = s.r
        L = arr.length
        ctx = s.ompctx
        if ctx is not None and ctx["mode"] == "for" and meet(arr.roots(), ctx["owned"]):
            return Var(ctx["iv"], "int") if arr is arr.root() else None
        strided = s.strided(L)
        if strided is not None:
            return strided
        clamped = s.clamped(L)
        if clamped is not None:
            return clamped
        opts = [Num(r.randint(0, L.min() - 1), "int")]
        affine = s.on("affine")
        for lv in s.visible(["loop"]):
            if lv.hi.le(L):
                opts += [Var(lv.name, "int")] * 3
                if lv.lo >= 1:
                    opts.append(Bin("-", Var(lv.name, "int"), Num(1, "int")))
                if lv.hi.plus(1).le(L):
                    opts.append(Bin("+", Var(lv.name, "int"), Num(1, "int")))
            k = r.randint(0, 3)
            base = Var(lv.name, "int") if k == 0 else Bin("+", Var(lv.name, "int"), Num(k, "int"))
            if not affine:
                opts.append(Bin("%", base, L.expr()))
        if affine:
            return r.choice(opts[1:]) if len(opts) > 1 else opts[0]
        for iv in s.visible(["int"]):
            opts.append(Bin("%", Var(iv.name, "int"), L.expr()))
        if s.on("index_table") and L.min() >= IXMAX:   # an index read from the table at a loop variable
            for lv in s.visible(["loop"]):
                if lv.hi.max() <= IXLEN:
                    opts += [Idx(Var("IX", "int"), Var(lv.name, "int"), "int")] * 4
        if s.on("gather") and s.chance(0.15):   # an index computed from data: piecewise constant
            s.kinky = True
            opts.append(Bin("%", ICast(s.expr(1, clean=True)), L.expr()))
        return r.choice(opts)

    def strided(s, L):
        """Now and then, with the feature, lv1 * S + lv2 below L, lv1 a loop with a constant bound: a column
        of a row-major matrix where lv1 is the inner loop (shared out among threads where lv2 is a worksharing
        loop's variable). Drawn on a stream of its own, which leaves the programs' other choices as they were."""
        if not s.on("strided") or s.rs.random() >= 0.6:
            return None
        loops = s.visible(["loop"])
        opts = []
        for lv1 in loops:
            if lv1.hi.var is not None or lv1.lo != 0 or lv1.hi.off < 2:
                continue
            for lv2 in loops:
                S = s.rs.choice([2, 3])
                end = lv2.hi.plus(S * (lv1.hi.off - 1))
                if lv2 is not lv1 and lv2.lo >= 0 and (end.le(L) or end.max() <= L.min()):
                    opts.append(Bin("+", Bin("*", Var(lv1.name, "int"), Num(S, "int")), Var(lv2.name, "int")))
        return s.rs.choice(opts) if opts else None

    def clamped(s, L):
        """Now and then, with the feature, one or two loop variables plus an offset, clamped into [0, L):
        written as people write it, a conditional either way round. Drawn on a stream of its own."""
        if not s.on("clamped") or s.rc.random() >= 0.4:
            return None
        loops = s.visible(["loop"])
        if not loops:
            return None
        v = Var(s.rc.choice(loops).name, "int")
        if len(loops) > 1 and s.rc.random() < 0.5:
            v = Bin("+", v, Var(s.rc.choice(loops).name, "int"))
        k = s.rc.choice([-2, -1, 1, 2])
        v = Bin("+", v, Num(k, "int")) if k > 0 else Bin("-", v, Num(-k, "int"))
        top = Bin("-", L.expr(), Num(1, "int"))
        if s.rc.random() < 0.5:
            return Cond(Cmp("<", v, Num(0, "int")), Num(0, "int"), Cond(Cmp(">", v, top), top, v))
        return Cond(Cmp(">", v, top), top, Cond(Cmp("<", v, Num(0, "int")), Num(0, "int"), v))

    def elem(s, sym):
        i = s.index(sym)
        if i is None:
            return None
        return s.use(Idx(Var(sym.name, "ptr"), i, sym.ty), sym)

    def field(s, sym, want_int=False):
        fields = [f for f in sym.st.fields if (f[0] == "int") == want_int]
        if not fields:
            return None
        ty, name = s.r.choice(fields)
        if sym.kind == "structarr":
            i = s.index(sym)
            if i is None:
                return None
            base, arrow = Idx(Var(sym.name, "ptr"), i, "struct"), False
        else:
            base, arrow = Var(sym.name, "struct"), sym.kind == "structptr"
        e = s.use(Fld(base, name, ty, arrow), sym)
        if ty == "int":
            e.mag, e.noisy = 6, False
        return e

    def leaf(s, want, clean):
        """A constant now and then, else a variable, an element or a field: mostly data, so that the
        result depends on the inputs in many ways"""
        if s.chance(0.12):
            return s.num(want)
        opts = []
        w = lambda sym, k: k * (3 if any(x.active for x in sym.roots()) else 1)
        for sym in s.visible(["scalar"], clean):
            if sym.ty in ("double", "float"):
                opts += [lambda sym=sym: s.use(Var(sym.name, sym.ty), sym)] * w(sym, 2)
        for sym in s.visible(["array"], clean):
            opts += [lambda sym=sym: s.elem(sym)] * w(sym, 3)
        for sym in s.visible(["structarr", "structval", "structptr"], clean):
            opts += [lambda sym=sym: s.field(sym)] * w(sym, 2)
        for lv in s.visible(["loop"]):
            opts.append(lambda lv=lv: s.mk(Bin("*", Num(0.25), Var(lv.name, "int")), 0.25 * lv.hi.max()))
        for _ in range(4 if opts else 0):
            e = s.r.choice(opts)()
            if e is not None:
                return e
        return s.num(want)

    def squash(s, e, cap=1.0):
        """e mapped smoothly into [-cap, cap]"""
        k = s.r.choice(["tanh", "sin", "atan", "rat"])
        if k == "rat" and len(e.c()) > 20:    # e / (1 + e * e) names e three times
            k = "tanh"
        if k == "rat":
            out = s.mk(Div(e, e, 1), 0.5, e.noisy)
        else:
            out = s.mk(Un(k, e), UNARY_MAG[k](e.mag), e.noisy)
        if cap < out.mag:
            c = max(round(cap / out.mag, 3), 0.001)
            out = s.mk(Bin("*", Num(c, "float" if e.ty == "float" else "double"), out), c * out.mag, e.noisy)
        return out

    def fit(s, e, cap):
        return e if e.mag <= cap else s.squash(e, cap)

    def expr(s, depth, want="double", clean=False):
        """A random expression of type want (or float/int where C converts) with a bounded magnitude;
        clean: nothing noisy in it."""
        r = s.r
        if depth <= 0 or r.random() < 0.2:
            e = s.leaf(want, clean)
        else:
            kinds = ["bin"] * 4 + ["div"]
            if s.on("libm"):
                kinds += ["un"] * 3 + ["fn2"]
            if s.on("ternary"):
                kinds.append("cond")
            if s.on("float") or want == "float":
                kinds.append("cast")
            calls = s.callable_helpers()
            if calls:
                kinds += ["call"] * 2
            e = getattr(s, "e_" + r.choice(kinds))(depth - 1, want, clean, calls)
        if e.ty == "double" and want == "float" and r.random() < 0.5:
            e = s.mk(Cast("float", e), e.mag, e.noisy)
        if e.mag > LIMIT[e.ty]:
            e = s.squash(e, LIMIT[e.ty] / 10)
        return e

    def e_bin(s, d, want, clean, _):
        op = s.r.choice("+-*")
        a, b = s.expr(d, want, clean), s.expr(d, want, clean)
        return s.mk(Bin(op, a, b), a.mag * b.mag if op == "*" else a.mag + b.mag, a.noisy or b.noisy)

    def e_div(s, d, want, clean, _):
        a, b = s.expr(d, want, clean), s.expr(d, want, clean)
        k = s.r.choice([1, 0.5, 2])
        return s.mk(Div(a, b, k), a.mag / k, a.noisy or b.noisy)

    def e_un(s, d, want, clean, _):
        fns = LIBM + (LIBM_EXTRA if s.on("libm_extra") else []) + (["fabs"] if s.on("kinks") else [])
        if s.on("kinks") and s.chance(0.3):
            fns.append("floor")     # rarely: piecewise constant, it hides what is under it
        fn = s.r.choice(fns)
        kink = fn in KINKS
        s.kinky |= kink
        a = s.expr(d, want, clean or kink)
        return s.mk(Un(fn, a), UNARY_MAG[fn](a.mag), a.noisy)

    def e_fn2(s, d, want, clean, _):
        fn = s.r.choice(["hypot", "pow", "atan2"] + (["fmin", "fmax", "fmod"] if s.on("kinks") else []))
        kink = fn in KINKS
        s.kinky |= kink
        a = s.expr(d, want, clean or kink)
        if fn == "pow":
            if s.chance(0.5):
                b = Num(s.r.choice([-1.5, -0.5, 0.5, 1.5, 2.0, 3.0]), "float" if a.ty == "float" else "double")
                p = max(b.v, 0)
            else:
                b = s.mk(Un("tanh", s.expr(d, want, clean)), 1)
                p = 1
            return s.mk(Fn2(fn, a, b), (1 + a.mag ** 2) ** p, a.noisy or b.noisy)
        b = s.expr(d, want, clean or kink)
        if a.c() == b.c():   # fmin(v, v) ties on every input, where the derivative is only a convention
            b = s.mk(Bin("+", b, Num(0.5)), b.mag + 0.5, b.noisy)
        mag = {"hypot": a.mag + 1 + b.mag ** 2, "atan2": 1.571, "fmod": min(a.mag, 1 + b.mag ** 2)}.get(
            fn, max(a.mag, b.mag))
        return s.mk(Fn2(fn, a, b), mag, a.noisy or b.noisy)

    def e_cond(s, d, want, clean, _):
        k = s.cond()
        a, b = s.expr(d, want, clean), s.expr(d, want, clean)
        return s.mk(Cond(k, a, b), max(a.mag, b.mag), a.noisy or b.noisy)

    def e_cast(s, d, want, clean, _):
        a = s.expr(d, "float" if s.chance(0.6) else "double", clean)
        to = "double" if a.ty == "float" else "float"
        if to == "float" and a.mag > LIMIT["float"]:
            a = s.squash(a, 10)
        return s.mk(Cast(to, a), a.mag, a.noisy)

    def e_call(s, d, want, clean, calls):
        fn = s.r.choice(calls)
        clean = clean or fn.kinky
        args = []
        for ty, name in fn.params:
            if ty in ("double", "float"):
                args.append(s.fit(s.expr(d, ty, clean), PCAP))
            elif ty == "const double *":
                arrs = s.readable_arrays(clean)
                if not arrs:
                    return s.leaf(want, clean)
                arr = s.r.choice(arrs)
                args += [s.use(Var(arr.name, "ptr"), arr), arr.length.expr()]
            elif name == "d":
                if s.chance(0.3):      # a depth computed from data, 0..6
                    s.kinky = True
                    args.append(ICast(s.expr(1, clean=True)))
                else:
                    args.append(Num(s.r.randint(0, 5), "int"))
        return s.mk(Call(fn.name, args, fn.ret), fn.mag, any(a.noisy for a in args))

    def callable_helpers(s):
        return [fn for fn in s.funcs if fn.kind in ("scal", "reader", "rec")]

    def readable_arrays(s, clean):
        out = []
        for a in s.visible(["array"], clean):
            if a.ty == "double" and not (s.ompctx is not None and meet(a.roots(), s.ompctx["owned"])):
                out.append(a)
        return out

    def cond(s):
        """A branch condition: on data (never noisy) or on loop counters."""
        r = s.r
        opts = []
        for lv in s.visible(["loop"]):
            opts.append(lambda lv=lv: Cmp("==", Bin("%", Var(lv.name, "int"), Num(2, "int")), Num(0, "int")))
            opts.append(lambda lv=lv: Cmp("<", Var(lv.name, "int"), Num(r.randint(1, 4), "int")))

        def data():
            s.kinky = True
            a = s.expr(2, "double", clean=True)
            b = s.num() if r.random() < 0.6 else s.expr(1, "double", clean=True)
            if a.c() == b.c():
                b = Num(0.5)
            return Cmp(r.choice(["<", ">", "<=", ">="]), a, b)
        if s.on("cond") or not opts:
            opts += [data] * 3
        k = r.choice(opts)()
        if r.random() < 0.15:
            k = Bin(r.choice(["&&", "||"]), k, r.choice(opts)())
            k.ty = "int"
        return k

    # ------------------------------------------------------------------ statements

    def writable_scalar(s, sym):
        ctx = s.ompctx
        if not sym.writable or sym.ty not in ("double", "float"):
            return False
        if ctx is None:
            return True
        # inside a construct: its own locals, the private copies it names, a single block's shared scalars
        return s.syms.index(sym) >= ctx["base"] or sym in ctx["private"] or sym in ctx["swrite"]

    def targets(s):
        """Names a statement here may write through."""
        ctx = s.ompctx
        out = [sym for sym in s.visible(["scalar"]) if s.writable_scalar(sym)]
        for sym in s.visible(["array", "structarr", "structval", "structptr"]):
            if not (sym.writable and sym.root().writable):
                continue
            if ctx is not None and s.syms.index(sym) < ctx["base"]:
                if ctx["mode"] == "for" and not (sym is sym.root() and sym in ctx["owned"]):
                    continue
                if ctx["mode"] == "region":
                    continue
                if ctx["mode"] == "single" and not all(x in ctx["swrite"] for x in sym.roots()):
                    continue
            out.append(sym)
        return out

    def lvalue(s, sym):
        if sym.kind == "scalar":
            return s.use(Var(sym.name, sym.ty), sym)
        if sym.kind == "array":
            return s.elem(sym)
        return s.field(sym)

    def assign(s, depth=0, sym=None, op=None):
        r = s.r
        ts = s.targets()
        if sym is None:
            if not ts:
                return []
            sym = r.choice(ts)
        lhs = s.lvalue(sym)
        if lhs is None:
            return []
        root = sym.root()
        half = root.cap / 2
        rhs = s.expr(r.randint(1, 3), lhs.ty)
        op = op or r.choice(["=", "=", "+=", "-=", "*="])
        if sym.other is not None:     # one of two arrays: plain assignments only, both take the value
            rhs = s.fit(s.live(rhs), half)
            for x in sym.roots():
                x.noisy |= rhs.noisy
                x.active |= getattr(rhs, "act", False)
            return [Assign(lhs, "=", rhs)]
        if op in ("+=", "-="):
            m = s.mult(root)
            room = (half - root.acc) / m
            if room < 0.01:
                op = "="
            else:
                rhs = s.fit(rhs, room)
                root.acc += rhs.mag * m
        if op == "*=":
            rhs = s.squash(rhs, 1.0)
        if op == "=":
            if r.random() < 0.8:
                rhs = s.live(rhs)
            rhs = s.fit(rhs, half)
        root.noisy |= rhs.noisy
        root.active |= getattr(rhs, "act", False)
        return [Assign(lhs, op, rhs)]

    def decl_scalar(s):
        ty = "float" if s.on("float") and s.chance(0.3) else "double"
        cap = LIMIT[ty] / 10 if ty == "float" else ACAP
        e = s.fit(s.live(s.expr(s.r.randint(1, 3), ty)), cap / 2)
        sym = s.add(Sym(s.fresh("v"), "scalar", ty, cap))
        sym.noisy, sym.active = e.noisy, getattr(e, "act", False)
        return [Decl(ty, sym.name, e)]

    def loop_kind(s):
        return s.loops[-1][2] if s.loops else None

    def stmt(s, depth):
        r = s.r
        s.budget -= 1
        if s.budget < 0:
            return s.assign(depth)
        kinds = ["assign"] * 5 + ["decl"] * 2
        if depth < 3:
            kinds += ["if"] * 2
            if depth < 2 or s.on("nested"):
                if any(s.on(f) for f in ("loop_const", "loop_n", "loop_data")):
                    kinds += ["for"] * 3
                if s.on("while"):
                    kinds.append("while")
        if s.on("break") and s.loop_kind() in ("for", "while", "omp"):
            kinds.append("jump")
        serial = s.ompctx is None
        if serial:
            if s.on("return") and s.fn.name == "f":
                kinds.append("return")
            if s.writers():
                kinds.append("callw")
            if s.on("struct_copy") and s.visible(["structarr"]):
                kinds.append("scopy")
            if s.on("memcpy"):
                kinds.append("memcpy")
            if s.on("sort") and not s.loops and s.fn.name == "f":
                kinds.append("sort")
            if s.on("switch") and depth < 3:
                kinds.append("switch")
            if s.swaps and s.loops:
                kinds.append("swap")
            if s.omp and depth <= 1 and s.fn.name == "f" and s.budget > 3:
                kinds += ["omp"] * 4
        elif s.ompctx["mode"] == "for" and s.ompctx["updates"]:
            kinds += ["ompupd"] * 3
        return getattr(s, "s_" + r.choice(kinds))(depth)

    def stmts(s, depth, lo, hi):
        out = []
        for _ in range(s.r.randint(lo, hi)):
            out += s.stmt(depth)
        return out

    def s_assign(s, depth):
        return s.assign(depth)

    def s_decl(s, depth):
        return s.decl_scalar()

    def s_if(s, depth):
        k = s.cond()
        then = s.scoped(lambda: s.stmts(depth + 1, 1, 3))
        els = s.scoped(lambda: s.stmts(depth + 1, 1, 2)) if s.chance(0.4) else None
        return [If(k, then, els)] if then or els else []

    def loop_body(s, v, lo, hi, trip, kind, depth, lo_hi=1, hi_hi=4):
        def body():
            lv = s.add(Sym(v, "loop" if kind != "while" else "int", "int"))
            lv.lo, lv.hi = lo, hi
            s.loops.append((lv, trip, kind))
            out = s.stmts(depth + 1, lo_hi, hi_hi)
            s.loops.pop()
            return out
        return s.scoped(body)

    def s_for(s, depth):
        r = s.r
        kinds = []
        if s.on("loop_n") and s.nlen is not None:
            kinds += ["n"] * 3
        if s.on("loop_const"):
            kinds += ["const"] * 2
        if s.on("loop_data"):
            kinds += ["data"]
        outer = s.visible(["loop"])
        if s.on("nested") and outer:
            kinds += ["tri"]
        k = r.choice(kinds or ["const"])
        pre, down, lo = [], False, 0
        if k == "n":
            hi = s.nlen.plus(r.choice([0, 0, 0, -1, 1]))
            lo = r.choice([0, 0, 1])
            down = r.random() < 0.2
            hexpr = hi.expr()
        elif k == "const":
            hi = Len(None, r.randint(2, 6) if r.random() < 0.8 else r.randint(7, 12))
            lo = r.choice([0, 0, 1])
            hexpr = hi.expr()
        elif k == "data":     # a trip count computed from data
            m = s.fresh("m")
            s.kinky = True
            pre = [Decl("int", m, ICast(s.expr(2, clean=True)))]
            s.add(Sym(m, "int", "int"))
            hi = Len(m, 0, 0, 6)
            hexpr = hi.expr()
        else:                 # triangular: j <= i of an enclosing loop
            o = r.choice(outer)
            hi = o.hi
            hexpr = Bin("+", Var(o.name, "int"), Num(1, "int"))
        v = s.fresh("i")
        himin = 1 if k == "tri" else hi.min()
        body = s.loop_body(v, lo, hi, hi.max(), "for", depth)
        if s.on("checkpoint") and depth == 0 and s.fn.name == "f" and s.ompctx is None and r.random() < 0.8:
            body = [Raw("__parad_checkpoint_loop();", keep=True)] + body
            if s.on("checkpoint_nested"):
                s.mark_inner_loops(body)
        return pre + [For(v, lo, hexpr, body, down, himin=himin)]

    def mark_inner_loops(s, body):
        """Marks some of the serial for loops inside a checkpointed loop's body (not in a region), on a
        stream of its own: the rest of the program stays what the seed drew."""
        r = random.Random(s.seed * 7919 + 9 + s.omp + 31 * s.marked_bodies)
        s.marked_bodies += 1
        def walk(stmts):
            for st in stmts or []:
                if isinstance(st, For) and st.pragma is None:
                    if r.random() < 0.6:
                        st.body = [Raw("__parad_checkpoint_loop();", keep=True)] + st.body
                    else:
                        walk(st.body)
                elif isinstance(st, If):
                    walk(st.then), walk(st.els)
                elif isinstance(st, (While, Block, Case)):
                    walk(st.body)
                elif isinstance(st, Switch):
                    walk(st.cases)
        walk(body)

    def s_while(s, depth):
        """A loop whose exit depends on data, bounded by a counter (no 'continue' in it: the counter's
        increment is at the end of the body)."""
        cnt = s.fresh("w")
        K = s.r.randint(2, 6)
        s.kinky = True
        k = Cmp(s.r.choice(["<", ">"]), s.expr(2, clean=True), s.num())
        return [While(cnt, K, k, s.loop_body(cnt, 0, None, K, "while", depth, 1, 3))]

    def s_jump(s, depth):
        what = {"for": ["break", "continue"], "while": ["break"], "omp": ["continue"]}[s.loop_kind()]
        return [If(s.cond(), [Jump(s.r.choice(what))])]

    def s_return(s, depth):
        e = s.fit(s.live(s.expr(2)), LIMIT["double"])
        return [If(s.cond(), [Ret(e if s.fn.ret != "void" else None, s.heap)])]

    def writers(s):
        return [f for f in s.funcs if f.kind in ("writer", "omp", "sout")]

    def s_callw(s, depth):
        """A call of a helper that writes through a pointer."""
        r = s.r
        fn = r.choice(s.writers())
        if fn.kind == "sout":
            sts = [t for t in s.targets() if t.kind == "structarr"]
            if not sts:
                return []
            st = r.choice(sts)
            a, b = s.index(st), s.index(st)
            t = s.fit(s.expr(2, clean=fn.kinky), PCAP)
            st.root().noisy |= t.noisy
            return [ExprS(Call(fn.name, [Addr(Idx(Var(st.name), a, "struct")), Addr(Idx(Var(st.name), b, "struct")), t],
                               "void"))]
        outs = [t for t in s.targets() if t.kind == "array" and t.ty == "double" and t.root().cap >= ACAP and
                not (fn.kind == "omp" and t.root().name == "G")]   # its region's threads read G anywhere
        if not outs:
            return []
        dst = r.choice(outs)
        if fn.kind == "omp":   # omp helpers read one array and write another, at most as long
            srcs = [a for a in s.readable_arrays(fn.kinky)
                    if not meet(a.roots(), dst.roots()) and dst.length.le(a.length)]
            if not srcs:
                return []
            src = r.choice(srcs)
            dst.root().noisy |= any(x.noisy for x in src.roots())
            call = Call(fn.name, [Var(src.name), Var(dst.name), dst.length.expr()], fn.ret)
            if fn.ret == "void":
                return [ExprS(call)]
            v = s.add(Sym(s.fresh("v"), "scalar", "double", ACAP))
            v.noisy = v.active = True
            return [Decl("double", v.name, call)]
        t = s.fit(s.expr(2, clean=fn.kinky), PCAP)
        dst.root().noisy |= t.noisy
        dst.root().active = True
        callee = s.through_pointer(fn) if s.on("fnptr") else fn.name
        return [ExprS(Call(callee, [Var(dst.name), dst.length.expr(), t], "void"))]

    def through_pointer(s, fn):
        """A writer or another one, chosen by the parity of a loop variable: the call goes through a
        function pointer (on a stream of its own). The other one is kinky only where fn is (then t is
        clean for both)."""
        rr = random.Random(s.seed * 7919 + 14 + s.omp + 37 * s.pointer_calls)
        s.pointer_calls += 1
        others = [w for w in s.funcs if w.kind == "writer" and w is not fn and (fn.kinky or not w.kinky)]
        loops = s.visible(["loop"])
        if not others or not loops or rr.random() < 0.3:
            return fn.name
        return "(%s %% 2 ? %s : %s)" % (rr.choice(loops).name, fn.name, rr.choice(others).name)

    def s_scopy(s, depth):
        """Struct copies: assignment, memmove, through a local struct, from a function returning one."""
        r = s.r
        sts = [t for t in s.targets() if t.kind == "structarr"]
        if not sts:
            return []
        st = r.choice(sts)
        a, b = s.index(st), s.index(st)
        ptrs = [p for p in s.targets() if p.kind == "structptr" and p.root() is st.root()]
        how = r.choice(["assign", "memmove", "memcpy", "tmp"] + (["ret"] if s.on("struct_ret") else []) +
                       (["ptr"] if ptrs else []))
        if how == "assign":    # an exact overlap (a == b) is allowed for assignment
            return [Assign(Idx(Var(st.name), a, "struct"), "=", Idx(Var(st.name), b, "struct"))]
        if how == "memmove":   # memcpy would be undefined when a == b
            return [Raw("memmove(&%s[%s], &%s[%s], sizeof(struct S));" % (st.name, a.c(), st.name, b.c()))]
        if how == "memcpy":    # two distinct elements: i and (i + 1) % L
            if st.length.min() < 2:
                return []
            return [Raw("memcpy(&%s[%s], &%s[(%s + 1) %% %s], sizeof(struct S));" % (
                st.name, a.c(), st.name, a.c(), st.length.expr().c()))]
        if how == "ptr":       # *q = st[b] or st[a] = *q, q pointing into st
            q = Var("(*%s)" % r.choice(ptrs).name, "struct")
            if r.random() < 0.5:
                return [Assign(q, "=", Idx(Var(st.name), b, "struct"))]
            return [Assign(Idx(Var(st.name), a, "struct"), "=", q)]
        if how == "ret":
            rets = [f for f in s.funcs if f.kind == "sret"]
            if not rets:
                return []
            fn = r.choice(rets)
            args = [s.fit(s.expr(2, clean=fn.kinky), PCAP) for _ in fn.params]
            st.root().noisy |= any(x.noisy for x in args)
            return [Assign(Idx(Var(st.name), a, "struct"), "=", Call(fn.name, args, "struct"))]
        t = s.fresh("t")
        ts = s.add(Sym(t, "structval", "struct", st.root().cap, st=st.st))
        ts.acc, ts.noisy, ts.active = st.root().acc, st.root().noisy, st.root().active
        out = [Decl("struct S", t, Idx(Var(st.name), a, "struct"))]
        if s.chance(0.8):
            out += s.assign(depth, ts)
        out.append(Assign(Idx(Var(st.name), b, "struct"), "=", Var(t)))
        st.root().noisy |= ts.noisy
        st.root().acc = max(st.root().acc, ts.acc)
        return out

    def s_memcpy(s, depth):
        r = s.r
        dsts = [t for t in s.targets() if t.kind == "array" and t.other is None]
        if not dsts:
            return []
        d = r.choice(dsts)
        srcs = [a for a in s.visible(["array"]) if a.ty == d.ty and max(x.cap for x in a.roots()) <= d.root().cap]
        if not srcs:
            return []
        src = r.choice(srcs)
        k = r.randint(1, min(d.length.min(), src.length.min()))
        extra = max(x.acc for x in src.roots())
        if extra > d.root().cap / 2 - d.root().acc:
            return []
        d.root().acc += extra
        d.root().noisy |= any(x.noisy for x in src.roots())
        d.root().active |= any(x.active for x in src.roots())
        fn = "memmove" if d.root() in src.roots() else "memcpy"   # memcpy must not overlap
        return [Raw("%s(%s, %s, %d * sizeof(%s));" % (fn, d.name, src.name, k, d.ty))]

    def s_sort(s, depth):
        """qsort of the first k elements of an array of doubles, ascending: the values stay (caps hold); the
        order is piecewise constant in them (a kink where two cross). Not of noisy values, whose order could
        differ from run to run."""
        arrs = [t for t in s.targets() if t.kind == "array" and t.other is None and t.ty == "double" and
                t.length.min() >= 2 and not any(x.noisy for x in t.roots())]
        if not arrs:
            return []
        a = s.r.choice(arrs)
        s.kinky = True
        k = s.r.randint(2, a.length.min())   # within the array at its shortest (a view of n - 2 may hold 1)
        return [Raw("qsort(%s, %d, sizeof(double), fuzz_ascending);" % (a.name, k))]

    def s_ompupd(s, depth):
        """An update of a shared scalar inside a worksharing loop: reduction, atomic, critical."""
        r = s.r
        sym, how = r.choice(s.ompctx["updates"])
        if how in ("+", "atomic", "critical"):
            m = s.mult(sym)
            room = (sym.cap / 2 - sym.acc) / m
            if room < 0.01:
                return []
            e = s.fit(s.live(s.expr(2)), room)
            sym.acc += e.mag * m
            sym.active |= getattr(e, "act", False)
            st = Assign(Var(sym.name), "+=" if how == "+" else r.choice(["+=", "-="]), e)
            if how == "atomic":
                return [Omp("atomic", [st])]
            if how == "critical":
                return [Omp("critical", [st], ["(%s)" % s.ompctx["crit"]] if s.ompctx["crit"] else [])]
            return [st]
        if how == "chain":   # r = c r + e, in the tasks' order of creation: |r| stays under cap / 2
            c = r.choice([0.5, 0.7, 0.9])
            e = s.fit(s.live(s.expr(2)), sym.cap * (1 - c) / 2)
            sym.active |= getattr(e, "act", False)
            return [Assign(Var(sym.name), "=", Bin("+", Bin("*", Num(c), Var(sym.name)), e))]
        if how == "*":
            e = s.mk(Bin("+", Num(1.0), Bin("*", Num(0.2), Un("tanh", s.live(s.expr(2))))), 1.2)
            sym.active = True
            return [Assign(Var(sym.name), "*=", e)]
        s.kinky = True
        e = s.fit(s.expr(2, clean=True), sym.cap / 2)
        sym.active = True
        if how in ("max", "min"):
            return [Assign(Var(sym.name), "=", Fn2("fmax" if how == "max" else "fmin", Var(sym.name), e))]
        # cmax: a maximum kept in a critical section, deterministic whatever the order
        return [Omp("critical", [If(Cmp(">", e, Var(sym.name)), [Assign(Var(sym.name), "=", e)])])]

    def s_switch(s, depth):
        """switch on a loop counter or on data, cases that break or fall through, sometimes a default"""
        r = s.r
        lvs = s.visible(["loop", "int"])
        if lvs and r.random() < 0.6:
            k = Bin("%", Var(r.choice(lvs).name, "int"), Num(3, "int"))
        else:
            s.kinky = True
            k = ICast(s.expr(2, clean=True))
        cases = []
        for label in r.sample(range(7), r.randint(1, 3)) + ([None] if r.random() < 0.5 else []):
            cases.append(Case(label, s.scoped(lambda: s.stmts(depth + 1, 1, 2)), r.random() < 0.8))
        cases[-1].brk = True
        return [Switch(k, cases)]

    def decl_swap(s):
        """Two pointers into two arrays of one length, swapped by the loops (ping-pong buffers)."""
        arrs = [a for a in s.visible(["array"]) if a.base is None and a.writable and a.ty == "double" and a.name != "x"]
        pairs = [(a, b) for a in arrs for b in arrs if a is not b and a.length.le(b.length) and b.length.le(a.length)]
        if not pairs:
            return []
        a, b = s.r.choice(pairs)
        out = []
        for x, y in ((a, b), (b, a)):
            v = s.add(Sym(s.fresh("p"), "array", "double", ACAP, a.length))
            v.base, v.other = x, y
            out.append(Decl("double *", v.name, Var(x.name)))
        s.swaps.append((s.syms[-2], s.syms[-1]))
        return out

    def s_swap(s, depth):
        p, q = s.r.choice(s.swaps)
        t = s.fresh("t")
        return [Raw("{ double *%s = %s; %s = %s; %s = %s; }" % (t, p.name, p.name, q.name, q.name, t))]

    def s_grow(s):
        """A heap block growing by one element per iteration, each new element set (realloc in a loop)."""
        hs = [a for a in s.visible(["array"]) if a.name in s.heap and a.base is None and a.length.var is not None
              and a.length.off < 3 and a.ty == "double"]
        if not hs:
            return []
        h = s.r.choice(hs)
        K = s.r.randint(1, 4 - h.length.off)
        for v in s.syms:
            if h in v.roots() and v is not h:
                v.dead = True    # the block may move
        k = s.fresh("i")
        new = Bin("+", h.length.expr(), Var(k, "int"))
        lv = s.add(Sym(k, "loop", "int"))
        lv.lo, lv.hi = 0, Len(None, K)
        h.hidden = True
        s.loops.append((lv, K, "for"))
        e = s.fit(s.live(s.expr(2)), h.cap / 2)
        s.loops.pop()
        s.syms.remove(lv)
        h.hidden = False
        h.active |= getattr(e, "act", False)
        grow = Raw("%s = realloc(%s, (%s + 1) * sizeof(double));" % (h.name, h.name, new.c()), keep=True)
        put = Assign(Idx(Var(h.name), new, "double"), "=", e)
        put.keep = True
        loop = For(k, 0, Num(K, "int"), [grow, put])
        loop.keep = True
        h.length = h.length.plus(K)
        return [loop]

    # ------------------------------------------------------------------ arrays, structs, views

    def fill(s, sym, lo=0, hi=None):
        """The loop that gives sym[lo..hi) values before anything reads them (kept by the shrinker)."""
        hi = hi or sym.length
        v = s.fresh("i")

        def body():
            lv = s.add(Sym(v, "loop", "int"))
            lv.lo, lv.hi = (lo if isinstance(lo, int) else 0), hi
            s.loops.append((lv, hi.max(), "for"))
            sym.hidden = True
            out = []
            fields = sym.st.fields if sym.kind == "structarr" else [(sym.ty, None)]
            for fty, fname in fields:
                if fty == "int":
                    e = ICast(s.expr(1, clean=True)) if s.chance(0.5) else Bin("%", Var(v, "int"), Num(3, "int"))
                else:
                    e = s.fit(s.live(s.expr(2, fty)), sym.cap / 2)
                    sym.noisy |= e.noisy
                    sym.active |= getattr(e, "act", False)
                at = Idx(Var(sym.name), Var(v, "int"), fty if fname is None else "struct")
                out.append(Assign(at if fname is None else Fld(at, fname, fty), "=", e))
                out[-1].keep = True
            sym.hidden = False
            s.loops.pop()
            return out
        loop = For(v, lo, hi.expr(), s.scoped(body))
        loop.keep = True
        return loop

    def decl_array(s):
        r = s.r
        kinds = [k for k, f in (("local", "local_array"), ("local", "local_array"), ("vla", "vla"),
                                ("malloc", "malloc"), ("calloc", "calloc")) if s.on(f)]
        if not kinds or s.nlen is None:
            return []
        k = r.choice(kinds)
        ty = "float" if s.on("float") and s.chance(0.25) else "double"
        name = s.fresh("a" if k in ("local", "vla") else "h")
        L = Len(None, r.randint(3, 10)) if k == "local" else s.nlen.plus(r.choice([0, 0, 1, 2]))
        if s.on("strided") and L.max() + 2 <= MAXLEN and s.rs.random() < 0.8:   # room for columns: lv1 * S + i
            L = L.plus(2)
        sym = Sym(name, "array", ty, ACAP, L)
        if k in ("local", "vla"):
            out = [Decl(ty, name, length=L.expr())]
        elif k == "malloc":
            out = [Decl(ty + " *", name, Text("malloc((%s) * sizeof(%s))" % (L.expr().c(), ty)))]
        else:
            out = [Decl(ty + " *", name, Text("calloc(%s, sizeof(%s))" % (L.expr().c(), ty)))]
        out[0].keep = True
        if k == "calloc":    # zeros, a part set to a constant, a part filled with values
            part = r.randint(1, L.min())
            if s.chance(0.5):
                out.append(Raw("for (int q = 0; q < %d; q++) %s[q] = %s;" % (part, name, Num(r.choice(CONSTS), ty).c())))
            if s.chance(0.7):
                out.append(s.fill(sym, 0, Len(None, part)))
            s.heap.append(name)
        else:
            out.append(s.fill(sym))
            if k == "malloc":
                s.heap.append(name)
        s.add(sym)
        return out

    def decl_struct(s):
        r = s.r
        if not s.structs:
            fields = [("double", "a"), ("double", "b")]
            if r.random() < 0.7:
                fields.append(("int", "k"))
            if s.on("float") and r.random() < 0.6:
                fields.append(("float", "c"))
            if r.random() < 0.4:
                fields.append(("double", "d"))
            r.shuffle(fields)
            s.structs.append(StructDef("S", fields))
        name = s.fresh("st")
        heap = s.on("malloc") and s.chance(0.3)
        L = s.nlen if heap or s.chance(0.3) else Len(None, r.randint(3, 6))
        sym = Sym(name, "structarr", "struct", ACAP, L, st=s.structs[0])
        if heap:
            out = [Decl("struct S *", name, Text("malloc((%s) * sizeof(struct S))" % L.expr().c()))]
            s.heap.append(name)
        else:
            out = [Decl("struct S", name, length=L.expr())]
        out[0].keep = True
        out.append(s.fill(sym))
        s.add(sym)
        return out

    def decl_view(s):
        """double *p = a + k, or a pointer chosen by a condition between two arrays of one length"""
        r = s.r
        arrs = [a for a in s.visible(["array"]) if a.length.min() >= 2 and a.other is None]
        if not arrs:
            return []
        a = r.choice(arrs)
        if s.chance(0.25):
            others = [b for b in arrs if b is not a and b.ty == a.ty and b.length.le(a.length) and a.length.le(b.length)]
            if others:
                b = r.choice(others)
                k = s.cond()
                v = s.add(Sym(s.fresh("p"), "array", a.ty, max(a.root().cap, b.root().cap), a.length, writable=False))
                v.base, v.other = a, b      # read only: writes would need both arrays' budgets
                return [Decl("const %s *" % a.ty, v.name, Cond(k, Var(a.name), Var(b.name)))]
        k = r.randint(1, min(2, a.length.min() - 1))
        v = s.add(Sym(s.fresh("p"), "array", a.ty, a.root().cap, a.length.plus(-k), writable=a.writable))
        v.base = a
        return [Decl("%s%s *" % ("" if a.writable and a.root().writable else "const ", a.ty), v.name, Addr(Var(a.name), k))]

    def decl_structptr(s):
        sts = s.visible(["structarr"])
        if not sts:
            return []
        st = s.r.choice(sts)
        at = Addr(Idx(Var(st.name), s.index(st), "struct"))
        p = s.add(Sym(s.fresh("q"), "structptr", "struct", st.cap, st=st.st))
        p.base = st
        return [Decl("struct S *", p.name, at)]

    def s_realloc(s):
        """A heap block grows; the new part is filled, the old part keeps its values."""
        hs = [a for a in s.visible(["array"]) if a.name in s.heap and a.base is None and a.length.var is not None
              and a.length.off < 4]
        if not hs:
            return []
        h = s.r.choice(hs)
        old, new = h.length, h.length.plus(s.r.randint(1, 4 - h.length.off))
        for v in s.syms:
            if h in v.roots() and v is not h:
                v.dead = True    # the block may move
        out = [Raw("%s = realloc(%s, (%s) * sizeof(%s));" % (h.name, h.name, new.expr().c(), h.ty), keep=True)]
        h.length = new
        out.append(s.fill(h, old.expr(), new))
        return out

    # ------------------------------------------------------------------ OpenMP

    def omp_ctx(s, mode, **kw):
        ctx = {"mode": mode, "base": len(s.syms), "owned": [], "iv": None, "written": [],
               "swrite": [], "private": [], "updates": [], "crit": None}
        ctx.update(kw)
        return ctx

    def omp_readable(s, sym):
        ctx = s.ompctx
        roots = sym.roots()
        if ctx["mode"] == "for" and meet(roots, ctx["owned"]) and sym is not sym.root():
            return False
        if ctx["mode"] == "region" and (meet(roots, ctx["written"]) or sym in ctx["written"]):
            return False
        return True

    def schedule(s, static_only=False):
        """static_only: for loops with lastprivate. LLVM 19's libomp sometimes gives the last iteration's
        value to the wrong thread under dynamic scheduling when threads outnumber cores (plain clang builds
        return another iteration's value, at -O0 too; libgomp does not): the primal itself is then not
        deterministic."""
        r = s.r
        kinds = ("static", "static_chunk") if static_only else ("static", "static_chunk", "dynamic", "guided")
        k = r.choice([f for f in kinds if s.on(f)] or ["static"])
        if k == "static":
            return r.choice(["schedule(static)", ""])
        if k == "static_chunk":
            return "schedule(static, %d)" % r.randint(1, 3)
        if k == "dynamic":
            return r.choice(["schedule(dynamic)", "schedule(dynamic, %d)" % r.randint(1, 3)])
        return r.choice(["schedule(guided)", "schedule(guided, 2)"])

    def ownable(s, L, among=None):
        """Arrays a worksharing loop over [0, L) may write at its own index. Not the global G: the helpers
        a region's threads call read it anywhere."""
        out = []
        for a in s.visible(["array", "structarr"]):
            if a.base is None and a.writable and L.le(a.length) and (among is None or a in among) and a.name != "G":
                out.append(a)
        return out

    def omp_loop(s, depth, L, combined, clauses, updates, among=None):
        """A worksharing loop over [0, L): writes its owned arrays at i only and reads them only there,
        reads everything else, changes shared scalars only through `updates` [(symbol, how)]."""
        r = s.r
        cands = s.ownable(L, among)
        owned = r.sample(cands, min(len(cands), r.randint(1, 2)))
        iv = s.fresh("i")
        saved = s.ompctx
        private = clauses.get("private", []) + clauses.get("lastprivate", [])
        s.ompctx = s.omp_ctx("for", owned=owned, iv=iv, updates=updates, private=private,
                             crit=s.fresh("lock") if s.chance(0.3) else None)
        for sym, _ in updates:
            sym.hidden = True

        def body():
            lv = s.add(Sym(iv, "loop", "int"))
            lv.lo, lv.hi = 0, L
            s.loops.append((lv, L.max(), "task" if clauses.get("taskloop") == "tasks" else "omp"))
            out = []
            for sym in private:      # set first in every iteration (from other values: it is undefined
                out += s.assign(depth + 1, sym, "=")     # until then), whatever path the iteration takes
                sym.hidden = False
            for a in owned:          # every owned array gets a value at i
                out += s.assign(depth + 1, a)
            out += s.stmts(depth + 1, 1, 4)
            for _ in updates:
                out += s.s_ompupd(depth + 1) if r.random() < 0.6 else []
            s.loops.pop()
            return out
        b = s.scoped(body)
        s.ompctx = saved
        for sym, how in updates:
            sym.hidden = False
            sym.noisy |= how in ("+", "*", "atomic", "critical")
            s.noisy |= sym.noisy
        for sym in clauses.get("private", []):
            sym.hidden = True        # undefined after the loop
        if clauses.get("taskloop") == "tasks":   # a task per iteration, in a task group reducing the sums
            sums = ", ".join(sym.name for sym, how in updates if how == "+")
            chains = ", ".join(sym.name for sym, how in updates if how == "chain")
            # arrays the tasks only read, named as their inputs (whole), or by their first element
            ins = ["%s[0:%s]" % (a.name, a.length.expr().c()) if r.random() < 0.8 else "%s[0]" % a.name
                   for a in s.visible(["array"]) if a.base is None and a.other is None and a not in owned
                   and r.random() < 0.7]
            # the element of each owned array the task writes, named as its output: what the task reads
            # back of it may come from a copy made as the task ends (no random draw: the stream is kept)
            outs = ["%s[%s]" % (a.name, iv) for a in owned]
            task = Omp("task", b, clauses=(["in_reduction(+ : %s)" % sums] if sums else []) +
                       (["depend(inout : %s)" % ", ".join(([chains] if chains else []) + outs)] if chains or outs else []) +
                       (["depend(in : %s)" % ", ".join(ins)] if ins else []))
            return Omp("taskgroup", [For(iv, 0, L.expr(), [task], himin=L.min())],
                       clauses=["task_reduction(+ : %s)" % sums] if sums else [])
        if clauses.get("taskloop"):   # chunks of iterations as tasks: no schedule; sums the only reductions
            pragma = ["taskloop", r.choice(["grainsize(%d)" % r.randint(1, 4), "num_tasks(%d)" % r.randint(2, 5), ""])]
        else:
            pragma = ["parallel for" if combined else "for"]
            sch = s.schedule(static_only=bool(clauses.get("lastprivate")))
            if sch:
                pragma.append(sch)
        for sym, how in updates:
            if how in ("+", "*", "max", "min"):
                pragma.append("reduction(%s : %s)" % (how, sym.name))
        for cl in ("private", "firstprivate", "lastprivate"):
            if clauses.get(cl):
                pragma.append("%s(%s)" % (cl, ", ".join(x.name for x in clauses[cl])))
        if clauses.get("nowait"):
            pragma.append("nowait")
        return For(iv, 0, L.expr(), b, pragma=pragma, himin=L.min())

    def shared_updates(s, taskloop=False):
        """Shared scalars for a worksharing loop to update, declared before it: (declarations, updates);
        a task loop's reductions are sums only (task reductions of other operators are refused), and its
        critical sections add (the reverse of one that overwrites needs an order tasks do not keep); a task
        per iteration (taskloop == "tasks") may also chain a value through the tasks in order of creation
        (depend(inout) on it: "chain")."""
        r = s.r
        hows = [h for h, f in (("+", "reduction_sum"), ("*", "reduction_prod"), ("max", "reduction_max"),
                               ("min", "reduction_min"), ("atomic", "atomic"), ("critical", "critical"),
                               ("cmax", "critical"), ("chain", "taskloop"))
                if s.on(f) and (not taskloop or h in ("+", "atomic", "critical", "chain")) and
                (h != "chain" or taskloop == "tasks")]
        decls, ups = [], []
        for how in r.sample(hows, min(len(hows), r.randint(0, 2))):
            sym = s.add(Sym(s.fresh("r"), "scalar", "double", ACAP))
            if how == "*":
                sym.cap = 2 * 1.2 ** MAXLEN    # at most MAXLEN factors of at most 1.2
                sym.acc = sym.cap / 2
            init = {"*": 1.0, "max": -0.5, "min": 0.5, "cmax": -0.5}.get(how, 0.0)
            decls.append(Decl("double", sym.name, Num(init)))
            ups.append((sym, how))
        return decls, ups

    def s_omp(s, depth):
        kinds = ["pfor"] * 2 * s.on("parallel_for") + ["region"] * s.on("region")
        return getattr(s, "omp_" + s.r.choice(kinds))(depth) if kinds else []

    def omp_pfor(s, depth):
        r = s.r
        out, ups = s.shared_updates()
        clauses = {}
        for cl in ("private", "firstprivate", "lastprivate"):
            if s.on(cl) and r.random() < 0.5:
                e = s.fit(s.expr(2), ACAP / 2) if cl == "firstprivate" else Num(0.0)
                sym = s.add(Sym(s.fresh(cl[0] + "v"), "scalar", "double", ACAP))
                sym.noisy = e.noisy
                out.append(Decl("double", sym.name, e))
                if cl == "firstprivate":
                    sym.writable = False   # read only: each thread's copy would otherwise depend on its share
                else:
                    sym.hidden = True      # set first in every iteration
                clauses[cl] = [sym]
        L = s.nlen if r.random() < 0.7 else Len(None, r.randint(2, 12))
        loop = s.omp_loop(depth, L, True, clauses, ups)
        for sym in clauses.get("firstprivate", []):
            sym.writable = True
        return out + [loop]

    def omp_region(s, depth):
        """#pragma omp parallel: code every thread runs (reading only what no phase writes), then phases
        (worksharing loops; single, masked or master blocks) separated by barriers."""
        r = s.r
        out = []
        plans = [r.choice(["for", "for"] + [k for k in ("single", "masked", "master") if s.on(k)])
                 for _ in range(r.randint(1, 3))]
        cands = s.ownable(s.nlen)
        arrays = r.sample(cands, min(len(cands), r.randint(1, 2)))
        shared = []      # one shared scalar per single block, which sets it
        for k in plans:
            if k != "for":
                sym = s.add(Sym(s.fresh("q"), "scalar", "double", ACAP))
                out.append(Decl("double", sym.name, Num(0.0)))
                shared.append(sym)
        clauses, fp = [], None
        if s.on("firstprivate") and r.random() < 0.4:
            e = s.fit(s.expr(2), ACAP / 4)
            fp = s.add(Sym(s.fresh("u"), "scalar", "double", ACAP))
            fp.noisy = e.noisy
            out.append(Decl("double", fp.name, e))
            clauses.append("firstprivate(%s)" % fp.name)
        later = []       # reduction variables, declared before the region, visible after it
        written = arrays + shared

        def region():
            inner = []
            s.ompctx = s.omp_ctx("region", written=written, private=[fp] if fp else [])
            if fp is not None:   # each thread changes its own copy, the same way
                e = s.fit(s.expr(2), ACAP / 4)
                inner.append(Assign(Var(fp.name), "=", Bin("+", Bin("*", Num(0.5), Var(fp.name)), e)))
            for _ in range(r.randint(0, 2)):
                inner += s.decl_scalar()
            s.ompctx = None
            for p, k in enumerate(plans):
                if k == "for":
                    tasks = s.on("taskloop") and r.random() < 0.5
                    if tasks and r.random() < 0.5:
                        tasks = "tasks"      # the same loop as one task per iteration
                    decls, ups = s.shared_updates(taskloop=tasks)
                    out.extend(decls)
                    later.extend(sym for sym, _ in ups)
                    nowait = not tasks and s.on("nowait") and r.random() < 0.4 and p + 1 < len(plans)
                    s.ompctx = s.omp_ctx("phase")
                    loop = s.omp_loop(depth + 1, s.nlen, False, {"nowait": nowait, "taskloop": tasks}, ups, among=arrays)
                    inner.append(Omp("single", [loop]) if tasks else loop)
                    s.ompctx = None
                    if nowait:
                        inner.append(Omp("barrier", keep=True))
                    for sym, _ in ups:
                        sym.hidden = True
                else:
                    sym = shared[sum(1 for x in plans[:p] if x != "for")]
                    s.ompctx = s.omp_ctx("single", swrite=arrays + [sym])
                    blk = s.assign(depth + 1, sym)
                    saved, s.budget = s.budget, 2
                    for _ in range(r.randint(0, 2)):
                        blk += s.assign(depth + 1)
                    s.budget = saved
                    s.ompctx = None
                    sym.hidden = False     # later phases, after a barrier, read it
                    inner.append(Omp(k, blk))
                    if k != "single" and p + 1 < len(plans):
                        inner.append(Omp("barrier", keep=True))
            return inner
        saved = s.ompctx
        for sym in shared:
            sym.hidden = True
        body = s.scoped(region)
        s.ompctx = saved
        for sym in shared + later:
            sym.hidden = False
        s.syms.extend(later)
        return out + [Omp("parallel", body, clauses)]

    # ------------------------------------------------------------------ helpers

    def helper(s, kind=None):
        r = s.r
        kinds = [kind] if kind else ["scal"] * 2 + ["reader", "writer"]
        if s.on("recursion"):
            kinds += ["rec"] * 2
        if s.structs:
            kinds += ["sout"] + ["sret"] * s.on("struct_ret")
        if s.omp and s.on("omp_helper"):
            kinds += ["omp"] * 2
        k = kind or r.choice(kinds)
        saved = (s.syms, s.loops, s.kinky, s.heap, s.fn, s.nlen, s.budget, s.swaps)
        s.syms, s.loops, s.kinky, s.heap, s.swaps = [], [], False, [], []
        s.globals_in_scope()
        s.nlen = MLEN if k in ("reader", "writer", "rec", "omp") else None
        s.budget = r.randint(2, 5)
        ty = "float" if s.on("float") and k == "scal" and s.chance(0.3) else "double"
        fn = Func(s.fresh("g"), ty, [], [], noinline=s.on("noinline") and s.chance(0.5))
        fn.kind = s.fn_kind = k
        s.fn = fn
        getattr(s, "h_" + k)(fn, ty)
        fn.kinky = s.kinky
        s.syms, s.loops, s.kinky, s.heap, s.fn, s.nlen, s.budget, s.swaps = saved
        s.funcs.append(fn)

    def param(s, fn, ty, name, sym=None):
        fn.params.append((ty, name))
        if sym is not None:
            s.add(sym).active = True    # the caller may pass anything
        return sym

    def ret_mag(s, fn, e):
        """The result's bound: the largest of the returned expressions'."""
        fn.mag = e.mag
        for node, *_ in walk(fn):
            if isinstance(node, Ret) and node.e is not None:
                fn.mag = max(fn.mag, node.e.mag)

    def h_scal(s, fn, ty):
        for p in ("a", "b")[:s.r.randint(1, 2)]:
            s.param(fn, ty, p, Sym(p, "scalar", ty, PCAP))
        body = s.stmts(1, 0, 3)
        e = s.fit(s.expr(3, ty), LIMIT[ty] / 10)
        fn.body = body + [Ret(e)]
        s.ret_mag(fn, e)

    def h_reader(s, fn, ty):
        s.param(fn, "const double *", "p", Sym("p", "array", "double", ACAP, MLEN, writable=False))
        s.param(fn, "int", "m")
        s.param(fn, "double", "t", Sym("t", "scalar", "double", PCAP))
        body = [Decl("double", "acc", s.fit(s.expr(1), 10))]
        acc = s.add(Sym("acc", "scalar", "double", ACAP))
        iv = s.fresh("i")

        def loop():
            lv = s.add(Sym(iv, "loop", "int"))
            lv.lo, lv.hi = 0, MLEN
            s.loops.append((lv, MAXLEN, "for"))
            out = s.stmts(2, 0, 2)
            room = (ACAP / 2 - acc.acc) / MAXLEN
            if room > 0.01:
                e = s.fit(s.expr(2), room)
                acc.acc += e.mag * MAXLEN
                out.append(Assign(Var("acc"), "+=", e))
            s.loops.pop()
            return out
        body.append(For(iv, 0, Var("m", "int"), s.scoped(loop), himin=1))
        e = s.expr(2)
        e = s.fit(s.mk(Bin(s.r.choice("+-*"), Var("acc"), e), ACAP * max(e.mag, 1)), LIMIT["double"] / 10)
        fn.body = body + [Ret(e)]
        s.ret_mag(fn, e)

    def h_writer(s, fn, ty):
        """p[i] = g(p[i], p[i - 1], t): plain assignments only (the caller's increment budget is not ours)"""
        p = Sym("p", "array", "double", ACAP, MLEN)
        p.acc = ACAP / 2
        s.param(fn, "double *", "p", p)
        s.param(fn, "int", "m")
        s.param(fn, "double", "t", Sym("t", "scalar", "double", PCAP))
        iv = s.fresh("i")
        lo = s.r.choice([0, 1])

        def loop():
            lv = s.add(Sym(iv, "loop", "int"))
            lv.lo, lv.hi = lo, MLEN
            s.loops.append((lv, MAXLEN, "for"))
            out = s.stmts(2, 0, 2)
            a = s.expr(2)
            if lo == 1 and s.on("inplace"):     # a recurrence through the array
                a = s.mk(Bin("*", a, Idx(Var("p"), Bin("-", Var(iv, "int"), Num(1, "int")), "double")), a.mag * ACAP)
            out.append(Assign(Idx(Var("p"), Var(iv, "int"), "double"), "=", s.fit(a, ACAP / 2)))
            s.loops.pop()
            return out
        fn.ret = "void"
        body = s.scoped(loop)
        if s.on("checkpoint_helpers"):
            body = [Raw("__parad_checkpoint_loop();", keep=True)] + body
        fn.body = [For(iv, lo, Var("m", "int"), body, himin=1)]

    def h_rec(s, fn, ty):
        """Recursion on a depth argument d (one or two calls, d - 1 and d - 2)."""
        s.param(fn, "const double *", "p", Sym("p", "array", "double", ACAP, MLEN, writable=False))
        s.param(fn, "int", "m")
        s.param(fn, "int", "d")     # not an index: it reaches -1 (d - 2 at d = 1)
        s.param(fn, "double", "t", Sym("t", "scalar", "double", PCAP))
        base = s.fit(s.expr(2), PCAP)
        u = s.fit(s.expr(2), PCAP)

        def call(k):
            return Call(fn.name, [Var("p"), Var("m", "int"), Bin("-", Var("d", "int"), Num(k, "int")),
                                  s.fit(s.expr(1), PCAP)], "double")
        rec = call(1)
        if s.chance(0.4):
            rec = Bin("+", rec, call(2))
        fn.mag = PCAP
        fn.body = [If(Cmp("<=", Var("d", "int"), Num(0, "int")), [Ret(base)]),
                   Decl("double", "u", u),
                   Ret(s.squash(s.mk(Bin("+", Bin("*", Num(0.5), rec), Var("u")), 2 * PCAP), PCAP))]

    def h_sout(s, fn, ty):
        sd = s.structs[0]
        s.add(Sym("o", "structptr", "struct", ACAP, st=sd)).acc = ACAP / 2
        s.add(Sym("q", "structptr", "struct", ACAP, st=sd, writable=False)).active = True
        fn.params += [("struct S *", "o"), ("const struct S *", "q")]
        s.param(fn, "double", "t", Sym("t", "scalar", "double", PCAP))
        fn.ret = "void"
        body = []
        for fty, fname in sd.fields:
            if fty != "int" and s.chance(0.7):
                body.append(Assign(Fld(Var("o"), fname, fty, True), "=", s.fit(s.expr(2, fty), ACAP / 2)))
        fn.body = body or [Assign(Fld(Var("o"), sd.fields[0][1], sd.fields[0][0], True), "=", Var("t"))]

    def h_sret(s, fn, ty):
        sd = s.structs[0]
        for p in ("a", "b"):
            s.param(fn, "double", p, Sym(p, "scalar", "double", PCAP))
        fn.ret = "struct S"
        body = [Decl("struct S", "res")]
        for fty, fname in sd.fields:
            if fty == "int":
                s.kinky = True
                e = ICast(s.expr(1, clean=True))
            else:
                e = s.fit(s.expr(2, fty), ACAP / 2)
            body.append(Assign(Fld(Var("res"), fname, fty), "=", e))
        fn.body = body + [Ret(Var("res"))]

    def h_omp(s, fn, ty):
        """A callee with a parallel loop writing q[i] from p (read only); with a sum reduction it returns
        the sum."""
        s.param(fn, "const double *", "p", Sym("p", "array", "double", ACAP, MLEN, writable=False))
        s.param(fn, "double *", "q", Sym("q", "array", "double", ACAP, MLEN)).acc = ACAP / 2
        s.param(fn, "int", "m")
        out, ups = [], []
        if s.on("reduction_sum") and s.chance(0.5):
            ups.append((s.add(Sym("r", "scalar", "double", ACAP)), "+"))
            out.append(Decl("double", "r", Num(0.0)))
        out.append(s.omp_loop(1, MLEN, True, {}, ups))
        if ups:
            fn.body, fn.mag = out + [Ret(Var("r"))], ACAP
        else:
            fn.ret, fn.body = "void", out

    # ------------------------------------------------------------------ the program

    def entry(s, h):
        r = s.r
        g = s.globals_in_scope(entry=True)
        x = s.add(Sym("x", "array", "double", 4.0, NLEN(0), writable=s.on("write_x")))
        x.active = True
        ptr = " restrict" if s.on("restrict") else ""
        params = [(("double *" if x.writable else "const double *") + ptr, "x")]
        if h["y"]:
            params.append(("double *" + ptr, "y"))
            y = s.add(Sym("y", "array", "double", ACAP, NLEN(0)))
        if h["c"]:
            params.append(("const double *" + ptr, "c"))
            s.add(Sym("c", "array", "double", 1.0, NLEN(0), writable=False))
        params.append(("int", "n"))
        if h["s"]:
            params.append(("double", "s"))
            s.add(Sym("s", "scalar", "double", 2.0, writable=False)).active = True
        fn = Func("f", "double" if h["ret"] else "void", params, [], static=False, noinline=True)
        s.fn, s.nlen, s.kinky = fn, NLEN(0), False
        s.budget = r.randint(8, 28)
        # G zeroed, then filled: the fill's helper calls may read it
        body = [Raw("memset(G, 0, %d * sizeof *G);" % GLEN, keep=True), s.fill(g)] if g is not None else []
        if s.on("table_lazy"):
            body.insert(0, Raw("if (!K_ready) {\n  for (int k = 0; k < 8; k++) K[k] = K0[k];\n  K_ready = 1;\n}\n"
                               "fuzz_calls++;", keep=True))
        if s.on("table_rewritten"):
            body.insert(0, Raw("for (int k = 0; k < 8; k++) K[k] = K0[k];", keep=True))
        for _ in range(r.randint(1, 3)):
            body += s.decl_scalar()
        if h["y"] and r.random() < 0.7:     # an output usually gets a first value
            y.hidden = True
            body.append(s.fill(y))
        for _ in range(r.randint(0, 3)):
            body += s.decl_array()
        if s.on("structs") and r.random() < 0.7:
            body += s.decl_struct()
        if s.on("alias") and r.random() < 0.7:
            body += s.decl_view()
        if s.on("structs") and s.on("alias") and r.random() < 0.5:
            body += s.decl_structptr()
        if s.on("swap"):
            body += s.decl_swap()
        while s.budget > 0:
            if s.on("realloc") and r.random() < 0.08:
                body += s.s_realloc()
            if s.on("grow") and r.random() < 0.08:
                body += s.s_grow()
            if r.random() < 0.1:
                body += s.decl_array()
            if s.on("alias") and r.random() < 0.05:
                body += s.decl_view()
            body += s.stmt(0)
        if s.on("table_rewritten"):  # somewhere after the fill: the values stay within K's cap of 1
            at = s.r.randint(1, len(body))
            body.insert(at, Raw("for (int k = 0; k < 8; k++) K[k] = 0.5 * K[k] + 0.25;", keep=True))
        sums = s.epilogue()
        body += sums
        e = s.live(s.expr(3))
        for d in sums:       # the sums go into the result (or into y[0])
            if isinstance(d, Decl):
                e = s.mk(Bin("+", e, Var(d.name)), e.mag + ACAP / 2)
        if not h["ret"] and sums:
            y0 = Idx(Var("y"), Num(0, "int"), "double")
            body.append(Assign(y0, "=", s.fit(s.mk(Bin("+", y0, e), e.mag + ACAP), ACAP / 2)))
        e = s.fit(e, LIMIT["double"])
        fn.body = body + [Ret(e if h["ret"] else None, s.heap)]
        return fn

    def epilogue(s):
        """Sums over arrays before the return, as a loss function would: the result then depends on
        every element (a finite-difference check of an input that nothing reads checks little)."""
        out = []
        arrs = [a for a in s.visible(["array"]) if a.name != "y" and a.other is None and a.ty == "double"]
        for a in s.r.sample(arrs, min(len(arrs), s.r.randint(1, 2))):
            acc = Sym(s.fresh("v"), "scalar", "double", ACAP)
            v = s.fresh("i")
            L = a.length
            term = s.mk(Un(s.r.choice(["tanh", "sin", "sq", "atan"]), Idx(Var(a.name), Var(v, "int"), "double")), a.root().cap)
            term = s.fit(s.mk(Bin("*", Num(s.r.choice([0.5, 1.0, 0.25])), term), term.mag), ACAP / 2 / L.max())
            out += [Decl("double", acc.name, Num(0.0)),
                    For(v, 0, L.expr(), [Assign(Var(acc.name), "+=", term)], himin=L.min())]
            acc.noisy = any(x.noisy for x in a.roots())
            acc.active = any(x.active for x in a.roots())
            s.add(acc)
        return out

    def program(s):
        r = s.r
        h = {"n": r.randint(NMIN, NMAX), "y": r.random() < 0.6, "c": r.random() < 0.3, "s": r.random() < 0.7}
        h["ret"] = not h["y"] or r.random() < 0.75
        if s.on("structs") and (s.on("helpers") or s.on("struct_ret")):
            s.structs.append(StructDef("S", [("double", "a"), ("int", "k"), ("double", "b")] +
                                       ([("float", "c")] if s.on("float") else [])))
        if s.on("helpers") or s.on("recursion") or (s.omp and s.on("omp_helper")):
            for _ in range(r.randint(1, 3)):
                s.helper()
            # two writers at least, for calls through a pointer to choose between (a stream of their own)
            main, s.r = s.r, random.Random(s.seed * 7919 + 18 + s.omp)
            while s.on("fnptr") and sum(f.kind == "writer" for f in s.funcs) < 2:
                s.helper("writer")
            s.r = main
        s.funcs.append(s.entry(h))
        text = "\n".join(line for fn in s.funcs for line in fn.lines())
        h["float"] = "float" in text
        h["noisy"] = s.noisy
        h["width4"] = r.random() < 0.4
        h["split"] = h["ret"] and r.random() < 0.35
        h["x0"] = [round(r.uniform(-1.2, 1.2), 3) for _ in range(h["n"])]
        h["w"] = [round(r.uniform(0.5, 1.5), 3) for _ in range(h["n"])]
        h["c0"] = [round(r.uniform(-1, 1), 3) for _ in range(h["n"])]
        h["s0"] = round(r.uniform(-1.2, 1.2), 3)
        tables = [("K", [round(r.uniform(-1, 1), 3) for _ in range(8)])] if s.on("table") else []
        if s.on("index_table"):
            tables.append(("IX", [r.randrange(IXMAX) for _ in range(IXLEN)], "int"))
        return Program(s.seed, s.omp, s.structs, s.funcs, h, s.feat, tables)


def generate(seed, omp=False, features=None):
    return Gen(seed, omp, features).program()


if __name__ == "__main__":
    import sys
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    print(generate(seed, len(sys.argv) > 2 and sys.argv[2] == "omp").c())
