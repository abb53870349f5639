/* Values that may be infinite or NaN (see nonfinite.h). */
#include "analysis/nonfinite.h"

#include <math.h>
#include <string.h>

#include "ir/ir.h"
#include "rules/rules.h"

enum { DEPTH = 6 };

/* Math functions that may give an infinity or a NaN for finite arguments: poles, logarithms of 0, roots
 * and inverse functions outside their domain, remainders by 0, overflows of exponentials. */
static bool singular_function(const MathRule *rule) {
  static const char *const singular[] = {"log",   "log2",    "log10",    "log1p",  "pow",    "exp",
                                         "exp2",  "exp10",   "expm1",    "sqrt",   "asin",   "acos",
                                         "acosh", "atanh",   "tgamma",   "lgamma", "lgamma_r", "y0",
                                         "y1",    "fmod",    "remainder", "remquo", "__parad_digamma",
                                         "__parad_trigamma"};
  if (!rule->libm) return rule->intrinsic && !strcmp(rule->intrinsic, "llvm.powi");
  for (size_t i = 0; i < sizeof singular / sizeof singular[0]; i++)
    if (!strcmp(rule->libm, singular[i])) return true;
  return false;
}

static bool constant_nonfinite(LLVMValueRef v) {
  if (LLVMIsAConstantFP(v)) {
    LLVMBool loses;
    return !isfinite(LLVMConstRealGetDouble(v, &loses));
  }
  if (LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMVectorTypeKind && LLVMIsAConstant(v) && !LLVMIsAConstantAggregateZero(v) &&
      !LLVMIsUndef(v) && !LLVMIsPoison(v)) {
    for (unsigned i = 0, n = LLVMGetVectorSize(LLVMTypeOf(v)); i < n; i++) {
      LLVMValueRef e = LLVMGetAggregateElement(v, i);
      if (!e || constant_nonfinite(e)) return true;
    }
  }
  return false;
}

static bool possible(LLVMValueRef v, int depth) {
  if (LLVMIsAConstant(v)) return constant_nonfinite(v);
  if (!LLVMIsAInstruction(v) || depth > DEPTH) return false;
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMFDiv:
  case LLVMFRem: return true;
  case LLVMFAdd:
  case LLVMFSub:
  case LLVMFMul:
  case LLVMFNeg:
  case LLVMFPExt:
  case LLVMFPTrunc:
  case LLVMFreeze:
  case LLVMExtractElement:
  case LLVMInsertElement:
  case LLVMShuffleVector:
    for (unsigned i = 0, n = (unsigned)LLVMGetNumOperands(v); i < n; i++) {
      LLVMValueRef op = LLVMGetOperand(v, i);
      if (ir_is_fp_or_fp_vector(LLVMTypeOf(op)) && possible(op, depth + 1)) return true;
    }
    return false;
  case LLVMSelect: return possible(LLVMGetOperand(v, 1), depth + 1) || possible(LLVMGetOperand(v, 2), depth + 1);
  case LLVMPHI:
    for (unsigned i = 0, n = LLVMCountIncoming(v); i < n; i++)
      if (possible(LLVMGetIncomingValue(v, i), depth + 1)) return true;
    return false;
  case LLVMCall: {
    const MathRule *rule = rule_for_call(v);
    if (!rule) return false; /* the program's functions and memory: finite, as the inputs */
    if (singular_function(rule)) return true;
    for (unsigned i = 0, n = ir_num_call_args(v); i < n; i++) {
      LLVMValueRef a = LLVMGetArgOperand(v, i);
      if (ir_is_fp_or_fp_vector(LLVMTypeOf(a)) && possible(a, depth + 1)) return true;
    }
    return false;
  }
  default: return false;
  }
}

bool nonfinite_possible(LLVMValueRef v) { return possible(v, 0); }

/* The functions finite where their slope is not (sqrt at 0, asin at 1). Not log or a pole: there the
 * value is infinite too, and so is what the program computes from it. */
static bool steep_call(LLVMValueRef v) {
  static const char *const steep[] = {"sqrt", "cbrt", "pow", "asin", "acos", "acosh"};
  const MathRule *rule = LLVMIsACallInst(v) ? rule_for_call(v) : NULL;
  for (size_t i = 0; rule && rule->libm && i < sizeof steep / sizeof steep[0]; i++)
    if (!strcmp(rule->libm, steep[i])) return true;
  return false;
}

/* The operations whose result carries an operand's derivative on (a factor or a divisor that is infinite
 * makes the value infinite too: not followed further). */
static bool passes_derivative(LLVMValueRef v) {
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMFAdd: case LLVMFSub: case LLVMFMul: case LLVMFDiv: case LLVMFNeg: case LLVMFPExt: case LLVMFPTrunc:
  case LLVMFreeze: case LLVMSelect: case LLVMPHI: case LLVMExtractElement: case LLVMInsertElement:
  case LLVMShuffleVector: return true;
  case LLVMCall: return rule_for_call(v) != NULL;
  default: return false;
  }
}

static bool steep_below(LLVMValueRef v, int depth) {
  if (!LLVMIsAInstruction(v) || depth > DEPTH || !passes_derivative(v)) return false;
  if (steep_call(v)) return true;
  for (unsigned i = 0, n = (unsigned)LLVMGetNumOperands(v); i < n; i++) {
    LLVMValueRef op = LLVMGetOperand(v, i);
    if (ir_is_fp_or_fp_vector(LLVMTypeOf(op)) && steep_below(op, depth + 1)) return true;
  }
  return false;
}

bool nonfinite_tangent_possible(LLVMValueRef v) { return steep_below(v, 0); }

/* Users fan out where operands do not: after `budget` of them the answer is yes (a select too many, never
 * a NaN), so that a value with many users asks at a bounded cost. */
static bool steep_above(LLVMValueRef v, int depth, unsigned *budget) {
  if (depth > DEPTH) return false;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (!LLVMIsAInstruction(user) || !passes_derivative(user) || !ir_is_fp_or_fp_vector(LLVMTypeOf(user))) continue;
    if (!(*budget)--) return true;
    if (steep_call(user) || steep_above(user, depth + 1, budget)) return true;
  }
  return false;
}

bool nonfinite_adjoint_possible(LLVMValueRef v) {
  unsigned budget = 512;
  return steep_above(v, 0, &budget);
}
