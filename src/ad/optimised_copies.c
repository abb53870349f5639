/* Derivatives of optimised copies, for programs built at -O0. See optimised_copies.h. */
#include "ad/optimised_copies.h"

#include "ir/diag.h"

#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>
#include <llvm-c/Target.h>

#include "ad/indirect.h"
#include "ad/request.h"
#include "analysis/memtype.h"
#include "ir/ir.h"
#include "ir/util.h"
#include "ir/valuemap.h"

/* What Parad was told of a function (a registration, a custom derivative, a checkpointed loop's parts) is
 * an attribute of that function: it is kept itself. How its file was compiled is not such news. */
static bool told_of(LLVMValueRef fn) {
  unsigned n = LLVMGetAttributeCountAtIndex(fn, LLVMAttributeFunctionIndex);
  LLVMAttributeRef *a = xcalloc(n + 1, sizeof *a);
  LLVMGetAttributesAtIndex(fn, LLVMAttributeFunctionIndex, a);
  bool told = false;
  for (unsigned i = 0; i < n && !told; i++) {
    unsigned len = 0;
    const char *k = LLVMIsStringAttribute(a[i]) ? LLVMGetStringAttributeKind(a[i], &len) : "";
    told = len > 6 && !strncmp(k, "parad-", 6) &&
           !(len == strlen(MEMTYPE_LOOSE_ALIASING) && !strncmp(k, MEMTYPE_LOOSE_ALIASING, len));
  }
  free(a);
  return told;
}

/* A computed goto jumps to the addresses of the original's blocks, which a table (a global) holds: in a
 * copy it would jump to no block of its own, and the optimiser took the copy for unreachable code. */
static bool jumps_by_address(LLVMValueRef fn) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    if (t && LLVMGetInstructionOpcode(t) == LLVMIndirectBr) return true;
  }
  return false;
}

/* Not only the optnone ones: a task's entry, which clang does not mark so, calls the program's functions,
   and the program's own primal shares the entry. */
static bool copyable(LLVMValueRef v) {
  return v && LLVMIsAFunction(v) && !LLVMIsDeclaration(v) && !told_of(v) && !jumps_by_address(v);
}

/* The operands of a call site that name a function the copies call instead: its callee; a request's
 * function; and the function arguments of the OpenMP runtime's calls (the region a fork runs, a task's
 * entry, a reduction's combiner). Any other function pointer (stored, compared, handed to a library) keeps
 * its identity. */
typedef VEC(unsigned) OperandList;

static void redirected_operands(LLVMValueRef call, OperandList *out) {
  out->len = 0;
  vec_push(out, (unsigned)LLVMGetNumOperands(call) - 1); /* the callee */
  if (request_is_canonical_call(call)) {
    vec_push(out, request_fn_arg(call));
    return;
  }
  if (strncmp(ir_called_name(call), "__kmpc_", 7)) return;
  for (unsigned a = 0, n = ir_num_call_args(call); a < n; a++)
    if (LLVMIsAFunction(ir_strip_pointer_casts(LLVMGetOperand(call, a)))) vec_push(out, a);
}

static LLVMValueRef operand_function(LLVMValueRef call, unsigned k) {
  LLVMValueRef v = ir_strip_pointer_casts(LLVMGetOperand(call, k));
  return v && LLVMIsAFunction(v) ? v : NULL;
}

static void add_target(LLVMValueRef g, ValueMap *seen, ValueList *out) {
  if (copyable(g) && !vmap_has(seen, g)) {
    vmap_put(seen, g, g);
    vec_push(out, g);
  }
}

/* The functions a call site reaches: those it names, and for a call through a pointer, the functions of
 * the module that the pointer may be (ad/indirect.h), whose derivatives are made from their copies too
 * (the pointer stays the original's: the dispatch compares it with the original). */
static void add_targets(LLVMValueRef call, ValueMap *seen, ValueList *out, OperandList *ops) {
  redirected_operands(call, ops);
  for (size_t o = 0; o < ops->len; o++) add_target(operand_function(call, ops->data[o]), seen, out);
  if (ir_called_function(call) || LLVMIsAInlineAsm(LLVMGetCalledValue(call))) return;
  ValueList targets = {0};
  indirect_module_candidates(LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInstructionParent(call))),
                             LLVMGetCalledFunctionType(call), &targets);
  for (size_t t = 0; t < targets.len; t++) add_target(targets.data[t], seen, out);
  vec_free(&targets);
}

static bool named_in(LLVMValueRef call, char *const *names, size_t n) {
  const char *name = ir_called_name(call);
  for (size_t i = 0; i < n; i++)
    if (!strcmp(name, names[i])) return true;
  return false;
}

/* The functions the request calls `from` on reach through redirected operands (all requests' where `from`
 * is NULL, but for those named in `as_compiled`), those to copy only. */
static void reached(LLVMModuleRef m, LLVMValueRef from, char *const *as_compiled, size_t n, ValueList *out) {
  ValueMap seen;
  vmap_init(&seen);
  OperandList ops = {0};
  if (from) add_targets(from, &seen, out, &ops);
  for (LLVMValueRef f = from ? NULL : LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (request_is_canonical_call(i) && !named_in(i, as_compiled, n)) add_targets(i, &seen, out, &ops);
  for (size_t k = 0; k < out->len; k++)
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(out->data[k]); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (ir_is_call_site(i)) add_targets(i, &seen, out, &ops);
  vec_free(&ops);
  vmap_free(&seen);
}

static void redirect(LLVMValueRef call, const ValueMap *copy_of, OperandList *ops) {
  redirected_operands(call, ops);
  for (size_t o = 0; o < ops->len; o++) {
    LLVMValueRef g = operand_function(call, ops->data[o]);
    if (g && vmap_has(copy_of, g)) LLVMSetOperand(call, ops->data[o], vmap_get(copy_of, g));
  }
}

/* clang at -O0 copies a struct of captured variables into an OpenMP task's block with a memcpy, and gives
 * no types of memory (TBAA, which it gives only when it optimises): the optimiser would turn the memcpy
 * into a copy of integers that the generators cannot tell pointers or floats in. Where one side of the
 * memcpy is a whole stack slot of the copied size, the slot's type says what the bytes are, and the copy
 * is made field by field, as clang's types would have let the optimiser do. */
enum { MAX_FIELDS = 64 };

typedef struct {
  LLVMTypeRef type[MAX_FIELDS];
  unsigned long long at[MAX_FIELDS];
  unsigned n;
} Fields;

static bool fields_of(LLVMTargetDataRef td, LLVMTypeRef t, unsigned long long at, Fields *f) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMStructTypeKind:
    for (unsigned i = 0, n = LLVMCountStructElementTypes(t); i < n; i++)
      if (!fields_of(td, LLVMStructGetTypeAtIndex(t, i), at + LLVMOffsetOfElement(td, t, i), f)) return false;
    return true;
  case LLVMArrayTypeKind: {
    LLVMTypeRef e = LLVMGetElementType(t);
    for (unsigned long long i = 0, n = LLVMGetArrayLength2(t); i < n; i++)
      if (!fields_of(td, e, at + i * LLVMABISizeOfType(td, e), f)) return false;
    return true;
  }
  case LLVMIntegerTypeKind: case LLVMPointerTypeKind: case LLVMFloatTypeKind: case LLVMDoubleTypeKind:
    if (f->n == MAX_FIELDS) return false;
    f->type[f->n] = t;
    f->at[f->n++] = at;
    return true;
  default: return false;
  }
}

static void type_copies(LLVMValueRef fn) {
  LLVMModuleRef m = LLVMGetGlobalParent(fn);
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  ValueList done = {0};
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (!ir_is_call(i) || strncmp(ir_called_name(i), "llvm.memcpy.", 12)) continue;
      LLVMValueRef dst = LLVMGetArgOperand(i, 0), src = LLVMGetArgOperand(i, 1), len = LLVMGetArgOperand(i, 2);
      if (!LLVMIsAConstantInt(len) || !LLVMIsAConstantInt(LLVMGetArgOperand(i, 3)) ||
          LLVMConstIntGetZExtValue(LLVMGetArgOperand(i, 3)))
        continue; /* volatile */
      LLVMValueRef slot = LLVMIsAAllocaInst(ir_strip_pointer_casts(src)) ? ir_strip_pointer_casts(src)
                          : LLVMIsAAllocaInst(ir_strip_pointer_casts(dst)) ? ir_strip_pointer_casts(dst) : NULL;
      if (!slot || !LLVMIsAConstantInt(LLVMGetOperand(slot, 0)) || LLVMConstIntGetZExtValue(LLVMGetOperand(slot, 0)) != 1)
        continue;
      LLVMTypeRef t = LLVMGetAllocatedType(slot);
      Fields f = {.n = 0};
      if (LLVMABISizeOfType(td, t) != LLVMConstIntGetZExtValue(len) || !fields_of(td, t, 0, &f) || f.n < 2) continue;
      LLVMPositionBuilderBefore(b, i);
      LLVMSetCurrentDebugLocation2(b, LLVMInstructionGetDebugLoc(i)); /* diagnostics place the fields' copies */
      LLVMTypeRef i8 = LLVMInt8TypeInContext(c), i64 = LLVMInt64TypeInContext(c);
      for (unsigned k = 0; k < f.n; k++) {
        LLVMValueRef at = LLVMConstInt(i64, f.at[k], 0);
        LLVMValueRef from = LLVMBuildGEP2(b, i8, src, &at, 1, ""), to = LLVMBuildGEP2(b, i8, dst, &at, 1, "");
        LLVMValueRef v = LLVMBuildLoad2(b, f.type[k], from, "");
        LLVMSetAlignment(v, 1);
        LLVMSetAlignment(LLVMBuildStore(b, v, to), 1);
      }
      vec_push(&done, i);
    }
  for (size_t k = 0; k < done.len; k++) LLVMInstructionEraseFromParent(done.data[k]);
  vec_free(&done);
  LLVMDisposeBuilder(b);
}

unsigned ad_make_optimised_copies(LLVMModuleRef m, char *const *as_compiled, size_t n_as_compiled) {
  ValueList originals = {0};
  reached(m, NULL, as_compiled, n_as_compiled, &originals);
  ValueMap copy_of, copies;
  vmap_init(&copy_of);
  vmap_init(&copies);
  for (size_t k = 0; k < originals.len; k++) {
    LLVMValueRef f = originals.data[k];
    ValueMap vm;
    vmap_init(&vm);
    char *name = xasprintf("%s" IR_COPY_SUFFIX, LLVMGetValueName(f));
    LLVMValueRef c = ir_clone_function(f, name, &vm);
    free(name);
    vmap_free(&vm);
    LLVMRemoveEnumAttributeAtIndex(c, LLVMAttributeFunctionIndex, ir_attr_kind("optnone"));
    LLVMRemoveEnumAttributeAtIndex(c, LLVMAttributeFunctionIndex, ir_attr_kind("noinline"));
    type_copies(c);
    vmap_put(&copy_of, f, c);
    vmap_put(&copies, c, f);
  }
  /* the copies' calls, and the requests wherever they are (the program's own calls keep the originals) */
  OperandList ops = {0};
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    bool copy = vmap_has(&copies, f);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (copy ? ir_is_call_site(i) : request_is_canonical_call(i) && !named_in(i, as_compiled, n_as_compiled))
          redirect(i, &copy_of, &ops);
  }
  vec_free(&ops);
  /* a copy nothing calls (a candidate of a call through a pointer only) is kept through the light
     optimisation (ad_release_optimised_copies); the others are left as they are: a use in llvm.used would
     tell the analyses that their addresses are taken */
  for (size_t k = 0; k < originals.len; k++) {
    LLVMValueRef c = vmap_get(&copy_of, originals.data[k]);
    if (!LLVMGetFirstUse(c)) ir_append_used(m, c);
  }
  vmap_free(&copy_of);
  vmap_free(&copies);
  unsigned n = (unsigned)originals.len;
  vec_free(&originals);
  return n;
}

/* A copy's calls through pointers that the optimisation made direct (`integrate(lv_rhs, ...)` inlined into the
 * copy of its caller: the call of f(...) became lv_rhs(...)) go to the original as compiled: to its copy. */
void ad_call_copies(LLVMModuleRef m) {
  size_t sl = strlen(IR_COPY_SUFFIX);
  OperandList ops = {0};
  ValueMap copy_of;
  vmap_init(&copy_of);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    size_t len;
    const char *name = LLVMGetValueName2(f, &len);
    if (len <= sl || strcmp(name + len - sl, IR_COPY_SUFFIX)) continue;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
        LLVMValueRef callee = ir_is_call_site(i) ? ir_called_function(i) : NULL, copy;
        if (callee && !vmap_has(&copy_of, callee) && (copy = ad_optimised_copy(callee)) &&
            LLVMGlobalGetValueType(copy) == LLVMGlobalGetValueType(callee))
          vmap_put(&copy_of, callee, copy);
        if (callee && vmap_has(&copy_of, callee)) redirect(i, &copy_of, &ops);
      }
  }
  vmap_free(&copy_of);
  vec_free(&ops);
}

LLVMValueRef ad_optimised_copy(LLVMValueRef fn) {
  char *name = xasprintf("%s" IR_COPY_SUFFIX, LLVMGetValueName(fn));
  LLVMValueRef c = LLVMGetNamedFunction(LLVMGetGlobalParent(fn), name);
  free(name);
  return c && !LLVMIsDeclaration(c) ? c : NULL;
}

void ad_release_optimised_copies(LLVMModuleRef m) {
  LLVMValueRef used = LLVMGetNamedGlobal(m, "llvm.used"), init = used ? LLVMGetInitializer(used) : NULL;
  unsigned n = init ? (unsigned)LLVMGetNumOperands(init) : 0, kept = 0;
  if (!n) return;
  LLVMValueRef *elems = xcalloc(n, sizeof *elems);
  size_t sl = strlen(IR_COPY_SUFFIX);
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef e = LLVMGetOperand(init, i), g = ir_strip_pointer_casts(e);
    size_t len = 0;
    const char *name = LLVMIsAFunction(g) ? LLVMGetValueName2(g, &len) : "";
    if (len > sl && !strcmp(name + len - sl, IR_COPY_SUFFIX)) continue;
    elems[kept++] = e;
  }
  if (kept < n) ir_set_used(m, elems, kept);
  free(elems);
}

void ad_requests_reach(LLVMModuleRef m, RequestReaches *out) {
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
        if (!request_is_canonical_call(i)) continue;
        RequestReach r = {xstrdup(ir_called_name(i)), {0}};
        reached(m, i, NULL, 0, &r.reached);
        vec_push(out, r);
      }
}

/* Whether a function named `error` is fn, or a copy of it the generators made (a body without unwind paths,
 * fn's name and a suffix). */
static bool made_from(LLVMValueRef fn, const char *error) {
  size_t n;
  const char *name = LLVMGetValueName2(fn, &n);
  return n && !strncmp(error, name, n) && (!error[n] || error[n] == '.');
}

size_t ad_refused_requests(const RequestReaches *r, char ***names, size_t *n) {
  char **errors;
  size_t n_errors = diag_error_functions(&errors), added = 0;
  for (size_t q = 0; q < r->len; q++) {
    bool refused = false;
    for (size_t k = 0; k < r->data[q].reached.len && !refused; k++)
      for (size_t e = 0; e < n_errors && !refused; e++) refused = made_from(r->data[q].reached.data[k], errors[e]);
    if (!refused) continue;
    *names = realloc(*names, (*n + 1) * sizeof **names);
    (*names)[(*n)++] = xstrdup(r->data[q].name);
    added++;
  }
  return added;
}

void ad_requests_reach_free(RequestReaches *r) {
  for (size_t q = 0; q < r->len; q++) {
    free(r->data[q].name);
    vec_free(&r->data[q].reached);
  }
  vec_free(r);
}

void ad_strip_copies_locations(LLVMModuleRef m) {
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    size_t n;
    const char *name = LLVMGetValueName2(f, &n);
    size_t s = strlen(IR_COPY_SUFFIX);
    if (n >= s && !strcmp(name + n - s, IR_COPY_SUFFIX)) ir_strip_locations(f);
  }
}

static bool local(LLVMValueRef g) {
  LLVMLinkage l = LLVMGetLinkage(g);
  return l == LLVMInternalLinkage || l == LLVMPrivateLinkage;
}

/* By name: the optimiser may delete or replace a value the shield does not cover, and a pointer kept to it
   could name another value by the time the linkage is given back. */
static void shield(ProgramShield *s, LLVMValueRef g) {
  size_t n;
  const char *name = LLVMGetValueName2(g, &n);
  if (!n) return;
  vec_push(&s->names, xstrdup(name));
  vec_push(&s->is_function, LLVMIsAFunction(g) != NULL);
  vec_push(&s->linkage, LLVMGetLinkage(g));
  LLVMSetLinkage(g, LLVMExternalLinkage);
}

void ad_shield_program(LLVMModuleRef m, ProgramShield *s) {
  s->mod = m;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (!LLVMIsDeclaration(f) && local(f) && ir_fn_has_attr(f, "optnone")) shield(s, f);
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
    if (local(g) && !LLVMIsGlobalConstant(g)) shield(s, g);
}

void ad_unshield_program(ProgramShield *s) {
  for (size_t i = 0; i < s->names.len; i++) {
    LLVMValueRef g = s->is_function.data[i] ? LLVMGetNamedFunction(s->mod, s->names.data[i])
                                            : LLVMGetNamedGlobal(s->mod, s->names.data[i]);
    if (g) LLVMSetLinkage(g, s->linkage.data[i]);
    free(s->names.data[i]);
  }
  vec_free(&s->names);
  vec_free(&s->is_function);
  vec_free(&s->linkage);
}
