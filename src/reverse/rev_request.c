/* A user's reverse-mode request, lowered.
 *   __parad_autodiff(f, args)            begin a tape; aug(args); rev(1.0); end the tape
 *   t = __parad_augmentfwd(f, args)      begin a tape; aug(args); suspend the tape; hand it over
 *   __parad_reverse(f, args, [dr,] t)    resume the tape; rev(dr); end the tape
 * Split mode's calls also tell the runtime that a gradient is open (runtime/split_globals.c), which decides
 * where the adjoints of globals are zeroed (ad/global_shadows.h).
 * The gradients of the active scalar arguments come back in the shape the user's declaration of the
 * entry point asks for: a double for one, a struct of them for several. */
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Target.h>
#include <stdlib.h>
#include <string.h>

#include "ad/apart.h"
#include "ad/checkpoint.h"
#include "ad/global_arguments.h"
#include "analysis/unwritten.h"
#include "ir/diag.h"
#include "ir/ir.h"
#include "reverse/reverse.h"
#include "reverse/rev_internal.h"

static LLVMValueRef rt_call(LLVMBuilderRef b, const char *name, LLVMTypeRef ret, LLVMValueRef *args, unsigned n) {
  LLVMTypeRef params[2];
  for (unsigned i = 0; i < n; i++) params[i] = LLVMTypeOf(args[i]);
  return ir_call_named(b, name, LLVMFunctionType(ret, params, n, 0), args, n);
}

/* Is type ct the C ABI's coercion of rt: the same bytes, give or take tail padding. */
static bool holds_exactly(LLVMModuleRef m, LLVMTypeRef ct, LLVMTypeRef rt) {
  unsigned long long want = ir_type_size(m, rt), have = ir_type_size(m, ct);
  unsigned align = LLVMABIAlignmentOfType(LLVMGetModuleDataLayout(m), ct);
  return have >= want && have - want < align;
}

/* The gradients laid out as C lays out a struct of the parameters' types (Request.out_layout):
 * a stack buffer of the layout's size, or of the call's result type ct where that is larger. NULL where the
 * layout does not describe them or ct cannot hold it. */
static LLVMValueRef in_c_layout(AdModule *ad, LLVMBuilderRef b, const Request *r, LLVMValueRef grads, LLVMTypeRef ct) {
  LLVMTypeRef gt = LLVMTypeOf(grads);
  bool several = LLVMGetTypeKind(gt) == LLVMStructTypeKind;
  if (!r->out_layout || LLVMGetTypeKind(gt) == LLVMVoidTypeKind) return NULL;
  unsigned n = several ? LLVMCountStructElementTypes(gt) : 1;
  unsigned long long *at = xcalloc(n + 2, sizeof *at);
  unsigned k = 0;
  const char *p = r->out_layout;
  while (k < n + 2 && *p) {
    char *end;
    at[k++] = strtoull(p, &end, 10);
    p = *end ? end + 1 : end;
  }
  unsigned long long size = at[n], align = at[n + 1], have = ir_type_size(ad->mod, ct);
  unsigned ct_align = LLVMABIAlignmentOfType(LLVMGetModuleDataLayout(ad->mod), ct); /* a coerced {<2 x float>, float} */
  if (ct_align > align) align = ct_align;
  LLVMValueRef buf = NULL;
  if (k == n + 2 && have >= size && have - size < align) {
    LLVMTypeRef i8 = LLVMInt8TypeInContext(ad->ctx), i64 = LLVMInt64TypeInContext(ad->ctx);
    LLVMValueRef caller = LLVMGetBasicBlockParent(LLVMGetInstructionParent(r->call));
    buf = ir_entry_alloca(caller, LLVMArrayType2(i8, have), "gradients");
    LLVMSetAlignment(buf, (unsigned)align);
    LLVMBuildMemSet(b, buf, LLVMConstInt(i8, 0, 0), LLVMConstInt(i64, have, 0), (unsigned)align);
    for (unsigned i = 0; i < n; i++) {
      LLVMValueRef off = LLVMConstInt(i64, at[i], 0);
      LLVMValueRef to = LLVMBuildGEP2(b, i8, buf, &off, 1, "");
      LLVMSetAlignment(LLVMBuildStore(b, several ? LLVMBuildExtractValue(b, grads, i, "") : grads, to), 1);
    }
  }
  free(at);
  return buf;
}

/* The gradients rev returned, as the call's result. NULL with an error when they do not fit. */
static bool deliver(AdModule *ad, LLVMBuilderRef b, const Request *r, LLVMValueRef grads, LLVMValueRef *result) {
  LLVMValueRef call = r->call;
  LLVMTypeRef ct = LLVMTypeOf(call);
  *result = NULL;
  LLVMTypeRef gt = LLVMTypeOf(grads);
  LLVMTypeRef held = r->sret ? ir_call_arg_type_attr(call, 0, "sret") : ct;
  LLVMValueRef laid = LLVMGetTypeKind(held) != LLVMVoidTypeKind ? in_c_layout(ad, b, r, grads, held) : NULL;
  if (laid && r->sret) {
    LLVMBuildMemCpy(b, LLVMGetArgOperand(call, 0), 1, laid, 1, LLVMConstInt(LLVMInt64TypeInContext(ad->ctx), ir_type_size(ad->mod, held), 0));
    return true;
  }
  if (laid) {
    *result = LLVMBuildLoad2(b, ct, laid, "");
    return true;
  }
  if (r->sret) { /* a struct returned in memory: the gradients are written there, if they fit exactly */
    ct = held;
    if (LLVMGetTypeKind(gt) != LLVMVoidTypeKind && holds_exactly(ad->mod, ct, gt)) {
      LLVMBuildStore(b, grads, LLVMGetArgOperand(call, 0));
      return true;
    }
  } else if (LLVMGetTypeKind(ct) == LLVMVoidTypeKind || !LLVMGetFirstUse(call)) {
    return true; /* the caller wants no gradient values, or does not use them */
  }
  if (LLVMGetTypeKind(gt) == LLVMVoidTypeKind) {
    /* no active scalar argument, nothing to return: as with Enzyme, a call declared returning a value
       (double, most often, from a declaration shared with other calls) gets zero */
    if (r->sret) LLVMBuildStore(b, LLVMConstNull(ct), LLVMGetArgOperand(call, 0));
    else *result = LLVMConstNull(ct);
    return true;
  }
  if (!r->sret) {
    if (gt == ct) {
      *result = grads;
    } else if (ir_is_fp(gt) && ir_is_fp(ct)) {
      *result = LLVMBuildFPCast(b, grads, ct, "");
    } else if (holds_exactly(ad->mod, ct, gt)) {
      LLVMValueRef slot = ir_entry_alloca(LLVMGetBasicBlockParent(LLVMGetInstructionParent(call)), ct, "gradients");
      LLVMBuildStore(b, grads, slot);
      *result = LLVMBuildLoad2(b, ct, slot, "");
    }
  }
  if (!*result) { /* the struct's fields named by type: a float function's two gradients asked for as two
                       doubles had been told only to have one field per argument, which they had */
    char *want = LLVMGetTypeKind(gt) == LLVMStructTypeKind ? NULL : xstrdup(ir_type_name(gt));
    for (unsigned i = 0, n = want ? 0 : LLVMCountStructElementTypes(gt); i < n; i++) {
      char *more = xasprintf("%s%s%s", want ? want : "", i ? ", " : "", ir_type_name(LLVMStructGetTypeAtIndex(gt, i)));
      free(want);
      want = more;
    }
    diag_error_plain(call, "%s: the call's result type cannot hold the gradients of the active scalar "
                           "arguments of '%s': declare it as returning %s%s%s",
                     r->entry, LLVMGetValueName(r->fn),
                     LLVMGetTypeKind(gt) == LLVMStructTypeKind ? "a struct of one field per active scalar argument "
                                                                 "(parad_out, or passed by value), in order: {" : "",
                     want, LLVMGetTypeKind(gt) == LLVMStructTypeKind ? "}" : "");
    free(want);
    return false;
  }
  return true;
}

/* A struct of the tape and f's result (of type rt), in either order (Parad's {void *tape; result}, or
 * {result; void *tape} as some Enzyme programs declare it): where each goes. */
static bool tape_and_result(LLVMTypeRef ct, LLVMTypeRef rt, unsigned *tape_at, unsigned *primal_at) {
  if (LLVMGetTypeKind(ct) != LLVMStructTypeKind || LLVMCountStructElementTypes(ct) != 2 || ir_is_ptr(rt)) return false;
  LLVMTypeRef t0 = LLVMStructGetTypeAtIndex(ct, 0), t1 = LLVMStructGetTypeAtIndex(ct, 1);
  if (ir_is_ptr(t0) && t1 == rt) return *tape_at = 0, *primal_at = 1, true;
  if (t0 == rt && ir_is_ptr(t1)) return *tape_at = 1, *primal_at = 0, true;
  return false;
}

/* The same returned in memory (a struct {void *tape; R} too large for registers, R a struct of two
 * doubles): the tape and the result stored into its fields, f's result at the layout of R. */
static bool store_tape_and_result(AdModule *ad, LLVMBuilderRef b, LLVMValueRef call, LLVMTypeRef rt, LLVMValueRef tape,
                                  LLVMValueRef primal) {
  LLVMTypeRef st = ir_call_arg_type_attr(call, 0, "sret");
  if (!st || LLVMGetTypeKind(st) != LLVMStructTypeKind || LLVMCountStructElementTypes(st) != 2 ||
      LLVMGetTypeKind(rt) == LLVMVoidTypeKind || ir_is_ptr(rt))
    return false;
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(ad->mod);
  for (unsigned at = 0; at < 2; at++) {
    LLVMTypeRef tt = LLVMStructGetTypeAtIndex(st, at), pt = LLVMStructGetTypeAtIndex(st, 1 - at);
    if (!ir_is_ptr(tt) || LLVMABISizeOfType(td, pt) != LLVMABISizeOfType(td, rt)) continue;
    LLVMValueRef out = LLVMGetArgOperand(call, 0);
    LLVMBuildStore(b, tape, LLVMBuildStructGEP2(b, st, out, at, ""));
    LLVMBuildStore(b, primal, LLVMBuildStructGEP2(b, st, out, 1 - at, ""));
    return true;
  }
  return false;
}

/* Split mode's shadows of the pointer arguments, to the runtime (`fn`): the augmented forward call's kept with
 * its tape, the reverse call's compared with them. The reverse sweep adds into the shadows the augmented
 * forward call was given (its frame holds them), where Enzyme's reverse call takes its own: a reverse call
 * given others stops the program, saying so, instead of leaving their adjoints elsewhere. */
static void split_shadows(AdModule *ad, LLVMBuilderRef b, const Request *r, LLVMValueRef tape, const char *fn) {
  ValueList shadows = {0};
  for (unsigned p = 0, np = LLVMCountParams(r->fn); p < np; p++)
    if ((r->activity[p] == ACT_DUP || r->activity[p] == ACT_DUPNONEED) && ir_is_ptr(LLVMTypeOf(LLVMGetParam(r->fn, p))))
      vec_push(&shadows, LLVMGetArgOperand(r->call, request_arg_index(r, p) + 1));
  if (!shadows.len) return;
  LLVMTypeRef ptr = LLVMPointerTypeInContext(ad->ctx, 0), i32 = LLVMInt32TypeInContext(ad->ctx);
  LLVMValueRef caller = LLVMGetBasicBlockParent(LLVMGetInstructionParent(r->call));
  LLVMBuilderRef entry = LLVMCreateBuilderInContext(ad->ctx); /* once per call, not per run of a loop around it */
  LLVMPositionBuilderBefore(entry, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(caller)));
  LLVMTypeRef at = LLVMArrayType2(ptr, shadows.len);
  LLVMValueRef list = LLVMBuildAlloca(entry, at, "split.shadows");
  LLVMDisposeBuilder(entry);
  for (size_t i = 0; i < shadows.len; i++) LLVMBuildStore(b, shadows.data[i], LLVMBuildStructGEP2(b, at, list, (unsigned)i, ""));
  LLVMValueRef args[4] = {tape, LLVMConstInt(i32, shadows.len, 0), list, NULL};
  LLVMTypeRef params[4] = {ptr, i32, ptr, ptr};
  unsigned n = 3;
  if (r->mode == MODE_REVERSE_SPLIT) {
    char *place = diag_place(r->call);
    char *text = xasprintf("%s: %s of '%s' was given other shadows than the augmented forward call whose tape it "
                           "reverses; its reverse sweep adds into that call's shadows: give both calls the same ones",
                           place, r->entry, diag_program_name(r->fn));
    args[n++] = LLVMBuildGlobalStringPtr(b, text, "parad.message");
    free(place), free(text);
  }
  ir_call_named(b, fn, LLVMFunctionType(LLVMVoidTypeInContext(ad->ctx), params, n, 0), args, n);
  vec_free(&shadows);
}

int rev_lower_request(AdModule *ad, const Request *r) {
  LLVMValueRef call = r->call, fn = r->fn;
  LLVMTypeRef ptr = LLVMPointerTypeInContext(ad->ctx, 0);
  LLVMTypeRef rt = LLVMGetReturnType(LLVMGlobalGetValueType(fn));
  bool ret_active = adj_type(rt) && !ir_is_ptr(rt);
  if (ret_active && r->mode == MODE_REVERSE && !ir_is_fp_or_fp_vector(rt)) {
    diag_error_plain(r->call, "%s: '%s' returns a %s, which has no single seed: use split mode "
                              "(__parad_augmentfwd, then __parad_reverse with the adjoint of the result)",
                     r->entry, LLVMGetValueName(fn), ir_type_name(rt));
    return 1;
  }
  char *pattern = xstrdup(r->activity);
  RevPair pair;
  LLVMValueRef caller = LLVMGetBasicBlockParent(LLVMGetInstructionParent(call));
  PairKind kind = {.ret_active = ret_active, .top_level = r->mode == MODE_REVERSE && !vmap_has(&ad->under_forward, caller)};
  if (kind.top_level) kind.unwritten = unwritten_params(fn), apart_read_through(fn, &kind.unwritten_slots, &kind.unwritten_held);
  kind.parallel = checkpoint_runner_in_team(caller);
  bool ok = rev_pair(ad, fn, pattern, kind, &pair);
  free(pattern);
  if (!ok) return 1;

  LLVMBuilderRef b = LLVMCreateBuilderInContext(ad->ctx);
  LLVMPositionBuilderBefore(b, call);
  LLVMSetCurrentDebugLocation2(b, LLVMInstructionGetDebugLoc(call));
  unsigned nparams = LLVMCountParams(fn), end = request_arg_index(r, nparams);
  LLVMValueRef result = NULL;
  int errors = 0;
  /* a checkpointed loop's runner requests are steps of a derivative, not derivatives of their own: the
     globals' shadows are the derivative's, neither zeroed nor counted as split mode's */
  bool runner = checkpoint_is_runner(LLVMGetBasicBlockParent(LLVMGetInstructionParent(call)));
  if ((r->mode == MODE_REVERSE || r->mode == MODE_AUGMENT) && request_check_global_arguments(b, r)) {
    LLVMDisposeBuilder(b);
    return 1;
  }
  if (r->mode == MODE_REVERSE || r->mode == MODE_AUGMENT) {
    unsigned n = end - r->first_arg;
    LLVMValueRef *args = xcalloc(n + 1, sizeof *args);
    for (unsigned i = 0; i < n; i++) args[i] = LLVMGetArgOperand(call, r->first_arg + i);
    LLVMValueRef tape = rt_call(b, "__parad_rt_tape_begin", ptr, NULL, 0);
    if (!runner) vec_push(&ad->adjoint_starts, tape);
    if (!runner && r->mode == MODE_AUGMENT) vec_push(&ad->split_starts, tape);
    LLVMValueRef primal = LLVMBuildCall2(b, LLVMGlobalGetValueType(pair.aug), pair.aug, args, n, "");
    free(args);
    if (r->mode == MODE_REVERSE) {
      rt_call(b, "__parad_rt_tape_mark_peak", LLVMVoidTypeInContext(ad->ctx), &tape, 1);
      LLVMValueRef seed = ret_active ? ir_const_fp(adj_type(rt), 1.0) : NULL;
      LLVMValueRef grads = LLVMBuildCall2(b, LLVMGlobalGetValueType(pair.rev), pair.rev, &seed, seed ? 1 : 0, "");
      if (!runner) vec_push(&ad->adjoint_entries, grads);
      rt_call(b, "__parad_rt_tape_end", LLVMVoidTypeInContext(ad->ctx), &tape, 1);
      errors += !deliver(ad, b, r, grads, &result);
    } else {
      rt_call(b, "__parad_rt_tape_suspend", LLVMVoidTypeInContext(ad->ctx), &tape, 1);
      if (!runner) rt_call(b, "__parad_rt_split_augmented", LLVMVoidTypeInContext(ad->ctx), &tape, 1);
      if (!runner) split_shadows(ad, b, r, tape, "__parad_rt_split_shadows");
      LLVMTypeRef ct = LLVMTypeOf(call);
      unsigned tape_at, primal_at;
      if (r->tape_indirect) LLVMBuildStore(b, tape, LLVMGetArgOperand(call, end));
      if (r->tape_indirect && ct == rt && LLVMGetTypeKind(rt) != LLVMVoidTypeKind) {
        result = primal; /* the tape is in the user's buffer: the call may return f's result */
      } else if (r->tape_indirect) { /* or be declared as returning anything: zero, as autodiff's */
        if (r->sret) LLVMBuildStore(b, LLVMConstNull(ir_call_arg_type_attr(call, 0, "sret")), LLVMGetArgOperand(call, 0));
        else if (LLVMGetTypeKind(ct) != LLVMVoidTypeKind) result = LLVMConstNull(ct);
      } else if (ir_is_ptr(ct)) {
        result = tape;
      } else if (tape_and_result(ct, rt, &tape_at, &primal_at)) {
        result = LLVMBuildInsertValue(b, LLVMBuildInsertValue(b, LLVMGetUndef(ct), tape, tape_at, ""), primal, primal_at, "");
      } else if (!r->sret || !store_tape_and_result(ad, b, call, rt, tape, primal)) {
        diag_error_plain(call, "%s: declare it as returning the tape (void *), or a struct {void *tape; the "
                               "result of '%s'}", r->entry, LLVMGetValueName(fn));
        errors++;
      }
    }
  } else { /* MODE_REVERSE_SPLIT: [dr] then the tape after the arguments */
    unsigned k = end;
    LLVMValueRef dret = NULL;
    if (ret_active) dret = LLVMGetArgOperand(call, k++);
    LLVMValueRef tape = LLVMGetArgOperand(call, k);
    if (r->tape_indirect) tape = LLVMBuildLoad2(b, ptr, tape, "tape");
    if (!runner) split_shadows(ad, b, r, tape, "__parad_rt_split_same_shadows");
    rt_call(b, "__parad_rt_tape_resume", LLVMVoidTypeInContext(ad->ctx), &tape, 1);
    LLVMValueRef grads = LLVMBuildCall2(b, LLVMGlobalGetValueType(pair.rev), pair.rev, &dret, dret ? 1 : 0, "");
    if (!runner) vec_push(&ad->split_reverses, grads);
    if (!runner) rt_call(b, "__parad_rt_split_reversed", LLVMVoidTypeInContext(ad->ctx), &tape, 1);
    rt_call(b, "__parad_rt_tape_end", LLVMVoidTypeInContext(ad->ctx), &tape, 1);
    errors += !deliver(ad, b, r, grads, &result);
  }
  if (!errors) {
    LLVMTypeRef ct = LLVMTypeOf(call);
    if (result)
      LLVMReplaceAllUsesWith(call, result);
    else if (LLVMGetTypeKind(ct) != LLVMVoidTypeKind)
      LLVMReplaceAllUsesWith(call, LLVMGetUndef(ct));
    LLVMInstructionEraseFromParent(call);
  }
  LLVMDisposeBuilder(b);
  return errors;
}
