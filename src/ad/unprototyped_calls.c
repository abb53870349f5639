/* Calls through pointers declared without a prototype (see unprototyped_calls.h). */
#include "ad/unprototyped_calls.h"

#include <stdlib.h>

/* the result types of the variadic functions whose address the module takes */
static VEC(LLVMTypeRef) variadic_results;

static bool address_taken(LLVMValueRef fn) {
  for (LLVMUseRef u = LLVMGetFirstUse(fn); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (!ir_is_call_site(user) || LLVMGetCalledValue(user) != fn) return true;
  }
  return false;
}

/* clang calls through a pointer declared without a prototype as a variadic function whose fixed
 * parameters are the arguments as promoted (`double (ptr, ...)`): no argument goes in the variadic part. */
static bool unprototyped(LLVMValueRef call, LLVMTypeRef fty) {
  return LLVMIsFunctionVarArg(fty) && LLVMCountParamTypes(fty) == ir_num_call_args(call);
}

static LLVMValueRef prototyped_call(LLVMBuilderRef b, LLVMValueRef call) {
  if (!LLVMIsACallInst(call) || LLVMIsAInlineAsm(LLVMGetCalledValue(call)) || LLVMIsAFunction(LLVMGetCalledValue(call)))
    return NULL;
  LLVMTypeRef fty = LLVMGetCalledFunctionType(call), ret = LLVMGetReturnType(fty);
  if (!unprototyped(call, fty)) return NULL;
  for (size_t i = 0; i < variadic_results.len; i++)
    if (variadic_results.data[i] == ret) return NULL;
  unsigned n = ir_num_call_args(call);
  LLVMValueRef *args = xcalloc(n + 1, sizeof *args);
  LLVMTypeRef *types = xcalloc(n + 1, sizeof *types);
  for (unsigned i = 0; i < n; i++) args[i] = LLVMGetArgOperand(call, i), types[i] = LLVMTypeOf(args[i]);
  LLVMValueRef now = LLVMBuildCall2(b, LLVMFunctionType(ret, types, n, 0), LLVMGetCalledValue(call), args, n, "");
  LLVMSetTailCall(now, LLVMIsTailCall(call));
  ir_copy_call_attributes(call, now);
  free(args);
  free(types);
  return now;
}

unsigned unprototyped_calls_apply(LLVMModuleRef m, const ValueMap *reached) {
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
    LLVMTypeRef fty = LLVMGlobalGetValueType(fn);
    if (LLVMIsFunctionVarArg(fty) && LLVMCountParamTypes(fty) && address_taken(fn)) vec_push(&variadic_results, LLVMGetReturnType(fty));
  }
  unsigned n = ir_rewrite_instructions(m, reached, prototyped_call);
  vec_free(&variadic_results);
  return n;
}
