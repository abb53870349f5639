/* Spans of the integer values of a function apart.c checks, and of the regions it forks: the values
 * each may take, as 64-bit signed bounds computed in the check from the request's arguments (interval
 * arithmetic). An index is arithmetic on arguments, constants, loop counters and variables held in
 * memory; a counter lies between its loop's start and the last value its exit test lets through, both
 * bounded under the loop's guard; a thread's share of a worksharing loop lies between the loop's bounds.
 * Over-approximation only costs the choice; what the arithmetic assumes (no wrap, operands not negative)
 * the check requires at run time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ad/apart_bounds.h"
#include "omp/omp.h"

bool apart_push_frame(Bounds *x, LLVMValueRef fn, LLVMValueRef fork) {
  if (x->nframes == MAX_FRAMES) return false;
  Frame *f = &x->frames[x->nframes++];
  *f = (Frame){.fn = fn, .fork = fork};
  cfg_build(fn, &f->cfg);
  cfg_natural_loops(&f->cfg, &f->loops);
  vmap_init(&f->lo), vmap_init(&f->hi);
  return true;
}

void apart_pop_frame(Bounds *x) {
  Frame *f = &x->frames[--x->nframes];
  for (size_t i = 0; i < f->loops.len; i++) free(f->loops.data[i].body);
  vec_free(&f->loops);
  cfg_free(&f->cfg);
  vmap_free(&f->lo), vmap_free(&f->hi);
}

Frame *apart_frame_of(Bounds *x, LLVMValueRef v) {
  LLVMValueRef fn = LLVMIsAArgument(v) ? LLVMGetParamParent(v)
                    : LLVMIsAInstruction(v) ? LLVMGetBasicBlockParent(LLVMGetInstructionParent(v)) : NULL;
  for (unsigned k = x->nframes; fn && k-- > 0;)
    if (x->frames[k].fn == fn) return &x->frames[k];
  return NULL;
}

unsigned apart_param_index(LLVMValueRef arg) {
  unsigned p = 0;
  for (LLVMValueRef q = LLVMGetFirstParam(LLVMGetParamParent(arg)); q != arg; q = LLVMGetNextParam(q)) p++;
  return p;
}

LLVMValueRef apart_fork_operand(Bounds *x, LLVMValueRef arg) {
  Frame *f = apart_frame_of(x, arg);
  unsigned p = apart_param_index(arg);
  if (!f || !f->fork || p < OMP_OUTLINED_FIRST_PARAM) return NULL;
  unsigned k = p - OMP_OUTLINED_FIRST_PARAM + OMP_FORK_FIRST_ARG;
  return k < ir_num_call_args(f->fork) ? LLVMGetArgOperand(f->fork, k) : NULL;
}

CfgLoop *apart_loop_at(Frame *f, LLVMBasicBlockRef header) {
  for (size_t i = 0; f && i < f->loops.len; i++)
    if (f->loops.data[i].header == header) return &f->loops.data[i];
  return NULL;
}

LLVMValueRef apart_exit_test(Frame *f, CfgLoop *l, LLVMIntPredicate *going_on) {
  LLVMValueRef br = LLVMGetBasicBlockTerminator(l->latch), cmp;
  if (!br || !LLVMIsABranchInst(br) || !LLVMIsConditional(br) || !LLVMIsAICmpInst(cmp = LLVMGetCondition(br))) return NULL;
  bool in0 = cfg_in_loop(&f->cfg, l, LLVMGetSuccessor(br, 0)), in1 = cfg_in_loop(&f->cfg, l, LLVMGetSuccessor(br, 1));
  if (in0 == in1) return NULL; /* not the loop's exit */
  *going_on = in0 ? LLVMGetICmpPredicate(cmp) : ir_icmp_inverse(LLVMGetICmpPredicate(cmp));
  return cmp;
}

/* Whether a and b are one value, sign-extended or not. */
static bool same_value(LLVMValueRef a, LLVMValueRef b) {
  if (LLVMIsASExtInst(a)) a = LLVMGetOperand(a, 0);
  if (LLVMIsASExtInst(b)) b = LLVMGetOperand(b, 0);
  return a == b;
}

/* Another counter of loop l with the same step, which v is (or its next value): two counters that move
 * together (clang's k and k + 1), the loop's test on the other one. Its start in *start. */
static LLVMValueRef sibling(Bounds *x, Frame *f, CfgLoop *l, LLVMValueRef v, LLVMValueRef step, Span *start, LLVMValueRef *start_value) {
  for (LLVMValueRef q = LLVMGetFirstInstruction(l->header); q && LLVMIsAPHINode(q); q = LLVMGetNextInstruction(q)) {
    LLVMValueRef init, st, next;
    LLVMValueRef w = LLVMIsATruncInst(v) ? LLVMGetOperand(v, 0) : v; /* a wider sibling tested narrowed */
    if (cfg_induction(&f->cfg, l->body, q, l->preheader, l->latch, &init, &st, &next) && (w == q || w == next) &&
        LLVMConstIntGetSExtValue(st) == LLVMConstIntGetSExtValue(step) && apart_span(x, init, start, 0)) {
      *start_value = init;
      return q;
    }
  }
  return NULL;
}

/* The comparison "a P b" that holds whenever loop l is entered: the branch into its preheader (or, where
 * the preheader branches itself, into its header), the loop's guard. */
static bool guard(Frame *f, CfgLoop *l, LLVMValueRef *a, LLVMValueRef *b, LLVMIntPredicate *p) {
  LLVMBasicBlockRef from = l->preheader, to = l->header;
  LLVMValueRef br = LLVMGetBasicBlockTerminator(from);
  if (!br || !LLVMIsABranchInst(br)) return false;
  if (!LLVMIsConditional(br)) {
    int k = cfg_index(&f->cfg, from);
    if (k < 0 || f->cfg.preds[k].len != 1) return false;
    to = from, from = f->cfg.preds[k].data[0], br = LLVMGetBasicBlockTerminator(from);
  }
  if (!br || !LLVMIsABranchInst(br) || !LLVMIsConditional(br) || !LLVMIsAICmpInst(LLVMGetCondition(br))) return false;
  LLVMValueRef c = LLVMGetCondition(br);
  if ((LLVMGetSuccessor(br, 0) == to) == (LLVMGetSuccessor(br, 1) == to)) return false;
  *p = LLVMGetICmpPredicate(c);
  if (LLVMGetSuccessor(br, 0) != to) *p = ir_icmp_inverse(*p);
  *a = LLVMGetOperand(c, 0), *b = LLVMGetOperand(c, 1);
  if (LLVMIsAConstantInt(*a)) { /* the side to bound is the one that varies */
    LLVMValueRef t = *a;
    *a = *b, *b = t, *p = ir_icmp_swapped(*p);
  }
  return !LLVMIsAConstantInt(*a);
}

/* Under a guard "a P b" that orders a and b, a difference v = (b + c) - a of them is at least c (c + 1
 * where the order is strict): the trip count ub + 1 - lb of a thread's share of a loop, its guard
 * lb <= ub. That least value in *least; false where v is no such difference. */
static bool guard_difference(LLVMValueRef v, LLVMValueRef a, LLVMValueRef b, LLVMIntPredicate p, long long *least) {
  bool below = p == LLVMIntSLT || p == LLVMIntSLE || p == LLVMIntULT || p == LLVMIntULE;
  bool strict = p == LLVMIntSLT || p == LLVMIntULT || p == LLVMIntSGT || p == LLVMIntUGT;
  if (!below && p != LLVMIntSGT && p != LLVMIntSGE && p != LLVMIntUGT && p != LLVMIntUGE) return false;
  LLVMValueRef low = below ? a : b, high = below ? b : a;
  if (!LLVMIsAInstruction(v) || LLVMGetInstructionOpcode(v) != LLVMSub || LLVMGetOperand(v, 1) != low) return false;
  LLVMValueRef u = LLVMGetOperand(v, 0);
  long long c = 0;
  if (u != high) {
    if (!LLVMIsAInstruction(u) || LLVMGetInstructionOpcode(u) != LLVMAdd || LLVMGetOperand(u, 0) != high ||
        !LLVMIsAConstantInt(LLVMGetOperand(u, 1)))
      return false;
    c = LLVMConstIntGetSExtValue(LLVMGetOperand(u, 1));
  }
  *least = c + strict;
  return true;
}

/* An unsigned comparison as the signed one, for values known not negative. */
static LLVMIntPredicate as_signed(LLVMIntPredicate p) {
  switch (p) {
  case LLVMIntULT: return LLVMIntSLT;
  case LLVMIntULE: return LLVMIntSLE;
  case LLVMIntUGT: return LLVMIntSGT;
  case LLVMIntUGE: return LLVMIntSGE;
  default: return p;
  }
}

/* s narrowed to the values v with `v p w` for some w of b (signed comparisons; != against one value moves
 * an end equal to it in by one); false for other predicates, s as it was. */
static bool narrow_by(Bounds *x, Span *s, LLVMIntPredicate p, Span b) {
  LLVMValueRef one = k64(x, 1);
  switch (p) {
  case LLVMIntSLT: s->hi = smin(x, s->hi, LLVMBuildSub(x->b, b.hi, one, "")); return true;
  case LLVMIntSLE: s->hi = smin(x, s->hi, b.hi); return true;
  case LLVMIntSGT: s->lo = smax(x, s->lo, LLVMBuildAdd(x->b, b.lo, one, "")); return true;
  case LLVMIntSGE: s->lo = smax(x, s->lo, b.lo); return true;
  case LLVMIntEQ: *s = (Span){smax(x, s->lo, b.lo), smin(x, s->hi, b.hi)}; return true;
  case LLVMIntNE: {
    LLVMValueRef single = LLVMBuildICmp(x->b, LLVMIntEQ, b.lo, b.hi, "");
    LLVMValueRef at_lo = LLVMBuildAnd(x->b, single, LLVMBuildICmp(x->b, LLVMIntEQ, s->lo, b.lo, ""), "");
    LLVMValueRef at_hi = LLVMBuildAnd(x->b, single, LLVMBuildICmp(x->b, LLVMIntEQ, s->hi, b.lo, ""), "");
    s->lo = LLVMBuildSelect(x->b, at_lo, LLVMBuildAdd(x->b, s->lo, one, ""), s->lo, "");
    s->hi = LLVMBuildSelect(x->b, at_hi, LLVMBuildSub(x->b, s->hi, one, ""), s->hi, "");
    return true;
  }
  default: return false;
  }
}

/* The span of v (a loop's start or limit) over the times loop l is entered: where its guard compares a
 * value v is made of with a bound, that value bounded by it (a triangle's inner loop from k + 1, entered
 * while k + 1 < n: its start stays below n; one up to j, entered where j != 0: its limit is at least 1). */
static bool span_entered(Bounds *x, Frame *f, CfgLoop *l, LLVMValueRef v, Span *out, int depth) {
  LLVMValueRef a, b;
  LLVMIntPredicate p;
  Span sa, sb;
  bool is_unsigned = false;
  if (x->fixed || !guard(f, l, &a, &b, &p) ||
      ((is_unsigned = p == LLVMIntULT || p == LLVMIntULE || p == LLVMIntUGT || p == LLVMIntUGE) && LLVMIsAConstantInt(b) &&
       LLVMConstIntGetSExtValue(b) < 0) || /* a range test (x - lo <u n, or its negation): no order of signed values */
      !apart_span(x, a, &sa, depth + 1) || !apart_span(x, b, &sb, depth + 1))
    return apart_span(x, v, out, depth);
  if (is_unsigned) { /* as signed, where not negative */
    require(x, LLVMBuildICmp(x->b, LLVMIntSGE, sa.lo, k64(x, 0), ""));
    require(x, LLVMBuildICmp(x->b, LLVMIntSGE, sb.lo, k64(x, 0), ""));
  }
  if (p == LLVMIntEQ || !narrow_by(x, &sa, as_signed(p), sb)) return apart_span(x, v, out, depth);
  x->fixed = a, x->fixed_span = sa;
  /* a difference the guard keeps positive, or its extension (a trip count widened) */
  LLVMValueRef inner = LLVMIsASExtInst(v) || LLVMIsAZExtInst(v) ? LLVMGetOperand(v, 0) : v;
  long long least;
  bool ok, difference = guard_difference(inner, a, b, p, &least);
  if (difference && inner != v) {
    ok = apart_span(x, inner, out, depth + 1);
    if (ok) out->lo = smax(x, out->lo, k64(x, least));
    if (ok && LLVMIsAZExtInst(v)) require(x, LLVMBuildICmp(x->b, LLVMIntSGE, out->lo, k64(x, 0), ""));
  } else {
    ok = apart_span(x, v, out, depth);
    if (ok && difference) out->lo = smax(x, out->lo, k64(x, least));
  }
  x->fixed = NULL;
  return ok;
}

/* ---- values held in memory: a region's captured variables, a thread's share of a loop ---- */

/* Whether a region's parameter is an address the region only reads through and keeps nowhere. */
static bool reads_through(LLVMValueRef param) {
  LLVMValueRef fn = LLVMGetParamParent(param);
  unsigned k = apart_param_index(param) + 1;
  return (LLVMGetEnumAttributeAtIndex(fn, k, ir_attr_kind("readonly")) || LLVMGetEnumAttributeAtIndex(fn, k, ir_attr_kind("readnone"))) &&
         LLVMGetEnumAttributeAtIndex(fn, k, ir_attr_kind("nocapture"));
}

/* Whether each region `fork` passes slot to only reads through it. */
static bool forked_to_readers(LLVMValueRef fork, LLVMValueRef slot) {
  LLVMValueRef outlined = omp_fork_outlined(fork);
  if (!outlined) return false;
  for (unsigned k = OMP_FORK_FIRST_ARG, n = ir_num_call_args(fork); k < n; k++) {
    unsigned p = k - OMP_FORK_FIRST_ARG + OMP_OUTLINED_FIRST_PARAM;
    if (LLVMGetArgOperand(fork, k) == slot && (p >= LLVMCountParams(outlined) || !reads_through(LLVMGetParam(outlined, p))))
      return false;
  }
  return true;
}

bool apart_is_fork(LLVMValueRef v) { return ir_is_call(v) && omp_is_runtime_call(v) && omp_classify(v) == OMP_FORK; }


static bool add_unique(LLVMValueRef *list, unsigned *n, unsigned max, LLVMValueRef v) {
  for (unsigned k = 0; k < *n; k++)
    if (list[k] == v) return true;
  if (*n == max) return false;
  list[(*n)++] = v;
  return true;
}

/* The group of locals slot belongs to and the values they hold; false where it is not such a group. */
bool apart_held_group(LLVMValueRef slot, Held *h) {
  *h = (Held){.nslots = 0};
  if (!LLVMIsAAllocaInst(slot)) return false;
  h->slot[h->nslots++] = slot;
  for (unsigned s = 0; s < h->nslots; s++)
    for (LLVMUseRef u = LLVMGetFirstUse(h->slot[s]); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u), v;
      if (LLVMIsALoadInst(user) || ir_is_lifetime_marker(user)) continue;
      if (apart_is_fork(user) && forked_to_readers(user, h->slot[s])) continue;
      if (!LLVMIsAStoreInst(user) || (v = LLVMGetOperand(user, 0)) == h->slot[s] || LLVMGetVolatile(user) ||
          !add_unique(h->store, &h->nstores, MAX_HELD, user))
        return false;
      bool moved = LLVMIsALoadInst(v) && LLVMIsAAllocaInst(LLVMGetOperand(v, 0));
      if (!(moved ? add_unique(h->slot, &h->nslots, MAX_SLOTS, LLVMGetOperand(v, 0)) : add_unique(h->value, &h->nvalues, MAX_HELD, v)))
        return false;
    }
  return h->nvalues > 0;
}

/* The values a read at `at` (a load, or a fork whose region loads) from address p may get, where p is
 * such a local, or a region's parameter given one. A local stored once must be stored before the read. */
bool apart_held_values(Bounds *x, LLVMValueRef p, LLVMValueRef at, Held *h) {
  while (LLVMIsAArgument(p)) {
    LLVMValueRef q = apart_fork_operand(x, p);
    if (!q || !reads_through(p)) return false;
    at = apart_frame_of(x, p)->fork, p = q;
  }
  if (!apart_held_group(p, h)) return false;
  Frame *f = apart_frame_of(x, h->store[0]);
  if (!f || apart_frame_of(x, at) != f) return false;
  if (h->nstores > 1) return true;
  LLVMBasicBlockRef in = LLVMGetInstructionParent(h->store[0]);
  if (in != LLVMGetInstructionParent(at)) return cfg_dominates(&f->cfg, in, LLVMGetInstructionParent(at));
  for (LLVMValueRef i = LLVMGetNextInstruction(h->store[0]); i; i = LLVMGetNextInstruction(i))
    if (i == at) return true;
  return false;
}

/* A thread's lower bound lb, loaded, as the loop of its share uses it: clang tests it against the upper
 * bound and enters the loop where it is below, and uses it nowhere else (where the thread runs no
 * iterations, lb is past the upper bound, anywhere). Its bound there in *below. */
static bool entered_below(Bounds *x, LLVMValueRef lb, LLVMValueRef *below, bool *strict, bool *unsigned_test) {
  Frame *f = apart_frame_of(x, lb);
  LLVMValueRef test = NULL, br = NULL;
  for (LLVMUseRef u = LLVMGetFirstUse(lb); u && !br; u = LLVMGetNextUse(u)) {
    test = LLVMGetUser(u);
    for (LLVMUseRef v = LLVMIsAICmpInst(test) ? LLVMGetFirstUse(test) : NULL; v; v = LLVMGetNextUse(v))
      if (LLVMIsABranchInst(LLVMGetUser(v)) && LLVMIsConditional(LLVMGetUser(v))) br = LLVMGetUser(v);
  }
  if (!f || !br) return false;
  LLVMIntPredicate p = LLVMGetICmpPredicate(test);
  if (LLVMGetOperand(test, 0) != lb) p = ir_icmp_swapped(p);
  *below = LLVMGetOperand(test, LLVMGetOperand(test, 0) == lb);
  unsigned enter;
  switch (p) {
  case LLVMIntSLT: case LLVMIntULT: enter = 0, *strict = true; break;
  case LLVMIntSLE: case LLVMIntULE: enter = 0, *strict = false; break;
  case LLVMIntSGT: case LLVMIntUGT: enter = 1, *strict = false; break; /* not above: at most */
  case LLVMIntSGE: case LLVMIntUGE: enter = 1, *strict = true; break;
  default: return false;
  }
  *unsigned_test = p == LLVMIntULT || p == LLVMIntULE || p == LLVMIntUGT || p == LLVMIntUGE;
  LLVMBasicBlockRef into = LLVMGetSuccessor(br, enter);
  int k = cfg_index(&f->cfg, into);
  if (k < 0 || f->cfg.preds[k].len != 1 || LLVMGetSuccessor(br, !enter) == into) return false;
  for (LLVMUseRef u = LLVMGetFirstUse(lb); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (user == test) continue;
    LLVMBasicBlockRef at = LLVMGetInstructionParent(user);
    if (LLVMIsAPHINode(user))
      for (unsigned i = 0, n = LLVMCountIncoming(user); i < n; i++)
        if (LLVMGetIncomingValue(user, i) == lb && !cfg_dominates(&f->cfg, into, LLVMGetIncomingBlock(user, i))) return false;
    if (!LLVMIsAPHINode(user) && !cfg_dominates(&f->cfg, into, at)) return false;
  }
  return true;
}

/* The span of the value the last store into slot before `at`, in its block, stored. */
static bool stored_before(Bounds *x, LLVMValueRef at, LLVMValueRef slot, Span *out, int depth) {
  for (LLVMValueRef i = LLVMGetPreviousInstruction(at); i; i = LLVMGetPreviousInstruction(i))
    if (LLVMIsAStoreInst(i) && LLVMGetOperand(i, 1) == slot) return apart_span(x, LLVMGetOperand(i, 0), out, depth + 1);
  return false;
}

/* Whether narrow arithmetic keeps its value in 64 bits. */
static bool exact(LLVMValueRef v) { return LLVMGetIntTypeWidth(LLVMTypeOf(v)) >= 64 || LLVMGetNSW(v); }

/* Narrow arithmetic that may wrap (no nsw, as the optimiser leaves some address arithmetic of `int`
 * indices) is exact where its operands and its result lie in its signed range: the check requires
 * that, for widths up to 32 (whose products cannot wrap in 64 bits). */
static void require_within(Bounds *x, Span s, unsigned width) {
  if (width >= 64) return;
  require(x, LLVMBuildICmp(x->b, LLVMIntSGE, s.lo, k64(x, -(long long)(1ULL << (width - 1))), ""));
  require(x, LLVMBuildICmp(x->b, LLVMIntSLE, s.hi, k64(x, (long long)((1ULL << (width - 1)) - 1)), ""));
}

static bool exact_within(Bounds *x, LLVMValueRef v, Span *operands, unsigned n, Span result) {
  unsigned w = LLVMGetIntTypeWidth(LLVMTypeOf(v));
  if (exact(v)) return true;
  if (w > 32) return false;
  for (unsigned k = 0; k < n; k++) require_within(x, operands[k], w);
  require_within(x, result, w);
  return true;
}

/* Unsigned bounds read as signed: where the signed reading of both is not negative. */
static void bounds_read_signed(Bounds *x, Span lo, Span hi, unsigned width) {
  require(x, LLVMBuildICmp(x->b, LLVMIntSGE, lo.lo, k64(x, 0), ""));
  require_within(x, hi, width);
}

/* Whether every path into block `in` comes from a __kmpc_dispatch_next that wrote slot and returned
 * nonzero, through blocks that do not write slot. */
static bool after_chunk(Frame *f, LLVMBasicBlockRef in, LLVMValueRef slot, int depth) {
  int k = cfg_index(&f->cfg, in);
  if (k < 0 || !f->cfg.preds[k].len || depth > 4) return false;
  for (size_t p = 0; p < f->cfg.preds[k].len; p++) {
    LLVMBasicBlockRef from = f->cfg.preds[k].data[p];
    LLVMValueRef br = LLVMGetBasicBlockTerminator(from), test, next, zero, lower, upper;
    if (!br || !LLVMIsABranchInst(br)) return false;
    if (!LLVMIsConditional(br)) {
      for (LLVMValueRef i = LLVMGetFirstInstruction(from); i; i = LLVMGetNextInstruction(i))
        if ((LLVMIsAStoreInst(i) && LLVMGetOperand(i, 1) == slot) || ir_is_call(i)) return false;
      if (!after_chunk(f, from, slot, depth + 1)) return false;
      continue;
    }
    if (!LLVMIsAICmpInst(test = LLVMGetCondition(br)) || LLVMGetSuccessor(br, 0) == LLVMGetSuccessor(br, 1)) return false;
    LLVMIntPredicate pr = LLVMGetICmpPredicate(test);
    next = LLVMGetOperand(test, 0), zero = LLVMGetOperand(test, 1);
    if (LLVMIsAConstantInt(next)) zero = next, next = LLVMGetOperand(test, 1);
    if (!LLVMIsAConstantInt(zero) || LLVMConstIntGetZExtValue(zero) != 0 || !ir_is_call(next) ||
        !omp_dispatch_chunk(next, &lower, &upper) || (slot != lower && slot != upper) ||
        !((pr == LLVMIntNE && LLVMGetSuccessor(br, 0) == in) || (pr == LLVMIntEQ && LLVMGetSuccessor(br, 1) == in)))
      return false;
    for (LLVMValueRef i = LLVMGetNextInstruction(next); i && i != br; i = LLVMGetNextInstruction(i))
      if ((LLVMIsAStoreInst(i) && LLVMGetOperand(i, 1) == slot) || (ir_is_call(i) && i != next)) return false;
  }
  return true;
}

/* A chunk's bound read where a dynamic schedule's __kmpc_dispatch_next returned nonzero (after_chunk):
 * between the bounds of the function's one dispatch init. */
static bool chunk_bound(Bounds *x, LLVMValueRef load, LLVMValueRef slot, Span *out, int depth) {
  Frame *f = apart_frame_of(x, load);
  LLVMValueRef init = NULL, lower, upper;
  if (!f || !after_chunk(f, LLVMGetInstructionParent(load), slot, 0)) return false;
  for (size_t b = 0; b < f->cfg.blocks.len; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(f->cfg.blocks.data[b]); i; i = LLVMGetNextInstruction(i))
      if (ir_is_call(i) && !strncmp(ir_called_name(i), "__kmpc_dispatch_init_", 21)) {
        if (init) return false; /* one loop's, not two */
        init = i;
      }
  Span lo, hi;
  bool is_unsigned;
  if (!init || !omp_dispatch_bounds(init, &lower, &upper, &is_unsigned) || !apart_span(x, lower, &lo, depth + 1) ||
      !apart_span(x, upper, &hi, depth + 1))
    return false;
  *out = (Span){lo.lo, hi.hi};
  if (is_unsigned) bounds_read_signed(x, lo, hi, LLVMGetIntTypeWidth(LLVMTypeOf(load)));
  return true;
}

/* A bound of a worksharing loop the runtime wrote for the thread: read back after a static schedule's
 * init (omp_static_share), between the lower and upper bounds stored before it; or a dynamic schedule's
 * chunk (chunk_bound). A static lower bound passes the upper where the thread runs no iterations: it
 * must be used only where the loop's entry test holds (entered_below). */
static bool share_bound(Bounds *x, LLVMValueRef load, Span *out, int depth) {
  LLVMValueRef slot = LLVMGetOperand(load, 0), lower, upper;
  bool is_unsigned;
  if (!LLVMIsAAllocaInst(slot)) return false;
  for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) { /* nothing else can write it */
    LLVMValueRef user = LLVMGetUser(u);
    bool init = ir_is_call(user) && (omp_static_share(user, &lower, &upper, &is_unsigned) || omp_dispatch_chunk(user, &lower, &upper)) &&
                (lower == slot || upper == slot);
    if (!(LLVMIsALoadInst(user) || (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 0) != slot) || init ||
          ir_is_lifetime_marker(user)))
      return false;
  }
  for (LLVMValueRef i = LLVMGetPreviousInstruction(load); i; i = LLVMGetPreviousInstruction(i)) {
    if (LLVMIsAStoreInst(i) && LLVMGetOperand(i, 1) == slot) return apart_span(x, LLVMGetOperand(i, 0), out, depth + 1);
    if (ir_is_call(i) && omp_dispatch_chunk(i, &lower, &upper) && (lower == slot || upper == slot)) return false;
    if (ir_is_call(i) && omp_static_share(i, &lower, &upper, &is_unsigned) && (lower == slot || upper == slot)) {
      Span lo, hi, b;
      LLVMValueRef below;
      bool strict, unsigned_test;
      if (!stored_before(x, i, lower, &lo, depth) || !stored_before(x, i, upper, &hi, depth)) return false;
      *out = (Span){lo.lo, hi.hi};
      if (slot == lower) {
        if (!entered_below(x, load, &below, &strict, &unsigned_test) || !apart_span(x, below, &b, depth + 1)) return false;
        if (unsigned_test) require(x, LLVMBuildICmp(x->b, LLVMIntSGE, b.lo, k64(x, 0), ""));
        *out = (Span){lo.lo, strict ? LLVMBuildSub(x->b, b.hi, k64(x, 1), "") : b.hi};
      }
      if (is_unsigned) bounds_read_signed(x, lo, hi, LLVMGetIntTypeWidth(LLVMTypeOf(load)));
      return true;
    }
  }
  return chunk_bound(x, load, slot, out, depth);
}

/* Notes that the check reads root's memory (once per root); false where too many are noted. */
static bool note_scanned(Bounds *x, LLVMValueRef root) {
  for (unsigned k = 0; k < x->nscanned; k++)
    if (x->scanned[k] == root) return true;
  if (x->nscanned == MAX_OBJECTS) return false;
  x->scanned[x->nscanned++] = root;
  return true;
}

/* Whether load reads an integer at a constant offset into an object the function never writes (a
 * record's count, `A->n`): noted so, its root and offset. */
static bool fixed_place(Bounds *x, LLVMValueRef load, LLVMValueRef *root, long long *offset, int depth) {
  Span off;
  LLVMTypeRef t = LLVMTypeOf(load);
  if (!ir_is_int(t) || LLVMGetIntTypeWidth(t) > 64 || LLVMGetVolatile(load) || LLVMGetOrdering(load) != LLVMAtomicOrderingNotAtomic ||
      !apart_address(x, LLVMGetOperand(load, 0), root, &off, depth + 1) || !*root || !LLVMIsAConstantInt(off.lo) ||
      off.lo != off.hi || !note_scanned(x, *root))
    return false;
  *offset = LLVMConstIntGetSExtValue(off.lo);
  return true;
}

/* Whether v keeps one value while loop l runs: defined outside it, or a captured variable's load (its one
 * store before the loop), or arithmetic on such values. */
bool apart_invariant(Bounds *x, Frame *f, CfgLoop *l, LLVMValueRef v, int depth) {
  if (!LLVMIsAInstruction(v) || !cfg_in_loop(&f->cfg, l, LLVMGetInstructionParent(v))) return true;
  if (depth > 4) return false;
  if (LLVMIsALoadInst(v)) {
    LLVMValueRef p = LLVMGetOperand(v, 0);
    Held h;
    LLVMValueRef root;
    long long offset;
    if (apart_held_values(x, p, v, &h)) return h.nvalues == 1 && apart_invariant(x, f, l, h.value[0], depth + 1);
    return fixed_place(x, v, &root, &offset, depth);
  }
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  if (op != LLVMSExt && op != LLVMZExt && op != LLVMTrunc && op != LLVMAdd && op != LLVMSub && op != LLVMMul) return false;
  for (int k = 0, n = LLVMGetNumOperands(v); k < n; k++)
    if (!apart_invariant(x, f, l, LLVMGetOperand(v, k), depth + 1)) return false;
  return true;
}

/* The loop phi is the counter of (a phi of its header: start from outside, start + constant step around),
 * tested in the latch's exit against a limit the loop does not change, as "go on while next P limit" (or
 * "counter P limit"). Its values lie between start and the last value the test lets through: limit less
 * one step's sign for a strict test of next, limit for an inclusive one, a step further for a test of the
 * counter itself; an unsigned test is read as signed where start and limit are not negative. */
/* base + c where c counts from 0 by one while c + 1 != u - base (the optimiser's form of a loop from base
 * to u - 1, its trip count u - base made the test): between base and u - 1, where the loop's guard keeps
 * u - base positive. */
static bool offset_range(Bounds *x, LLVMValueRef base, LLVMValueRef c, Span *out, int depth) {
  LLVMValueRef start, step, next;
  Frame *f = LLVMIsAPHINode(c) ? apart_frame_of(x, c) : NULL;
  CfgLoop *l = f ? apart_loop_at(f, LLVMGetInstructionParent(c)) : NULL;
  if (!l || !l->preheader || !l->latch || !cfg_induction(&f->cfg, l->body, c, l->preheader, l->latch, &start, &step, &next) ||
      !LLVMIsAConstantInt(start) || LLVMConstIntGetSExtValue(start) != 0 || LLVMConstIntGetSExtValue(step) != 1)
    return false;
  LLVMIntPredicate p;
  LLVMValueRef cmp = apart_exit_test(f, l, &p);
  if (!cmp || p != LLVMIntNE) return false;
  LLVMValueRef trip = LLVMGetOperand(cmp, 0) == next ? LLVMGetOperand(cmp, 1) : LLVMGetOperand(cmp, 1) == next ? LLVMGetOperand(cmp, 0) : NULL;
  /* the trip count u - base, perhaps widened (where it is at least 1, as required below, its extension is it) */
  LLVMValueRef difference = trip && (LLVMIsASExtInst(trip) || LLVMIsAZExtInst(trip)) ? LLVMGetOperand(trip, 0) : trip;
  if (!difference || !LLVMIsAInstruction(difference) || LLVMGetInstructionOpcode(difference) != LLVMSub ||
      !same_value(LLVMGetOperand(difference, 1), base) || !apart_invariant(x, f, l, trip, 0))
    return false;
  Span sb, su, st;
  if (!apart_span(x, base, &sb, depth + 1) || !apart_span(x, LLVMGetOperand(difference, 0), &su, depth + 1) ||
      !span_entered(x, f, l, trip, &st, depth + 1))
    return false;
  require(x, LLVMBuildICmp(x->b, LLVMIntSGE, st.lo, k64(x, 1), "")); /* the loop reaches its trip count */
  *out = (Span){sb.lo, LLVMBuildSub(x->b, su.hi, k64(x, 1), "")};
  return true;
}

static bool offset_counter(Bounds *x, LLVMValueRef v, Span *out, int depth) {
  return offset_range(x, LLVMGetOperand(v, 0), LLVMGetOperand(v, 1), out, depth) ||
         offset_range(x, LLVMGetOperand(v, 1), LLVMGetOperand(v, 0), out, depth);
}

static bool counter_values(Bounds *x, Frame *f, CfgLoop *l, LLVMValueRef phi, LLVMValueRef start, LLVMValueRef step,
                           LLVMValueRef next, Span *out, int depth);

static bool counter(Bounds *x, LLVMValueRef phi, Span *out, int depth) {
  LLVMBasicBlockRef header = LLVMGetInstructionParent(phi);
  Frame *f = apart_frame_of(x, phi);
  CfgLoop *l = f ? apart_loop_at(f, header) : NULL;
  LLVMValueRef start, step, next;
  if (!l || !l->preheader || !l->latch || !cfg_induction(&f->cfg, l->body, phi, l->preheader, l->latch, &start, &step, &next))
    return false;
  return counter_values(x, f, l, phi, start, step, next, out, depth);
}

/* The values of a counter of loop l (phi, or a load of a local it counts in) that starts at start and
 * becomes next = phi + step each iteration. */
static bool counter_values(Bounds *x, Frame *f, CfgLoop *l, LLVMValueRef phi, LLVMValueRef start, LLVMValueRef step,
                           LLVMValueRef next, Span *out, int depth) {
  long long st = LLVMConstIntGetSExtValue(step);
  /* a narrow counter must not wrap; a 64-bit one cannot, in a program that ends. One that counts up
     without unsigned wrap (nuw) stays between start and limit where both are not negative; one without
     either flag is bounded only through a sibling, where its values lie in its range. */
  unsigned width = LLVMGetIntTypeWidth(LLVMTypeOf(phi));
  bool up_unsigned = width < 64 && !LLVMGetNSW(next), flagless = up_unsigned && !(LLVMGetNUW(next) && st > 0);
  LLVMIntPredicate p; /* going on while */
  LLVMValueRef cmp = apart_exit_test(f, l, &p), limit = NULL;
  bool on_next = false, narrowed = false;
  if (!cmp) return false;
  for (unsigned s = 0; s < 2 && !limit; s++) {
    LLVMValueRef a = LLVMGetOperand(cmp, s), other = LLVMGetOperand(cmp, !s);
    if (LLVMIsATruncInst(a) && (LLVMGetOperand(a, 0) == phi || LLVMGetOperand(a, 0) == next))
      a = LLVMGetOperand(a, 0), narrowed = true; /* an OpenMP loop's i64 counter tested in 32 bits */
    if (a != phi && a != next) {
      Span sib, sib_start, own;
      LLVMValueRef sib_init, sib_phi = sibling(x, f, l, a, step, &sib_start, &sib_init);
      if (sib_phi && offset_range(x, start, sib_phi, out, depth)) { /* phi is start + sib_phi */
        if (flagless) require_within(x, *out, width);
        return true;
      }
      if (!sib_phi || !apart_span(x, sib_phi, &sib, depth + 1) || !apart_span(x, start, &own, depth + 1)) continue;
      /* phi - sib_phi is start - sib_start throughout: nothing where they start at one value (a counter
         and its widened copy, clang's i and the optimiser's i64 i) */
      *out = same_value(start, sib_init)
                 ? sib
                 : (Span){LLVMBuildSub(x->b, LLVMBuildAdd(x->b, sib.lo, own.lo, ""), sib_start.hi, ""),
                          LLVMBuildSub(x->b, LLVMBuildAdd(x->b, sib.hi, own.hi, ""), sib_start.lo, "")};
      if (flagless) require_within(x, *out, width);
      return true;
    }
    if (!apart_invariant(x, f, l, other, 0)) return false;
    limit = other, on_next = a == next;
    if (s) p = ir_icmp_swapped(p);
  }
  if (flagless) return false;
  if (p == LLVMIntEQ && limit && !on_next && !narrowed) {
    /* going on while the counter is limit (the optimiser's test of a loop of two: i == 0): it runs once
       or twice, at start and at start + step */
    Span s;
    if (!span_entered(x, f, l, start, &s, depth + 1)) return false;
    *out = hull(x, s, (Span){LLVMBuildAdd(x->b, s.lo, k64(x, st), ""), LLVMBuildAdd(x->b, s.hi, k64(x, st), "")});
    return true;
  }
  bool up = st > 0, unsigned_test = p == LLVMIntULT || p == LLVMIntULE || p == LLVMIntUGT || p == LLVMIntUGE;
  bool strict = p == LLVMIntSLT || p == LLVMIntULT || p == LLVMIntSGT || p == LLVMIntUGT || p == LLVMIntNE;
  bool fits = p == LLVMIntNE || (up ? p == LLVMIntSLT || p == LLVMIntSLE || p == LLVMIntULT || p == LLVMIntULE
                                    : p == LLVMIntSGT || p == LLVMIntSGE || p == LLVMIntUGT || p == LLVMIntUGE);
  /* a narrowed counter stepping by one meets an inequality's limit before it leaves the narrow range */
  if (narrowed && !(p == LLVMIntNE && (st == 1 || st == -1))) return false;
  Span s, lim;
  if (!limit || !fits || !span_entered(x, f, l, start, &s, depth + 1) || !span_entered(x, f, l, limit, &lim, depth + 1)) return false;
  if (unsigned_test || up_unsigned) {
    require(x, LLVMBuildICmp(x->b, LLVMIntSGE, s.lo, k64(x, 0), ""));
    require(x, LLVMBuildICmp(x->b, LLVMIntSGE, lim.lo, k64(x, 0), ""));
  }
  /* a test of the counter itself (p != limit: it stops after the iteration at limit) lets one step more */
  long long shift = (strict && !(p == LLVMIntNE && !on_next) ? -(up ? 1 : -1) : 0) + (on_next || p == LLVMIntNE ? 0 : st);
  Span last = {LLVMBuildAdd(x->b, lim.lo, k64(x, shift), ""), LLVMBuildAdd(x->b, lim.hi, k64(x, shift), "")};
  if (LLVMIsAConstantInt(start) && (st > 1 || st < -1)) {
    /* from a constant start by more than one, the last value is a whole number of steps on: a loop over
       vectors of eight (`j += 8; j < n`) reads up to j = 8 ((n - 1) / 8), not n - 1, which the vector's
       width would carry into the next array */
    long long c = LLVMConstIntGetSExtValue(start);
    LLVMValueRef *far = up ? &last.hi : &last.lo;
    LLVMValueRef steps = LLVMBuildSDiv(x->b, LLVMBuildSub(x->b, *far, k64(x, c), ""), k64(x, st), "");
    *far = LLVMBuildAdd(x->b, k64(x, c), LLVMBuildMul(x->b, steps, k64(x, st), ""), "");
  }
  *out = hull(x, s, last);
  return true;
}

/* A local a loop counts in (a loop variable a region captures: clang keeps it in memory): stored a start
 * before the loop, and in every iteration the value the iteration loaded plus a constant step, that load
 * (or its sum) tested in the latch's exit. Its values: the counter's, and one step past them (after the
 * loop). */
static bool memory_counter(Bounds *x, Held *h, Span *out, int depth) {
  if (h->nslots != 1 || h->nstores != 2) return false;
  for (unsigned k = 0; k < 2; k++) {
    LLVMValueRef next = LLVMGetOperand(h->store[k], 0), init = h->store[!k], load;
    if (!LLVMIsAInstruction(next) || LLVMGetInstructionOpcode(next) != LLVMAdd || !LLVMIsAConstantInt(LLVMGetOperand(next, 1)) ||
        !LLVMIsALoadInst(load = LLVMGetOperand(next, 0)) || LLVMGetOperand(load, 0) != h->slot[0])
      continue;
    LLVMBasicBlockRef in = LLVMGetInstructionParent(h->store[k]);
    Frame *f = apart_frame_of(x, load);
    CfgLoop *l = NULL; /* the innermost loop the store is in */
    for (size_t i = 0; f && i < f->loops.len; i++)
      if (cfg_in_loop(&f->cfg, &f->loops.data[i], in)) l = &f->loops.data[i];
    if (!l || !l->latch || LLVMGetInstructionParent(load) != in || cfg_in_loop(&f->cfg, l, LLVMGetInstructionParent(init)) ||
        !cfg_dominates(&f->cfg, LLVMGetInstructionParent(init), l->header) ||
        !cfg_every_iteration(&f->cfg, l->body, l->header, l->latch, in))
      return false;
    LLVMValueRef i = load; /* the iteration's load comes before its store */
    while (i && i != h->store[k]) i = LLVMGetNextInstruction(i);
    if (!i || !counter_values(x, f, l, load, LLVMGetOperand(init, 0), LLVMGetOperand(next, 1), next, out, depth)) return false;
    long long st = LLVMConstIntGetSExtValue(LLVMGetOperand(next, 1));
    if (st > 0) out->hi = LLVMBuildAdd(x->b, out->hi, k64(x, st), "");
    else out->lo = LLVMBuildAdd(x->b, out->lo, k64(x, st), "");
    return true;
  }
  return false;
}

/* ---- rows of a compressed layout: a counter k from rows[i] to rows[i + 1], an index read at k ---- */

static LLVMValueRef unextended(LLVMValueRef v) { return LLVMIsASExtInst(v) ? LLVMGetOperand(v, 0) : v; }

/* A load of an element at base + (index + plus) elements, the element a 4- or 8-byte integer: clang's
 * rows[i + 1] is either an index plus one or the element after rows[i]'s address. */
static bool element_at(Bounds *x, LLVMValueRef load, LLVMValueRef *base, LLVMValueRef *index, long long *plus, unsigned *size) {
  LLVMTypeRef t = LLVMTypeOf(load);
  if (!LLVMIsALoadInst(load) || LLVMGetVolatile(load) || !ir_is_int(t) || (LLVMGetIntTypeWidth(t) != 32 && LLVMGetIntTypeWidth(t) != 64))
    return false;
  *size = LLVMGetIntTypeWidth(t) / 8, *plus = 0;
  LLVMValueRef p = LLVMGetOperand(load, 0);
  if (LLVMIsAGetElementPtrInst(p) && LLVMGetNumOperands(p) == 2 && LLVMIsAConstantInt(LLVMGetOperand(p, 1))) {
    long long bytes = LLVMConstIntGetSExtValue(LLVMGetOperand(p, 1)) * (long long)LLVMABISizeOfType(x->td, LLVMGetGEPSourceElementType(p));
    if (bytes % *size) return false;
    *plus = bytes / *size, p = LLVMGetOperand(p, 0); /* the element after another's address */
  }
  if (!LLVMIsAGetElementPtrInst(p) || LLVMGetNumOperands(p) != 2 || LLVMABISizeOfType(x->td, LLVMGetGEPSourceElementType(p)) != *size)
    return false;
  *base = LLVMGetOperand(p, 0), *index = unextended(LLVMGetOperand(p, 1));
  if (LLVMIsAInstruction(*index) && LLVMGetInstructionOpcode(*index) == LLVMAdd && LLVMIsAConstantInt(LLVMGetOperand(*index, 1)) &&
      LLVMGetNSW(*index))
    *plus += LLVMConstIntGetSExtValue(LLVMGetOperand(*index, 1)), *index = unextended(LLVMGetOperand(*index, 0));
  return true;
}

typedef struct {
  LLVMValueRef rows, row;  /* the rows' base pointer; i */
  long long plus;          /* k starts at rows[i + plus] */
  unsigned size;           /* bytes of a row's entry */
} Rows;

/* Whether phi is a counter k that runs, by one, from rows[i] while k + 1 differs from (or is below)
 * rows[i + 1], entered only where rows[i] < rows[i + 1]: it takes the values of row i's elements. */
static bool row_counter(Bounds *x, LLVMValueRef phi, Rows *r) {
  Frame *f = apart_frame_of(x, phi);
  CfgLoop *l = f ? apart_loop_at(f, LLVMGetInstructionParent(phi)) : NULL;
  LLVMValueRef start, step, next, cmp, a, b, index, base;
  LLVMIntPredicate p, gp;
  long long plus;
  unsigned size;
  if (!l || !l->preheader || !l->latch || !cfg_induction(&f->cfg, l->body, phi, l->preheader, l->latch, &start, &step, &next) ||
      LLVMConstIntGetSExtValue(step) != 1 || !(cmp = apart_exit_test(f, l, &p)))
    return false;
  LLVMValueRef limit = LLVMGetOperand(cmp, 1);
  if (LLVMGetOperand(cmp, 0) != next) limit = LLVMGetOperand(cmp, 0), p = ir_icmp_swapped(p);
  if (LLVMGetOperand(cmp, 0) != next && LLVMGetOperand(cmp, 1) != next) return false;
  if ((p != LLVMIntNE && p != LLVMIntSLT) || (LLVMGetIntTypeWidth(LLVMTypeOf(phi)) < 64 && !LLVMGetNSW(next))) return false;
  start = unextended(start), limit = unextended(limit);
  if (!element_at(x, start, &r->rows, &r->row, &r->plus, &r->size) || !element_at(x, limit, &base, &index, &plus, &size) ||
      base != r->rows || index != r->row || plus != r->plus + 1 || size != r->size)
    return false;
  if (!guard(f, l, &a, &b, &gp)) return false; /* entered only where rows[i] < rows[i + 1] */
  a = unextended(a), b = unextended(b);
  return (a == start && b == limit && gp == LLVMIntSLT) || (a == limit && b == start && gp == LLVMIntSGT);
}

/* The runtime's scan (runtime/rows_span.c): rows (an address, 0 for none) of row_size bytes, rows or
 * elements first..last, index (an address, 0 for none) of index_size bytes; out[0..1] the k of the rows
 * that are not empty (first..last where there are no rows), out[2..3] the values of index's elements
 * there. */
static void call_scan(Bounds *x, LLVMValueRef rows, unsigned row_size, Span range, LLVMValueRef index,
                      unsigned index_size, LLVMValueRef *out) {
  LLVMContextRef c = LLVMGetModuleContext(x->m);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(c), ptr = LLVMPointerTypeInContext(c, 0), arr = LLVMArrayType2(x->i64, 4);
  LLVMTypeRef params[7] = {x->i64, i32, x->i64, x->i64, x->i64, i32, ptr};
  LLVMTypeRef type = LLVMFunctionType(i32, params, 7, 0);
  LLVMValueRef fn = LLVMGetNamedFunction(x->m, "__parad_rt_rows_span");
  if (!fn) fn = LLVMAddFunction(x->m, "__parad_rt_rows_span", type);
  LLVMValueRef buf = LLVMBuildAlloca(x->b, arr, "scan");
  LLVMValueRef args[7] = {rows, LLVMConstInt(i32, row_size, 0), range.lo, range.hi, index, LLVMConstInt(i32, index_size, 0), buf};
  LLVMValueRef found = LLVMBuildCall2(x->b, type, fn, args, 7, "");
  require(x, LLVMBuildICmp(x->b, LLVMIntNE, found, LLVMConstInt(i32, 0, 0), ""));
  for (unsigned k = 0; k < 4; k++) {
    LLVMValueRef at = LLVMBuildGEP2(x->b, x->i64, buf, (LLVMValueRef[]){k64(x, k)}, 1, "");
    out[k] = LLVMBuildLoad2(x->b, x->i64, at, "");
  }
}

/* The address in the check of p, a pointer to one place of a root the check may scan. */
static LLVMValueRef scanned_address(Bounds *x, LLVMValueRef p, int depth) {
  LLVMValueRef root;
  Span off;
  if (!apart_address(x, p, &root, &off, depth + 1) || !root || off.lo != off.hi || !note_scanned(x, root)) return NULL;
  return LLVMBuildAdd(x->b, LLVMBuildPtrToInt(x->b, apart_root_in_check(x, root), x->i64, ""), off.lo, "");
}

/* The scan of r's rows, and of index's elements at their k (index NULL: none). */
static bool scan_rows(Bounds *x, Rows *r, LLVMValueRef index, unsigned index_size, LLVMValueRef *out, int depth) {
  Span rows;
  LLVMValueRef base = scanned_address(x, r->rows, depth), ibase = index ? scanned_address(x, index, depth) : k64(x, 0);
  if (!base || !ibase || !apart_span(x, r->row, &rows, depth + 1)) return false;
  Span range = {LLVMBuildAdd(x->b, rows.lo, k64(x, r->plus), ""), LLVMBuildAdd(x->b, rows.hi, k64(x, r->plus), "")};
  call_scan(x, base, r->size, range, ibase, index_size, out);
  return true;
}

/* A row counter's values: the elements of the rows that are not empty. */
static bool row_counter_span(Bounds *x, LLVMValueRef phi, Span *out, int depth) {
  Rows r;
  LLVMValueRef v[4];
  if (!row_counter(x, phi, &r) || !scan_rows(x, &r, NULL, 0, v, depth)) return false;
  *out = (Span){v[0], v[1]};
  return true;
}

/* An index read at a row counter (nbr[k]): the values the rows' elements hold. Else an index read at an
 * address the check bounds (idx[i], conn[4 e + j]): the values its elements hold between the least and the
 * most byte read. The load's alignment and the array's, checked, put every read on an element of the array. */
static bool index_span(Bounds *x, LLVMValueRef load, Span *out, int depth) {
  Rows r;
  LLVMValueRef base, k, v[4], root;
  long long plus;
  unsigned size;
  Span off;
  LLVMTypeRef t = LLVMTypeOf(load);
  if (LLVMGetVolatile(load) || !ir_is_int(t) || (LLVMGetIntTypeWidth(t) != 32 && LLVMGetIntTypeWidth(t) != 64)) return false;
  size = LLVMGetIntTypeWidth(t) / 8;
  if (element_at(x, load, &base, &k, &plus, &size) && LLVMIsAPHINode(k) && row_counter(x, k, &r)) {
    if (plus || !scan_rows(x, &r, base, size, v, depth)) return false;
    *out = (Span){v[2], v[3]};
    return true;
  }
  if (LLVMGetAlignment(load) < size || !apart_address(x, LLVMGetOperand(load, 0), &root, &off, depth + 1) || !root ||
      !note_scanned(x, root))
    return false;
  LLVMValueRef at = LLVMBuildPtrToInt(x->b, apart_root_in_check(x, root), x->i64, ""), shift = k64(x, size == 8 ? 3 : 2);
  require(x, LLVMBuildICmp(x->b, LLVMIntEQ, LLVMBuildAnd(x->b, at, k64(x, size - 1), ""), k64(x, 0), ""));
  Span elements = {LLVMBuildAShr(x->b, off.lo, shift, ""), LLVMBuildAShr(x->b, off.hi, shift, "")};
  call_scan(x, k64(x, 0), 0, elements, at, size, v);
  *out = (Span){v[2], v[3]};
  return true;
}

/* Such an integer's value: the one the check reads there. */
static bool fixed_value(Bounds *x, LLVMValueRef load, Span *out, int depth) {
  LLVMValueRef root;
  long long offset;
  if (!fixed_place(x, load, &root, &offset, depth)) return false;
  LLVMValueRef v = apart_read_in_check(x, root, offset, LLVMTypeOf(load));
  if (LLVMGetIntTypeWidth(LLVMTypeOf(load)) < 64) v = LLVMBuildSExt(x->b, v, x->i64, "");
  *out = (Span){v, v};
  return true;
}

/* The spans of a division's (or remainder's) operands, where the check requires the dividend not negative
 * and the divisor positive when it runs: then a / b and a % b are monotone in each. */
static bool by_positive(Bounds *x, LLVMValueRef a, LLVMValueRef b, Span *sa, Span *sb, int depth) {
  if (!apart_span(x, a, sa, depth + 1) || !apart_span(x, b, sb, depth + 1)) return false;
  require(x, LLVMBuildICmp(x->b, LLVMIntSGE, sa->lo, k64(x, 0), ""));
  require(x, LLVMBuildICmp(x->b, LLVMIntSGT, sb->lo, k64(x, 0), ""));
  /* the check divides whatever it requires: by at least 1, or a divisor of 0 is undefined behaviour (a
     trap, or with the arguments known, the optimiser dropping the gradient as unreachable) */
  *sb = (Span){smax(x, sb->lo, k64(x, 1)), smax(x, sb->hi, k64(x, 1))};
  return true;
}

/* The span of `operand & m`, m a mask of low bits, from the operand's: the operand's where it lies within
 * 0..m, else 0..m. */
static Span low_bits(Bounds *x, Span operand, long long m) {
  LLVMValueRef mask = k64(x, m);
  LLVMValueRef within = LLVMBuildAnd(x->b, LLVMBuildICmp(x->b, LLVMIntSGE, operand.lo, k64(x, 0), ""),
                                     LLVMBuildICmp(x->b, LLVMIntSLE, operand.hi, mask, ""), "");
  return (Span){LLVMBuildSelect(x->b, within, operand.lo, k64(x, 0), ""), LLVMBuildSelect(x->b, within, operand.hi, mask, "")};
}

/* The span of a select's arm (the one taken where cond holds, or fails), narrowed by cond where cond
 * compares the arm (or the operand of its low-bit mask) with a value: clang makes `(i + 1) % n` of
 * `i + 1 == n ? 0 : i + 1 & 0xffffffff`, whose hull of both arms reached one past the array (arrays
 * adjacent in one block looked overlapped). The narrowing is made of selects, no requirement: where it
 * does not apply the arm keeps its own span. */
static bool select_arm(Bounds *x, LLVMValueRef cond, bool holds, LLVMValueRef arm, Span *out, int depth) {
  LLVMValueRef tested = arm;
  long long m = -1;
  if (LLVMIsAInstruction(arm) && LLVMGetInstructionOpcode(arm) == LLVMAnd && LLVMIsAConstantInt(LLVMGetOperand(arm, 1))) {
    m = LLVMConstIntGetSExtValue(LLVMGetOperand(arm, 1));
    if (m >= 0 && !(m & (m + 1))) tested = LLVMGetOperand(arm, 0);
  }
  if (!LLVMIsAICmpInst(cond) || (LLVMGetOperand(cond, 0) != tested && LLVMGetOperand(cond, 1) != tested))
    return apart_span(x, arm, out, depth + 1);
  LLVMIntPredicate p = LLVMGetICmpPredicate(cond);
  LLVMValueRef other = LLVMGetOperand(cond, 1);
  if (LLVMGetOperand(cond, 0) != tested) other = LLVMGetOperand(cond, 0), p = ir_icmp_swapped(p);
  if (!holds) p = ir_icmp_inverse(p);
  Span s, b;
  if (!apart_span(x, tested, &s, depth + 1) || !apart_span(x, other, &b, depth + 1)) return apart_span(x, arm, out, depth + 1);
  if (p == LLVMIntULT || p == LLVMIntULE) { /* below a bound that is not negative: not negative either */
    Span n = {smax(x, s.lo, k64(x, 0)), s.hi};
    narrow_by(x, &n, as_signed(p), b);
    LLVMValueRef nonnegative = LLVMBuildICmp(x->b, LLVMIntSGE, b.lo, k64(x, 0), "");
    s = (Span){LLVMBuildSelect(x->b, nonnegative, n.lo, s.lo, ""), LLVMBuildSelect(x->b, nonnegative, n.hi, s.hi, "")};
  } else {
    narrow_by(x, &s, p, b); /* other unsigned ones: s as it was */
  }
  *out = tested != arm ? low_bits(x, s, m) : s;
  return true;
}

static bool span_of_inst(Bounds *x, LLVMValueRef v, Span *out, int depth) {
  LLVMValueRef a = LLVMGetNumOperands(v) > 0 ? LLVMGetOperand(v, 0) : NULL, b = LLVMGetNumOperands(v) > 1 ? LLVMGetOperand(v, 1) : NULL;
  Span sa, sb;
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMPHI: return row_counter_span(x, v, out, depth) || counter(x, v, out, depth);
  case LLVMLoad: {
    if (LLVMGetVolatile(v) || LLVMGetOrdering(v) != LLVMAtomicOrderingNotAtomic) return false;
    Held h;
    if (!apart_held_values(x, a, v, &h)) return share_bound(x, v, out, depth) || fixed_value(x, v, out, depth) || index_span(x, v, out, depth);
    for (unsigned k = 0; k < x->nloading; k++)
      if (x->loading[k] == h.slot[0]) return false; /* its values made of its own: not a group's */
    if (x->nloading == MAX_CHOOSING) return false;
    x->loading[x->nloading++] = h.slot[0];
    bool ok = memory_counter(x, &h, out, depth);
    for (unsigned k = 0; k < h.nvalues && !ok; k++) {
      Span s;
      if (!apart_span(x, h.value[k], &s, depth + 1)) break;
      *out = k ? hull(x, *out, s) : s, ok = k + 1 == h.nvalues;
    }
    x->nloading--;
    return ok;
  }
  case LLVMAdd:
    if (offset_counter(x, v, out, depth)) return true;
    /* fall through */
  case LLVMSub: {
    if (!apart_span(x, a, &sa, depth + 1) || !apart_span(x, b, &sb, depth + 1)) return false;
    *out = LLVMGetInstructionOpcode(v) == LLVMAdd ? (Span){LLVMBuildAdd(x->b, sa.lo, sb.lo, ""), LLVMBuildAdd(x->b, sa.hi, sb.hi, "")}
                                                   : (Span){LLVMBuildSub(x->b, sa.lo, sb.hi, ""), LLVMBuildSub(x->b, sa.hi, sb.lo, "")};
    Span ops[2] = {sa, sb};
    return exact_within(x, v, ops, 2, *out);
  }
  case LLVMOr: /* disjoint: a sum, which never wraps (two negative operands share the sign bit) */
    if (!LLVMGetIsDisjoint(v) || !apart_span(x, a, &sa, depth + 1) || !apart_span(x, b, &sb, depth + 1))
      return false;
    *out = (Span){LLVMBuildAdd(x->b, sa.lo, sb.lo, ""), LLVMBuildAdd(x->b, sa.hi, sb.hi, "")};
    return true;
  case LLVMMul: {
    if (!apart_span(x, a, &sa, depth + 1) || !apart_span(x, b, &sb, depth + 1)) return false;
    if (LLVMIsAConstantInt(b)) *out = scaled(x, sa, LLVMConstIntGetSExtValue(b));
    else if (LLVMIsAConstantInt(a)) *out = scaled(x, sb, LLVMConstIntGetSExtValue(a));
    else {
      LLVMValueRef p[4] = {LLVMBuildMul(x->b, sa.lo, sb.lo, ""), LLVMBuildMul(x->b, sa.lo, sb.hi, ""),
                           LLVMBuildMul(x->b, sa.hi, sb.lo, ""), LLVMBuildMul(x->b, sa.hi, sb.hi, "")};
      *out = (Span){smin(x, smin(x, p[0], p[1]), smin(x, p[2], p[3])), smax(x, smax(x, p[0], p[1]), smax(x, p[2], p[3]))};
    }
    Span ops[2] = {sa, sb};
    return exact_within(x, v, ops, 2, *out);
  }
  case LLVMShl:
    if (!LLVMIsAConstantInt(b) || LLVMConstIntGetZExtValue(b) > 32 || !apart_span(x, a, &sa, depth + 1)) return false;
    *out = scaled(x, sa, 1LL << LLVMConstIntGetZExtValue(b));
    return exact_within(x, v, &sa, 1, *out);
  case LLVMSExt: return apart_span(x, a, out, depth + 1);
  case LLVMTrunc: { /* its operand's value where that fits the narrower type (the check requires it) */
    unsigned w = LLVMGetIntTypeWidth(LLVMTypeOf(v));
    if (w < 2 || w >= 64 || !apart_span(x, a, out, depth + 1)) return false;
    require(x, LLVMBuildICmp(x->b, LLVMIntSGE, out->lo, k64(x, -(1LL << (w - 1))), ""));
    require(x, LLVMBuildICmp(x->b, LLVMIntSLE, out->hi, k64(x, (1LL << (w - 1)) - 1), ""));
    return true;
  }
  case LLVMZExt: /* its operand's value where that is not negative */
    if (!apart_span(x, a, out, depth + 1)) return false;
    require(x, LLVMBuildICmp(x->b, LLVMIntSGE, out->lo, k64(x, 0), ""));
    return true;
  case LLVMURem: /* by a positive constant: below it (unsigned); srem: within it either side of 0 */
  case LLVMSRem: {
    long long c = LLVMIsAConstantInt(b) ? LLVMConstIntGetSExtValue(b) : 0;
    if (!LLVMIsAConstantInt(b)) { /* a collapsed loop's inner counter, k % T: below the divisor's most */
      if (!by_positive(x, a, b, &sa, &sb, depth)) return false;
      *out = (Span){k64(x, 0), smin(x, sa.hi, LLVMBuildSub(x->b, sb.hi, k64(x, 1), ""))};
      return true;
    }
    if (c <= 0) return false;
    *out = (Span){k64(x, LLVMGetInstructionOpcode(v) == LLVMURem ? 0 : -(c - 1)), k64(x, c - 1)};
    return true;
  }
  case LLVMAnd: { /* with a non-negative mask: between 0 and the mask; with a mask of low bits, the
                    operand's own where that lies within (a 32-bit counter widened, `(i + 1) % n` made a
                    select of i + 1 & 0xffffffff) */
    if (!LLVMIsAConstantInt(b) || LLVMConstIntGetSExtValue(b) < 0) return false;
    long long m = LLVMConstIntGetSExtValue(b);
    *out = (Span){k64(x, 0), k64(x, m)};
    if (!(m & (m + 1)) && apart_span(x, a, &sa, depth + 1)) *out = low_bits(x, sa, m);
    return true;
  }
  case LLVMAShr:
  case LLVMLShr:
  case LLVMSDiv:
  case LLVMUDiv: { /* by a positive constant: monotonic, for non-negative operands at least */
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    if ((op == LLVMSDiv || op == LLVMUDiv) && !LLVMIsAConstantInt(b)) { /* a collapsed loop's outer counter, k / T */
      if (!by_positive(x, a, b, &sa, &sb, depth)) return false;
      *out = (Span){LLVMBuildSDiv(x->b, sa.lo, sb.hi, ""), LLVMBuildSDiv(x->b, sa.hi, sb.lo, "")};
      return true;
    }
    if (!LLVMIsAConstantInt(b) || LLVMConstIntGetSExtValue(b) <= 0 || !apart_span(x, a, &sa, depth + 1)) return false;
    if (op == LLVMLShr || op == LLVMUDiv) require(x, LLVMBuildICmp(x->b, LLVMIntSGE, sa.lo, k64(x, 0), ""));
    LLVMValueRef by = k64(x, LLVMConstIntGetSExtValue(b));
    *out = op == LLVMAShr || op == LLVMLShr ? (Span){LLVMBuildAShr(x->b, sa.lo, by, ""), LLVMBuildAShr(x->b, sa.hi, by, "")}
                                             : (Span){LLVMBuildSDiv(x->b, sa.lo, by, ""), LLVMBuildSDiv(x->b, sa.hi, by, "")};
    return true;
  }
  case LLVMSelect:
    if (!select_arm(x, LLVMGetOperand(v, 0), true, LLVMGetOperand(v, 1), &sa, depth) ||
        !select_arm(x, LLVMGetOperand(v, 0), false, LLVMGetOperand(v, 2), &sb, depth))
      return false;
    *out = hull(x, sa, sb);
    return true;
  case LLVMCall: { /* a minimum or maximum is one of its operands; a signed one is monotone in both */
    LLVMValueRef callee = ir_called_function(v);
    const char *name = callee ? LLVMGetValueName(callee) : "";
    bool least = !strncmp(name, "llvm.smin.", 10), most = !strncmp(name, "llvm.smax.", 10);
    if (!least && !most && strncmp(name, "llvm.umin.", 10) && strncmp(name, "llvm.umax.", 10)) return false;
    if (!apart_span(x, LLVMGetArgOperand(v, 0), &sa, depth + 1) || !apart_span(x, LLVMGetArgOperand(v, 1), &sb, depth + 1)) return false;
    /* (n - min(n, 1): a non-rectangular collapsed loop's inner trip count, a divisor that must stay positive) */
    *out = least ? (Span){smin(x, sa.lo, sb.lo), smin(x, sa.hi, sb.hi)}
           : most ? (Span){smax(x, sa.lo, sb.lo), smax(x, sa.hi, sb.hi)}
                  : hull(x, sa, sb);
    return true;
  }
  default: return apart_give_up(v, "an index the check cannot bound");
  }
}

/* The values integer v of the function takes, as i64 values of the check. */
bool apart_span(Bounds *x, LLVMValueRef v, Span *out, int depth) {
  if (depth > MAX_DEPTH || !ir_is_int(LLVMTypeOf(v))) return false;
  if (LLVMIsAConstantInt(v)) {
    LLVMValueRef c = k64(x, LLVMConstIntGetSExtValue(v));
    *out = (Span){c, c};
    return true;
  }
  if (LLVMIsAArgument(v) && LLVMGetParamParent(v) != x->fn) { /* a region's, passed by value */
    LLVMValueRef given = apart_fork_operand(x, v);
    return given && apart_span(x, given, out, depth + 1);
  }
  if (LLVMIsAArgument(v)) {
    LLVMValueRef a = LLVMGetParam(x->check, apart_param_index(v));
    if (LLVMGetIntTypeWidth(LLVMTypeOf(a)) < 64) a = LLVMBuildSExt(x->b, a, x->i64, "");
    *out = (Span){a, a};
    return true;
  }
  if (v == x->fixed) {
    *out = x->fixed_span;
    return true;
  }
  Frame *f = apart_frame_of(x, v);
  if (!f || cfg_index(&f->cfg, LLVMGetInstructionParent(v)) < 0) return false;
  if (x->fixed) return span_of_inst(x, v, out, depth); /* not remembered: it may hold under the guard only */
  /* under the tests on the way to an access, remembered for that access only */
  ValueMap *lo = x->nguards ? &x->guarded_lo : &f->lo, *hi = x->nguards ? &x->guarded_hi : &f->hi;
  if (vmap_has(lo, v)) {
    *out = (Span){vmap_get(lo, v), vmap_get(hi, v)};
    return true;
  }
  bool ok = span_of_inst(x, v, out, depth); /* no cycle: a loop's counter takes start and limit from outside it */
  if (ok && x->nguards) apart_guards_narrow(x, v, out, depth);
  if (ok) vmap_put(lo, v, out->lo), vmap_put(hi, v, out->hi);
  return ok;
}
