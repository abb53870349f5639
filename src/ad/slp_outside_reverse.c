/* The SLP vectoriser kept out of reverse sweeps, unless it pays there (see the header). */
#include "ad/slp_outside_reverse.h"

#include <stdlib.h>
#include <string.h>

#include "ir/cfg.h"
#include "ir/valuemap.h"

static unsigned tag_kind(LLVMContextRef c) { return LLVMGetMDKindIDInContext(c, "parad.reverse", 13); }

static unsigned no_implicit_float(void) { return ir_attr_kind("noimplicitfloat"); }

void slp_tag_reverse(LLVMModuleRef m, bool tag) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  unsigned kind = tag_kind(c), len = (unsigned)strlen(SLP_REVERSE_ATTR);
  LLVMValueRef node = LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, NULL, 0));
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (!LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, SLP_REVERSE_ATTR, len)) continue;
    LLVMRemoveStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, SLP_REVERSE_ATTR, len);
    if (!tag) continue;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (LLVMIsAStoreInst(i)) LLVMSetMetadata(i, kind, node);
  }
}

/* The tag, on the function's stores; cleared as it is found when clear is set. */
static bool holds_tag(LLVMValueRef f, unsigned kind, bool clear) {
  bool found = false;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (!LLVMIsAStoreInst(i) || !LLVMGetMetadata(i, kind)) continue;
      found = true;
      if (!clear) return true;
      LLVMSetMetadata(i, kind, NULL);
    }
  return found;
}

/* Does f store a floating-point value with the tag in a block on a cycle: an adjoint update that the
 * next iteration may read back. */
static bool updates_in_loop(LLVMValueRef f, unsigned kind) {
  Cfg cfg;
  cfg_build(f, &cfg);
  bool found = false;
  for (size_t b = 0; b < cfg.blocks.len && !found; b++) {
    if (!cfg.cyclic[b]) continue;
    for (LLVMValueRef i = LLVMGetFirstInstruction(cfg.blocks.data[b]); i && !found; i = LLVMGetNextInstruction(i))
      found = LLVMIsAStoreInst(i) && LLVMGetMetadata(i, kind) &&
              ir_is_fp_or_fp_vector(LLVMTypeOf(LLVMGetOperand(i, 0)));
  }
  cfg_free(&cfg);
  return found;
}

static void mark(LLVMValueRef f) {
  LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(f));
  LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(c, no_implicit_float(), 0));
}

/* Does f branch to a computed address: its blocks' addresses are taken, and may not change functions. */
static bool computed_branches(LLVMValueRef f) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    if (t && LLVMGetInstructionOpcode(t) == LLVMIndirectBr) return true;
  }
  return false;
}

void slp_hold_reverse(LLVMModuleRef m, SlpReverse *s) {
  unsigned kind = tag_kind(LLVMGetModuleContext(m)), nif = no_implicit_float();
  ValueList found = {0};
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (!LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, nif) && holds_tag(f, kind, false)) vec_push(&found, f);
  for (size_t k = 0; k < found.len; k++) {
    LLVMValueRef f = found.data[k];
    if (updates_in_loop(f, kind) || computed_branches(f)) {
      mark(f);
      vec_push(&s->held, f);
      continue;
    }
    ValueMap vm;
    vmap_init(&vm);
    LLVMValueRef copy = ir_clone_function(f, "parad.slp.scalar", &vm);
    vmap_free(&vm);
    mark(copy);
    vec_push(&s->tried, f);
    vec_push(&s->copies, copy);
  }
  free(found.data);
}

/* What SLP's pairing of f gained, counted in instructions: the floating-point operations that work on
 * more than one lane, each lane past the first an operation saved, less the lane moves (inserts, extracts,
 * shuffles), which LLVM's cost model prices below an operation. */
static long paired_gain(LLVMValueRef f) {
  long gain = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      LLVMOpcode op = LLVMGetInstructionOpcode(i);
      LLVMTypeRef t = LLVMTypeOf(i);
      if (op == LLVMExtractElement || op == LLVMInsertElement || op == LLVMShuffleVector) gain--;
      else if (LLVMGetTypeKind(t) == LLVMVectorTypeKind && ir_is_fp_or_fp_vector(t) &&
               (op == LLVMFAdd || op == LLVMFSub || op == LLVMFMul || op == LLVMFDiv || op == LLVMFNeg ||
                (op == LLVMCall && LLVMGetIntrinsicID(LLVMGetCalledValue(i)))))
        gain += (long)LLVMGetVectorSize(t) - 1;
    }
  return gain;
}

/* f given copy's code: the blocks change functions (their instructions keep f's debug locations, which
 * the copy kept; the records of f's variables, which it did not, are lost), copy's arguments become f's,
 * and copy, holding f's old blocks, is deleted. Blocks move after a block only: LLVM 19 moves a block
 * before another within the block's own function. */
static void take_code(LLVMValueRef f, LLVMValueRef copy) {
  LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(f));
  LLVMBasicBlockRef own_last = LLVMGetLastBasicBlock(f), anchor = LLVMAppendBasicBlockInContext(c, copy, "");
  LLVMBasicBlockRef at = own_last;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(copy), next; bb != anchor; at = bb, bb = next) {
    next = LLVMGetNextBasicBlock(bb);
    LLVMMoveBasicBlockAfter(bb, at);
  }
  at = anchor;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f), next, last = NULL; last != own_last; at = bb, bb = next) {
    next = LLVMGetNextBasicBlock(bb), last = bb;
    LLVMMoveBasicBlockAfter(bb, at);
  }
  for (unsigned p = 0, np = LLVMCountParams(f); p < np; p++)
    LLVMReplaceAllUsesWith(LLVMGetParam(copy, p), LLVMGetParam(f, p));
  LLVMDeleteFunction(copy);
}

void slp_release_reverse(LLVMModuleRef m, SlpReverse *s) {
  unsigned kind = tag_kind(LLVMGetModuleContext(m)), nif = no_implicit_float();
  for (size_t i = 0; i < s->tried.len; i++) {
    LLVMValueRef f = s->tried.data[i], copy = s->copies.data[i];
    if (paired_gain(f) > paired_gain(copy)) LLVMDeleteFunction(copy);
    else take_code(f, copy);
  }
  for (size_t i = 0; i < s->held.len; i++) LLVMRemoveEnumAttributeAtIndex(s->held.data[i], LLVMAttributeFunctionIndex, nif);
  free(s->held.data), free(s->tried.data), free(s->copies.data);
  *s = (SlpReverse){0};
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) holds_tag(f, kind, true);
}
