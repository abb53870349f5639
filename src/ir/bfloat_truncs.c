/* fptrunc to bfloat as integer operations (see bfloat_truncs.h). */
#include "ir/bfloat_truncs.h"

#include <stdbool.h>
#include <stddef.h>

#include <llvm-c/DebugInfo.h>

/* t's shape (a scalar or a vector of as many lanes as like) with element type e */
static LLVMTypeRef shaped(LLVMTypeRef like, LLVMTypeRef e) {
  return LLVMGetTypeKind(like) == LLVMVectorTypeKind ? LLVMVectorType(e, LLVMGetVectorSize(like)) : e;
}

static LLVMValueRef constant(LLVMTypeRef t, unsigned long long v) {
  if (LLVMGetTypeKind(t) != LLVMVectorTypeKind) return LLVMConstInt(t, v, 0);
  unsigned n = LLVMGetVectorSize(t);
  LLVMValueRef lanes[64], one = LLVMConstInt(LLVMGetElementType(t), v, 0);
  for (unsigned i = 0; i < n && i < 64; i++) lanes[i] = one;
  return LLVMConstVector(lanes, n);
}

static LLVMValueRef rounded(LLVMBuilderRef b, LLVMValueRef x, LLVMTypeRef to) {
  LLVMContextRef ctx = LLVMGetTypeContext(to);
  LLVMTypeRef t = LLVMTypeOf(x), f32 = shaped(t, LLVMFloatTypeInContext(ctx));
  LLVMTypeRef i32 = shaped(t, LLVMInt32TypeInContext(ctx)), i16 = shaped(t, LLVMInt16TypeInContext(ctx));
  LLVMValueRef f = t == f32 ? x : LLVMBuildFPTrunc(b, x, f32, "");
  LLVMValueRef u = LLVMBuildBitCast(b, f, i32, ""), high = LLVMBuildLShr(b, u, constant(i32, 16), "");
  LLVMValueRef odd = LLVMBuildAnd(b, high, constant(i32, 1), "");
  LLVMValueRef up = LLVMBuildAdd(b, u, LLVMBuildAdd(b, odd, constant(i32, 0x7fff), ""), "");
  LLVMValueRef near = LLVMBuildTrunc(b, LLVMBuildLShr(b, up, constant(i32, 16), ""), i16, "");
  LLVMValueRef quiet = LLVMBuildOr(b, LLVMBuildTrunc(b, high, i16, ""), constant(i16, 0x40), "");
  LLVMValueRef nan = LLVMBuildFCmp(b, LLVMRealUNO, f, f, "");
  return LLVMBuildBitCast(b, LLVMBuildSelect(b, nan, quiet, near, ""), to, "");
}

static bool bfloat_typed(LLVMTypeRef t) {
  LLVMTypeRef e = LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetElementType(t) : t;
  return LLVMGetTypeKind(e) == LLVMBFloatTypeKind;
}

/* Arithmetic on bfloats (the adjoints' sums) is done in float and rounded once, as C does it. */
static LLVMValueRef in_float(LLVMBuilderRef b, LLVMValueRef i) {
  LLVMOpcode op = LLVMGetInstructionOpcode(i);
  if (op != LLVMFAdd && op != LLVMFSub && op != LLVMFMul && op != LLVMFDiv) return NULL;
  LLVMTypeRef t = LLVMTypeOf(i), f32 = shaped(t, LLVMFloatTypeInContext(LLVMGetTypeContext(t)));
  LLVMValueRef x = LLVMBuildFPExt(b, LLVMGetOperand(i, 0), f32, ""), y = LLVMBuildFPExt(b, LLVMGetOperand(i, 1), f32, "");
  LLVMValueRef r = LLVMBuildBinOp(b, op, x, y, "");
  LLVMSetFastMathFlags(r, LLVMGetFastMathFlags(i));
  return rounded(b, r, t);
}

unsigned bfloat_truncs_lower(LLVMModuleRef m) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  unsigned n = 0;
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
        next = LLVMGetNextInstruction(i);
        if (!bfloat_typed(LLVMTypeOf(i))) continue;
        LLVMPositionBuilderBefore(b, i);
        LLVMValueRef r = LLVMIsAFPTruncInst(i) ? rounded(b, LLVMGetOperand(i, 0), LLVMTypeOf(i)) : in_float(b, i);
        if (!r) continue;
        LLVMInstructionSetDebugLoc(r, LLVMInstructionGetDebugLoc(i));
        LLVMReplaceAllUsesWith(i, r);
        LLVMInstructionEraseFromParent(i);
        n++;
      }
  LLVMDisposeBuilder(b);
  return n;
}
