/* Reductions in the open. libomp combines the threads' partial results of a reduction by one of several
 * methods it picks at run time; in the tree method it calls the combining function itself, out of
 * Parad's sight, and in the atomic one it runs a compare-and-swap loop for max, min and products.
 * Before differentiating, every reduction in the functions a derivative reaches is turned into the
 * critical-section method: each thread adds its part under the reduction's lock, in code Parad
 * differentiates like any other (and reverses one thread at a time, in the opposite order). The
 * program computes the same; the optimiser then drops the other methods' code. */
#include "omp/omp.h"

#include <stdlib.h>
#include <string.h>

#include "ad/request.h"
#include "ir/ir.h"
#include "ir/valuemap.h"

static void reach(LLVMValueRef fn, ValueMap *seen, ValueList *order) {
  if (!fn || !LLVMIsAFunction(fn) || LLVMIsDeclaration(fn) || vmap_has(seen, fn)) return;
  vmap_put(seen, fn, fn);
  vec_push(order, fn);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (!ir_is_call(i)) continue;
      reach(ir_called_function(i), seen, order);
      if (omp_is_runtime_call(i) && omp_classify(i) == OMP_FORK) reach(omp_fork_outlined(i), seen, order);
    }
}

static void call_void(LLVMBuilderRef b, const char *name, LLVMValueRef *args, unsigned n) {
  LLVMTypeRef params[3];
  for (unsigned i = 0; i < n; i++) params[i] = LLVMTypeOf(args[i]);
  LLVMContextRef c = ir_builder_context(b);
  ir_call_named(b, name, LLVMFunctionType(LLVMVoidTypeInContext(c), params, n, 0), args, n);
}

static void rewrite(LLVMValueRef call) {
  OmpKind kind = omp_classify(call);
  if (kind != OMP_REDUCE && kind != OMP_END_REDUCE) return;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(call)));
  LLVMPositionBuilderBefore(b, call);
  LLVMValueRef args[3] = {LLVMGetArgOperand(call, 0), LLVMGetArgOperand(call, 1), omp_lock(call)};
  if (kind == OMP_REDUCE) {
    call_void(b, "__kmpc_critical", args, 3);
    LLVMReplaceAllUsesWith(call, LLVMConstInt(LLVMTypeOf(call), 1, 0)); /* 1: the calling thread combines */
  } else {
    call_void(b, "__kmpc_end_critical", args, 3);
    if (omp_end_reduce_has_barrier(call)) call_void(b, "__kmpc_barrier", args, 2);
  }
  LLVMInstructionEraseFromParent(call);
  LLVMDisposeBuilder(b);
}

void omp_prepare(LLVMModuleRef m) {
  ValueMap seen;
  ValueList order = {0};
  vmap_init(&seen);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (request_is_canonical_call(i)) reach(ir_strip_pointer_casts(LLVMGetArgOperand(i, request_fn_arg(i))), &seen, &order);
  for (size_t k = 0; k < order.len; k++) {
    ValueList calls = {0};
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(order.data[k]); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (ir_is_call(i) && omp_is_runtime_call(i)) vec_push(&calls, i);
    for (size_t j = 0; j < calls.len; j++) rewrite(calls.data[j]);
    vec_free(&calls);
  }
  vec_free(&order);
  vmap_free(&seen);
}
