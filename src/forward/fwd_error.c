/* Floating-point error estimation (Enzyme's __enzyme_error_estimate): forward mode in which each value's
 * tangent is an estimate of its error, relative to the value, and each operation's rule combines its
 * operands' errors the way rounding errors propagate. For z = op(a_1, ..., a_n):
 *     err(z) = max( |z - z'|,  sum_i |dz/da_i * err(a_i) * a_i / z| )
 * where z' is z with its last bit flipped (one unit in the last place: the operation's own rounding) and
 * the sum carries the operands' errors through the operation's condition numbers. Values move through
 * memory, phis, selects and calls unchanged, as tangents do. The formula is Enzyme's, so that a program
 * written for it reads the same estimate. */
#include "forward/fwd_internal.h"

#include <stdlib.h>

#include "ir/ir.h"

/* |z - z'|, z' the neighbour of z that differs in the last bit of its significand */
static LLVMValueRef last_place(FwdGen *g, LLVMValueRef z) {
  LLVMTypeRef t = LLVMTypeOf(z), s = ir_scalar_type(t);
  LLVMTypeRef it = LLVMIntTypeInContext(g->ctx, LLVMGetTypeKind(s) == LLVMFloatTypeKind ? 32 : 64);
  LLVMValueRef one = LLVMConstInt(it, 1, 0);
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) { /* lane by lane */
    unsigned n = LLVMGetVectorSize(t);
    LLVMValueRef *ones = xcalloc(n, sizeof *ones);
    for (unsigned i = 0; i < n; i++) ones[i] = one;
    one = LLVMConstVector(ones, n);
    free(ones);
    it = LLVMVectorType(it, n);
  }
  LLVMValueRef bits = LLVMBuildXor(g->b, LLVMBuildBitCast(g->b, z, it, ""), one, "");
  LLVMValueRef diff = LLVMBuildFSub(g->b, z, LLVMBuildBitCast(g->b, bits, t, ""), "");
  return ir_call_intrinsic(g->b, "llvm.fabs", &t, 1, &diff, 1);
}

LLVMValueRef fwd_error_of(FwdGen *g, LLVMValueRef z, unsigned n, LLVMValueRef *operands, LLVMValueRef *partials) {
  LLVMTypeRef t = LLVMTypeOf(z);
  LLVMValueRef sum = NULL;
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef e = tan_get(g, operands[i]);
    if (!e) continue; /* exact: a constant, or inactive */
    LLVMValueRef a = fwd_primal(g, operands[i]), ea = LLVMBuildFMul(g->b, e, a, "");
    if (LLVMTypeOf(ea) != t) ea = LLVMBuildFPCast(g->b, ea, t, ""); /* fpext, fptrunc */
    LLVMValueRef s = LLVMBuildFDiv(g->b, ea, z, "");
    if (partials[i]) s = LLVMBuildFMul(g->b, partials[i], s, "");
    s = ir_call_intrinsic(g->b, "llvm.fabs", &t, 1, &s, 1);
    sum = sum ? LLVMBuildFAdd(g->b, sum, s, "") : s;
  }
  LLVMValueRef own = last_place(g, z);
  if (!sum) return own;
  LLVMValueRef args[2] = {own, sum};
  return ir_call_intrinsic(g->b, "llvm.maxnum", &t, 1, args, 2);
}

LLVMValueRef fwd_error_arith(FwdGen *g, LLVMValueRef inst, LLVMValueRef z) {
  LLVMOpcode op = LLVMGetInstructionOpcode(inst);
  LLVMTypeRef t = LLVMTypeOf(inst);
  LLVMValueRef ops[2] = {LLVMGetOperand(inst, 0), LLVMGetNumOperands(inst) > 1 ? LLVMGetOperand(inst, 1) : NULL};
  LLVMValueRef partials[2] = {NULL, NULL}; /* NULL: 1 */
  switch (op) {
  case LLVMFNeg:
  case LLVMFPExt:
  case LLVMFPTrunc: return fwd_error_of(g, z, 1, ops, partials);
  case LLVMFAdd: return fwd_error_of(g, z, 2, ops, partials);
  case LLVMFSub: partials[1] = ir_const_fp(t, -1); return fwd_error_of(g, z, 2, ops, partials);
  case LLVMFMul:
    partials[0] = fwd_primal(g, ops[1]), partials[1] = fwd_primal(g, ops[0]);
    return fwd_error_of(g, z, 2, ops, partials);
  case LLVMFDiv: { /* d(x/y)/dx = 1/y, d(x/y)/dy = -(x/y)/y */
    LLVMValueRef y = fwd_primal(g, ops[1]);
    partials[0] = LLVMBuildFDiv(g->b, ir_const_fp(t, 1), y, "");
    partials[1] = LLVMBuildFNeg(g->b, LLVMBuildFDiv(g->b, z, y, ""), "");
    return fwd_error_of(g, z, 2, ops, partials);
  }
  case LLVMFRem: { /* x - n y, n an integer: fmod's rule */
    LLVMValueRef xy[2] = {fwd_primal(g, ops[0]), fwd_primal(g, ops[1])};
    partials[1] = rule_emit_partial(g->b, rule_for_name("fmod"), 1, xy, z, NULL);
    return fwd_error_of(g, z, 2, ops, partials);
  }
  default: return NULL;
  }
}
