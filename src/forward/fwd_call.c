/* Calls in forward mode: math functions through the rule table, functions of the module through their
 * own tangent functions, memory functions through their shadows; anything else with an active argument
 * is refused. */
#include "forward/forward.h"
#include "forward/fwd_internal.h"

#include <stdlib.h>
#include <string.h>

#include "ad/constants.h"
#include "ad/custom.h"
#include "ad/global_shadows.h"
#include "ad/indirect.h"
#include "ad/library.h"
#include "ir/ir.h"

/* The sum of a vector's lanes, in any order (a tangent's, not the program's). */
static LLVMValueRef sum_lanes(FwdGen *g, LLVMValueRef v) {
  LLVMTypeRef vt = LLVMTypeOf(v);
  LLVMValueRef args[2] = {ir_const_fp(ir_scalar_type(vt), -0.0), v};
  LLVMValueRef sum = ir_call_intrinsic(g->b, "llvm.vector.reduce.fadd", &vt, 1, args, 2);
  LLVMSetFastMathFlags(sum, LLVMFastMathAllowReassoc | LLVMFastMathNoSignedZeros);
  return sum;
}

/* r = reduce(s, v): dr = dr/ds ds + sum_i dr/dv_i dv_i, direction by direction. */
static void reduction(FwdGen *g, LLVMValueRef call, const MathRule *rule, LLVMValueRef r) {
  unsigned n = ir_num_call_args(call);
  LLVMValueRef s = n == 2 ? LLVMGetArgOperand(call, 0) : NULL, v = LLVMGetArgOperand(call, n - 1), ps, pv;
  rule_reduce_partials(g->b, rule, s ? fwd_primal(g, s) : NULL, fwd_primal(g, v), r, &ps, &pv);
  LLVMTypeRef t = LLVMTypeOf(call), vt = LLVMTypeOf(v);
  LLVMValueRef ts = s ? tan_get(g, s) : NULL, tv = tan_get(g, v), lanes[MAX_WIDTH];
  for (unsigned w = 0; w < g->width; w++) {
    LLVMValueRef d = ir_const_fp(t, 0);
    if (tv) d = sum_lanes(g, LLVMBuildFMul(g->b, pv, tan_lane(g, vt, tv, w), ""));
    if (ts) d = LLVMBuildFAdd(g->b, d, LLVMBuildFMul(g->b, ps, tan_lane(g, t, ts, w), ""), "");
    lanes[w] = d;
  }
  tan_set(g, call, tan_pack(g, t, lanes));
}

/* What the call writes through its last argument has a zero tangent (rules.h, WrittenOutput), whether
 * or not its inputs are active: the memory may have held an active value before. */
static void reset_written_tangent(FwdGen *g, LLVMValueRef call, const MathRule *rule) {
  LLVMTypeRef t = rule_written_type(rule, call);
  LLVMValueRef p = LLVMGetArgOperand(call, rule->nargs - 1), lanes[MAX_WIDTH];
  if (!t || !activity_shadowed(g->act, p) || !fwd_shadow_lanes(g, p, call, "this call", lanes)) return;
  for (unsigned w = 0; w < g->width; w++) LLVMBuildStore(g->b, LLVMConstNull(t), lanes[w]);
}

/* ti carried through a choosing or unbounded rule's partial, direction by direction (rule_carry). */
static LLVMValueRef carried_tangent(FwdGen *g, LLVMTypeRef t, const MathRule *rule, LLVMValueRef partial, LLVMValueRef ti) {
  LLVMValueRef lanes[MAX_WIDTH];
  for (unsigned i = 0; i < g->width; i++) lanes[i] = rule_carry(g->b, rule, partial, tan_lane(g, t, ti, i), false);
  return tan_pack(g, t, lanes);
}

static void math(FwdGen *g, LLVMValueRef call, const MathRule *rule) {
  LLVMValueRef c = fwd_clone(g, call);
  reset_written_tangent(g, call, rule);
  if (!activity_varied(g->act, call)) return;
  if (g->error_mode) {
    LLVMValueRef args[3], ops[3], partials[3];
    if (rule->reduce || rule->nargs > 3 || !ir_is_fp_or_fp_vector(LLVMTypeOf(call))) {
      fwd_error(g, call, "floating-point error estimation cannot follow '%s' yet", ir_called_name(call));
      return;
    }
    unsigned n = 0; /* the floating-point arguments: an integer or an output pointer carries no error */
    for (unsigned i = 0; i < rule->nargs; i++) args[i] = fwd_primal(g, LLVMGetArgOperand(call, i));
    for (unsigned i = 0; i < rule->nargs; i++)
      if (rule_argument_active(rule, i)) {
        ops[n] = LLVMGetArgOperand(call, i);
        partials[n++] = rule_emit_partial(g->b, rule, i, args, c, call);
      }
    tan_set(g, call, fwd_error_of(g, c, n, ops, partials));
    return;
  }
  if (rule->reduce) {
    reduction(g, call, rule, c);
    return;
  }
  LLVMTypeRef t = LLVMTypeOf(call);
  LLVMValueRef args[3];
  for (unsigned i = 0; i < rule->nargs; i++) args[i] = fwd_primal(g, LLVMGetArgOperand(call, i));
  LLVMValueRef sum = NULL;
  for (unsigned i = 0; i < rule->nargs; i++) {
    LLVMValueRef ti = rule_argument_active(rule, i) ? tan_get(g, LLVMGetArgOperand(call, i)) : NULL;
    if (!ti) continue;
    LLVMValueRef partial = rule_emit_partial(g->b, rule, i, args, c, call);
    sum = tan_add(g, t, sum, rule->chooses || rule->unbounded ? carried_tangent(g, t, rule, partial, ti)
                                                               : tan_scale_steep(g, t, partial, ti, LLVMGetArgOperand(call, i)));
  }
  tan_set(g, call, sum);
}

/* Calls tf (of type tfty), the tangent function of what call calls: the call's arguments, each duplicated
 * one followed by its tangent lanes. A struct passed by value (byval) is copied at the call: the attribute
 * goes on the value and on its lanes, as the tangent function has it. */
static void call_tangent(FwdGen *g, LLVMValueRef call, LLVMValueRef tf, LLVMTypeRef tfty, const char *pattern,
                         bool ret_tangent) {
  unsigned n = ir_num_call_args(call), k = 0, byval = ir_attr_kind("byval");
  LLVMValueRef *args = xcalloc(n * (1 + g->width) + 1, sizeof *args);
  LLVMAttributeRef *by = xcalloc(n * (1 + g->width) + 1, sizeof *by);
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef a = LLVMGetArgOperand(call, i);
    LLVMAttributeRef attr = LLVMGetCallSiteEnumAttribute(call, i + 1, byval);
    by[k] = attr;
    args[k++] = fwd_primal(g, a);
    if (pattern[i] != 'd') continue;
    LLVMTypeRef t = LLVMTypeOf(a);
    if (ir_is_ptr(t)) {
      fwd_shadow_lanes(g, a, call, "this call", &args[k]);
    } else {
      LLVMValueRef tv = tan_get(g, a);
      for (unsigned w = 0; w < g->width; w++) args[k + w] = tv ? tan_lane(g, t, tv, w) : LLVMConstNull(t);
    }
    for (unsigned w = 0; w < g->width; w++) by[k + w] = attr;
    k += g->width;
  }
  LLVMValueRef nc = LLVMBuildCall2(g->b, tfty, tf, args, k, "");
  for (unsigned i = 0; i < k; i++)
    if (by[i]) LLVMAddCallSiteAttribute(nc, i + 1, by[i]);
  free(args);
  free(by);
  if (ret_tangent) {
    vmap_put(&g->vmap, call, LLVMBuildExtractValue(g->b, nc, 0, ""));
    tan_set(g, call, LLVMBuildExtractValue(g->b, nc, 1, ""));
  } else {
    vmap_put(&g->vmap, call, nc);
  }
}

/* The pattern of a call to a function of the module, or through a pointer: NULL (and the call copied as
 * it is) when nothing it takes or returns is active; refused when variadic. */
static char *active_pattern(FwdGen *g, LLVMValueRef call) {
  char *pattern = activity_call_pattern(g->act, call);
  bool active = strpbrk(pattern, "dr") || ad_call_reaches_active_global(call);
  if (active && !LLVMIsFunctionVarArg(LLVMGetCalledFunctionType(call))) return ad_mark_view_slots(g->act, call, pattern);
  if (ad_is_reverse_sweep(ir_called_function(call))) return pattern; /* its tape is active memory */
  /* a variadic call given floats by value only (a logging helper's: its pointers are constants) */
  bool inert = !strchr(pattern, 'r') && !ad_call_reaches_active_global(call) && call_variadic_takes_values_only(call);
  if (active && !inert) {
    LLVMValueRef callee = ir_called_function(call);
    fwd_error(g, call, "cannot differentiate a call to the variadic function %s%s%s with active arguments",
              callee ? "'" : "", callee ? LLVMGetValueName(callee) : "called through a pointer", callee ? "'" : "");
  }
  free(pattern);
  fwd_clone(g, call);
  return NULL;
}

static void module_call(FwdGen *g, LLVMValueRef call) {
  char *pattern = active_pattern(g, call);
  if (!pattern) return;
  bool ret_tangent = activity_active(g->act, call);
  LLVMValueRef fn = ir_called_function(call);
  LLVMValueRef tf = g->error_mode ? fwd_error_function(g->ad, fn, pattern, ret_tangent) : fwd_function(g->ad, fn, pattern, ret_tangent, g->width);
  if (tf) {
    call_tangent(g, call, tf, LLVMGlobalGetValueType(tf), pattern, ret_tangent);
  } else { /* the callee's errors are reported; this function cannot be right without it */
    g->errors++;
    fwd_clone(g, call);
  }
  free(pattern);
}

typedef struct {
  const char *pattern;
  bool ret_tangent;
  unsigned width;
} TangentKind;

static bool tangent_of(AdModule *ad, LLVMValueRef fn, void *ctx, LLVMValueRef out[2]) {
  const TangentKind *k = ctx;
  out[0] = fwd_function(ad, fn, k->pattern, k->ret_tangent, k->width);
  return out[0] != NULL;
}

/* Through a function pointer: the tangent function of whatever it points to, from the module's table. */
void fwd_indirect(FwdGen *g, LLVMValueRef call) {
  char *pattern = active_pattern(g, call);
  if (!pattern) return;
  TangentKind kind = {pattern, activity_active(g->act, call), g->width};
  char *key = xasprintf("fwd|%s|%u|%d", pattern, g->width, kind.ret_tangent);
  LLVMTypeRef fty = LLVMGetCalledFunctionType(call);
  LLVMValueRef k = indirect_register(g->ad, fty, key, tangent_of, &kind);
  LLVMValueRef tf = indirect_lookup(g->ad, g->b, fwd_primal(g, LLVMGetCalledValue(call)), k, 0);
  call_tangent(g, call, tf, fwd_function_type(fty, pattern, kind.ret_tangent, g->width), pattern, kind.ret_tangent);
  free(key);
  free(pattern);
}

/* A registered forward derivative df of the callee (ad/custom.h) replaces the call, once per direction.
 * Its parameters are the call's arguments, each float and pointer followed by its tangent or shadow (zero
 * or NULL where it has none), or every argument followed by one (an integer by itself: Enzyme's full
 * form), whichever df's count says; it returns the tangent, or {result, tangent}. */
static void custom_call(FwdGen *g, LLVMValueRef call, LLVMValueRef df) {
  LLVMValueRef fn = ir_called_function(call);
  if (!activity_any_active_argument(g->act, call, NULL) && !activity_active(g->act, call)) {
    fwd_clone(g, call); /* nothing to differentiate: f itself, as for any call */
    return;
  }
  unsigned n = ir_num_call_args(call), differentiable = 0;
  for (unsigned i = 0; i < n; i++) differentiable += ir_carries_derivative(LLVMTypeOf(LLVMGetArgOperand(call, i)));
  LLVMTypeRef dfty = LLVMGlobalGetValueType(df), rt = LLVMTypeOf(call), dt = LLVMGetReturnType(dfty);
  unsigned np = LLVMCountParams(df);
  bool every = np == 2 * n && np != n + differentiable;
  bool no_result = LLVMGetTypeKind(rt) == LLVMVoidTypeKind;
  bool pair = !no_result && LLVMGetTypeKind(dt) == LLVMStructTypeKind && LLVMCountStructElementTypes(dt) == 2 &&
              LLVMStructGetTypeAtIndex(dt, 0) == rt && LLVMStructGetTypeAtIndex(dt, 1) == rt;
  bool tangent_only = !no_result && dt == rt;
  if (g->error_mode) {
    fwd_error(g, call, "floating-point error estimation cannot follow the registered derivative of '%s'", LLVMGetValueName(fn));

  } else if (n && ir_call_arg_has_attr(call, 0, "sret")) {
    /* the rule's result would be a second struct in memory, beside the call's, with no convention yet */
    fwd_error(g, call, "cannot use the derivative '%s' registered for '%s': '%s' returns a struct through memory "
                       "(more than 16 bytes), which registered derivatives do not take yet; write the result through "
                       "a pointer parameter instead (the derivative then gets that pointer's shadow)",
              LLVMGetValueName(df), LLVMGetValueName(fn), LLVMGetValueName(fn));
  } else if ((np != n + differentiable && !every) || LLVMIsFunctionVarArg(dfty)) {
    fwd_error(g, call, "the derivative '%s' registered for '%s' takes %u parameters: it must take %u (each float and "
                       "pointer argument followed by its tangent or shadow) or %u (every argument followed by one)",
              LLVMGetValueName(df), LLVMGetValueName(fn), np, n + differentiable, 2 * n);
  } else if (no_result ? LLVMGetTypeKind(dt) != LLVMVoidTypeKind : !pair && !tangent_only) {
    fwd_error(g, call, "the derivative '%s' registered for '%s' must return %s", LLVMGetValueName(df),
              LLVMGetValueName(fn), no_result ? "void" : "the tangent of its result, or a struct {result, tangent}");
  } else {
    /* where df gives the tangent alone and f's result is used, f itself computes it */
    LLVMValueRef primal = tangent_only && LLVMGetFirstUse(call) ? fwd_clone(g, call) : NULL, lanes[MAX_WIDTH];
    LLVMValueRef *args = xcalloc(2 * n + 1, sizeof *args), *shadows = xcalloc((size_t)n * MAX_WIDTH + 1, sizeof *shadows);
    for (unsigned i = 0; i < n; i++) {
      LLVMValueRef a = LLVMGetArgOperand(call, i);
      if (!ir_is_ptr(LLVMTypeOf(a))) continue;
      if (activity_shadowed(g->act, a)) fwd_shadow_lanes(g, a, call, "this call", &shadows[i * MAX_WIDTH]);
      else for (unsigned w = 0; w < g->width; w++) shadows[i * MAX_WIDTH + w] = LLVMConstNull(LLVMTypeOf(a));
    }
    for (unsigned w = 0; w < g->width; w++) {
      unsigned k = 0;
      for (unsigned i = 0; i < n; i++) {
        LLVMValueRef a = LLVMGetArgOperand(call, i), tv;
        LLVMTypeRef t = LLVMTypeOf(a);
        args[k++] = fwd_primal(g, a);
        if (ir_is_ptr(t)) args[k++] = shadows[i * MAX_WIDTH + w];
        else if (ir_carries_derivative(t)) args[k++] = (tv = tan_get(g, a)) ? tan_lane(g, t, tv, w) : LLVMConstNull(t);
        else if (every) args[k] = args[k - 1], k++;
      }
      LLVMValueRef r = LLVMBuildCall2(g->b, dfty, w ? library_next_direction(df) : df, args, k, "");
      if (pair) {
        lanes[w] = LLVMBuildExtractValue(g->b, r, 1, "");
        if (w == 0) primal = LLVMBuildExtractValue(g->b, r, 0, "");
      } else if (tangent_only) {
        lanes[w] = r;
      }
    }
    free(args);
    free(shadows);
    if (primal) vmap_put(&g->vmap, call, primal);
    if (!no_result && activity_active(g->act, call)) tan_set(g, call, tan_pack(g, rt, lanes));
    return;
  }
  fwd_clone(g, call);
}

/* A library function that only relinks nodes (analysis/calls.h): the same call on the shadows, once per
 * direction, keeps each shadow structure in its primal's shape. */
static void mirrored_call(FwdGen *g, LLVMValueRef call) {
  fwd_clone(g, call);
  unsigned n = ir_num_call_args(call), mask = 0;
  bool any = false;
  call_mirrored(call, &mask);
  for (unsigned i = 0; i < n; i++) any |= (mask >> i & 1) && activity_shadowed(g->act, LLVMGetArgOperand(call, i));
  if (!any) return; /* a container without derivatives */
  LLVMValueRef *args = xcalloc((size_t)n * MAX_WIDTH + 1, sizeof *args), lanes[MAX_WIDTH];
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef a = LLVMGetArgOperand(call, i);
    if (!(mask >> i & 1)) {
      for (unsigned w = 0; w < g->width; w++) args[w * n + i] = fwd_primal(g, a);
      continue;
    }
    LLVMValueRef shadow[MAX_WIDTH];
    if (!fwd_shadow_lanes(g, a, call, "this call", shadow)) {
      free(args);
      return;
    }
    for (unsigned w = 0; w < g->width; w++) args[w * n + i] = shadow[w];
  }
  for (unsigned w = 0; w < g->width; w++)
    lanes[w] = LLVMBuildCall2(g->b, LLVMGetCalledFunctionType(call), ir_called_function(call), &args[w * n], n, "");
  free(args);
  if (ir_is_ptr(LLVMTypeOf(call)) && activity_shadowed(g->act, call)) tan_set(g, call, tan_pack(g, LLVMTypeOf(call), lanes));
}

void fwd_call(FwdGen *g, LLVMValueRef call) {
  const MathRule *rule;
  CallKind kind = call_classify(call, &rule);
  unsigned which;
  const char *why;
  LLVMValueRef df = kind == CALL_MODULE || kind == CALL_UNKNOWN ? custom_derivative(ir_called_function(call)) : NULL;
  if (df) {
    custom_call(g, call, df);
    return;
  }
  const Paradigm *paradigm = paradigm_of(kind);
  if (paradigm) {
    if (g->error_mode && activity_any_active_argument(g->act, call, NULL)) {
      fwd_error(g, call, "floating-point error estimation cannot follow %s yet", paradigm->construct);
      fwd_clone(g, call);
    } else {
      paradigm->tangent(g, call);
    }
    return;
  }
  switch (kind) {
  case CALL_DEBUG: return;
  case CALL_MATH: math(g, call, rule); return;
  case CALL_MEMCPY: fwd_memcpy(g, call); return;
  case CALL_MEMSET: fwd_memset(g, call); return;
  case CALL_ALLOC:
  case CALL_REALLOC:
  case CALL_FREE: fwd_heap(g, call, kind); return;
  case CALL_MODULE: module_call(g, call); return;
  case CALL_INACTIVE: fwd_clone(g, call); return;
  case CALL_MIRRORED: mirrored_call(g, call); return;
  case CALL_REQUEST:
    fwd_error(g, call, "cannot differentiate a derivative request (higher-order derivatives are not supported)");
    fwd_clone(g, call);
    return;
  case CALL_UNKNOWN:
    if (fwd_tape_call(g, call)) return; /* forward mode over a reverse-mode derivative */
    if (call_waits_for_thread(call)) {
      fwd_error(g, call, THREAD_WAIT_MESSAGE, ir_called_name(call), ir_called_name(call));
    } else if ((why = call_array_function(call, &which))) {
      if (activity_shadowed(g->act, LLVMGetArgOperand(call, which)))
        fwd_error(g, call, "cannot differentiate '%s' of an array with derivatives (argument #%u): %s",
                  ir_called_name(call), which + 1, why);
    } else if (activity_any_active_argument(g->act, call, &which)) {
      if ((why = call_intrinsic_refusal(call)))
        fwd_error(g, call, "cannot differentiate '%s' with an active argument (#%u): %s", ir_called_name(call), which + 1, why);
      else if (custom_has_split_derivative(ir_called_function(call)))
        fwd_error(g, call, "cannot differentiate a call to '%s' with an active argument (#%u): it has only a split "
                           "forward-mode derivative (__enzyme_register_splitderivative_...), which Parad does not use "
                           "(its split forward mode is forward mode run again); register a derivative "
                           "(__enzyme_register_derivative_%s) instead",
                  ir_called_name(call), which + 1, ir_called_name(call));
      else if (!strncmp(ir_called_name(call), "__parad_", 8)) /* in an inner derivative: a qsort's, trigamma */
        fwd_error(g, call, "forward mode cannot differentiate '%s', which a derivative computed here calls from Parad's "
                           "runtime, with an active argument (#%u): this derivative of a derivative is not supported yet",
                  ir_called_name(call), which + 1);
      else
        fwd_error(g, call, "cannot differentiate a call to '%s', " NOT_IN_PROGRAM ", with an active "
                           "argument (#%u) in forward mode: give it a body, or register a derivative "
                           "(__parad_register_derivative_%s" REGISTRATION_LINKED "), " INACTIVE_WAY_OUT,
                  ir_called_name(call), which + 1, ir_called_name(call), ir_called_name(call));
    }
    fwd_clone(g, call);
    return;
  default: return; /* a paradigm's: above */
  }
}
