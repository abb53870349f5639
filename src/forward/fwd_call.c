/* Calls in forward mode: math functions through the rule table, functions of the module through their
 * own tangent functions, memory functions through their shadows; anything else with an active argument
 * is refused. */
#include "forward/forward.h"
#include "forward/fwd_internal.h"

#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

/* The sum of a vector's lanes, in any order (a tangent's, not the program's). */
static LLVMValueRef sum_lanes(FwdGen *g, LLVMValueRef v) {
  LLVMTypeRef vt = LLVMTypeOf(v);
  LLVMValueRef args[2] = {ir_const_fp(ir_scalar_type(vt), -0.0), v};
  LLVMValueRef sum = ir_call_intrinsic(g->b, "llvm.vector.reduce.fadd", &vt, 1, args, 2);
  LLVMSetFastMathFlags(sum, LLVMFastMathAllowReassoc | LLVMFastMathNoSignedZeros);
  return sum;
}

/* r = reduce(s, v): dr = dr/ds ds + sum_i dr/dv_i dv_i, direction by direction. */
static void reduction(FwdGen *g, LLVMValueRef call, const MathRule *rule, LLVMValueRef r) {
  unsigned n = ir_num_call_args(call);
  LLVMValueRef s = n == 2 ? LLVMGetArgOperand(call, 0) : NULL, v = LLVMGetArgOperand(call, n - 1), ps, pv;
  rule_reduce_partials(g->b, rule, s ? fwd_primal(g, s) : NULL, fwd_primal(g, v), r, &ps, &pv);
  LLVMTypeRef t = LLVMTypeOf(call), vt = LLVMTypeOf(v);
  LLVMValueRef ts = s ? tan_get(g, s) : NULL, tv = tan_get(g, v), lanes[MAX_WIDTH];
  for (unsigned w = 0; w < g->width; w++) {
    LLVMValueRef d = ir_const_fp(t, 0);
    if (tv) d = sum_lanes(g, LLVMBuildFMul(g->b, pv, tan_lane(g, vt, tv, w), ""));
    if (ts) d = LLVMBuildFAdd(g->b, d, LLVMBuildFMul(g->b, ps, tan_lane(g, t, ts, w), ""), "");
    lanes[w] = d;
  }
  tan_set(g, call, tan_pack(g, t, lanes));
}

static void math(FwdGen *g, LLVMValueRef call, const MathRule *rule) {
  LLVMValueRef c = fwd_clone(g, call);
  if (!activity_varied(g->act, call)) return;
  if (rule->reduce) {
    reduction(g, call, rule, c);
    return;
  }
  LLVMTypeRef t = LLVMTypeOf(call);
  LLVMValueRef args[3];
  for (unsigned i = 0; i < rule->nargs; i++) args[i] = fwd_primal(g, LLVMGetArgOperand(call, i));
  LLVMValueRef sum = NULL;
  for (unsigned i = 0; i < rule->nargs; i++) {
    LLVMValueRef ti = tan_get(g, LLVMGetArgOperand(call, i));
    if (!ti) continue;
    sum = tan_add(g, t, sum, tan_scale(g, t, rule_emit_partial(g->b, rule, i, args, c), ti));
  }
  tan_set(g, call, sum);
}

static void module_call(FwdGen *g, LLVMValueRef call) {
  LLVMValueRef callee = ir_called_function(call);
  char *pattern = activity_call_pattern(g->act, call);
  if (!strpbrk(pattern, "dr")) {
    free(pattern);
    fwd_clone(g, call);
    return;
  }
  if (LLVMIsFunctionVarArg(LLVMGlobalGetValueType(callee))) {
    fwd_error(g, call, "cannot differentiate a call to the variadic function '%s' with active arguments",
              LLVMGetValueName(callee));
    free(pattern);
    fwd_clone(g, call);
    return;
  }
  bool ret_tangent = activity_active(g->act, call);
  LLVMValueRef tf = fwd_function(g->ad, callee, pattern, ret_tangent, g->width);
  if (!tf) { /* the callee's errors are reported; this function cannot be right without it */
    g->errors++;
    free(pattern);
    fwd_clone(g, call);
    return;
  }
  unsigned n = ir_num_call_args(call), k = 0;
  LLVMValueRef *args = xcalloc(n * (1 + g->width) + 1, sizeof *args);
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef a = LLVMGetArgOperand(call, i);
    args[k++] = fwd_primal(g, a);
    if (pattern[i] != 'd') continue;
    LLVMTypeRef t = LLVMTypeOf(a);
    if (ir_is_ptr(t)) {
      fwd_shadow_lanes(g, a, call, "this call", &args[k]);
    } else {
      LLVMValueRef tv = tan_get(g, a);
      for (unsigned w = 0; w < g->width; w++) args[k + w] = tv ? tan_lane(g, t, tv, w) : LLVMConstNull(t);
    }
    k += g->width;
  }
  LLVMValueRef nc = LLVMBuildCall2(g->b, LLVMGlobalGetValueType(tf), tf, args, k, "");
  /* by-value arguments are copied at the call: the attribute must be on the call as on the callee */
  unsigned byval = ir_attr_kind("byval");
  for (unsigned i = 0; i < k; i++) {
    LLVMAttributeRef a = LLVMGetEnumAttributeAtIndex(tf, i + 1, byval);
    if (a) LLVMAddCallSiteAttribute(nc, i + 1, a);
  }
  free(args);
  free(pattern);
  if (ret_tangent) {
    vmap_put(&g->vmap, call, LLVMBuildExtractValue(g->b, nc, 0, ""));
    tan_set(g, call, LLVMBuildExtractValue(g->b, nc, 1, ""));
  } else {
    vmap_put(&g->vmap, call, nc);
  }
}

void fwd_call(FwdGen *g, LLVMValueRef call) {
  const MathRule *rule;
  CallKind kind = call_classify(call, &rule);
  unsigned which;
  switch (kind) {
  case CALL_DEBUG: return;
  case CALL_MATH: math(g, call, rule); return;
  case CALL_MEMCPY: fwd_memcpy(g, call); return;
  case CALL_MEMSET: fwd_memset(g, call); return;
  case CALL_ALLOC:
  case CALL_REALLOC:
  case CALL_FREE: fwd_heap(g, call, kind); return;
  case CALL_MODULE: module_call(g, call); return;
  case CALL_INACTIVE: fwd_clone(g, call); return;
  case CALL_OMP: fwd_omp(g, call); return;
  case CALL_MPI: fwd_mpi(g, call); return;
  case CALL_REQUEST:
    fwd_error(g, call, "cannot differentiate a derivative request (higher-order derivatives are not supported)");
    fwd_clone(g, call);
    return;
  case CALL_UNKNOWN:
    if (activity_any_active_argument(g->act, call, &which))
      fwd_error(g, call, "cannot differentiate a call to '%s', whose body is not in this file, with an active "
                         "argument (#%u)", ir_called_name(call), which + 1);
    fwd_clone(g, call);
    return;
  case CALL_INDIRECT:
    if (activity_any_active_argument(g->act, call, &which))
      fwd_error(g, call, "cannot differentiate an indirect call (through a function pointer) with an active "
                         "argument (#%u)", which + 1);
    fwd_clone(g, call);
    return;
  }
}
