/* Adjoint updates that add zero, skipped (see reverse.h).
 *
 * A reverse sweep enters the reverse of a block with the adjoints its successors in the program left. Where
 * the program branched (a pair beyond the cut-off, the side of a maximum not taken), one of those paths
 * leaves an adjoint of zero, and after the optimiser the block's adjoint is a phi: zero from the blocks of
 * that path, a value from the others. Every update the block makes into memory with a multiple of that
 * phi (`dx[j] -= 2 rx * ab`) then adds zero on that path, a load and a store each, an atomic in a team.
 * The block gets a copy for the predecessors whose phis are zero, where those phis and every value zero
 * with them are the constant zero and those updates are left out; the optimiser then drops what only fed
 * them.
 *
 * Zero times a value is taken as zero even where the value is infinite or not a number (the rule of a
 * structural zero, as other AD tools have it): that value is a partial derivative on a path the program
 * did not take. */
#include "reverse/reverse.h"

#include <stdlib.h>
#include <string.h>

#include "ad/constants.h"
#include "ir/cfg.h"
#include "ir/ir.h"
#include "ir/valuemap.h"

static bool zero_constant(LLVMValueRef v) {
  return v && (LLVMIsAConstantAggregateZero(v) || (LLVMIsAConstantFP(v) && ir_is_const_zero(v)));
}

static bool undefined(LLVMValueRef v) { return LLVMIsAUndefValue(v) || LLVMIsAPoisonValue(v); }

/* Whether v is zero when the phis in `zero` are: a product or quotient of one, sums of such, a vector
 * built of them. */
static bool is_zero(const ValueMap *zero, LLVMValueRef v) {
  if (zero_constant(v) || vmap_has(zero, v)) return true;
  if (!LLVMIsAInstruction(v)) return false;
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMFMul: return vmap_has(zero, LLVMGetOperand(v, 0)) || vmap_has(zero, LLVMGetOperand(v, 1));
  case LLVMFDiv: return vmap_has(zero, LLVMGetOperand(v, 0));
  case LLVMFNeg:
  case LLVMFPExt:
  case LLVMFPTrunc: return vmap_has(zero, LLVMGetOperand(v, 0));
  case LLVMFAdd:
  case LLVMFSub: return is_zero(zero, LLVMGetOperand(v, 0)) && is_zero(zero, LLVMGetOperand(v, 1));
  case LLVMSelect: return is_zero(zero, LLVMGetOperand(v, 1)) && is_zero(zero, LLVMGetOperand(v, 2));
  case LLVMInsertElement:
    return vmap_has(zero, LLVMGetOperand(v, 1)) && (undefined(LLVMGetOperand(v, 0)) || is_zero(zero, LLVMGetOperand(v, 0)));
  case LLVMShuffleVector:
    return vmap_has(zero, LLVMGetOperand(v, 0)) && (undefined(LLVMGetOperand(v, 1)) || is_zero(zero, LLVMGetOperand(v, 1)));
  case LLVMCall: {
    const char *name = ir_called_name(v);
    if (strncmp(name, "llvm.fmuladd.", 13) && strncmp(name, "llvm.fma.", 9)) return false;
    return (vmap_has(zero, LLVMGetOperand(v, 0)) || vmap_has(zero, LLVMGetOperand(v, 1))) && is_zero(zero, LLVMGetOperand(v, 2));
  }
  default: return false;
  }
}

static bool writes_memory(LLVMValueRef i) {
  return LLVMIsAStoreInst(i) || LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i) || LLVMIsAFenceInst(i) ||
         (ir_is_call(i) && !LLVMIsADbgInfoIntrinsic(i));
}

/* Whether inst, in block bb, adds a value of `zero` into memory: `store (load p) + z, p` (or z + load, or
 * load - z), the load in bb with nothing that writes memory between it and the store; an atomic add. */
static bool adds_zero(const ValueMap *zero, LLVMValueRef inst) {
  if (LLVMIsAAtomicRMWInst(inst)) {
    LLVMAtomicRMWBinOp op = LLVMGetAtomicRMWBinOp(inst);
    return (op == LLVMAtomicRMWBinOpFAdd || op == LLVMAtomicRMWBinOpFSub) && !LLVMGetFirstUse(inst) &&
           vmap_has(zero, LLVMGetOperand(inst, 1));
  }
  if (!LLVMIsAStoreInst(inst) || LLVMGetVolatile(inst) || LLVMGetOrdering(inst) != LLVMAtomicOrderingNotAtomic) return false;
  LLVMValueRef sum = LLVMGetOperand(inst, 0), p = LLVMGetOperand(inst, 1);
  if (!LLVMIsAInstruction(sum) || LLVMGetInstructionParent(sum) != LLVMGetInstructionParent(inst)) return false;
  LLVMOpcode op = LLVMGetInstructionOpcode(sum);
  if (op != LLVMFAdd && op != LLVMFSub) return false;
  for (unsigned k = 0; k < 2; k++) {
    LLVMValueRef load = LLVMGetOperand(sum, k), z = LLVMGetOperand(sum, 1 - k);
    if ((op == LLVMFSub && k == 1) || !LLVMIsALoadInst(load) || LLVMGetOperand(load, 0) != p || LLVMGetVolatile(load) ||
        LLVMGetInstructionParent(load) != LLVMGetInstructionParent(inst) || !vmap_has(zero, z))
      continue;
    LLVMValueRef i = LLVMGetNextInstruction(load);
    while (i && i != inst && !writes_memory(i)) i = LLVMGetNextInstruction(i);
    if (i == inst) return true;
  }
  return false;
}

/* The phis of bb that are zero from pred. */
static unsigned zero_phis_from(LLVMBasicBlockRef bb, LLVMBasicBlockRef pred, ValueMap *out) {
  unsigned n = 0;
  for (LLVMValueRef phi = LLVMGetFirstInstruction(bb); phi && LLVMIsAPHINode(phi); phi = LLVMGetNextInstruction(phi)) {
    if (!ir_is_fp_or_fp_vector(LLVMTypeOf(phi))) continue;
    for (unsigned k = 0, m = LLVMCountIncoming(phi); k < m; k++)
      if (LLVMGetIncomingBlock(phi, k) == pred && zero_constant(LLVMGetIncomingValue(phi, k))) {
        if (out) vmap_put(out, phi, phi);
        n++;
        break;
      }
  }
  return n;
}

static bool branches_to(LLVMBasicBlockRef from, LLVMBasicBlockRef to) {
  LLVMValueRef term = LLVMGetBasicBlockTerminator(from);
  if (!term || !(LLVMIsABranchInst(term) || LLVMIsASwitchInst(term))) return false;
  for (unsigned s = 0, n = LLVMGetNumSuccessors(term); s < n; s++)
    if (LLVMGetSuccessor(term, s) == to) return true;
  return false;
}

enum { REGION_BLOCKS = 8 };

/* The blocks the copy covers: bb, and each successor all of whose predecessors are in already (a region
 * entered through bb only, without cycles but through bb), up to REGION_BLOCKS. */
static void region_of(const Cfg *cfg, LLVMBasicBlockRef bb, BlockList *r) {
  vec_push(r, bb);
  for (size_t k = 0; k < r->len && r->len < REGION_BLOCKS; k++) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(r->data[k]);
    for (unsigned s = 0, n = LLVMGetNumSuccessors(term); s < n && r->len < REGION_BLOCKS; s++) {
      LLVMBasicBlockRef succ = LLVMGetSuccessor(term, s);
      int at = cfg_index(cfg, succ);
      bool inside = at >= 0;
      for (size_t i = 0; i < r->len && inside; i++) inside = r->data[i] != succ;
      for (size_t p = 0; at >= 0 && p < cfg->preds[at].len && inside; p++) {
        bool in_r = false;
        for (size_t i = 0; i < r->len; i++) in_r |= r->data[i] == cfg->preds[at].data[p];
        inside = in_r;
      }
      if (inside) vec_push(r, succ);
    }
  }
}

static bool in_region(const BlockList *r, LLVMBasicBlockRef bb) {
  for (size_t i = 0; i < r->len; i++)
    if (r->data[i] == bb) return true;
  return false;
}

/* Whether every value the region defines is used in it or by phis of the blocks it leaves to, on its
 * edges (the copy then needs no new phis but theirs). */
static bool values_stay_local(const BlockList *r) {
  for (size_t k = 0; k < r->len; k++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(r->data[k]); i; i = LLVMGetNextInstruction(i))
      for (LLVMUseRef u = LLVMGetFirstUse(i); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (in_region(r, LLVMGetInstructionParent(user)) && !(LLVMIsAPHINode(user) && LLVMGetInstructionParent(user) == r->data[0]))
          continue;
        if (!LLVMIsAPHINode(user)) return false;
        for (unsigned e = 0, m = LLVMCountIncoming(user); e < m; e++)
          if (LLVMGetIncomingValue(user, e) == i && !in_region(r, LLVMGetIncomingBlock(user, e))) return false;
      }
  return true;
}

/* The phi's entries, values and blocks mapped (the entry's to its copy): into the copy of a block of the
 * region after its entry. */
static LLVMValueRef copy_phi(LLVMBuilderRef b, const ValueMap *vm, LLVMValueRef phi, LLVMBasicBlockRef entry,
                             LLVMBasicBlockRef entry_copy) {
  LLVMValueRef now = LLVMBuildPhi(b, LLVMTypeOf(phi), "");
  for (unsigned k = 0, m = LLVMCountIncoming(phi); k < m; k++) {
    LLVMValueRef v = LLVMGetIncomingValue(phi, k), mv = vmap_get(vm, v);
    LLVMBasicBlockRef in = LLVMGetIncomingBlock(phi, k);
    LLVMValueRef mb = vmap_get(vm, LLVMBasicBlockAsValue(in));
    if (mv) v = mv;
    in = in == entry ? entry_copy : mb ? LLVMValueAsBasicBlock(mb) : in;
    LLVMAddIncoming(now, &v, &in, 1);
  }
  return now;
}

/* The copy of region r (entered at r[0]) for the predecessors `from`, whose phis in `zero` are zero: those
 * phis and every value zero with them the constant zero, the updates that add them left out. Returns
 * whether it was made (not when there is no such update). */
static bool specialise(LLVMValueRef fn, const BlockList *r, const BlockList *from, ValueMap *zero) {
  LLVMBasicBlockRef entry = r->data[0];
  ValueList skipped = {0};
  for (size_t k = 0; k < r->len; k++) /* in order: each block after its predecessors */
    for (LLVMValueRef i = LLVMGetFirstInstruction(r->data[k]); i; i = LLVMGetNextInstruction(i)) {
      if (!ir_is_fp_or_fp_vector(LLVMTypeOf(i)) || vmap_has(zero, i)) continue;
      bool z = !LLVMIsAPHINode(i) ? is_zero(zero, i) : k > 0;
      for (unsigned e = 0, m = LLVMIsAPHINode(i) ? LLVMCountIncoming(i) : 0; e < m && z; e++)
        z = zero_constant(LLVMGetIncomingValue(i, e)) || vmap_has(zero, LLVMGetIncomingValue(i, e));
      if (z) vmap_put(zero, i, i);
    }
  for (size_t k = 0; k < r->len; k++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(r->data[k]); i; i = LLVMGetNextInstruction(i))
      if (adds_zero(zero, i)) vec_push(&skipped, i);
  if (!skipped.len) return false;

  LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(fn));
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  ValueMap vm;
  vmap_init(&vm);
  LLVMBasicBlockRef after = r->data[r->len - 1];
  for (size_t k = 1; k < r->len; k++) { /* the copies of the blocks after the entry, known before their phis */
    LLVMBasicBlockRef copy = LLVMAppendBasicBlockInContext(c, fn, "");
    LLVMMoveBasicBlockAfter(copy, after);
    after = copy;
    vmap_put(&vm, LLVMBasicBlockAsValue(r->data[k]), LLVMBasicBlockAsValue(copy));
  }
  LLVMBasicBlockRef entry_copy = LLVMAppendBasicBlockInContext(c, fn, "");
  LLVMMoveBasicBlockAfter(entry_copy, entry);
  for (size_t k = 0; k < r->len; k++) {
    LLVMBasicBlockRef bb = r->data[k], copy = k ? LLVMValueAsBasicBlock(vmap_get(&vm, LLVMBasicBlockAsValue(bb))) : entry_copy;
    LLVMPositionBuilderAtEnd(b, copy);
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (vmap_has(zero, i)) { /* zero there, whatever it is multiplied by */
        vmap_put(&vm, i, LLVMConstNull(LLVMTypeOf(i)));
      } else if (LLVMIsAPHINode(i) && k == 0) { /* the entry's phis: their entries from `from` */
        LLVMValueRef phi = LLVMBuildPhi(b, LLVMTypeOf(i), "");
        for (size_t f = 0; f < from->len; f++) { /* an entry per edge: a switch's cases may share the block */
          LLVMValueRef term = LLVMGetBasicBlockTerminator(from->data[f]), v = NULL;
          for (unsigned e = 0, m = LLVMCountIncoming(i); e < m && !v; e++)
            if (LLVMGetIncomingBlock(i, e) == from->data[f]) v = LLVMGetIncomingValue(i, e);
          LLVMBasicBlockRef in = from->data[f];
          for (unsigned s = 0, n = LLVMGetNumSuccessors(term); s < n; s++)
            if (LLVMGetSuccessor(term, s) == entry) LLVMAddIncoming(phi, &v, &in, 1);
        }
        vmap_put(&vm, i, phi);
      } else if (LLVMIsAPHINode(i)) { /* in the region: its predecessors are, and copied before it */
        vmap_put(&vm, i, copy_phi(b, &vm, i, entry, entry_copy));
      } else if (!ir_list_has(&skipped, i)) { /* operands of the region mapped, the rest (exits too) kept */
        LLVMValueRef cl = LLVMInstructionClone(i);
        for (unsigned e = 0, n = (unsigned)LLVMGetNumOperands(i); e < n; e++) {
          LLVMValueRef op = vmap_get(&vm, LLVMGetOperand(i, e));
          if (op) LLVMSetOperand(cl, e, op);
        }
        LLVMInsertIntoBuilder(b, cl);
        vmap_put(&vm, i, cl);
      }
    }
  }
  LLVMDisposeBuilder(b);
  /* the blocks the region leaves to (the entry too, round a loop) take the copies' values from them, once
     per edge */
  for (size_t k = 0; k < r->len; k++) {
    LLVMBasicBlockRef bb = r->data[k], copy = k ? LLVMValueAsBasicBlock(vmap_get(&vm, LLVMBasicBlockAsValue(bb))) : entry_copy;
    LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
    for (unsigned s = 0, n = LLVMGetNumSuccessors(term); s < n; s++) {
      LLVMBasicBlockRef succ = LLVMGetSuccessor(term, s);
      bool seen = false;
      for (unsigned t = 0; t < s; t++) seen |= LLVMGetSuccessor(term, t) == succ;
      if (seen || (succ != entry && in_region(r, succ))) continue;
      for (LLVMValueRef phi = LLVMGetFirstInstruction(succ); phi && LLVMIsAPHINode(phi); phi = LLVMGetNextInstruction(phi))
        for (unsigned e = 0, m = LLVMCountIncoming(phi); e < m; e++)
          if (LLVMGetIncomingBlock(phi, e) == bb) {
            LLVMValueRef v = LLVMGetIncomingValue(phi, e), mapped = vmap_get(&vm, v);
            if (mapped) v = mapped;
            LLVMAddIncoming(phi, &v, &copy, 1);
          }
    }
  }
  /* the predecessors `from` enter the copy; the entry's phis forget them */
  for (size_t f = 0; f < from->len; f++) {
    LLVMValueRef br = LLVMGetBasicBlockTerminator(from->data[f]);
    for (unsigned s = 0, n = LLVMGetNumSuccessors(br); s < n; s++)
      if (LLVMGetSuccessor(br, s) == entry) LLVMSetSuccessor(br, s, entry_copy);
    LLVMValueRef next;
    for (LLVMValueRef phi = LLVMGetFirstInstruction(entry); phi && LLVMIsAPHINode(phi); phi = next) {
      next = LLVMGetNextInstruction(phi);
      cfg_phi_reroute(phi, from->data[f], NULL, NULL);
    }
  }
  vmap_free(&vm);
  vec_free(&skipped);
  return true;
}

/* One copy made in fn, at the first block (in reverse post-order, not in `tried`) where one is worth it;
 * the blocks looked at without one are added to `tried`. */
static bool skip_once(LLVMValueRef fn, ValueMap *tried) {
  Cfg cfg;
  cfg_build(fn, &cfg);
  bool made = false;
  for (size_t at = 0; at < cfg.blocks.len && !made; at++) {
    LLVMBasicBlockRef bb = cfg.blocks.data[at];
    const BlockList *preds = &cfg.preds[at];
    if (preds->len < 2 || vmap_has(tried, LLVMBasicBlockAsValue(bb))) continue;
    vmap_put(tried, LLVMBasicBlockAsValue(bb), bb);
    /* the predecessors with the most phis zero, all with the same; not all of them */
    unsigned most = 0;
    for (size_t p = 0; p < preds->len; p++) {
      unsigned n = zero_phis_from(bb, preds->data[p], NULL);
      if (n > most) most = n;
    }
    if (!most) continue;
    ValueMap zero;
    vmap_init(&zero);
    BlockList from = {0}, r = {0};
    bool usable = true;
    for (size_t p = 0; p < preds->len && usable; p++) {
      LLVMBasicBlockRef pred = preds->data[p];
      if (zero_phis_from(bb, pred, NULL) != most) continue;
      /* not a back edge (the copy would be a second way into a loop); a plain branch */
      usable = !cfg_dominates(&cfg, bb, pred) && branches_to(pred, bb);
      if (!from.len) zero_phis_from(bb, pred, &zero);
      else {
        ValueMap also;
        vmap_init(&also);
        zero_phis_from(bb, pred, &also);
        for (LLVMValueRef phi = LLVMGetFirstInstruction(bb); phi && LLVMIsAPHINode(phi); phi = LLVMGetNextInstruction(phi))
          usable &= vmap_has(&zero, phi) == vmap_has(&also, phi);
        vmap_free(&also);
      }
      vec_push(&from, pred);
    }
    if (usable && from.len < preds->len) {
      region_of(&cfg, bb, &r);
      made = values_stay_local(&r) && specialise(fn, &r, &from, &zero);
    }
    vec_free(&r);
    vec_free(&from);
    vmap_free(&zero);
  }
  cfg_free(&cfg);
  return made;
}

enum { COPIES_PER_FUNCTION = 32 };

unsigned rev_skip_zero_updates(LLVMModuleRef m) {
  unsigned made = 0;
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    if (!LLVMIsDeclaration(fn) && ad_is_reverse_sweep(fn)) {
      ValueMap tried;
      vmap_init(&tried);
      for (unsigned n = 0; n < COPIES_PER_FUNCTION && skip_once(fn, &tried); n++) made++;
      vmap_free(&tried);
    }
  return made;
}
