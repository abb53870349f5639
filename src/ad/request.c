/* The calling convention: parsing __parad_* / __enzyme_* calls into canonical requests. */
#include "ad/request.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Target.h>
#include <llvm-c/DebugInfo.h>

#include "ad/body.h"
#include "ad/function_versions.h"
#include "ad/indirect.h"
#include "ad/split_forward.h"
#include "ir/cfg.h"
#include "ir/diag.h"
#include "ir/ir.h"
#include "ir/util.h"
#include "mpi/mpi.h"

static const struct {
  const char *name;
  DiffMode mode;
} entry_points[] = {
    {"__parad_fwddiff", MODE_FORWARD},     {"__enzyme_fwddiff", MODE_FORWARD},
    {"__parad_fwdsplit", MODE_FORWARD},    {"__enzyme_fwdsplit", MODE_FORWARD}, /* split_forward.c */
    {"__parad_error_estimate", MODE_FORWARD}, {"__enzyme_error_estimate", MODE_FORWARD}, /* fwd_error.c */
    {"__parad_autodiff", MODE_REVERSE},    {"__enzyme_autodiff", MODE_REVERSE},
    {"__parad_augmentfwd", MODE_AUGMENT},  {"__enzyme_augmentfwd", MODE_AUGMENT},
    {"__parad_reverse", MODE_REVERSE_SPLIT}, {"__enzyme_reverse", MODE_REVERSE_SPLIT},
};

const char *request_mode_name(DiffMode m) {
  switch (m) {
  case MODE_FORWARD: return "forward";
  case MODE_REVERSE: return "reverse";
  case MODE_AUGMENT: return "augmentfwd";
  default: return "reverse-split";
  }
}

static bool mode_from_name(const char *s, DiffMode *out) {
  for (DiffMode m = MODE_FORWARD; m <= MODE_REVERSE_SPLIT; m++)
    if (!strcmp(s, request_mode_name(m))) return *out = m, true;
  return false;
}

/* A user entry point is one of the names above, optionally with a suffix (C has no overloading, so
 * Enzyme users declare __enzyme_autodiff_vec and the like for differently typed calls). */
static bool entry_point(LLVMValueRef fn, DiffMode *mode) {
  if (!fn || !LLVMIsDeclaration(fn)) return false;
  const char *name = LLVMGetValueName(fn);
  for (size_t i = 0; i < sizeof entry_points / sizeof entry_points[0]; i++) {
    size_t n = strlen(entry_points[i].name);
    if (!strncmp(name, entry_points[i].name, n)) return *mode = entry_points[i].mode, true;
  }
  return false;
}

static bool unknown_entry_point_name(const char *name) {
  if (!strcmp(name, "__enzyme_iter")) return false; /* a count, not a request (ad/iteration_count.c) */
  if (!strcmp(name, "__parad_checkpoint_loop")) return false; /* a loop's mark, read next (ad/checkpoint.c) */
  return (!strncmp(name, "__enzyme_", 9) || !strncmp(name, "__parad_", 8)) && strncmp(name, "__parad_rt_", 11) != 0;
}

static bool unknown_entry_point(LLVMValueRef fn) {
  return fn && LLVMIsDeclaration(fn) && unknown_entry_point_name(LLVMGetValueName(fn));
}

/* ---- markers ---- */

typedef enum {
  MARK_NONE, MARK_DUP, MARK_CONST, MARK_DUPNONEED, MARK_OUT, MARK_WIDTH, MARK_TAPE, MARK_ALLOCATED, MARK_PRIMAL_RETURN,
  MARK_UNKNOWN
} Marker;

static Marker marker_named(const char *n) {
  const char *base;
  if (!strncmp(n, "parad_", 6))
    base = n + 6;
  else if (!strncmp(n, "enzyme_", 7))
    base = n + 7;
  else
    return MARK_NONE;
  if (!strcmp(base, "dup")) return MARK_DUP;
  if (!strcmp(base, "const")) return MARK_CONST;
  if (!strcmp(base, "dupnoneed")) return MARK_DUPNONEED;
  if (!strcmp(base, "out")) return MARK_OUT;
  if (!strcmp(base, "width")) return MARK_WIDTH;
  if (!strcmp(base, "tape")) return MARK_TAPE;
  if (!strcmp(base, "allocated")) return MARK_ALLOCATED;
  if (!strcmp(base, "primal_return")) return MARK_PRIMAL_RETURN;
  return MARK_UNKNOWN;
}

/* A marker passed as the global's value, or through a local it was stored in once (`int dup = enzyme_dup`). */
static Marker marker_of(LLVMValueRef arg, const char **name) {
  LLVMValueRef g = ir_loaded_global(ir_stored_once(arg));
  if (!g) return MARK_NONE;
  *name = LLVMGetValueName(g);
  return marker_named(*name);
}

/* Enzyme's other markers, which programs written for it define too, and batch mode's (batch.c). */
static const char *const enzyme_markers[] = {"enzyme_vector",     "enzyme_scalar",        "parad_vector",
                                             "parad_scalar",      "enzyme_primal_return", "enzyme_noret",
                                             "enzyme_nofree",     "enzyme_interleave",    "enzyme_dupv",
                                             "enzyme_dupnoneedv", "enzyme_const_return",  NULL};

int request_weaken_markers(LLVMModuleRef m) {
  int n = 0;
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g)) {
    const char *name = LLVMGetValueName(g);
    bool marker = marker_named(name) != MARK_NONE && marker_named(name) != MARK_UNKNOWN;
    for (const char *const *e = enzyme_markers; *e && !marker; e++) marker = !strcmp(name, *e);
    if (!marker || !LLVMGetInitializer(g) || LLVMGetLinkage(g) != LLVMExternalLinkage) continue;
    LLVMSetLinkage(g, LLVMWeakAnyLinkage);
    n++;
  }
  return n;
}

/* ---- argument conversion ---- */

/* The bits of a floating type's value (x86's long double: 80). */
static unsigned float_width(LLVMTypeRef t) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMHalfTypeKind:
  case LLVMBFloatTypeKind: return 16;
  case LLVMFloatTypeKind: return 32;
  case LLVMDoubleTypeKind: return 64;
  case LLVMX86_FP80TypeKind: return 80;
  default: return 128;
  }
}

/* As C converts the value of a variadic argument (promoted) to the parameter's type. */
LLVMValueRef request_convert_argument(LLVMBuilderRef b, LLVMValueRef v, LLVMTypeRef to) {
  LLVMTypeRef from = LLVMTypeOf(v);
  if (from == to) return v;
  if (ir_is_fp(from) && ir_is_fp(to)) {
    unsigned fb = float_width(from), tb = float_width(to);
    if (fb == tb) return NULL; /* half and bfloat: no C conversion between them by value here */
    return fb > tb ? LLVMBuildFPTrunc(b, v, to, "") : LLVMBuildFPExt(b, v, to, "");
  }
  /* an int for a _Bool parameter: true for any nonzero value, as C converts (2 truncated was false) */
  if (ir_is_int(from) && ir_is_int(to) && LLVMGetIntTypeWidth(to) == 1)
    return LLVMBuildICmp(b, LLVMIntNE, v, LLVMConstNull(from), "");
  if (ir_is_int(from) && ir_is_int(to)) return LLVMBuildIntCast2(b, v, to, 1, "");
  if (ir_is_ptr(from) && ir_is_ptr(to)) return LLVMBuildPointerCast(b, v, to, "");
  return NULL;
}

/* The leaf scalars of a struct or array type, in memory order. */
static unsigned leaves(LLVMTypeRef t, LLVMTypeRef *out, unsigned cap, unsigned n) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMStructTypeKind:
    for (unsigned i = 0; i < LLVMCountStructElementTypes(t); i++)
      n = leaves(LLVMStructGetTypeAtIndex(t, i), out, cap, n);
    return n;
  case LLVMArrayTypeKind:
    for (unsigned i = 0; i < LLVMGetArrayLength2(t); i++) n = leaves(LLVMGetElementType(t), out, cap, n);
    return n;
  default:
    if (n < cap) out[n] = t;
    return n + 1;
  }
}

static LLVMValueRef rebuild(LLVMBuilderRef b, LLVMTypeRef t, LLVMValueRef *leaf_values, unsigned *next) {
  LLVMTypeKind kind = LLVMGetTypeKind(t);
  if (kind != LLVMStructTypeKind && kind != LLVMArrayTypeKind) return leaf_values[(*next)++];
  unsigned count = kind == LLVMStructTypeKind ? LLVMCountStructElementTypes(t) : (unsigned)LLVMGetArrayLength2(t);
  LLVMValueRef v = LLVMGetUndef(t);
  for (unsigned i = 0; i < count; i++) {
    LLVMTypeRef et = kind == LLVMStructTypeKind ? LLVMStructGetTypeAtIndex(t, i) : LLVMGetElementType(t);
    v = LLVMBuildInsertValue(b, v, rebuild(b, et, leaf_values, next), i, "");
  }
  return v;
}

/* A struct passed through "..." arrives in pieces: the x86-64 ABI passes struct {double re, im;} as two
 * doubles and struct {float x, y, z;} as <2 x float> and float. Takes as many call arguments from *k as
 * the struct type `to` needs and rebuilds its value; NULL when the pieces do not match its fields. */
static LLVMValueRef gather_struct(LLVMBuilderRef b, LLVMValueRef call, unsigned *k, unsigned n, LLVMTypeRef to) {
  enum { MAX_LEAVES = 16 };
  LLVMTypeRef leaf[MAX_LEAVES];
  unsigned nleaves = leaves(to, leaf, MAX_LEAVES, 0), got = 0, at = *k;
  if (LLVMGetTypeKind(to) != LLVMStructTypeKind || nleaves > MAX_LEAVES) return NULL;
  LLVMValueRef value[MAX_LEAVES];
  while (got < nleaves && at < n) {
    LLVMValueRef a = LLVMGetArgOperand(call, at++);
    LLVMTypeRef t = LLVMTypeOf(a);
    if (t == leaf[got]) {
      value[got++] = a;
      continue;
    }
    if (LLVMGetTypeKind(t) != LLVMVectorTypeKind) return NULL;
    unsigned lanes = LLVMGetVectorSize(t);
    for (unsigned l = 0; l < lanes; l++) {
      if (got == nleaves || leaf[got] != LLVMGetElementType(t)) return NULL;
      value[got++] = LLVMBuildExtractElement(b, a, LLVMConstInt(LLVMInt32TypeInContext(LLVMGetTypeContext(t)), l, 0), "");
    }
  }
  if (got < nleaves) return NULL;
  *k = at;
  unsigned next = 0;
  return rebuild(b, to, value, &next);
}

static char default_activity(LLVMTypeRef t, DiffMode mode) {
  if (ir_is_ptr(t)) return ACT_DUP;
  if (ir_contains_fp(t)) return mode == MODE_FORWARD ? ACT_DUP : ACT_OUT;
  return ACT_CONST;
}

static char activity_of_marker(Marker m) {
  switch (m) {
  case MARK_DUP: return ACT_DUP;
  case MARK_DUPNONEED: return ACT_DUPNONEED;
  case MARK_OUT: return ACT_OUT;
  default: return ACT_CONST;
  }
}

/* A marker as the program spells them: Enzyme's where it calls Enzyme's entry points. */
static const char *marker_spelling(const char *entry, char act) {
  bool enzyme = !strncmp(entry, "__enzyme", 8) || strstr(entry, "enzyme") != NULL;
  switch (act) {
  case ACT_DUP: return enzyme ? "enzyme_dup" : "parad_dup";
  case ACT_DUPNONEED: return enzyme ? "enzyme_dupnoneed" : "parad_dupnoneed";
  case ACT_OUT: return enzyme ? "enzyme_out" : "parad_out";
  default: return enzyme ? "enzyme_const" : "parad_const";
  }
}

/* ---- parsing one call ---- */

typedef struct {
  LLVMValueRef call;
  const char *entry;      /* the user's spelling, for messages */
  const char *fn_name;
  LLVMValueRef args[256]; /* the canonical arguments */
  LLVMTypeRef types[256];
  unsigned nargs;
  bool failed;
  bool split_forward; /* __enzyme_fwdsplit: forward mode, given the tape of an augmented forward call */
} Parse;

static void add_arg(Parse *p, LLVMValueRef v) {
  if (p->nargs == 256) {
    if (!p->failed) diag_error_plain(p->call, "%s: too many arguments", p->entry);
    p->failed = true;
    return;
  }
  p->types[p->nargs] = LLVMTypeOf(v);
  p->args[p->nargs++] = v;
}

static void fail(Parse *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(Parse *p, const char *fmt, ...) {
  if (p->failed) return; /* one message per call: later ones would only echo the first */
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  diag_error_plain(p->call, "%s: %s", p->entry, msg);
  p->failed = true;
}

/* Markers that are not about one argument: the width of vector mode (before the arguments, since it
 * says how many shadows each takes), Enzyme's split-mode tape: `enzyme_tape, t` gives the tape, and
 * `enzyme_allocated, size` says that t is a user buffer holding it (the augmented forward call stores
 * it there, the reverse call reads it back), and `enzyme_primal_return` (forward mode: the call returns
 * the function's result before its tangents). As in Enzyme, the tape markers may come before, between or
 * after the arguments. */
typedef struct {
  unsigned width;
  LLVMValueRef tape;  /* what follows the tape marker, or NULL */
  bool allocated;     /* enzyme_allocated seen: the tape lives in a user buffer */
  bool primal_return; /* enzyme_primal_return seen */
} CallMarkers;

/* Consumes the markers of this kind at *k; `leading`: before the first argument. */
static void call_markers(Parse *p, unsigned *k, unsigned n, DiffMode mode, bool leading, CallMarkers *out) {
  LLVMValueRef call = p->call;
  while (*k < n && !p->failed) {
    const char *mname = NULL;
    Marker mk = marker_of(LLVMGetArgOperand(call, *k), &mname);
    LLVMValueRef next = *k + 1 < n ? LLVMGetArgOperand(call, *k + 1) : NULL;
    bool split = mode == MODE_AUGMENT || mode == MODE_REVERSE_SPLIT || p->split_forward;
    if (mk == MARK_WIDTH) {
      if (mode != MODE_FORWARD)
        fail(p, "'%s' (vector mode) is for forward mode only: for several rows of a Jacobian in reverse mode, make one "
                "call per row (each with its own seed)", mname);
      else if (!leading)
        fail(p, "'%s' must come before the arguments", mname);
      else if (!next || !LLVMIsAConstantInt(next) || LLVMConstIntGetSExtValue(next) < 1 || LLVMConstIntGetSExtValue(next) > 64)
        fail(p, "'%s' must be followed by a constant width between 1 and 64", mname);
      else
        out->width = (unsigned)LLVMConstIntGetSExtValue(next);
    } else if (mk == MARK_ALLOCATED) {
      if (!split) fail(p, "'%s' is for split mode only", mname);
      else if (!next || !ir_is_int(LLVMTypeOf(next))) fail(p, "'%s' must be followed by the buffer's size", mname);
      else out->allocated = true;
    } else if (mk == MARK_TAPE) {
      if (!split) fail(p, "'%s' is for split mode only", mname);
      else if (!next || !ir_is_ptr(LLVMTypeOf(next))) fail(p, "'%s' must be followed by a pointer", mname);
      else if (out->tape) fail(p, "two tapes ('%s' given twice)", mname);
      else out->tape = next;
    } else if (mk == MARK_PRIMAL_RETURN) { /* no value follows it */
      if (mode != MODE_FORWARD || p->split_forward)
        fail(p, "'%s' is for forward mode only (the result and its tangent)%s", mname,
             mode == MODE_REVERSE ? ": a gradient's call may compute the function's result itself, before or after" : "");
      else if (!leading)
        fail(p, "'%s' must come before the arguments", mname);
      out->primal_return = true;
      ++*k;
      continue;
    } else {
      return;
    }
    *k += 2;
  }
}

static bool is_request(LLVMValueRef call) {
  LLVMValueRef callee = ir_called_function(call);
  DiffMode mode;
  return callee && (entry_point(callee, &mode) || (LLVMIsDeclaration(callee) && request_is_cxx_entry_name(LLVMGetValueName(callee))));
}

/* The argument of a user's request that names the function (after an sret slot). */
static LLVMValueRef function_argument(LLVMValueRef call) {
  unsigned n = ir_num_call_args(call), k = n > 0 && ir_call_arg_has_attr(call, 0, "sret");
  return k < n ? LLVMGetArgOperand(call, k) : NULL;
}

bool request_inline_forwarders(LLVMModuleRef m) {
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  bool marked = false;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    bool forwards = false;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb && !forwards; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && !forwards; i = LLVMGetNextInstruction(i)) {
        LLVMValueRef fn = ir_is_call_site(i) && is_request(i) ? function_argument(i) : NULL;
        forwards = fn && LLVMIsAArgument(ir_stored_once(fn)) && LLVMGetParamParent(ir_stored_once(fn)) == f;
      }
    LLVMLinkage l = LLVMGetLinkage(f);
    /* a template's or an inline function's body (linkonce_odr) may go once inlined, as a static one's: every
       file that uses it has its own */
    if (forwards && ir_fn_has_attr(f, "alwaysinline")) { /* the program's own always_inline: the pass inlines it */
      marked = true;
      continue;
    }
    if (!forwards || (l != LLVMInternalLinkage && l != LLVMPrivateLinkage && l != LLVMLinkOnceODRLinkage)) continue;
    LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, ir_attr_kind("noinline"));
    LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, ir_attr_kind("optnone"));
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ctx, ir_attr_kind("alwaysinline"), 0));
    marked = true;
  }
  return marked;
}

/* The function a request names: a function itself, or the call that returns one and only one function
 * (C++'s conversion of a lambda without captures to a function pointer, `+[](double t) { ... }`), through
 * a local variable written once. */
static LLVMValueRef named_function(LLVMValueRef v) {
  v = ir_stored_once(v);
  /* an alias of a function (__attribute__((alias("impl")))), as the program calls it */
  for (int depth = 0; depth < 4 && v && LLVMIsAGlobalAlias(v); depth++) v = ir_strip_pointer_casts(LLVMAliasGetAliasee(v));
  LLVMValueRef version = function_default_version(v); /* target_clones: ad/function_versions.h */
  if (version) return version;
  if (LLVMIsAFunction(v) || !ir_is_call_site(v)) return v;
  LLVMValueRef callee = ir_called_function(v), found = NULL;
  if (!callee || LLVMIsDeclaration(callee)) return v;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(callee); bb; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    if (!t || !LLVMIsAReturnInst(t)) continue;
    LLVMValueRef r = LLVMGetNumOperands(t) ? ir_strip_pointer_casts(LLVMGetOperand(t, 0)) : NULL;
    if (!r || !LLVMIsAFunction(r) || (found && found != r)) return v;
    found = r;
  }
  return found ? found : v;
}

/* The stack slot a parameter is stored into on entry, as clang's front end writes a struct the C ABI
 * passes in registers (`struct {double a, b;}`, `double complex`: two doubles), or NULL. */
static LLVMValueRef coerced_slot(LLVMValueRef param) {
  LLVMUseRef u = LLVMGetFirstUse(param);
  LLVMValueRef st = u && !LLVMGetNextUse(u) ? LLVMGetUser(u) : NULL;
  if (!st || !LLVMIsAStoreInst(st) || LLVMGetOperand(st, 0) != param) return NULL;
  LLVMValueRef at = LLVMGetOperand(st, 1);
  while (LLVMIsAGetElementPtrInst(at) && LLVMIsAConstant(LLVMGetOperand(at, LLVMGetNumOperands(at) - 1)))
    at = LLVMGetOperand(at, 0);
  return LLVMIsAAllocaInst(at) ? at : NULL;
}

/* The C type a coerced slot holds: the struct clang copies the slot into (where the slot has a coercion
 * type of its own, `{<2 x float>, float}`, copied into a float3), else the slot's own struct type
 * (`%struct.P`, or `{float, float}` of a float complex), or NULL. */
static LLVMTypeRef coerced_c_type(LLVMValueRef slot) {
  LLVMTypeRef t = LLVMGetAllocatedType(slot);
  for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef c = LLVMGetUser(u);
    if (!LLVMIsACallInst(c) || LLVMGetNumArgOperands(c) < 3 || LLVMGetArgOperand(c, 1) != slot) continue;
    LLVMValueRef callee = ir_called_function(c);
    const char *name = callee ? LLVMGetValueName(callee) : "";
    LLVMValueRef to = ir_strip_pointer_casts(LLVMGetArgOperand(c, 0));
    if (!strncmp(name, "llvm.memcpy", 11) && LLVMIsAAllocaInst(to)) return LLVMGetAllocatedType(to);
  }
  return LLVMGetTypeKind(t) == LLVMStructTypeKind ? t : NULL;
}

/* Whether bytes [lo, hi) of type t hold (part of) a floating-point field. */
static bool fp_within(LLVMTargetDataRef td, LLVMTypeRef t, long long lo, long long hi) {
  long long size = (long long)LLVMABISizeOfType(td, t);
  if (hi <= 0 || lo >= size) return false;
  switch (LLVMGetTypeKind(t)) {
  case LLVMStructTypeKind:
    for (unsigned i = 0, n = LLVMCountStructElementTypes(t); i < n; i++) {
      long long at = (long long)LLVMOffsetOfElement(td, t, i);
      if (fp_within(td, LLVMStructGetTypeAtIndex(t, i), lo - at, hi - at)) return true;
    }
    return false;
  case LLVMArrayTypeKind: {
    LLVMTypeRef e = LLVMGetElementType(t);
    long long es = (long long)LLVMABISizeOfType(td, e);
    if (es <= 0) return false;
    for (long long at = lo > 0 ? lo / es * es : 0; at < hi && at < size; at += es)
      if (fp_within(td, e, lo - at, hi - at)) return true;
    return false;
  }
  default:
    return ir_contains_fp(t);
  }
}

/* Where a part of a struct passed in registers is an integer that carries float fields' bits (x86-64
 * passes `{float z; int i;}` in one integer register): their derivatives would be dropped. */
static bool floats_in_integer_part(LLVMValueRef param) {
  LLVMValueRef slot = coerced_slot(param);
  if (!slot || ir_carries_derivative(LLVMTypeOf(param))) return false;
  LLVMTypeRef ct = coerced_c_type(slot);
  if (!ct) return false;
  LLVMModuleRef m = LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInstructionParent(slot)));
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
  long long at = 0;
  LLVMValueRef store = LLVMGetUser(LLVMGetFirstUse(param));
  if (ir_strip_constant_offsets(m, LLVMGetOperand(store, 1), &at) != slot) return false;
  return fp_within(td, ct, at, at + (long long)LLVMStoreSizeOfType(td, LLVMTypeOf(param)));
}

/* How many parameters from #first on are the parts of one struct passed in registers (1: not one). */
static unsigned struct_parts(LLVMValueRef fn, unsigned first) {
  LLVMValueRef slot = coerced_slot(LLVMGetParam(fn, first));
  unsigned parts = 1, n = LLVMCountParams(fn);
  while (slot && first + parts < n && coerced_slot(LLVMGetParam(fn, first + parts)) == slot) parts++;
  return parts;
}

/* Where the gradients of the 'o' parameters lie in the struct the user declares the call as returning, as C
 * lays out a struct of the parameters' types: "offset,...;size;align", or NULL where that is the layout of
 * the struct of the gradients' own types (no 'o' parameter is a struct passed in registers). A float3
 * `{float x, y, z;}` comes in as {<2 x float>, float}: the second float3's gradient starts at byte 12, where
 * a struct of those types would put it at 16. */
static char *out_layout(LLVMModuleRef m, LLVMValueRef fn, const char *activity) {
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
  unsigned n = LLVMCountParams(fn);
  unsigned long long at = 0, align = 1;
  bool structs = false;
  VEC(char) text = {0};
  for (unsigned i = 0; i < n; i++) {
    if (activity[i] != ACT_OUT) continue;
    LLVMValueRef param = LLVMGetParam(fn, i), slot = coerced_slot(param);
    LLVMTypeRef c = slot ? coerced_c_type(slot) : NULL;
    unsigned parts = struct_parts(fn, i);
    unsigned long long a = c ? LLVMGetAlignment(slot) : LLVMABIAlignmentOfType(td, LLVMTypeOf(param));
    unsigned long long size = c ? LLVMABISizeOfType(td, c) : LLVMABISizeOfType(td, LLVMTypeOf(param));
    if (!a) a = 1;
    structs |= c != NULL;
    at = (at + a - 1) / a * a;
    align = a > align ? a : align;
    for (unsigned q = 0; q < (c ? parts : 1); q++) {
      LLVMValueRef part = LLVMGetParam(fn, i + q);
      long long within = 0;
      if (c && ir_strip_constant_offsets(m, LLVMGetOperand(LLVMGetUser(LLVMGetFirstUse(part)), 1), &within) != slot) {
        vec_free(&text);
        return NULL;
      }
      if (activity[i + q] != ACT_OUT) continue;
      char num[32];
      int len = snprintf(num, sizeof num, "%s%llu", text.len ? "," : "", at + (unsigned long long)within);
      for (int k = 0; k < len; k++) vec_push(&text, num[k]);
    }
    at += size;
    if (c) i += parts - 1;
  }
  char *layout = structs ? xasprintf("%.*s;%llu;%llu", (int)text.len, text.data ? text.data : "", (at + align - 1) / align * align, align) : NULL;
  vec_free(&text);
  return layout;
}

/* The arguments of such a struct: the call passes its parts as it passes the struct to the function,
 * first the value's, then each shadow's (a tangent is a struct too); the canonical request wants each part
 * with its shadows. Parts that are not floats (an int beside a double) take no derivative: their shadows
 * are read and dropped. The variadic call may have run out of registers for some of them: such a struct
 * comes in memory (byval), and its parts are read from their eightbytes (an image header {int w, h; float
 * *data} and its two tangents at width 2: the tangents came in memory and were refused). */
static void struct_arguments(Parse *p, LLVMBuilderRef b, unsigned *k, unsigned n, LLVMValueRef fn, unsigned first,
                             unsigned parts, char act, unsigned width, char *activity, LLVMValueRef *values) {
  bool dup = act == ACT_DUP || act == ACT_DUPNONEED;
  unsigned want = parts * (dup ? 1 + width : 1), at = *k;
  LLVMValueRef *got = xcalloc(want, sizeof *got);
  for (unsigned s = 0; s < want / parts && !p->failed; s++) { /* each struct: the value, then its shadows */
    LLVMTypeRef in_memory = at < n ? ir_call_arg_type_attr(p->call, at, "byval") : NULL;
    if (in_memory && parts <= 2 && ir_type_size(LLVMGetGlobalParent(fn), in_memory) <= 16) {
      LLVMValueRef mem = LLVMGetArgOperand(p->call, at++);
      for (unsigned q = 0; q < parts; q++) {
        LLVMTypeRef t = LLVMTypeOf(LLVMGetParam(fn, first + q));
        LLVMValueRef off = LLVMConstInt(LLVMInt64TypeInContext(LLVMGetTypeContext(t)), 8 * q, 0);
        got[s * parts + q] = LLVMBuildLoad2(b, t, LLVMBuildGEP2(b, LLVMInt8TypeInContext(LLVMGetTypeContext(t)), mem, &off, 1, ""), "");
      }
      continue;
    }
    for (unsigned q = 0; q < parts && !p->failed; q++, at++) {
      if (at >= n) {
        fail(p, "too few arguments: parameter #%u of '%s' is a struct passed in %u registers, which takes %u arguments",
             first + 1, p->fn_name, parts, want);
        break;
      }
      got[s * parts + q] = request_convert_argument(b, LLVMGetArgOperand(p->call, at), LLVMTypeOf(LLVMGetParam(fn, first + q)));
      if (!got[s * parts + q])
        fail(p, "the argument for parameter #%u of '%s' (a struct passed in registers) does not have the struct's type",
             first + 1, p->fn_name);
    }
  }
  *k = at;
  for (unsigned q = 0; q < parts && !p->failed; q++) {
    bool carries = ir_carries_derivative(LLVMTypeOf(LLVMGetParam(fn, first + q)));
    add_arg(p, got[q]);
    values[first + q] = got[q];
    activity[first + q] = carries ? act : ACT_CONST;
    for (unsigned w = 0; dup && carries && w < width; w++) add_arg(p, got[parts * (1 + w) + q]);
  }
  free(got);
}

/* fn with the structs it takes by value in memory (byval) taken by reference: a function that passes them
 * on by value, so that fn gets its own copies as from any call. The call stays a call (noinline): the
 * wrapper has no debug information for fn's code to be inlined into. */
static LLVMValueRef by_reference(LLVMValueRef fn) {
  char *name = xasprintf("%s.by_reference", LLVMGetValueName(fn));
  bool made = LLVMGetNamedFunction(LLVMGetGlobalParent(fn), name) != NULL;
  LLVMValueRef w = ir_caller_of(fn, name);
  free(name);
  if (made) return w;
  LLVMValueRef call = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(w));
  const char *kept[] = {"byval", "align", "sret"};
  for (unsigned i = 0, n = LLVMCountParams(fn); i < n; i++)
    for (unsigned k = 0; k < sizeof kept / sizeof kept[0]; k++) {
      LLVMAttributeRef a = LLVMGetEnumAttributeAtIndex(fn, i + 1, ir_attr_kind(kept[k]));
      if (a) LLVMAddCallSiteAttribute(call, i + 1, a);
      if (a && k == 2) LLVMAddAttributeAtIndex(w, i + 1, a); /* the request's result buffer, as fn's */
    }
  LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(fn));
  LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(c, ir_attr_kind("noinline"), 0));
  return w;
}

/* ---- a function chosen through a pointer ----
 * `__parad_autodiff((void *)f, x, dx, n)` where f is a pointer the program holds (a library's optimiser
 * given its objective, a choice between two models): the request differentiates a function of Parad's
 * own that calls through the pointer, passed to it constant, and that call asks the runtime for the
 * derivative of whatever function the pointer holds, as every call through a pointer does (ad/indirect.h).
 * The pointer's type is not in the IR: it is the type of the functions whose address the program takes
 * that take the request's arguments, as its markers give them. */

/* How far the request's arguments from k on are from what a function of type t takes, read as
 * canonicalise reads them: 0 when each has its parameter's type, one more for each converted (a float
 * promoted to double by the variadic call, an int for a long); -1 when they do not fit. */
static int argument_distance(LLVMValueRef call, unsigned k, unsigned n, LLVMTypeRef t, DiffMode mode, unsigned width) {
  unsigned np = LLVMCountParamTypes(t);
  LLVMTypeRef *pt = xcalloc(np + 1, sizeof *pt);
  LLVMGetParamTypes(t, pt);
  int distance = 0;
  for (unsigned i = 0; i < np && distance >= 0; i++) {
    char act = default_activity(pt[i], mode);
    const char *name;
    Marker mk;
    for (; k < n && (mk = marker_of(LLVMGetArgOperand(call, k), &name)) != MARK_NONE; k++) {
      if (mk == MARK_WIDTH || mk == MARK_TAPE || mk == MARK_ALLOCATED || mk == MARK_PRIMAL_RETURN || mk == MARK_UNKNOWN)
        distance = -1;
      act = activity_of_marker(mk);
    }
    unsigned takes = act == ACT_DUP || act == ACT_DUPNONEED ? 1 + width : 1;
    for (unsigned s = 0; s < takes && distance >= 0; s++, k++) {
      LLVMTypeRef given = k < n ? LLVMTypeOf(LLVMGetArgOperand(call, k)) : NULL;
      bool fits = given && ((ir_is_fp(given) && ir_is_fp(pt[i])) || (ir_is_int(given) && ir_is_int(pt[i])) ||
                            (ir_is_ptr(given) && ir_is_ptr(pt[i])));
      distance = !fits ? -1 : distance + (given != pt[i]);
    }
  }
  free(pt);
  return distance >= 0 && k == n ? distance : -1;
}

/* Whether fn takes a parameter in memory (byval, sret, inalloca), which a call through a pointer of Parad's
 * own would have to pass as the program's calls do. */
static bool takes_memory(LLVMValueRef fn) {
  const char *kinds[] = {"byval", "sret", "inalloca", "preallocated"};
  for (unsigned i = 0, n = LLVMCountParams(fn); i < n; i++)
    for (unsigned q = 0; q < sizeof kinds / sizeof kinds[0]; q++)
      if (LLVMGetEnumAttributeAtIndex(fn, i + 1, ir_attr_kind(kinds[q]))) return true;
  return false;
}

/* The function of Parad's own that calls through its first parameter with the others, for functions of
 * like's type (their extension attributes kept, which the C ABI needs for small integers). */
static LLVMValueRef pointer_caller(LLVMValueRef like) {
  LLVMModuleRef m = LLVMGetGlobalParent(like);
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef t = LLVMGlobalGetValueType(like), ptr = LLVMPointerTypeInContext(c, 0);
  unsigned np = LLVMCountParamTypes(t);
  LLVMTypeRef *pt = xcalloc(np + 1, sizeof *pt);
  pt[0] = ptr;
  LLVMGetParamTypes(t, pt + 1);
  LLVMValueRef w = LLVMAddFunction(m, "parad.through_pointer", LLVMFunctionType(LLVMGetReturnType(t), pt, np + 1, 0));
  LLVMSetLinkage(w, LLVMInternalLinkage);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(c, w, "entry"));
  LLVMValueRef *args = xcalloc(np + 1, sizeof *args);
  for (unsigned i = 0; i < np; i++) args[i] = LLVMGetParam(w, i + 1);
  LLVMValueRef r = LLVMBuildCall2(b, t, LLVMGetParam(w, 0), args, np, "");
  const char *kept[] = {"zeroext", "signext", "noundef"};
  for (unsigned i = 0; i < np; i++)
    for (unsigned q = 0; q < sizeof kept / sizeof kept[0]; q++) {
      LLVMAttributeRef a = LLVMGetEnumAttributeAtIndex(like, i + 1, ir_attr_kind(kept[q]));
      if (!a) continue;
      LLVMAddAttributeAtIndex(w, i + 2, a);
      LLVMAddCallSiteAttribute(r, i + 1, a);
    }
  if (LLVMGetTypeKind(LLVMGetReturnType(t)) == LLVMVoidTypeKind) LLVMBuildRetVoid(b);
  else LLVMBuildRet(b, r);
  free(args);
  free(pt);
  LLVMDisposeBuilder(b);
  return w;
}

/* Functions v may be, followed through selects, phis and the module's calls that pass a parameter (a
 * library's optimiser called with the objective), into out. Not all of them: a pointer may come from
 * memory or from another file's call. But the program declares the pointer of one type, so any of them
 * tells its type. */
static void pointer_origins(LLVMValueRef v, int depth, ValueList *out) {
  v = ir_strip_pointer_casts(v);
  if (depth > 6) return;
  if (LLVMIsAFunction(v)) vec_push(out, v);
  if (LLVMIsASelectInst(v)) {
    pointer_origins(LLVMGetOperand(v, 1), depth + 1, out);
    pointer_origins(LLVMGetOperand(v, 2), depth + 1, out);
  }
  for (unsigned i = 0, n = LLVMIsAPHINode(v) ? LLVMCountIncoming(v) : 0; i < n; i++)
    pointer_origins(LLVMGetIncomingValue(v, i), depth + 1, out);
  if (!LLVMIsAArgument(v)) return;
  LLVMValueRef fn = LLVMGetParamParent(v);
  unsigned index = 0;
  while (LLVMGetParam(fn, index) != v) index++;
  for (LLVMUseRef u = LLVMGetFirstUse(fn); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef call = LLVMGetUser(u);
    if (ir_is_call_site(call) && LLVMGetCalledValue(call) == fn && index < ir_num_call_args(call))
      pointer_origins(LLVMGetArgOperand(call, index), depth + 1, out);
  }
}

/* Of fns, one function of each type that takes the request's arguments from k on at the least distance,
 * into best (at most 3 kept); returns how many types. Of several, those returning a value that carries a
 * derivative (an objective beside a callback of the same parameters) are kept first. */
static unsigned fitting_types(LLVMValueRef call, unsigned k, unsigned n, DiffMode mode, unsigned width, ValueList *fns,
                              LLVMValueRef best[3]) {
  unsigned found = 0;
  int least = -1;
  for (size_t i = 0; i < fns->len; i++) {
    LLVMValueRef fn = fns->data[i];
    LLVMTypeRef t = LLVMGlobalGetValueType(fn);
    int d = LLVMIsFunctionVarArg(t) || takes_memory(fn) ? -1 : argument_distance(call, k, n, t, mode, width);
    if (d < 0 || (least >= 0 && d > least)) continue;
    if (d < least || least < 0) found = 0, least = d;
    bool seen = false;
    for (unsigned q = 0; q < found && q < 3; q++) seen |= LLVMGlobalGetValueType(best[q]) == t;
    if (seen) continue;
    if (found < 3) best[found] = fn;
    found++;
  }
  unsigned valued = 0;
  for (unsigned q = 0; q < found && q < 3; q++)
    if (ir_carries_derivative(LLVMGetReturnType(LLVMGlobalGetValueType(best[q])))) {
      LLVMValueRef f = best[q];
      best[q] = best[valued], best[valued++] = f;
    }
  return found > 1 && valued == 1 && found <= 3 ? 1 : found;
}

/* A function declared here without a prototype (K&R, f2c's `extern doublereal f_();`) and defined in
 * another file: the call types it as variadic, the definition says what it takes. */
static bool unprototyped_elsewhere(LLVMValueRef fn) {
  LLVMTypeRef t = LLVMGlobalGetValueType(fn);
  return LLVMIsDeclaration(fn) && LLVMIsFunctionVarArg(t) && !LLVMCountParamTypes(t);
}

/* The function a request through a pointer differentiates (above), for the arguments from k on; NULL
 * (reported) when it cannot be, and NULL with *waits set when no function of the module takes them:
 * they may be in another file, and the request waits for the link (request_waiting). */
static LLVMValueRef through_pointer(Parse *p, LLVMModuleRef m, unsigned k, unsigned n, DiffMode mode, bool sret, bool *waits) {
  LLVMValueRef pointer = LLVMGetArgOperand(p->call, k);
  if (LLVMIsAConstant(ir_strip_pointer_casts(pointer))) { /* a null, a global variable */
    fail(p, "the first argument must be the function to differentiate, or a pointer to it");
    return NULL;
  }
  if ((mode != MODE_REVERSE && mode != MODE_FORWARD) || p->split_forward || sret) {
    fail(p, "the first argument must be a function named in this file, not a pointer, in split mode or for a "
            "struct returned through memory (a helper that passes on a function it is given is inlined where it is static)");
    return NULL;
  }
  CallMarkers cm = {.width = 1};
  unsigned after = k + 1;
  call_markers(p, &after, n, mode, true, &cm);
  if (p->failed) return NULL;
  /* the functions the pointer is seen to hold tell its type; where none is seen (or fits), every function
     whose address the program takes may be one */
  ValueList fns = {0};
  LLVMValueRef best[3] = {NULL};
  pointer_origins(pointer, 0, &fns);
  unsigned found = fitting_types(p->call, after, n, mode, cm.width, &fns, best);
  if (!found) {
    fns.len = 0;
    indirect_module_candidates(m, NULL, &fns);
    found = fitting_types(p->call, after, n, mode, cm.width, &fns, best);
  }
  vec_free(&fns);
  if (found > 1) {
    fail(p, "the first argument is a pointer to a function, and functions of %u types whose address the program "
            "takes ('%s' and '%s') take these arguments: name the function", found, LLVMGetValueName(best[0]),
         LLVMGetValueName(best[1]));
    return NULL;
  }
  *waits = !found;
  return found ? pointer_caller(best[0]) : NULL;
}

static int canonicalise(LLVMModuleRef m, LLVMValueRef call, DiffMode mode, unsigned serial) {
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  Parse p = {.call = call, .entry = LLVMGetValueName(ir_called_function(call))};
  p.split_forward = strstr(p.entry, "fwdsplit") != NULL;
  unsigned n = ir_num_call_args(call), k = 0;
  bool sret = n > 0 && ir_call_arg_has_attr(call, 0, "sret");
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  LLVMPositionBuilderBefore(b, call);
  if (sret) add_arg(&p, LLVMGetArgOperand(call, k++));

  LLVMValueRef fn = k < n ? named_function(LLVMGetArgOperand(call, k)) : NULL;
  LLVMValueRef pointer = NULL; /* the function is chosen through it (through_pointer) */
  if (k >= n) {
    fail(&p, "the first argument must be the function to differentiate");
  } else if (fn && function_resolver(fn)) {
    fail(&p, "'%s' is an ifunc, whose body its resolver picks when the program starts: name the body to "
             "differentiate (a call of '%s' inside the function differentiated follows the body picked)",
         LLVMGetValueName(fn), LLVMGetValueName(fn));
  } else if (!fn || !LLVMIsAFunction(fn)) {
    pointer = LLVMGetArgOperand(call, k);
    bool waits = false;
    fn = through_pointer(&p, m, k, n, mode, sret, &waits);
    if (waits) { /* left as the program wrote it */
      LLVMDisposeBuilder(b);
      return 0;
    }
  } else if (unprototyped_elsewhere(fn)) { /* its file says its type: wait for the link */
    LLVMDisposeBuilder(b);
    return 0;
  } else if (LLVMIsFunctionVarArg(LLVMGlobalGetValueType(fn))) {
    fail(&p, "cannot differentiate the variadic function '%s'", LLVMGetValueName(fn));
  } else if (LLVMCountParams(fn) && LLVMGetEnumAttributeAtIndex(fn, 1, ir_attr_kind("sret")) &&
             (mode != MODE_FORWARD || p.split_forward || !sret)) {
    /* the C ABI returns a struct of more than 16 bytes through memory the caller passes: forward mode gives
       its tangent back the same way (below); a gradient would need its adjoint, which the call has no place
       for */
    fail(&p, "'%s' returns a struct through memory (more than 16 bytes), whose %s the call cannot give back: "
             "write the result through a pointer parameter instead, and pass it with a shadow",
         LLVMGetValueName(fn), mode == MODE_FORWARD ? "tangent (unless declared returning that struct)" : "derivative");
  }
  if (p.failed) {
    LLVMDisposeBuilder(b);
    return 1;
  }
  p.fn_name = LLVMGetValueName(fn);
  char *pointed = NULL;
  if (pointer) {
    size_t len;
    const char *name = LLVMGetValueName2(ir_strip_pointer_casts(pointer), &len);
    p.fn_name = pointed = xasprintf("*%s", len ? name : "(the pointer)");
  }
  add_arg(&p, fn); /* the function itself, not the call that returned it */
  k++;

  CallMarkers cm = {.width = 1};
  call_markers(&p, &k, n, mode, true, &cm);
  unsigned width = cm.width, nparams = LLVMCountParams(fn);
  char *activity = xcalloc(nparams + 1, 1);
  LLVMValueRef *values = xcalloc(nparams + 1, sizeof *values);
  /* a struct result returned through memory (forward mode, the call declared returning the struct too):
     the result and its tangent go to buffers of the request's own, the tangent then to the call's result */
  LLVMAttributeRef fn_sret = nparams ? LLVMGetEnumAttributeAtIndex(fn, 1, ir_attr_kind("sret")) : NULL;
  LLVMValueRef tangent_out = NULL;
  LLVMTypeRef out_type = fn_sret ? LLVMGetTypeAttributeValue(fn_sret) : NULL;
  if (fn_sret && width != 1) fail(&p, "'%s' returns a struct through memory: one direction at a time", p.fn_name);
  if (fn_sret && !p.failed && ir_type_size(m, ir_call_arg_type_attr(call, 0, "sret")) != ir_type_size(m, out_type))
    fail(&p, "declare the call as returning the struct '%s' returns (%llu bytes)", p.fn_name, ir_type_size(m, out_type));
  if (fn_sret && !p.failed) {
    LLVMValueRef caller = LLVMGetBasicBlockParent(LLVMGetInstructionParent(call));
    LLVMValueRef out = ir_entry_alloca(caller, out_type, "result");
    tangent_out = ir_entry_alloca(caller, out_type, "result.tangent");
    LLVMBuildStore(b, LLVMConstNull(out_type), tangent_out);
    add_arg(&p, out);
    add_arg(&p, tangent_out);
    values[0] = out;
    activity[0] = ACT_DUP;
  }
  bool by_value = false; /* a constant struct passed by value (byval, in memory) */
  if (pointer) { /* the pointer first, constant: the function's own parameters follow */
    add_arg(&p, pointer);
    values[0] = pointer;
    activity[0] = ACT_CONST;
  }
  for (unsigned i = fn_sret || pointer ? 1 : 0; i < nparams && !p.failed; i++) {
    LLVMTypeRef pt = LLVMTypeOf(LLVMGetParam(fn, i));
    bool byval = LLVMGetEnumAttributeAtIndex(fn, i + 1, ir_attr_kind("byval")) != NULL;
    unsigned shown = pointer ? i : i + 1; /* the program's numbering */
    /* a struct passed in registers: its parts share the markers, and the type that decides is a float's */
    unsigned parts = struct_parts(fn, i);
    for (unsigned q = 1; q < parts && !ir_carries_derivative(pt); q++) pt = LLVMTypeOf(LLVMGetParam(fn, i + q));
    char act = default_activity(pt, mode);
    if (act == ACT_DUP && ir_is_ptr(pt) && mpi_handle_only(LLVMGetParam(fn, i))) act = ACT_CONST; /* an Open MPI handle */
    bool explicit = false;
    while (k < n && !p.failed) {
      const char *mname = NULL;
      Marker mk = marker_of(LLVMGetArgOperand(call, k), &mname);
      if (mk == MARK_NONE) break;
      if (mk == MARK_TAPE || mk == MARK_ALLOCATED || mk == MARK_WIDTH || mk == MARK_PRIMAL_RETURN) {
        call_markers(&p, &k, n, mode, false, &cm);
        continue;
      }
      if (mk == MARK_UNKNOWN)
        fail(&p, "unsupported marker '%s'", mname);
      else if (explicit)
        fail(&p, "two activity markers for parameter #%u", shown);
      act = activity_of_marker(mk);
      explicit = true;
      k++;
    }
    if (p.failed) break;
    LLVMTypeRef held = byval ? LLVMGetTypeAttributeValue(LLVMGetEnumAttributeAtIndex(fn, i + 1, ir_attr_kind("byval"))) : NULL;
    /* a struct of pointers (and integers): its shadow's pointers take the adjoints to the caller's memory */
    bool pointers_only = held && !ir_contains_fp(held) && ir_contains_ptr(held);
    if (byval && !(explicit && act == ACT_CONST) && !(act == ACT_DUP && (mode == MODE_FORWARD || pointers_only))) {
      /* a gradient would be added into a copy the call makes of the shadow, lost to the caller */
      bool vector = held && LLVMGetTypeKind(held) == LLVMVectorTypeKind; /* a v4d without -mavx */
      fail(&p, "parameter #%u of '%s' is a %s passed by value in memory: mark it %s (a constant)%s, or pass a "
               "pointer to it instead", shown, p.fn_name, vector ? "vector" : "struct", marker_spelling(p.entry, ACT_CONST),
           mode == MODE_FORWARD ? " or pass its tangent after it" : "");
      break;
    }
    by_value |= byval;
    if (act == ACT_OUT && mode == MODE_FORWARD) {
      fail(&p, "%s (an active scalar whose gradient is returned) is a reverse-mode marker; use %s for parameter #%u",
           marker_spelling(p.entry, ACT_OUT), marker_spelling(p.entry, ACT_DUP), shown);
      break;
    }
    bool active = act == ACT_DUP || act == ACT_DUPNONEED || act == ACT_OUT;
    for (unsigned q = 0; q < parts && active && !p.failed; q++)
      if (floats_in_integer_part(LLVMGetParam(fn, i + q)))
        fail(&p, "parameter #%u of '%s' is a struct that the C ABI passes with float fields and integer fields in "
                 "one integer register, where their derivatives cannot be followed: pass a pointer to it (%s, "
                 "with a shadow) instead", shown, p.fn_name, marker_spelling(p.entry, ACT_DUP));
    if (p.failed) break;
    if (active && !ir_carries_derivative(pt)) {
      fail(&p, "%s given for parameter #%u of '%s', which is an integer and has no derivative",
           marker_spelling(p.entry, act), shown, p.fn_name);
      break;
    }
    if (mode != MODE_FORWARD && (act == ACT_DUP || act == ACT_DUPNONEED) && !ir_is_ptr(pt)) {
      fail(&p, "%s given for parameter #%u of '%s', a scalar: in reverse mode its gradient is returned (%s)",
           marker_spelling(p.entry, act), shown, p.fn_name, marker_spelling(p.entry, ACT_OUT));
      break;
    }
    if (act == ACT_OUT && ir_is_ptr(pt)) {
      fail(&p, "%s given for parameter #%u of '%s', a pointer: pass it with %s and a shadow buffer "
               "that receives its gradient", marker_spelling(p.entry, ACT_OUT), shown, p.fn_name, marker_spelling(p.entry, ACT_DUP));
      break;
    }
    if (parts > 1) {
      struct_arguments(&p, b, &k, n, fn, i, parts, act, width, activity, values);
      i += parts - 1;
      continue;
    }
    if (k >= n) {
      fail(&p, "too few arguments: no value for parameter #%u", shown);
      break;
    }
    LLVMValueRef given = LLVMGetArgOperand(call, k++), v = request_convert_argument(b, given, pt);
    if (!v) {
      fail(&p, "the argument for parameter #%u does not have the parameter's type (%s given, '%s' takes %s)", shown,
           ir_type_name(LLVMTypeOf(given)), p.fn_name, ir_type_name(pt));
      break;
    }
    add_arg(&p, v);
    values[i] = v;
    if (act == ACT_DUP || act == ACT_DUPNONEED) {
      for (unsigned w = 0; w < width && !p.failed; w++) {
        if (k >= n) {
          fail(&p, "too few arguments: parameter #%u is duplicated but its shadow is missing", shown);
          break;
        }
        LLVMValueRef given = LLVMGetArgOperand(call, k++), s = request_convert_argument(b, given, pt);
        if (!s)
          fail(&p, "the shadow of parameter #%u does not have the parameter's type (%s given, '%s' takes %s): a "
                   "duplicated parameter is followed by its shadow; was the shadow left out, or is the parameter "
                   "meant to be %s?", shown, ir_type_name(LLVMTypeOf(given)), p.fn_name, ir_type_name(pt),
               marker_spelling(p.entry, ACT_CONST));
        else
          add_arg(&p, s);
      }
    }
    activity[i] = act;
  }
  /* split mode: the reverse takes the adjoint of an active result, then the tape (Enzyme's tape markers may
     come before or after the adjoint; without a marker, the tape is the last argument) */
  call_markers(&p, &k, n, mode, false, &cm);
  LLVMTypeRef rt = LLVMGetReturnType(LLVMGlobalGetValueType(fn));
  if (!p.failed && mode == MODE_REVERSE_SPLIT) {
    if (ir_is_fp_or_fp_vector(rt) || (LLVMGetTypeKind(rt) == LLVMStructTypeKind && ir_contains_fp(rt))) {
      LLVMValueRef d = k < n ? request_convert_argument(b, LLVMGetArgOperand(call, k), rt) : NULL;
      if (d) k++;
      else if (k < n) d = gather_struct(b, call, &k, n, rt);
      if (!d) fail(&p, "after the arguments, pass the adjoint of the result of '%s' (a %s)", p.fn_name, ir_type_name(rt));
      else add_arg(&p, d);
    }
    call_markers(&p, &k, n, mode, false, &cm);
    if (!p.failed && !cm.tape && k + 1 == n && ir_is_ptr(LLVMTypeOf(LLVMGetArgOperand(call, k))))
      cm.tape = LLVMGetArgOperand(call, k++);
    if (!p.failed && !cm.tape)
      fail(&p, "the tape is missing: end the arguments with the tape __parad_augmentfwd returned (after parad_tape, "
               "or alone)");
  }
  /* split forward mode: the tape last (after a marker, or alone; Enzyme's programs pass null where the
     function needs none), and a function that a second run computes the same */
  if (!p.failed && p.split_forward) {
    if (!cm.tape && k + 1 == n && ir_is_ptr(LLVMTypeOf(LLVMGetArgOperand(call, k)))) cm.tape = LLVMGetArgOperand(call, k++);
    char why[400];
    if (k == n && !split_forward_recomputable(fn, values, why, sizeof why))
      fail(&p, "Parad's split forward mode runs '%s' again beside its tangents, which would not compute what its "
               "first run did: %s; use __enzyme_fwddiff", p.fn_name, why);
  }
  free(values);
  /* the augmented forward call stores the tape wherever a tape marker points; the reverse call reads it
     from there when that is a user buffer (enzyme_allocated), else takes it as it is */
  bool tape_indirect = cm.tape && (mode == MODE_AUGMENT || cm.allocated);
  if (!p.failed && cm.tape && (mode == MODE_AUGMENT || mode == MODE_REVERSE_SPLIT)) add_arg(&p, cm.tape);
  if (!p.failed && k < n) fail(&p, "too many arguments for '%s' (it has %u parameters)", p.fn_name, nparams);

  if (p.failed) {
    free(activity);
    free(pointed);
    LLVMDisposeBuilder(b);
    return 1;
  }
  if (by_value) p.args[sret ? 1 : 0] = by_reference(fn);

  /* The canonical request: a declaration of its own, carrying the parsed facts as attributes. */
  char name[64];
  snprintf(name, sizeof name, REQUEST_PREFIX "%u", serial);
  LLVMTypeRef ret = LLVMTypeOf(call);
  LLVMTypeRef fty = LLVMFunctionType(ret, p.types, p.nargs, 0);
  LLVMValueRef decl = LLVMAddFunction(m, name, fty);
  /* a derivative does not throw (a throw on the path it differentiates stops the program): where the
     optimiser inlines a helper that makes the request into C++ code with destructors to run, the request
     stays a call, not an invoke the generators would not find */
  LLVMAddAttributeAtIndex(decl, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ctx, ir_attr_kind("nounwind"), 0));
  char wbuf[16];
  snprintf(wbuf, sizeof wbuf, "%u", width);
  char *layout = mode == MODE_FORWARD ? NULL : out_layout(m, fn, activity);
  const char *keys[7] = {"parad-mode", "parad-width", "parad-activity", "parad-tape", "parad-entry", "parad-out-layout",
                         "parad-primal-return"};
  const char *vals[7] = {request_mode_name(mode), wbuf, activity, tape_indirect ? "indirect" : "direct", p.entry, layout, ""};
  for (int i = 0; i < 7; i++)
    if (vals[i] && (i < 6 || cm.primal_return))
      LLVMAddAttributeAtIndex(decl, LLVMAttributeFunctionIndex,
                              LLVMCreateStringAttribute(ctx, keys[i], strlen(keys[i]), vals[i], strlen(vals[i])));
  free(layout);
  LLVMValueRef canon = LLVMBuildCall2(b, fty, decl, p.args, p.nargs, "");
  if (sret) {
    LLVMTypeRef st = ir_call_arg_type_attr(call, 0, "sret");
    LLVMAttributeRef a = LLVMCreateTypeAttribute(ctx, ir_attr_kind("sret"), st);
    LLVMAddAttributeAtIndex(decl, 1, a);
    LLVMAddCallSiteAttribute(canon, 1, a);
  }
  LLVMInstructionSetDebugLoc(canon, LLVMInstructionGetDebugLoc(call));
  if (p.split_forward && cm.tape) { /* the augmented call's tape, given back (as Enzyme frees it) */
    LLVMTypeRef ptr = LLVMTypeOf(cm.tape);
    LLVMValueRef tape = cm.allocated ? LLVMBuildLoad2(b, ptr, cm.tape, "tape") : cm.tape;
    ir_call_named(b, "__parad_rt_tape_drop", LLVMFunctionType(LLVMVoidTypeInContext(ctx), &ptr, 1, 0), &tape, 1);
  }
  if (tangent_out) /* after the request: it writes zero there, the tangent of a function that returns nothing */
    LLVMBuildMemCpy(b, LLVMGetArgOperand(call, 0), 8, tangent_out, 8,
                    LLVMConstInt(LLVMInt64TypeInContext(ctx), ir_type_size(m, out_type), 0));
  LLVMReplaceAllUsesWith(call, canon);
  /* The markers were read for this call only: once it is gone, so are they (at -O0 nothing else
   * would remove the loads, and the program need not define the marker globals). */
  VEC(LLVMValueRef) markers = {0};
  for (unsigned i = 0; i < n; i++) {
    const char *mname;
    LLVMValueRef a = LLVMGetArgOperand(call, i);
    if (marker_of(a, &mname) != MARK_NONE) vec_push(&markers, a);
  }
  LLVMInstructionEraseFromParent(call);
  for (size_t i = 0; i < markers.len; i++) {
    bool seen = false; /* the same load may be passed twice */
    for (size_t j = 0; j < i; j++) seen |= markers.data[j] == markers.data[i];
    if (!seen && !LLVMGetFirstUse(markers.data[i])) LLVMInstructionEraseFromParent(markers.data[i]);
  }
  vec_free(&markers);
  free(activity);
  free(pointed);
  LLVMDisposeBuilder(b);
  return 0;
}

/* Enzyme's C++ spelling, a function template (template <typename R, typename... Args> R
 * __enzyme_autodiff(void *, Args...)), gives each use its own mangled declaration, _Z17__enzyme_autodiffI...;
 * a plain C++ declaration without extern "C" (`double __enzyme_autodiff(void *, ...);`, as Enzyme's C++
 * users also write it) one for the program, _Z17__enzyme_autodiffPvz: the plain name with "_cxx" appended
 * (C programs' variants have suffixes too), or NULL. Caller frees. */
static char *unmangled_entry_name(const char *name) {
  if (strncmp(name, "_Z", 2)) return NULL;
  char *end;
  unsigned long len = strtoul(name + 2, &end, 10);
  if (end == name + 2 || strlen(end) <= len) return NULL; /* no parameters after the name: not a function's */
  char *plain = xasprintf("%.*s_cxx", (int)len, end);
  if (unknown_entry_point_name(plain)) return plain;
  free(plain);
  return NULL;
}

bool request_is_cxx_entry_name(const char *name) {
  char *plain = unmangled_entry_name(name);
  free(plain);
  return plain != NULL;
}

static void unmangle_entry_points(LLVMModuleRef m) {
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    char *plain = LLVMIsDeclaration(f) ? unmangled_entry_name(LLVMGetValueName(f)) : NULL;
    if (plain) LLVMSetValueName2(f, plain, strlen(plain)); /* LLVM numbers the repeats */
    free(plain);
  }
}

static int entry_taken(LLVMValueRef f, LLVMValueRef v, int depth);

int request_canonicalise_all(LLVMModuleRef m) {
  unmangle_entry_points(m);
  VEC(LLVMValueRef) calls = {0};
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (ir_is_call(i) || LLVMIsAInvokeInst(i)) vec_push(&calls, i);
  int errors = 0;
  unsigned serial = 0; /* after those of an earlier pass (the checkpointed loops' own requests come later) */
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    serial += !strncmp(LLVMGetValueName(f), REQUEST_PREFIX, strlen(REQUEST_PREFIX));
  for (size_t i = 0; i < calls.len; i++) {
    LLVMValueRef call = calls.data[i];
    LLVMValueRef callee = ir_called_function(call);
    DiffMode mode;
    if (callee && LLVMIsDeclaration(callee) && (!strncmp(ir_called_name(call), "__enzyme_augmentsize", 20) ||
                                                !strncmp(ir_called_name(call), "__parad_augmentsize", 19))) {
      /* Enzyme's split mode sizes the user's tape buffer: it holds Parad's tape handle */
      LLVMTypeRef t = LLVMTypeOf(call);
      if (ir_is_int(t)) {
        LLVMReplaceAllUsesWith(call, LLVMConstInt(t, 8, 0));
        LLVMInstructionEraseFromParent(call);
      } else {
        diag_error_plain(call, "%s must be declared as returning an integer", ir_called_name(call));
        errors++;
      }
    } else if (entry_point(callee, &mode)) {
      /* from C++ with destructors to run: the derivative's own throw (none on the path it differentiates)
         would skip them, as a C caller's would */
      if (LLVMIsAInvokeInst(call) && !(call = ad_invoke_to_call(call))) {
        diag_error_plain(calls.data[i], "%s: cannot be called with exception handling (invoke) whose landing pad has phis", LLVMGetValueName(callee));
        errors++;
      } else {
        errors += canonicalise(m, call, mode, serial++);
      }
    } else if (unknown_entry_point(callee)) {
      diag_error_plain(call, "unknown or unsupported Parad/Enzyme entry point '%s'", LLVMGetValueName(callee));
      errors++;
    }
  }
  vec_free(&calls);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (entry_point(f, &(DiffMode){0})) errors += entry_taken(f, f, 0);
  return errors;
}

int request_waiting(LLVMModuleRef m, bool report) {
  int waiting = 0;
  DiffMode mode;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMUseRef u = entry_point(f, &mode) ? LLVMGetFirstUse(f) : NULL; u; u = LLVMGetNextUse(u)) {
      LLVMValueRef call = LLVMGetUser(u);
      if (!ir_is_call_site(call) || LLVMGetCalledValue(call) != f) continue;
      LLVMValueRef fn = ir_strip_pointer_casts(LLVMGetArgOperand(call, request_fn_arg(call)));
      if (report && LLVMIsAFunction(fn) && unprototyped_elsewhere(fn))
        diag_error_plain(call, "%s: '%s' is declared without a prototype and defined in no file Parad compiled: "
                               "compile the file that defines it with parad-cc, or declare its parameters",
                         LLVMGetValueName(f), LLVMGetValueName(fn));
      else if (report)
        diag_error_plain(call, "%s: the first argument is a pointer to a function, and no function whose address the "
                               "program takes (of its files that Parad compiled) takes these arguments as their "
                               "markers give them: name the function", LLVMGetValueName(f));
      waiting++;
    }
  return waiting;
}

/* Uses of entry point f (through constant casts, v) that are no call of it: a function pointer to it (a
 * wrapper library's table), called where Parad cannot see the request, ended as a link error with no
 * place. Refused at each instruction using it; errors returned. */
static int entry_taken(LLVMValueRef f, LLVMValueRef v, int depth) {
  int errors = 0;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u && depth < 4; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (ir_is_call_site(user) && LLVMGetCalledValue(user) == v) continue;
    if (LLVMIsAConstantExpr(user)) {
      errors += entry_taken(f, user, depth + 1);
      continue;
    }
    if (LLVMIsAInstruction(user))
      diag_error_plain(user, "%s is taken here as a function pointer: Parad finds the derivatives a program asks for "
                             "in direct calls of its entry points only; call %s itself, where the function to "
                             "differentiate is passed", LLVMGetValueName(f), LLVMGetValueName(f));
    else
      diag_error(NULL, "%s is taken as a function pointer (in a global's initial value): Parad finds the "
                       "derivatives a program asks for in direct calls of its entry points only",
                 LLVMGetValueName(f));
    errors++;
  }
  return errors;
}

/* ---- reading canonical requests ---- */

bool request_is_canonical_call(LLVMValueRef call) {
  LLVMValueRef fn = ir_is_call(call) ? ir_called_function(call) : NULL;
  return fn && !strncmp(LLVMGetValueName(fn), REQUEST_PREFIX, strlen(REQUEST_PREFIX));
}

static const char *string_attr(LLVMValueRef fn, const char *key) {
  LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, key, strlen(key));
  if (!a) return NULL;
  unsigned len;
  return LLVMGetStringAttributeValue(a, &len);
}

unsigned request_arg_index(const Request *r, unsigned p) {
  unsigned k = r->first_arg;
  for (unsigned i = 0; i < p; i++) k += 1 + ((r->activity[i] == ACT_DUP || r->activity[i] == ACT_DUPNONEED) ? r->width : 0);
  return k;
}

unsigned request_fn_arg(LLVMValueRef call) {
  return ir_num_call_args(call) > 0 && ir_call_arg_has_attr(call, 0, "sret") ? 1 : 0;
}

bool request_decode(LLVMValueRef call, Request *out) {
  memset(out, 0, sizeof *out);
  LLVMValueRef decl = ir_called_function(call);
  const char *mode = string_attr(decl, "parad-mode"), *width = string_attr(decl, "parad-width"),
             *act = string_attr(decl, "parad-activity");
  out->call = call;
  unsigned fi = request_fn_arg(call);
  out->sret = fi == 1;
  out->fn = fi < ir_num_call_args(call) ? ir_strip_pointer_casts(LLVMGetArgOperand(call, fi)) : NULL;
  out->first_arg = fi + 1;
  const char *tape = string_attr(decl, "parad-tape"), *entry = string_attr(decl, "parad-entry");
  out->entry = entry ? entry : "__parad_autodiff";
  out->tape_indirect = tape && !strcmp(tape, "indirect");
  const char *layout = string_attr(decl, "parad-out-layout");
  out->out_layout = layout ? xstrdup(layout) : NULL;
  out->primal_return = string_attr(decl, "parad-primal-return") != NULL;
  if (!mode || !width || !act || !mode_from_name(mode, &out->mode) || !out->fn || !LLVMIsAFunction(out->fn) ||
      strlen(act) != LLVMCountParams(out->fn)) {
    diag_error_plain(call, "parad: internal error: malformed derivative request");
    return false;
  }
  out->width = (unsigned)atoi(width);
  out->activity = xstrdup(act);
  LLVMTypeRef rt = LLVMGetReturnType(LLVMGlobalGetValueType(out->fn));
  unsigned trailing = out->tape_indirect;
  if (out->mode == MODE_REVERSE_SPLIT)
    trailing = 1 + (ir_is_fp_or_fp_vector(rt) || (LLVMGetTypeKind(rt) == LLVMStructTypeKind && ir_contains_fp(rt)));
  if (request_arg_index(out, LLVMCountParams(out->fn)) + trailing != ir_num_call_args(call)) {
    diag_error_plain(call, "parad: internal error: derivative request has the wrong number of arguments");
    request_free(out);
    return false;
  }
  return true;
}

void request_free(Request *r) {
  free(r->activity);
  free(r->out_layout);
  r->activity = NULL;
  r->out_layout = NULL;
}

RequestChoice request_choice(LLVMValueRef call, LLVMValueRef other) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(call));
  RequestChoice ch = {.head = cfg_split_before(c, call), .join = LLVMGetInstructionParent(call)};
  ch.plain = LLVMInsertBasicBlockInContext(c, ch.join, "");
  ch.other = LLVMInsertBasicBlockInContext(c, ch.join, "");
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMInstructionRemoveFromParent(call);
  LLVMPositionBuilderAtEnd(b, ch.plain);
  LLVMInsertIntoBuilder(b, call);
  LLVMBuildBr(b, ch.join);
  LLVMPositionBuilderAtEnd(b, ch.other);
  LLVMValueRef t = LLVMInstructionClone(call);
  LLVMInsertIntoBuilder(b, t);
  LLVMSetOperand(t, request_fn_arg(t), other);
  LLVMBuildBr(b, ch.join);
  LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(c, ir_attr_kind("nomerge"), 0));
  LLVMAddCallSiteAttribute(t, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(c, ir_attr_kind("nomerge"), 0));
  if (LLVMGetTypeKind(LLVMTypeOf(call)) != LLVMVoidTypeKind && LLVMGetFirstUse(call)) {
    LLVMPositionBuilderBeforeInstrAndDbgRecords(b, LLVMGetFirstInstruction(ch.join)); /* the phi before any debug record */
    LLVMValueRef r = LLVMBuildPhi(b, LLVMTypeOf(call), "");
    LLVMReplaceAllUsesWith(call, r);
    LLVMValueRef vs[2] = {call, t};
    LLVMBasicBlockRef bs[2] = {ch.plain, ch.other};
    LLVMAddIncoming(r, vs, bs, 2);
  }
  LLVMDisposeBuilder(b);
  return ch;
}

static void reach(LLVMValueRef g, ValueMap *seen, ValueList *work) {
  g = g ? ir_strip_pointer_casts(g) : NULL;
  LLVMValueRef version = function_default_version(g), resolver = version ? NULL : function_resolver(g);
  if (version) g = version;
  if (resolver) { /* a hand-written ifunc: the bodies its resolver picks from */
    ValueList bodies = {0};
    function_resolver_choices(resolver, &bodies);
    reach(resolver, seen, work);
    for (size_t k = 0; k < bodies.len; k++) reach(bodies.data[k], seen, work);
    vec_free(&bodies);
    return;
  }
  if (!g || !LLVMIsAFunction(g) || !LLVMCountBasicBlocks(g) || vmap_has(seen, g)) return;
  vmap_put(seen, g, g);
  vec_push(work, g);
}

/* Whether fn sits in a table a global's initializer holds (`static Term terms[] = {linear, square}`). */
static bool in_table(LLVMValueRef fn) {
  for (LLVMUseRef u = LLVMGetFirstUse(fn); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if ((LLVMIsAGlobalVariable(user) && strncmp(LLVMGetValueName(user), "llvm.", 5)) || LLVMIsAConstantArray(user) ||
        LLVMIsAConstantStruct(user) || LLVMIsAConstantVector(user))
      return true;
  }
  return false;
}

/* A call through a pointer reaches the functions of the module of its type that tables hold (ad/indirect.h):
 * a table of functions is as much the program as a direct call. (Not every function whose address is
 * taken: a finite-difference helper's callback of the same type is no callee of the program's.) */
static void reach_indirect(LLVMValueRef call, ValueMap *seen, ValueList *work) {
  LLVMValueRef callee = ir_strip_pointer_casts(LLVMGetCalledValue(call));
  if (LLVMIsAFunction(callee) || LLVMIsAInlineAsm(callee)) return;
  ValueList held = {0};
  indirect_module_candidates(LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInstructionParent(call))),
                             LLVMGetCalledFunctionType(call), &held);
  for (size_t k = 0; k < held.len; k++)
    if (in_table(held.data[k])) reach(held.data[k], seen, work);
  vec_free(&held);
}

static void reach_all(ValueMap *out, ValueList *work) {
  for (size_t k = 0; k < work->len; k++)
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(work->data[k]); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
        if (!ir_is_call_site(i)) continue;
        for (int o = 0, n = LLVMGetNumOperands(i); o < n; o++) reach(LLVMGetOperand(i, o), out, work);
        reach_indirect(i, out, work);
      }
  vec_free(work);
}

void request_functions_from(LLVMValueRef fn, ValueMap *out) {
  ValueList work = {0};
  reach(fn, out, &work);
  reach_all(out, &work);
}

void request_reached_functions(LLVMModuleRef m, ValueMap *out) {
  ValueList work = {0};
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (request_is_canonical_call(i)) reach(LLVMGetOperand(i, request_fn_arg(i)), out, &work);
  reach_all(out, &work);
}
