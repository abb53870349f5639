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

LLVMValueRef ir_clone_function(LLVMValueRef fn, const char *name, ValueMap *vm) {
  LLVMModuleRef m = LLVMGetGlobalParent(fn);
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMValueRef copy = LLVMAddFunction(m, name, LLVMGlobalGetValueType(fn));
  LLVMSetLinkage(copy, LLVMInternalLinkage);
  ir_copy_attributes(fn, copy, LLVMAttributeFunctionIndex);
  if (LLVMHasPersonalityFn(fn)) LLVMSetPersonalityFn(copy, LLVMGetPersonalityFn(fn)); /* C++'s landing pads */
  ir_copy_attributes(fn, copy, LLVMAttributeReturnIndex);
  for (unsigned p = 0, np = LLVMCountParams(fn); p < np; p++) {
    ir_copy_attributes(fn, copy, p + 1);
    vmap_put(vm, LLVMGetParam(fn, p), LLVMGetParam(copy, p));
  }
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    vmap_put(vm, LLVMBasicBlockAsValue(bb), LLVMBasicBlockAsValue(LLVMAppendBasicBlockInContext(c, copy, "")));
  /* definitions before uses (reverse post-order), phis filled once every value exists */
  BlockList order = {0};
  cfg_reverse_post_order(fn, &order);
  ValueMap reached;
  vmap_init(&reached);
  ValueList phis = {0};
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  for (size_t k = 0; k < order.len; k++) {
    LLVMBasicBlockRef bb = order.data[k];
    vmap_put(&reached, LLVMBasicBlockAsValue(bb), bb);
    LLVMPositionBuilderAtEnd(b, LLVMValueAsBasicBlock(vmap_get(vm, LLVMBasicBlockAsValue(bb))));
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (LLVMIsAPHINode(i)) {
        vmap_put(vm, i, LLVMBuildPhi(b, LLVMTypeOf(i), LLVMGetValueName(i)));
        vec_push(&phis, i);
      } else if (ir_is_debug_intrinsic(i)) { /* its variable's metadata is fn's: the copy has no variables */
      } else {
        ir_clone_mapped(b, vm, i);
      }
    }
  }
  for (size_t k = 0; k < phis.len; k++) {
    LLVMValueRef phi = phis.data[k], p = vmap_get(vm, phi);
    for (unsigned i = 0, n = LLVMCountIncoming(phi); i < n; i++) {
      LLVMBasicBlockRef from = LLVMGetIncomingBlock(phi, i);
      if (!vmap_has(&reached, LLVMBasicBlockAsValue(from))) continue;
      LLVMValueRef v = ir_mapped(vm, LLVMGetIncomingValue(phi, i));
      LLVMBasicBlockRef to = LLVMValueAsBasicBlock(vmap_get(vm, LLVMBasicBlockAsValue(from)));
      LLVMAddIncoming(p, &v, &to, 1);
    }
  }
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    if (!vmap_has(&reached, LLVMBasicBlockAsValue(bb))) { /* never runs */
      LLVMPositionBuilderAtEnd(b, LLVMValueAsBasicBlock(vmap_get(vm, LLVMBasicBlockAsValue(bb))));
      LLVMBuildUnreachable(b);
    }
  LLVMDisposeBuilder(b);
  vec_free(&phis);
  vec_free(&order);
  vmap_free(&reached);
  return copy;
}
