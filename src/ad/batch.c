/* Enzyme's batch mode: __enzyme_batch(f, enzyme_width, W, args...) runs f on W lanes at once and returns
 * the W results (an array or a struct of them). An argument takes W values, one per lane (the default, or
 * after enzyme_vector), or one value for all lanes (after enzyme_scalar). Enzyme vectorises f; Parad
 * calls it once per lane, which computes the same and leaves the vectorising to the optimiser. Not
 * followed: enzyme_buffer (lanes at offsets in one buffer), refused by name. */
#include <stdlib.h>
#include <string.h>

#include "ad/request.h"
#include "ir/diag.h"
#include "ir/ir.h"

static bool is_batch_entry(LLVMValueRef fn) {
  if (!fn || !LLVMIsDeclaration(fn)) return false;
  const char *name = LLVMGetValueName(fn);
  return !strncmp(name, "__enzyme_batch", 14) || !strncmp(name, "__parad_batch", 13);
}

static const char *marker_name(LLVMValueRef arg) {
  LLVMValueRef g = ir_loaded_global(ir_stored_once(arg));
  const char *n = g ? LLVMGetValueName(g) : "";
  return !strncmp(n, "enzyme_", 7) || !strncmp(n, "parad_", 6) ? n : NULL;
}

static bool marker_is(const char *m, const char *base) {
  return m && !strcmp(strchr(m, '_') + 1, base);
}

/* The lanes' results: element l of an array or struct of W elements of type t. */
static bool lanes_type(LLVMTypeRef agg, unsigned w, LLVMTypeRef t) {
  LLVMTypeKind k = LLVMGetTypeKind(agg);
  if (k == LLVMArrayTypeKind) return LLVMGetArrayLength2(agg) == w && LLVMGetElementType(agg) == t;
  if (k != LLVMStructTypeKind || LLVMCountStructElementTypes(agg) != w) return false;
  for (unsigned l = 0; l < w; l++)
    if (LLVMStructGetTypeAtIndex(agg, l) != t) return false;
  return true;
}

static int lower(LLVMValueRef call) {
  unsigned n = ir_num_call_args(call), k = 0;
  const char *entry = LLVMGetValueName(ir_called_function(call));
  LLVMValueRef out = NULL; /* the result's memory, for a struct returned through the first argument */
  if (n > 0 && ir_call_arg_has_attr(call, 0, "sret")) out = LLVMGetArgOperand(call, k++);
  LLVMValueRef fn = k < n ? ir_strip_pointer_casts(LLVMGetArgOperand(call, k++)) : NULL;
  if (!fn || !LLVMIsAFunction(fn) || LLVMIsDeclaration(fn)) {
    diag_error_plain(call, "%s: the first argument must be a function defined in this file", entry);
    return 1;
  }
  unsigned w = 0;
  if (k + 1 < n && marker_is(marker_name(LLVMGetArgOperand(call, k)), "width") &&
      LLVMIsAConstantInt(LLVMGetArgOperand(call, k + 1)))
    w = (unsigned)LLVMConstIntGetZExtValue(LLVMGetArgOperand(call, k + 1)), k += 2;
  if (w < 1 || w > 64) {
    diag_error_plain(call, "%s: give the number of lanes first (enzyme_width, then a constant from 1 to 64)", entry);
    return 1;
  }
  LLVMTypeRef fty = LLVMGlobalGetValueType(fn), rt = LLVMGetReturnType(fty);
  unsigned np = LLVMCountParams(fn);
  LLVMValueRef *lane_args = xcalloc((size_t)w * (np + 1), sizeof *lane_args);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetTypeContext(rt));
  LLVMPositionBuilderBefore(b, call);
  int errors = 0;
  for (unsigned i = 0; i < np && !errors; i++) {
    LLVMTypeRef pt = LLVMTypeOf(LLVMGetParam(fn, i));
    bool scalar = w == 1;
    const char *m = k < n ? marker_name(LLVMGetArgOperand(call, k)) : NULL;
    if (marker_is(m, "scalar") || marker_is(m, "vector")) scalar = marker_is(m, "scalar"), k++;
    else if (m && !marker_is(m, "width")) {
      diag_error_plain(call, "%s: the marker '%s' is not supported in batch mode (enzyme_scalar or enzyme_vector)", entry, m);
      errors++;
      break;
    }
    for (unsigned l = 0; l < (scalar ? 1 : w); l++) {
      LLVMValueRef v = k < n ? request_convert_argument(b, LLVMGetArgOperand(call, k++), pt) : NULL;
      if (!v) {
        diag_error_plain(call, "%s: parameter #%u of '%s' needs %u value%s of its type", entry, i + 1, LLVMGetValueName(fn),
                         scalar ? 1 : w, scalar ? "" : "s, one per lane");
        errors++;
        break;
      }
      for (unsigned lane = l; lane < w; lane += scalar ? 1 : w) lane_args[(size_t)lane * np + i] = v;
    }
  }
  LLVMModuleRef mod = LLVMGetGlobalParent(fn);
  LLVMTypeRef ct = out ? ir_call_arg_type_attr(call, 0, "sret") : LLVMTypeOf(call);
  bool void_result = LLVMGetTypeKind(rt) == LLVMVoidTypeKind;
  if (!errors && k < n) {
    diag_error_plain(call, "%s: too many arguments for '%s' at %u lanes", entry, LLVMGetValueName(fn), w);
    errors++;
  } else if (!errors && !void_result && !lanes_type(ct, w, rt) &&
             (ir_type_size(mod, ct) < (unsigned long long)w * ir_type_size(mod, rt) ||
              ir_type_size(mod, ct) >= (unsigned long long)w * ir_type_size(mod, rt) + 8)) {
    diag_error_plain(call, "%s: declare it as returning %u results of '%s' (an array or a struct of %u %s)", entry, w,
                     LLVMGetValueName(fn), w, ir_type_name(rt));
    errors++;
  }
  if (!errors) {
    /* the lanes' results as an array, then as the declared type (clang returns a struct of three floats
       as {<2 x float>, float}: the same bytes, and tail padding) */
    LLVMTypeRef lanes = LLVMArrayType2(rt, w);
    LLVMValueRef result = LLVMGetUndef(void_result ? ct : lanes);
    for (unsigned l = 0; l < w; l++) {
      LLVMValueRef r = LLVMBuildCall2(b, fty, fn, lane_args + (size_t)l * np, np, "");
      if (!void_result) result = LLVMBuildInsertValue(b, result, r, l, "");
    }
    if (!void_result && ct != lanes && !lanes_type(ct, w, rt)) {
      LLVMValueRef slot = ir_entry_alloca(LLVMGetBasicBlockParent(LLVMGetInstructionParent(call)), ct, "batch");
      LLVMBuildStore(b, result, slot);
      result = LLVMBuildLoad2(b, ct, slot, "");
    } else if (!void_result && ct != lanes) {
      LLVMValueRef s = LLVMGetUndef(ct);
      for (unsigned l = 0; l < w; l++) s = LLVMBuildInsertValue(b, s, LLVMBuildExtractValue(b, result, l, ""), l, "");
      result = s;
    }
    if (out && !void_result) LLVMBuildStore(b, result, out);
    if (LLVMGetTypeKind(LLVMTypeOf(call)) != LLVMVoidTypeKind)
      LLVMReplaceAllUsesWith(call, void_result || out ? LLVMConstNull(LLVMTypeOf(call)) : result);
  } else if (LLVMGetTypeKind(LLVMTypeOf(call)) != LLVMVoidTypeKind) {
    LLVMReplaceAllUsesWith(call, LLVMGetUndef(LLVMTypeOf(call)));
  }
  LLVMInstructionEraseFromParent(call); /* refused: said once, not again as an unknown entry point */
  free(lane_args);
  LLVMDisposeBuilder(b);
  return errors;
}

int batch_lower_all(LLVMModuleRef m) {
  int errors = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (!is_batch_entry(f)) continue;
    ValueList calls = {0};
    for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u))
      if (ir_is_call(LLVMGetUser(u)) && ir_called_function(LLVMGetUser(u)) == f) vec_push(&calls, LLVMGetUser(u));
    for (size_t i = 0; i < calls.len; i++) errors += lower(calls.data[i]);
    vec_free(&calls);
  }
  return errors;
}
