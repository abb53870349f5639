/* The dependence test of dependence.h.
 *
 * Variables are the iteration counts t >= 0 of the loops around each access (the load's and the store's
 * of a loop around both are two variables) and the values computed once per call that addresses and
 * bounds use (symbols). A counted loop's induction variable is start + step * t, its exit test bounds t.
 * An address is root + sum over strides of stride * subscript, a stride a constant or a constant times a
 * symbol (a row length known at run time); where each access's lower subscripts stay within the stride
 * above them, two addresses meet only where every subscript is equal (an array's rows and columns,
 * whatever its shape in memory), a much sharper question than equal byte offsets. */
#include "analysis/dependence.h"

#include <llvm-c/Target.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/cfg.h"
#include "ir/ir.h"

/* MAX_QUESTIONS: a function asks at most so many (of a few microseconds to a millisecond each), so
 * that a function of thousands of loads and stores does not make compilation slow; the rest are "may". */
enum { MAX_VARS = 32, MAX_ROWS = 3000, MAX_LEVELS = 6, MAX_DEPTH = 24, MAX_QUESTIONS = 20000, MAX_CHOICES = 4 };

/* sum a[i] x[i] + b; as a constraint, >= 0 */
typedef struct {
  int64_t a[MAX_VARS];
  int64_t b;
} Lin;

typedef VEC(Lin) LinList;

struct Dependence {
  LLVMValueRef fn;
  LLVMTargetDataRef td;
  Cfg cfg;
  CfgLoopList loops; /* outer loops before inner ones */
  int questions;
};

/* One question: the variables, and which access (side 0 the load, side 1 the store) is being described.
 * A value that is one of two others (a select, a minimum or maximum: a triangular loop's bound
 * `j < (diagonal ? i + 1 : n)`) is a choice: the question is asked once for each way of taking the
 * choices, bit k of `taken` the second operand of the k-th. Whichever operand an instance's value is,
 * that instance satisfies the constraints of the case that takes it, so no case feasible means none. */
typedef struct {
  Dependence *d;
  int nvars;
  struct {
    int side, loop;    /* an iteration count; loop -1: a symbol */
    LLVMValueRef value;
  } var[MAX_VARS];
  LLVMBasicBlockRef at[2];
  int nchoices;
  struct {
    int side;
    LLVMValueRef value;
  } choice[MAX_CHOICES];
  unsigned taken;
} Problem;

/* stride * subscript bytes, the stride times the symbol `sym` when sym >= 0 */
typedef struct {
  int64_t stride;
  int sym;
  Lin sub;
} Level;

typedef struct {
  LLVMValueRef root;
  int n;
  Level level[MAX_LEVELS];
  int64_t bytes; /* constant part */
  int64_t size;  /* bytes accessed */
} Address;

/* ---- arithmetic that refuses to overflow ---- */

static bool mul_ok(int64_t x, int64_t y, int64_t *r) { return !__builtin_mul_overflow(x, y, r); }
static bool add_ok(int64_t x, int64_t y, int64_t *r) { return !__builtin_add_overflow(x, y, r); }

/* out += k * e */
static bool lin_add(Lin *out, const Lin *e, int64_t k) {
  int64_t t;
  for (int i = 0; i < MAX_VARS; i++)
    if (e->a[i] && (!mul_ok(e->a[i], k, &t) || !add_ok(out->a[i], t, &out->a[i]))) return false;
  return mul_ok(e->b, k, &t) && add_ok(out->b, t, &out->b);
}

/* ---- loops ---- */

static bool in_loop(Dependence *d, int l, LLVMBasicBlockRef bb) { return cfg_in_loop(&d->cfg, &d->loops.data[l], bb); }

Dependence *dependence_new(LLVMValueRef fn) {
  Dependence *d = calloc(1, sizeof *d);
  d->fn = fn;
  d->td = LLVMGetModuleDataLayout(LLVMGetGlobalParent(fn));
  cfg_build(fn, &d->cfg);
  cfg_natural_loops(&d->cfg, &d->loops);
  return d;
}

void dependence_free(Dependence *d) {
  if (!d) return;
  for (size_t l = 0; l < d->loops.len; l++) free(d->loops.data[l].body);
  vec_free(&d->loops);
  cfg_free(&d->cfg);
  free(d);
}

/* The innermost loop around bb, or -1. */
static int innermost(Dependence *d, LLVMBasicBlockRef bb) {
  int found = -1;
  for (size_t l = 0; l < d->loops.len; l++)
    if (in_loop(d, (int)l, bb)) found = (int)l;
  return found;
}

/* ---- affine values ---- */

static int var_of(Problem *p, int side, int loop, LLVMValueRef value) {
  for (int i = 0; i < p->nvars; i++)
    if (p->var[i].loop == loop && (loop < 0 ? p->var[i].value == value : p->var[i].side == side)) return i;
  if (p->nvars == MAX_VARS) return -1;
  p->var[p->nvars].side = side;
  p->var[p->nvars].loop = loop;
  p->var[p->nvars].value = value;
  return p->nvars++;
}

static bool affine(Problem *p, int side, LLVMValueRef v, Lin *out, int depth);

/* The two operands v chooses between, if it is a select or an integer minimum or maximum. */
static bool choice_operands(LLVMValueRef v, LLVMValueRef *x, LLVMValueRef *y) {
  if (!LLVMIsAInstruction(v) || !ir_is_int(LLVMTypeOf(v))) return false;
  if (LLVMGetInstructionOpcode(v) == LLVMSelect) {
    *x = LLVMGetOperand(v, 1), *y = LLVMGetOperand(v, 2);
    return true;
  }
  LLVMValueRef callee = LLVMIsACallInst(v) ? LLVMGetCalledValue(v) : NULL;
  if (!callee || !LLVMIsAFunction(callee) || LLVMGetNumArgOperands(v) != 2) return false;
  const char *name = LLVMGetValueName(callee);
  static const char *const minmax[] = {"llvm.umax.", "llvm.umin.", "llvm.smax.", "llvm.smin."};
  for (size_t i = 0; i < sizeof minmax / sizeof *minmax; i++)
    if (!strncmp(name, minmax[i], strlen(minmax[i]))) {
      *x = LLVMGetOperand(v, 0), *y = LLVMGetOperand(v, 1);
      return true;
    }
  return false;
}

/* The operand this case takes for the choice v, or NULL (not a choice, or too many). */
static LLVMValueRef chosen(Problem *p, int side, LLVMValueRef v) {
  LLVMValueRef x, y;
  if (!choice_operands(v, &x, &y)) return NULL;
  int k = 0;
  while (k < p->nchoices && !(p->choice[k].side == side && p->choice[k].value == v)) k++;
  if (k == p->nchoices) {
    if (k == MAX_CHOICES) return NULL;
    p->choice[p->nchoices].side = side;
    p->choice[p->nchoices++].value = v;
  }
  return p->taken >> k & 1 ? y : x;
}

/* x zero-extended, where that is x: a constant, a truncation that kept every bit of a wider value, or a
 * choice between such. */
static bool zext_of(Problem *p, int side, LLVMValueRef x, Lin *out, int depth) {
  if (depth > MAX_DEPTH) return false;
  if (LLVMIsAConstantInt(x))
    return LLVMGetIntTypeWidth(LLVMTypeOf(x)) < 64 && add_ok(out->b, (int64_t)LLVMConstIntGetZExtValue(x), &out->b);
  if (LLVMIsAInstruction(x) && LLVMGetInstructionOpcode(x) == LLVMTrunc && LLVMGetNUW(x))
    return affine(p, side, LLVMGetOperand(x, 0), out, depth + 1);
  LLVMValueRef c = chosen(p, side, x);
  return c && zext_of(p, side, c, out, depth + 1);
}

/* Arithmetic narrower than a pointer must not wrap for its value to be the mathematical one. */
static bool no_wrap(LLVMValueRef inst) {
  LLVMTypeRef t = LLVMTypeOf(inst);
  return LLVMGetIntTypeWidth(t) >= 64 || LLVMGetNSW(inst);
}

/* phi = start + step * t in loop l, whose next value adds a constant step without signed overflow */
static bool induction(Problem *p, int l, LLVMValueRef phi, LLVMValueRef *start, int64_t *step, LLVMValueRef *next) {
  const CfgLoop *e = &p->d->loops.data[l];
  if (!e->latch || !LLVMIsAPHINode(phi) || LLVMGetInstructionParent(phi) != p->d->loops.data[l].header ||
      !ir_is_int(LLVMTypeOf(phi)) || LLVMCountIncoming(phi) != 2)
    return false;
  *start = *next = NULL;
  for (unsigned i = 0; i < 2; i++) {
    if (LLVMGetIncomingBlock(phi, i) == e->preheader) *start = LLVMGetIncomingValue(phi, i);
    if (LLVMGetIncomingBlock(phi, i) == e->latch) *next = LLVMGetIncomingValue(phi, i);
  }
  if (!*start || !*next || !LLVMIsAInstruction(*next) || LLVMGetInstructionOpcode(*next) != LLVMAdd ||
      !LLVMGetNSW(*next))
    return false;
  LLVMValueRef a = LLVMGetOperand(*next, 0), b = LLVMGetOperand(*next, 1);
  LLVMValueRef c = a == phi ? b : b == phi ? a : NULL;
  if (!c || !LLVMIsAConstantInt(c) || !(*step = LLVMConstIntGetSExtValue(c))) return false;
  return true;
}

static bool affine_op(Problem *p, int side, LLVMValueRef v, Lin *out, int depth) {
  Lin x = {0}, y = {0};
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMOr: /* of disjoint bits: a sum that cannot wrap */
    if (!LLVMGetIsDisjoint(v)) return false;
    /* fall through */
  case LLVMAdd:
  case LLVMSub:
    if ((LLVMGetInstructionOpcode(v) != LLVMOr && !no_wrap(v)) || !affine(p, side, LLVMGetOperand(v, 0), &x, depth + 1) ||
        !affine(p, side, LLVMGetOperand(v, 1), &y, depth + 1))
      return false;
    return lin_add(out, &x, 1) && lin_add(out, &y, LLVMGetInstructionOpcode(v) == LLVMSub ? -1 : 1);
  case LLVMMul:
  case LLVMShl: {
    LLVMValueRef k = LLVMGetOperand(v, 1), other = LLVMGetOperand(v, 0);
    if (LLVMGetInstructionOpcode(v) == LLVMMul && LLVMIsAConstantInt(other)) k = other, other = LLVMGetOperand(v, 1);
    if (!no_wrap(v) || !LLVMIsAConstantInt(k) || !affine(p, side, other, &x, depth + 1)) return false;
    int64_t f = LLVMConstIntGetSExtValue(k);
    if (LLVMGetInstructionOpcode(v) == LLVMShl) {
      if (f < 0 || f > 40) return false;
      f = (int64_t)1 << f;
    }
    return lin_add(out, &x, f);
  }
  case LLVMSExt: return affine(p, side, LLVMGetOperand(v, 0), out, depth + 1);
  case LLVMZExt:
    return LLVMGetNNeg(v) ? affine(p, side, LLVMGetOperand(v, 0), out, depth + 1)
                          : zext_of(p, side, LLVMGetOperand(v, 0), out, depth + 1);
  case LLVMTrunc: return LLVMGetNSW(v) && affine(p, side, LLVMGetOperand(v, 0), out, depth + 1);
  default: {
    LLVMValueRef c = chosen(p, side, v);
    return c && affine(p, side, c, out, depth + 1);
  }
  }
}

/* out += v as a linear function of the problem's variables, v as seen by the access of `side`. */
static bool affine(Problem *p, int side, LLVMValueRef v, Lin *out, int depth) {
  if (depth > MAX_DEPTH) return false;
  if (LLVMIsAConstantInt(v)) {
    if (LLVMGetIntTypeWidth(LLVMTypeOf(v)) > 64) return false;
    return add_ok(out->b, LLVMConstIntGetSExtValue(v), &out->b);
  }
  if (LLVMIsAInstruction(v)) {
    Lin e = {0};
    if (affine_op(p, side, v, &e, depth)) return lin_add(out, &e, 1);
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(v);
    int l = innermost(p->d, bb);
    if (l >= 0) {
      /* a value of the current iteration of a loop around the access: only its induction variables */
      LLVMValueRef start, next;
      int64_t step;
      if (!in_loop(p->d, l, p->at[side]) || !induction(p, l, v, &start, &step, &next)) return false;
      int t = var_of(p, side, l, NULL);
      Lin s = {0};
      if (t < 0 || !affine(p, side, start, &s, depth + 1)) return false;
      s.a[t] = step;
      return lin_add(out, &s, 1);
    }
    if (!cfg_runs_once(&p->d->cfg, bb)) return false; /* on an irreducible cycle */
  } else if (!LLVMIsAArgument(v)) {
    return false;
  }
  if (!ir_is_int(LLVMTypeOf(v))) return false;
  int s = var_of(p, side, -1, v); /* computed once per call: the same for both accesses */
  return s >= 0 && add_ok(out->a[s], 1, &out->a[s]);
}

/* The constraints on loop l's iteration count for the access of `side`: t >= 0, and the bound its exit
 * test gives. The latch leaves when an induction variable's value (or next value) equals a limit the
 * same in every iteration; the variable moves by its step without wrapping, so it meets the limit
 * exactly, and every iteration's value lies before it. */
static bool loop_bounds(Problem *p, int side, int l, LinList *rows) {
  int t = var_of(p, side, l, NULL);
  if (t < 0) return false;
  Lin nonneg = {0};
  nonneg.a[t] = 1;
  vec_push(rows, nonneg);
  const CfgLoop *e = &p->d->loops.data[l];
  if (!e->latch) return true;
  LLVMValueRef br = LLVMGetBasicBlockTerminator(e->latch);
  if (!br || !LLVMIsABranchInst(br) || !LLVMIsConditional(br)) return true;
  bool exit_on_true = !in_loop(p->d, l, LLVMGetSuccessor(br, 0));
  if (exit_on_true == !in_loop(p->d, l, LLVMGetSuccessor(br, 1))) return true;
  LLVMValueRef c = LLVMGetCondition(br);
  if (!LLVMIsAICmpInst(c)) return true;
  LLVMIntPredicate pred = LLVMGetICmpPredicate(c);
  if (!((pred == LLVMIntEQ && exit_on_true) || (pred == LLVMIntNE && !exit_on_true))) return true;
  for (LLVMValueRef phi = LLVMGetFirstInstruction(p->d->loops.data[l].header); phi && LLVMIsAPHINode(phi);
       phi = LLVMGetNextInstruction(phi)) {
    LLVMValueRef start, next;
    int64_t step;
    if (!induction(p, l, phi, &start, &step, &next)) continue;
    for (int k = 0; k < 2; k++) {
      LLVMValueRef tested = LLVMGetOperand(c, (unsigned)k), limit = LLVMGetOperand(c, (unsigned)!k);
      if (tested != phi && tested != next) continue;
      Lin x = {0}, lim = {0}, row = {0};
      if (!affine(p, side, phi, &x, 0) || !affine(p, side, limit, &lim, 0) || lim.a[t]) continue;
      if (tested == next && !add_ok(x.b, step, &x.b)) continue;
      /* step > 0: limit - value >= 0; step < 0: value - limit >= 0 */
      if (!lin_add(&row, &lim, step > 0 ? 1 : -1) || !lin_add(&row, &x, step > 0 ? -1 : 1)) continue;
      vec_push(rows, row);
      return true;
    }
  }
  return true;
}

/* ---- addresses ---- */

static bool add_level(Address *a, int64_t stride, int sym, const Lin *sub) {
  int64_t k = 1;
  if (stride < 0) stride = -stride, k = -1;
  for (int i = 0; i < a->n; i++)
    if (a->level[i].stride == stride && a->level[i].sym == sym) return lin_add(&a->level[i].sub, sub, k);
  if (a->n == MAX_LEVELS) return false;
  a->level[a->n].stride = stride;
  a->level[a->n].sym = sym;
  memset(&a->level[a->n].sub, 0, sizeof(Lin));
  return lin_add(&a->level[a->n++].sub, sub, k);
}

/* The symbol e is, or -1. */
static int pure_symbol(Problem *p, const Lin *e) {
  int found = -1;
  for (int i = 0; i < p->nvars; i++) {
    if (!e->a[i]) continue;
    if (found >= 0 || e->a[i] != 1 || p->var[i].loop >= 0) return -1;
    found = i;
  }
  return e->b ? -1 : found;
}

/* index * scale bytes: sums and multiples are taken apart into their strides */
static bool add_index(Problem *p, int side, LLVMValueRef v, int64_t scale, Address *a, int depth) {
  if (depth > MAX_DEPTH) return false;
  if (LLVMIsAConstantInt(v)) {
    int64_t t;
    return LLVMGetIntTypeWidth(LLVMTypeOf(v)) <= 64 && mul_ok(LLVMConstIntGetSExtValue(v), scale, &t) &&
           add_ok(a->bytes, t, &a->bytes);
  }
  LLVMOpcode op = LLVMIsAInstruction(v) ? LLVMGetInstructionOpcode(v) : LLVMRet;
  if (op == LLVMOr && LLVMGetIsDisjoint(v)) op = LLVMAdd; /* cannot wrap */
  if (op == LLVMAdd || op == LLVMSub || op == LLVMMul || op == LLVMShl) {
    LLVMValueRef x = LLVMGetOperand(v, 0), k = LLVMGetOperand(v, 1);
    if (LLVMGetInstructionOpcode(v) != LLVMOr && !no_wrap(v)) return false;
    if (op == LLVMAdd || op == LLVMSub)
      return add_index(p, side, x, scale, a, depth + 1) &&
             add_index(p, side, k, op == LLVMAdd ? scale : -scale, a, depth + 1);
    if (op == LLVMMul && LLVMIsAConstantInt(x)) x = k, k = LLVMGetOperand(v, 0);
    if (LLVMIsAConstantInt(k)) {
      int64_t f = LLVMConstIntGetSExtValue(k), s;
      if (op == LLVMShl) {
        if (f < 0 || f > 40) return false;
        f = (int64_t)1 << f;
      }
      return mul_ok(scale, f, &s) && add_index(p, side, x, s, a, depth + 1);
    }
    if (op == LLVMMul) { /* a subscript times a symbol: a row of a length known at run time */
      Lin lx = {0}, lk = {0};
      if (!affine(p, side, x, &lx, depth + 1) || !affine(p, side, k, &lk, depth + 1)) return false;
      int sym = pure_symbol(p, &lk);
      if (sym < 0 && (sym = pure_symbol(p, &lx)) >= 0) lx = lk;
      return sym >= 0 && add_level(a, scale, sym, &lx);
    }
  }
  if (op == LLVMSExt) return add_index(p, side, LLVMGetOperand(v, 0), scale, a, depth + 1);
  Lin sub = {0};
  return affine(p, side, v, &sub, depth + 1) && add_level(a, scale, -1, &sub);
}

static bool address_of(Problem *p, int side, LLVMValueRef ptr, int64_t size, Address *a) {
  memset(a, 0, sizeof *a);
  a->size = size;
  for (int depth = 0; depth < MAX_DEPTH; depth++) {
    ptr = ir_strip_pointer_casts(ptr);
    if (!LLVMIsAGetElementPtrInst(ptr)) {
      a->root = ptr;
      return true;
    }
    LLVMTypeRef t = LLVMGetGEPSourceElementType(ptr);
    unsigned n = (unsigned)LLVMGetNumOperands(ptr);
    for (unsigned i = 1; i < n; i++) {
      LLVMValueRef idx = LLVMGetOperand(ptr, i);
      if (i > 1) {
        LLVMTypeKind k = LLVMGetTypeKind(t);
        if (k == LLVMStructTypeKind) {
          if (!LLVMIsAConstantInt(idx)) return false;
          unsigned field = (unsigned)LLVMConstIntGetZExtValue(idx);
          if (!add_ok(a->bytes, (int64_t)LLVMOffsetOfElement(p->d->td, t, field), &a->bytes)) return false;
          t = LLVMStructGetTypeAtIndex(t, field);
          continue;
        }
        if (k != LLVMArrayTypeKind) return false;
        t = LLVMGetElementType(t);
      }
      if (!LLVMTypeIsSized(t) || !add_index(p, side, idx, (int64_t)LLVMABISizeOfType(p->d->td, t), a, 0)) return false;
    }
    ptr = LLVMGetOperand(ptr, 0);
  }
  return false;
}

/* symbolic strides first, then the largest */
static int by_stride_down(const void *x, const void *y) {
  const Level *l = x, *m = y;
  if ((l->sym >= 0) != (m->sym >= 0)) return l->sym >= 0 ? -1 : 1;
  return l->stride < m->stride ? 1 : l->stride > m->stride ? -1 : l->sym - m->sym;
}

/* ---- Fourier-Motzkin elimination ---- */

static int64_t gcd64(int64_t a, int64_t b) {
  if (a < 0) a = -a;
  if (b < 0) b = -b;
  while (b) {
    int64_t t = a % b;
    a = b, b = t;
  }
  return a;
}

static int64_t floor_div(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

/* Divides by the coefficients' gcd, rounding the constant down: over the integers, the same set. Returns
 * -1 for a row false everywhere, 1 for one true everywhere, 0 otherwise. */
static int normalise(Lin *r) {
  int64_t g = 0;
  for (int i = 0; i < MAX_VARS; i++) g = gcd64(g, r->a[i]);
  if (!g) return r->b >= 0 ? 1 : -1;
  if (g > 1) {
    for (int i = 0; i < MAX_VARS; i++) r->a[i] /= g;
    r->b = floor_div(r->b, g);
  }
  return 0;
}

/* Has the system of rows (each >= 0) a rational solution? Integer rounding makes the answer sharper, never
 * wrong: false only when no integer point satisfies them. Too large a system: true. */
static bool feasible(const LinList *in, int nvars) {
  LinList rows = {0}, next = {0};
  bool result = true;
  for (size_t i = 0; i < in->len; i++) {
    Lin r = in->data[i];
    int k = normalise(&r);
    if (k < 0) {
      result = false;
      goto done;
    }
    if (k == 0) vec_push(&rows, r);
  }
  for (;;) {
    int best = -1;
    size_t best_cost = 0;
    for (int v = 0; v < nvars; v++) {
      size_t pos = 0, neg = 0;
      for (size_t i = 0; i < rows.len; i++) pos += rows.data[i].a[v] > 0, neg += rows.data[i].a[v] < 0;
      if (!pos && !neg) continue;
      size_t cost = pos * neg;
      if (best < 0 || cost < best_cost) best = v, best_cost = cost;
    }
    if (best < 0) goto done; /* no variable left: every row was true */
    next.len = 0;
    for (size_t i = 0; i < rows.len; i++)
      if (!rows.data[i].a[best]) vec_push(&next, rows.data[i]);
    for (size_t i = 0; i < rows.len; i++) {
      const Lin *up = &rows.data[i];
      if (up->a[best] <= 0) continue;
      for (size_t j = 0; j < rows.len; j++) {
        const Lin *down = &rows.data[j];
        if (down->a[best] >= 0) continue;
        Lin r = {0};
        if (!lin_add(&r, up, -down->a[best]) || !lin_add(&r, down, up->a[best])) goto done; /* overflow */
        int k = normalise(&r);
        if (k < 0) {
          result = false;
          goto done;
        }
        if (k == 0) vec_push(&next, r);
        if (next.len > MAX_ROWS) goto done;
      }
    }
    LinList t = rows;
    rows = next;
    next = t;
  }
done:
  vec_free(&rows);
  vec_free(&next);
  return result;
}

/* ---- the question ---- */

/* Is the system with one more row (value >= 0) feasible. */
static bool feasible_with(const LinList *rows, int nvars, const Lin *extra) {
  LinList all = {0};
  for (size_t i = 0; i < rows->len; i++) vec_push(&all, rows->data[i]);
  vec_push(&all, *extra);
  bool f = feasible(&all, nvars);
  vec_free(&all);
  return f;
}

/* Every level below the first stays within the stride of the level above (at least 0, less than it):
 * then two such addresses are equal only where all their subscripts are. Only the first stride may be
 * symbolic. */
static bool levels_separate(Problem *p, const LinList *bounds, const Address *a) {
  for (int l = 1; l < a->n; l++) {
    if (a->level[l].sym >= 0) return false;
    Lin below = {0};
    for (int k = l; k < a->n; k++)
      if (!lin_add(&below, &a->level[k].sub, a->level[k].stride)) return false;
    Lin under = {0}, over = {0};
    /* below <= -1, below >= stride above */
    if (!lin_add(&under, &below, -1) || !add_ok(under.b, -1, &under.b)) return false;
    const Level *above = &a->level[l - 1];
    if (!lin_add(&over, &below, 1)) return false;
    if (above->sym < 0 ? !add_ok(over.b, -above->stride, &over.b) : !add_ok(over.a[above->sym], -above->stride, &over.a[above->sym]))
      return false;
    if (feasible_with(bounds, p->nvars, &under) || feasible_with(bounds, p->nvars, &over)) return false;
  }
  return true;
}

/* A constant stride of a that the other address lacks, written as a sum of multiples of the other's
 * smaller strides where they make it exactly (a diagonal tile's k * (T + 1) tiles beside tile i * T + k:
 * (T + 1) * tile = T * tile + tile): the same address, over levels the other can be compared with. */
static bool split_strides(Address *a, const Address *other) {
  for (int i = 0; i < a->n; i++) {
    Level l = a->level[i];
    bool shared = false;
    for (int k = 0; k < other->n; k++) shared |= other->level[k].sym == l.sym && other->level[k].stride == l.stride;
    if (shared || l.sym >= 0) continue;
    /* only into strides above a's next one down, or a's levels would run into each other */
    int64_t floor = 0;
    for (int k = 0; k < a->n; k++)
      if (a->level[k].sym < 0 && a->level[k].stride < l.stride && a->level[k].stride > floor) floor = a->level[k].stride;
    int64_t rest = l.stride, parts[MAX_LEVELS][2];
    int n = 0;
    while (rest > 0) {
      int64_t best = 0;
      for (int k = 0; k < other->n; k++)
        if (other->level[k].sym < 0 && other->level[k].stride <= rest && other->level[k].stride > floor &&
            other->level[k].stride > best)
          best = other->level[k].stride;
      if (!best || n == MAX_LEVELS) break;
      parts[n][0] = best, parts[n++][1] = rest / best;
      rest %= best;
    }
    if (rest || n < 1) continue;
    a->level[i] = a->level[--a->n];
    for (int k = 0; k < n; k++) {
      Lin sub = {0};
      if (!lin_add(&sub, &l.sub, parts[k][1]) || !add_level(a, parts[k][0], -1, &sub)) return false;
    }
    i = -1; /* the levels moved: look again */
  }
  return true;
}

/* Both addresses over the same strides (missing ones with subscript 0), the constant moved into the
 * smallest stride when it divides it. */
static bool align_levels(Address *x, Address *y) {
  if (!split_strides(x, y) || !split_strides(y, x)) return false;
  Lin zero = {0};
  for (int i = 0; i < x->n; i++)
    if (!add_level(y, x->level[i].stride, x->level[i].sym, &zero)) return false;
  for (int i = 0; i < y->n; i++)
    if (!add_level(x, y->level[i].stride, y->level[i].sym, &zero)) return false;
  qsort(x->level, (size_t)x->n, sizeof(Level), by_stride_down);
  qsort(y->level, (size_t)y->n, sizeof(Level), by_stride_down);
  Address *both[2] = {x, y};
  for (int k = 0; k < 2; k++) {
    Address *a = both[k];
    if (!a->n) continue;
    Level *low = &a->level[a->n - 1];
    if (low->sym < 0 && a->bytes % low->stride == 0) {
      if (!add_ok(low->sub.b, a->bytes / low->stride, &low->sub.b)) return false;
      a->bytes = 0;
    }
  }
  return true;
}

/* Is S reachable from L without going around the loop `l` (any loop when l < 0). */
static bool later_in_iteration(Dependence *d, int l, LLVMValueRef load, LLVMValueRef store) {
  LLVMBasicBlockRef from = LLVMGetInstructionParent(load), to = LLVMGetInstructionParent(store);
  if (from == to)
    for (LLVMValueRef i = LLVMGetNextInstruction(load); i; i = LLVMGetNextInstruction(i))
      if (i == store) return true;
  if (l < 0) return true; /* the caller asks only about stores that can run after the load */
  size_t n = d->cfg.blocks.len;
  bool *seen = calloc(n + 1, 1);
  BlockList work = {0};
  vec_push(&work, from);
  bool found = false;
  while (work.len && !found) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(work.data[--work.len]);
    for (unsigned s = 0, k = term ? LLVMGetNumSuccessors(term) : 0; s < k; s++) {
      LLVMBasicBlockRef succ = LLVMGetSuccessor(term, s);
      int i = cfg_index(&d->cfg, succ);
      if (i < 0 || seen[i] || succ == d->loops.data[l].header || !d->loops.data[l].body[i]) continue;
      seen[i] = true;
      if (succ == to) found = true;
      vec_push(&work, succ);
    }
  }
  free(seen);
  vec_free(&work);
  return found;
}

static int64_t access_size(Dependence *d, LLVMValueRef inst) {
  LLVMTypeRef t = LLVMIsALoadInst(inst) ? LLVMTypeOf(inst) : LLVMTypeOf(LLVMGetOperand(inst, 0));
  return LLVMTypeIsSized(t) ? (int64_t)LLVMStoreSizeOfType(d->td, t) : -1;
}

/* The question for one way of taking the choices (p->taken). */
static bool may_overwrite_in_case(Problem *pp, LLVMValueRef load, LLVMValueRef store) {
  Problem p = *pp;
  Dependence *d = p.d;
  Address a[2];
  LinList bounds = {0}, rows = {0};
  bool may = true;
  int64_t size[2] = {access_size(d, load), access_size(d, store)};
  if (size[0] <= 0 || size[1] <= 0 || !address_of(&p, 0, LLVMGetOperand(load, 0), size[0], &a[0]) ||
      !address_of(&p, 1, LLVMGetOperand(store, 1), size[1], &a[1]) || a[0].root != a[1].root)
    goto done;
  /* the loops around each access, and those around both (outermost first) */
  int common[MAX_VARS], ncommon = 0;
  for (size_t l = 0; l < d->loops.len; l++) {
    bool around[2] = {in_loop(d, (int)l, p.at[0]), in_loop(d, (int)l, p.at[1])};
    for (int s = 0; s < 2; s++)
      if (around[s] && !loop_bounds(&p, s, (int)l, &bounds)) goto done;
    if (around[0] && around[1]) {
      if (ncommon == MAX_VARS) goto done;
      common[ncommon++] = (int)l;
    }
  }
  if (!align_levels(&a[0], &a[1])) goto done;
  /* where they meet: every subscript equal, or, failing that, overlapping bytes */
  Lin meet[MAX_LEVELS + 1][2];
  int nmeet = 0;
  bool by_level = a[0].n > 0 && a[0].level[a[0].n - 1].sym < 0 && !a[0].bytes && !a[1].bytes && size[0] <= a[0].level[a[0].n - 1].stride &&
                  size[1] <= a[0].level[a[0].n - 1].stride && levels_separate(&p, &bounds, &a[0]) &&
                  levels_separate(&p, &bounds, &a[1]);
  if (by_level) {
    for (int l = 0; l < a[0].n; l++, nmeet++) {
      memset(meet[nmeet], 0, sizeof meet[nmeet]);
      if (!lin_add(&meet[nmeet][0], &a[0].level[l].sub, 1) || !lin_add(&meet[nmeet][0], &a[1].level[l].sub, -1) ||
          !lin_add(&meet[nmeet][1], &meet[nmeet][0], -1))
        goto done;
    }
  } else {
    /* load at x, store at y: y < x + size0 and x < y + size1 */
    Lin x = {0}, y = {0};
    for (int s = 0; s < 2; s++) {
      Lin *e = s ? &y : &x;
      e->b = a[s].bytes;
      for (int l = 0; l < a[s].n; l++)
        if (a[s].level[l].sym >= 0 || !lin_add(e, &a[s].level[l].sub, a[s].level[l].stride)) goto done;
    }
    memset(meet[0], 0, sizeof meet[0]);
    if (!lin_add(&meet[0][0], &x, 1) || !lin_add(&meet[0][0], &y, -1) || !add_ok(meet[0][0].b, size[0] - 1, &meet[0][0].b) ||
        !lin_add(&meet[0][1], &y, 1) || !lin_add(&meet[0][1], &x, -1) || !add_ok(meet[0][1].b, size[1] - 1, &meet[0][1].b))
      goto done;
    nmeet = 1;
  }
  /* the store's instance runs after the load's: at the first loop around both where their iteration counts
     differ, the store's is the larger; or they agree everywhere and the store follows in the iteration */
  for (int depth = 0; depth <= ncommon; depth++) {
    if (depth == ncommon && !later_in_iteration(d, ncommon ? common[ncommon - 1] : -1, load, store)) continue;
    rows.len = 0;
    for (size_t i = 0; i < bounds.len; i++) vec_push(&rows, bounds.data[i]);
    for (int m = 0; m < nmeet; m++) {
      vec_push(&rows, meet[m][0]);
      vec_push(&rows, meet[m][1]);
    }
    for (int k = 0; k <= depth && k < ncommon; k++) {
      int t0 = var_of(&p, 0, common[k], NULL), t1 = var_of(&p, 1, common[k], NULL);
      if (t0 < 0 || t1 < 0) goto done;
      Lin order = {0};
      order.a[t1] = 1, order.a[t0] = -1; /* t1 - t0 >= 0, and <= 0 or >= 1 */
      if (k == depth) order.b = -1;
      vec_push(&rows, order);
      if (k < depth) {
        Lin back = {0};
        back.a[t1] = -1, back.a[t0] = 1;
        vec_push(&rows, back);
      }
    }
    if (feasible(&rows, p.nvars)) goto done;
  }
  may = false;
done:
  vec_free(&bounds);
  vec_free(&rows);
  pp->nchoices = p.nchoices, memcpy(pp->choice, p.choice, sizeof p.choice);
  return may;
}

bool dependence_may_overwrite(Dependence *d, LLVMValueRef load, LLVMValueRef store) {
  if (!d || !LLVMIsALoadInst(load) || !LLVMIsAStoreInst(store)) return true;
  Problem p = {.d = d, .at = {LLVMGetInstructionParent(load), LLVMGetInstructionParent(store)}};
  /* the choices met so far set how many cases there are; one met later is taken first-operand in the
     cases before it, and both ways in those after */
  for (p.taken = 0; p.taken < 1u << p.nchoices; p.taken++)
    if (d->questions++ >= MAX_QUESTIONS || may_overwrite_in_case(&p, load, store)) return true;
  if (getenv("PARAD_PLAN"))
    fprintf(stderr, "dependence in %s: a store never overwrites what a load read\n", LLVMGetValueName(d->fn));
  return false;
}
