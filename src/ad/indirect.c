/* Derivatives reached through function pointers: which functions a pointer may hold, the module's table
 * of their derivatives, the lookup (see indirect.h). */
#include "ad/indirect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ad/checkpoint.h"
#include "ad/custom.h"
#include "ad/optimised_copies.h"
#include "ad/registered.h"
#include "ad/request.h"
#include "ir/diag.h"
#include "ir/ir.h"
#include "omp/omp.h"
#include "rules/rules.h"

typedef struct {
  LLVMValueRef fn, key, first, second;
  char *refusal; /* the generator's words when there is no derivative */
} Entry;

typedef struct {
  char *memo; /* "key|type" */
  LLVMValueRef key;
} Registered;

/* A function answering one lookup (key, which) for every call site asking it: its body is written when
 * the module's derivatives are all known (a candidate's derivative may itself call through a pointer). */
typedef struct {
  LLVMValueRef key, fn;
  int which;
} Dispatch;

struct IndirectTable {
  VEC(Entry) entries;
  VEC(Registered) registered;
  VEC(Dispatch) dispatches;
};

static struct IndirectTable *table(AdModule *ad) {
  if (!ad->indirect) ad->indirect = xcalloc(1, sizeof *ad->indirect);
  return ad->indirect;
}

static bool generated_by_parad(AdModule *ad, LLVMValueRef fn) {
  for (size_t i = 0; i < ad->generated.len; i++)
    if (ad->generated.data[i].fn == fn) return true;
  return false;
}

/* Whether a call passes fn as an argument, besides as the region a parallel fork runs or the function a
 * derivative request names. */
static bool passes_function(LLVMValueRef call, LLVMValueRef fn) {
  int skip = omp_classify(call) == OMP_FORK ? OMP_FORK_FIRST_ARG - 1 : request_is_canonical_call(call) ? (int)request_fn_arg(call) : -1;
  for (unsigned i = 0, n = ir_num_call_args(call); i < n; i++)
    if ((int)i != skip && ir_strip_pointer_casts(LLVMGetArgOperand(call, i)) == fn) return true;
  return false;
}

/* Whether constant c (an array of addresses) is only the initializer of the module's bookkeeping. */
static bool in_llvm_globals_only(LLVMValueRef c) {
  if (!LLVMIsAConstant(c) || LLVMIsAGlobalValue(c) || !LLVMGetFirstUse(c)) return false;
  for (LLVMUseRef u = LLVMGetFirstUse(c); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef g = LLVMGetUser(u);
    if (!LLVMIsAGlobalVariable(g) || strncmp(LLVMGetValueName(g), "llvm.", 5)) return false;
  }
  return true;
}

/* A use of fn as a value a pointer may carry: not a direct call, not the module's bookkeeping (llvm.used
 * and the like). */
static bool address_taken(LLVMValueRef fn) {
  for (LLVMUseRef u = LLVMGetFirstUse(fn); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (ir_is_call_site(user)) { /* invokes too: at -O0 C++ calls that may throw */
      if (passes_function(user, fn)) return true;
      continue;
    }
    if (LLVMIsAGlobalVariable(user) && !strncmp(LLVMGetValueName(user), "llvm.", 5)) continue;
    if (in_llvm_globals_only(user)) continue; /* llvm.used's array (-O0's copies, ad/optimised_copies.h) */
    return true; /* stored, passed, in a constant table */
  }
  return false;
}

void indirect_module_candidates(LLVMModuleRef m, LLVMTypeRef fty, ValueList *out) {
  /* a checkpointed loop's runners are handed to Parad's runtime, not to the program: a step taking one
     pointer (a struct of the state) has their type */
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    if ((!fty || LLVMGlobalGetValueType(fn) == fty) && address_taken(fn) && !checkpoint_is_runner(fn) &&
        (!LLVMIsDeclaration(fn) || rule_for_name(LLVMGetValueName(fn)) || custom_registered(fn)))
      vec_push(out, fn);
}

void indirect_candidates(AdModule *ad, LLVMTypeRef fty, ValueList *out) {
  size_t kept = out->len;
  indirect_module_candidates(ad->mod, fty, out);
  for (size_t i = kept; i < out->len; i++)
    if (!generated_by_parad(ad, out->data[i])) out->data[kept++] = out->data[i];
  out->len = kept;
}

void indirect_callees(AdModule *ad, LLVMValueRef call, ValueList *out) {
  LLVMValueRef fn = ir_called_function(call);
  if (fn) vec_push(out, fn);
  else indirect_candidates(ad, LLVMGetCalledFunctionType(call), out);
}

static LLVMValueRef key_string(AdModule *ad, const char *key) {
  LLVMValueRef s = LLVMConstStringInContext(ad->ctx, key, (unsigned)strlen(key), 0);
  LLVMValueRef g = LLVMAddGlobal(ad->mod, LLVMTypeOf(s), "parad.derivative.key");
  LLVMSetInitializer(g, s);
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMPrivateLinkage);
  LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
  return g;
}

/* A library function with a derivative rule (sin, as the pointer of a table of functions): its derivative
 * is that of a function of the module that only calls it. */
static LLVMValueRef wrapper(LLVMValueRef fn) {
  char *name = xasprintf("parad.through_pointer.%s", LLVMGetValueName(fn));
  LLVMValueRef w = ir_caller_of(fn, name);
  free(name);
  return w;
}

/* Each line once: a construct met by several of a candidate's variants is reported by each. */
static void drop_repeated_lines(char *text) {
  char *out = text;
  for (char *line = text; *line;) {
    size_t n = strcspn(line, "\n") + (line[strcspn(line, "\n")] == '\n');
    bool seen = false;
    for (char *p = text; p < out && !seen; p += strcspn(p, "\n") + 1) seen = !strncmp(p, line, n);
    if (!seen) memmove(out, line, n), out += n;
    line += n;
  }
  *out = 0;
}

LLVMValueRef indirect_register(AdModule *ad, LLVMTypeRef fty, const char *key, IndirectGenerate generate, void *ctx) {
  struct IndirectTable *t = table(ad);
  char *tname = LLVMPrintTypeToString(fty);
  char *memo = xasprintf("%s|%s", key, tname);
  LLVMDisposeMessage(tname);
  for (size_t i = 0; i < t->registered.len; i++)
    if (!strcmp(t->registered.data[i].memo, memo)) {
      free(memo);
      return t->registered.data[i].key;
    }
  LLVMValueRef k = key_string(ad, key);
  Registered r = {memo, k};
  vec_push(&t->registered, r); /* before trying: a candidate may call through such a pointer too */
  ValueList candidates = {0};
  indirect_candidates(ad, fty, &candidates);
  for (size_t i = 0; i < candidates.len; i++) {
    LLVMValueRef out[2] = {NULL, NULL}, fn = candidates.data[i];
    /* what the program registered for fn (a derivative, a gradient, inactive, like a math function)
       holds at its calls: the derivative is that of a function that calls it, as for a request naming it */
    bool registered = custom_registered(fn) || registered_inactive_function(fn) || registered_function_like(fn);
    /* -O0: from fn's optimised copy, else (refused there, as a request's copies may be) as compiled */
    LLVMValueRef copy = registered || LLVMIsDeclaration(fn) ? NULL : ad_optimised_copy(fn);
    diag_capture_begin(true); /* only trying: the pointer may never lead there */
    bool ok = copy && generate(ad, copy, ctx, out);
    if (!ok && copy) {
      free(diag_capture_end());
      diag_capture_begin(true);
    }
    if (!ok) ok = generate(ad, registered ? custom_caller(fn) : LLVMIsDeclaration(fn) ? wrapper(fn) : fn, ctx, out);
    char *kept = diag_capture_end();
    Entry e = {candidates.data[i], k, ok ? out[0] : NULL, ok ? out[1] : NULL, NULL};
    if (!ok) {
      drop_repeated_lines(kept);
      size_t n = strlen(kept);
      while (n && kept[n - 1] == '\n') kept[--n] = 0;
      e.refusal = xasprintf("which Parad cannot differentiate for this call:\n%s", *kept ? kept : "(no reason given)");
    }
    free(kept);
    vec_push(&t->entries, e);
  }
  vec_free(&candidates);
  return k;
}

static LLVMTypeRef lookup_type(LLVMContextRef c) {
  LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0), i32 = LLVMInt32TypeInContext(c);
  LLVMTypeRef params[3] = {ptr, ptr, i32};
  return LLVMFunctionType(ptr, params, 3, 0);
}

LLVMValueRef indirect_lookup(AdModule *ad, LLVMBuilderRef b, LLVMValueRef fnptr, LLVMValueRef key, int which) {
  struct IndirectTable *t = table(ad);
  LLVMValueRef fn = NULL;
  for (size_t i = 0; i < t->dispatches.len && !fn; i++)
    if (t->dispatches.data[i].key == key && t->dispatches.data[i].which == which) fn = t->dispatches.data[i].fn;
  if (!fn) {
    LLVMTypeRef ptr = LLVMPointerTypeInContext(ad->ctx, 0);
    /* named as the runtime's lookup (a derivative over one refuses it) and declared until written */
    fn = LLVMAddFunction(ad->mod, "__parad_rt_derivative.of", LLVMFunctionType(ptr, &ptr, 1, 0));
    Dispatch d = {key, fn, which};
    vec_push(&t->dispatches, d);
  }
  return LLVMBuildCall2(b, LLVMGlobalGetValueType(fn), fn, &fnptr, 1, "");
}

/* Whom a pointer may call is known for the module's own functions: they are compared against it first
 * and their derivatives taken as constants, which the optimiser may inline (a loop calling a limiter
 * through a table asked the runtime twice a call and recorded the reverse function's address); others
 * (another file's functions, a library's) are the runtime's. Up to a few: a long chain of comparisons
 * costs more than the runtime's per-thread cache of its last answers. */
enum { DISPATCH_COMPARED = 8 };

static void write_dispatch(AdModule *ad, Dispatch *d) {
  struct IndirectTable *t = ad->indirect;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ad->ctx);
  LLVMValueRef fnptr = LLVMGetParam(d->fn, 0);
  LLVMSetLinkage(d->fn, LLVMInternalLinkage);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ad->ctx, d->fn, "entry"));
  size_t known = 0;
  for (size_t i = 0; i < t->entries.len; i++) known += t->entries.data[i].key == d->key && !t->entries.data[i].refusal;
  for (size_t i = 0; i < t->entries.len && known <= DISPATCH_COMPARED; i++) {
    Entry *e = &t->entries.data[i];
    LLVMValueRef answer = d->which ? e->second : e->first;
    if (e->key != d->key || e->refusal || !answer) continue;
    LLVMBasicBlockRef yes = LLVMAppendBasicBlockInContext(ad->ctx, d->fn, "known");
    LLVMBasicBlockRef no = LLVMAppendBasicBlockInContext(ad->ctx, d->fn, "other");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, fnptr, e->fn, ""), yes, no);
    LLVMPositionBuilderAtEnd(b, yes);
    LLVMBuildRet(b, answer);
    LLVMPositionBuilderAtEnd(b, no);
  }
  LLVMTypeRef i32 = LLVMInt32TypeInContext(ad->ctx);
  LLVMValueRef args[3] = {fnptr, d->key, LLVMConstInt(i32, (unsigned long long)d->which, 0)};
  LLVMBuildRet(b, ir_call_named(b, "__parad_rt_derivative", lookup_type(ad->ctx), args, 3));
  LLVMDisposeBuilder(b);
}

static LLVMValueRef cstring(AdModule *ad, const char *s) {
  LLVMValueRef init = LLVMConstStringInContext(ad->ctx, s, (unsigned)strlen(s), 0);
  LLVMValueRef g = LLVMAddGlobal(ad->mod, LLVMTypeOf(init), "parad.derivative.refusal");
  LLVMSetInitializer(g, init);
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMPrivateLinkage);
  return g;
}

/* Adds ctor to llvm.global_ctors (an appending array: the module may have its own). */
static void add_constructor(AdModule *ad, LLVMValueRef ctor) {
  LLVMTypeRef ptr = LLVMPointerTypeInContext(ad->ctx, 0), i32 = LLVMInt32TypeInContext(ad->ctx);
  LLVMTypeRef fields[3] = {i32, ptr, ptr};
  LLVMTypeRef et = LLVMStructTypeInContext(ad->ctx, fields, 3, 0);
  LLVMValueRef old = LLVMGetNamedGlobal(ad->mod, "llvm.global_ctors");
  ValueList elems = {0};
  if (old && LLVMGetInitializer(old)) {
    LLVMValueRef init = LLVMGetInitializer(old);
    unsigned n = (unsigned)LLVMGetArrayLength2(LLVMTypeOf(init));
    for (unsigned i = 0; i < n; i++) vec_push(&elems, LLVMGetAggregateElement(init, i));
  }
  LLVMValueRef mine[3] = {LLVMConstInt(i32, 65535, 0), ctor, LLVMConstNull(ptr)};
  vec_push(&elems, LLVMConstNamedStruct(et, mine, 3));
  LLVMValueRef arr = LLVMConstArray2(et, elems.data, elems.len);
  if (old) LLVMDeleteGlobal(old);
  LLVMValueRef g = LLVMAddGlobal(ad->mod, LLVMTypeOf(arr), "llvm.global_ctors");
  LLVMSetInitializer(g, arr);
  LLVMSetLinkage(g, LLVMAppendingLinkage);
  vec_free(&elems);
}

void indirect_emit_table(AdModule *ad) {
  struct IndirectTable *t = ad->indirect;
  if (!t) return;
  for (size_t i = 0; i < t->dispatches.len; i++) write_dispatch(ad, &t->dispatches.data[i]);
  vec_free(&t->dispatches);
  if (t->entries.len) {
    LLVMTypeRef ptr = LLVMPointerTypeInContext(ad->ctx, 0), i64 = LLVMInt64TypeInContext(ad->ctx);
    LLVMTypeRef fields[5] = {ptr, ptr, ptr, ptr, ptr};
    LLVMTypeRef et = LLVMStructTypeInContext(ad->ctx, fields, 5, 0);
    LLVMValueRef *rows = xcalloc(t->entries.len, sizeof *rows);
    for (size_t i = 0; i < t->entries.len; i++) {
      Entry *e = &t->entries.data[i];
      LLVMValueRef f[5] = {e->fn, e->key, e->first ? e->first : LLVMConstNull(ptr), e->second ? e->second : LLVMConstNull(ptr),
                           e->refusal ? cstring(ad, e->refusal) : LLVMConstNull(ptr)};
      rows[i] = LLVMConstNamedStruct(et, f, 5);
    }
    LLVMValueRef init = LLVMConstArray2(et, rows, t->entries.len);
    free(rows);
    LLVMValueRef g = LLVMAddGlobal(ad->mod, LLVMTypeOf(init), "parad.derivatives");
    LLVMSetInitializer(g, init);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    LLVMValueRef ctor = LLVMAddFunction(ad->mod, "parad.register_derivatives", LLVMFunctionType(LLVMVoidTypeInContext(ad->ctx), NULL, 0, 0));
    LLVMSetLinkage(ctor, LLVMInternalLinkage);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ad->ctx);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ad->ctx, ctor, "entry"));
    LLVMTypeRef params[2] = {ptr, i64};
    LLVMValueRef args[2] = {g, LLVMConstInt(i64, t->entries.len, 0)};
    ir_call_named(b, "__parad_rt_register_derivatives", LLVMFunctionType(LLVMVoidTypeInContext(ad->ctx), params, 2, 0), args, 2);
    LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
    add_constructor(ad, ctor);
  }
  for (size_t i = 0; i < t->entries.len; i++) free(t->entries.data[i].refusal);
  vec_free(&t->entries);
  for (size_t i = 0; i < t->registered.len; i++) free(t->registered.data[i].memo);
  vec_free(&t->registered);
  free(t);
  ad->indirect = NULL;
}
