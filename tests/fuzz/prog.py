"""The fuzzer's program representation: a small C AST, printed as C.

The generator (gen.py) builds it, the shrinker (shrink.py) edits it, and `Program.c()` prints it together
with its test harness.  Every node lists its children in `F` (field names holding a node, a list of nodes,
or None), so the shrinker can walk and edit any tree without knowing the node types.  Statements carry
`keep = True` when removing them could make the program ill-defined (the loop that fills an array before
its first read, a barrier between two phases of a parallel region, a free): the shrinker leaves those.
"""


class Node:
    F = ()
    keep = False

    def __repr__(self):
        return "<%s %s>" % (type(self).__name__, self.c() if isinstance(self, Expr) else "")


def suffix(ty):
    """libm's name suffix for a type: sinf for float, sin for double."""
    return "f" if ty == "float" else ""


def fnum(v, ty):
    if ty == "int":
        return str(int(v))
    t = repr(float(v))
    if "e" in t or "inf" in t or "nan" in t:
        t = "%.17g" % v
        if "." not in t and "e" not in t:
            t += ".0"
    return t + ("f" if ty == "float" else "")


# ---------------------------------------------------------------- expressions
# Every expression has a C type `ty` ('double', 'float', 'int'), and, while being generated, a bound `mag` on
# its magnitude and a flag `noisy` (its value depends on the order of a parallel reduction, so it may
# differ in its last bits from run to run and must not decide a branch).

class Expr(Node):
    ty = "double"
    mag = 1.0
    noisy = False


def ty_of(*es):
    tys = {e.ty for e in es}
    if "double" in tys:
        return "double"
    if "float" in tys:
        return "float"
    return "int"


class Num(Expr):
    def __init__(s, v, ty="double"):
        s.v, s.ty, s.mag = v, ty, abs(v)

    def c(s):
        t = fnum(s.v, s.ty)
        return "(%s)" % t if s.v < 0 else t


class Var(Expr):
    def __init__(s, name, ty="double"):
        s.name, s.ty = name, ty

    def c(s):
        return s.name


class Idx(Expr):
    """base[i]"""
    F = ("base", "i")

    def __init__(s, base, i, ty):
        s.base, s.i, s.ty = base, i, ty

    def c(s):
        return "%s[%s]" % (s.base.c(), s.i.c())


class Fld(Expr):
    """base.name or base->name"""
    F = ("base",)

    def __init__(s, base, name, ty, arrow=False):
        s.base, s.name, s.ty, s.arrow = base, name, ty, arrow

    def c(s):
        return "%s%s%s" % (s.base.c(), "->" if s.arrow else ".", s.name)


class Bin(Expr):
    F = ("a", "b")

    def __init__(s, op, a, b):
        s.op, s.a, s.b = op, a, b
        s.ty = ty_of(a, b)

    def c(s):
        return "(%s %s %s)" % (s.a.c(), s.op, s.b.c())


class Div(Expr):
    """a / (k + b * b): a division whose divisor is at least k > 0."""
    F = ("a", "b")

    def __init__(s, a, b, k):
        s.a, s.b, s.k = a, b, k
        s.ty = ty_of(a, b)

    def c(s):
        b = s.b.c()
        if len(b) > LONG:
            return "(%s / (%s + 1 + sin%s(%s)))" % (s.a.c(), fnum(s.k, s.ty), suffix(s.ty), b)
        return "(%s / (%s + %s * %s))" % (s.a.c(), fnum(s.k, s.ty), b, b)


# Unary functions, each with the guard that keeps it well-defined and its result bounded; '#' becomes the
# float suffix.  The bound of the result, from the bound of the argument, is in gen.py.
UNARY = {
    "neg": "(-{a})",
    "sin": "sin#({a})",
    "cos": "cos#({a})",
    "tanh": "tanh#({a})",
    "atan": "atan#({a})",
    "fabs": "fabs#({a})",
    "exp": "exp#(tanh#({a}))",
    "exps": "exp#(sin#({a}))",
    "log": "log#(1 + {a} * {a})",
    "sqrt": "sqrt#(1 + {a} * {a})",
    "tan": "tan#(tanh#({a}) / 2)",
    "asinh": "asinh#({a})",
    "log1p": "log1p#({a} * {a})",
    "expm1": "expm1#(tanh#({a}))",
    "erf": "erf#({a})",
    "cbrt": "cbrt#(1 + {a} * {a})",
    "sinh": "sinh#(tanh#({a}))",
    "cosh": "cosh#(tanh#({a}))",
    "floor": "floor#({a})",
    "sq": "({a} * {a})",
}


# The guards above name their operand twice; with a long operand (nested guards would double the text at
# every level) these forms, with the same domain and range, are printed instead.
LONG = 30
UNARY_LONG = {
    "log": "log#(2 + tanh#({a}))",
    "sqrt": "sqrt#(2 + sin#({a}))",
    "log1p": "log1p#(1 + tanh#({a}))",
    "cbrt": "cbrt#(2 + cos#({a}))",
    "sq": "pow#({a}, 2)",
}


class Un(Expr):
    F = ("a",)

    def __init__(s, fn, a):
        s.fn, s.a = fn, a
        s.ty = "double" if a.ty == "int" else a.ty

    def c(s):
        a = s.a.c()
        form = UNARY_LONG[s.fn] if len(a) > LONG and s.fn in UNARY_LONG else UNARY[s.fn]
        return form.replace("#", suffix(s.ty)).format(a=a)


BINARY = {
    "fmin": "fmin#({a}, {b})",
    "fmax": "fmax#({a}, {b})",
    "hypot": "hypot#({a}, 1 + {b} * {b})",
    "pow": "pow#(1 + {a} * {a}, {b})",
    "atan2": "atan2#({a}, 1 + {b} * {b})",
    "fmod": "fmod#({a}, 1 + {b} * {b})",
}


BINARY_LONG = {
    "hypot": "hypot#({a}, 2 + sin#({b}))",
    "pow": "pow#(2 + sin#({a}), {b})",
    "atan2": "atan2#({a}, 2 + cos#({b}))",
    "fmod": "fmod#({a}, 2 + cos#({b}))",
}


class Fn2(Expr):
    F = ("a", "b")

    def __init__(s, fn, a, b):
        s.fn, s.a, s.b = fn, a, b
        s.ty = ty_of(a, b)
        if s.ty == "int":
            s.ty = "double"

    def c(s):
        a, b = s.a.c(), s.b.c()
        twice = b if s.fn != "pow" else a     # the operand the guard names twice
        form = BINARY_LONG[s.fn] if len(twice) > LONG and s.fn in BINARY_LONG else BINARY[s.fn]
        return form.replace("#", suffix(s.ty)).format(a=a, b=b)


class Cmp(Expr):
    F = ("a", "b")
    ty = "int"

    def __init__(s, op, a, b):
        s.op, s.a, s.b = op, a, b

    def c(s):
        return "(%s %s %s)" % (s.a.c(), s.op, s.b.c())


class Cond(Expr):
    F = ("k", "a", "b")

    def __init__(s, k, a, b):
        s.k, s.a, s.b = k, a, b
        s.ty = ty_of(a, b)

    def c(s):
        return "(%s ? %s : %s)" % (s.k.c(), s.a.c(), s.b.c())


class Call(Expr):
    F = ("args",)

    def __init__(s, fn, args, ty):
        s.fn, s.args, s.ty = fn, args, ty

    def c(s):
        return "%s(%s)" % (s.fn, ", ".join(a.c() for a in s.args))


class ICast(Expr):
    """A data-dependent integer in 0..6: (int)(3 + 3 tanh(a))."""
    F = ("a",)
    ty = "int"

    def __init__(s, a):
        s.a = a

    def c(s):
        return "((int)(3 + 3 * tanh%s(%s)))" % (suffix(s.a.ty), s.a.c())


class Cast(Expr):
    F = ("a",)

    def __init__(s, ty, a):
        s.ty, s.a = ty, a

    def c(s):
        return "((%s)%s)" % (s.ty, s.a.c())


class Addr(Expr):
    """&e, or e + k for a pointer e (a view into an array)."""
    F = ("a",)
    ty = "ptr"

    def __init__(s, a, off=None):
        s.a, s.off = a, off

    def c(s):
        if s.off is None:
            return "&%s" % s.a.c()
        return "(%s + %d)" % (s.a.c(), s.off)


class Text(Expr):
    """Verbatim C, for things the shrinker has no business inside (sizes, allocation calls)."""

    def __init__(s, text, ty="int"):
        s.text, s.ty = text, ty

    def c(s):
        return s.text


# ---------------------------------------------------------------- statements

class Stmt(Node):
    def lines(self, ind):
        raise NotImplementedError


def block(body, ind):
    out = []
    for st in body:
        out += st.lines(ind)
    return out


class Decl(Stmt):
    """`ty name = init;`, `ty name[len];` (len an Expr; a VLA when it is not constant), `ty *name = init;`"""
    F = ("init",)

    def __init__(s, ty, name, init=None, length=None):
        s.ty, s.name, s.init, s.length = ty, name, init, length

    def lines(s, ind):
        if s.length is not None:
            return [ind + "%s %s[%s];" % (s.ty, s.name, s.length.c())]
        if s.init is None:
            return [ind + "%s %s;" % (s.ty, s.name)]
        return [ind + "%s %s = %s;" % (s.ty, s.name, s.init.c())]


class Assign(Stmt):
    F = ("lhs", "rhs")

    def __init__(s, lhs, op, rhs):
        s.lhs, s.op, s.rhs = lhs, op, rhs

    def lines(s, ind):
        return [ind + "%s %s %s;" % (s.lhs.c(), s.op, s.rhs.c())]


class ExprS(Stmt):
    F = ("e",)

    def __init__(s, e):
        s.e = e

    def lines(s, ind):
        return [ind + s.e.c() + ";"]


class Raw(Stmt):
    """A statement the shrinker may delete but not edit (free, memcpy, realloc with its size)."""

    def __init__(s, text, keep=False):
        s.text, s.keep = text, keep

    def lines(s, ind):
        return [ind + t for t in s.text.split("\n")]


class If(Stmt):
    F = ("k", "then", "els")

    def __init__(s, k, then, els=None):
        s.k, s.then, s.els = k, then, els

    def lines(s, ind):
        out = [ind + "if (%s) {" % s.k.c()] + block(s.then, ind + "  ")
        if s.els:
            out += [ind + "} else {"] + block(s.els, ind + "  ")
        return out + [ind + "}"]


class For(Stmt):
    """for (int v = lo; v < hi; v++), or counting down from hi - 1 to lo; `pragma` (a list of clause
    strings after '#pragma omp ...') makes it a worksharing loop."""
    F = ("hi", "body")

    def __init__(s, v, lo, hi, body, down=False, pragma=None, himin=None):
        s.v, s.lo, s.hi, s.body, s.down, s.pragma = v, lo, hi, body, down, pragma
        s.himin = himin     # the least value hi can take: the shrinker may lower hi to it

    def lines(s, ind):
        out = []
        if s.pragma is not None:
            out.append("#pragma omp " + " ".join(s.pragma))
        lo = s.lo.c() if isinstance(s.lo, Expr) else str(s.lo)
        if s.down:
            head = "for (int %s = %s - 1; %s >= %s; %s--)" % (s.v, s.hi.c(), s.v, lo, s.v)
        else:
            head = "for (int %s = %s; %s < %s; %s++)" % (s.v, lo, s.v, s.hi.c(), s.v)
        return out + [ind + head + " {"] + block(s.body, ind + "  ") + [ind + "}"]


class While(Stmt):
    """A loop with a data-dependent exit, bounded by a counter: int k = 0; while (cond && k < K) {...}"""
    F = ("k", "body")

    def __init__(s, cnt, bound, k, body):
        s.cnt, s.bound, s.k, s.body = cnt, bound, k, body

    def lines(s, ind):
        return ([ind + "{", ind + "  int %s = 0;" % s.cnt,
                 ind + "  while (%s && %s < %d) {" % (s.k.c(), s.cnt, s.bound)]
                + block(s.body, ind + "    ") + [ind + "    %s++;" % s.cnt, ind + "  }", ind + "}"])


class Jump(Stmt):
    def __init__(s, what):
        s.what = what

    def lines(s, ind):
        return [ind + s.what + ";"]


class Ret(Stmt):
    """return e; after freeing the heap blocks alive at that point"""
    F = ("e",)

    def __init__(s, e, frees=()):
        s.e, s.frees = e, list(frees)

    def lines(s, ind):
        if not s.frees:
            return [ind + ("return %s;" % s.e.c() if s.e is not None else "return;")]
        out = [ind + "{"]
        if s.e is not None:     # the result may read the blocks: compute it first
            out.append(ind + "  double result = %s;" % s.e.c())
        out += [ind + "  free(%s);" % f for f in s.frees]
        return out + [ind + ("  return result;" if s.e is not None else "  return;"), ind + "}"]


class Omp(Stmt):
    """#pragma omp <what> [clauses] followed by a block (or, for 'barrier', nothing)."""
    F = ("body",)

    def __init__(s, what, body=None, clauses=None, keep=False):
        s.what, s.body, s.clauses, s.keep = what, body, clauses or [], keep

    def lines(s, ind):
        out = ["#pragma omp " + " ".join([s.what] + s.clauses)]
        if s.body is None:
            return out
        if s.what.startswith("atomic"):
            return out + block(s.body, ind)
        return out + [ind + "{"] + block(s.body, ind + "  ") + [ind + "}"]


class Case(Stmt):
    """case label: { body } with a break at its end, or falling through to the next case"""
    F = ("body",)

    def __init__(s, label, body, brk=True):
        s.label, s.body, s.brk = label, body, brk

    def lines(s, ind):
        head = "default:" if s.label is None else "case %d:" % s.label
        return ([ind + head + " {"] + block(s.body, ind + "  ") + ([ind + "  break;"] if s.brk else []) +
                [ind + "}"])


class Switch(Stmt):
    F = ("k", "cases")

    def __init__(s, k, cases):
        s.k, s.cases = k, cases

    def lines(s, ind):
        return [ind + "switch (%s) {" % s.k.c()] + block(s.cases, ind) + [ind + "}"]


class Block(Stmt):
    F = ("body",)

    def __init__(s, body):
        s.body = body

    def lines(s, ind):
        return [ind + "{"] + block(s.body, ind + "  ") + [ind + "}"]


# ---------------------------------------------------------------- functions and programs

class Func(Node):
    F = ("body",)

    def __init__(s, name, ret, params, body, static=True, noinline=False):
        s.name, s.ret, s.params, s.body, s.static, s.noinline = name, ret, params, body, static, noinline
        s.kind = None
        s.mag = 1.0        # bound on the result
        s.kinky = False    # has branches or kinks on data: never pass it noisy values

    def lines(s):
        head = ""
        if s.noinline:
            head += "__attribute__((noinline)) "
        if s.static:
            head += "static "
        sig = "%s%s %s(%s)" % (head, s.ret, s.name, ", ".join("%s %s" % p for p in s.params))
        return [sig + " {"] + block(s.body, "  ") + ["}"]


class StructDef(Node):
    def __init__(s, name, fields):
        s.name, s.fields = name, fields   # [(ty, name)]

    def lines(s):
        return ["struct %s {" % s.name] + ["  %s %s;" % f for f in s.fields] + ["};"]


class Program(Node):
    """Structs, helpers, the entry `f`, and what the harness needs to know about f (`h`, a dict)."""
    F = ("funcs",)

    def __init__(s, seed, omp, structs, funcs, h, features, tables=()):
        s.seed, s.omp, s.structs, s.funcs, s.h, s.features = seed, omp, structs, funcs, h, features
        s.tables = list(tables)   # constant global arrays: (name, values[, type: double if none])

    def body_c(s):
        out = ["/* parad fuzz program: seed %d%s */" % (s.seed, ", OpenMP" if s.omp else ""),
               "/* features: %s */" % " ".join(sorted(s.features)),
               "#include <math.h>", "#include <stdlib.h>", "#include <string.h>", ""]
        if s.features & {"checkpoint", "checkpoint_helpers"}:  # Parad's runtime defines it; a build with plain clang gets this one
            out += ["__attribute__((weak)) void __parad_checkpoint_loop(void) {}", ""]
        for st in s.structs:
            out += st.lines() + [""]
        for name, vals, *ty in s.tables:
            ty = ty[0] if ty else "double"
            text = ", ".join(str(v) if ty == "int" else fnum(v, ty) for v in vals)
            if name == "K" and s.features & {"table_lazy", "table_rewritten"}:  # the entry fills K from K0
                out += ["static const %s K0[%d] = {%s};" % (ty, len(vals), text), "static %s K[%d];" % (ty, len(vals))]
                out += ["static int K_ready, fuzz_calls;", ""] if "table_lazy" in s.features else [""]
                continue
            out += ["static const %s %s[%d] = {%s};" % (ty, name, len(vals), text), ""]
        if "globals_heap" in s.features:  # a program's field allocated by main, kept in a global pointer
            out += ["static double *G;", ""]
        elif "globals" in s.features:
            out += ["static double G[8];", ""]
        if "sort" in s.features:
            out += ["static int fuzz_ascending(const void *a, const void *b) {",
                    "  double x = *(const double *)a, y = *(const double *)b;",
                    "  return (x > y) - (x < y);", "}", ""]
        for fn in s.funcs:
            out += fn.lines() + [""]
        return "\n".join(out)

    def c(s):
        from harness import harness
        return s.body_c() + "\n" + harness(s)


def walk(node, parent=None, field=None, index=None):
    """Yields (node, parent, field, index) for node and everything under it, parents first."""
    yield node, parent, field, index
    for f in node.F:
        v = getattr(node, f)
        if isinstance(v, list):
            for i, x in enumerate(v):
                if isinstance(x, Node):
                    yield from walk(x, node, f, i)
        elif isinstance(v, Node):
            yield from walk(v, node, f, None)
