/* The partials of the vector reductions (llvm.vector.reduce.*), which the optimiser makes of an OpenMP
 * simd loop's reduction: every lane is an argument, so the partials are vectors built lane by lane.
 *   sum      r = s + sum_i v_i         dr/ds = 1,            dr/dv_i = 1
 *   product  r = s * prod_i v_i        dr/ds = prod_i v_i,   dr/dv_i = s * prod_{j != i} v_j (prefix and
 *                                      suffix products: no division, right where a lane is zero)
 *   extremum r = max_i v_i (or min)    dr/dv_i = 1 at the first lane equal to r, 0 elsewhere: the branch
 *                                      the primal took, as for fmax; r reduced again from the lanes at
 *                                      hand (the reverse sweep's v may be recomputed with another
 *                                      rounding than the recorded r, which then equals no lane) */
#include "rules/rules.h"

#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

bool rule_argument_active(const MathRule *rule, unsigned i) {
  return rule->reduce != REDUCE_NONE || (i < rule->nargs && rule->partial[i]);
}

bool rule_reduce_uses(const MathRule *rule, int k) {
  switch (rule->reduce) {
  case REDUCE_PRODUCT: return k == 's' || k == 'v';
  case REDUCE_EXTREMUM: return k == 'v';
  default: return false;
  }
}

static LLVMValueRef lane(LLVMBuilderRef b, LLVMValueRef v, unsigned i) {
  return LLVMBuildExtractElement(b, v, ir_const_i32(ir_builder_context(b), i), "");
}

void rule_reduce_partials(LLVMBuilderRef b, const MathRule *rule, LLVMValueRef s, LLVMValueRef v, LLVMValueRef r,
                          LLVMValueRef *ds, LLVMValueRef *dv) {
  LLVMTypeRef vt = LLVMTypeOf(v ? v : r), t = ir_scalar_type(vt);
  unsigned n = LLVMGetVectorSize(vt);
  LLVMValueRef one = ir_const_fp(t, 1), zero = ir_const_fp(t, 0), out = LLVMGetUndef(vt);
  *ds = rule->reduce == REDUCE_EXTREMUM ? NULL : one;
  switch (rule->reduce) {
  case REDUCE_SUM: *dv = ir_const_fp(vt, 1); return;
  case REDUCE_PRODUCT: {
    LLVMValueRef *before = xcalloc(n + 1, sizeof *before); /* before[i] = s * v_0 ... v_{i-1} */
    before[0] = s;
    for (unsigned i = 0; i < n; i++) before[i + 1] = LLVMBuildFMul(b, before[i], lane(b, v, i), "");
    LLVMValueRef after = one; /* v_{i+1} ... v_{n-1} */
    for (unsigned i = n; i-- > 0;) {
      out = LLVMBuildInsertElement(b, out, LLVMBuildFMul(b, before[i], after, ""), ir_const_i32(ir_builder_context(b), i), "");
      after = LLVMBuildFMul(b, after, lane(b, v, i), "");
    }
    *ds = after;
    free(before);
    break;
  }
  case REDUCE_EXTREMUM: {
    LLVMModuleRef m = LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInsertBlock(b)));
    LLVMValueRef reduce = LLVMGetIntrinsicDeclaration(m, LLVMLookupIntrinsicID(rule->intrinsic, strlen(rule->intrinsic)), &vt, 1);
    r = LLVMBuildCall2(b, LLVMGlobalGetValueType(reduce), reduce, &v, 1, "");
    LLVMValueRef found = LLVMConstInt(LLVMInt1TypeInContext(ir_builder_context(b)), 0, 0);
    for (unsigned i = 0; i < n; i++) {
      LLVMValueRef hit = LLVMBuildFCmp(b, LLVMRealOEQ, lane(b, v, i), r, "");
      LLVMValueRef first = LLVMBuildAnd(b, hit, LLVMBuildNot(b, found, ""), "");
      found = LLVMBuildOr(b, found, hit, "");
      out = LLVMBuildInsertElement(b, out, LLVMBuildSelect(b, first, one, zero, ""), ir_const_i32(ir_builder_context(b), i), "");
    }
    break;
  }
  default: *dv = NULL; return;
  }
  *dv = out;
}
