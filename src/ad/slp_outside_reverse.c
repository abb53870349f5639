/* The SLP vectoriser kept out of reverse sweeps (see the header). */
#include "ad/slp_outside_reverse.h"

#include <stdlib.h>
#include <string.h>

static unsigned tag_kind(LLVMContextRef c) { return LLVMGetMDKindIDInContext(c, "parad.reverse", 13); }

static unsigned no_implicit_float(void) { return ir_attr_kind("noimplicitfloat"); }

void slp_tag_reverse(LLVMModuleRef m, bool tag) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  unsigned kind = tag_kind(c), len = (unsigned)strlen(SLP_REVERSE_ATTR);
  LLVMValueRef node = LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, NULL, 0));
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (!LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, SLP_REVERSE_ATTR, len)) continue;
    LLVMRemoveStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, SLP_REVERSE_ATTR, len);
    if (!tag) continue;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (LLVMIsAStoreInst(i)) LLVMSetMetadata(i, kind, node);
  }
}

/* The tag, on the function's stores; cleared as it is found when clear is set. */
static bool holds_tag(LLVMValueRef f, unsigned kind, bool clear) {
  bool found = false;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (!LLVMIsAStoreInst(i) || !LLVMGetMetadata(i, kind)) continue;
      found = true;
      if (!clear) return true;
      LLVMSetMetadata(i, kind, NULL);
    }
  return found;
}

void slp_hold_reverse(LLVMModuleRef m, ValueList *held) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  unsigned kind = tag_kind(c), nif = no_implicit_float();
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (!LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, nif) && holds_tag(f, kind, false)) {
      LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(c, nif, 0));
      vec_push(held, f);
    }
}

void slp_release_reverse(LLVMModuleRef m, ValueList *held) {
  unsigned kind = tag_kind(LLVMGetModuleContext(m)), nif = no_implicit_float();
  for (size_t i = 0; i < held->len; i++) LLVMRemoveEnumAttributeAtIndex(held->data[i], LLVMAttributeFunctionIndex, nif);
  free(held->data);
  *held = (ValueList){0};
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) holds_tag(f, kind, true);
}
