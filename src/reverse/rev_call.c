/* Calls in reverse mode: math functions through the rule table, functions of the module through their
 * own pairs (aug in the forward sweep, rev in the reverse sweep), functions with a registered gradient
 * through it, memory functions through their shadows; anything else with an active argument is refused. */
#include <stdlib.h>
#include <string.h>

#include "ad/checkpoint.h"
#include "ad/custom.h"
#include "ad/global_shadows.h"
#include "ad/indirect.h"
#include "ad/library.h"
#include "analysis/nonfinite.h"
#include "omp/omp.h"
#include "reverse/rev_internal.h"
#include "reverse/reverse.h"

static bool varied(RevGen *g, LLVMValueRef v) { return activity_varied(g->act, v); }
/* A floating-point value passed by value: a float, a vector or an aggregate of them. */
static bool is_float_value(LLVMTypeRef t) { return !ir_is_ptr(t) && ir_contains_fp(t); }
static bool shadowed(RevGen *g, LLVMValueRef v) { return activity_shadowed(g->act, v); }

/* ---- math ---- */

/* r = reduce(s, v): ds += dr/ds d, dv += dr/dv d (every lane). */
static void rev_reduction(RevGen *g, LLVMValueRef call, const MathRule *rule, LLVMValueRef d) {
  unsigned n = ir_num_call_args(call);
  LLVMValueRef s = n == 2 ? LLVMGetArgOperand(call, 0) : NULL, v = LLVMGetArgOperand(call, n - 1), ps, pv;
  LLVMValueRef rs_ = s && rule_reduce_uses(rule, 's') ? rv(g, s) : NULL;
  LLVMValueRef rv_ = rule_reduce_uses(rule, 'v') ? rv(g, v) : NULL;
  LLVMValueRef rr = rule_reduce_uses(rule, 'r') ? rv(g, call) : NULL;
  LLVMTypeRef vt = LLVMTypeOf(v);
  /* the partials take the vector's type from whichever value they have */
  if (!rv_ && !rr) rv_ = LLVMGetUndef(vt);
  rule_reduce_partials(g->b, rule, rs_, rv_, rr, &ps, &pv);
  if (s && ps) adj_add(g, s, LLVMBuildFMul(g->b, ps, d, ""));
  LLVMValueRef splat = LLVMGetUndef(vt);
  for (unsigned i = 0, k = LLVMGetVectorSize(vt); i < k; i++)
    splat = LLVMBuildInsertElement(g->b, splat, d, ir_const_i32(g->ctx, i), "");
  adj_add(g, v, LLVMBuildFMul(g->b, pv, splat, ""));
}

/* What the call wrote through its last argument has no derivative (rules.h, WrittenOutput): the adjoint
 * gathered in its shadow since is discarded, as a store's would go to the value stored. */
static void discard_written_adjoint(RevGen *g, LLVMValueRef call, const MathRule *rule) {
  LLVMTypeRef t = rule_written_type(rule, call);
  LLVMValueRef p = LLVMGetArgOperand(call, rule->nargs - 1);
  if (t && shadowed(g, p)) LLVMBuildStore(g->b, LLVMConstNull(t), rs(g, p));
}

static void rev_math(RevGen *g, LLVMValueRef call, const MathRule *rule) {
  discard_written_adjoint(g, call, rule);
  if (!varied(g, call) || !adj_type(LLVMTypeOf(call))) return;
  LLVMValueRef d = adj_take(g, call);
  if (rule->reduce) {
    rev_reduction(g, call, rule, d);
    return;
  }
  LLVMValueRef args[3], result = LLVMGetUndef(LLVMTypeOf(call));
  bool wants_result = false;
  for (unsigned i = 0; i < rule->nargs; i++) {
    LLVMValueRef a = LLVMGetArgOperand(call, i);
    bool used = false;
    for (unsigned p = 0; p < rule->nargs; p++)
      if (varied(g, LLVMGetArgOperand(call, p)) && rule_partial_uses(rule, p, (int)i)) used = true;
    args[i] = used ? rv(g, a) : LLVMGetUndef(LLVMTypeOf(a));
  }
  for (unsigned p = 0; p < rule->nargs; p++)
    if (varied(g, LLVMGetArgOperand(call, p)) && rule_partial_uses(rule, p, 'r')) wants_result = true;
  if (wants_result) result = rv(g, call);
  /* an argument that may be infinite (a division's, the side of a choice not taken) may make a partial so */
  bool strong_zero = false;
  for (unsigned i = 0; i < rule->nargs; i++) strong_zero |= ir_is_fp_or_fp_vector(LLVMTypeOf(args[i])) && nonfinite_possible(LLVMGetArgOperand(call, i));
  /* d itself may be infinite (the result flows into sqrt at 0): a partial of exactly zero carries zero */
  bool steep = !rule->chooses && nonfinite_adjoint_possible(call);
  for (unsigned i = 0; i < rule->nargs; i++) {
    LLVMValueRef a = LLVMGetArgOperand(call, i);
    if (!varied(g, a)) continue;
    LLVMValueRef partial = rule_emit_partial(g->b, rule, i, args, result, call);
    LLVMValueRef carried = partial ? rule_carry(g->b, rule, partial, d, strong_zero) : NULL;
    if (carried) adj_add(g, a, steep ? rule_zero_where_zero(g->b, partial, carried) : carried);
  }
}

/* ---- functions of the module ---- */

/* The pattern a call passes: pointers with shadows, active scalars, constants. */
static char *call_pattern(RevGen *g, LLVMValueRef call) {
  unsigned n = ir_num_call_args(call);
  char *p = xcalloc(n + 2, 1);
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef a = LLVMGetArgOperand(call, i);
    LLVMTypeRef t = LLVMTypeOf(a);
    p[i] = ir_is_ptr(t) ? (shadowed(g, a) || activity_null_with_shadow(g->act, call, i) ? 'd' : 'c')
                        : (varied(g, a) && is_float_value(t) ? 'o' : 'c');
  }
  if (activity_wants_returned_shadow(g->act, call)) p[n] = 'r';
  return ad_mark_view_slots(g->act, call, p);
}

static bool call_is_active(RevGen *g, LLVMValueRef call, const char *pattern) {
  return strpbrk(pattern, "do") || varied(g, call) || shadowed(g, call) || ad_call_reaches_active_global(call);
}

static PairKind kind_of_call(RevGen *g, LLVMValueRef call) {
  bool ret_active = varied(g, call) && adj_type(LLVMTypeOf(call)) != NULL;
  /* in a parallel region, a callee whose active pointers are all the thread's own (its stack, its heap
     blocks) adds its adjoints plainly: active memory is reached through pointer arguments, or through
     globals with shadows, which all threads share */
  bool shares = g->parallel && ad_call_reaches_active_global(call);
  unsigned long long own = 0; /* where it shares: the pointers into the thread's own memory, added plainly */
  for (unsigned i = 0, n = ir_num_call_args(call); i < n && g->parallel; i++) {
    LLVMValueRef a = LLVMGetArgOperand(call, i);
    if (!ir_is_ptr(LLVMTypeOf(a)) || !shadowed(g, a)) continue;
    if (rev_thread_own(g->ad, a) || rev_own_param(g, a)) own |= i < 64 ? 1ull << i : 0;
    else shares = true;
  }
  PairKind kind = {.ret_active = ret_active, .ret_shadow = shadowed(g, call), .parallel = shares, .own = shares ? own : 0,
                   .one_thread = (g->parallel || g->region_body) && (g->one_thread || omp_in_one_thread_block(call)),
                   .redirected = shared_redirected(g, call)};
  rev_unwritten_args(g, call, ir_called_function(call), 0, 0, &kind);
  return kind;
}

/* A variadic call given floats by value only (a logging helper's): copied as it is. */
static bool inert_variadic(RevGen *g, LLVMValueRef call, const char *pattern) {
  return !strchr(pattern, 'd') && !ad_call_reaches_active_global(call) && !shadowed(g, call) &&
         call_variadic_takes_values_only(call);
}

/* The pattern of an active call to a function of the module or through a pointer; NULL (the call copied
 * as it is, in aug) when nothing it takes or returns is active, and refused when variadic. */
static char *active_pattern(RevGen *g, LLVMValueRef call) {
  char *pattern = call_pattern(g, call);
  if (call_is_active(g, call, pattern) && !LLVMIsFunctionVarArg(LLVMGetCalledFunctionType(call))) return pattern;
  if (call_is_active(g, call, pattern) && !inert_variadic(g, call, pattern)) {
    LLVMValueRef callee = ir_called_function(call);
    rev_error(g, call, "cannot differentiate a call to the variadic function %s%s%s with active arguments",
              callee ? "'" : "", callee ? LLVMGetValueName(callee) : "called through a pointer", callee ? "'" : "");
  }
  free(pattern);
  return NULL;
}

/* Calls aug (of type fty) in place of the call: each duplicated argument followed by its shadow. */
static void call_aug(RevGen *g, LLVMValueRef call, LLVMValueRef aug, LLVMTypeRef fty, const char *pattern, bool ret_shadow) {
  unsigned n = ir_num_call_args(call), k = 0;
  LLVMValueRef *args = xcalloc(2 * n + 1, sizeof *args);
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef a = LLVMGetArgOperand(call, i);
    args[k++] = aug_value(g, a);
    if (pattern[i] == 'd') args[k++] = aug_shadow(g, a, call, "this call");
  }
  LLVMValueRef nc = LLVMBuildCall2(g->b, fty, aug, args, k, "");
  free(args);
  if (ret_shadow) {
    vmap_put(&g->vmap, call, LLVMBuildExtractValue(g->b, nc, 0, ""));
    vmap_put(&g->smap, call, LLVMBuildExtractValue(g->b, nc, 1, ""));
  } else {
    vmap_put(&g->vmap, call, nc);
  }
}

/* Calls rev (of type fty) with the adjoint of the result; the adjoints of the 'o' arguments come back. */
static void call_rev(RevGen *g, LLVMValueRef call, LLVMValueRef rev, LLVMTypeRef fty, const char *pattern, bool ret_active) {
  LLVMValueRef d = ret_active ? adj_take(g, call) : NULL;
  LLVMValueRef r = LLVMBuildCall2(g->b, fty, rev, &d, d ? 1 : 0, "");
  unsigned outs = 0, k = 0;
  for (const char *p = pattern; *p; p++) outs += *p == 'o';
  for (unsigned i = 0, n = ir_num_call_args(call); i < n; i++)
    if (pattern[i] == 'o') adj_add(g, LLVMGetArgOperand(call, i), outs == 1 ? r : LLVMBuildExtractValue(g->b, r, k++, ""));
}

static void aug_module_call(RevGen *g, LLVMValueRef call) {
  char *pattern = active_pattern(g, call);
  RevPair pair;
  if (!pattern) {
    aug_clone(g, call);
  } else if (!rev_pair(g->ad, ir_called_function(call), pattern, kind_of_call(g, call), &pair)) {
    g->errors++; /* the callee's errors are reported; this pair cannot be right without it */
    aug_clone(g, call);
  } else {
    bool chained = omp_chain_give(g, call);
    shared_aug_call(g, call, false);
    call_aug(g, call, pair.aug, LLVMGlobalGetValueType(pair.aug), pattern, pair.ret_shadow);
    shared_aug_call(g, call, true);
    if (chained) omp_chain_given(g);
  }
  free(pattern);
}

static void rev_module_call(RevGen *g, LLVMValueRef call) {
  char *pattern = call_pattern(g, call);
  RevPair pair;
  if (call_is_active(g, call, pattern) && !LLVMIsFunctionVarArg(LLVMGetCalledFunctionType(call)) &&
      rev_pair(g->ad, ir_called_function(call), pattern, kind_of_call(g, call), &pair)) {
    shared_rev_call(g, call);
    call_rev(g, call, pair.rev, LLVMGlobalGetValueType(pair.rev), pattern, pair.ret_active);
  }
  free(pattern);
}

/* ---- calls through function pointers (ad/indirect.h) ---- */

typedef struct {
  const char *pattern;
  PairKind kind;
} IndirectPair;

static bool pair_for_pointer(AdModule *ad, LLVMValueRef fn, void *ctx, LLVMValueRef out[2]) {
  IndirectPair *p = ctx;
  RevPair pair;
  if (!rev_pair(ad, fn, p->pattern, p->kind, &pair)) return false;
  out[0] = pair.aug;
  out[1] = pair.rev;
  return true;
}

/* The key of a call's pair in the runtime's table (both sweeps agree on it). */
static LLVMValueRef indirect_key(RevGen *g, LLVMValueRef call, const char *pattern, PairKind kind) {
  char *key = xasprintf("rev|%s|%d%d%d|%llx|%llx|%llx|%llx|%llx|%llx", pattern, kind.ret_active, kind.ret_shadow, kind.parallel,
                        kind.unwritten, kind.unwritten_slots, kind.unwritten_held, kind.unwritten_globals, kind.redirected, kind.own);
  IndirectPair ctx = {pattern, kind};
  LLVMValueRef k = indirect_register(g->ad, LLVMGetCalledFunctionType(call), key, pair_for_pointer, &ctx);
  free(key);
  return k;
}

/* Each sweep looks its half of the pair up from the pointer (the reverse sweep has the pointer as any
 * value it needs: a loop's limiter chosen before the loop is kept once, not its reverse function a call). */
void aug_indirect(RevGen *g, LLVMValueRef call) {
  char *pattern = active_pattern(g, call);
  if (!pattern) {
    aug_clone(g, call);
    return;
  }
  PairKind kind = kind_of_call(g, call);
  LLVMValueRef k = indirect_key(g, call, pattern, kind);
  LLVMTypeRef aug_type, rev_type;
  rev_pair_types(LLVMGetCalledFunctionType(call), pattern, kind, &aug_type, &rev_type);
  LLVMValueRef aug = indirect_lookup(g->ad, g->b, aug_value(g, LLVMGetCalledValue(call)), k, 0);
  shared_aug_call(g, call, false);
  call_aug(g, call, aug, aug_type, pattern, kind.ret_shadow);
  shared_aug_call(g, call, true);
  free(pattern);
}

void rev_indirect(RevGen *g, LLVMValueRef call) {
  char *pattern = call_pattern(g, call);
  if (call_is_active(g, call, pattern) && !LLVMIsFunctionVarArg(LLVMGetCalledFunctionType(call))) {
    PairKind kind = kind_of_call(g, call);
    LLVMValueRef k = indirect_key(g, call, pattern, kind), fn = rv(g, LLVMGetCalledValue(call));
    LLVMTypeRef aug_type, rev_type;
    rev_pair_types(LLVMGetCalledFunctionType(call), pattern, kind, &aug_type, &rev_type);
    LLVMValueRef rev = indirect_lookup(g->ad, g->b, fn, k, 1);
    shared_rev_call(g, call);
    call_rev(g, call, rev, rev_type, pattern, kind.ret_active);
  }
  free(pattern);
}

/* ---- registered gradients ---- */

typedef struct {
  LLVMValueRef augment, gradient;
  bool usable; /* the functions fit the call (else it was reported, and f is called as it is) */
  bool has_tape, result_in_struct;
  unsigned result_at; /* where result_in_struct: the result's field, the tape the other ({tape, result}: 1) */
  bool result_from_fn; /* the augmented function returns nothing: f itself gives the result, where it is used */
  /* {result, tape} comes back through memory of this type (sret): C returns a struct of over 16 bytes
     so, and {pair, void *} is one where f returns a struct in registers */
  LLVMTypeRef aug_memory;
} Custom;

static unsigned fp_params(LLVMValueRef call) {
  unsigned n = 0;
  for (unsigned i = 0, k = ir_num_call_args(call); i < k; i++) n += is_float_value(LLVMTypeOf(LLVMGetArgOperand(call, i)));
  return n;
}

/* The parameters that carry the adjoint of f's result r into the gradient. A struct of up to 16 bytes
 * comes back in registers, as a literal struct of its parts ({double, double}, {double, i32}) or one value
 * (<2 x float>), and C passes the gradient's `S dr` as those same parts, one parameter each. None where
 * the result has no floats. */
static unsigned result_parts(LLVMTypeRef r) {
  if (!is_float_value(r)) return 0;
  return LLVMGetTypeKind(r) == LLVMStructTypeKind && LLVMIsLiteralStruct(r) ? LLVMCountStructElementTypes(r) : 1;
}

static LLVMValueRef result_part(RevGen *g, LLVMValueRef d, unsigned i) {
  return result_parts(LLVMTypeOf(d)) > 1 ? LLVMBuildExtractValue(g->b, d, i, "") : d;
}

/* Where a struct of two fields holds f's result (of type r) and a void * tape: the result's field, as
 * Parad writes it ({result, tape}: 0) or as Enzyme does ({tape, result}: 1); -1 where it is not such a
 * struct. `same` asks for the result's own type, else for its size (clang loads a struct's register parts
 * from its memory). */
static int result_field(RevGen *g, LLVMTypeRef t, LLVMTypeRef r, bool same) {
  if (LLVMGetTypeKind(r) == LLVMVoidTypeKind || LLVMGetTypeKind(t) != LLVMStructTypeKind || LLVMCountStructElementTypes(t) != 2)
    return -1;
  for (unsigned f = 0; f < 2; f++) {
    LLVMTypeRef field = LLVMStructGetTypeAtIndex(t, f);
    if (!ir_is_ptr(LLVMStructGetTypeAtIndex(t, 1 - f)) || (f == 1 && ir_is_ptr(r))) continue; /* {ptr, ptr}: Parad's */
    if (same ? field == r : ir_type_size(g->ad->mod, field) == ir_type_size(g->ad->mod, r)) return (int)f;
  }
  return -1;
}

/* The type of the augmented function's sret parameter where it is {result, tape} or {tape, result} with a
 * result f's result r can be loaded from, else NULL; *at the result's field. */
static LLVMTypeRef result_and_tape_in_memory(RevGen *g, LLVMValueRef augment, LLVMTypeRef r, unsigned *at) {
  LLVMAttributeRef a = LLVMCountParams(augment) ? LLVMGetEnumAttributeAtIndex(augment, 1, ir_attr_kind("sret")) : NULL;
  LLVMTypeRef t = a ? LLVMGetTypeAttributeValue(a) : NULL;
  int f = t ? result_field(g, t, r, false) : -1;
  if (f < 0) return NULL;
  *at = (unsigned)f;
  return t;
}

/* The first of fn's parameters from `from` on (counted from 1) whose type is not want's, 0 where all
 * are; where the count differs, past the last. */
static unsigned param_not_of_type(LLVMValueRef fn, unsigned from, LLVMTypeRef *want, unsigned n) {
  unsigned np = LLVMCountParams(fn);
  for (unsigned i = 0; i < n && from + i < np; i++)
    if (LLVMTypeOf(LLVMGetParam(fn, from + i)) != want[i]) return from + i + 1;
  return np == from + n ? 0 : np + 1;
}

/* Checks the registered functions' types against the call (see ad/custom.h). True where f has a
 * registered gradient; c->usable where the call can go through it. */
static bool custom_of(RevGen *g, LLVMValueRef call, Custom *c) {
  LLVMValueRef callee = ir_called_function(call);
  if (!custom_lookup(callee, &c->augment, &c->gradient)) return false;
  LLVMTypeRef rt = LLVMTypeOf(call), at = LLVMGetReturnType(LLVMGlobalGetValueType(c->augment));
  bool void_fn = LLVMGetTypeKind(rt) == LLVMVoidTypeKind;
  c->usable = c->has_tape = c->result_in_struct = c->result_from_fn = false;
  c->aug_memory = NULL;
  c->result_at = 0;
  int field;
  unsigned n = ir_num_call_args(call);
  if (n && ir_call_arg_has_attr(call, 0, "sret")) {
    /* its adjoint would come in through a shadow of the caller's memory, not as the gradient's `S dr` */
    rev_error(g, call, "cannot use the gradient registered for '%s': '%s' returns a struct through memory (more "
                       "than 16 bytes), which registered gradients do not take yet; write the result through a "
                       "pointer parameter instead (the gradient then finds its adjoint in that pointer's shadow)",
              LLVMGetValueName(callee), LLVMGetValueName(callee));
    return true;
  }
  if (at == rt) {
  } else if (LLVMGetTypeKind(at) == LLVMVoidTypeKind && (c->aug_memory = result_and_tape_in_memory(g, c->augment, rt, &c->result_at))) {
    c->has_tape = c->result_in_struct = true;
  } else if (LLVMGetTypeKind(at) == LLVMVoidTypeKind) {
    c->result_from_fn = true; /* neither the result nor a tape: f itself gives the result, where it is used */
  } else if (void_fn && ir_is_ptr(at)) {
    c->has_tape = true;
  } else if ((field = result_field(g, at, rt, true)) >= 0) {
    c->has_tape = c->result_in_struct = true;
    c->result_at = (unsigned)field;
  } else {
    rev_error(g, call, "the augmented function '%s' registered for '%s' must return what '%s' returns (or a "
                       "struct of that and a void * tape, in either order)", LLVMGetValueName(c->augment),
              LLVMGetValueName(callee), LLVMGetValueName(callee));
    return true;
  }
  /* the arguments, each pointer followed by its shadow; then, for the gradient, the result's adjoint and
     the tape */
  unsigned parts = result_parts(rt), k = 0;
  LLVMTypeRef *want = xcalloc(2 * n + parts + 1, sizeof *want);
  for (unsigned i = 0; i < n; i++) {
    LLVMTypeRef t = LLVMTypeOf(LLVMGetArgOperand(call, i));
    want[k++] = t;
    if (ir_is_ptr(t)) want[k++] = t;
  }
  unsigned want_aug = k;
  for (unsigned i = 0; i < parts; i++) want[k++] = parts > 1 ? LLVMStructGetTypeAtIndex(rt, i) : rt;
  if (c->has_tape) want[k++] = g->ptr_type;
  unsigned nfp = fp_params(call);
  LLVMTypeRef gr = LLVMGetReturnType(LLVMGlobalGetValueType(c->gradient));
  bool grad_ret_ok = nfp == 0 ? LLVMGetTypeKind(gr) == LLVMVoidTypeKind
                              : nfp == 1 ? ir_is_fp(gr) || LLVMGetTypeKind(gr) == LLVMStructTypeKind
                                         : LLVMGetTypeKind(gr) == LLVMStructTypeKind;
  unsigned bad_aug = param_not_of_type(c->augment, c->aug_memory != NULL, want, want_aug);
  unsigned bad_grad = param_not_of_type(c->gradient, 0, want, k);
  free(want);
  LLVMValueRef bad = bad_aug ? c->augment : c->gradient;
  unsigned which = bad_aug ? bad_aug : bad_grad;
  c->usable = !bad_aug && !bad_grad && grad_ret_ok;
  if (!c->usable && which && which <= LLVMCountParams(bad)) /* the count is right: a type is not */
    rev_error(g, call, "parameter #%u of '%s', registered for '%s', does not have the type of what is passed "
                       "there: the call's arguments (each pointer followed by its shadow), then, to the gradient, "
                       "the adjoint of the result (a struct's by its parts) and the tape",
              which, LLVMGetValueName(bad), LLVMGetValueName(callee));
  else if (!c->usable && !bad_aug && !bad_grad && !grad_ret_ok)
    rev_error(g, call, "the gradient '%s' registered for '%s' must return %s (the adjoints of pointer parameters "
                       "go through their shadows)", LLVMGetValueName(c->gradient), LLVMGetValueName(callee),
              nfp == 0 ? "void: no parameter is a float passed by value"
                       : nfp == 1 ? "the adjoint of its one float parameter passed by value (or a struct of it)"
                                  : "a struct of the adjoints of its float parameters passed by value");
  else if (!c->usable)
    rev_error(g, call, "the functions registered for '%s' do not have the expected parameters: the augmented "
                       "function takes %u (each pointer followed by its shadow), the gradient %u (then the adjoint "
                       "of the result, then the tape) and returns the adjoints of the %u floating-point parameters",
              LLVMGetValueName(callee), want_aug, k, nfp);
  return true;
}

/* The memory of fixed size a registered gradient is given (stack arrays, variables): it reads it when the
 * reverse sweep runs, and by then the program may have written it again (a loop's next iteration, an
 * array a helper inlined into a loop reuses). Each call keeps a copy of it, put back before its gradient
 * runs. The copies sit in one block per call, after the augmented function's tape (KEPT_AT). A global is
 * not copied where a team's threads run the call: they would put their copies back over each other. */
enum { MAX_KEPT = 8, KEPT_AT = 16 };

typedef struct {
  LLVMValueRef object[MAX_KEPT];
  unsigned long long size[MAX_KEPT], at[MAX_KEPT];
  unsigned n;
  unsigned long long bytes;
} Kept;

static void kept_of(RevGen *g, LLVMValueRef call, Kept *k) {
  k->n = 0;
  k->bytes = KEPT_AT;
  if (checkpoint_is_loop(ir_called_function(call))) return; /* it puts back what it changed itself */
  for (unsigned i = 0, n = ir_num_call_args(call); i < n; i++) {
    LLVMValueRef a = LLVMGetArgOperand(call, i);
    if (!ir_is_ptr(LLVMTypeOf(a))) continue;
    LLVMValueRef o = ir_address_base(a);
    unsigned long long size = 0;
    if (LLVMIsAAllocaInst(o) && LLVMIsAConstantInt(LLVMGetOperand(o, 0)))
      size = ir_type_size(g->ad->mod, LLVMGetAllocatedType(o)) * LLVMConstIntGetZExtValue(LLVMGetOperand(o, 0));
    else if (LLVMIsAGlobalVariable(o) && !LLVMIsGlobalConstant(o) && !g->parallel) /* a team's threads share it */
      size = ir_type_size(g->ad->mod, LLVMGlobalGetValueType(o));
    bool seen = false;
    for (unsigned j = 0; j < k->n; j++) seen |= k->object[j] == o;
    if (!size || seen || k->n == MAX_KEPT) continue;
    k->object[k->n] = o;
    k->size[k->n] = size;
    k->at[k->n++] = k->bytes;
    k->bytes += (size + 15) / 16 * 16;
  }
}

static LLVMValueRef kept_copy(RevGen *g, LLVMValueRef block, const Kept *k, unsigned j) {
  LLVMValueRef at = LLVMConstInt(g->i64, k->at[j], 0);
  return LLVMBuildGEP2(g->b, LLVMInt8TypeInContext(g->ctx), block, &at, 1, "kept");
}

static void aug_custom(RevGen *g, LLVMValueRef call, Custom *c) {
  unsigned n = ir_num_call_args(call), k = 0;
  LLVMValueRef *args = xcalloc(2 * n + 2, sizeof *args), memory = NULL;
  if (c->usable && c->aug_memory)
    args[k++] = memory = ir_entry_alloca(LLVMGetBasicBlockParent(LLVMGetInsertBlock(g->b)), c->aug_memory, "result.tape");
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef a = LLVMGetArgOperand(call, i);
    args[k++] = aug_value(g, a);
    if (ir_is_ptr(LLVMTypeOf(a))) args[k++] = shadowed(g, a) ? aug_shadow(g, a, call, "this call") : LLVMConstNull(g->ptr_type);
  }
  LLVMTypeRef fty = LLVMGlobalGetValueType(c->augment);
  int at = library_floats_only_argument(c->augment);
  const char *held;
  if (at >= 0 && (unsigned)at < n && shadowed(g, LLVMGetArgOperand(call, (unsigned)at)) &&
      (held = library_pointers_held(LLVMGetArgOperand(call, (unsigned)at))))
    rev_error(g, call, "reverse mode cannot differentiate '%s' of elements that may hold pointers (%s data): the "
                       "shadows of pointers would have to move with them in the forward sweep, where the floats' "
                       "adjoints stay; sort an array of floats, or of indices", ir_called_name(call), held);
  if (!c->usable) { /* reported by custom_of */
    free(args);
    aug_clone(g, call);
    return;
  }
  Kept kept;
  kept_of(g, call, &kept);
  LLVMValueRef block = NULL;
  if (kept.n) {
    LLVMValueRef bytes = LLVMConstInt(g->i64, kept.bytes, 0);
    block = ir_call_named(g->b, "__parad_rt_kept_on_heap", LLVMFunctionType(g->ptr_type, &g->i64, 1, 0), &bytes, 1);
    for (unsigned j = 0; j < kept.n; j++)
      LLVMBuildMemCpy(g->b, kept_copy(g, block, &kept, j), 16, aug_value(g, kept.object[j]), 1,
                      LLVMConstInt(g->i64, kept.size[j], 0));
  }
  LLVMValueRef r = LLVMBuildCall2(g->b, fty, c->augment, args, k, "");
  free(args);
  LLVMValueRef tape = NULL;
  if (memory) { /* the result and the tape in memory: the result is read as f returns it, in registers */
    LLVMAddCallSiteAttribute(r, 1, LLVMCreateTypeAttribute(g->ctx, ir_attr_kind("sret"), c->aug_memory));
    LLVMValueRef result = LLVMBuildStructGEP2(g->b, c->aug_memory, memory, c->result_at, "");
    vmap_put(&g->vmap, call, LLVMBuildLoad2(g->b, LLVMTypeOf(call), result, ""));
    tape = LLVMBuildLoad2(g->b, g->ptr_type, LLVMBuildStructGEP2(g->b, c->aug_memory, memory, 1 - c->result_at, ""), "tape");
  } else if (c->result_in_struct) {
    vmap_put(&g->vmap, call, LLVMBuildExtractValue(g->b, r, c->result_at, ""));
    tape = LLVMBuildExtractValue(g->b, r, 1 - c->result_at, "");
  } else if (c->has_tape) {
    tape = r;
  } else if (c->result_from_fn) {
    if (LLVMGetFirstUse(call)) aug_clone(g, call);
  } else if (LLVMGetTypeKind(LLVMTypeOf(call)) != LLVMVoidTypeKind) {
    vmap_put(&g->vmap, call, r);
  }
  if (block) LLVMBuildStore(g->b, tape ? tape : LLVMConstNull(g->ptr_type), block);
  if (block || tape) vmap_put(&g->tapemap, call, block ? block : tape);
}

static void rev_custom(RevGen *g, LLVMValueRef call, Custom *c) {
  if (!c->usable) return; /* reported by custom_of */
  LLVMTypeRef ret = LLVMTypeOf(call);
  unsigned n = ir_num_call_args(call), k = 0, parts = result_parts(ret);
  LLVMValueRef *args = xcalloc(2 * n + parts + 2, sizeof *args);
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef a = LLVMGetArgOperand(call, i);
    args[k++] = rv(g, a);
    if (ir_is_ptr(LLVMTypeOf(a))) args[k++] = shadowed(g, a) ? rs(g, a) : LLVMConstNull(g->ptr_type);
  }
  if (parts) {
    LLVMValueRef d = varied(g, call) ? adj_take(g, call) : LLVMConstNull(adj_type(ret));
    for (unsigned i = 0; i < parts; i++) args[k++] = result_part(g, d, i);
  }
  Kept kept;
  kept_of(g, call, &kept);
  LLVMValueRef block = kept.n || c->has_tape ? rt(g, call) : NULL;
  for (unsigned j = 0; j < kept.n; j++) /* the memory as the call saw it */
    LLVMBuildMemCpy(g->b, rv(g, kept.object[j]), 1, kept_copy(g, block, &kept, j), 16, LLVMConstInt(g->i64, kept.size[j], 0));
  if (c->has_tape) args[k++] = kept.n ? LLVMBuildLoad2(g->b, g->ptr_type, block, "tape") : block;
  LLVMValueRef r = LLVMBuildCall2(g->b, LLVMGlobalGetValueType(c->gradient), c->gradient, args, k, "");
  free(args);
  unsigned nfp = fp_params(call), j = 0;
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef a = LLVMGetArgOperand(call, i);
    if (!is_float_value(LLVMTypeOf(a))) continue;
    LLVMValueRef d = nfp == 1 && ir_is_fp(LLVMTypeOf(r)) ? r : LLVMBuildExtractValue(g->b, r, j, "");
    j++;
    adj_add(g, a, d);
  }
}

/* ---- dispatch ---- */

static bool is_runtime(LLVMValueRef call) { return !strncmp(ir_called_name(call), "__parad_rt_", 11); }

static bool has_shadow(void *g, LLVMValueRef v) { return shadowed(g, v); }

/* A registered gradient, but for a checkpointed loop given no shadow for a variable that needs one. */
static bool custom_applies(RevGen *g, LLVMValueRef call, Custom *c) {
  return custom_of(g, call, c) && !checkpoint_lacks_shadows(call, has_shadow, g);
}

/* A library function that only relinks nodes (analysis/calls.h): the same call on the shadows, in the
 * forward sweep where the primal makes it, keeps each shadow structure in its primal's shape for the loads
 * and stores after it; a node it returns has the mirrored call's result for its shadow, kept for the
 * reverse sweep like any other. No float goes through it: its reverse is nothing. */
static void aug_mirrored(RevGen *g, LLVMValueRef call) {
  aug_clone(g, call);
  unsigned n = ir_num_call_args(call), mask = 0;
  bool any = false;
  call_mirrored(call, &mask);
  for (unsigned i = 0; i < n; i++) any |= (mask >> i & 1) && shadowed(g, LLVMGetArgOperand(call, i));
  if (!any) return; /* a container without derivatives */
  LLVMValueRef *args = xcalloc(n + 1, sizeof *args);
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef a = LLVMGetArgOperand(call, i);
    args[i] = mask >> i & 1 ? aug_shadow(g, a, call, "this call") : aug_value(g, a);
  }
  LLVMValueRef s = LLVMBuildCall2(g->b, LLVMGetCalledFunctionType(call), ir_called_function(call), args, n, "");
  free(args);
  if (ir_is_ptr(LLVMTypeOf(call)) && shadowed(g, call)) vmap_put(&g->smap, call, s);
}

bool rev_call_augmented(RevGen *g, LLVMValueRef call) {
  Custom custom;
  if (call_classify(call, NULL) != CALL_MODULE || LLVMIsFunctionVarArg(LLVMGetCalledFunctionType(call)) || custom_applies(g, call, &custom))
    return false;
  char *pattern = call_pattern(g, call);
  bool yes = call_is_active(g, call, pattern);
  free(pattern);
  return yes;
}

void aug_call(RevGen *g, LLVMValueRef call) {
  const MathRule *rule;
  CallKind kind = call_classify(call, &rule);
  Custom custom;
  unsigned which;
  const char *why;
  if ((kind == CALL_MODULE || kind == CALL_UNKNOWN) && custom_applies(g, call, &custom)) {
    aug_custom(g, call, &custom);
    return;
  }
  if (call_is_nonlocal_jump(call)) { /* the jump would leave the tape as the forward sweep had it half way */
    rev_error(g, call, "cannot differentiate '%s' in reverse mode: a non-local jump (setjmp, longjmp) leaves the "
                       "derivative's record of the code it jumps over incomplete; return an error code instead",
              ir_called_name(call));
    return;
  }
  const Paradigm *paradigm = paradigm_of(kind);
  if (paradigm) {
    paradigm->augmented(g, call);
    return;
  }
  switch (kind) {
  case CALL_DEBUG: return;
  case CALL_MATH:
  case CALL_INACTIVE: aug_clone(g, call); return;
  case CALL_MIRRORED: aug_mirrored(g, call); return;
  case CALL_MEMCPY:
  case CALL_MEMSET: aug_memcpy(g, call, kind); return;
  case CALL_ALLOC:
  case CALL_REALLOC:
  case CALL_FREE: aug_heap(g, call, kind); return;
  case CALL_MODULE: aug_module_call(g, call); return;
  case CALL_REQUEST:
    rev_error(g, call, "cannot differentiate a derivative request here");
    aug_clone(g, call);
    return;
  case CALL_UNKNOWN:
    if (is_runtime(call))
      rev_error(g, call, "reverse mode cannot differentiate a function that itself computes a gradient");
    else if (call_waits_for_thread(call))
      rev_error(g, call, THREAD_WAIT_MESSAGE, ir_called_name(call), ir_called_name(call));
    else if ((why = call_array_function(call, &which))) {
      if (shadowed(g, LLVMGetArgOperand(call, which)))
        rev_error(g, call, "cannot differentiate '%s' of an array with derivatives (argument #%u): %s",
                  ir_called_name(call), which + 1, why);
    } else if (activity_any_active_argument(g->act, call, &which)) {
      if ((why = call_intrinsic_refusal(call)))
        rev_error(g, call, "cannot differentiate '%s' with an active argument (#%u): %s", ir_called_name(call), which + 1, why);
      else
        rev_error(g, call, "cannot differentiate a call to '%s', " NOT_IN_PROGRAM ", with an active "
                           "argument (#%u): give it a body, or register a custom gradient "
                           "(__parad_register_gradient_%s" REGISTRATION_LINKED "), " INACTIVE_WAY_OUT,
                  ir_called_name(call), which + 1, ir_called_name(call), ir_called_name(call));
    }
    aug_clone(g, call);
    return;
  default: return; /* a paradigm's: above */
  }
}

void rev_call(RevGen *g, LLVMValueRef call) {
  const MathRule *rule;
  CallKind kind = call_classify(call, &rule);
  Custom custom;
  /* a registered gradient runs even when nothing is active: it may own a tape to release */
  if ((kind == CALL_MODULE || kind == CALL_UNKNOWN) && custom_applies(g, call, &custom)) {
    rev_custom(g, call, &custom);
    return;
  }
  const Paradigm *paradigm = paradigm_of(kind);
  if (paradigm) {
    paradigm->adjoint(g, call);
    return;
  }
  switch (kind) {
  case CALL_MATH: rev_math(g, call, rule); return;
  case CALL_MEMCPY:
  case CALL_MEMSET: rev_memcpy(g, call, kind); return;
  case CALL_ALLOC:
  case CALL_REALLOC:
  case CALL_FREE: rev_heap(g, call, kind); return;
  case CALL_MODULE: rev_module_call(g, call); return;
  default: return;
  }
}
