/* Shared scalars a parallel region only reads. clang passes every shared variable to the outlined
 * function by address, so a loop in the region that stores doubles must reload a captured double (a
 * coefficient, a time step) on every iteration: the optimiser cannot tell that the stores miss it. The
 * reverse sweep then records one copy of it per iteration instead of one per region.
 *
 * Where the captured address is a local of the forking function that nothing else ever sees, and the
 * outlined function only reads through it, nothing writes that memory while the region runs: the
 * parameter is noalias by LLVM's definition, and saying so lets the optimiser hoist the loads. */
#include "omp/omp.h"

#include <string.h>

#include "ir/ir.h"

static unsigned kind_of(const char *name) { return LLVMGetEnumAttributeKindForName(name, strlen(name)); }

static bool has_param_attr(LLVMValueRef fn, unsigned param, const char *name) {
  return LLVMGetEnumAttributeAtIndex(fn, param + 1, kind_of(name)) != NULL;
}

/* A call that only reads through v and keeps it nowhere: each parameter it is passed for is readonly and
 * nocapture (the outlined function called directly, where an if clause made the region serial). */
static bool reads_only(LLVMValueRef call, LLVMValueRef v) {
  LLVMValueRef callee = ir_called_function(call);
  if (!callee || LLVMIsDeclaration(callee)) return false;
  for (unsigned a = 0, n = ir_num_call_args(call); a < n; a++)
    if (LLVMGetArgOperand(call, a) == v &&
        (a >= LLVMCountParams(callee) || !has_param_attr(callee, a, "readonly") || !has_param_attr(callee, a, "nocapture")))
      return false;
  return true;
}

/* A local whose address goes nowhere but loads, stores into it, lifetime markers, fork calls and calls
 * that only read through it. */
static bool private_local(LLVMValueRef v) {
  if (!LLVMIsAAllocaInst(v)) return false;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsALoadInst(user)) continue;
    if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 0) != v) continue;
    if (ir_is_call(user)) {
      const char *name = ir_called_name(user);
      if (!strncmp(name, "llvm.lifetime.", 14)) continue;
      if (omp_is_runtime_call(user) && omp_classify(user) == OMP_FORK) continue;
      if (!omp_is_runtime_call(user) && reads_only(user, v)) continue;
    }
    return false;
  }
  return true;
}

/* Is parameter `param` of `outlined` given, at every fork of it (and every direct call: a region an if
 * clause made serial), a private local passed once only. */
static bool every_fork_passes_private_local(LLVMValueRef outlined, unsigned param) {
  for (LLVMUseRef u = LLVMGetFirstUse(outlined); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef call = LLVMGetUser(u);
    bool direct = ir_is_call(call) && ir_called_function(call) == outlined;
    if (!direct && (!ir_is_call(call) || !omp_is_runtime_call(call) || omp_classify(call) != OMP_FORK ||
                    omp_fork_outlined(call) != outlined))
      return false;
    unsigned arg = direct ? param : param - OMP_OUTLINED_FIRST_PARAM + OMP_FORK_FIRST_ARG;
    if (arg >= ir_num_call_args(call)) return false;
    LLVMValueRef local = LLVMGetArgOperand(call, arg);
    if (!private_local(local)) return false;
    for (unsigned k = 0, n = ir_num_call_args(call); k < n; k++)
      if (k != arg && ir_strip_pointer_casts(LLVMGetArgOperand(call, k)) == local) return false;
  }
  return true;
}

unsigned omp_mark_read_only_captures(LLVMModuleRef m) {
  unsigned marked = 0, noalias = kind_of("noalias");
  LLVMContextRef c = LLVMGetModuleContext(m);
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
    if (LLVMIsDeclaration(fn) || !LLVMGetFirstUse(fn) || ir_fn_has_attr(fn, "optnone")) continue;
    for (unsigned p = OMP_OUTLINED_FIRST_PARAM, n = LLVMCountParams(fn); p < n; p++) {
      if (LLVMGetTypeKind(LLVMTypeOf(LLVMGetParam(fn, p))) != LLVMPointerTypeKind) continue;
      if (has_param_attr(fn, p, "noalias") || !has_param_attr(fn, p, "readonly") ||
          !has_param_attr(fn, p, "nocapture") || !every_fork_passes_private_local(fn, p))
        continue;
      LLVMAddAttributeAtIndex(fn, p + 1, LLVMCreateEnumAttribute(c, noalias, 0));
      marked++;
    }
  }
  return marked;
}
