/* A thread's share of a 1-D worksharing loop, run in three parts.
 *
 * Where a region's worksharing loop is itself the innermost loop (a 1-D stencil: b[i] from a[i-1], a[i],
 * a[i+1]), each thread's whole share is one run of it, and the run's first and last iterations read the
 * neighbours' points. The reverse sweep decides per run whether all of its reads are the thread's own
 * (rev_shared.c): such a run never is, so every read of it tests its address, and the loop is not
 * vectorised. Here the run is cut, before differentiating, into its first EDGE iterations, the middle and
 * its last EDGE iterations: an outer loop over the three parts around the unchanged loop, whose start and
 * end it sets. The middle part's reads are the thread's own (a stencil reaching at most EDGE points to
 * either side), and its reverse runs the loop's plain copy; the edges, short, test their reads. The
 * primal computes the same iterations in the same order.
 *
 * Only for a loop that starts at the lower bound a static worksharing init gave the thread, counts up by
 * one to a limit it compares for equality (the counter's next value, or that value truncated to the
 * limit's type where an `int` counter was widened), leaves only from its latch, and reads one object at
 * two or more places per iteration; its values used after it only through phis of its exit. */
#include "omp/omp.h"

#include <stdlib.h>
#include <string.h>

#include "ir/cfg.h"
#include "ir/ir.h"

enum { EDGE = 8, PARTS = 3 };

/* Whether v is, through an integer extension, a load of the lower bound a __kmpc_for_static_init call
 * fills in (plower, its argument 4). */
static bool static_lower_bound(LLVMValueRef v) {
  if (LLVMIsASExtInst(v) || LLVMIsAZExtInst(v)) v = LLVMGetOperand(v, 0);
  if (!LLVMIsALoadInst(v)) return false;
  LLVMValueRef slot = LLVMGetOperand(v, 0);
  for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef call = LLVMGetUser(u);
    if (ir_is_call(call) && !strncmp(ir_called_name(call), "__kmpc_for_static_init", 22) && ir_num_call_args(call) > 4 &&
        LLVMGetArgOperand(call, 4) == slot)
      return true;
  }
  return false;
}

/* Whether the loop reads some object at two different addresses per iteration (a stencil's neighbours). */
static bool reads_neighbours(const Cfg *cfg, const CfgLoop *l) {
  ValueList seen = {0};
  bool found = false;
  for (size_t b = 0; b < cfg->blocks.len && !found; b++) {
    if (!l->body[b]) continue;
    for (LLVMValueRef i = LLVMGetFirstInstruction(cfg->blocks.data[b]); i && !found; i = LLVMGetNextInstruction(i)) {
      if (!LLVMIsALoadInst(i) || !ir_is_fp(LLVMTypeOf(i))) continue;
      LLVMValueRef p = LLVMGetOperand(i, 0), root = ir_address_base(p);
      for (size_t k = 0; k < seen.len && !found; k++)
        found = ir_address_base(seen.data[k]) == root && seen.data[k] != p;
      vec_push(&seen, p);
    }
  }
  vec_free(&seen);
  return found;
}

/* Whether every use of the loop's values outside it is a phi of `exit` taking it from the latch. */
static bool used_after_only_by_exit_phis(const Cfg *cfg, const CfgLoop *l, LLVMBasicBlockRef exit) {
  for (size_t b = 0; b < cfg->blocks.len; b++) {
    if (!l->body[b]) continue;
    for (LLVMValueRef i = LLVMGetFirstInstruction(cfg->blocks.data[b]); i; i = LLVMGetNextInstruction(i))
      for (LLVMUseRef u = LLVMGetFirstUse(i); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        LLVMBasicBlockRef at = LLVMGetInstructionParent(user);
        int k = cfg_index(cfg, at);
        if (k >= 0 && l->body[k]) continue;
        if (at != exit || !LLVMIsAPHINode(user)) return false;
        for (unsigned n = 0; n < LLVMCountIncoming(user); n++)
          if (LLVMGetIncomingValue(user, n) == i && LLVMGetIncomingBlock(user, n) != l->latch) return false;
      }
  }
  return true;
}

static LLVMValueRef incoming_from(LLVMValueRef phi, LLVMBasicBlockRef bb) {
  for (unsigned n = 0; n < LLVMCountIncoming(phi); n++)
    if (LLVMGetIncomingBlock(phi, n) == bb) return LLVMGetIncomingValue(phi, n);
  return NULL;
}

typedef struct {
  LLVMValueRef iv, next, start, limit, branch;
  bool exit_on_true;
  bool narrow; /* the test is on next truncated to limit's type (clang's `int` counter widened) */
  LLVMBasicBlockRef exit;
} Shape;

/* The loop's counter and exit, where it has the shape above. */
static bool shape_of(const Cfg *cfg, const CfgLoop *l, Shape *s) {
  if (!l->preheader || !l->latch) return false;
  LLVMValueRef pt = LLVMGetBasicBlockTerminator(l->preheader);
  if (!pt || LLVMGetNumSuccessors(pt) != 1) return false;
  for (size_t b = 0; b < cfg->blocks.len; b++) { /* leaving only from the latch */
    LLVMBasicBlockRef bb = cfg->blocks.data[b];
    if (!l->body[b] || bb == l->latch) continue;
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    for (unsigned k = 0, n = t ? LLVMGetNumSuccessors(t) : 0; k < n; k++) {
      int at = cfg_index(cfg, LLVMGetSuccessor(t, k));
      if (at < 0 || !l->body[at]) return false;
    }
  }
  LLVMValueRef br = LLVMGetBasicBlockTerminator(l->latch);
  if (!br || !LLVMIsABranchInst(br) || !LLVMIsConditional(br)) return false;
  int in0 = cfg_index(cfg, LLVMGetSuccessor(br, 0)), in1 = cfg_index(cfg, LLVMGetSuccessor(br, 1));
  bool inside0 = in0 >= 0 && l->body[in0], inside1 = in1 >= 0 && l->body[in1];
  if (inside0 == inside1) return false;
  s->exit_on_true = !inside0;
  s->exit = LLVMGetSuccessor(br, s->exit_on_true ? 0 : 1);
  s->branch = br;
  LLVMValueRef c = LLVMGetCondition(br);
  if (!LLVMIsAICmpInst(c) || LLVMGetInstructionParent(c) != l->latch) return false;
  LLVMIntPredicate p = LLVMGetICmpPredicate(c);
  if (!((p == LLVMIntEQ && s->exit_on_true) || (p == LLVMIntNE && !s->exit_on_true))) return false;
  for (LLVMValueRef phi = LLVMGetFirstInstruction(l->header); phi && LLVMIsAPHINode(phi); phi = LLVMGetNextInstruction(phi)) {
    LLVMValueRef next = incoming_from(phi, l->latch), start = incoming_from(phi, l->preheader);
    if (!next || !start || !LLVMIsAInstruction(next) || LLVMGetInstructionOpcode(next) != LLVMAdd || LLVMGetOperand(next, 0) != phi) continue;
    LLVMValueRef one = LLVMGetOperand(next, 1);
    if (!LLVMIsAConstantInt(one) || LLVMConstIntGetSExtValue(one) != 1 || !static_lower_bound(start)) continue;
    for (int side = 0; side < 2; side++) {
      LLVMValueRef lim = LLVMGetOperand(c, (unsigned)!side), tested = LLVMGetOperand(c, (unsigned)side);
      int at = LLVMIsAInstruction(lim) ? cfg_index(cfg, LLVMGetInstructionParent(lim)) : -1;
      /* narrowed: the wide counter is the narrow one extended (start too), counting up without wrapping */
      bool narrow = LLVMIsATruncInst(tested) && LLVMGetOperand(tested, 0) == next && LLVMIsASExtInst(start);
      if ((tested != next && !narrow) || (at >= 0 && l->body[at])) continue;
      *s = (Shape){phi, next, start, lim, br, s->exit_on_true, narrow, s->exit};
      return true;
    }
  }
  return false;
}

static bool listed(const ValueList *l, LLVMValueRef v) {
  for (size_t k = 0; k < l->len; k++)
    if (l->data[k] == v) return true;
  return false;
}

static void segment(LLVMContextRef ctx, const CfgLoop *l, const Shape *s) {
  LLVMValueRef fn = LLVMGetBasicBlockParent(l->header);
  LLVMTypeRef t = LLVMTypeOf(s->iv), i32 = LLVMInt32TypeInContext(ctx);
  LLVMBasicBlockRef oh = LLVMAppendBasicBlockInContext(ctx, fn, "parts");
  LLVMBasicBlockRef ph = LLVMAppendBasicBlockInContext(ctx, fn, "part");
  LLVMBasicBlockRef ex = LLVMAppendBasicBlockInContext(ctx, fn, "part.end");
  LLVMBasicBlockRef ol = LLVMAppendBasicBlockInContext(ctx, fn, "parts.next");
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);

  /* the part: its number, the values the loop carries as it enters it, its iterations */
  LLVMPositionBuilderAtEnd(b, oh);
  LLVMValueRef part = LLVMBuildPhi(b, i32, "part.index");
  ValueList carried = {0}, entering = {0}, inits = {0};
  for (LLVMValueRef phi = LLVMGetFirstInstruction(l->header); phi && LLVMIsAPHINode(phi); phi = LLVMGetNextInstruction(phi)) {
    if (phi == s->iv) continue;
    vec_push(&carried, phi);
    vec_push(&inits, incoming_from(phi, l->preheader));
    vec_push(&entering, LLVMBuildPhi(b, LLVMTypeOf(phi), ""));
  }
  /* the iterations start, start + 1, ..., limit - 1, wrapping: [start, a), [a, z), [z, limit) */
  LLVMValueRef limit = s->narrow ? LLVMBuildSExt(b, s->limit, t, "") : s->limit;
  LLVMValueRef span = LLVMBuildSub(b, limit, s->start, "");
  LLVMValueRef args[2] = {span, LLVMConstInt(t, EDGE, 0)};
  LLVMValueRef first = ir_call_intrinsic(b, "llvm.umin", &t, 1, args, 2);
  LLVMValueRef a = LLVMBuildAdd(b, s->start, first, "");
  args[0] = LLVMBuildSub(b, span, first, "");
  LLVMValueRef z = LLVMBuildSub(b, limit, ir_call_intrinsic(b, "llvm.umin", &t, 1, args, 2), "");
  LLVMValueRef is0 = LLVMBuildICmp(b, LLVMIntEQ, part, LLVMConstInt(i32, 0, 0), "");
  LLVMValueRef is1 = LLVMBuildICmp(b, LLVMIntEQ, part, LLVMConstInt(i32, 1, 0), "");
  LLVMValueRef lo = LLVMBuildSelect(b, is0, s->start, LLVMBuildSelect(b, is1, a, z, ""), "part.lo");
  LLVMValueRef hi = LLVMBuildSelect(b, is0, a, LLVMBuildSelect(b, is1, z, limit, ""), "part.hi");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, lo, hi, ""), ol, ph);
  LLVMPositionBuilderAtEnd(b, ph);
  LLVMBuildBr(b, l->header);
  LLVMValueRef pt = LLVMGetBasicBlockTerminator(l->preheader);
  for (unsigned k = 0; k < LLVMGetNumSuccessors(pt); k++)
    if (LLVMGetSuccessor(pt, k) == l->header) LLVMSetSuccessor(pt, k, oh);

  /* the loop runs the part's iterations, entered from the part's block, and leaves to the next part */
  for (size_t k = 0; k < carried.len; k++) carried.data[k] = cfg_phi_reroute(carried.data[k], l->preheader, ph, entering.data[k]);
  cfg_phi_reroute(s->iv, l->preheader, ph, lo);
  LLVMPositionBuilderBefore(b, s->branch);
  LLVMValueRef test = LLVMGetCondition(s->branch);
  LLVMSetCondition(s->branch, LLVMBuildICmp(b, s->exit_on_true ? LLVMIntEQ : LLVMIntNE, s->next, hi, "part.done"));
  if (!LLVMGetFirstUse(test)) {
    LLVMValueRef narrowed = s->narrow ? LLVMGetOperand(test, LLVMGetOperand(test, 0) == s->limit ? 1 : 0) : NULL;
    LLVMInstructionEraseFromParent(test);
    if (narrowed && !LLVMGetFirstUse(narrowed)) LLVMInstructionEraseFromParent(narrowed);
  }
  LLVMSetSuccessor(s->branch, s->exit_on_true ? 0 : 1, ex);
  LLVMPositionBuilderAtEnd(b, ex);
  LLVMBuildBr(b, ol);

  /* what leaves a part: the carried values (their latch values) and the loop's values the exit's phis
     take, the part's own or, for a part skipped empty, those it was entered with */
  ValueList leaving_of = {0}; /* the loop's values, then per value its phi in `ol` */
  for (size_t k = 0; k < carried.len; k++) vec_push(&leaving_of, incoming_from(carried.data[k], l->latch));
  ValueList after = {0};
  for (LLVMValueRef phi = LLVMGetFirstInstruction(s->exit); phi && LLVMIsAPHINode(phi); phi = LLVMGetNextInstruction(phi)) {
    LLVMValueRef v = incoming_from(phi, l->latch);
    if (v && LLVMIsAInstruction(v) && !listed(&after, v)) vec_push(&after, v);
  }
  LLVMPositionBuilderBeforeInstrAndDbgRecords(b, LLVMGetFirstInstruction(oh)); /* phis before debug records */
  for (size_t k = 0; k < after.len; k++) vec_push(&entering, LLVMBuildPhi(b, LLVMTypeOf(after.data[k]), ""));
  for (size_t k = 0; k < after.len; k++) vec_push(&leaving_of, after.data[k]);
  LLVMPositionBuilderAtEnd(b, ol);
  ValueList leaving = {0};
  for (size_t k = 0; k < leaving_of.len; k++) {
    LLVMValueRef phi = LLVMBuildPhi(b, LLVMTypeOf(entering.data[k]), "");
    LLVMValueRef vals[2] = {leaving_of.data[k], entering.data[k]};
    LLVMBasicBlockRef from[2] = {ex, oh};
    LLVMAddIncoming(phi, vals, from, 2);
    vec_push(&leaving, phi);
  }
  LLVMValueRef next = LLVMBuildAdd(b, part, LLVMConstInt(i32, 1, 0), "");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, next, LLVMConstInt(i32, PARTS, 0), ""), s->exit, oh);
  LLVMValueRef pv[2] = {LLVMConstInt(i32, 0, 0), next};
  LLVMBasicBlockRef pb[2] = {l->preheader, ol};
  LLVMAddIncoming(part, pv, pb, 2);
  for (size_t k = 0; k < entering.len; k++) {
    /* the first part is never empty (the loop runs at least once): nothing reads the poison */
    LLVMValueRef vals[2] = {k < inits.len ? inits.data[k] : LLVMGetPoison(LLVMTypeOf(entering.data[k])), leaving.data[k]};
    LLVMAddIncoming(entering.data[k], vals, pb, 2);
  }
  /* the exit's phis take the last part's values */
  ValueList phis = {0};
  for (LLVMValueRef phi = LLVMGetFirstInstruction(s->exit); phi && LLVMIsAPHINode(phi); phi = LLVMGetNextInstruction(phi))
    vec_push(&phis, phi);
  for (size_t k = 0; k < phis.len; k++) {
    LLVMValueRef v = incoming_from(phis.data[k], l->latch), value = v;
    for (size_t j = 0; j < after.len; j++)
      if (after.data[j] == v) value = leaving.data[carried.len + j];
    cfg_phi_reroute(phis.data[k], l->latch, ol, value);
  }
  vec_free(&phis);
  vec_free(&carried);
  vec_free(&entering);
  vec_free(&inits);
  vec_free(&after);
  vec_free(&leaving_of);
  vec_free(&leaving);
  LLVMDisposeBuilder(b);
}

unsigned omp_segment_runs(LLVMModuleRef m) {
  unsigned done = 0;
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
    if (LLVMIsDeclaration(fn) || ir_fn_has_attr(fn, "optnone")) continue;
    bool forked = false; /* a parallel region's function */
    for (LLVMUseRef u = LLVMGetFirstUse(fn); u && !forked; u = LLVMGetNextUse(u)) {
      LLVMValueRef call = LLVMGetUser(u);
      forked = ir_is_call(call) && omp_is_runtime_call(call) && omp_classify(call) == OMP_FORK && omp_fork_outlined(call) == fn;
    }
    if (!forked) continue;
    for (bool again = true; again;) { /* one loop at a time: the blocks change */
      again = false;
      Cfg cfg;
      cfg_build(fn, &cfg);
      CfgLoopList loops = {0};
      cfg_natural_loops(&cfg, &loops);
      for (size_t i = 0; i < loops.len && !again; i++) {
        CfgLoop *l = &loops.data[i];
        Shape s;
        bool innermost = true;
        for (size_t j = 0; j < loops.len; j++)
          if (j != i && cfg_in_loop(&cfg, l, loops.data[j].header)) innermost = false;
        if (!innermost || !shape_of(&cfg, l, &s) || !reads_neighbours(&cfg, l) || !used_after_only_by_exit_phis(&cfg, l, s.exit)) continue;
        segment(ctx, l, &s);
        done++;
        again = true;
      }
      for (size_t i = 0; i < loops.len; i++) free(loops.data[i].body);
      vec_free(&loops);
      cfg_free(&cfg);
    }
  }
  return done;
}
