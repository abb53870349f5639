#include "ad/registered.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ad/checkpoint.h"
#include "ad/custom.h"
#include "ir/diag.h"
#include "ir/ir.h"
#include "rules/rules.h"

/* Where a registration was made, for messages: an annotation's file and line, or the registration
 * global's name and the function it registers (whose line the message gives). */
typedef struct {
  const char *file; /* NULL: a registration global */
  unsigned line;
  const char *global;
  LLVMValueRef at;
} Origin;

static int report(const Origin *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int report(const Origin *o, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (o->file) diag_error_at_line(o->file, o->line, "%s", msg);
  else diag_error_plain(o->at, "'%s': %s", o->global, msg);
  return 1;
}

/* ---- how the facts are recorded: function attributes, and metadata on globals ---- */

#define ATTR_INACTIVE "parad-inactive"
#define ATTR_LIKE "parad-function-like"
#define ATTR_ALLOCATOR "parad-allocator"
#define ATTR_DEALLOCATOR "parad-deallocator"
#define MD_INACTIVE "parad.inactive"

static void set_attr(LLVMValueRef fn, const char *key, const char *value) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(fn));
  LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                          LLVMCreateStringAttribute(c, key, (unsigned)strlen(key), value, (unsigned)strlen(value)));
  custom_keep_calls(fn); /* inlined before derivatives are generated, its body would be differentiated */
}

/* A deallocator whose body does nothing the optimiser can see (a pool's release, a no-op) would lose its
 * calls before derivatives are generated, and its blocks' shadows with them: optnone keeps it opaque. */
static void keep_every_call(LLVMValueRef fn) {
  if (LLVMIsDeclaration(fn)) return;
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(fn));
  LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(c, ir_attr_kind("optnone"), 0));
  /* which -Os and -Oz put on every function, and the verifier allows neither beside optnone */
  LLVMRemoveEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, ir_attr_kind("optsize"));
  LLVMRemoveEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, ir_attr_kind("minsize"));
}

static const char *get_attr(LLVMValueRef fn, const char *key) {
  if (!fn || !LLVMIsAFunction(fn)) return NULL;
  LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, key, (unsigned)strlen(key));
  if (!a) return NULL;
  unsigned len;
  return LLVMGetStringAttributeValue(a, &len); /* attribute strings are NUL-terminated in LLVM */
}

static unsigned md_kind(LLVMValueRef v) {
  return LLVMGetMDKindIDInContext(LLVMGetTypeContext(LLVMTypeOf(v)), MD_INACTIVE, (unsigned)strlen(MD_INACTIVE));
}

static void mark_inactive_global(LLVMValueRef g) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(g));
  LLVMGlobalSetMetadata(g, md_kind(g), LLVMMDNodeInContext2(c, NULL, 0));
}

static bool inactive_global(LLVMValueRef g) {
  size_t n;
  LLVMValueMetadataEntry *md = LLVMGlobalCopyAllMetadata(g, &n);
  bool found = false;
  for (size_t i = 0; i < n && !found; i++) found = LLVMValueMetadataEntriesGetKind(md, (unsigned)i) == md_kind(g);
  if (md) LLVMDisposeValueMetadataEntries(md);
  return found;
}

/* ---- the facts ---- */

static int inactive(const Origin *o, LLVMValueRef v) {
  v = ir_strip_pointer_casts(v);
  if (LLVMIsAFunction(v)) set_attr(v, ATTR_INACTIVE, "");
  else if (LLVMIsAGlobalVariable(v)) mark_inactive_global(v);
  else return report(o, "expected a function or a global variable");
  return 0;
}

/* A name Parad knows how to differentiate, and whether fn has the shape it needs. */
static bool like_fits(LLVMValueRef fn, const char *name) {
  LLVMTypeRef fty = LLVMGlobalGetValueType(fn), rt = LLVMGetReturnType(fty);
  unsigned n = LLVMCountParams(fn);
  if (!strcmp(name, "malloc")) return n == 1 && ir_is_ptr(rt);
  if (!strcmp(name, "calloc") || !strcmp(name, "realloc")) return n == 2 && ir_is_ptr(rt);
  if (!strcmp(name, "free")) return n == 1 && ir_is_ptr(LLVMTypeOf(LLVMGetParam(fn, 0)));
  const MathRule *r = rule_for_name(name);
  return r && n == r->nargs && ir_is_fp_or_fp_vector(rt);
}

static int function_like(const Origin *o, LLVMValueRef fn, const char *name) {
  fn = ir_strip_pointer_casts(fn);
  if (!LLVMIsAFunction(fn)) return report(o, "expected a function");
  if (!like_fits(fn, name))
    return report(o, "Parad cannot differentiate '%s' as '%s': it knows no such function of that many "
                     "arguments (the math functions of its rule table, malloc, calloc, realloc, free)",
                  LLVMGetValueName(fn), name);
  set_attr(fn, ATTR_LIKE, name);
  if (!strcmp(name, "free")) keep_every_call(fn);
  return 0;
}

static int allocator(const Origin *o, LLVMValueRef fn, long long size_arg) {
  fn = ir_strip_pointer_casts(fn);
  if (!LLVMIsAFunction(fn) || !ir_is_ptr(LLVMGetReturnType(LLVMGlobalGetValueType(fn))))
    return report(o, "an allocation function must be a function returning a pointer");
  if (size_arg < 0 || size_arg >= LLVMCountParams(fn) || !ir_is_int(LLVMTypeOf(LLVMGetParam(fn, (unsigned)size_arg))))
    return report(o, "the size of '%s' must be one of its integer arguments, by index from 0", LLVMGetValueName(fn));
  char buf[32];
  snprintf(buf, sizeof buf, "%lld", size_arg);
  set_attr(fn, ATTR_ALLOCATOR, buf);
  return 0;
}

static int deallocator(const Origin *o, LLVMValueRef fn, long long ptr_arg) {
  fn = ir_strip_pointer_casts(fn);
  if (!LLVMIsAFunction(fn)) return report(o, "a deallocation function must be a function");
  if (ptr_arg < 0 || ptr_arg >= LLVMCountParams(fn) || !ir_is_ptr(LLVMTypeOf(LLVMGetParam(fn, (unsigned)ptr_arg))))
    return report(o, "the block '%s' frees must be one of its pointer arguments, by index from 0", LLVMGetValueName(fn));
  char buf[32];
  snprintf(buf, sizeof buf, "%lld", ptr_arg);
  set_attr(fn, ATTR_DEALLOCATOR, buf);
  keep_every_call(fn);
  return 0;
}

/* ---- reading constants ---- */

/* The C string a constant points to ("log"), or NULL. */
static const char *string_of(LLVMValueRef v) {
  v = ir_strip_pointer_casts(v);
  if (LLVMIsAConstantExpr(v) && LLVMGetConstOpcode(v) == LLVMGetElementPtr) v = ir_strip_pointer_casts(LLVMGetOperand(v, 0));
  LLVMValueRef init = LLVMIsAGlobalVariable(v) ? LLVMGetInitializer(v) : NULL;
  if (!init || !LLVMIsConstantString(init)) return NULL;
  size_t len;
  const char *s = LLVMGetAsString(init, &len);
  return len && s[len - 1] == 0 ? s : NULL; /* a C string keeps its NUL */
}

/* An index written as a pointer, (void *)1: inttoptr of an integer, or null for 0. */
static bool index_of(LLVMValueRef v, long long *out) {
  if (LLVMIsAConstantPointerNull(v)) return *out = 0, true;
  if (LLVMIsAConstantExpr(v) && LLVMGetConstOpcode(v) == LLVMIntToPtr) v = LLVMGetOperand(v, 0);
  if (!LLVMIsAConstantInt(v)) return false;
  *out = LLVMConstIntGetSExtValue(v);
  return true;
}

/* The position of -1 (the block) in Enzyme's list of a deallocator's arguments ("2,-1"), or -1. */
static long long block_position(const char *list) {
  long long pos = 0;
  for (const char *p = list; *p; pos++) {
    char *end;
    long v = strtol(p, &end, 10);
    if (end == p) return -1;
    if (v == -1) return pos;
    p = *end == ',' ? end + 1 : end;
  }
  return -1;
}

/* The elements of a registration's initializer: the operands of an array or struct, or itself. */
static unsigned elements(LLVMValueRef init, LLVMValueRef *out, unsigned cap) {
  if (!LLVMIsAConstantArray(init) && !LLVMIsAConstantStruct(init)) {
    out[0] = init;
    return 1;
  }
  unsigned n = (unsigned)LLVMGetNumOperands(init);
  for (unsigned i = 0; i < n && i < cap; i++) out[i] = LLVMGetOperand(init, i);
  return n < cap ? n : cap;
}

/* ---- registration globals ---- */

enum { MAX_ELEMENTS = 256 };

static int read_global(LLVMValueRef g) {
  const char *name = LLVMGetValueName(g);
  LLVMValueRef init = LLVMGetInitializer(g), el[MAX_ELEMENTS];
  if (!init) return 0;
  unsigned n = elements(init, el, MAX_ELEMENTS);
  LLVMValueRef first = n ? ir_strip_pointer_casts(el[0]) : NULL;
  Origin o = {NULL, 0, name, first && LLVMIsAFunction(first) ? first : NULL};
  int errors = 0;
  if (strstr(name, "__enzyme_inactivenoblockfn")) /* its meaning beside inactivefn's is not Parad's to guess */
    return report(&o, "Parad does not implement Enzyme's inactive_noblock functions; register them with "
                      "__enzyme_inactivefn if no derivative goes through them");
  if (strstr(name, "__enzyme_inactivefn") || strstr(name, "__enzyme_inactive_global")) {
    for (unsigned i = 0; i < n; i++)
      if (!LLVMIsNull(el[i])) errors += inactive(&o, el[i]);
    return errors;
  }
  if (strstr(name, "__enzyme_function_like")) {
    const char *like = n >= 2 ? string_of(el[1]) : NULL;
    if (!like) return report(&o, "must be {the function, the name of the function it is like}");
    return function_like(&o, el[0], like);
  }
  if (strstr(name, "__enzyme_allocation_like")) {
    long long size_arg;
    const char *frees = n == 4 ? string_of(el[2]) : NULL;
    if (!frees || !index_of(el[1], &size_arg))
      return report(&o, "must be {the allocation function, (void *)the index of its size argument, \"the "
                        "deallocation function's arguments\" (-1: the block), the deallocation function}");
    errors += allocator(&o, el[0], size_arg);
    long long block = block_position(frees);
    if (block >= 0 && !LLVMIsNull(el[3])) errors += deallocator(&o, el[3], block);
    return errors;
  }
  return 0; /* Enzyme's hints that change no value (__enzyme_nofree, __enzyme_shouldrecompute, ...) */
}

/* ---- annotations: the attributes, through parad-cc ---- */

static int read_annotation(LLVMValueRef entry) {
  if (!LLVMIsAConstantStruct(entry) || LLVMGetNumOperands(entry) < 4) return 0;
  LLVMValueRef target = ir_strip_pointer_casts(LLVMGetOperand(entry, 0)), line = LLVMGetOperand(entry, 3);
  const char *what = string_of(LLVMGetOperand(entry, 1)), *file = string_of(LLVMGetOperand(entry, 2));
  if (!what || strncmp(what, "enzyme_", 7)) return 0;
  Origin o = {file ? file : "?", LLVMIsAConstantInt(line) ? (unsigned)LLVMConstIntGetZExtValue(line) : 0, NULL, NULL};
  const char *eq = strchr(what, '=');
  size_t key = eq ? (size_t)(eq - what) : strlen(what);
  if ((key == 15 && !strncmp(what, "enzyme_inactive", key)) || (key == 17 && !strncmp(what, "enzyme_inactivefn", key)))
    return inactive(&o, target);
  if (key == 20 && !strncmp(what, "enzyme_function_like", key) && eq) return function_like(&o, target, eq + 1);
  char *end = NULL;
  long long index = eq ? strtoll(eq + 1, &end, 10) : -1;
  bool number = end && end != eq + 1 && !*end;
  if (key == 16 && !strncmp(what, "enzyme_allocator", key))
    return number ? allocator(&o, target, index) : report(&o, "enzyme_allocator takes the index of the size argument");
  if (key == 18 && !strncmp(what, "enzyme_deallocator", key))
    return number ? deallocator(&o, target, index) : report(&o, "enzyme_deallocator takes the index of the block's argument");
  return 0; /* Enzyme's hints that change no value (enzyme_nofree, enzyme_shouldrecompute, ...) */
}

int registered_read_all(LLVMModuleRef m) {
  int errors = 0;
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g)) errors += read_global(g);
  LLVMValueRef annotations = LLVMGetNamedGlobal(m, "llvm.global.annotations");
  LLVMValueRef init = annotations ? LLVMGetInitializer(annotations) : NULL;
  for (int i = 0, n = init ? LLVMGetNumOperands(init) : 0; i < n; i++) errors += read_annotation(LLVMGetOperand(init, i));
  return errors;
}

/* ---- queries ---- */

bool registered_inactive_function(LLVMValueRef fn) { return get_attr(fn, ATTR_INACTIVE) != NULL; }

const char *registered_function_like(LLVMValueRef fn) { return get_attr(fn, ATTR_LIKE); }

static bool index_attr(LLVMValueRef fn, const char *key, unsigned *out) {
  const char *s = get_attr(fn, key);
  if (!s) return false;
  *out = (unsigned)strtoul(s, NULL, 10);
  return *out < LLVMCountParams(fn);
}

bool registered_allocator(LLVMValueRef fn, unsigned *size_arg) { return index_attr(fn, ATTR_ALLOCATOR, size_arg); }

bool registered_deallocator(LLVMValueRef fn, unsigned *ptr_arg) { return index_attr(fn, ATTR_DEALLOCATOR, ptr_arg); }

bool registered_inactive_memory(LLVMValueRef p) {
  for (int depth = 0; p && depth < 64; depth++) {
    p = ir_strip_pointer_casts(p);
    if (LLVMIsAGlobalVariable(p)) return inactive_global(p);
    bool gep = LLVMIsAGetElementPtrInst(p) || (LLVMIsAConstantExpr(p) && LLVMGetConstOpcode(p) == LLVMGetElementPtr);
    if (!gep) return false;
    p = LLVMGetOperand(p, 0);
  }
  return false;
}

/* ---- opaque to the optimisation before derivatives are generated ---- */

#define ATTR_HELD "parad-held-opaque" /* its value: the linkage, then the size attributes optnone excludes */

/* The user's registrations; not a checkpointed loop's function, whose derivative is its own body's (what
 * the optimiser infers from the body holds for it, and its steps are made from the optimised body). */
static bool has_registered_meaning(LLVMValueRef fn) {
  if (checkpoint_is_loop(fn)) return false;
  return get_attr(fn, ATTR_INACTIVE) || get_attr(fn, ATTR_LIKE) || get_attr(fn, ATTR_ALLOCATOR) || custom_registered(fn);
}

/* optnone keeps the optimiser from inferring attributes from the body (`returned`, memory(none)); a weak
 * linkage (the body may be replaced at link time) from propagating its results into the callers (a
 * constant it returns: interprocedural constant propagation tracks optnone functions' returns too). */
unsigned registered_hold_opaque(LLVMModuleRef m) {
  unsigned n = 0;
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
    if (LLVMIsDeclaration(fn) || !ir_fn_has_attr(fn, "noinline") || !has_registered_meaning(fn)) continue;
    char held[32];
    snprintf(held, sizeof held, "%d,%d%s%s%s", (int)LLVMGetLinkage(fn), (int)LLVMGetVisibility(fn),
             ir_fn_has_attr(fn, "optnone") ? "o" : "", ir_fn_has_attr(fn, "optsize") ? "s" : "", ir_fn_has_attr(fn, "minsize") ? "m" : "");
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(fn));
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                            LLVMCreateStringAttribute(c, ATTR_HELD, (unsigned)strlen(ATTR_HELD), held, (unsigned)strlen(held)));
    keep_every_call(fn);
    LLVMSetLinkage(fn, LLVMWeakAnyLinkage);
    LLVMSetVisibility(fn, LLVMDefaultVisibility);
    n++;
  }
  return n;
}

void registered_release_opaque(LLVMModuleRef m) {
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
    const char *held = get_attr(fn, ATTR_HELD);
    if (!held) continue;
    char *end;
    int linkage = (int)strtol(held, &end, 10), visibility = (int)strtol(end + 1, &end, 10);
    bool o = strchr(end, 'o') != NULL, s = strchr(end, 's') != NULL, mz = strchr(end, 'm') != NULL;
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(fn));
    LLVMRemoveStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, ATTR_HELD, (unsigned)strlen(ATTR_HELD));
    LLVMSetLinkage(fn, (LLVMLinkage)linkage);
    LLVMSetVisibility(fn, (LLVMVisibility)visibility);
    if (o) continue; /* optnone of its own (a deallocator's), which excludes the size attributes */
    LLVMRemoveEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, ir_attr_kind("optnone"));
    if (s) LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(c, ir_attr_kind("optsize"), 0));
    if (mz) LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(c, ir_attr_kind("minsize"), 0));
  }
}
