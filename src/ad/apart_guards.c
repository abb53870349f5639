/* What the branches on the way to an access say about its indices, for the check of ad/apart.c: a padded
 * convolution or a clamped stencil reads `in[iy * W + ix]` only after `if (iy < 0 || iy >= H) continue;`,
 * and the loop counters alone would bound iy from -1 to H, one row before the array and one after, which
 * then overlaps the next object and fails the check. A branch into a block that leads to the access
 * without passing the branch again, and without computing the tested value again, holds at the access:
 * "x + c P b" (c a constant, as the optimiser writes `x - 1 >= 0 && x - 1 < H` as one unsigned test of
 * `x + c`), and either side of an `or` that was false or of an `and` that was true. The tested value's
 * span is narrowed where the access's indices meet it (through a widening or narrowing too); what the
 * narrowing assumes (the sum does not wrap, a narrowed value fits its type) the check requires at run
 * time, like the rest of the check's arithmetic. */
#include <stdlib.h>

#include "ad/apart_bounds.h"

/* Blocks reachable from `from` following edges (forward) or against them, not passing `stop`. */
static bool *reach(const Cfg *cfg, LLVMBasicBlockRef from, bool forward, LLVMBasicBlockRef stop) {
  size_t n = cfg->blocks.len;
  bool *seen = xcalloc(n + 1, 1);
  BlockList work = {0};
  vec_push(&work, from);
  while (work.len) {
    LLVMBasicBlockRef x = work.data[--work.len];
    LLVMValueRef term = LLVMGetBasicBlockTerminator(x);
    const BlockList *preds = &cfg->preds[cfg_index(cfg, x)];
    unsigned m = forward ? (term ? LLVMGetNumSuccessors(term) : 0) : (unsigned)preds->len;
    for (unsigned k = 0; k < m; k++) {
      LLVMBasicBlockRef y = forward ? LLVMGetSuccessor(term, k) : preds->data[k];
      int i = cfg_index(cfg, y);
      if (i < 0 || seen[i] || y == stop) continue;
      seen[i] = true;
      vec_push(&work, y);
    }
  }
  vec_free(&work);
  return seen;
}

/* Whether the value v, as computed before the branch into `into`, is still v's value at `at`: no way
 * from `into` to `at` that avoids `into` goes through v's block again. */
static bool still_held(const Cfg *cfg, LLVMValueRef v, LLVMBasicBlockRef into, LLVMBasicBlockRef at) {
  if (!LLVMIsAInstruction(v)) return true;
  int d = cfg_index(cfg, LLVMGetInstructionParent(v));
  /* defined in the block of the access or of the branch's target: a loop of one block, the test made
     on the iteration before */
  if (d < 0 || d == cfg_index(cfg, at) || d == cfg_index(cfg, into)) return false;
  if (into == at) return true;
  bool *after = reach(cfg, into, true, into), *before = reach(cfg, at, false, into);
  bool again = after[d] && before[d];
  free(after);
  free(before);
  return !again;
}

static void note(Bounds *x, const Cfg *cfg, LLVMValueRef cond, bool holds, LLVMBasicBlockRef into, LLVMBasicBlockRef at, int depth) {
  if (depth > 4 || x->nguards == MAX_GUARDS || !LLVMIsAInstruction(cond)) return;
  LLVMOpcode op = LLVMGetInstructionOpcode(cond);
  /* a || b false: both false; a && b true: both true (also as selects: a ? true : b, a ? b : false) */
  bool is_or = op == LLVMOr, is_and = op == LLVMAnd;
  if (op == LLVMSelect && LLVMIsAConstantInt(LLVMGetOperand(cond, 1)) && LLVMConstIntGetZExtValue(LLVMGetOperand(cond, 1)) == 1)
    is_or = true;
  if (op == LLVMSelect && LLVMIsAConstantInt(LLVMGetOperand(cond, 2)) && LLVMConstIntGetZExtValue(LLVMGetOperand(cond, 2)) == 0)
    is_and = true;
  if ((is_or && !holds) || (is_and && holds)) {
    bool sel = op == LLVMSelect;
    note(x, cfg, LLVMGetOperand(cond, 0), holds, into, at, depth + 1);
    note(x, cfg, LLVMGetOperand(cond, sel ? (is_or ? 2 : 1) : 1), holds, into, at, depth + 1);
    return;
  }
  if (!LLVMIsAICmpInst(cond)) return;
  LLVMIntPredicate p = LLVMGetICmpPredicate(cond);
  LLVMValueRef a = LLVMGetOperand(cond, 0), b = LLVMGetOperand(cond, 1);
  if (LLVMIsAConstantInt(a)) {
    LLVMValueRef t = a;
    a = b, b = t, p = ir_icmp_swapped(p);
  }
  if (!holds) p = ir_icmp_inverse(p);
  long long c = 0;
  if (LLVMIsAInstruction(a) && LLVMGetInstructionOpcode(a) == LLVMAdd && LLVMIsAConstantInt(LLVMGetOperand(a, 1))) {
    c = LLVMConstIntGetSExtValue(LLVMGetOperand(a, 1));
    a = LLVMGetOperand(a, 0);
  }
  if (!ir_is_int(LLVMTypeOf(a))) return; /* pointers compared */
  unsigned w = LLVMGetIntTypeWidth(LLVMTypeOf(a));
  if (LLVMIsAConstantInt(a) || w < 2 || w > 64 || (w == 64 && c != 0) || !still_held(cfg, a, into, at) ||
      !still_held(cfg, b, into, at))
    return;
  x->guards[x->nguards++] = (Guard){.value = a, .plus = c, .p = p, .bound = b, .width = w};
}

void apart_guards_at(Bounds *x, LLVMBasicBlockRef at) {
  x->nguards = 0;
  vmap_free(&x->guarded_lo), vmap_free(&x->guarded_hi);
  vmap_init(&x->guarded_lo), vmap_init(&x->guarded_hi);
  Frame *f = &x->frames[x->nframes - 1];
  const Cfg *cfg = &f->cfg;
  for (int i = cfg_index(cfg, at), steps = 0; i > 0 && steps < 16; i = cfg->idom[i], steps++) {
    LLVMBasicBlockRef into = cfg->blocks.data[i];
    if (cfg->preds[i].len != 1) continue;
    LLVMValueRef br = LLVMGetBasicBlockTerminator(cfg->preds[i].data[0]);
    if (!br || !LLVMIsABranchInst(br) || !LLVMIsConditional(br) || LLVMGetSuccessor(br, 0) == LLVMGetSuccessor(br, 1)) continue;
    note(x, cfg, LLVMGetCondition(br), LLVMGetSuccessor(br, 0) == into, into, at, 0);
  }
}

void apart_guards_clear(Bounds *x) {
  x->nguards = 0;
  vmap_free(&x->guarded_lo), vmap_free(&x->guarded_hi);
  vmap_init(&x->guarded_lo), vmap_init(&x->guarded_hi);
}

/* The value a guard tests, seen through widenings and narrowings: v itself, or the narrowing's width. */
static bool tests(LLVMValueRef tested, LLVMValueRef v, unsigned *narrowed) {
  *narrowed = 0;
  for (int k = 0; k < 4; k++) {
    if (tested == v) return true;
    if (LLVMIsASExtInst(tested)) tested = LLVMGetOperand(tested, 0);
    else if (LLVMIsATruncInst(tested)) *narrowed = LLVMGetIntTypeWidth(LLVMTypeOf(tested)), tested = LLVMGetOperand(tested, 0);
    else return false;
  }
  return false;
}

static void within(Bounds *x, Span s, unsigned w) {
  require(x, LLVMBuildICmp(x->b, LLVMIntSGE, s.lo, k64(x, -(1LL << (w - 1))), ""));
  require(x, LLVMBuildICmp(x->b, LLVMIntSLE, s.hi, k64(x, (1LL << (w - 1)) - 1), ""));
}

void apart_guards_narrow(Bounds *x, LLVMValueRef v, Span *out, int depth) {
  for (unsigned k = 0; k < x->nguards; k++) {
    Guard *g = &x->guards[k];
    unsigned narrowed;
    Span b;
    if (!tests(g->value, v, &narrowed)) continue;
    bool is_signed = g->p == LLVMIntSLT || g->p == LLVMIntSLE || g->p == LLVMIntSGT || g->p == LLVMIntSGE || g->p == LLVMIntEQ;
    bool below = g->p == LLVMIntULT || g->p == LLVMIntULE; /* 0 <= v + c < b, where b is not negative */
    /* v + c >= b (unsigned) for a b negative as a signed number: v + c between b and -1, signed */
    bool above_negative = (g->p == LLVMIntUGE || g->p == LLVMIntUGT) && LLVMIsAConstantInt(g->bound) &&
                          LLVMConstIntGetSExtValue(g->bound) < 0;
    if (!(is_signed || below || above_negative)) continue;
    if (above_negative) {
      b = (Span){k64(x, LLVMConstIntGetSExtValue(g->bound) + (g->p == LLVMIntUGT)), k64(x, -1)};
    } else if (!apart_span(x, g->bound, &b, depth + 1)) {
      continue;
    }
    /* the value the test saw is v (narrowed: v fits) and its sum with c did not wrap */
    if (narrowed) within(x, *out, narrowed);
    Span sum = {LLVMBuildAdd(x->b, out->lo, k64(x, g->plus), ""), LLVMBuildAdd(x->b, out->hi, k64(x, g->plus), "")};
    if (g->width < 64) within(x, sum, g->width);
    LLVMValueRef lo = sum.lo, hi = sum.hi, one = k64(x, 1);
    switch (g->p) {
    case LLVMIntSLT: hi = smin(x, hi, LLVMBuildSub(x->b, b.hi, one, "")); break;
    case LLVMIntSLE: hi = smin(x, hi, b.hi); break;
    case LLVMIntSGT: lo = smax(x, lo, LLVMBuildAdd(x->b, b.lo, one, "")); break;
    case LLVMIntSGE: lo = smax(x, lo, b.lo); break;
    case LLVMIntEQ: lo = smax(x, lo, b.lo), hi = smin(x, hi, b.hi); break;
    case LLVMIntULT:
    case LLVMIntULE:
      require(x, LLVMBuildICmp(x->b, LLVMIntSGE, b.lo, k64(x, 0), ""));
      lo = smax(x, lo, k64(x, 0));
      hi = smin(x, hi, g->p == LLVMIntULT ? LLVMBuildSub(x->b, b.hi, one, "") : b.hi);
      break;
    default: /* above_negative */
      lo = smax(x, lo, b.lo), hi = smin(x, hi, b.hi);
      break;
    }
    LLVMValueRef c = k64(x, g->plus);
    out->lo = LLVMBuildSub(x->b, lo, c, ""), out->hi = LLVMBuildSub(x->b, hi, c, "");
  }
}
