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

unsigned function_versions_pin(LLVMModuleRef m, const ValueMap *reached) {
  unsigned pinned = 0;
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef bb = vmap_has(reached, fn) ? LLVMGetFirstBasicBlock(fn) : NULL; bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
        if (!ir_is_call_site(i)) continue;
        unsigned callee = (unsigned)LLVMGetNumOperands(i) - 1;
        LLVMValueRef version = function_default_version(LLVMGetOperand(i, callee));
        if (version) LLVMSetOperand(i, callee, version), pinned++;
      }
  return pinned;
}
