/* Derivatives of C library functions from Parad's runtime (see library.h). */
#include "ad/library.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/memtype.h"
#include "ir/ir.h"

static const struct {
  const char *name, *augment, *gradient, *derivative, *next_direction;
} library[] = {
    {"qsort", "__parad_rt_qsort_augment", "__parad_rt_qsort_gradient", "__parad_rt_qsort_forward",
     "__parad_rt_qsort_forward_next"},
    {"qsort_r", "__parad_rt_qsort_r_augment", "__parad_rt_qsort_r_gradient", "__parad_rt_qsort_r_forward",
     "__parad_rt_qsort_r_forward_next"},
};

#define NEXT_DIRECTION "parad-next-direction" /* on a derivative: the function for the other directions */
#define FLOATS_ONLY "parad-floats-only"       /* on an augmented function: its argument of floats and integers */

/* Whether the program registers a derivative of this kind for fn itself (a global named after both). */
static bool registered_by_program(LLVMModuleRef m, const char *kind, const char *fn) {
  char *tail = xasprintf("%s_%s", kind, fn);
  bool found = false;
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g && !found; g = LLVMGetNextGlobal(g)) found = strstr(LLVMGetValueName(g), tail) != NULL;
  free(tail);
  return found;
}

/* The runtime function `name`, taking fn's parameters with a shadow after each pointer, then `extra`. */
static LLVMValueRef runtime_function(LLVMModuleRef m, LLVMValueRef fn, const char *name, LLVMTypeRef result, LLVMTypeRef extra) {
  LLVMTypeRef fty = LLVMGlobalGetValueType(fn), ptr = LLVMPointerTypeInContext(LLVMGetModuleContext(m), 0);
  unsigned n = LLVMCountParamTypes(fty), k = 0;
  LLVMTypeRef *params = xcalloc(2 * n + 2, sizeof *params), *own = xcalloc(n + 1, sizeof *own);
  LLVMGetParamTypes(fty, own);
  for (unsigned i = 0; i < n; i++) {
    params[k++] = own[i];
    if (ir_is_ptr(own[i])) params[k++] = ptr;
  }
  if (extra) params[k++] = extra;
  LLVMValueRef f = LLVMGetNamedFunction(m, name);
  if (!f) f = LLVMAddFunction(m, name, LLVMFunctionType(result, params, k, 0));
  free(params);
  free(own);
  return f;
}

/* A registration global, as a program writes one: {fn, fns...}. */
static void register_as_program(LLVMModuleRef m, const char *kind, LLVMValueRef fn, LLVMValueRef *fns, unsigned n) {
  LLVMTypeRef ptr = LLVMPointerTypeInContext(LLVMGetModuleContext(m), 0);
  LLVMValueRef elems[3] = {fn, fns[0], n > 1 ? fns[1] : NULL};
  char *name = xasprintf("__parad_register_%s_%s", kind, LLVMGetValueName(fn));
  LLVMValueRef g = LLVMAddGlobal(m, LLVMArrayType2(ptr, n + 1), name);
  LLVMSetInitializer(g, LLVMConstArray2(ptr, elems, n + 1));
  LLVMSetLinkage(g, LLVMInternalLinkage);
  LLVMSetGlobalConstant(g, 1);
  free(name);
}

void library_register_all(LLVMModuleRef m) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0), void_t = LLVMVoidTypeInContext(c);
  for (size_t i = 0; i < sizeof library / sizeof library[0]; i++) {
    LLVMValueRef fn = LLVMGetNamedFunction(m, library[i].name);
    if (!fn || !LLVMIsDeclaration(fn) || !LLVMGetFirstUse(fn)) continue;
    if (!registered_by_program(m, "gradient", library[i].name)) {
      LLVMValueRef pair[2] = {runtime_function(m, fn, library[i].augment, ptr, NULL),
                              runtime_function(m, fn, library[i].gradient, void_t, ptr)};
      LLVMAddAttributeAtIndex(pair[0], LLVMAttributeFunctionIndex,
                              LLVMCreateStringAttribute(c, FLOATS_ONLY, strlen(FLOATS_ONLY), "0", 1));
      register_as_program(m, "gradient", fn, pair, 2);
    }
    if (!registered_by_program(m, "derivative", library[i].name)) {
      LLVMValueRef df = runtime_function(m, fn, library[i].derivative, void_t, NULL);
      const char *next = library[i].next_direction; /* declared when used (unused, it would be dropped) */
      LLVMAddAttributeAtIndex(df, LLVMAttributeFunctionIndex,
                              LLVMCreateStringAttribute(c, NEXT_DIRECTION, strlen(NEXT_DIRECTION), next, (unsigned)strlen(next)));
      register_as_program(m, "derivative", fn, &df, 1);
    }
  }
}

LLVMValueRef library_next_direction(LLVMValueRef df) {
  LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(df, LLVMAttributeFunctionIndex, NEXT_DIRECTION, strlen(NEXT_DIRECTION));
  if (!a) return df;
  LLVMValueRef next = ir_fn_named_by_attr(df, NEXT_DIRECTION);
  if (next) return next;
  unsigned len; /* declared now: unused until here, the declaration would have been dropped */
  const char *name = LLVMGetStringAttributeValue(a, &len);
  char *n = xasprintf("%.*s", (int)len, name);
  next = LLVMAddFunction(LLVMGetGlobalParent(df), n, LLVMGlobalGetValueType(df)); /* the same parameters */
  free(n);
  return next;
}

int library_floats_only_argument(LLVMValueRef augment) {
  LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(augment, LLVMAttributeFunctionIndex, FLOATS_ONLY, strlen(FLOATS_ONLY));
  if (!a) return -1;
  unsigned len;
  const char *v = LLVMGetStringAttributeValue(a, &len);
  char buf[16];
  snprintf(buf, sizeof buf, "%.*s", (int)len, v);
  return atoi(buf);
}

const char *library_pointers_held(LLVMValueRef array) {
  DataKind d = memtype_of_data(array);
  MemLayout l;
  bool pointers = d == DATA_PTR || d == DATA_UNKNOWN;
  if (d == DATA_MIXED) { /* records: their layout says where the pointers are, if any */
    pointers = !memtype_layout_of_data(array, &l);
    for (unsigned r = 0; !pointers && r < l.n; r++) pointers = l.run[r].kind == DATA_PTR;
  }
  return pointers ? data_kind_name(d) : NULL;
}
