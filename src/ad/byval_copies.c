#include "ad/byval_copies.h"

#include <llvm-c/DebugInfo.h>

#include "ad/body.h"

static bool fresh_local(LLVMValueRef v) { return LLVMIsAAllocaInst(ir_strip_pointer_casts(v)) != NULL; }

unsigned byval_copies_apply(LLVMModuleRef m, const ValueMap *reached) {
  unsigned byval = ir_attr_kind("byval"), done = 0;
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
    if (!vmap_has(reached, fn) || !LLVMCountBasicBlocks(fn)) continue;
    LLVMValueRef entry = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(fn));
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef call = LLVMGetFirstInstruction(bb); call; call = LLVMGetNextInstruction(call)) {
        /* a complex helper the generators open-code reads its operands once (ad/body.h) */
        if (!ir_is_call(call) || LLVMIsAIntrinsicInst(call) || ad_body_open_codes(call)) continue;
        for (unsigned i = 0, n = ir_num_call_args(call); i < n; i++) {
          LLVMAttributeRef attr = LLVMGetCallSiteEnumAttribute(call, i + 1, byval);
          LLVMValueRef arg = LLVMGetArgOperand(call, i);
          LLVMTypeRef t = attr ? LLVMGetTypeAttributeValue(attr) : NULL;
          /* a local only this call reads is the copy already (clang's own temporary at -O0) */
          if (!t || !ir_contains_fp(t) || (fresh_local(arg) && LLVMGetFirstUse(arg) && !LLVMGetNextUse(LLVMGetFirstUse(arg))))
            continue;
          LLVMPositionBuilderBefore(b, entry);
          LLVMValueRef copy = LLVMBuildAlloca(b, t, "byval.copy");
          LLVMSetAlignment(copy, LLVMGetAlignment(copy) > 8 ? LLVMGetAlignment(copy) : 8);
          LLVMPositionBuilderBefore(b, call);
          LLVMValueRef bytes = LLVMConstInt(LLVMInt64TypeInContext(c), ir_type_size(m, t), 0);
          LLVMValueRef copied = LLVMBuildMemCpy(b, copy, LLVMGetAlignment(copy), arg, 1, bytes);
          LLVMInstructionSetDebugLoc(copied, LLVMInstructionGetDebugLoc(call));
          LLVMSetOperand(call, i, copy);
          done++;
        }
      }
  }
  LLVMDisposeBuilder(b);
  return done;
}
