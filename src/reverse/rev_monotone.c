/* Addresses that move one way over a loop's run without moving linearly: clamped indices (an image's
 * edge pixel read for the pixels beyond it, a[smin(smax(j + dj, 0), n - 1)]), read through the short
 * offset loops a stencil runs in each iteration.
 *
 * rev_shared.c notes a region's reads once per run of a loop, and decides them once per run of its
 * reverse, where it can bound what the run reads: a linear address is bounded by its first and last
 * iterations'. So is an address that is, on its own, monotone in each variable it depends on: the run's
 * iteration, and the counters of short loops inside the run (at most 16 iterations between constants,
 * every iteration running all of their blocks: rev_loops.c's loop_short_constant). Such a function
 * reaches its least and greatest values over the box the variables range over at corners of the box:
 * each variable at the end its direction gives, or at both ends where the direction is known only at
 * run time (a clamped row times a row length). Noted one by one instead, the reads of a 3 x 3
 * convolution cost a comparison and a selection each, in one chain through the row: half the gradient.
 *
 * Monotone here: a sum of terms moving the same way (or of linear ones, any way), a product by a value
 * the variable does not move, the min and max intrinsics (and clamps spelled with selects), divisions
 * and right shifts by positive constants, widenings and truncations, each read in the order it is
 * monotone in, and every operation whose value must be exact (in an operand of a min or max, or itself
 * not linear) unable to wrap (nsw, nuw, inbounds, as its use reads it). */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "reverse/rev_internal.h"

enum { MAX_VARIABLES = 4, MAX_UNKNOWN = 2, MAX_DEPTH = 24 };

typedef struct {
  int dir;     /* as the variable's iterations go on: 0 still, 1 up, -1 down, 2 one way (unknown which) */
  bool linear; /* linear in the variable */
} Trend;

static const Trend STILL = {0, true};

/* How a value is read, `wrap`: READ_SIGNED or READ_UNSIGNED (under a widening, a min or max), neither (64-bit
 * address arithmetic); STRICT, in an operand of a min or max, where even a linear value must not wrap. Linear
 * arithmetic elsewhere may, as rev_loops.c's linear forms may: a run's in-bounds addresses then move linearly. */
enum { READ_SIGNED = 1, READ_UNSIGNED = 2, STRICT = 4 };

/* Whether operation v does not change its value as wrap reads it. */
static bool exact(LLVMValueRef v, int wrap) {
  int read = wrap & (READ_SIGNED | READ_UNSIGNED);
  return read == READ_SIGNED ? LLVMGetNSW(v) : read == READ_UNSIGNED ? LLVMGetNUW(v) : LLVMGetNSW(v) || LLVMGetNUW(v);
}

/* The induction variable v is of a short loop inside run (its start fixed over the run), or NULL. */
static Induction *inner_iv(RevGen *g, Loop *run, LLVMValueRef v, Loop **loop) {
  if (!LLVMIsAPHINode(v)) return NULL;
  for (size_t i = 0; i < g->loops.len; i++) {
    Loop *m = &g->loops.data[i];
    if (m == run || m->header != LLVMGetInstructionParent(v) || !in_loop(g, run, m->header) || !loop_short_constant(g, m)) continue;
    int k = loop_iv_index(m, v);
    if (k < 0 || !loop_invariant(g, run, m->ivs.data[k].start)) return NULL;
    *loop = m;
    return &m->ivs.data[k];
  }
  return NULL;
}

/* Whether the counter's step keeps its value as wrap reads it. */
static bool iv_exact(Loop *l, Induction *iv, int wrap) {
  if (!(wrap & STRICT)) return true;
  for (unsigned i = 0; i < LLVMCountIncoming(iv->phi); i++)
    if (LLVMGetIncomingBlock(iv->phi, i) == l->latch) {
      LLVMValueRef next = LLVMGetIncomingValue(iv->phi, i);
      return LLVMIsAInstruction(next) && LLVMGetInstructionOpcode(next) == LLVMAdd && exact(next, wrap);
    }
  return false;
}

static Trend moving(Induction *iv) {
  return (Trend){LLVMConstIntGetSExtValue(iv->step) > 0 ? 1 : -1, true};
}

static bool sum(Trend a, Trend b, Trend *r) {
  if (!a.dir) return *r = b, true;
  if (!b.dir) return *r = a, true;
  if (a.linear && b.linear) return *r = (Trend){a.dir == b.dir ? a.dir : 2, true}, true;
  if (a.dir == b.dir && a.dir != 2) return *r = (Trend){a.dir, false}, true;
  return false;
}

static Trend negated(Trend t) { return (Trend){t.dir == 1 ? -1 : t.dir == -1 ? 1 : t.dir, t.linear}; }

/* t times a value the variable does not move: by its sign where it is a constant. */
static Trend scaled(Trend t, LLVMValueRef by) {
  if (!t.dir) return t;
  if (!LLVMIsAConstantInt(by)) return (Trend){2, t.linear};
  long long c = LLVMConstIntGetSExtValue(by);
  return c > 0 ? t : c < 0 ? negated(t) : STILL;
}

/* Whether call calls the intrinsic `name` (of any overload). */
static bool intrinsic(LLVMValueRef call, const char *name) {
  LLVMValueRef fn = LLVMIsACallInst(call) ? LLVMGetCalledValue(call) : NULL;
  return fn && LLVMGetIntrinsicID(fn) && LLVMGetIntrinsicID(fn) == LLVMLookupIntrinsicID(name, strlen(name));
}

static bool trend(RevGen *g, Loop *run, LLVMValueRef var, LLVMValueRef v, int wrap, int depth, Trend *t);

/* Whether an arithmetic operation moving as t keeps the trend: it does not move, or moves linearly outside
 * a min or max, or cannot wrap. */
static bool kept(LLVMValueRef v, Trend t, int wrap) { return !t.dir || (t.linear && !(wrap & STRICT)) || exact(v, wrap); }

/* Whether an operation monotone in the order `order` (READ_SIGNED or READ_UNSIGNED) stays monotone as
 * wrap reads its value: a signed minimum read unsigned (widened with zext) is not where it may be negative. */
static bool same_order(int order, int wrap) {
  int read = wrap & (READ_SIGNED | READ_UNSIGNED);
  return !read || read == order;
}

/* The min and max intrinsics: monotone in each operand, not linear. */
static bool min_max(RevGen *g, Loop *run, LLVMValueRef var, LLVMValueRef call, int wrap, int depth, Trend *t) {
  int order = intrinsic(call, "llvm.smin") || intrinsic(call, "llvm.smax")   ? READ_SIGNED
              : intrinsic(call, "llvm.umin") || intrinsic(call, "llvm.umax") ? READ_UNSIGNED
                                                                              : 0;
  Trend a, b;
  if (!order || !same_order(order, wrap) || !trend(g, run, var, LLVMGetArgOperand(call, 0), order | STRICT, depth + 1, &a) ||
      !trend(g, run, var, LLVMGetArgOperand(call, 1), order | STRICT, depth + 1, &b))
    return false;
  int dir = !a.dir ? b.dir : !b.dir ? a.dir : a.dir == b.dir && a.dir != 2 ? a.dir : 3;
  *t = (Trend){dir, !dir};
  return dir != 3; /* operands moving different ways, or each one way unknown which, do not agree */
}

/* A clamp spelled with a select, as clang writes v < lo ? lo : min(v, hi) where it cannot tell that
 * lo <= hi (hi = n - 1): max(min(v, hi), lo) where lo <= hi, which the span tests as the run starts (else
 * it notes everything); or v > hi ? hi : max(v, lo), min(max(v, lo), hi) where lo <= hi. x: v; bound: the
 * bound compared and selected; other: the min or max's other bound. */
typedef struct {
  LLVMValueRef x, bound, other;
  bool is_signed, lower; /* lower: bound is the lower one (the first form) */
} Clamp;

static LLVMIntPredicate swapped(LLVMIntPredicate p) {
  switch (p) {
  case LLVMIntSLT: return LLVMIntSGT;
  case LLVMIntSLE: return LLVMIntSGE;
  case LLVMIntSGT: return LLVMIntSLT;
  case LLVMIntSGE: return LLVMIntSLE;
  case LLVMIntULT: return LLVMIntUGT;
  case LLVMIntULE: return LLVMIntUGE;
  case LLVMIntUGT: return LLVMIntULT;
  case LLVMIntUGE: return LLVMIntULE;
  default: return p;
  }
}

static LLVMIntPredicate inverted(LLVMIntPredicate p) {
  switch (p) {
  case LLVMIntSLT: return LLVMIntSGE;
  case LLVMIntSLE: return LLVMIntSGT;
  case LLVMIntSGT: return LLVMIntSLE;
  case LLVMIntSGE: return LLVMIntSLT;
  case LLVMIntULT: return LLVMIntUGE;
  case LLVMIntULE: return LLVMIntUGT;
  case LLVMIntUGT: return LLVMIntULE;
  case LLVMIntUGE: return LLVMIntULT;
  default: return p;
  }
}

static bool select_clamp(LLVMValueRef sel, Clamp *c) {
  LLVMValueRef cond = LLVMGetOperand(sel, 0), arm[2] = {LLVMGetOperand(sel, 1), LLVMGetOperand(sel, 2)};
  if (!LLVMIsAICmpInst(cond)) return false;
  LLVMIntPredicate p = LLVMGetICmpPredicate(cond);
  LLVMValueRef a = LLVMGetOperand(cond, 0), b = LLVMGetOperand(cond, 1);
  int k = arm[0] == a || arm[0] == b ? 0 : arm[1] == a || arm[1] == b ? 1 : -1; /* the bound's arm */
  if (k < 0 || p == LLVMIntEQ || p == LLVMIntNE) return false;
  if (arm[k] == a) p = swapped(p), a = b, b = arm[k]; /* now x P bound */
  if (k == 1) p = inverted(p);                        /* now x P bound selects the bound */
  c->x = a, c->bound = b;
  c->is_signed = p == LLVMIntSLT || p == LLVMIntSLE || p == LLVMIntSGT || p == LLVMIntSGE;
  c->lower = p == LLVMIntSLT || p == LLVMIntSLE || p == LLVMIntULT || p == LLVMIntULE;
  LLVMValueRef m = arm[!k];
  const char *want = c->lower ? (c->is_signed ? "llvm.smin" : "llvm.umin") : (c->is_signed ? "llvm.smax" : "llvm.umax");
  if (!intrinsic(m, want)) return false;
  LLVMValueRef m0 = LLVMGetArgOperand(m, 0), m1 = LLVMGetArgOperand(m, 1);
  if (m0 != c->x && m1 != c->x) return false;
  c->other = m0 == c->x ? m1 : m0;
  return true;
}

/* The clamp's bounds in order (lo <= hi), as `value` gives them, or NULL where both are constants in order. */
static LLVMValueRef clamp_ordered(RevGen *g, const Clamp *c, LLVMValueRef (*value)(RevGen *, LLVMValueRef)) {
  LLVMValueRef lo = c->lower ? c->bound : c->other, hi = c->lower ? c->other : c->bound;
  if (LLVMIsAConstantInt(lo) && LLVMIsAConstantInt(hi)) {
    bool ordered = c->is_signed ? LLVMConstIntGetSExtValue(lo) <= LLVMConstIntGetSExtValue(hi)
                                : LLVMConstIntGetZExtValue(lo) <= LLVMConstIntGetZExtValue(hi);
    if (ordered) return NULL;
  }
  lo = LLVMIsAInstruction(lo) || LLVMIsAArgument(lo) ? value(g, lo) : lo;
  hi = LLVMIsAInstruction(hi) || LLVMIsAArgument(hi) ? value(g, hi) : hi;
  return LLVMBuildICmp(g->b, c->is_signed ? LLVMIntSLE : LLVMIntULE, lo, hi, "clamp.ordered");
}

static bool select_trend(RevGen *g, Loop *run, LLVMValueRef var, LLVMValueRef sel, int wrap, int depth, Trend *t) {
  Clamp c;
  if (!select_clamp(sel, &c) || !loop_invariant(g, run, c.bound) || !loop_invariant(g, run, c.other)) return false;
  int order = c.is_signed ? READ_SIGNED : READ_UNSIGNED;
  if (!same_order(order, wrap) || !trend(g, run, var, c.x, order | STRICT, depth + 1, t)) return false;
  t->linear = !t->dir;
  return true;
}

/* The bytes an index of a GEP counts in, through its source type; 0 where not a sized array's or the
 * GEP's own (struct fields move nothing). */
static bool gep_trend(RevGen *g, Loop *run, LLVMValueRef var, LLVMValueRef v, int depth, Trend *t) {
  LLVMTypeRef type = LLVMGetGEPSourceElementType(v);
  if (!trend(g, run, var, LLVMGetOperand(v, 0), 0, depth + 1, t)) return false;
  for (unsigned i = 1, n = (unsigned)LLVMGetNumOperands(v); i < n; i++) {
    LLVMValueRef idx = LLVMGetOperand(v, i);
    if (i > 1 && LLVMGetTypeKind(type) == LLVMStructTypeKind) {
      type = LLVMStructGetTypeAtIndex(type, (unsigned)LLVMConstIntGetZExtValue(idx));
      continue;
    }
    if (i > 1 && LLVMGetTypeKind(type) != LLVMArrayTypeKind) return false;
    if (i > 1) type = LLVMGetElementType(type);
    Trend x;
    if (!LLVMTypeIsSized(type) || !trend(g, run, var, idx, LLVMGetIntTypeWidth(LLVMTypeOf(idx)) < 64 ? READ_SIGNED : 0, depth + 1, &x) ||
        !sum(*t, x, t))
      return false;
  }
  return t->linear || LLVMIsInBounds(v);
}

/* How v moves with var (NULL: the run's own iteration, every counter of the run at once; else an inner
 * loop's counter, the run and the other counters held), read in context wrap; false where not monotone. */
static bool trend(RevGen *g, Loop *run, LLVMValueRef var, LLVMValueRef v, int wrap, int depth, Trend *t) {
  *t = STILL;
  if (loop_invariant(g, run, v)) return true;
  int k = loop_iv_index(run, v);
  if (k >= 0) {
    if (!var) *t = moving(&run->ivs.data[k]);
    return iv_exact(run, &run->ivs.data[k], wrap);
  }
  Loop *m;
  Induction *iv = inner_iv(g, run, v, &m);
  if (iv) {
    if (v == var) *t = moving(iv);
    return iv_exact(m, iv, wrap);
  }
  if (depth > MAX_DEPTH || !LLVMIsAInstruction(v)) return false;
  LLVMValueRef a = LLVMGetNumOperands(v) > 0 ? LLVMGetOperand(v, 0) : NULL, b = LLVMGetNumOperands(v) > 1 ? LLVMGetOperand(v, 1) : NULL;
  Trend x, y;
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMAdd:
  case LLVMSub:
    if (!trend(g, run, var, a, wrap, depth + 1, &x) || !trend(g, run, var, b, wrap, depth + 1, &y) ||
        !sum(x, LLVMGetInstructionOpcode(v) == LLVMSub ? negated(y) : y, t))
      return false;
    return kept(v, *t, wrap);
  case LLVMMul:
    if (!trend(g, run, var, a, wrap, depth + 1, &x) || !trend(g, run, var, b, wrap, depth + 1, &y) || (x.dir && y.dir)) return false;
    *t = x.dir ? scaled(x, b) : scaled(y, a);
    return kept(v, *t, wrap);
  case LLVMShl:
    if (!LLVMIsAConstantInt(b) || LLVMConstIntGetZExtValue(b) >= 63 || !trend(g, run, var, a, wrap, depth + 1, t)) return false;
    return kept(v, *t, wrap);
  case LLVMOr: return LLVMGetIsDisjoint(v) && LLVMIsAConstantInt(b) && trend(g, run, var, a, wrap, depth + 1, t); /* x + c */
  case LLVMSExt: return trend(g, run, var, a, (wrap & STRICT) | READ_SIGNED, depth + 1, t);
  case LLVMZExt: return trend(g, run, var, a, (wrap & STRICT) | (LLVMGetNNeg(v) ? READ_SIGNED : READ_UNSIGNED), depth + 1, t);
  case LLVMTrunc:
    if (!trend(g, run, var, a, wrap, depth + 1, t)) return false;
    return !t->dir || (t->linear && !(wrap & STRICT)) || ((wrap & (READ_SIGNED | READ_UNSIGNED)) && exact(v, wrap));
  case LLVMBitCast:
  case LLVMAddrSpaceCast: return trend(g, run, var, a, wrap, depth + 1, t);
  case LLVMGetElementPtr: return gep_trend(g, run, var, v, depth, t);
  case LLVMCall: return min_max(g, run, var, v, wrap, depth, t);
  case LLVMSelect: return select_trend(g, run, var, v, wrap, depth, t);
  case LLVMAShr:
  case LLVMSDiv:
  case LLVMLShr:
  case LLVMUDiv: { /* by a positive constant (a coarse grid's i / 2): monotone, not linear */
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    int order = op == LLVMAShr || op == LLVMSDiv ? READ_SIGNED : READ_UNSIGNED;
    long long by = LLVMIsAConstantInt(b) ? LLVMConstIntGetSExtValue(b) : 0;
    bool small = order == READ_UNSIGNED && by >= (op == LLVMLShr ? 1 : 2); /* below the sign bit: read either way */
    if (by <= 0 || (!small && !same_order(order, wrap)) ||
        !trend(g, run, var, a, order | STRICT, depth + 1, t))
      return false;
    t->linear = !t->dir;
    return true;
  }
  default: return false;
  }
}

/* The inner loops' counters v depends on, into vars (false where more than MAX_VARIABLES). */
static bool find_variables(RevGen *g, Loop *run, LLVMValueRef v, LLVMValueRef *vars, unsigned *n, int depth) {
  Loop *m;
  if (loop_invariant(g, run, v) || loop_iv_index(run, v) >= 0 || depth > MAX_DEPTH) return true;
  if (inner_iv(g, run, v, &m)) {
    for (unsigned i = 0; i < *n; i++)
      if (vars[i] == v) return true;
    if (*n == MAX_VARIABLES) return false;
    vars[(*n)++] = v;
    return true;
  }
  if (LLVMIsAPHINode(v)) return true; /* trend refuses it */
  for (unsigned i = 0, k = (unsigned)LLVMGetNumOperands(v); i < k; i++)
    if (!find_variables(g, run, LLVMGetOperand(v, i), vars, n, depth + 1)) return false;
  return true;
}

/* The conditions the selects' clamps in v need (clamp_ordered), and-ed into *ok. */
static void clamps_ordered(RevGen *g, Loop *run, LLVMValueRef v, LLVMValueRef (*value)(RevGen *, LLVMValueRef), LLVMValueRef *ok,
                           int depth) {
  Clamp c;
  if (loop_invariant(g, run, v) || LLVMIsAPHINode(v) || depth > MAX_DEPTH) return;
  if (LLVMIsASelectInst(v) && select_clamp(v, &c)) {
    LLVMValueRef in_order = clamp_ordered(g, &c, value);
    if (in_order) *ok = *ok ? LLVMBuildAnd(g->b, *ok, in_order, "") : in_order;
  }
  for (unsigned i = 0, k = (unsigned)LLVMGetNumOperands(v); i < k; i++) clamps_ordered(g, run, LLVMGetOperand(v, i), value, ok, depth + 1);
}

/* p's variables and how it moves in each: the run's iteration first. */
static bool trends(RevGen *g, Loop *run, LLVMValueRef p, LLVMValueRef *vars, Trend *t, unsigned *n) {
  *n = 0;
  if (!find_variables(g, run, p, vars + 1, n, 0)) return false;
  vars[0] = NULL;
  unsigned unknown = 0;
  for (unsigned i = 0; i <= *n; i++) {
    if (!trend(g, run, vars[i], p, 0, 0, &t[i])) return false;
    unknown += t[i].dir == 2;
  }
  ++*n;
  return unknown <= MAX_UNKNOWN;
}

/* Whether v, as the corners rebuild it (loop_rebuild: no promises, a nonnegative widening signed), has
 * at every corner the value its formula gives, wherever the access runs or not: only offsets, sums,
 * differences, products and shifts at least 32 bits wide, and signed widenings, of the run's counters and
 * its short loops', at values the counters take (a border pixel's neighbour one before its row: an
 * address, not a read). */
static bool off_path_defined(RevGen *g, Loop *run, LLVMValueRef v, int depth) {
  if (loop_invariant(g, run, v) || LLVMIsAPHINode(v)) return true; /* a counter: find_variables checks it */
  if (!LLVMIsAInstruction(v) || depth > MAX_DEPTH) return false;
  LLVMTypeRef t = LLVMTypeOf(v);
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMGetElementPtr: break;
  case LLVMZExt:
    if (!LLVMGetNNeg(v)) return false;
    break;
  case LLVMSExt: case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl:
    if (LLVMGetIntTypeWidth(t) < 32) return false;
    break;
  default: return false;
  }
  for (unsigned i = 0, n = (unsigned)LLVMGetNumOperands(v); i < n; i++)
    if (!off_path_defined(g, run, LLVMGetOperand(v, i), depth + 1)) return false;
  return true;
}

Loop *loop_monotone_run(RevGen *g, Loop *l, LLVMValueRef p, LLVMBasicBlockRef bb) {
  while (l && loop_short_constant(g, l)) l = loop_around(g, l);
  LLVMValueRef vars[MAX_VARIABLES + 1];
  Trend t[MAX_VARIABLES + 1];
  unsigned n;
  /* every corner must be a point the access runs at, or one where its address is still its formula's
     value: elsewhere it may be poison, or wrap (an index that clang knew nonnegative under the access's
     condition, widened as such, wrapped at the run's first iteration: a range of 32 GB, taken for another
     object's). The reads of a convolution with its padding skipped (`if (iy < 0) continue`), noted one row
     of taps at a time, made the forward sweep 2.5 primals. */
  if (!l || !l->exit_iv ||
      !(cfg_every_iteration(&g->cfg, l->body, l->header, l->latch, bb) || off_path_defined(g, l, p, 0)))
    return NULL;
  return trends(g, l, p, vars, t, &n) ? l : NULL;
}

/* v with the run's counters at `at`, the inner counters vars[1..n) at value[1..n), built at the builder
 * (each instruction once: memo). */
static LLVMValueRef at_corner(RevGen *g, Loop *run, LLVMValueRef v, LLVMValueRef *at, LLVMValueRef *vars, LLVMValueRef *value,
                              unsigned n, LLVMValueRef (*val)(RevGen *, LLVMValueRef), ValueMap *memo) {
  for (unsigned i = 1; i < n; i++)
    if (vars[i] == v) return value[i];
  int k = loop_iv_index(run, v);
  if (k >= 0) return at[k];
  if (loop_invariant(g, run, v)) return LLVMIsAInstruction(v) || LLVMIsAArgument(v) ? val(g, v) : v;
  LLVMValueRef done = vmap_get(memo, v);
  if (done) return done;
  unsigned k2 = (unsigned)LLVMGetNumOperands(v);
  LLVMValueRef *ops = xcalloc(k2 + 1, sizeof *ops);
  for (unsigned i = 0; i < k2; i++) ops[i] = at_corner(g, run, LLVMGetOperand(v, i), at, vars, value, n, val, memo);
  LLVMValueRef c = loop_rebuild(g, v, ops);
  free(ops);
  vmap_put(memo, v, c);
  return c;
}

void loop_monotone_span(RevGen *g, Loop *run, LLVMValueRef p, unsigned size, LLVMValueRef *first, LLVMValueRef *last,
                        LLVMValueRef (*value)(RevGen *, LLVMValueRef), LLVMValueRef *lo, LLVMValueRef *hi) {
  LLVMValueRef vars[MAX_VARIABLES + 1], ends[MAX_VARIABLES + 1][2], at[MAX_VARIABLES + 1];
  Trend t[MAX_VARIABLES + 1];
  unsigned n;
  if (!trends(g, run, p, vars, t, &n)) { /* loop_monotone_run said yes: never here, but everything if so */
    *lo = LLVMConstInt(g->i64, 0, 0), *hi = LLVMConstAllOnes(g->i64);
    return;
  }
  for (unsigned i = 1; i < n; i++) { /* an inner counter's first and last values */
    Loop *m;
    Induction *iv = inner_iv(g, run, vars[i], &m);
    LLVMValueRef start = LLVMIsAInstruction(iv->start) || LLVMIsAArgument(iv->start) ? value(g, iv->start) : iv->start;
    ends[i][0] = start;
    ends[i][1] = loop_iv_at_last(g, iv, start, loop_trip(g, m, value));
  }
  *lo = *hi = NULL;
  /* the low corner takes each variable's end where the address is least, the high one the other; both
     ends of a variable whose direction is unknown, every combination of them */
  unsigned unknown[MAX_VARIABLES + 1], nu = 0;
  for (unsigned i = 0; i < n; i++)
    if (t[i].dir == 2) unknown[nu++] = i;
  for (int high = 0; high < 2; high++)
    for (unsigned combo = 0; combo < 1u << nu; combo++) {
      int end[MAX_VARIABLES + 1];
      for (unsigned i = 0; i < n; i++) end[i] = t[i].dir == -1 ? !high : t[i].dir == 1 ? high : 0;
      for (unsigned u = 0; u < nu; u++) end[unknown[u]] = (combo >> u) & 1;
      for (unsigned i = 1; i < n; i++) at[i] = ends[i][end[i]];
      ValueMap memo;
      vmap_init(&memo);
      LLVMValueRef a = at_corner(g, run, p, end[0] ? last : first, vars, at, n, value, &memo);
      vmap_free(&memo);
      a = LLVMBuildPtrToInt(g->b, a, g->i64, "");
      LLVMValueRef *acc = high ? hi : lo, args[2] = {*acc, a};
      *acc = *acc ? ir_call_intrinsic(g->b, high ? "llvm.umax" : "llvm.umin", &g->i64, 1, args, 2) : a;
    }
  *hi = LLVMBuildAdd(g->b, *hi, LLVMConstInt(g->i64, size, 0), "");
  LLVMValueRef ok = NULL; /* where a clamp's bounds are out of order, everything */
  clamps_ordered(g, run, p, value, &ok, 0);
  if (!ok) return;
  *lo = LLVMBuildSelect(g->b, ok, *lo, LLVMConstInt(g->i64, 0, 0), "");
  *hi = LLVMBuildSelect(g->b, ok, *hi, LLVMConstAllOnes(g->i64), "");
}
