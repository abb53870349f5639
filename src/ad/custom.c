#include "ad/custom.h"

#include <stdlib.h>
#include <string.h>

#include "ir/diag.h"
#include "ir/ir.h"

/* The registrations, as data: the spellings a global's name contains, how many functions it holds, and
 * the function attributes that record them on the first (the function they are derivatives of). */
typedef struct {
  const char *spelling[2];
  unsigned nfns;
  const char *keys[2]; /* attributes naming functions 1 and 2 */
  const char *what;    /* for messages: what the functions after the first are */
} Registration;

static const Registration registrations[] = {
    {{"__parad_register_gradient", "__enzyme_register_gradient"}, 3,
     {"parad-custom-augment", "parad-custom-gradient"}, "its augmented forward function, its gradient"},
    {{"__parad_register_derivative", "__enzyme_register_derivative"}, 2,
     {"parad-custom-derivative", NULL}, "its forward-mode derivative"},
    {{"__parad_register_splitderivative", "__enzyme_register_splitderivative"}, 3,
     {"parad-custom-split-augment", "parad-custom-split-derivative"},
     "its augmented forward function, its split forward-mode derivative"},
};

static LLVMValueRef function_at(LLVMValueRef init, unsigned i) {
  if (!init || (unsigned)LLVMGetNumOperands(init) <= i) return NULL;
  LLVMValueRef v = ir_strip_pointer_casts(LLVMGetOperand(init, i));
  return LLVMIsAFunction(v) ? v : NULL;
}

/* llvm.compiler.used less the functions `drop` lists, plus those `add` lists. */
static void rebuild_compiler_used(LLVMModuleRef m, LLVMValueRef *drop, unsigned ndrop, LLVMValueRef *add, unsigned nadd) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0);
  LLVMValueRef old = LLVMGetNamedGlobal(m, "llvm.compiler.used");
  VEC(LLVMValueRef) elems = {0};
  if (old && LLVMGetInitializer(old)) {
    LLVMValueRef init = LLVMGetInitializer(old);
    for (int i = 0, k = LLVMGetNumOperands(init); i < k; i++) {
      LLVMValueRef e = LLVMGetOperand(init, i);
      bool dropped = false;
      for (unsigned d = 0; d < ndrop && !dropped; d++) dropped = ir_strip_pointer_casts(e) == drop[d];
      if (!dropped) vec_push(&elems, e);
    }
  }
  if (old) LLVMDeleteGlobal(old);
  for (unsigned i = 0; i < nadd; i++) vec_push(&elems, add[i]);
  if (elems.len) {
    LLVMValueRef g = LLVMAddGlobal(m, LLVMArrayType2(ptr, elems.len), "llvm.compiler.used");
    LLVMSetInitializer(g, LLVMConstArray2(ptr, elems.data, elems.len));
    LLVMSetLinkage(g, LLVMAppendingLinkage);
    LLVMSetSection(g, "llvm.metadata");
  }
  vec_free(&elems);
}

/* Functions only the registration refers to would be deleted by the optimiser before Parad runs. */
void custom_keep_alive(LLVMModuleRef m, LLVMValueRef *fns, unsigned n) { rebuild_compiler_used(m, NULL, 0, fns, n); }

void custom_let_go(LLVMModuleRef m, LLVMValueRef *fns, unsigned n) { rebuild_compiler_used(m, fns, n, NULL, 0); }

void custom_keep_calls(LLVMValueRef fn) {
  if (LLVMIsDeclaration(fn)) return;
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(fn));
  LLVMRemoveEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, ir_attr_kind("alwaysinline"));
  LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(c, ir_attr_kind("noinline"), 0));
}

static const Registration *registration_named(const char *name) {
  for (size_t r = 0; r < sizeof registrations / sizeof registrations[0]; r++)
    for (size_t s = 0; s < 2; s++)
      if (strstr(name, registrations[r].spelling[s])) return &registrations[r];
  return NULL;
}

/* A registration recorded on its function: fns[0], then reg->nfns - 1 derivatives. */
static void record(LLVMModuleRef m, const Registration *reg, LLVMValueRef *fns) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  for (unsigned i = 1; i < reg->nfns; i++)
    LLVMAddAttributeAtIndex(fns[0], LLVMAttributeFunctionIndex,
                            LLVMCreateStringAttribute(c, reg->keys[i - 1], strlen(reg->keys[i - 1]),
                                                      LLVMGetValueName(fns[i]), strlen(LLVMGetValueName(fns[i]))));
  custom_keep_calls(fns[0]); /* its calls must stay calls */
  custom_keep_alive(m, fns + 1, reg->nfns - 1);
}

int custom_register_all(LLVMModuleRef m) {
  int errors = 0;
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g)) {
    const char *name = LLVMGetValueName(g);
    const Registration *reg = registration_named(name);
    LLVMValueRef init = LLVMGetInitializer(g);
    if (!reg || !init) continue;
    LLVMValueRef fns[3] = {NULL, NULL, NULL};
    bool ok = true;
    for (unsigned i = 0; i < reg->nfns; i++) ok &= (fns[i] = function_at(init, i)) != NULL;
    if (!ok) {
      diag_error_plain(NULL, "'%s' must be initialised with %u functions: {the function, %s}", name, reg->nfns, reg->what);
      errors++;
      continue;
    }
    record(m, reg, fns);
  }
  return errors;
}

void custom_register(LLVMModuleRef m, const char *spelling, LLVMValueRef fn, LLVMValueRef *derivatives) {
  const Registration *reg = registration_named(spelling);
  LLVMValueRef fns[3] = {fn, derivatives[0], reg->nfns > 2 ? derivatives[1] : NULL};
  record(m, reg, fns);
}

bool custom_lookup(LLVMValueRef fn, LLVMValueRef *augment, LLVMValueRef *gradient) {
  if (!fn) return false;
  *augment = ir_fn_named_by_attr(fn, "parad-custom-augment");
  *gradient = ir_fn_named_by_attr(fn, "parad-custom-gradient");
  return *augment && *gradient;
}

LLVMValueRef custom_derivative(LLVMValueRef fn) { return fn ? ir_fn_named_by_attr(fn, "parad-custom-derivative") : NULL; }

bool custom_has_split_derivative(LLVMValueRef fn) { return fn && ir_fn_named_by_attr(fn, "parad-custom-split-derivative"); }

bool custom_registered(LLVMValueRef fn) {
  LLVMValueRef aug, grad;
  return custom_lookup(fn, &aug, &grad) || custom_derivative(fn);
}

bool custom_param_needs_no_shadow(LLVMValueRef fn, unsigned param) {
  if (!fn || !LLVMIsAFunction(fn) || param >= LLVMCountParams(fn)) return false;
  return LLVMGetStringAttributeAtIndex(fn, param + 1, CUSTOM_NO_SHADOW, strlen(CUSTOM_NO_SHADOW)) != NULL;
}

LLVMValueRef custom_caller(LLVMValueRef fn) {
  char *name = xasprintf("parad.calling.%s", LLVMGetValueName(fn));
  LLVMValueRef w = ir_caller_of(fn, name);
  free(name);
  return w;
}
