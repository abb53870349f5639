/* Reductions in the open. libomp combines the threads' partial results of a reduction by one of several
 * methods it picks at run time; in the tree method it calls the combining function itself, out of
 * Parad's sight, and in the atomic one it runs a compare-and-swap loop for max, min and products.
 * Before differentiating, every reduction in the functions a derivative reaches (through function
 * pointers too: every function such a call may hold) is turned into the
 * critical-section method: each thread adds its part under the reduction's lock, in code Parad
 * differentiates like any other (and reverses one thread at a time, in the opposite order). The
 * program computes the same; the optimiser then drops the other methods' code. Untied tasks are made
 * tied first (omp_untied.c), and tasks' calls of their private copies' maps are expanded
 * (omp_private_maps.c). */
#include "omp/omp.h"

#include <stdlib.h>
#include <string.h>

#include "ad/indirect.h"
#include "ad/request.h"
#include "ir/ir.h"
#include "ir/valuemap.h"

static void reach(LLVMValueRef fn, ValueMap *seen, ValueList *order) {
  if (!fn || !LLVMIsAFunction(fn) || LLVMIsDeclaration(fn) || vmap_has(seen, fn)) return;
  vmap_put(seen, fn, fn);
  vec_push(order, fn);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (!ir_is_call_site(i)) continue;
      reach(ir_called_function(i), seen, order);
      reach(omp_called_function(i), seen, order);
      if (!ir_called_function(i) && !LLVMIsAInlineAsm(LLVMGetCalledValue(i))) { /* every function it may call */
        ValueList targets = {0};
        indirect_module_candidates(LLVMGetGlobalParent(fn), LLVMGetCalledFunctionType(i), &targets);
        for (size_t t = 0; t < targets.len; t++) reach(targets.data[t], seen, order);
        vec_free(&targets);
      }
    }
}

static void call_void(LLVMBuilderRef b, const char *name, LLVMValueRef *args, unsigned n) {
  LLVMTypeRef params[3];
  for (unsigned i = 0; i < n; i++) params[i] = LLVMTypeOf(args[i]);
  LLVMContextRef c = ir_builder_context(b);
  ir_call_named(b, name, LLVMFunctionType(LLVMVoidTypeInContext(c), params, n, 0), args, n);
}

static bool has_phis(LLVMBasicBlockRef bb) {
  LLVMValueRef first = LLVMGetFirstInstruction(bb);
  return first && LLVMIsAPHINode(first);
}

/* switch (method) { case 1: ...; case 2: ... } with the method now 1: a branch to case 1, so that the
 * other methods' code (a compare-and-swap loop for max, min and products) is gone even at -O0, when
 * no optimiser removes it. Left alone where a successor has phis (the optimiser then folds it). */
static void fold_method_switch(LLVMValueRef sw, LLVMValueRef method) {
  if (!LLVMIsASwitchInst(sw) || LLVMGetOperand(sw, 0) != method) return;
  LLVMBasicBlockRef dest = LLVMGetSwitchDefaultDest(sw);
  for (unsigned i = 2, n = (unsigned)LLVMGetNumOperands(sw); i + 1 < n; i += 2)
    if (LLVMConstIntGetZExtValue(LLVMGetOperand(sw, i)) == 1) dest = LLVMValueAsBasicBlock(LLVMGetOperand(sw, i + 1));
  for (unsigned i = 0, n = LLVMGetNumSuccessors(sw); i < n; i++)
    if (LLVMGetSuccessor(sw, i) != dest && has_phis(LLVMGetSuccessor(sw, i))) return;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(method)));
  LLVMPositionBuilderBefore(b, sw);
  LLVMBuildBr(b, dest);
  LLVMInstructionEraseFromParent(sw);
  LLVMDisposeBuilder(b);
}

/* The reduction's list of private copies was for the runtime's combining only: its stores go (at -O0
 * one of them stores an array section's length disguised as a pointer). */
static void drop_list(LLVMValueRef list) {
  if (!LLVMIsAAllocaInst(list)) return;
  ValueList gone = {0};
  for (LLVMUseRef u = LLVMGetFirstUse(list); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == list) {
      vec_push(&gone, user);
      continue;
    }
    if (!LLVMIsAGetElementPtrInst(user)) goto keep;
    for (LLVMUseRef v = LLVMGetFirstUse(user); v; v = LLVMGetNextUse(v)) {
      LLVMValueRef st = LLVMGetUser(v);
      if (!LLVMIsAStoreInst(st) || LLVMGetOperand(st, 1) != user) goto keep;
      vec_push(&gone, st);
    }
    vec_push(&gone, user);
  }
  for (size_t i = 0; i < gone.len; i++) LLVMInstructionEraseFromParent(gone.data[i]);
  LLVMInstructionEraseFromParent(list);
keep:
  vec_free(&gone);
}

/* Blocks no longer reachable from the entry, deleted (their values replaced by poison first); kept
 * where a reachable block has phis. */
static void drop_unreachable(LLVMValueRef fn) {
  ValueMap live;
  vmap_init(&live);
  ValueList work = {0};
  vec_push(&work, LLVMBasicBlockAsValue(LLVMGetEntryBasicBlock(fn)));
  while (work.len) {
    LLVMValueRef bv = work.data[--work.len];
    if (vmap_has(&live, bv)) continue;
    vmap_put(&live, bv, bv);
    LLVMValueRef term = LLVMGetBasicBlockTerminator(LLVMValueAsBasicBlock(bv));
    for (unsigned i = 0, n = term ? LLVMGetNumSuccessors(term) : 0; i < n; i++)
      vec_push(&work, LLVMBasicBlockAsValue(LLVMGetSuccessor(term, i)));
  }
  ValueList dead = {0};
  bool phis = false;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    if (!vmap_has(&live, LLVMBasicBlockAsValue(bb))) vec_push(&dead, LLVMBasicBlockAsValue(bb));
    else phis |= has_phis(bb);
  if (!phis) {
    for (size_t i = 0; i < dead.len; i++)
      for (LLVMValueRef v = LLVMGetFirstInstruction(LLVMValueAsBasicBlock(dead.data[i])); v; v = LLVMGetNextInstruction(v))
        if (LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMVoidTypeKind) LLVMReplaceAllUsesWith(v, LLVMGetPoison(LLVMTypeOf(v)));
    for (size_t i = 0; i < dead.len; i++) LLVMDeleteBasicBlock(LLVMValueAsBasicBlock(dead.data[i]));
  }
  vec_free(&dead);
  vec_free(&work);
  vmap_free(&live);
}

/* A spawn whose dependences order its tasks in no fixed way, marked for reverse mode (omp.h). */
static void mark_unordered_deps(LLVMValueRef call) {
  if (!omp_spawn_has_unordered_deps(call)) return;
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(call));
  unsigned kind = LLVMGetMDKindIDInContext(c, OMP_UNORDERED_DEPS, (unsigned)strlen(OMP_UNORDERED_DEPS));
  LLVMSetMetadata(call, kind, LLVMMetadataAsValue(c, LLVMMDStringInContext2(c, "", 0)));
}

static void rewrite(LLVMValueRef call) {
  omp_serialise_mutexinoutset(call);
  mark_unordered_deps(call);
  OmpKind kind = omp_classify(call);
  if (kind != OMP_REDUCE && kind != OMP_END_REDUCE) return;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(call)));
  LLVMPositionBuilderBefore(b, call);
  LLVMValueRef args[3] = {LLVMGetArgOperand(call, 0), LLVMGetArgOperand(call, 1), omp_lock(call)};
  if (kind == OMP_REDUCE) {
    call_void(b, "__kmpc_critical", args, 3);
    LLVMValueRef one = LLVMConstInt(LLVMTypeOf(call), 1, 0); /* 1: the calling thread combines */
    ValueList users = {0};
    for (LLVMUseRef u = LLVMGetFirstUse(call); u; u = LLVMGetNextUse(u)) vec_push(&users, LLVMGetUser(u));
    LLVMReplaceAllUsesWith(call, one);
    for (size_t i = 0; i < users.len; i++) fold_method_switch(users.data[i], one);
    vec_free(&users);
    LLVMValueRef list = LLVMGetArgOperand(call, 4);
    LLVMInstructionEraseFromParent(call);
    LLVMDisposeBuilder(b);
    drop_list(list);
    return;
  } else {
    call_void(b, "__kmpc_end_critical", args, 3);
    if (omp_end_reduce_has_barrier(call)) call_void(b, "__kmpc_barrier", args, 2);
  }
  LLVMInstructionEraseFromParent(call);
  LLVMDisposeBuilder(b);
}

/* Before the other rewrites: tying a task edits its entry, which may be one of fns. */
static void tie_untied_tasks(LLVMModuleRef m, const ValueList *fns) {
  ValueList allocs = {0};
  ValueMap joined;
  vmap_init(&joined);
  for (size_t k = 0; k < fns->len; k++)
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fns->data[k]); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (ir_is_call(i) && omp_is_runtime_call(i) && omp_classify(i) == OMP_TASK_ALLOC) vec_push(&allocs, i);
  for (size_t j = 0; j < allocs.len; j++) omp_run_tied(m, allocs.data[j], &joined);
  vec_free(&allocs);
  vmap_free(&joined);
}

/* The bounds a worksharing loop gets from libomp: the init and dispatch calls write the thread's
 * lower and upper bounds, stride and last-iteration flag through their pointer arguments while they run,
 * and keep none of them. Said to the optimiser, the locals they fill stay private to the outlined
 * function, so a libm call in the loop (which may write errno, so any memory the optimiser cannot rule
 * out) no longer makes the loop reload its bound in every iteration: the optimiser hoists the load, and
 * the generators see a loop whose trip count is known when it starts (its runs noted and decided once). */
static void bounds_not_kept(LLVMModuleRef m) {
  static const char *const prefixes[] = {"__kmpc_for_static_init_", "__kmpc_dist_for_static_init_",
                                         "__kmpc_dispatch_next_", "__kmpc_distribute_static_init_"};
  LLVMContextRef c = LLVMGetModuleContext(m);
  unsigned nocapture = LLVMGetEnumAttributeKindForName("nocapture", 9);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    size_t len;
    const char *name = LLVMGetValueName2(f, &len);
    bool bounds = false;
    for (size_t k = 0; k < sizeof prefixes / sizeof *prefixes && !bounds; k++)
      bounds = !strncmp(name, prefixes[k], strlen(prefixes[k]));
    if (!bounds || !LLVMIsDeclaration(f)) continue;
    for (unsigned p = 1, n = LLVMCountParams(f); p < n; p++) /* not the source location (0) */
      if (LLVMGetTypeKind(LLVMTypeOf(LLVMGetParam(f, p))) == LLVMPointerTypeKind)
        LLVMAddAttributeAtIndex(f, p + 1, LLVMCreateEnumAttribute(c, nocapture, 0));
  }
}

void omp_prepare(LLVMModuleRef m) {
  bounds_not_kept(m);
  omp_direct_private_maps(m);
  ValueMap seen;
  ValueList order = {0};
  vmap_init(&seen);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (request_is_canonical_call(i)) reach(ir_strip_pointer_casts(LLVMGetArgOperand(i, request_fn_arg(i))), &seen, &order);
  omp_open_task_reductions(m, &order);
  tie_untied_tasks(m, &order);
  for (size_t k = 0; k < order.len; k++) {
    ValueList calls = {0};
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(order.data[k]); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (ir_is_call(i) && omp_is_runtime_call(i)) vec_push(&calls, i);
    for (size_t j = 0; j < calls.len; j++) rewrite(calls.data[j]);
    if (calls.len) drop_unreachable(order.data[k]);
    vec_free(&calls);
  }
  vec_free(&order);
  vmap_free(&seen);
}
