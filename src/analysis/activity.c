#include "analysis/activity.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ad/body.h"
#include "ad/constants.h"
#include "ad/custom.h"
#include "ad/global_shadows.h"
#include "ad/indirect.h"
#include "analysis/calls.h"
#include "analysis/memtype.h"
#include "ir/ir.h"
#include "mpi/mpi.h"
#include "omp/omp.h"

enum {
  VARIED = 1,   /* carries a tangent */
  SHADOWED = 2, /* a pointer with a shadow */
  PTRINT = 4,   /* an integer computed from the address of shadowed memory */
  BITS = 8,     /* an integer computed from the bits of an active float */
  WANTS = 16,   /* a constant pointer parameter through which active data would be stored */
};

/* Memory an integer carrying PTRINT or BITS was stored into (at -O0 every local is such a slot): the
 * address with its constant offsets stripped, and their sum. */
typedef struct {
  LLVMValueRef base;
  long long offset;
  unsigned taint;
} TaintedSlot;

/* The bytes [lo, hi) of an object that floats' bits may be stored or copied into as integers (an integer
 * read there may carry a derivative); hi is INT64_MAX where the length or the place is not a constant. */
typedef struct {
  LLVMValueRef object;
  long long lo, hi;
} BitsBytes;

struct Activity {
  LLVMValueRef fn;
  char *pattern;
  ValueMap flags; /* value -> VARIED | SHADOWED | PTRINT | BITS | WANTS */
  VEC(TaintedSlot) slots;
  VEC(BitsBytes) bits_bytes;
  ValueMap lost_in_callee; /* call -> the instruction of its callee that loses a derivative it was given */
  ValueMap callees;        /* a call returning a struct of pointers -> its callee's analysis (field_fails) */
  LLVMValueRef lost;       /* the first instruction of this function (or of a callee) that loses one */
  unsigned ret_taint;      /* PTRINT | BITS of the values it returns */
  bool ret_active;
  bool ret_shadow_wanted; /* the pattern ends in 'r': a caller keeps the returned pointer in active memory */
  bool done; /* false while the analysis runs: recursion asks before there is an answer */
};

struct ActivityCache {
  VEC(Activity *) list;
};

static unsigned flags_of(const Activity *a, LLVMValueRef v) {
  unsigned f = (unsigned)(uintptr_t)vmap_get(&a->flags, v);
  /* a constant address into a global (a getelementptr, a cast: `load ... getelementptr (i8, @work, 40)`)
     points into shadowed memory where the global is shadowed */
  LLVMValueRef base = v;
  while (!f && base && LLVMIsAConstantExpr(base)) {
    LLVMOpcode op = LLVMGetConstOpcode(base);
    if (op != LLVMGetElementPtr && op != LLVMBitCast && op != LLVMAddrSpaceCast) break;
    base = LLVMGetOperand(base, 0);
    f = (unsigned)(uintptr_t)vmap_get(&a->flags, base) & SHADOWED;
  }
  return f;
}

static bool add_flags(Activity *a, LLVMValueRef v, unsigned f) {
  unsigned old = flags_of(a, v);
  if ((old | f) == old) return false;
  vmap_put(&a->flags, v, (void *)(uintptr_t)(old | f));
  return true;
}

bool activity_varied(const Activity *a, LLVMValueRef v) { return flags_of(a, v) & VARIED; }
bool activity_shadowed(const Activity *a, LLVMValueRef v) { return flags_of(a, v) & SHADOWED; }
bool activity_active(const Activity *a, LLVMValueRef v) { return flags_of(a, v) & (VARIED | SHADOWED); }

/* A store of an active value at address p or at one computed from it (depth: steps of address
   arithmetic followed). */
static LLVMValueRef active_store_at(const Activity *a, LLVMValueRef p, int depth) {
  for (LLVMUseRef u = LLVMGetFirstUse(p); u && depth < 8; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u), found = NULL;
    if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == p && activity_active(a, LLVMGetOperand(user, 0))) return user;
    if (LLVMIsAGetElementPtrInst(user) || LLVMIsABitCastInst(user)) found = active_store_at(a, user, depth + 1);
    if (found) return found;
  }
  return NULL;
}

LLVMValueRef activity_active_store_through(const Activity *a, LLVMValueRef slot) {
  if (!LLVMIsAAllocaInst(slot)) return NULL;
  for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef load = LLVMGetUser(u), found = LLVMIsALoadInst(load) ? active_store_at(a, load, 0) : NULL;
    if (found) return found;
  }
  return NULL;
}
bool activity_any_active_argument(const Activity *a, LLVMValueRef call, unsigned *which) {
  for (unsigned i = 0, n = ir_num_call_args(call); i < n; i++)
    if (activity_active(a, LLVMGetArgOperand(call, i))) {
      if (which) *which = i;
      return true;
    }
  return false;
}
bool activity_from_shadowed_address(const Activity *a, LLVMValueRef v) { return flags_of(a, v) & PTRINT; }

bool activity_load_from_unknown_integer(const Activity *a, LLVMValueRef load) {
  LLVMValueRef n = ir_address_integer(LLVMGetOperand(load, 0));
  return n && !activity_active(a, load) && ir_carries_derivative(LLVMTypeOf(load)) && !activity_from_shadowed_address(a, n);
}

bool activity_from_float_bits(const Activity *a, LLVMValueRef v) { return flags_of(a, v) & BITS; }
bool activity_return_active(const Activity *a) { return a->ret_active; }

/* Marks v as carrying a derivative: a pointer gets a shadow, anything else a tangent (an integer's
 * tangent is the raw bits of its shadow: a float copied as an integer, see memtype.h). */
static bool mark(Activity *a, LLVMValueRef v) {
  return add_flags(a, v, ir_is_ptr(LLVMTypeOf(v)) ? SHADOWED : VARIED);
}

/* The same for a value an aggregate may be: a struct of pointers gets a shadow struct beside its
 * tangent (see "Pointers in structs" below). */
static unsigned holder_flags(LLVMValueRef v) {
  LLVMTypeRef t = LLVMTypeOf(v);
  return ir_is_ptr(t) ? SHADOWED : ir_is_pointer_aggregate(t) ? VARIED | SHADOWED : VARIED;
}
static bool mark_holder(Activity *a, LLVMValueRef v) { return add_flags(a, v, holder_flags(v)); }

static bool active(const Activity *a, LLVMValueRef v) { return activity_active(a, v); }

typedef struct {
  ValueMap merges; /* the phis and selects walked (made on the first): pointers swapped by a loop make
                      cycles of phis, and diamonds of them would be walked once per path */
  bool seen_any;
} ShadowWalk;

static bool first_visit(ShadowWalk *w, LLVMValueRef merge) {
  if (!w->seen_any) vmap_init(&w->merges), w->seen_any = true;
  if (vmap_has(&w->merges, merge)) return false;
  vmap_put(&w->merges, merge, NULL);
  return true;
}

/* Whether the stack slot p only ever holds parameters of its function: stored there, read back, and handed
 * to calls that never need its shadow (a checkpointed loop's function, whose variables stay in memory, for
 * a pointer no derivative of it needs the shadow of: see ad/checkpoint.c). */
static bool holds_parameters(LLVMValueRef p) {
  if (!LLVMIsAAllocaInst(p)) return false;
  bool stored = false, handed = false;
  for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsALoadInst(user) || ir_is_debug_intrinsic(user) || ir_is_lifetime_marker(user)) continue;
    if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == p && LLVMIsAArgument(LLVMGetOperand(user, 0))) {
      stored = true;
      continue;
    }
    if (!ir_is_call(user) || LLVMGetCalledValue(user) == p) return false;
    for (unsigned i = 0, n = ir_num_call_args(user); i < n; i++)
      if (LLVMGetArgOperand(user, i) == p && !custom_param_needs_no_shadow(ir_called_function(user), i)) return false;
    handed = true;
  }
  return stored && handed; /* (a parameter's slot at -O0 alone keeps its own shadow) */
}

static bool walk_to_owner(Activity *a, ShadowWalk *w, LLVMValueRef p, int depth);

/* ---- pointers in structs ----
 * A function that returns a struct of pointers (a span {double *data; long n}, a pair of iterators)
 * returns them in one aggregate value, which the optimiser leaves as insertvalue and extractvalue where
 * the function is not inlined. Such an aggregate, SHADOWED, has a shadow of its own type holding each
 * pointer field's shadow; a field without one holds null there, and a pointer extracted from that field
 * is not shadowed, so that what needs its shadow is refused where it is. A field is named by its index
 * path (n indices; none: every pointer in the value). */

enum { MAX_FIELD_PATH = 8 };

typedef enum { FIELD_APART, FIELD_INSIDE, FIELD_OVER } FieldOverlap;

/* How insertvalue ins meets the field asked: it puts the field or a value holding it (INSIDE, *skip its
 * own indices), it puts a part of the field (OVER), or another field (APART). */
static FieldOverlap field_overlap(LLVMValueRef ins, const unsigned *idx, unsigned n, unsigned *skip) {
  unsigned m = LLVMGetNumIndices(ins);
  const unsigned *at = LLVMGetIndices(ins);
  for (unsigned i = 0; i < m && i < n; i++)
    if (at[i] != idx[i]) return FIELD_APART;
  *skip = m;
  return m <= n ? FIELD_INSIDE : FIELD_OVER;
}

/* The indices of extractvalue ex followed by idx; false if too long. */
static bool field_path_through(LLVMValueRef ex, const unsigned *idx, unsigned n, unsigned *path, unsigned *len) {
  unsigned m = LLVMGetNumIndices(ex);
  if (m + n > MAX_FIELD_PATH) return false;
  memcpy(path, LLVMGetIndices(ex), m * sizeof *path);
  if (n) memcpy(path + m, idx, n * sizeof *path);
  *len = m + n;
  return true;
}

bool activity_pointer_has_shadow(const Activity *a, LLVMValueRef p) {
  return activity_shadowed(a, p) || LLVMIsAConstantPointerNull(p) || LLVMIsAUndefValue(p) || ir_null_based(p) ||
         ad_has_constant_shadow(p);
}

/* What is asked of a field: whether every pointer in it has a shadow, or whether anything in it varies
 * (an integer out of a struct of pointers, {ptr, i64}, carries a float's bits only where one was put
 * there: a struct {int; float; ptr} passes its first eight bytes as an i64). */
typedef enum { FIELD_SHADOWS, FIELD_VARIES } FieldQuestion;

/* A value that fails the question in a plain value (a pointer, a number) put there. */
static bool leaf_fails(const Activity *a, LLVMValueRef v, FieldQuestion q) {
  if (q == FIELD_VARIES) return !LLVMIsAConstant(v) && activity_varied(a, v);
  return ir_is_ptr(LLVMTypeOf(v)) && !activity_pointer_has_shadow(a, v);
}

/* A value that fails the question somewhere whose insides are not followed (a load, a parameter). */
static bool opaque_fails(const Activity *a, LLVMValueRef v, FieldQuestion q) {
  return q == FIELD_VARIES ? activity_varied(a, v) : !activity_shadowed(a, v);
}

/* The merges and calls a question has met, each with the field asked of it: met again around a loop or a
 * recursion, one adds nothing (the other ways in decide). */
typedef struct {
  LLVMValueRef v;
  unsigned n, idx[MAX_FIELD_PATH];
} FieldMet;
typedef struct {
  VEC(FieldMet) met;
  FieldQuestion q;
} FieldWalk;

static bool met_before(FieldWalk *fw, LLVMValueRef v, const unsigned *idx, unsigned n) {
  for (size_t i = 0; i < fw->met.len; i++)
    if (fw->met.data[i].v == v && fw->met.data[i].n == n && (!n || !memcmp(fw->met.data[i].idx, idx, n * sizeof *idx))) return true;
  FieldMet m = {v, n, {0}};
  if (n) memcpy(m.idx, idx, n * sizeof *idx);
  vec_push(&fw->met, m);
  return false;
}

/* The value that puts what fails question fw->q into field idx of v (v itself where it cannot be told), or
 * NULL where nothing there fails it. */
static LLVMValueRef field_walk(const Activity *a, FieldWalk *fw, LLVMValueRef v, const unsigned *idx, unsigned n, int depth) {
  FieldQuestion q = fw->q;
  LLVMTypeRef t = LLVMTypeOf(v);
  LLVMTypeKind k = LLVMGetTypeKind(t);
  if (k != LLVMStructTypeKind && k != LLVMArrayTypeKind) return leaf_fails(a, v, q) ? v : NULL;
  if (q == FIELD_SHADOWS && !ir_contains_ptr(t)) return NULL;
  if (LLVMIsAConstant(v)) {
    if (q == FIELD_VARIES || LLVMIsNull(v) || LLVMIsUndef(v)) return NULL;
    unsigned count = k == LLVMStructTypeKind ? LLVMCountStructElementTypes(t) : (unsigned)LLVMGetArrayLength2(t);
    for (unsigned i = n ? idx[0] : 0; i < (n ? idx[0] + 1 : count); i++) {
      LLVMValueRef e = LLVMGetAggregateElement(v, i), u = e ? field_walk(a, fw, e, n ? idx + 1 : idx, n ? n - 1 : 0, depth + 1) : v;
      if (u) return u;
    }
    return NULL;
  }
  if (depth > 32) return opaque_fails(a, v, q) ? v : NULL;
  unsigned skip, path[MAX_FIELD_PATH], len;
  if (LLVMIsAInsertValueInst(v)) {
    LLVMValueRef whole = LLVMGetOperand(v, 0), put = LLVMGetOperand(v, 1), u;
    switch (field_overlap(v, idx, n, &skip)) {
    case FIELD_INSIDE: return field_walk(a, fw, put, idx + skip, n - skip, depth + 1);
    case FIELD_OVER: return (u = field_walk(a, fw, put, NULL, 0, depth + 1)) ? u : field_walk(a, fw, whole, idx, n, depth + 1);
    case FIELD_APART: return field_walk(a, fw, whole, idx, n, depth + 1);
    }
  }
  if (LLVMIsAExtractValueInst(v))
    return field_path_through(v, idx, n, path, &len) ? field_walk(a, fw, LLVMGetOperand(v, 0), path, len, depth + 1) : v;
  if ((LLVMIsAPHINode(v) || LLVMIsASelectInst(v) || ir_is_call(v)) && met_before(fw, v, idx, n)) return NULL;
  if (LLVMIsAPHINode(v) || LLVMIsASelectInst(v)) {
    unsigned first = LLVMIsASelectInst(v) ? 1 : 0, end = LLVMIsASelectInst(v) ? 3 : LLVMCountIncoming(v);
    for (unsigned i = first; i < end; i++) {
      LLVMValueRef in = LLVMIsASelectInst(v) ? LLVMGetOperand(v, i) : LLVMGetIncomingValue(v, i);
      LLVMValueRef u = field_walk(a, fw, in, idx, n, depth + 1);
      if (u) return u;
    }
    return NULL;
  }
  /* a function of the module returns what its own returns hold */
  const Activity *callee = ir_is_call(v) ? vmap_get(&a->callees, v) : NULL;
  /* (a function calling itself reads its own flags so far: its fixed point comes back to the call; a
     recursion into its own analysis with the returned shadow wanted, still running, moves no integer
     other than this one would) */
  if (q == FIELD_VARIES && callee && !callee->done && callee->fn == a->fn) callee = a;
  bool known = callee && (callee->done || callee == a);
  if (!known || opaque_fails(a, v, q) != (q == FIELD_VARIES)) return opaque_fails(a, v, q) ? v : NULL;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(callee->fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(bb), u;
    if (term && LLVMGetInstructionOpcode(term) == LLVMRet && LLVMGetNumOperands(term) == 1 &&
        (u = field_walk(callee, fw, LLVMGetOperand(term, 0), idx, n, depth + 1)))
      return u;
  }
  return NULL;
}

static LLVMValueRef field_fails(const Activity *a, LLVMValueRef v, const unsigned *idx, unsigned n, FieldQuestion q) {
  FieldWalk fw = {.q = q};
  LLVMValueRef u = field_walk(a, &fw, v, idx, n, 0);
  vec_free(&fw.met);
  return u;
}

LLVMValueRef activity_field_without_shadow(const Activity *a, LLVMValueRef v, const unsigned *idx, unsigned n) {
  return field_fails(a, v, idx, n, FIELD_SHADOWS);
}

/* A pointer extracted from field idx of v is shadowed unless a pointer without one was put there: one the
 * analysis found inactive, as it would be used without the struct. Where the field's source cannot be
 * followed (a struct loaded from memory, returned through a function pointer), the extracted pointer is
 * shadowed, and the reverse sweep's generator refuses it. */
static bool field_inactive_pointer(const Activity *a, LLVMValueRef v, const unsigned *idx, unsigned n) {
  LLVMValueRef u = activity_field_without_shadow(a, v, idx, n);
  return u && ir_is_ptr(LLVMTypeOf(u));
}

/* Gives shadows to what the pointers in field idx of v come from. */
static bool walk_field(Activity *a, ShadowWalk *w, LLVMValueRef v, const unsigned *idx, unsigned n, int depth) {
  LLVMTypeRef t = LLVMTypeOf(v);
  if (ir_is_ptr(t)) return n == 0 && walk_to_owner(a, w, v, depth);
  if (depth > 64 || !ir_is_pointer_aggregate(t) || LLVMIsAConstant(v)) return false;
  unsigned skip, path[MAX_FIELD_PATH], len;
  if (LLVMIsAInsertValueInst(v)) {
    bool changed = add_flags(a, v, SHADOWED);
    LLVMValueRef whole = LLVMGetOperand(v, 0), put = LLVMGetOperand(v, 1);
    switch (field_overlap(v, idx, n, &skip)) {
    case FIELD_INSIDE: return walk_field(a, w, put, idx + skip, n - skip, depth + 1) || changed;
    case FIELD_OVER: changed |= walk_field(a, w, put, NULL, 0, depth + 1); /* fall through */
    case FIELD_APART: return walk_field(a, w, whole, idx, n, depth + 1) || changed;
    }
  }
  if (LLVMIsAExtractValueInst(v)) {
    if (!field_path_through(v, idx, n, path, &len)) return false;
    bool changed = add_flags(a, v, SHADOWED);
    return walk_field(a, w, LLVMGetOperand(v, 0), path, len, depth + 1) || changed;
  }
  if ((LLVMIsAPHINode(v) || LLVMIsASelectInst(v)) && !first_visit(w, v)) return false;
  if (LLVMIsAPHINode(v)) {
    bool changed = add_flags(a, v, SHADOWED);
    for (unsigned i = 0, k = LLVMCountIncoming(v); i < k; i++)
      changed |= walk_field(a, w, LLVMGetIncomingValue(v, i), idx, n, depth + 1);
    return changed;
  }
  if (LLVMIsASelectInst(v)) {
    bool changed = add_flags(a, v, SHADOWED);
    changed |= walk_field(a, w, LLVMGetOperand(v, 1), idx, n, depth + 1);
    return walk_field(a, w, LLVMGetOperand(v, 2), idx, n, depth + 1) || changed;
  }
  /* a function of the module asked for the shadows it returns (its pattern gets an 'r') */
  if (ir_is_call(v) && call_classify(v, NULL) == CALL_MODULE) return add_flags(a, v, SHADOWED);
  return false;
}

static bool walk_to_owner(Activity *a, ShadowWalk *w, LLVMValueRef p, int depth) {
  if (depth > 64 || !ir_is_ptr(LLVMTypeOf(p)) || (flags_of(a, p) & SHADOWED)) return false;
  if (LLVMIsAAllocaInst(p)) return add_flags(a, p, SHADOWED);
  if (ad_has_constant_shadow(p)) return add_flags(a, p, SHADOWED); /* a function, constant data */
  /* noted for the callers, which pass a shadow for such a parameter when they can */
  if (LLVMIsAArgument(p)) return add_flags(a, p, WANTS);
  if (ir_is_call(p)) {
    CallKind k = call_classify(p, NULL);
    /* a task's block (omp_forward.c gives it a shadow as an allocation's) */
    if (k == CALL_ALLOC || (k == CALL_OMP && omp_classify(p) == OMP_TASK_ALLOC)) return add_flags(a, p, SHADOWED);
    if (k == CALL_UNKNOWN && call_returns_tape_memory(p)) return add_flags(a, p, SHADOWED); /* its twin's */
    /* a node a library function relinks: its shadow is the mirrored call's, given the shadows of the nodes */
    unsigned mirrored;
    if (k == CALL_MIRRORED && call_mirrored(p, &mirrored)) {
      bool changed = add_flags(a, p, SHADOWED);
      for (unsigned i = 0, n = ir_num_call_args(p); i < n; i++)
        if (mirrored >> i & 1) changed |= walk_to_owner(a, w, LLVMGetArgOperand(p, i), depth + 1);
      return changed;
    }
    /* a function of the module returns the pointer and its shadow (its pattern gets an 'r'), as the
       same code inlined would */
    if (k == CALL_MODULE) return add_flags(a, p, SHADOWED);
    /* the new block's shadow is the old one's, reallocated: the old block needs one too (filled with
       constants first, it had none of its own) */
    if (k == CALL_REALLOC) {
      bool changed = add_flags(a, p, SHADOWED);
      return walk_to_owner(a, w, LLVMGetArgOperand(p, 0), depth + 1) || changed;
    }
    return false;
  }
  if (LLVMIsAGetElementPtrInst(p) || LLVMIsABitCastInst(p) || LLVMIsAAddrSpaceCastInst(p))
    return walk_to_owner(a, w, LLVMGetOperand(p, 0), depth + 1);
  if ((LLVMIsAPHINode(p) || LLVMIsASelectInst(p)) && !first_visit(w, p)) return false;
  if (LLVMIsAPHINode(p)) {
    bool changed = false;
    for (unsigned i = 0, n = LLVMCountIncoming(p); i < n; i++)
      changed |= walk_to_owner(a, w, LLVMGetIncomingValue(p, i), depth + 1);
    return changed;
  }
  if (LLVMIsASelectInst(p)) {
    bool changed = walk_to_owner(a, w, LLVMGetOperand(p, 1), depth + 1);
    return walk_to_owner(a, w, LLVMGetOperand(p, 2), depth + 1) || changed;
  }
  /* A pointer kept in memory (at -O0, every local pointer is): the slot gets a shadow, which holds the
   * shadows of the pointers stored into it (see the store rule in visit). */
  if (LLVMIsALoadInst(p) && holds_parameters(LLVMGetOperand(p, 0))) { /* as if the slot were promoted */
    bool changed = false;
    for (LLVMUseRef u = LLVMGetFirstUse(LLVMGetOperand(p, 0)); u; u = LLVMGetNextUse(u))
      if (LLVMIsAStoreInst(LLVMGetUser(u))) changed |= walk_to_owner(a, w, LLVMGetOperand(LLVMGetUser(u), 0), depth + 1);
    return changed;
  }
  if (LLVMIsALoadInst(p)) return walk_to_owner(a, w, LLVMGetOperand(p, 0), depth + 1);
  if (LLVMIsAExtractValueInst(p)) {
    LLVMValueRef whole = LLVMGetOperand(p, 0);
    const unsigned *idx = LLVMGetIndices(p);
    unsigned n = LLVMGetNumIndices(p);
    bool changed = walk_field(a, w, whole, idx, n, depth + 1);
    if (!field_inactive_pointer(a, whole, idx, n)) changed |= add_flags(a, p, SHADOWED);
    return changed;
  }
  return false; /* a global, a constant argument: cannot get a shadow here */
}

/* The memory pointer v, or every pointer in struct v, points to made shadowed where this function owns it
 * (a stack slot, a heap block it allocated). Returns whether anything changed. */
static bool need_shadows_in(Activity *a, LLVMValueRef v) {
  ShadowWalk w = {.seen_any = false};
  bool changed = walk_field(a, &w, v, NULL, 0, 0);
  if (w.seen_any) vmap_free(&w.merges);
  return changed;
}

/* Active data is about to go through pointer p: its memory needs a shadow. */
static bool need_shadow(Activity *a, LLVMValueRef p) { return ir_is_ptr(LLVMTypeOf(p)) && need_shadows_in(a, p); }

static bool any_operand_active(const Activity *a, LLVMValueRef inst, unsigned first, unsigned end) {
  for (unsigned i = first; i < end; i++)
    if (active(a, LLVMGetOperand(inst, i))) return true;
  return false;
}

/* What an integer computed from inst's operands inherits: addresses of shadowed memory, and bits of
 * active floats (an integer operand that is itself varied is a float's bits moved as an integer). */
static unsigned integer_taint(const Activity *a, LLVMValueRef inst) {
  unsigned t = 0;
  for (unsigned i = 0, n = (unsigned)LLVMGetNumOperands(inst); i < n; i++) {
    LLVMValueRef op = LLVMGetOperand(inst, i);
    unsigned f = flags_of(a, op);
    t |= f & (PTRINT | BITS);
    if ((f & VARIED) && ir_is_int(ir_scalar_type(LLVMTypeOf(op)))) t |= BITS;
  }
  /* the distance between two addresses is a size, not an address */
  if (LLVMGetInstructionOpcode(inst) == LLVMSub && (flags_of(a, LLVMGetOperand(inst, 0)) & PTRINT) &&
      (flags_of(a, LLVMGetOperand(inst, 1)) & PTRINT))
    t &= ~(unsigned)PTRINT;
  return t;
}

static bool taint(Activity *a, LLVMValueRef inst) {
  return ir_is_int(ir_scalar_type(LLVMTypeOf(inst))) && add_flags(a, inst, integer_taint(a, inst));
}

/* ---- integers carrying addresses or changed bits through memory and calls ----
 * Unoptimised code keeps every variable in a stack slot, and programs split work into helpers: an address
 * of active memory tagged by one function and rebuilt by another, or floats' bits changed by a helper and
 * made a float again by the next, would lose their derivatives where no single function shows it. The
 * slots such integers are stored into give them back when loaded, calls pass them to their callees
 * (the pattern's taint marks) and get them back from their returns. */

static LLVMValueRef slot_address(const Activity *a, LLVMValueRef p, long long *offset) {
  *offset = 0;
  return ir_strip_constant_offsets(LLVMGetGlobalParent(a->fn), p, offset);
}

static bool note_slot(Activity *a, LLVMValueRef p, unsigned taint) {
  if (!taint) return false;
  long long offset;
  LLVMValueRef base = slot_address(a, p, &offset);
  for (size_t i = 0; i < a->slots.len; i++) {
    TaintedSlot *s = &a->slots.data[i];
    if (s->base != base || s->offset != offset) continue;
    if ((s->taint | taint) == s->taint) return false;
    s->taint |= taint;
    return true;
  }
  vec_push(&a->slots, ((TaintedSlot){base, offset, taint}));
  return true;
}

/* Where p points in its object: false where not at a constant offset. */
static bool placed_in_object(const Activity *a, LLVMValueRef p, LLVMValueRef *object, long long *offset) {
  *object = ir_address_base(p);
  *offset = 0;
  return slot_address(a, p, offset) == *object;
}

/* Floats' bits put into the `bytes` bytes at p (0: not known) as integers, by a store or a copy: its object
 * holds them there (changed where new). */
static bool note_bits(Activity *a, LLVMValueRef p, unsigned long long bytes) {
  LLVMValueRef object;
  long long lo;
  bool placed = placed_in_object(a, p, &object, &lo);
  BitsBytes b = {object, placed ? lo : 0, placed && bytes && bytes < (1ull << 40) ? lo + (long long)bytes : INT64_MAX};
  for (size_t i = 0; i < a->bits_bytes.len; i++) {
    BitsBytes *o = &a->bits_bytes.data[i];
    if (o->object == b.object && o->lo <= b.lo && o->hi >= b.hi) return false;
  }
  vec_push(&a->bits_bytes, b);
  return true;
}

/* Whether a load of `bytes` bytes at p may read such bits: p's object holds some where it may read (an int
 * field beside doubles a memcpy moved is a true int). */
static bool bits_where_read(const Activity *a, LLVMValueRef p, unsigned long long bytes) {
  LLVMValueRef object;
  long long lo;
  bool placed = placed_in_object(a, p, &object, &lo);
  for (size_t i = 0; i < a->bits_bytes.len; i++) {
    const BitsBytes *o = &a->bits_bytes.data[i];
    if (o->object == object && (!placed || (o->lo < lo + (long long)bytes && lo < o->hi))) return true;
  }
  return false;
}

/* What the memory at p holds of the slots: at the same place (exact), or anywhere in the same object (an
 * array element's offset is only known at run time: an integer loaded from it may be one). */
static unsigned slot_taint(const Activity *a, LLVMValueRef p, bool exact) {
  long long offset;
  LLVMValueRef base = slot_address(a, p, &offset), whole = ir_address_base(p);
  unsigned t = 0;
  for (size_t i = 0; i < a->slots.len; i++) {
    const TaintedSlot *s = &a->slots.data[i];
    if ((s->base == base && s->offset == offset) || (!exact && ir_address_base(s->base) == whole)) t |= s->taint;
  }
  return t;
}

/* The pattern of an analysis of the callee, with the taints of the call's arguments after a '#': a digit
 * per argument, (PTRINT | BITS) >> 2. Only this file's own patterns have them. */
static char *with_taint_marks(const Activity *a, LLVMValueRef call, char *pattern) {
  unsigned n = ir_num_call_args(call);
  char *marks = NULL;
  for (unsigned i = 0; i < n; i++) {
    unsigned t = flags_of(a, LLVMGetArgOperand(call, i)) & (PTRINT | BITS);
    if (!t) continue;
    if (!marks) marks = xcalloc(n + 1, 1), memset(marks, '0', n);
    marks[i] = (char)('0' + (t >> 2));
  }
  if (!marks) return pattern;
  char *marked = xasprintf("%s#%s", pattern, marks);
  free(pattern);
  free(marks);
  return marked;
}

static unsigned taint_mark(const Activity *a, unsigned param) {
  const char *marks = strchr(a->pattern, '#');
  return marks && param < strlen(marks + 1) ? (unsigned)(marks[1 + param] - '0') << 2 : 0;
}

const char *activity_lost_derivative(const Activity *a, LLVMValueRef inst, LLVMValueRef *at) {
  *at = inst;
  LLVMValueRef op0 = LLVMGetNumOperands(inst) ? LLVMGetOperand(inst, 0) : NULL;
  switch (LLVMGetInstructionOpcode(inst)) {
  case LLVMIntToPtr: return flags_of(a, op0) & PTRINT ? ACTIVITY_ADDRESS_REBUILT : NULL;
  case LLVMBitCast: return flags_of(a, op0) & BITS ? ACTIVITY_BITS_CHANGED : NULL;
  case LLVMStore: {
    unsigned t = flags_of(a, op0) & (PTRINT | BITS);
    if (!t || !activity_shadowed(a, LLVMGetOperand(inst, 1)) || memtype_of_access(inst) == MEMTYPE_INT) return NULL;
    return t & BITS ? ACTIVITY_BITS_CHANGED : ACTIVITY_ADDRESS_STORED;
  }
  case LLVMLoad: {
    /* a pointer or a float read from where such an integer was put (a union, a copy of its bytes) */
    if (ir_is_int(ir_scalar_type(LLVMTypeOf(inst)))) return NULL;
    unsigned t = slot_taint(a, op0, true);
    return !t ? NULL : t & BITS ? ACTIVITY_BITS_CHANGED : ACTIVITY_ADDRESS_REBUILT;
  }
  case LLVMCall: {
    const Activity *callee = vmap_get(&a->lost_in_callee, inst);
    return callee ? activity_lost_derivative(callee, callee->lost, at) : NULL;
  }
  default: return NULL;
  }
}

static LLVMValueRef first_loss(const Activity *a) {
  LLVMValueRef at;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(a->fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst; inst = LLVMGetNextInstruction(inst))
      if (activity_lost_derivative(a, inst, &at)) return inst;
  return NULL;
}

static bool byte_mask(LLVMValueRef c) {
  if (!LLVMIsAConstantInt(c) || LLVMGetIntTypeWidth(LLVMTypeOf(c)) > 64) return false;
  unsigned long long m = LLVMConstIntGetZExtValue(c);
  for (unsigned i = 0; i < LLVMGetIntTypeWidth(LLVMTypeOf(c)) / 8; i++, m >>= 8)
    if ((m & 0xff) != 0 && (m & 0xff) != 0xff) return false;
  return true;
}

static bool whole_bytes(LLVMValueRef c) {
  return LLVMIsAConstantInt(c) && LLVMConstIntGetZExtValue(c) % 8 == 0;
}

bool activity_moves_bits(LLVMValueRef inst) {
  switch (LLVMGetInstructionOpcode(inst)) {
  case LLVMZExt: return true;
  case LLVMTrunc: return ir_is_int(LLVMTypeOf(inst)) && LLVMGetIntTypeWidth(LLVMTypeOf(inst)) % 8 == 0;
  case LLVMShl:
  case LLVMLShr: return whole_bytes(LLVMGetOperand(inst, 1));
  case LLVMAnd: return byte_mask(LLVMGetOperand(inst, 0)) || byte_mask(LLVMGetOperand(inst, 1));
  case LLVMOr: return LLVMGetIsDisjoint(inst);
  default: return false;
  }
}

/* The callee's analysis for the activity of the call's arguments from `first` on; false when none is
 * active. *out is NULL when the callee has no body (a registered gradient). *fn becomes the body the
 * generators will differentiate (ad_body: without its unwind paths), whose parameters the analysis
 * flags: the original's invokes are calls this analysis would not follow. */
static bool callee_of(AdModule *ad, Activity *a, LLVMValueRef call, LLVMValueRef *fn, unsigned first,
                      const Activity **out) {
  bool any = !first && activity_wants_returned_shadow(a, call); /* its result wants a shadow */
  any |= !first && ad_is_reverse_sweep(*fn);
  any |= ad_call_reaches_active_global(call); /* derivatives that go through a global, not the arguments */
  for (unsigned i = first, n = ir_num_call_args(call); i < n; i++)
    any |= active(a, LLVMGetArgOperand(call, i)) || (!first && (flags_of(a, LLVMGetArgOperand(call, i)) & (PTRINT | BITS)));
  if (!any) return false;
  char *pat = first ? activity_fork_pattern(a, call) : with_taint_marks(a, call, activity_call_pattern(a, call));
  if (!LLVMIsDeclaration(*fn)) *fn = ad_body(ad, *fn);
  *out = LLVMIsDeclaration(*fn) ? NULL : activity_get(ad, *fn, pat);
  free(pat);
  /* what it loses of the taints it was given: its own generation does not know them */
  if (*out && (*out)->lost && strchr((*out)->pattern, '#') && !vmap_has(&a->lost_in_callee, call))
    vmap_put(&a->lost_in_callee, call, (void *)*out);
  return true;
}

/* Addresses or changed floats' bits a callee returns as an integer. */
static bool returned_taint(Activity *a, LLVMValueRef call, const Activity *callee) {
  return callee && callee->done && ir_is_int(ir_scalar_type(LLVMTypeOf(call))) && add_flags(a, call, callee->ret_taint);
}

/* A pointer argument gets a shadow where the callee stores active data through it; where the callee's
 * body is unknown (a registered gradient) or still being analysed (mutual recursion), any pointer may. A
 * function calling itself with its own pattern reads its own flags so far: its fixed point comes back to
 * the call whenever they grow. Call argument first + k is the callee's parameter first_param + k. */
static bool shadows_for_callee(Activity *a, LLVMValueRef call, LLVMValueRef fn, const Activity *callee,
                               unsigned first, unsigned first_param) {
  bool changed = false, known = callee && (callee->done || callee == a);
  for (unsigned i = first, n = ir_num_call_args(call); i < n; i++) {
    unsigned param = i - first + first_param;
    if (custom_param_needs_no_shadow(fn, param) || (known && !(flags_of(callee, LLVMGetParam(fn, param)) & WANTS))) continue;
    changed |= need_shadow(a, LLVMGetArgOperand(call, i));
  }
  return changed;
}

/* The reverse-mode runtime moving or adding shadow blocks into one another (the arguments in `moved`),
 * under forward mode: their tangents go the same way, so all of them are active if one is. So are the
 * nodes a library function relinks (CALL_MIRRORED): a shadow structure relinked only in part would lose
 * its primal's shape. */
static bool runtime_moves(Activity *a, LLVMValueRef call, unsigned moved) {
  bool any = false, changed = false;
  unsigned n = ir_num_call_args(call);
  for (unsigned i = 0; i < n; i++) any |= (moved >> i & 1) && activity_shadowed(a, LLVMGetArgOperand(call, i));
  for (unsigned i = 0; i < n && any; i++)
    if (moved >> i & 1) changed |= need_shadow(a, LLVMGetArgOperand(call, i));
  if (any && ir_is_ptr(LLVMTypeOf(call))) changed |= add_flags(a, call, SHADOWED);
  return changed;
}

static bool visit_call(AdModule *ad, Activity *a, LLVMValueRef call) {
  bool changed = false;
  unsigned n = ir_num_call_args(call), moved;
  const MathRule *rule;
  switch (call_classify(call, &rule)) {
  case CALL_MATH:
    for (unsigned i = 0; i < n; i++)
      if (rule_argument_active(rule, i) && activity_varied(a, LLVMGetArgOperand(call, i))) return mark(a, call);
    return false;
  case CALL_MEMCPY: {
    LLVMValueRef dst = LLVMGetArgOperand(call, 0), src = LLVMGetArgOperand(call, 1);
    if (activity_shadowed(a, src)) {
      changed |= need_shadow(a, dst);
      DataKind k = memtype_of_copy(call);
      LLVMValueRef len = LLVMGetArgOperand(call, 2);
      if (k == DATA_F64 || k == DATA_F32) changed |= note_bits(a, dst, LLVMIsAConstantInt(len) ? LLVMConstIntGetZExtValue(len) : 0);
    }
    /* a copy of an integer's bytes (a float's, changed, about to be read back as one) */
    changed |= note_slot(a, dst, slot_taint(a, src, false));
    /* pointers copied into memory with a shadow need shadows of their own, as when stored one by one (at
       -O0 a task's shared addresses are gathered in a struct and copied into the task) */
    if (activity_shadowed(a, dst) && !activity_shadowed(a, src)) {
      DataKind k = memtype_of_copy(call);
      if (k == DATA_PTR || k == DATA_MIXED || k == DATA_UNKNOWN) changed |= need_shadow(a, src);
    }
    return changed;
  }
  case CALL_REALLOC:
    if (activity_shadowed(a, LLVMGetArgOperand(call, 0))) changed |= add_flags(a, call, SHADOWED);
    return changed;
  case CALL_OMP: {
    /* a task whose body reaches a global holding derivatives carries them, its block's shadow the pair's */
    if (omp_classify(call) == OMP_TASK_ALLOC && ad_call_reaches_active_global(call)) return add_flags(a, call, SHADOWED);
    /* a parallel region: the outlined function called on every thread, like a function of the module */
    LLVMValueRef fn = omp_classify(call) == OMP_FORK ? omp_fork_outlined(call) : NULL;
    if (!fn) return false;
    const Activity *callee;
    if (!callee_of(ad, a, call, &fn, OMP_FORK_FIRST_ARG, &callee)) return false;
    return shadows_for_callee(a, call, fn, callee, OMP_FORK_FIRST_ARG, OMP_OUTLINED_FIRST_PARAM);
  }
  case CALL_MPI: {
    /* what arrives may carry derivatives from another rank: the receive buffer needs a shadow */
    const MpiCall *c = mpi_call_of(call);
    if (!mpi_receive_may_hold_floats(c, call)) return false;
    return need_shadow(a, LLVMGetArgOperand(call, (unsigned)c->recv_buf));
  }
  case CALL_INDIRECT: {
    /* through a function pointer: any function of the module of its type whose address is taken, each
       like a direct callee; with none known here, any function: it may store active data through every
       pointer it gets. An active argument may make the result active. */
    bool through_global = ad_call_reaches_active_global(call);
    if (!activity_any_active_argument(a, call, NULL) && !through_global) return false;
    ValueList candidates = {0};
    indirect_candidates(ad, LLVMGetCalledFunctionType(call), &candidates);
    bool all_known = candidates.len > 0;
    for (size_t k = 0; k < candidates.len; k++) {
      LLVMValueRef fn = candidates.data[k];
      const Activity *callee = NULL;
      if (LLVMIsDeclaration(fn) || !callee_of(ad, a, call, &fn, 0, &callee)) continue; /* a rule: no pointers */
      changed |= shadows_for_callee(a, call, fn, callee, 0, 0);
      changed |= returned_taint(a, call, callee);
      all_known &= callee && (callee->done || callee == a);
    }
    vec_free(&candidates);
    if (!all_known)
      for (unsigned i = 0; i < n; i++) changed |= need_shadow(a, LLVMGetArgOperand(call, i));
    if (ir_carries_derivative(LLVMTypeOf(call))) changed |= mark(a, call);
    return changed;
  }
  case CALL_MIRRORED: return call_mirrored(call, &moved) && runtime_moves(a, call, moved);
  case CALL_UNKNOWN:
    if (call_tape_action(call, &moved) == TAPE_SAME && moved) return runtime_moves(a, call, moved);
    /* a function with a registered derivative acts like one of the module's */
    if (!custom_registered(ir_called_function(call))) return false;
    /* fall through */
  case CALL_MODULE: {
    LLVMValueRef fn = ir_called_function(call);
    const Activity *callee;
    if (!callee_of(ad, a, call, &fn, 0, &callee)) return false;
    /* a registered derivative replaces the body: it may write through any pointer's shadow */
    if (custom_registered(ir_called_function(call))) callee = NULL;
    changed = shadows_for_callee(a, call, fn, callee, 0, 0);
    changed |= returned_taint(a, call, callee);
    bool known = callee && (callee->done || callee == a);
    LLVMTypeRef rt = LLVMTypeOf(call);
    if (ir_is_ptr(rt)) {
      if (!known || callee->ret_active) changed |= mark(a, call);
    } else if (ir_is_pointer_aggregate(rt) && callee) {
      vmap_put(&a->callees, call, (void *)callee);
      if (!known || callee->ret_active) changed |= mark_holder(a, call);
    } else if (ir_carries_derivative(rt)) {
      changed |= mark(a, call);
    } else if (ir_is_int(ir_scalar_type(rt)) && LLVMGetIntTypeWidth(ir_scalar_type(rt)) > 1 && (!known || callee->ret_active)) {
      changed |= mark(a, call); /* floats' bits returned as an integer: a struct {int; float;} */
    }
    return changed;
  }
  default: return false;
  }
}

static bool narrower_than_floats(LLVMTypeRef t) { return ir_is_int(t) && LLVMGetIntTypeWidth(t) < 16; }

static bool visit(AdModule *ad, Activity *a, LLVMValueRef inst) {
  LLVMOpcode op = LLVMGetInstructionOpcode(inst);
  unsigned nops = (unsigned)LLVMGetNumOperands(inst);
  switch (op) {
  case LLVMExtractValue:
    /* a pointer out of a struct: shadowed where what was put there is */
    if (ir_is_ptr(LLVMTypeOf(inst)))
      return active(a, LLVMGetOperand(inst, 0)) &&
             !field_inactive_pointer(a, LLVMGetOperand(inst, 0), LLVMGetIndices(inst), LLVMGetNumIndices(inst)) &&
             add_flags(a, inst, SHADOWED);
    /* a bool or a char out of a struct (std::map::insert's pair<iterator, bool>, returned as {ptr, i8}):
       no float's bits fit in it, and the calling convention never packs a float's part into one */
    if (narrower_than_floats(LLVMTypeOf(inst)) && LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(inst, 0))) == LLVMStructTypeKind)
      return taint(a, inst);
    /* an integer out of a struct of pointers: varied where what was put there is */
    if (ir_is_int(LLVMTypeOf(inst)) && ir_is_pointer_aggregate(LLVMTypeOf(LLVMGetOperand(inst, 0))) &&
        !field_fails(a, LLVMGetOperand(inst, 0), LLVMGetIndices(inst), LLVMGetNumIndices(inst), FIELD_VARIES))
      return false;
    return any_operand_active(a, inst, 0, 1) && mark_holder(a, inst);
  case LLVMFNeg:
  case LLVMFPExt:
  case LLVMFPTrunc:
  case LLVMExtractElement: return any_operand_active(a, inst, 0, 1) && mark(a, inst);
  case LLVMFAdd:
  case LLVMFSub:
  case LLVMFMul:
  case LLVMFDiv:
  case LLVMFRem:
  case LLVMInsertElement:
  case LLVMShuffleVector: return any_operand_active(a, inst, 0, 2) && mark(a, inst);
  case LLVMInsertValue: return any_operand_active(a, inst, 0, 2) && mark_holder(a, inst);
  case LLVMBitCast:
  case LLVMAddrSpaceCast:
  case LLVMFreeze:
    if (active(a, LLVMGetOperand(inst, 0))) {
      /* a float's bits as an integer stay varied: a copy may move them back into a float */
      bool changed = mark(a, inst);
      return add_flags(a, inst, flags_of(a, LLVMGetOperand(inst, 0)) & VARIED) || changed;
    }
    return taint(a, inst);
  case LLVMSelect:
    if (!any_operand_active(a, inst, 1, 3)) return taint(a, inst);
    if (ir_is_ptr(LLVMTypeOf(inst))) {
      bool changed = add_flags(a, inst, SHADOWED);
      changed = need_shadow(a, LLVMGetOperand(inst, 1)) || changed;
      return need_shadow(a, LLVMGetOperand(inst, 2)) || changed;
    }
    /* an integer chosen from floats' bits that arithmetic changed is such bits too */
    return add_flags(a, inst, holder_flags(inst) | ((flags_of(a, LLVMGetOperand(inst, 1)) | flags_of(a, LLVMGetOperand(inst, 2))) & BITS));
  case LLVMPHI: {
    bool any = false;
    unsigned bits = 0;
    for (unsigned i = 0, n = LLVMCountIncoming(inst); i < n; i++) {
      any |= active(a, LLVMGetIncomingValue(inst, i));
      bits |= flags_of(a, LLVMGetIncomingValue(inst, i)) & BITS;
    }
    if (!any) return taint(a, inst);
    if (!ir_is_ptr(LLVMTypeOf(inst))) return add_flags(a, inst, holder_flags(inst) | bits);
    bool changed = add_flags(a, inst, SHADOWED);
    for (unsigned i = 0, n = LLVMCountIncoming(inst); i < n; i++)
      changed |= need_shadow(a, LLVMGetIncomingValue(inst, i));
    return changed;
  }
  case LLVMGetElementPtr:
    if (activity_shadowed(a, LLVMGetOperand(inst, 0))) return add_flags(a, inst, SHADOWED);
    return false;
  case LLVMPtrToInt:
    return activity_shadowed(a, LLVMGetOperand(inst, 0)) && add_flags(a, inst, PTRINT);
  case LLVMLoad:
    /* From active memory everything but a true integer carries a derivative (an integer may be a
     * float's bits). An integer variable the function puts floats' bits into holds them whatever its
     * type says (a slot of a NaN-boxing stack compared with its empty marker before it is read back). */
    if (ir_is_int(ir_scalar_type(LLVMTypeOf(inst))) && add_flags(a, inst, slot_taint(a, LLVMGetOperand(inst, 0), false)))
      return true;
    if (!activity_shadowed(a, LLVMGetOperand(inst, 0))) return false;
    if (!ir_carries_derivative(LLVMTypeOf(inst)) && memtype_of_access(inst) == MEMTYPE_INT &&
        !bits_where_read(a, LLVMGetOperand(inst, 0), ir_type_size(LLVMGetGlobalParent(a->fn), LLVMTypeOf(inst))))
      return false;
    return mark(a, inst);
  case LLVMStore: {
    LLVMValueRef v = LLVMGetOperand(inst, 0), p = LLVMGetOperand(inst, 1);
    bool changed = active(a, v) && need_shadow(a, p);
    if (active(a, v) && ir_is_int(ir_scalar_type(LLVMTypeOf(v)))) changed |= note_bits(a, p, ir_type_size(LLVMGetGlobalParent(a->fn), LLVMTypeOf(v)));
    if (ir_is_int(ir_scalar_type(LLVMTypeOf(v)))) changed |= note_slot(a, p, flags_of(a, v) & (PTRINT | BITS));
    /* a shadowed slot holds shadow pointers: whatever pointer goes in needs one */
    if (ir_is_ptr(LLVMTypeOf(v)) && activity_shadowed(a, p)) changed = need_shadow(a, v) || changed;
    return changed;
  }
  case LLVMAtomicCmpXchg:
    return activity_varied(a, LLVMGetOperand(inst, 2)) && need_shadow(a, LLVMGetOperand(inst, 0));
  case LLVMAtomicRMW: {
    bool changed = false;
    if (active(a, LLVMGetOperand(inst, 1))) changed |= need_shadow(a, LLVMGetOperand(inst, 0));
    if (activity_shadowed(a, LLVMGetOperand(inst, 0)) && ir_is_fp(LLVMTypeOf(inst))) changed |= mark(a, inst);
    return changed;
  }
  case LLVMCall: return visit_call(ad, a, inst);
  case LLVMRet:
    if (nops == 1 && (flags_of(a, LLVMGetOperand(inst, 0)) & (PTRINT | BITS) & ~a->ret_taint)) {
      a->ret_taint |= flags_of(a, LLVMGetOperand(inst, 0)) & (PTRINT | BITS);
      return true;
    }
    if (nops == 1 && a->ret_shadow_wanted && (ir_is_ptr(LLVMTypeOf(LLVMGetOperand(inst, 0))) ||
                                              ir_is_pointer_aggregate(LLVMTypeOf(LLVMGetOperand(inst, 0))))) {
      bool changed = need_shadows_in(a, LLVMGetOperand(inst, 0));
      if (!a->ret_active) a->ret_active = changed = true;
      return changed;
    }
    /* floats' bits changed by integer arithmetic, returned: the caller's use of them is refused there */
    if (nops == 1 && (active(a, LLVMGetOperand(inst, 0)) || (flags_of(a, LLVMGetOperand(inst, 0)) & BITS)) && !a->ret_active) {
      a->ret_active = true;
      return true;
    }
    return false;
  default:
    /* Integer operations that only move whole bytes (a float's bits shifted into place, truncated,
     * masked, or-ed with its neighbour) carry the tangent bits the same way; other integer arithmetic
     * carries no derivative, but does carry addresses and float bits. */
    if (activity_moves_bits(inst) && any_operand_active(a, inst, 0, nops)) {
      /* bits another operand's arithmetic changed stay changed (a sign taken from b by a mask, or-ed
         into |a|'s bits: copysign written on the bits) */
      unsigned changed_bits = 0;
      for (unsigned i = 0; i < nops; i++) changed_bits |= flags_of(a, LLVMGetOperand(inst, i)) & BITS;
      bool changed = mark(a, inst);
      return add_flags(a, inst, changed_bits) || changed;
    }
    return nops && taint(a, inst);
  }
}

static void analyse(AdModule *ad, Activity *a) {
  LLVMValueRef fn = a->fn;
  unsigned i = 0;
  memtype_hold(); /* the analysis only reads the program */
  for (LLVMValueRef p = LLVMGetFirstParam(fn); p; p = LLVMGetNextParam(p), i++) {
    if (a->pattern[i] != 'c') mark(a, p);
    add_flags(a, p, taint_mark(a, i));
  }
  a->ret_shadow_wanted = a->pattern[i] == 'r';
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst; inst = LLVMGetNextInstruction(inst)) {
      if (LLVMIsALoadInst(inst) && ad_is_current_tape(LLVMGetOperand(inst, 0)))
        add_flags(a, LLVMGetOperand(inst, 0), SHADOWED); /* a reverse sweep's records: active memory */
      /* a global other functions may have put active data into (ad/global_shadows.h) */
      for (unsigned k = 0, n = (unsigned)LLVMGetNumOperands(inst); k < n; k++) {
        LLVMValueRef op = LLVMGetOperand(inst, k), g = op && ir_is_ptr(LLVMTypeOf(op)) ? ir_address_base(op) : NULL;
        if (g && LLVMIsAGlobalVariable(g) && ad_global_may_hold_active(g)) add_flags(a, g, SHADOWED);
      }
    }
  for (bool changed = true; changed;) {
    changed = false;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst; inst = LLVMGetNextInstruction(inst))
        changed |= visit(ad, a, inst);
  }
  memtype_release();
}

const Activity *activity_get(AdModule *ad, LLVMValueRef fn, const char *pattern) {
  if (!ad->activity) ad->activity = xcalloc(1, sizeof *ad->activity);
  ActivityCache *c = ad->activity;
  for (size_t i = 0; i < c->list.len; i++)
    if (c->list.data[i]->fn == fn && !strcmp(c->list.data[i]->pattern, pattern)) return c->list.data[i];
  Activity *a = xcalloc(1, sizeof *a);
  a->fn = fn;
  a->pattern = xstrdup(pattern);
  vmap_init(&a->flags);
  vmap_init(&a->lost_in_callee);
  vmap_init(&a->callees);
  vec_push(&c->list, a);
  analyse(ad, a);
  a->done = true;
  a->lost = first_loss(a);
  return a;
}

void activity_cache_free(AdModule *ad) {
  ActivityCache *c = ad->activity;
  if (!c) return;
  for (size_t i = 0; i < c->list.len; i++) {
    vmap_free(&c->list.data[i]->flags);
    vmap_free(&c->list.data[i]->lost_in_callee);
    vmap_free(&c->list.data[i]->callees);
    free(c->list.data[i]->slots.data);
    free(c->list.data[i]->bits_bytes.data);
    free(c->list.data[i]->pattern);
    free(c->list.data[i]);
  }
  vec_free(&c->list);
  free(c);
  ad->activity = NULL;
}

bool activity_null_with_shadow(const Activity *a, LLVMValueRef call, unsigned i) {
  LLVMValueRef v = LLVMGetArgOperand(call, i);
  if (!ir_is_ptr(LLVMTypeOf(v)) || !LLVMIsAConstantPointerNull(v)) return false;
  for (unsigned k = 0, n = ir_num_call_args(call); k < n; k++)
    if (k != i && active(a, LLVMGetArgOperand(call, k))) return true;
  return activity_wants_returned_shadow(a, call);
}

char *activity_call_pattern(const Activity *a, LLVMValueRef call) {
  unsigned n = ir_num_call_args(call);
  char *p = xcalloc(n + 2, 1);
  for (unsigned i = 0; i < n; i++)
    p[i] = active(a, LLVMGetArgOperand(call, i)) || activity_null_with_shadow(a, call, i) ? 'd' : 'c';
  if (activity_wants_returned_shadow(a, call)) p[n] = 'r';
  return p;
}

bool activity_wants_returned_shadow(const Activity *a, LLVMValueRef call) {
  return (ir_is_ptr(LLVMTypeOf(call)) || ir_is_pointer_aggregate(LLVMTypeOf(call))) && activity_shadowed(a, call);
}

bool activity_view_slot(const Activity *a, LLVMValueRef param) {
  const char *marks = strchr(a->pattern, '@');
  if (!marks || !LLVMIsAArgument(param) || LLVMGetParamParent(param) != a->fn) return false;
  size_t i = ir_param_index(param);
  return i < strlen(marks + 1) && marks[1 + i] == 'v';
}

char *activity_fork_pattern(const Activity *a, LLVMValueRef call) {
  unsigned n = ir_num_call_args(call), k = 0;
  char *p = xcalloc(n + 1, 1);
  for (unsigned i = 0; i < OMP_OUTLINED_FIRST_PARAM; i++) p[k++] = 'c'; /* the thread ids */
  for (unsigned i = OMP_FORK_FIRST_ARG; i < n; i++) p[k++] = active(a, LLVMGetArgOperand(call, i)) ? 'd' : 'c';
  return p;
}
