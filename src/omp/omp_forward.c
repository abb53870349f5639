/* OpenMP in forward mode. The tangent of a parallel region is a parallel region running the outlined
 * function's tangent function on the same team: shadows of shared data are shared like the data, and
 * tangents of private data are private like it. Reductions combine in the open (omp_prepare.c), so
 * their tangents combine with them. */
#include <stdlib.h>
#include <string.h>

#include "forward/forward.h"
#include "forward/fwd_internal.h"
#include "ir/ir.h"
#include "omp/omp.h"

static bool any_active(FwdGen *g, LLVMValueRef call, unsigned first) {
  for (unsigned i = first, n = ir_num_call_args(call); i < n; i++)
    if (activity_active(g->act, LLVMGetArgOperand(call, i))) return true;
  return false;
}

/* The function the team runs: (gtid, btid, then per argument its value, its shadow lanes for a pointer
 * or the address of its tangent for a value), which calls the tangent function tf. Every argument of
 * __kmpc_fork_call travels as one pointer-sized word, and a tangent of width N is not one. */
static LLVMValueRef team_function(FwdGen *g, LLVMValueRef outlined, const char *pattern, LLVMValueRef tf) {
  char *key = xasprintf("fwdteam|%s|%s", LLVMGetValueName(outlined), LLVMGetValueName(tf));
  LLVMValueRef w = ad_find_generated(g->ad, key);
  if (w) {
    free(key);
    return w;
  }
  LLVMTypeRef ptr = LLVMPointerTypeInContext(g->ctx, 0);
  unsigned np = LLVMCountParams(outlined), n = 0, k = 0;
  LLVMTypeRef *types = xcalloc(np * (1 + g->width) + 1, sizeof *types);
  for (unsigned p = 0; p < np; p++) {
    LLVMTypeRef t = LLVMTypeOf(LLVMGetParam(outlined, p));
    types[n++] = t;
    if (pattern[p] != 'd') continue;
    if (ir_is_ptr(t))
      for (unsigned l = 0; l < g->width; l++) types[n++] = ptr;
    else
      types[n++] = ptr;
  }
  char *name = xasprintf("team.%s", LLVMGetValueName(tf));
  w = LLVMAddFunction(g->ad->mod, name, LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), types, n, 0));
  free(name);
  LLVMSetLinkage(w, LLVMInternalLinkage);
  ad_remember_generated(g->ad, key, w);
  free(key);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(g->ctx);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(g->ctx, w, "entry"));
  LLVMValueRef *args = xcalloc(np * (1 + g->width) + 1, sizeof *args);
  unsigned a = 0;
  for (unsigned p = 0; p < np; p++) {
    LLVMTypeRef t = LLVMTypeOf(LLVMGetParam(outlined, p));
    args[a++] = LLVMGetParam(w, k++);
    if (pattern[p] != 'd') continue;
    if (ir_is_ptr(t)) {
      for (unsigned l = 0; l < g->width; l++) args[a++] = LLVMGetParam(w, k++);
      continue;
    }
    /* the tangent function takes a value's tangent lane by lane, as any duplicated parameter */
    LLVMValueRef tv = LLVMBuildLoad2(b, tan_type(g, t), LLVMGetParam(w, k++), "tangent");
    for (unsigned l = 0; l < g->width; l++)
      args[a++] = g->width == 1 ? tv
                  : ir_is_fp(t) ? LLVMBuildExtractElement(b, tv, ir_const_i32(g->ctx, l), "")
                                : LLVMBuildExtractValue(b, tv, l, "");
  }
  LLVMBuildCall2(b, LLVMGlobalGetValueType(tf), tf, args, a, "");
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
  free(args);
  free(types);
  return w;
}

static void fork(FwdGen *g, LLVMValueRef call) {
  LLVMValueRef outlined = omp_fork_outlined(call);
  if (!outlined || !any_active(g, call, OMP_FORK_FIRST_ARG)) {
    fwd_clone(g, call);
    return;
  }
  char *pattern = activity_fork_pattern(g->act, call);
  LLVMValueRef tf = fwd_function(g->ad, outlined, pattern, false, g->width);
  if (!tf) { /* reported; this function cannot be right without it */
    g->errors++;
    free(pattern);
    fwd_clone(g, call);
    return;
  }
  LLVMValueRef team = team_function(g, outlined, pattern, tf);
  unsigned n = ir_num_call_args(call), k = 0;
  LLVMValueRef *args = xcalloc(n * (1 + g->width) + 1, sizeof *args);
  args[k++] = fwd_primal(g, LLVMGetArgOperand(call, 0));
  args[k++] = NULL; /* the count, once known */
  args[k++] = team;
  for (unsigned i = OMP_FORK_FIRST_ARG; i < n; i++) {
    LLVMValueRef a = LLVMGetArgOperand(call, i);
    args[k++] = fwd_primal(g, a);
    if (pattern[i - OMP_FORK_FIRST_ARG + OMP_OUTLINED_FIRST_PARAM] != 'd') continue;
    LLVMTypeRef t = LLVMTypeOf(a);
    if (ir_is_ptr(t)) {
      fwd_shadow_lanes(g, a, call, "this parallel region", &args[k]);
      k += g->width;
    } else { /* a value captured by copy: its tangent goes by address */
      LLVMValueRef slot = ir_entry_alloca(g->func, tan_type(g, t), "tangent.arg");
      LLVMBuildStore(g->b, tan_get_or_zero(g, a), slot);
      args[k++] = slot;
    }
  }
  args[1] = LLVMConstInt(LLVMInt32TypeInContext(g->ctx), k - OMP_FORK_FIRST_ARG, 0);
  LLVMValueRef fork_fn = ir_called_function(call);
  LLVMValueRef nc = LLVMBuildCall2(g->b, LLVMGlobalGetValueType(fork_fn), fork_fn, args, k, "");
  vmap_put(&g->vmap, call, nc);
  free(args);
  free(pattern);
}

void fwd_omp(FwdGen *g, LLVMValueRef call) {
  switch (omp_classify(call)) {
  case OMP_FORK: fork(g, call); return;
  case OMP_REDUCE:
  case OMP_END_REDUCE:
  case OMP_UNSUPPORTED:
    fwd_error(g, call, OMP_UNSUPPORTED_MESSAGE, ir_called_name(call));
    fwd_clone(g, call);
    return;
  default: fwd_clone(g, call); return;
  }
}
