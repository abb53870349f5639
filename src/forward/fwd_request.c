/* A user's forward request, lowered: call the tangent function and hand its result back in the shape
 * the user's declaration of __parad_fwddiff asked for (a double, a struct of N doubles, ...). */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include <llvm-c/Target.h>

#include "ad/checkpoint.h"
#include "ad/global_arguments.h"
#include "forward/forward.h"
#include "forward/fwd_internal.h"
#include "ir/diag.h"
#include "ir/ir.h"

static LLVMValueRef lane_of(LLVMBuilderRef b, LLVMContextRef ctx, unsigned width, LLVMTypeRef t, LLVMValueRef tv,
                            unsigned i) {
  if (width == 1) return tv;
  if (ir_is_fp(t)) return LLVMBuildExtractElement(b, tv, ir_const_i32(ctx, i), "");
  return LLVMBuildExtractValue(b, tv, i, "");
}

/* Is type ct the C ABI's coercion of a struct of w values of type rt: the same bytes, give or take the
 * tail padding the coercion adds ({float, float, float} comes back as {<2 x float>, float}). */
/* Whether every float in t (its fields, elements, lanes) is of type rt. */
static bool floats_all(LLVMTypeRef t, LLVMTypeRef rt) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMStructTypeKind:
    for (unsigned i = 0, n = LLVMCountStructElementTypes(t); i < n; i++)
      if (!floats_all(LLVMStructGetTypeAtIndex(t, i), rt)) return false;
    return true;
  case LLVMArrayTypeKind:
  case LLVMVectorTypeKind: return floats_all(LLVMGetElementType(t), rt);
  default: return !ir_is_fp(t) || t == rt;
  }
}

/* Whether ct (the call's result, or the struct its sret pointer points to) holds w tangents of type rt:
 * their bytes, and floats of their type only (a float function's 4 tangents in a struct of 4 doubles, returned
 * through memory, were written as floats and read as doubles: garbage, unchecked). */
static bool holds_exactly(LLVMModuleRef m, LLVMTypeRef ct, LLVMTypeRef rt, unsigned w) {
  unsigned long long want = w * ir_type_size(m, rt), have = ir_type_size(m, ct);
  unsigned align = LLVMABIAlignmentOfType(LLVMGetModuleDataLayout(m), ct);
  return have >= want && have - want < align && (!ir_is_fp(rt) || floats_all(ct, rt));
}

static int cannot_hold(LLVMValueRef call, const char *entry, unsigned w, LLVMTypeRef rt) {
  diag_error_plain(call, "%s: the call's result type cannot hold %u tangent%s of type %s: declare it as returning %s%s",
                   entry, w, w > 1 ? "s" : "", ir_type_name(rt), w > 1 ? "a struct of that many " : "", ir_type_name(rt));
  return 1;
}

/* Stores at `at`, as C lays out an array of rt: primal first where it is given, then the w tangents of tv. */
static void store_in_order(AdModule *ad, LLVMBuilderRef b, LLVMValueRef at, LLVMTypeRef rt, LLVMValueRef primal,
                           LLVMValueRef tv, unsigned w) {
  unsigned first = primal != NULL;
  LLVMTypeRef arr = LLVMArrayType2(rt, w + first);
  for (unsigned i = 0; i < w + first; i++) {
    LLVMValueRef idx[2] = {ir_const_i64(ad->ctx, 0), ir_const_i64(ad->ctx, i)};
    LLVMValueRef v = i < first ? primal : lane_of(b, ad->ctx, w, rt, tv, i - first);
    LLVMBuildStore(b, v, LLVMBuildGEP2(b, arr, at, idx, 2, ""));
  }
}

static int primal_return_void(LLVMValueRef call, const char *entry, LLVMValueRef fn) {
  diag_error_plain(call, "%s: '%s' returns nothing: enzyme_primal_return asks for its result and the tangent", entry,
                   LLVMGetValueName(fn));
  return 1;
}

/* enzyme_primal_return: the call's result (or its sret struct) holds fn's result, then its w tangents, as a
 * struct of 1 + w values of its type would; through memory, as C lays such a struct out. */
static int with_primal(AdModule *ad, LLVMBuilderRef b, const Request *r, LLVMValueRef nc, LLVMTypeRef rt, LLVMValueRef *result) {
  LLVMValueRef call = r->call;
  unsigned w = r->width;
  LLVMTypeRef ct = r->sret ? ir_call_arg_type_attr(call, 0, "sret") : LLVMTypeOf(call);
  if (!ct || LLVMGetTypeKind(ct) == LLVMVoidTypeKind || !holds_exactly(ad->mod, ct, rt, w + 1)) {
    diag_error_plain(call, "%s: with enzyme_primal_return, declare it as returning a struct of %u %s: the result, then "
                     "the tangent%s", r->entry, w + 1, ir_type_name(rt), w > 1 ? "s" : "");
    return 1;
  }
  LLVMValueRef slot = r->sret ? LLVMGetArgOperand(call, 0)
                              : ir_entry_alloca(LLVMGetBasicBlockParent(LLVMGetInstructionParent(call)), ct, "primal.tangents");
  store_in_order(ad, b, slot, rt, LLVMBuildExtractValue(b, nc, 0, "primal"), LLVMBuildExtractValue(b, nc, 1, "tangent"), w);
  if (!r->sret) *result = LLVMBuildLoad2(b, ct, slot, "");
  return 0;
}

int fwd_lower_request(AdModule *ad, const Request *r) {
  LLVMValueRef call = r->call, fn = r->fn;
  LLVMTypeRef rt = LLVMGetReturnType(LLVMGlobalGetValueType(fn)), ct = LLVMTypeOf(call);
  /* A void function has no tangent to return: as with Enzyme, a call declared returning a value anyway
     (double, from a declaration shared with other calls) gets zero. */
  bool no_tangent = LLVMGetTypeKind(rt) == LLVMVoidTypeKind;
  bool wants = (LLVMGetTypeKind(ct) != LLVMVoidTypeKind || r->sret) && !no_tangent;
  const char *entry = r->entry;
  if (wants && (!ir_carries_derivative(rt) || ir_is_ptr(rt))) {
    bool integer = LLVMGetTypeKind(rt) == LLVMIntegerTypeKind;
    diag_error_plain(call, "%s: '%s' returns %s %s, which has no tangent to return%s", entry,
                     LLVMGetValueName(fn), integer ? "an" : "a", ir_type_name(rt),
                     integer ? " (a struct of floats and integers comes back in integer registers too: return its "
                               "floats through a pointer parameter)" : "");
    return 1;
  }
  char *pattern = xstrdup(r->activity);
  for (char *p = pattern; *p; p++)
    if (*p == ACT_DUPNONEED) *p = ACT_DUP;
  bool error = !strncmp(entry, "__enzyme_error_estimate", 23) || !strncmp(entry, "__parad_error_estimate", 22);
  if (error && r->width > 1) {
    diag_error_plain(call, "%s: error estimation takes one direction, not a width", entry);
    free(pattern);
    return 1;
  }
  LLVMValueRef tf = error ? fwd_error_function(ad, fn, pattern, wants) : fwd_function(ad, fn, pattern, wants, r->width);
  free(pattern);
  if (!tf) return 1;

  LLVMBuilderRef b = LLVMCreateBuilderInContext(ad->ctx);
  LLVMPositionBuilderBefore(b, call);
  if (request_check_global_arguments(b, r)) {
    LLVMDisposeBuilder(b);
    return 1;
  }
  unsigned n = ir_num_call_args(call) - r->first_arg;
  LLVMValueRef *args = xcalloc(n + 1, sizeof *args);
  for (unsigned i = 0; i < n; i++) args[i] = LLVMGetArgOperand(call, r->first_arg + i);
  LLVMValueRef nc = LLVMBuildCall2(b, LLVMGlobalGetValueType(tf), tf, args, n, "");
  if (!checkpoint_is_runner(LLVMGetBasicBlockParent(LLVMGetInstructionParent(nc)))) vec_push(&ad->tangent_entries, nc);
  free(args);
  LLVMInstructionSetDebugLoc(nc, LLVMInstructionGetDebugLoc(call));
  unsigned byval = ir_attr_kind("byval");
  for (unsigned i = 0; i < n; i++) {
    LLVMAttributeRef a = LLVMGetEnumAttributeAtIndex(tf, i + 1, byval);
    if (a) LLVMAddCallSiteAttribute(nc, i + 1, a);
  }

  int errors = 0;
  LLVMValueRef result = NULL;
  if (r->primal_return) {
    errors = no_tangent ? primal_return_void(call, entry, fn) : with_primal(ad, b, r, nc, rt, &result);
  } else if (wants) {
    LLVMValueRef tv = LLVMBuildExtractValue(b, nc, 1, "tangent");
    unsigned w = r->width;
    LLVMTypeRef st = r->sret ? ir_call_arg_type_attr(call, 0, "sret") : NULL;
    if (r->sret && st && !holds_exactly(ad->mod, st, rt, w)) {
      errors = cannot_hold(call, entry, w, rt);
    } else if (r->sret) {
      store_in_order(ad, b, LLVMGetArgOperand(call, 0), rt, NULL, tv, w);
    } else if (w == 1 && ct == rt) {
      result = tv;
    } else if (w == 1 && ir_is_fp(ct) && ir_is_fp(rt)) {
      result = LLVMBuildFPCast(b, tv, ct, "");
    } else if (LLVMGetTypeKind(ct) != LLVMVoidTypeKind && holds_exactly(ad->mod, ct, rt, w)) {
      /* The C ABI may have turned the user's struct of N tangents into another type (<2 x float>, a
       * pair of vectors); going through memory reinterprets the N tangents exactly as C would. */
      LLVMValueRef slot = ir_entry_alloca(LLVMGetBasicBlockParent(LLVMGetInstructionParent(call)), ct, "tangents");
      store_in_order(ad, b, slot, rt, NULL, tv, w);
      result = LLVMBuildLoad2(b, ct, slot, "");
    } else {
      errors = cannot_hold(call, entry, w, rt);
    }
  }
  if (no_tangent && r->sret) LLVMBuildStore(b, LLVMConstNull(ir_call_arg_type_attr(call, 0, "sret")), LLVMGetArgOperand(call, 0));
  else if (no_tangent && LLVMGetTypeKind(ct) != LLVMVoidTypeKind) result = LLVMConstNull(ct);
  if (result) LLVMReplaceAllUsesWith(call, result);
  else if (LLVMGetTypeKind(ct) != LLVMVoidTypeKind) LLVMReplaceAllUsesWith(call, LLVMGetUndef(ct));
  LLVMInstructionEraseFromParent(call);
  LLVMDisposeBuilder(b);
  return errors;
}
