/* Adjoint updates that add zero, skipped (see reverse.h).
 *
 * A reverse sweep enters the reverse of a block with the adjoints its successors in the program left. Where
 * the program branched (a pair beyond the cut-off, the side of a maximum not taken), one of those paths
 * leaves an adjoint of zero, and after the optimiser the block's adjoint is a phi: zero from the blocks of
 * that path, a value from the others. Every update the block makes into memory with a multiple of that
 * phi (`dx[j] -= 2 rx * ab`) then adds zero on that path, a load and a store each, an atomic in a team.
 * The block gets a copy for the predecessors whose phis are zero, the phis replaced by zero there and
 * those updates left out; the optimiser then drops what only fed them.
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

/* Whether every value bb defines is used only in bb or by phis of its successors (a copy of bb then needs
 * no new phis but in them). */
static bool values_stay_local(LLVMBasicBlockRef bb) {
  LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
    for (LLVMUseRef u = LLVMGetFirstUse(i); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u);
      LLVMBasicBlockRef at = LLVMGetInstructionParent(user);
      if (at == bb) continue;
      bool successor_phi = false;
      for (unsigned s = 0, n = LLVMGetNumSuccessors(term); s < n && LLVMIsAPHINode(user); s++)
        successor_phi |= LLVMGetSuccessor(term, s) == at;
      if (!successor_phi) return false;
    }
  return true;
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

/* The copy of bb for the predecessors `from` (whose phis in `zero` are zero), without the updates that
 * add zero; returns whether it was made. */
static bool specialise(LLVMValueRef fn, LLVMBasicBlockRef bb, const BlockList *from, ValueMap *zero) {
  /* the values zero in bb, in order; then the updates they make */
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
    if (!LLVMIsAPHINode(i) && ir_is_fp_or_fp_vector(LLVMTypeOf(i)) && is_zero(zero, i)) vmap_put(zero, i, i);
  ValueList skipped = {0};
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
    if (adds_zero(zero, i)) vec_push(&skipped, i);
  if (!skipped.len) return false;

  LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(fn));
  LLVMBasicBlockRef copy = LLVMInsertBasicBlockInContext(c, bb, "");
  LLVMMoveBasicBlockAfter(copy, bb);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMPositionBuilderAtEnd(b, copy);
  ValueMap vm;
  vmap_init(&vm);
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
    if (LLVMIsAPHINode(i)) { /* its entries from `from`, or zero */
      LLVMValueRef phi = LLVMBuildPhi(b, LLVMTypeOf(i), "");
      for (size_t f = 0; f < from->len; f++) {
        LLVMValueRef v = vmap_has(zero, i) ? LLVMConstNull(LLVMTypeOf(i)) : NULL;
        for (unsigned k = 0, m = LLVMCountIncoming(i); k < m && !v; k++)
          if (LLVMGetIncomingBlock(i, k) == from->data[f]) v = LLVMGetIncomingValue(i, k);
        LLVMBasicBlockRef in = from->data[f];
        LLVMAddIncoming(phi, &v, &in, 1);
      }
      vmap_put(&vm, i, phi);
    } else if (!ir_list_has(&skipped, i)) { /* operands from bb mapped, the rest (blocks too) as they are */
      LLVMValueRef c = LLVMInstructionClone(i);
      for (unsigned k = 0, n = (unsigned)LLVMGetNumOperands(i); k < n; k++) {
        LLVMValueRef op = vmap_get(&vm, LLVMGetOperand(i, k));
        if (op) LLVMSetOperand(c, k, op);
      }
      LLVMInsertIntoBuilder(b, c);
      vmap_put(&vm, i, c);
    }
  }
  LLVMDisposeBuilder(b);
  /* the successors' phis take the copy's values from it */
  LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
  for (unsigned s = 0, n = LLVMGetNumSuccessors(term); s < n; s++) {
    LLVMBasicBlockRef succ = LLVMGetSuccessor(term, s);
    bool seen = false;
    for (unsigned t = 0; t < s; t++) seen |= LLVMGetSuccessor(term, t) == succ;
    if (seen) continue;
    for (LLVMValueRef phi = LLVMGetFirstInstruction(succ); phi && LLVMIsAPHINode(phi); phi = LLVMGetNextInstruction(phi))
      for (unsigned k = 0, m = LLVMCountIncoming(phi); k < m; k++) /* once per edge, as bb's */
        if (LLVMGetIncomingBlock(phi, k) == bb) {
          LLVMValueRef v = LLVMGetIncomingValue(phi, k), mapped = vmap_get(&vm, v);
          if (mapped) v = mapped;
          LLVMAddIncoming(phi, &v, &copy, 1);
        }
  }
  /* the predecessors `from` enter the copy; bb's phis forget them */
  for (size_t f = 0; f < from->len; f++) {
    LLVMValueRef br = LLVMGetBasicBlockTerminator(from->data[f]);
    for (unsigned s = 0, n = LLVMGetNumSuccessors(br); s < n; s++)
      if (LLVMGetSuccessor(br, s) == bb) LLVMSetSuccessor(br, s, copy);
    LLVMValueRef next;
    for (LLVMValueRef phi = LLVMGetFirstInstruction(bb); phi && LLVMIsAPHINode(phi); phi = next) {
      next = LLVMGetNextInstruction(phi);
      cfg_phi_reroute(phi, from->data[f], NULL, NULL);
    }
  }
  vmap_free(&vm);
  vec_free(&skipped);
  return true;
}

static unsigned skip_in(LLVMValueRef fn) {
  unsigned made = 0;
  Cfg cfg;
  cfg_build(fn, &cfg);
  size_t nblocks = cfg.blocks.len;
  for (size_t at = 0; at < nblocks; at++) {
    LLVMBasicBlockRef bb = cfg.blocks.data[at];
    const BlockList *preds = &cfg.preds[at];
    if (preds->len < 2 || !values_stay_local(bb)) continue;
    /* the predecessors with the most phis zero; the others must leave some phi non-zero */
    unsigned most = 0;
    for (size_t p = 0; p < preds->len; p++) {
      unsigned n = zero_phis_from(bb, preds->data[p], NULL);
      if (n > most) most = n;
    }
    if (!most) continue;
    ValueMap zero;
    vmap_init(&zero);
    BlockList from = {0};
    bool usable = true;
    for (size_t p = 0; p < preds->len && usable; p++) {
      LLVMBasicBlockRef pred = preds->data[p];
      if (zero_phis_from(bb, pred, NULL) != most) continue;
      /* not a back edge (the copy would be a second way into a loop), a plain branch */
      usable = !cfg_dominates(&cfg, bb, pred) && branches_to(pred, bb);
      vec_push(&from, pred);
    }
    if (usable && from.len < preds->len) {
      zero_phis_from(bb, from.data[0], &zero);
      for (size_t f = 1; f < from.len && usable; f++) { /* the same phis zero from each */
        ValueMap also;
        vmap_init(&also);
        zero_phis_from(bb, from.data[f], &also);
        for (LLVMValueRef phi = LLVMGetFirstInstruction(bb); phi && LLVMIsAPHINode(phi); phi = LLVMGetNextInstruction(phi))
          usable &= vmap_has(&zero, phi) == vmap_has(&also, phi);
        vmap_free(&also);
      }
      if (usable && specialise(fn, bb, &from, &zero)) made++;
    }
    vec_free(&from);
    vmap_free(&zero);
  }
  cfg_free(&cfg);
  return made;
}

unsigned rev_skip_zero_updates(LLVMModuleRef m) {
  unsigned made = 0;
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    if (!LLVMIsDeclaration(fn) && ad_is_reverse_sweep(fn)) made += skip_in(fn);
  return made;
}
