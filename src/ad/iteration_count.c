/* Enzyme's __enzyme_iter(n, step): a count that grows by step each time the code around it is
 * differentiated (a series truncated after n terms keeps its accuracy in its derivatives: the primal sums
 * n terms, the first derivative n + step, the second n + 2 step). Each function Parad generates from
 * another has the counts of its source plus one step; once every derivative is made, the calls that are
 * left become their count. */
#include "ad/ad.h"

#include <string.h>

#include "ir/ir.h"

static bool is_iter(LLVMValueRef inst) {
  return ir_is_call(inst) && !strcmp(ir_called_name(inst), "__enzyme_iter") && ir_num_call_args(inst) == 2 &&
         ir_is_int(LLVMTypeOf(inst)) && LLVMTypeOf(LLVMGetArgOperand(inst, 0)) == LLVMTypeOf(inst) &&
         LLVMTypeOf(LLVMGetArgOperand(inst, 1)) == LLVMTypeOf(inst);
}

void ad_iter_step(LLVMValueRef generated) {
  LLVMBuilderRef b = NULL;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(generated); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (!is_iter(i)) continue;
      if (!b) b = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(i)));
      LLVMPositionBuilderBefore(b, i);
      LLVMSetOperand(i, 0, LLVMBuildAdd(b, LLVMGetArgOperand(i, 0), LLVMGetArgOperand(i, 1), "iter"));
    }
  if (b) LLVMDisposeBuilder(b);
}

void ad_iter_lower(LLVMModuleRef m) {
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
        next = LLVMGetNextInstruction(i);
        if (!is_iter(i)) continue;
        LLVMReplaceAllUsesWith(i, LLVMGetArgOperand(i, 0));
        LLVMInstructionEraseFromParent(i);
      }
}
