#include "ad/float_bits.h"

#include <string.h>

#include "ir/util.h"

/* Whether c is a constant integer (or a vector of them, all alike) whose bits are `sign` (only the top bit
 * set) or its complement. */
static bool top_bit_mask(LLVMValueRef c, bool sign) {
  LLVMTypeRef t = LLVMTypeOf(c);
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) {
    if (!LLVMIsAConstant(c)) return false;
    for (unsigned i = 0, n = LLVMGetVectorSize(t); i < n; i++) {
      LLVMValueRef e = LLVMGetAggregateElement(c, i);
      if (!e || !top_bit_mask(e, sign)) return false;
    }
    return true;
  }
  unsigned w = LLVMIsAConstantInt(c) ? LLVMGetIntTypeWidth(t) : 0;
  if (w != 32 && w != 64) return false;
  unsigned long long top = 1ull << (w - 1), all = w == 64 ? ~0ull : (1ull << w) - 1;
  return LLVMConstIntGetZExtValue(c) == (sign ? top : all & ~top);
}

/* If v is `x & mask` (either order) with mask the sign bit (sign) or all the others, x. */
static LLVMValueRef masked(LLVMValueRef v, bool sign) {
  if (!LLVMIsAInstruction(v) || LLVMGetInstructionOpcode(v) != LLVMAnd) return NULL;
  for (unsigned k = 0; k < 2; k++)
    if (top_bit_mask(LLVMGetOperand(v, k), sign)) return LLVMGetOperand(v, 1 - k);
  return NULL;
}

static unsigned float_bits(LLVMTypeRef t) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMHalfTypeKind: return 16;
  case LLVMFloatTypeKind: return 32;
  case LLVMDoubleTypeKind: return 64;
  default: return 0; /* x86_fp80's sign is not its top bit */
  }
}

static bool is_fabs(LLVMValueRef v) {
  return LLVMIsACallInst(v) && !strncmp(ir_called_name(v), "llvm.fabs.", 10);
}

/* The float of type t whose bits are v: the operand of a bitcast from t, or v made one. */
static LLVMValueRef as_float(LLVMBuilderRef b, LLVMValueRef v, LLVMTypeRef t) {
  if (LLVMIsABitCastInst(v) && LLVMTypeOf(LLVMGetOperand(v, 0)) == t) return LLVMGetOperand(v, 0);
  return LLVMBuildBitCast(b, v, t, "");
}

/* Whether the bitcast to floats `cast` takes an integer operation (op) lane for lane: each integer's top
 * bit is its float's sign (not `<2 x i64>` made `<4 x float>`). */
static bool lane_for_lane(LLVMValueRef cast, LLVMOpcode op) {
  LLVMTypeRef t = LLVMTypeOf(cast);
  LLVMValueRef v = LLVMGetOperand(cast, 0);
  if (!ir_is_fp(ir_scalar_type(t)) || !LLVMIsAInstruction(v) || LLVMGetInstructionOpcode(v) != op) return false;
  LLVMTypeRef it = LLVMTypeOf(v);
  bool vector = LLVMGetTypeKind(t) == LLVMVectorTypeKind;
  return vector == (LLVMGetTypeKind(it) == LLVMVectorTypeKind) && (!vector || LLVMGetVectorSize(t) == LLVMGetVectorSize(it)) &&
         LLVMGetIntTypeWidth(ir_scalar_type(it)) == float_bits(ir_scalar_type(t));
}

/* A bitcast to floats of `or(sign bits of s, other bits of m)`: copysign(m, s); NULL if it is not one. */
static LLVMValueRef copysign_of(LLVMBuilderRef b, LLVMValueRef cast) {
  LLVMTypeRef t = LLVMTypeOf(cast);
  LLVMValueRef or = LLVMGetOperand(cast, 0);
  if (!lane_for_lane(cast, LLVMOr)) return NULL;
  for (unsigned k = 0; k < 2; k++) {
    LLVMValueRef s = masked(LLVMGetOperand(or, k), true), other = LLVMGetOperand(or, 1 - k), m = masked(other, false);
    /* |m|'s bits, or a float's bits the optimiser proved have no sign bit set (`or disjoint`: x * x under
       -ffast-math, whose mask of the sign it dropped) */
    bool magnitude = !m && LLVMIsABitCastInst(other) &&
                     (is_fabs(LLVMGetOperand(other, 0)) || (LLVMGetIsDisjoint(or) && ir_is_fp(ir_scalar_type(LLVMTypeOf(LLVMGetOperand(other, 0))))));
    if (!s || (!m && !magnitude)) continue;
    LLVMPositionBuilderBefore(b, cast);
    LLVMValueRef args[2] = {as_float(b, m ? m : other, t), as_float(b, s, t)};
    return ir_call_intrinsic(b, "llvm.copysign", &t, 1, args, 2);
  }
  return NULL;
}

/* A bitcast to floats of one float's bits with the sign bit cleared (x & ~S: fabs), flipped (x ^ S: fneg)
 * or set (x | S: -fabs), as hand-written fast fabs and negation do; NULL if it is not one. */
static LLVMValueRef sign_operation_of(LLVMBuilderRef b, LLVMValueRef cast) {
  LLVMTypeRef t = LLVMTypeOf(cast);
  LLVMValueRef v = LLVMGetOperand(cast, 0);
  LLVMOpcode op = LLVMIsAInstruction(v) ? LLVMGetInstructionOpcode(v) : LLVMRet;
  if ((op != LLVMAnd && op != LLVMXor && op != LLVMOr) || !lane_for_lane(cast, op)) return NULL;
  for (unsigned k = 0; k < 2; k++) {
    if (!top_bit_mask(LLVMGetOperand(v, k), op != LLVMAnd)) continue;
    LLVMPositionBuilderBefore(b, cast);
    LLVMValueRef x = as_float(b, LLVMGetOperand(v, 1 - k), t);
    if (op == LLVMXor) return LLVMBuildFNeg(b, x, "");
    LLVMValueRef a = ir_call_intrinsic(b, "llvm.fabs", &t, 1, &x, 1);
    return op == LLVMAnd ? a : LLVMBuildFNeg(b, a, "");
  }
  return NULL;
}

static LLVMValueRef float_operation(LLVMBuilderRef b, LLVMValueRef i) {
  if (!LLVMIsABitCastInst(i)) return NULL;
  LLVMValueRef c = copysign_of(b, i);
  return c ? c : sign_operation_of(b, i);
}

/* the integer operations left without uses go (the generators look at every instruction) */
unsigned float_bits_apply(LLVMModuleRef m, const ValueMap *reached) { return ir_rewrite_instructions(m, reached, float_operation); }
