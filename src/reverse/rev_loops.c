/* Loops in the reverse sweep: counted loops' induction variables run backwards, and values defined
 * before a loop are carried through it in slots (see Loop). */
#include <stdlib.h>

#include <llvm-c/DebugInfo.h>
#include <llvm-c/Target.h>

#include "reverse/rev_internal.h"

bool in_loop(RevGen *g, Loop *l, LLVMBasicBlockRef bb) {
  int i = cfg_index(&g->cfg, bb);
  return i >= 0 && l->body[i];
}

bool loop_invariant(RevGen *g, Loop *l, LLVMValueRef v) {
  return !LLVMIsAInstruction(v) || !in_loop(g, l, LLVMGetInstructionParent(v));
}

void address_span(RevGen *g, LLVMValueRef first, LLVMValueRef last, unsigned size, LLVMValueRef *lo, LLVMValueRef *hi) {
  LLVMValueRef ab[2] = {LLVMBuildPtrToInt(g->b, first, g->i64, ""), LLVMBuildPtrToInt(g->b, last, g->i64, "")};
  *lo = ir_call_intrinsic(g->b, "llvm.umin", &g->i64, 1, ab, 2);
  *hi = LLVMBuildAdd(g->b, ir_call_intrinsic(g->b, "llvm.umax", &g->i64, 1, ab, 2), LLVMConstInt(g->i64, size, 0), "");
}

/* An ordered test of iv + step against limit, read as "the loop goes on while next P limit": whether it
 * counts (P is < or <= for a step of 1, > or >= for a step of -1, and the step cannot wrap), and how. */
static bool ordered_test(Loop *l, Induction *iv, LLVMValueRef next, LLVMIntPredicate p) {
  long long step = LLVMConstIntGetSExtValue(iv->step);
  bool up = p == LLVMIntSLT || p == LLVMIntSLE || p == LLVMIntULT || p == LLVMIntULE;
  bool down = p == LLVMIntSGT || p == LLVMIntSGE || p == LLVMIntUGT || p == LLVMIntUGE;
  bool is_signed = p == LLVMIntSLT || p == LLVMIntSLE || p == LLVMIntSGT || p == LLVMIntSGE;
  if (!((up && step == 1) || (down && step == -1))) return false;
  if (is_signed ? !LLVMGetNSW(next) : (down || !LLVMGetNUW(next))) return false;
  l->ordered = true;
  l->inclusive = p == LLVMIntSLE || p == LLVMIntULE || p == LLVMIntSGE || p == LLVMIntUGE;
  l->is_signed = is_signed;
  return true;
}

/* going on while iv P limit, strictly, as a test of iv + 1 (step 1) or iv - 1 (step -1): iv < limit is
 * iv + 1 <= limit, the step not wrapping (ordered_test); EQ where there is none */
static LLVMIntPredicate on_next(LLVMIntPredicate p) {
  switch (p) {
  case LLVMIntSLT: return LLVMIntSLE;
  case LLVMIntULT: return LLVMIntULE;
  case LLVMIntSGT: return LLVMIntSGE;
  case LLVMIntUGT: return LLVMIntUGE;
  default: return LLVMIntEQ;
  }
}

/* The loop leaves only from its latch, when iv + step == limit (limit the same in every iteration): its
 * trip count is known when it starts. Also when the test is on iv + step truncated, for a step of 1 or -1
 * (clang's `int` loop variable widened to 64 bits, compared at 32, as in every OpenMP loop with an `int`
 * index): the count is then the narrow difference, whatever the wide values' signs. And when it leaves
 * once iv + step reaches or passes limit, stepping by 1 or -1 (ordered_test; or iv itself passes it:
 * iv < limit), or after the iteration where iv itself is limit (clang's test of
 * `for (i = n - 1; i >= 0; i--)`: i == 0). */
static bool exit_test(RevGen *g, Loop *l) {
  for (size_t b = 0; b < g->cfg.blocks.len; b++) {
    if (!l->body[b] || g->cfg.blocks.data[b] == l->latch) continue;
    LLVMValueRef term = LLVMGetBasicBlockTerminator(g->cfg.blocks.data[b]);
    for (unsigned i = 0, k = term ? LLVMGetNumSuccessors(term) : 0; i < k; i++)
      if (!in_loop(g, l, LLVMGetSuccessor(term, i))) return false;
  }
  LLVMValueRef br = LLVMGetBasicBlockTerminator(l->latch);
  if (!br || !LLVMIsABranchInst(br) || !LLVMIsConditional(br)) return false;
  bool exit_on_true = !in_loop(g, l, LLVMGetSuccessor(br, 0));
  if (exit_on_true == !in_loop(g, l, LLVMGetSuccessor(br, 1))) return false;
  LLVMValueRef c = LLVMGetCondition(br);
  if (!LLVMIsAICmpInst(c)) return false;
  LLVMIntPredicate pred = LLVMGetICmpPredicate(c);
  bool equality = (pred == LLVMIntEQ && exit_on_true) || (pred == LLVMIntNE && !exit_on_true);
  /* going on while `operand 0 P operand 1` */
  LLVMIntPredicate going_on = exit_on_true ? ir_icmp_inverse(pred) : pred;
  for (size_t k = 0; k < l->ivs.len; k++) {
    Induction *iv = &l->ivs.data[k];
    LLVMValueRef next = NULL;
    for (unsigned i = 0; i < LLVMCountIncoming(iv->phi); i++)
      if (LLVMGetIncomingBlock(iv->phi, i) == l->latch) next = LLVMGetIncomingValue(iv->phi, i);
    for (int side = 0; side < 2; side++) {
      LLVMValueRef a = LLVMGetOperand(c, (unsigned)side), lim = LLVMGetOperand(c, (unsigned)!side);
      if (!loop_invariant(g, l, lim)) continue;
      if (!equality) {
        LLVMIntPredicate p = side ? ir_icmp_swapped(going_on) : going_on;
        /* on iv itself (the inner loop of a chunked static schedule, entered with its chunk's first
           iteration, tests its last) */
        bool on_iv = a == iv->phi && next;
        if (on_iv) p = on_next(p);
        if ((a == next || on_iv) && p != LLVMIntEQ && ordered_test(l, iv, next, p)) {
          l->exit_iv = iv;
          l->limit = lim;
          return true;
        }
        continue;
      }
      long long step = LLVMConstIntGetSExtValue(iv->step);
      bool narrowed = LLVMIsATruncInst(a) && LLVMGetOperand(a, 0) == next && (step == 1 || step == -1);
      if (a == next || narrowed || a == iv->phi) {
        l->exit_iv = iv;
        l->limit = lim;
        l->limit_narrowed = narrowed;
        l->limit_current = a == iv->phi;
        return true;
      }
    }
  }
  return false;
}

static void make_counted(RevGen *g, Loop *l) {
  if (!l->latch) return;
  for (LLVMValueRef i = LLVMGetFirstInstruction(l->header); i && LLVMIsAPHINode(i); i = LLVMGetNextInstruction(i)) {
    Induction iv = {i, NULL, NULL, NULL};
    LLVMValueRef next; /* the start defined outside: the reverse sweep compares with it to know it is back */
    if (cfg_induction(&g->cfg, l->body, i, l->preheader, l->latch, &iv.start, &iv.step, &next)) vec_push(&l->ivs, iv);
  }
  /* a trip count known on entry, from a preheader that leads only into the loop */
  LLVMValueRef pt = LLVMGetBasicBlockTerminator(l->preheader);
  if (l->ivs.len && pt && LLVMGetNumSuccessors(pt) == 1) exit_test(g, l);
}

LLVMValueRef loop_trip(RevGen *g, Loop *l, LLVMValueRef (*value)(RevGen *, LLVMValueRef)) {
  Induction *iv = l->exit_iv;
  if (l->ordered) { /* the distance to the limit (plus one if reached inclusively), at least one iteration */
    LLVMValueRef start = LLVMBuildIntCast2(g->b, value(g, iv->start), g->i64, l->is_signed, "");
    LLVMValueRef limit = LLVMBuildIntCast2(g->b, value(g, l->limit), g->i64, l->is_signed, "");
    bool up = LLVMConstIntGetSExtValue(iv->step) > 0;
    LLVMValueRef span = up ? LLVMBuildSub(g->b, limit, start, "") : LLVMBuildSub(g->b, start, limit, "");
    if (l->inclusive) span = LLVMBuildAdd(g->b, span, LLVMConstInt(g->i64, 1, 0), "");
    LLVMValueRef none = l->is_signed || LLVMGetIntTypeWidth(LLVMTypeOf(iv->phi)) < 64
                            ? LLVMBuildICmp(g->b, LLVMIntSLT, span, LLVMConstInt(g->i64, 1, 0), "")
                            : LLVMBuildICmp(g->b, up ? LLVMIntULE : LLVMIntUGE, limit, start, "");
    return LLVMBuildSelect(g->b, none, LLVMConstInt(g->i64, 1, 0), span, "trip");
  }
  if (l->limit_narrowed) { /* trunc(start) + trip * step == limit, in the narrow type */
    LLVMValueRef limit = value(g, l->limit), start = LLVMBuildTrunc(g->b, value(g, iv->start), LLVMTypeOf(limit), "");
    LLVMValueRef span = LLVMConstIntGetSExtValue(iv->step) > 0 ? LLVMBuildSub(g->b, limit, start, "") : LLVMBuildSub(g->b, start, limit, "");
    return LLVMBuildZExt(g->b, span, g->i64, "trip");
  }
  LLVMValueRef span = LLVMBuildSub(g->b, value(g, l->limit), value(g, iv->start), "");
  LLVMValueRef trip = LLVMBuildSExt(g->b, LLVMBuildExactSDiv(g->b, span, iv->step, ""), g->i64, "trip");
  return l->limit_current ? LLVMBuildAdd(g->b, trip, LLVMConstInt(g->i64, 1, 0), "trip") : trip;
}

/* The block the loop exits to: its latch's successor outside it. */
static LLVMBasicBlockRef exit_block(RevGen *g, Loop *l) {
  LLVMValueRef br = LLVMGetBasicBlockTerminator(l->latch);
  return in_loop(g, l, LLVMGetSuccessor(br, 0)) ? LLVMGetSuccessor(br, 1) : LLVMGetSuccessor(br, 0);
}

/* A loop of a few iterations whose start and limit are constants (a stencil's offsets, -1 to 1; a
 * convolution's taps): its count costs nothing to compute and, known, lets the optimiser unroll the reverse
 * loop whole. Recorded, its counter took 4 to 8 bytes of tape per run (a 3 x 3 convolution's: 5.3
 * primals). Loops that branch were kept recorded once: unrolled, their reverse branches became selects,
 * and an adjoint update of a path not taken, made with zero, gave NaN where a partial there is infinite
 * (zero_adjoint_paths' `score`); such updates carry a zero adjoint as zero now (analysis/nonfinite.c), and
 * a padded convolution's taps, skipped at the borders with `continue`, count for nothing on the tape. */
enum { SHORT_CONSTANT_TRIP = 16 };

static bool short_constant(RevGen *g, Loop *l) {
  (void)g;
  if (!l->exit_iv || l->limit_narrowed || !LLVMIsAConstantInt(l->limit) || !LLVMIsAConstantInt(l->exit_iv->start)) return false;
  long long start = LLVMConstIntGetSExtValue(l->exit_iv->start), limit = LLVMConstIntGetSExtValue(l->limit);
  long long span = start < limit ? limit - start : start - limit;
  return span <= SHORT_CONSTANT_TRIP;
}

bool loop_short_constant(RevGen *g, Loop *l) { /* asked for every counter an address depends on: kept */
  if (!l->short_known) l->short_known = short_constant(g, l) ? 2 : 1;
  return l->short_known == 2;
}

/* Only for bounds read in a loop (a CSR row's extent: 16 bytes of tape per row saved) and short loops
 * between constants (above). Bounds that are constants of longer loops, counters of the loops around (a
 * triangle, a whole row) or read once are recorded as before:
 * computed, they left LLVM's loop vectoriser a reverse loop it vectorised and then dropped for its scalar copy
 * (gemm's gradient 2.7 -> 5.9 primals, syrk 1.5 -> 2.0, lu and fdtd2d about 20% slower; seidel2d alone
 * 30% faster), for 8 bytes per run of a loop of hundreds of iterations. */
bool loop_ends_recomputed(RevGen *g, Loop *l) {
  if (!l->ends_known) {
    bool free = l->exit_iv != NULL && (rev_read_in_loop(g, l->limit) || loop_short_constant(g, l));
    LLVMBasicBlockRef out = free ? exit_block(g, l) : NULL;
    unsigned budget = 24;
    free = free && rev_free_at(g, l->limit, out, false, &budget);
    for (size_t i = 0; i < l->ivs.len && free; i++) free = rev_free_at(g, l->ivs.data[i].start, out, false, &budget);
    l->ends_known = free ? 2 : 1;
  }
  return l->ends_known == 2;
}

LLVMValueRef loop_iv_at_last(RevGen *g, Induction *iv, LLVMValueRef start, LLVMValueRef trip) {
  /* start + (trip - 1) * step, in the variable's type (wrapping as the forward sweep's additions did) */
  LLVMTypeRef t = LLVMTypeOf(iv->phi);
  LLVMValueRef steps = LLVMBuildSub(g->b, LLVMBuildTruncOrBitCast(g->b, trip, t, ""), LLVMConstInt(t, 1, 0), "");
  return LLVMBuildAdd(g->b, start, LLVMBuildMul(g->b, steps, iv->step, ""), "last");
}

/* Whether the reverse sweep has start without a record of its own where it enters l's reverse: free there,
 * or the first counter's start, which it reads anyway to know when it is back at the first iteration. */
static bool start_at_hand(RevGen *g, Loop *l, LLVMValueRef start) {
  unsigned budget = 24;
  return start == l->ivs.data[0].start || rev_free_at(g, start, exit_block(g, l), false, &budget);
}

/* A counter that steps with the one the loop's exit tests (a triangle's row offset beside its column) is
 * where that one is, as many steps on: its last value follows from the other's, which is recorded, and
 * both starts (a record of 8 bytes less per run: the GMM objective's tape 153 -> 139 MB at n = 10000).
 * The exit counter steps by 1 or -1, so that its steps are counted exactly in the counters' own width. */
static bool sibling_derivable(RevGen *g, Loop *l, Induction *iv) {
  Induction *e = l->exit_iv;
  if (!e || iv == e || LLVMTypeOf(iv->phi) != LLVMTypeOf(e->phi)) return false;
  long long se = LLVMConstIntGetSExtValue(e->step);
  return (se == 1 || se == -1) && start_at_hand(g, l, iv->start) && start_at_hand(g, l, e->start);
}

LLVMValueRef loop_iv_last(RevGen *g, Loop *l, Induction *iv) {
  if (!loop_ends_recomputed(g, l)) {
    if (!sibling_derivable(g, l, iv)) return rv(g, iv->phi);
    Induction *e = l->exit_iv;
    LLVMValueRef steps = LLVMBuildSub(g->b, rv(g, e->phi), rv(g, e->start), "");
    if (LLVMConstIntGetSExtValue(e->step) < 0) steps = LLVMBuildNeg(g->b, steps, "");
    return LLVMBuildAdd(g->b, rv(g, iv->start), LLVMBuildMul(g->b, steps, iv->step, ""), "last");
  }
  return loop_iv_at_last(g, iv, rv(g, iv->start), loop_trip(g, l, rv));
}

void find_loops(RevGen *g) {
  CfgLoopList natural = {0};
  cfg_natural_loops(&g->cfg, &natural);
  for (size_t i = 0; i < natural.len; i++) {
    CfgLoop *c = &natural.data[i];
    Loop l = {.header = c->header, .body = c->body, .preheader = c->preheader, .latch = c->latch};
    make_counted(g, &l);
    vec_push(&g->loops, l);
  }
  vec_free(&natural);
}

void free_loops(RevGen *g) {
  for (size_t i = 0; i < g->loops.len; i++) {
    free(g->loops.data[i].body);
    free(g->loops.data[i].slots);
    vec_free(&g->loops.data[i].hoisted);
    vec_free(&g->loops.data[i].shared);
    free(g->loops.data[i].shared_slots);
    vec_free(&g->loops.data[i].ivs);
  }
  vec_free(&g->loops);
}

Induction *counted_iv_in(RevGen *g, LLVMValueRef v, LLVMBasicBlockRef bb) {
  for (size_t i = 0; i < g->loops.len; i++) {
    Loop *l = &g->loops.data[i];
    for (size_t k = 0; k < l->ivs.len; k++)
      if (l->ivs.data[k].phi == v && in_loop(g, l, bb)) return &l->ivs.data[k];
  }
  return NULL;
}

Loop *counted_header(RevGen *g, LLVMBasicBlockRef bb) {
  for (size_t i = 0; i < g->loops.len; i++)
    if (g->loops.data[i].header == bb && g->loops.data[i].ivs.len) return &g->loops.data[i];
  return NULL;
}

static size_t body_size(RevGen *g, Loop *l) {
  size_t n = 0;
  for (size_t b = 0; b < g->cfg.blocks.len; b++) n += l->body[b];
  return n;
}

/* The outermost loop around bb that the item's definition is outside of: the item is the same in
 * every iteration of it. Only for items defined in blocks that run more than once (the others are in
 * the frame, available everywhere). */
static Loop *invariant_loop(RevGen *g, Item it, LLVMBasicBlockRef bb) {
  LLVMBasicBlockRef def = item_def_block(g, it);
  if (!def || cfg_runs_once(&g->cfg, def)) return NULL;
  Loop *best = NULL;
  for (size_t i = 0; i < g->loops.len; i++) {
    Loop *l = &g->loops.data[i];
    if (in_loop(g, l, bb) && !in_loop(g, l, def) && (!best || body_size(g, l) > body_size(g, best))) best = l;
  }
  return best;
}

Loop *hoisting_loop(RevGen *g, Item it, LLVMBasicBlockRef bb, size_t *index) {
  if (it.kind != NEED_PRIMAL && it.kind != NEED_SHADOW) return NULL;
  Loop *l = invariant_loop(g, it, bb);
  if (!l) return NULL;
  long i = item_index(l->hoisted.data, l->hoisted.len, it);
  if (i < 0) return NULL;
  if (index) *index = (size_t)i;
  return l;
}

/* Each captured need of a block inside a loop it is invariant in becomes a need of the loop's exits
 * instead; those may hoist it further out. Repeats until nothing moves. */
void plan_hoisting(RevGen *g) {
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t b = 0; b < g->cfg.blocks.len; b++) {
      LLVMBasicBlockRef bb = g->cfg.blocks.data[b];
      for (size_t i = 0; i < g->plan[b].needs.len; i++) {
        Item it = g->plan[b].needs.data[i];
        if (it.kind != NEED_PRIMAL && it.kind != NEED_SHADOW) continue;
        if (hoisting_loop(g, it, bb, NULL)) continue;
        Loop *l = invariant_loop(g, it, bb);
        if (!l || !item_captured(g, bb, it)) continue;
        vec_push(&l->hoisted, it);
        changed = true;
        for (size_t e = 0; e < g->cfg.blocks.len; e++) {
          if (l->body[e]) continue;
          BlockList *preds = &g->cfg.preds[e];
          for (size_t k = 0; k < preds->len; k++)
            if (in_loop(g, l, preds->data[k])) {
              note_need(g, g->cfg.blocks.data[e], it.value, it.kind);
              break;
            }
        }
      }
    }
  }
}

int loop_iv_index(Loop *l, LLVMValueRef v) {
  for (size_t k = 0; k < l->ivs.len; k++)
    if (l->ivs.data[k].phi == v) return (int)k;
  return -1;
}

/* Whether an operation of a linear form keeps its value exactly in its type: wrap 0, it may wrap (the
 * forms of the 64-bit addresses); 1 and 2, it stands under a sign or zero extension and must not wrap
 * signed (nsw) or unsigned (nuw): else the extended form is not linear in the iterations. */
static bool keeps_value(LLVMValueRef v, int wrap) {
  return wrap == 0 || (wrap == 1 ? LLVMGetNSW(v) : LLVMGetNUW(v));
}

static bool linear_in(RevGen *g, Loop *l, LLVMValueRef v, int depth, bool exact, int wrap) {
  if (loop_invariant(g, l, v)) return true;
  int k = loop_iv_index(l, v);
  if (k >= 0) { /* the variable's own step, under an extension */
    if (!exact || !wrap) return true;
    for (unsigned i = 0; i < LLVMCountIncoming(v); i++)
      if (LLVMGetIncomingBlock(v, i) == l->latch) return keeps_value(LLVMGetIncomingValue(v, i), wrap);
    return false;
  }
  if (depth > 16) return false;
  LLVMValueRef a = LLVMGetOperand(v, 0), b = LLVMGetNumOperands(v) > 1 ? LLVMGetOperand(v, 1) : NULL;
  int w = exact ? wrap : 0;
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMAdd:
  case LLVMSub: return keeps_value(v, w) && linear_in(g, l, a, depth + 1, exact, wrap) && linear_in(g, l, b, depth + 1, exact, wrap);
  case LLVMMul:
    return keeps_value(v, w) && ((loop_invariant(g, l, a) && linear_in(g, l, b, depth + 1, exact, wrap)) ||
                                 (loop_invariant(g, l, b) && linear_in(g, l, a, depth + 1, exact, wrap)));
  case LLVMShl: return keeps_value(v, w) && LLVMIsAConstantInt(b) && linear_in(g, l, a, depth + 1, exact, wrap);
  case LLVMOr: return LLVMGetIsDisjoint(v) && LLVMIsAConstantInt(b) && linear_in(g, l, a, depth + 1, exact, wrap); /* x + c */
  case LLVMSExt: return linear_in(g, l, a, depth + 1, exact, 1);
  case LLVMZExt: return linear_in(g, l, a, depth + 1, exact, 2);
  case LLVMBitCast:
  case LLVMAddrSpaceCast: return linear_in(g, l, a, depth + 1, exact, wrap);
  case LLVMGetElementPtr:
    for (unsigned i = 0, n = (unsigned)LLVMGetNumOperands(v); i < n; i++)
      if (!linear_in(g, l, LLVMGetOperand(v, i), depth + 1, exact, wrap)) return false;
    return true;
  default: return false;
  }
}

bool loop_linear(RevGen *g, Loop *l, LLVMValueRef v, int depth) { return linear_in(g, l, v, depth, false, 0); }

bool loop_constant_step(RevGen *g, Loop *l, LLVMValueRef v, long long *step, int depth) {
  *step = 0;
  if (loop_invariant(g, l, v)) return true;
  int k = loop_iv_index(l, v);
  if (k >= 0) {
    *step = LLVMConstIntGetSExtValue(l->ivs.data[k].step);
    return true;
  }
  if (depth > 16 || !LLVMIsAInstruction(v)) return false;
  if (LLVMIsAPHINode(v)) /* a counter of a loop inside l starts each run where its start is */
    for (size_t i = 0; i < g->loops.len; i++) {
      Loop *m = &g->loops.data[i];
      int j = loop_iv_index(m, v);
      if (m != l && j >= 0 && in_loop(g, l, m->header)) return loop_constant_step(g, l, m->ivs.data[j].start, step, depth + 1);
    }
  LLVMValueRef a = LLVMGetOperand(v, 0), b = LLVMGetNumOperands(v) > 1 ? LLVMGetOperand(v, 1) : NULL;
  long long sa, sb;
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMAdd:
  case LLVMSub:
    if (!loop_constant_step(g, l, a, &sa, depth + 1) || !loop_constant_step(g, l, b, &sb, depth + 1)) return false;
    *step = LLVMGetInstructionOpcode(v) == LLVMAdd ? sa + sb : sa - sb;
    return true;
  case LLVMMul: {
    LLVMValueRef c = LLVMIsAConstantInt(b) ? b : LLVMIsAConstantInt(a) ? a : NULL;
    if (!c || !loop_constant_step(g, l, c == b ? a : b, &sa, depth + 1)) return false;
    *step = sa * LLVMConstIntGetSExtValue(c);
    return true;
  }
  case LLVMShl:
    if (!LLVMIsAConstantInt(b) || LLVMConstIntGetZExtValue(b) > 32 || !loop_constant_step(g, l, a, &sa, depth + 1)) return false;
    *step = sa * (1LL << LLVMConstIntGetZExtValue(b));
    return true;
  case LLVMOr:
    return LLVMGetIsDisjoint(v) && LLVMIsAConstantInt(b) && loop_constant_step(g, l, a, step, depth + 1);
  case LLVMSExt:
  case LLVMZExt:
  case LLVMTrunc:
  case LLVMBitCast:
  case LLVMAddrSpaceCast: return loop_constant_step(g, l, a, step, depth + 1);
  case LLVMGetElementPtr: {
    if (!loop_constant_step(g, l, a, step, depth + 1)) return false;
    LLVMTypeRef t = LLVMGetGEPSourceElementType(v);
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(g->ad->mod);
    for (unsigned i = 1, n = (unsigned)LLVMGetNumOperands(v); i < n; i++) {
      LLVMValueRef idx = LLVMGetOperand(v, i);
      if (i > 1 && LLVMGetTypeKind(t) == LLVMStructTypeKind) {
        t = LLVMStructGetTypeAtIndex(t, (unsigned)LLVMConstIntGetZExtValue(idx));
        continue;
      }
      if (i > 1) {
        if (LLVMGetTypeKind(t) != LLVMArrayTypeKind) return false;
        t = LLVMGetElementType(t);
      }
      if (!LLVMTypeIsSized(t) || !loop_constant_step(g, l, idx, &sa, depth + 1)) return false;
      *step += sa * (long long)LLVMABISizeOfType(td, t);
    }
    return true;
  }
  default: return false;
  }
}

bool loop_linear_exact(RevGen *g, Loop *l, LLVMValueRef v) { return linear_in(g, l, v, 0, true, 0); }

/* A clone evaluated at an iteration the program may skip (a run's first or last, whose access a guard left
 * out: `if (x + dx < 0) continue;`) keeps no promise the program's instruction made: the flags that make
 * poison go. */
static void promise_nothing(LLVMValueRef c) {
  switch (LLVMGetInstructionOpcode(c)) {
  case LLVMAdd:
  case LLVMSub:
  case LLVMMul:
  case LLVMShl:
    LLVMSetNSW(c, 0), LLVMSetNUW(c, 0);
    break;
  case LLVMGetElementPtr: LLVMSetIsInBounds(c, 0); break;
  case LLVMUDiv:
  case LLVMSDiv:
  case LLVMLShr:
  case LLVMAShr: LLVMSetExact(c, 0); break;
  case LLVMOr: LLVMSetIsDisjoint(c, 0); break;
  default: break;
  }
}

/* v rebuilt at the builder from `ops`, its operands evaluated elsewhere, keeping none of its promises. A
 * widening the optimiser marked `zext nneg`, where a guard made the index non-negative, is the sign
 * extension it equals at every iteration the program runs: at a skipped one, -1 widened by zero is 2^32 - 1,
 * an address 16 GiB on, which a float stencil's noted range took and the runtime copied. */
LLVMValueRef loop_rebuild(RevGen *g, LLVMValueRef v, LLVMValueRef *ops) {
  if (LLVMGetInstructionOpcode(v) == LLVMZExt && LLVMGetNNeg(v)) return LLVMBuildSExt(g->b, ops[0], LLVMTypeOf(v), "");
  LLVMValueRef c = LLVMInstructionClone(v);
  for (unsigned i = 0, n = (unsigned)LLVMGetNumOperands(v); i < n; i++) LLVMSetOperand(c, i, ops[i]);
  LLVMInsertIntoBuilder(g->b, c);
  LLVMInstructionSetDebugLoc(c, NULL);
  promise_nothing(c);
  return c;
}

LLVMValueRef loop_evaluate(RevGen *g, Loop *l, LLVMValueRef v, LLVMValueRef *at, LLVMValueRef (*value)(RevGen *, LLVMValueRef)) {
  int k = loop_iv_index(l, v);
  if (k >= 0) return at[k];
  if (loop_invariant(g, l, v)) return LLVMIsAInstruction(v) || LLVMIsAArgument(v) ? value(g, v) : v;
  unsigned n = (unsigned)LLVMGetNumOperands(v);
  LLVMValueRef *ops = xcalloc(n + 1, sizeof *ops);
  for (unsigned i = 0; i < n; i++) ops[i] = loop_evaluate(g, l, LLVMGetOperand(v, i), at, value);
  LLVMValueRef c = loop_rebuild(g, v, ops);
  free(ops);
  return c;
}

/* The smallest loop around bb other than `except`. */
static Loop *smallest_around(RevGen *g, LLVMBasicBlockRef bb, const Loop *except) {
  Loop *best = NULL;
  size_t best_size = 0;
  for (size_t i = 0; i < g->loops.len; i++) {
    Loop *l = &g->loops.data[i];
    if (l == except || !in_loop(g, l, bb)) continue;
    size_t size = 0;
    for (size_t b = 0; b < g->cfg.blocks.len; b++) size += l->body[b];
    if (!best || size < best_size) best = l, best_size = size;
  }
  return best;
}

Loop *loop_innermost(RevGen *g, LLVMBasicBlockRef bb) { return smallest_around(g, bb, NULL); }

Loop *loop_around(RevGen *g, Loop *l) { return smallest_around(g, l->header, l); }

void loop_first_and_last(RevGen *g, Loop *l, LLVMValueRef trip, LLVMValueRef *first, LLVMValueRef *last,
                         LLVMValueRef (*value)(RevGen *, LLVMValueRef)) {
  for (size_t k = 0; k < l->ivs.len; k++) {
    first[k] = value(g, l->ivs.data[k].start);
    if (trip) last[k] = loop_iv_at_last(g, &l->ivs.data[k], first[k], trip);
  }
}
