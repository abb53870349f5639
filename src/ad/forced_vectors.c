/* Loops the program forces to vectorise, held scalar while the light optimisation runs (see the header).
 * Clang's !{"llvm.loop.vectorize.enable", i1 true} is taken off such a loop and Parad's mark put in its
 * place, a hint LLVM does not read: a loop still forced after a pipeline draws LLVM's warning that it
 * could not vectorise it, and a second hint that disables would not stop that. */
#include "ad/forced_vectors.h"


#include "ad/request.h"
#include "ir/ir.h"

static LLVMMetadataRef forced(LLVMContextRef c) { return ir_loop_flag(c, "llvm.loop.vectorize.enable", true); }

static LLVMMetadataRef held(LLVMContextRef c) { return ir_loop_flag(c, "parad.loop.vectorize.held", false); }

/* Whether terminator t's loop hints hold `hint`. */
static bool has_hint(LLVMContextRef c, LLVMValueRef t, LLVMMetadataRef hint) {
  LLVMValueRef hints = LLVMGetMetadata(t, ir_loop_kind(c)), want = LLVMMetadataAsValue(c, hint);
  unsigned n = hints ? LLVMGetMDNodeNumOperands(hints) : 0;
  LLVMValueRef ops[64];
  if (n > 64) return false;
  if (n) LLVMGetMDNodeOperands(hints, ops);
  for (unsigned i = 1; i < n; i++)
    if (ops[i] == want) return true;
  return false;
}

/* Every loop of m (of the functions in `only`, where given) whose hints hold `from` gets `to` in its
 * place; returns how many. */
static unsigned swap_hints(LLVMModuleRef m, LLVMMetadataRef from, LLVMMetadataRef to, ValueMap *only) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  unsigned swapped = 0;
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef bb = only && !vmap_has(only, fn) ? NULL : LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
      LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
      if (t && has_hint(c, t, from)) ir_rewrite_loop_hints(t, from, NULL, to), swapped++;
    }
  return swapped;
}

unsigned forced_vectors_hold(LLVMModuleRef m) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  ValueMap reached;
  vmap_init(&reached);
  request_reached_functions(m, &reached);
  unsigned held_loops = swap_hints(m, forced(c), held(c), &reached);
  vmap_free(&reached);
  return held_loops;
}

void forced_vectors_release(LLVMModuleRef m) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  swap_hints(m, held(c), forced(c), NULL);
}
