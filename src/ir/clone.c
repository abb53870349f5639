/* A function copied whole under a new name (the C API has no CloneFunction), its debug records of
 * variables left out. */
#include <stdlib.h>

#include "ir/cfg.h"
#include "ir/ir.h"

void ir_copy_attributes(LLVMValueRef from, LLVMValueRef to, LLVMAttributeIndex idx) {
  unsigned n = LLVMGetAttributeCountAtIndex(from, idx);
  LLVMAttributeRef *attrs = xcalloc(n + 1, sizeof *attrs);
  LLVMGetAttributesAtIndex(from, idx, attrs);
  for (unsigned i = 0; i < n; i++) LLVMAddAttributeAtIndex(to, idx, attrs[i]);
  free(attrs);
}

void ir_copy_call_attributes(LLVMValueRef from, LLVMValueRef to) {
  unsigned nargs = LLVMGetNumArgOperands(from);
  for (long long idx = -1; idx <= (long long)nargs; idx++) { /* function, return, arguments */
    LLVMAttributeIndex i = idx < 0 ? LLVMAttributeFunctionIndex : (LLVMAttributeIndex)idx;
    unsigned n = LLVMGetCallSiteAttributeCount(from, i);
    LLVMAttributeRef *attrs = xcalloc(n + 1, sizeof *attrs);
    LLVMGetCallSiteAttributes(from, i, attrs);
    for (unsigned k = 0; k < n; k++) LLVMAddCallSiteAttribute(to, i, attrs[k]);
    free(attrs);
  }
}

/* The blocks of `order` (definitions before uses: reverse post-order) that `copied` holds, copied into the
 * blocks vm maps them to, operands through vm; phis are filled once every value exists, from the copied
 * predecessors only. Records of variables (llvm.dbg.*) are left out: a copy has no variables. */
static void copy_blocks(LLVMBuilderRef b, const BlockList *order, const ValueMap *copied, ValueMap *vm) {
  ValueList phis = {0};
  for (size_t k = 0; k < order->len; k++) {
    LLVMBasicBlockRef bb = order->data[k];
    if (!vmap_has(copied, LLVMBasicBlockAsValue(bb))) continue;
    LLVMPositionBuilderAtEnd(b, LLVMValueAsBasicBlock(vmap_get(vm, LLVMBasicBlockAsValue(bb))));
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (LLVMIsAPHINode(i)) {
        vmap_put(vm, i, LLVMBuildPhi(b, LLVMTypeOf(i), LLVMGetValueName(i)));
        vec_push(&phis, i);
      } else if (!ir_is_debug_intrinsic(i)) {
        ir_clone_mapped(b, vm, i);
      }
    }
  }
  for (size_t k = 0; k < phis.len; k++) {
    LLVMValueRef phi = phis.data[k], p = vmap_get(vm, phi);
    for (unsigned i = 0, n = LLVMCountIncoming(phi); i < n; i++) {
      LLVMBasicBlockRef from = LLVMGetIncomingBlock(phi, i);
      if (!vmap_has(copied, LLVMBasicBlockAsValue(from))) continue;
      LLVMValueRef v = ir_mapped(vm, LLVMGetIncomingValue(phi, i));
      LLVMBasicBlockRef to = LLVMValueAsBasicBlock(vmap_get(vm, LLVMBasicBlockAsValue(from)));
      LLVMAddIncoming(p, &v, &to, 1);
    }
  }
  vec_free(&phis);
}

LLVMValueRef ir_clone_function(LLVMValueRef fn, const char *name, ValueMap *vm) {
  LLVMModuleRef m = LLVMGetGlobalParent(fn);
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMValueRef copy = LLVMAddFunction(m, name, LLVMGlobalGetValueType(fn));
  LLVMSetLinkage(copy, LLVMInternalLinkage);
  LLVMSetFunctionCallConv(copy, LLVMGetFunctionCallConv(fn)); /* its calls keep the original's (regcall) */
  ir_copy_attributes(fn, copy, LLVMAttributeFunctionIndex);
  if (LLVMHasPersonalityFn(fn)) LLVMSetPersonalityFn(copy, LLVMGetPersonalityFn(fn)); /* C++'s landing pads */
  ir_copy_attributes(fn, copy, LLVMAttributeReturnIndex);
  for (unsigned p = 0, np = LLVMCountParams(fn); p < np; p++) {
    ir_copy_attributes(fn, copy, p + 1);
    vmap_put(vm, LLVMGetParam(fn, p), LLVMGetParam(copy, p));
  }
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    vmap_put(vm, LLVMBasicBlockAsValue(bb), LLVMBasicBlockAsValue(LLVMAppendBasicBlockInContext(c, copy, "")));
  BlockList order = {0};
  cfg_reverse_post_order(fn, &order);
  ValueMap reached;
  vmap_init(&reached);
  for (size_t k = 0; k < order.len; k++) vmap_put(&reached, LLVMBasicBlockAsValue(order.data[k]), order.data[k]);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  copy_blocks(b, &order, &reached, vm);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    if (!vmap_has(&reached, LLVMBasicBlockAsValue(bb))) { /* never runs */
      LLVMPositionBuilderAtEnd(b, LLVMValueAsBasicBlock(vmap_get(vm, LLVMBasicBlockAsValue(bb))));
      LLVMBuildUnreachable(b);
    }
  LLVMDisposeBuilder(b);
  vec_free(&order);
  vmap_free(&reached);
  return copy;
}

/* Every block reachable from `from` is copied, `from`'s copy filled into `into` (empty, its own block);
 * in the copies, known[i] is values[i]. The blocks before `from` are shared: what they define maps to
 * itself. Allocas are moved to the entry block, where they stay static, and shared by the copies (one of
 * them runs per call). Stores of a known value in the entry block are repeated with its value at the
 * copy's start, so that a flag kept in a slot reads as known there too. */
void ir_version_blocks(LLVMValueRef fn, LLVMBasicBlockRef from, LLVMBasicBlockRef into, const LLVMValueRef *known,
                       const LLVMValueRef *values, size_t n) {
  LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(fn));
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
  ValueMap vm, region;
  vmap_init(&vm);
  vmap_init(&region);
  BlockList stack = {0}, order = {0};
  vmap_put(&region, LLVMBasicBlockAsValue(from), from);
  vec_push(&stack, from);
  while (stack.len) {
    LLVMBasicBlockRef bb = stack.data[--stack.len];
    LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
    for (unsigned s = 0, ns = term ? LLVMGetNumSuccessors(term) : 0; s < ns; s++) {
      LLVMBasicBlockRef to = LLVMGetSuccessor(term, s);
      if (vmap_has(&region, LLVMBasicBlockAsValue(to))) continue;
      vmap_put(&region, LLVMBasicBlockAsValue(to), to);
      vec_push(&stack, to);
    }
  }
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(entry));
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
    bool copied = vmap_has(&region, LLVMBasicBlockAsValue(bb));
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
      next = LLVMGetNextInstruction(i);
      if (!copied) {
        vmap_put(&vm, i, i);
      } else if (LLVMIsAAllocaInst(i)) {
        LLVMInstructionRemoveFromParent(i);
        LLVMInsertIntoBuilder(b, i);
        vmap_put(&vm, i, i);
      }
    }
  }
  for (unsigned p = 0, np = LLVMCountParams(fn); p < np; p++) vmap_put(&vm, LLVMGetParam(fn, p), LLVMGetParam(fn, p));
  for (size_t k = 0; k < n; k++) vmap_put(&vm, known[k], values[k]);
  cfg_reverse_post_order(fn, &order);
  for (size_t k = 0; k < order.len; k++) {
    LLVMBasicBlockRef bb = order.data[k];
    if (!vmap_has(&region, LLVMBasicBlockAsValue(bb))) continue;
    LLVMBasicBlockRef copy = bb == from ? into : LLVMAppendBasicBlockInContext(c, fn, "");
    vmap_put(&vm, LLVMBasicBlockAsValue(bb), LLVMBasicBlockAsValue(copy));
  }
  LLVMPositionBuilderAtEnd(b, into);
  for (LLVMValueRef i = LLVMGetFirstInstruction(entry); i; i = LLVMGetNextInstruction(i))
    for (size_t k = 0; k < n && LLVMIsAStoreInst(i); k++)
      if (LLVMGetOperand(i, 0) == known[k]) LLVMBuildStore(b, values[k], LLVMGetOperand(i, 1));
  copy_blocks(b, &order, &region, &vm);
  LLVMDisposeBuilder(b);
  vec_free(&order);
  vec_free(&stack);
  vmap_free(&region);
  vmap_free(&vm);
}
