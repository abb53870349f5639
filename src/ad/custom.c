#include "ad/custom.h"

#include <stdlib.h>
#include <string.h>

#include "ir/diag.h"
#include "ir/ir.h"

static const char *const prefixes[] = {"__parad_register_gradient_", "__enzyme_register_gradient_"};

static LLVMValueRef function_at(LLVMValueRef init, unsigned i) {
  if (!init || (unsigned)LLVMGetNumOperands(init) <= i) return NULL;
  LLVMValueRef v = ir_strip_pointer_casts(LLVMGetOperand(init, i));
  return LLVMIsAFunction(v) ? v : NULL;
}

/* Functions only the registration refers to would be deleted by the optimiser before Parad runs. */
static void keep_alive(LLVMModuleRef m, LLVMValueRef *fns, unsigned n) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0);
  LLVMValueRef old = LLVMGetNamedGlobal(m, "llvm.compiler.used");
  VEC(LLVMValueRef) elems = {0};
  if (old && LLVMGetInitializer(old)) {
    LLVMValueRef init = LLVMGetInitializer(old);
    for (int i = 0, k = LLVMGetNumOperands(init); i < k; i++) vec_push(&elems, LLVMGetOperand(init, i));
    LLVMDeleteGlobal(old);
  }
  for (unsigned i = 0; i < n; i++) vec_push(&elems, fns[i]);
  LLVMValueRef g = LLVMAddGlobal(m, LLVMArrayType2(ptr, elems.len), "llvm.compiler.used");
  LLVMSetInitializer(g, LLVMConstArray2(ptr, elems.data, elems.len));
  LLVMSetLinkage(g, LLVMAppendingLinkage);
  LLVMSetSection(g, "llvm.metadata");
  vec_free(&elems);
}

int custom_register_all(LLVMModuleRef m) {
  int errors = 0;
  LLVMContextRef c = LLVMGetModuleContext(m);
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g)) {
    const char *name = LLVMGetValueName(g);
    bool match = false;
    for (size_t p = 0; p < 2; p++) match |= !strncmp(name, prefixes[p], strlen(prefixes[p]));
    if (!match) continue;
    LLVMValueRef init = LLVMGetInitializer(g);
    LLVMValueRef fn = function_at(init, 0), aug = function_at(init, 1), grad = function_at(init, 2);
    if (!fn || !aug || !grad) {
      diag_error_plain(NULL, "'%s' must be initialised with three functions: {the function, its augmented "
                             "forward function, its gradient}", name);
      errors++;
      continue;
    }
    const char *keys[2] = {"parad-custom-augment", "parad-custom-gradient"};
    const char *vals[2] = {LLVMGetValueName(aug), LLVMGetValueName(grad)};
    for (int i = 0; i < 2; i++)
      LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                              LLVMCreateStringAttribute(c, keys[i], strlen(keys[i]), vals[i], strlen(vals[i])));
    if (!LLVMIsDeclaration(fn)) /* its calls must stay calls */
      LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(c, ir_attr_kind("noinline"), 0));
    LLVMValueRef fns[2] = {aug, grad};
    keep_alive(m, fns, 2);
  }
  return errors;
}

static LLVMValueRef named(LLVMValueRef fn, const char *key) {
  LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, key, strlen(key));
  if (!a) return NULL;
  unsigned len;
  const char *name = LLVMGetStringAttributeValue(a, &len);
  char buf[512];
  if (len >= sizeof buf) return NULL;
  memcpy(buf, name, len);
  buf[len] = 0;
  return LLVMGetNamedFunction(LLVMGetGlobalParent(fn), buf);
}

bool custom_lookup(LLVMValueRef fn, LLVMValueRef *augment, LLVMValueRef *gradient) {
  if (!fn) return false;
  *augment = named(fn, "parad-custom-augment");
  *gradient = named(fn, "parad-custom-gradient");
  return *augment && *gradient;
}
