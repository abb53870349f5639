/* Undefined floats made zero where derivatives reach (see the header). */
#include "ad/defined_lanes.h"

#include <stdlib.h>

#include "ir/ir.h"

static bool is_fp_vector(LLVMTypeRef t) { return LLVMGetTypeKind(t) == LLVMVectorTypeKind && ir_is_fp_or_fp_vector(t); }

/* The constant c with its undefined floats zero, or NULL where it has none. */
static LLVMValueRef defined_constant(LLVMValueRef c) {
  LLVMTypeRef t = LLVMTypeOf(c);
  if (!ir_is_fp_or_fp_vector(t) || !LLVMIsAConstant(c) || LLVMIsAConstantExpr(c)) return NULL;
  if (LLVMIsUndef(c)) return LLVMConstNull(t); /* poison too */
  if (!LLVMIsAConstantVector(c)) return NULL;  /* a ConstantDataVector holds no undefined element */
  unsigned n = LLVMGetVectorSize(t);
  LLVMValueRef *lanes = xcalloc(n, sizeof *lanes), out = NULL;
  bool changed = false;
  for (unsigned i = 0; i < n; i++) {
    lanes[i] = LLVMGetAggregateElement(c, i);
    if (lanes[i] && LLVMIsUndef(lanes[i])) lanes[i] = LLVMConstNull(LLVMGetElementType(t)), changed = true;
    if (!lanes[i]) goto done;
  }
  if (changed) out = LLVMConstVector(lanes, n);
done:
  free(lanes);
  return out;
}

/* A shuffle of floats whose mask leaves lanes undefined: those lanes take a zero, from an operand that is
 * all zeros or put in after. Returns whether it was rewritten (and sh deleted). */
static bool fill_shuffle(LLVMBuilderRef b, LLVMValueRef sh) {
  LLVMTypeRef t = LLVMTypeOf(sh);
  unsigned n = LLVMGetNumMaskElements(sh);
  int undef = LLVMGetUndefMaskElem();
  bool any = false;
  for (unsigned i = 0; i < n && !any; i++) any = LLVMGetMaskValue(sh, i) == undef;
  if (!any || !is_fp_vector(t)) return false;
  LLVMValueRef x = LLVMGetOperand(sh, 0), y = LLVMGetOperand(sh, 1);
  unsigned nx = LLVMGetVectorSize(LLVMTypeOf(x));
  int zero_lane = ir_is_const_zero(y) ? (int)nx : ir_is_const_zero(x) ? 0 : -1;
  LLVMContextRef c = LLVMGetTypeContext(t);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
  LLVMValueRef *mask = xcalloc(n, sizeof *mask);
  for (unsigned i = 0; i < n; i++) {
    int m = LLVMGetMaskValue(sh, i);
    mask[i] = LLVMConstInt(i32, (unsigned long long)(m == undef ? (zero_lane >= 0 ? zero_lane : 0) : m), 0);
  }
  LLVMPositionBuilderBefore(b, sh);
  LLVMValueRef out = LLVMBuildShuffleVector(b, x, y, LLVMConstVector(mask, n), "");
  for (unsigned i = 0; i < n && zero_lane < 0; i++)
    if (LLVMGetMaskValue(sh, i) == undef)
      out = LLVMBuildInsertElement(b, out, LLVMConstNull(LLVMGetElementType(t)), LLVMConstInt(i32, i, 0), "");
  free(mask);
  LLVMReplaceAllUsesWith(sh, out);
  LLVMInstructionEraseFromParent(sh);
  return true;
}

unsigned defined_lanes_fill(LLVMModuleRef m, const ValueMap *reached) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  ValueList shuffles = {0};
  unsigned changed = 0;
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef bb = vmap_has(reached, fn) ? LLVMGetFirstBasicBlock(fn) : NULL; bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
        bool touched = false;
        for (int o = 0, n = LLVMGetNumOperands(i); o < n; o++) {
          LLVMValueRef zeroed = defined_constant(LLVMGetOperand(i, o));
          if (zeroed) LLVMSetOperand(i, (unsigned)o, zeroed), touched = true;
        }
        changed += touched;
        if (LLVMIsAShuffleVectorInst(i)) vec_push(&shuffles, i);
      }
  for (size_t k = 0; k < shuffles.len; k++) changed += fill_shuffle(b, shuffles.data[k]);
  vec_free(&shuffles);
  LLVMDisposeBuilder(b);
  return changed;
}
