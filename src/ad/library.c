/* Derivatives of C library functions from Parad's runtime (see library.h). */
#include "ad/library.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ad/custom.h"
#include "analysis/memtype.h"
#include "ir/ir.h"

/* floats_only: the argument whose elements must hold no pointers in reverse mode (library.h), or -1 */
static const struct {
  const char *name, *augment, *gradient, *derivative, *next_direction;
  int floats_only;
} library[] = {
    {"qsort", "__parad_rt_qsort_augment", "__parad_rt_qsort_gradient", "__parad_rt_qsort_forward",
     "__parad_rt_qsort_forward_next", 0},
    {"qsort_r", "__parad_rt_qsort_r_augment", "__parad_rt_qsort_r_gradient", "__parad_rt_qsort_r_forward",
     "__parad_rt_qsort_r_forward_next", 0},
    /* what ad/byte_loops.c calls where a byte loop's blocks overlap (runtime/byte_loops.c) */
    {"__parad_rt_byte_copy", "__parad_rt_byte_copy_augment", "__parad_rt_byte_copy_gradient",
     "__parad_rt_byte_copy_forward", "__parad_rt_byte_copy_forward_next", -1},
    {"__parad_rt_byte_swap", "__parad_rt_byte_swap_augment", "__parad_rt_byte_swap_gradient",
     "__parad_rt_byte_swap_forward", "__parad_rt_byte_swap_forward_next", -1},
};

const char *library_function_of(const char *runtime_name) {
  for (size_t i = 0; i < sizeof library / sizeof library[0]; i++)
    if (!strcmp(runtime_name, library[i].augment) || !strcmp(runtime_name, library[i].gradient) ||
        !strcmp(runtime_name, library[i].derivative) || !strcmp(runtime_name, library[i].next_direction))
      return strncmp(library[i].name, "__parad_rt_", 11) ? library[i].name : NULL; /* a byte loop's: no name of the program's */
  return NULL;
}

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

/* Registers library[i]'s derivatives of fn, as a program's registrations would (ad/custom.h). */
static void register_entry(LLVMModuleRef m, size_t i, LLVMValueRef fn) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0), void_t = LLVMVoidTypeInContext(c);
  if (!registered_by_program(m, "gradient", library[i].name)) {
    LLVMValueRef pair[2] = {runtime_function(m, fn, library[i].augment, ptr, NULL),
                            runtime_function(m, fn, library[i].gradient, void_t, ptr)};
    if (library[i].floats_only >= 0) {
      char at[16];
      snprintf(at, sizeof at, "%d", library[i].floats_only);
      LLVMAddAttributeAtIndex(pair[0], LLVMAttributeFunctionIndex,
                              LLVMCreateStringAttribute(c, FLOATS_ONLY, strlen(FLOATS_ONLY), at, (unsigned)strlen(at)));
    }
    custom_register(m, "__parad_register_gradient", fn, pair);
  }
  if (!registered_by_program(m, "derivative", library[i].name)) {
    LLVMValueRef df = runtime_function(m, fn, library[i].derivative, void_t, NULL);
    const char *next = library[i].next_direction; /* declared when used (unused, it would be dropped) */
    LLVMAddAttributeAtIndex(df, LLVMAttributeFunctionIndex,
                            LLVMCreateStringAttribute(c, NEXT_DIRECTION, strlen(NEXT_DIRECTION), next, (unsigned)strlen(next)));
    custom_register(m, "__parad_register_derivative", fn, &df);
  }
}

void library_register_all(LLVMModuleRef m) {
  for (size_t i = 0; i < sizeof library / sizeof library[0]; i++) {
    LLVMValueRef fn = LLVMGetNamedFunction(m, library[i].name);
    if (fn && LLVMIsDeclaration(fn) && LLVMGetFirstUse(fn)) register_entry(m, i, fn);
  }
}

LLVMValueRef library_function(LLVMModuleRef m, const char *name, LLVMTypeRef type) {
  LLVMValueRef fn = LLVMGetNamedFunction(m, name);
  if (fn) return fn; /* registered when declared */
  fn = LLVMAddFunction(m, name, type);
  for (size_t i = 0; i < sizeof library / sizeof library[0]; i++)
    if (!strcmp(library[i].name, name)) register_entry(m, i, fn);
  return fn;
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
