/* glibc's checked copies as plain copies with their check (see the header). */
#include "ad/checked_copies.h"

#include <llvm-c/DebugInfo.h>
#include <stdlib.h>
#include <string.h>

#include "ad/request.h"
#include "ir/cfg.h"
#include "ir/ir.h"

typedef enum { COPY, MOVE, SET, NOT_CHECKED } Checked;

static Checked checked_kind(LLVMValueRef call) {
  const char *name = ir_is_call(call) ? ir_called_name(call) : "";
  if (ir_num_call_args(call) != 4) return NOT_CHECKED;
  return !strcmp(name, "__memcpy_chk") ? COPY : !strcmp(name, "__memmove_chk") ? MOVE : !strcmp(name, "__memset_chk") ? SET : NOT_CHECKED;
}

static void expand(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef call, Checked kind) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMValueRef d = LLVMGetArgOperand(call, 0), s = LLVMGetArgOperand(call, 1), n = LLVMGetArgOperand(call, 2),
               room = LLVMGetArgOperand(call, 3);
  LLVMBasicBlockRef head = cfg_split_before(c, call), join = LLVMGetInstructionParent(call); /* head: no terminator */
  LLVMBasicBlockRef fail = LLVMInsertBasicBlockInContext(c, join, "");
  LLVMPositionBuilderAtEnd(b, head);
  LLVMValueRef over = LLVMBuildICmp(b, LLVMIntUGT, n, LLVMBuildZExtOrBitCast(b, room, LLVMTypeOf(n), ""), "");
  LLVMBuildCondBr(b, over, fail, join);
  LLVMPositionBuilderAtEnd(b, fail);
  LLVMTypeRef fail_type = LLVMFunctionType(LLVMVoidTypeInContext(c), NULL, 0, 0);
  LLVMValueRef chk_fail = LLVMGetNamedFunction(m, "__chk_fail");
  if (!chk_fail) chk_fail = LLVMAddFunction(m, "__chk_fail", fail_type);
  LLVMValueRef stop = LLVMBuildCall2(b, fail_type, chk_fail, NULL, 0, "");
  LLVMAddCallSiteAttribute(stop, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(c, ir_attr_kind("noreturn"), 0));
  LLVMBuildUnreachable(b);
  LLVMPositionBuilderBefore(b, call);
  LLVMValueRef plain = kind == COPY   ? LLVMBuildMemCpy(b, d, 1, s, 1, n)
                       : kind == MOVE ? LLVMBuildMemMove(b, d, 1, s, 1, n)
                                      : LLVMBuildMemSet(b, d, LLVMBuildTrunc(b, s, LLVMInt8TypeInContext(c), ""), n, 1);
  LLVMInstructionSetDebugLoc(plain, LLVMInstructionGetDebugLoc(call));
  LLVMInstructionSetDebugLoc(stop, LLVMInstructionGetDebugLoc(call));
  LLVMReplaceAllUsesWith(call, d);
  LLVMInstructionEraseFromParent(call);
}

unsigned checked_copies_expand(LLVMModuleRef m) {
  ValueMap reached;
  vmap_init(&reached);
  request_reached_functions(m, &reached);
  ValueList calls = {0};
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef bb = vmap_has(&reached, fn) ? LLVMGetFirstBasicBlock(fn) : NULL; bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (checked_kind(i) != NOT_CHECKED) vec_push(&calls, i);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  for (size_t k = 0; k < calls.len; k++) expand(m, b, calls.data[k], checked_kind(calls.data[k]));
  LLVMDisposeBuilder(b);
  unsigned n = (unsigned)calls.len;
  vec_free(&calls);
  vmap_free(&reached);
  return n;
}
