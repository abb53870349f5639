/* OpenMP in forward mode. The tangent of a parallel region is a parallel region running the outlined
 * function's tangent function on the same team: shadows of shared data are shared like the data, and
 * tangents of private data are private like it. Reductions combine in the open (omp_prepare.c), so
 * their tangents combine with them. A task's tangent is a task, whose block carries the shadows of what
 * the task shares and the tangents of what it copies; dependences, waits and groups order tangents as
 * they order values. */
#include <stdlib.h>
#include <string.h>

#include "ad/constants.h"
#include "ad/global_shadows.h"
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
  LLVMBuilderRef b;
  w = ad_add_generated(g->ad, key, name, LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), types, n, 0), &b);
  free(name);
  free(key);
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
  if (!outlined || (!any_active(g, call, OMP_FORK_FIRST_ARG) && !ad_call_reaches_active_global(call))) {
    fwd_clone(g, call);
    return;
  }
  char *pattern = ad_mark_view_slots(g->act, call, activity_fork_pattern(g->act, call));
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

/* ---- tasks ----
 * The task's block gets a shadow per lane (__parad_rt_task_shadow: with its own shareds block, pointed
 * to from its first word as the task's is), so that the creating code's stores into the block write the
 * shadows of what the task shares and the tangents of what it copies. The block grows by a word per lane
 * holding that lane's shadow; the runtime calls a function that hands the lanes to the entry's tangent
 * function, and the task's destructor frees them when the task completes, however it ran (deferred, at
 * once under if(0), untied in parts). */
enum { TASK_DESTRUCTOR_OFFSET = 24 };

/* The lanes' shadows kept from byte `at` of the task block. */
static void task_lanes(FwdGen *g, LLVMBuilderRef b, LLVMValueRef task, unsigned long long at, LLVMValueRef *lanes) {
  LLVMTypeRef ptr = LLVMPointerTypeInContext(g->ctx, 0);
  for (unsigned l = 0; l < g->width; l++) {
    LLVMValueRef off = LLVMConstInt(LLVMInt64TypeInContext(g->ctx), at + 8ull * l, 0);
    lanes[l] = LLVMBuildLoad2(b, ptr, LLVMBuildGEP2(b, LLVMInt8TypeInContext(g->ctx), task, &off, 1, ""), "task.shadow");
  }
}

/* (gtid, task) -> i32: the entry's tangent function tf with the task's shadows (run), or the destructor
 * that frees them. */
static LLVMValueRef task_function(FwdGen *g, LLVMValueRef tf, unsigned long long at, bool run) {
  char *key = xasprintf("fwdtask|%s|%s|%llu", run ? "run" : "free", LLVMGetValueName(tf), at);
  LLVMValueRef f = ad_find_generated(g->ad, key);
  if (f) {
    free(key);
    return f;
  }
  LLVMTypeRef i32 = LLVMInt32TypeInContext(g->ctx), ptr = LLVMPointerTypeInContext(g->ctx, 0);
  LLVMTypeRef params[2] = {i32, ptr};
  char *name = xasprintf("%s.%s", run ? "task" : "task.free", LLVMGetValueName(tf));
  LLVMBuilderRef b;
  f = ad_add_generated(g->ad, key, name, LLVMFunctionType(i32, params, 2, 0), &b);
  free(name);
  free(key);
  LLVMValueRef args[2 + MAX_WIDTH] = {LLVMGetParam(f, 0), LLVMGetParam(f, 1)};
  task_lanes(g, b, LLVMGetParam(f, 1), at, args + 2);
  if (run) {
    LLVMBuildRet(b, LLVMBuildCall2(b, LLVMGlobalGetValueType(tf), tf, args, 2 + g->width, ""));
  } else {
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), &ptr, 1, 0);
    for (unsigned l = 0; l < g->width; l++) ir_call_named(b, "__parad_rt_task_shadow_free", fty, &args[2 + l], 1);
    LLVMBuildRet(b, LLVMConstInt(i32, 0, 0));
  }
  LLVMDisposeBuilder(b);
  return f;
}

static void task_alloc(FwdGen *g, LLVMValueRef call) {
  LLVMValueRef entry = omp_task_entry(call);
  LLVMValueRef flags = LLVMGetArgOperand(call, OMP_TASK_FLAGS_ARG), size = LLVMGetArgOperand(call, OMP_TASK_SIZE_ARG);
  if (!activity_shadowed(g->act, call)) {
    fwd_clone(g, call);
    return;
  }
  if (!entry || !LLVMIsAConstantInt(size) || (omp_task_flags(flags, false) & (OMP_TASK_DESTRUCTORS | OMP_TASK_DETACHABLE))) {
    fwd_error(g, call, "cannot differentiate this task: its body is not in the program, it is detachable, or "
                       "its private copies have destructors");
    fwd_clone(g, call);
    return;
  }
  char *pattern = ad_mark_task_views(g->act, call, xstrdup("cd"));
  LLVMValueRef tf = fwd_function(g->ad, entry, pattern, false, g->width);
  free(pattern);
  if (!tf) { /* reported */
    g->errors++;
    fwd_clone(g, call);
    return;
  }
  unsigned long long at = (LLVMConstIntGetZExtValue(size) + 7) & ~7ull;
  LLVMTypeRef i32 = LLVMInt32TypeInContext(g->ctx), i64 = LLVMInt64TypeInContext(g->ctx), ptr = LLVMPointerTypeInContext(g->ctx, 0);
  LLVMValueRef with_destructor = LLVMBuildOr(g->b, fwd_primal(g, flags), LLVMConstInt(i32, OMP_TASK_DESTRUCTORS, 0), "");
  LLVMValueRef nc = fwd_clone(g, call);
  LLVMSetOperand(nc, OMP_TASK_FLAGS_ARG, with_destructor);
  LLVMSetOperand(nc, OMP_TASK_SIZE_ARG, LLVMConstInt(i64, at + 8ull * g->width, 0));
  LLVMSetOperand(nc, OMP_TASK_ENTRY_ARG, task_function(g, tf, at, true));
  LLVMValueRef off = LLVMConstInt(i64, TASK_DESTRUCTOR_OFFSET, 0);
  LLVMBuildStore(g->b, task_function(g, tf, at, false), LLVMBuildGEP2(g->b, LLVMInt8TypeInContext(g->ctx), nc, &off, 1, ""));
  LLVMTypeRef params[3] = {i64, i64, i64};
  LLVMTypeRef fty = LLVMFunctionType(ptr, params, 3, 0);
  LLVMValueRef args[3] = {LLVMConstInt(i64, at, 0), fwd_primal(g, LLVMGetArgOperand(call, OMP_TASK_SHAREDS_ARG)),
                          LLVMConstInt(i64, omp_task_header_bytes(call), 0)};
  LLVMValueRef lanes[MAX_WIDTH];
  for (unsigned l = 0; l < g->width; l++) {
    lanes[l] = ir_call_named(g->b, "__parad_rt_task_shadow", fty, args, 3);
    LLVMValueRef where = LLVMConstInt(i64, at + 8ull * l, 0);
    LLVMBuildStore(g->b, lanes[l], LLVMBuildGEP2(g->b, LLVMInt8TypeInContext(g->ctx), nc, &where, 1, ""));
  }
  tan_set(g, call, tan_pack(g, ptr, lanes));
}

/* (dst, src, lastpriv) -> void: libomp's completion of a task loop chunk's copy of the block (dup, or
 * null), then shadow blocks of the chunk's own for its lanes. */
static LLVMValueRef task_copy_function(FwdGen *g, LLVMValueRef dup, unsigned long long at, unsigned long long shareds) {
  char *key = xasprintf("fwdtask|copy|%s|%llu|%llu|%u", dup ? LLVMGetValueName(dup) : "", at, shareds, g->width);
  LLVMValueRef f = ad_find_generated(g->ad, key);
  if (f) {
    free(key);
    return f;
  }
  LLVMTypeRef ptr = LLVMPointerTypeInContext(g->ctx, 0), i32 = LLVMInt32TypeInContext(g->ctx), i64 = LLVMInt64TypeInContext(g->ctx);
  LLVMTypeRef params[3] = {ptr, ptr, i32};
  LLVMBuilderRef b;
  f = ad_add_generated(g->ad, key, "task.copy", LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), params, 3, 0), &b);
  free(key);
  LLVMValueRef dst = LLVMGetParam(f, 0), src = LLVMGetParam(f, 1), args[3] = {dst, src, LLVMGetParam(f, 2)};
  if (dup) LLVMBuildCall2(b, LLVMGlobalGetValueType(dup), dup, args, 3, "");
  LLVMValueRef lanes[MAX_WIDTH];
  task_lanes(g, b, src, at, lanes);
  LLVMTypeRef cparams[4] = {ptr, i64, i64, i64};
  for (unsigned l = 0; l < g->width; l++) {
    LLVMValueRef cargs[4] = {lanes[l], LLVMConstInt(i64, at, 0), LLVMConstInt(i64, shareds, 0), LLVMConstInt(i64, 80, 0)};
    LLVMValueRef copy = ir_call_named(b, "__parad_rt_task_shadow_copy", LLVMFunctionType(ptr, cparams, 4, 0), cargs, 4);
    LLVMValueRef off = LLVMConstInt(i64, at + 8ull * l, 0);
    LLVMBuildStore(b, copy, LLVMBuildGEP2(b, LLVMInt8TypeInContext(g->ctx), dst, &off, 1, ""));
  }
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
  return f;
}

static void task_loop(FwdGen *g, LLVMValueRef call, int dup_arg) {
  LLVMValueRef nc = fwd_clone(g, call), alloc = omp_task_alloc_of(LLVMGetArgOperand(call, 2));
  if (!alloc || !activity_shadowed(g->act, alloc)) {
    if (!alloc && activity_shadowed(g->act, LLVMGetArgOperand(call, 2)))
      fwd_error(g, call, "cannot tell which task this task loop copies");
    return;
  }
  LLVMValueRef size = LLVMGetArgOperand(alloc, OMP_TASK_SIZE_ARG), shareds = LLVMGetArgOperand(alloc, OMP_TASK_SHAREDS_ARG);
  LLVMValueRef dup = ir_strip_pointer_casts(LLVMGetArgOperand(call, (unsigned)dup_arg));
  if (!LLVMIsAConstantInt(size) || !LLVMIsAConstantInt(shareds) || !(LLVMIsAFunction(dup) || LLVMIsAConstantPointerNull(dup))) {
    fwd_error(g, call, "cannot differentiate this task loop: its block's size or its copy function is not known");
    return;
  }
  unsigned long long at = (LLVMConstIntGetZExtValue(size) + 7) & ~7ull;
  LLVMSetOperand(nc, (unsigned)dup_arg, task_copy_function(g, LLVMIsAFunction(dup) ? dup : NULL, at, LLVMConstIntGetZExtValue(shareds)));
}

/* copyprivate (omp_copyprivate.c): the shadows go to the team as the values do (tangents of floats,
 * shadows of pointers), by the same call with a list of the shadows and clang's copy. */
static void copyprivate(FwdGen *g, LLVMValueRef call) {
  LLVMValueRef nc = fwd_clone(g, call);
  ValueList elems = {0};
  bool listed = omp_copyprivate_list(call, &elems), any = false;
  for (size_t k = 0; listed && k < elems.len; k++) any |= activity_shadowed(g->act, elems.data[k]);
  if (!listed && any_active(g, call, 0))
    fwd_error(g, call, "cannot differentiate this copyprivate: its list of variables is not as clang builds it");
  if (any && g->width > 1)
    fwd_error(g, call, "cannot differentiate copyprivate in vector forward mode (width %u)", g->width);
  if (any && g->width == 1) {
    LLVMTypeRef ptr = LLVMPointerTypeInContext(g->ctx, 0);
    LLVMValueRef list = ir_entry_alloca(g->func, LLVMArrayType2(ptr, elems.len), "copyprivate.shadows");
    for (size_t k = 0; k < elems.len; k++) {
      LLVMValueRef s = fwd_primal(g, elems.data[k]); /* unshadowed: the value again, which is the same */
      if (activity_shadowed(g->act, elems.data[k])) fwd_shadow_lanes(g, elems.data[k], call, "this copyprivate", &s);
      LLVMValueRef at = LLVMConstInt(LLVMInt64TypeInContext(g->ctx), 8 * k, 0);
      LLVMBuildStore(g->b, s, LLVMBuildGEP2(g->b, LLVMInt8TypeInContext(g->ctx), list, &at, 1, ""));
    }
    LLVMValueRef args[6];
    for (unsigned i = 0; i < 6; i++) args[i] = LLVMGetArgOperand(nc, i);
    args[OMP_COPYPRIVATE_LIST_ARG] = list;
    LLVMBuildCall2(g->b, LLVMGetCalledFunctionType(nc), LLVMGetCalledValue(nc), args, 6, "");
  }
  vec_free(&elems);
}

void fwd_omp(FwdGen *g, LLVMValueRef call) {
  int dup_arg = omp_taskloop_dup_arg(call);
  if (dup_arg >= 0) {
    task_loop(g, call, dup_arg);
    return;
  }
  switch (omp_classify(call)) {
  case OMP_FORK: fork(g, call); return;
  case OMP_TASK_ALLOC: task_alloc(g, call); return;
  case OMP_COPYPRIVATE: copyprivate(g, call); return;
  case OMP_REDUCE:
  case OMP_END_REDUCE:
  case OMP_UNSUPPORTED:
    fwd_error(g, call, OMP_UNSUPPORTED_MESSAGE, ir_called_name(call), omp_unsupported_reason(call));
    fwd_clone(g, call);
    return;
  default: fwd_clone(g, call); return;
  }
}
