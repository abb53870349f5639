/* The default version of a function with versions (see the header). */
#include "ad/function_versions.h"

#include <string.h>

#include "ir/ir.h"

LLVMValueRef function_default_version(LLVMValueRef v) {
  v = v ? ir_strip_pointer_casts(v) : NULL;
  if (!v || !LLVMIsAGlobalIFunc(v)) return NULL;
  size_t len;
  const char *name = LLVMGetValueName2(v, &len);
  for (LLVMValueRef f = LLVMGetFirstFunction(LLVMGetGlobalParent(v)); f; f = LLVMGetNextFunction(f)) {
    const char *fn = LLVMGetValueName(f);
    /* NAME.default or NAME.default.N, as clang numbers the versions */
    if (!strncmp(fn, name, len) && !strncmp(fn + len, ".default", 8) && (!fn[len + 8] || fn[len + 8] == '.') &&
        LLVMCountBasicBlocks(f))
      return f;
  }
  return NULL;
}

LLVMValueRef function_resolver(LLVMValueRef v) {
  v = v ? ir_strip_pointer_casts(v) : NULL;
  if (!v || !LLVMIsAGlobalIFunc(v) || function_default_version(v)) return NULL;
  LLVMValueRef r = ir_strip_pointer_casts(LLVMGetGlobalIFuncResolver(v));
  return r && LLVMIsAFunction(r) && LLVMCountBasicBlocks(r) && !LLVMCountParams(r) ? r : NULL;
}

static bool choices_of(LLVMValueRef v, ValueMap *seen, ValueList *out) {
  v = ir_strip_pointer_casts(v);
  if (vmap_has(seen, v)) return true;
  vmap_put(seen, v, v);
  if (LLVMIsAFunction(v)) {
    if (!LLVMCountBasicBlocks(v)) return false;
    vec_push(out, v);
    return true;
  }
  if (LLVMIsASelectInst(v)) return choices_of(LLVMGetOperand(v, 1), seen, out) && choices_of(LLVMGetOperand(v, 2), seen, out);
  if (LLVMIsAPHINode(v)) {
    for (unsigned k = 0, n = LLVMCountIncoming(v); k < n; k++)
      if (!choices_of(LLVMGetIncomingValue(v, k), seen, out)) return false;
    return true;
  }
  return false;
}

bool function_resolver_choices(LLVMValueRef resolver, ValueList *out) {
  ValueMap seen;
  vmap_init(&seen);
  bool known = true;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(resolver); bb && known; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    if (t && LLVMGetInstructionOpcode(t) == LLVMRet) known = LLVMGetNumOperands(t) == 1 && choices_of(LLVMGetOperand(t, 0), &seen, out);
  }
  vmap_free(&seen);
  return known;
}

unsigned function_versions_pin(LLVMModuleRef m, const ValueMap *reached) {
  unsigned pinned = 0;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef bb = vmap_has(reached, fn) ? LLVMGetFirstBasicBlock(fn) : NULL; bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
        if (!ir_is_call_site(i)) continue;
        unsigned callee = (unsigned)LLVMGetNumOperands(i) - 1;
        LLVMValueRef version = function_default_version(LLVMGetOperand(i, callee));
        LLVMValueRef resolver = version ? NULL : function_resolver(LLVMGetOperand(i, callee));
        if (version) LLVMSetOperand(i, callee, version), pinned++;
        if (!resolver) continue;
        LLVMPositionBuilderBefore(b, i);
        LLVMValueRef body = LLVMBuildCall2(b, LLVMGlobalGetValueType(resolver), resolver, NULL, 0, "resolved");
        /* its answer never changes (the processor's, and its one write, the CPU model, is the same each
           time): taken as reading no memory, the optimiser asks it once, out of the program's loops */
        LLVMContextRef c = LLVMGetModuleContext(m);
        static const char *const pure[] = {"nounwind", "willreturn", "noinline"}; /* inlined, it would write */
        for (size_t k = 0; k < 3; k++)
          LLVMAddCallSiteAttribute(body, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(c, ir_attr_kind(pure[k]), 0));
        LLVMAddCallSiteAttribute(body, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(c, ir_attr_kind("memory"), 0));
        LLVMSetOperand(i, callee, body), pinned++;
      }
  LLVMDisposeBuilder(b);
  return pinned;
}
