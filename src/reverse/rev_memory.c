/* Memory in reverse mode. The forward sweep gives shadows to the memory that may hold active data and
 * keeps the shadows of pointers in step (a pointer stored into active memory has its shadow stored into
 * the shadow); it never writes adjoints. The reverse sweep does, in the standard way:
 *   x = *p   ->   *dp += dx            *p = v   ->   dv += *dp; *dp = 0
 * Shadows outlive the forward sweep: a stack slot's shadow is a heap block freed when the reverse sweep
 * reaches the slot's allocation, and a freed heap block's shadow is freed when the tape ends. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "ad/checkpoint.h"
#include "ad/constants.h"
#include "ad/global_shadows.h"
#include "ad/indirect.h"
#include "ad/registered.h"
#include "analysis/memtype.h"
#include "omp/omp.h"
#include "reverse/rev_internal.h"

static bool varied(RevGen *g, LLVMValueRef v) { return activity_varied(g->act, v); }
static bool shadowed(RevGen *g, LLVMValueRef v) { return activity_shadowed(g->act, v); }

static LLVMValueRef runtime_call(RevGen *g, const char *name, LLVMTypeRef ret, LLVMValueRef *args, unsigned n) {
  LLVMTypeRef params[4];
  for (unsigned i = 0; i < n; i++) params[i] = LLVMTypeOf(args[i]);
  return ir_call_named(g->b, name, LLVMFunctionType(ret, params, n, 0), args, n);
}

/* The module's function `name` of one parameter. */
static LLVMValueRef function_named(RevGen *g, const char *name, LLVMTypeRef ret, LLVMTypeRef param) {
  return ir_function_named(g->ad->mod, name, LLVMFunctionType(ret, &param, 1, 0));
}

/* A new zeroed shadow block: calloc's, or the pool's, or an aligned one (runtime/tape.h). Its result aliases
 * nothing, as calloc's. */
static LLVMValueRef shadow_alloc(RevGen *g, const char *allocator, LLVMValueRef a, LLVMValueRef b) {
  LLVMValueRef args[2] = {a, b};
  LLVMValueRef call = runtime_call(g, allocator, g->ptr_type, args, 2);
  LLVMAddCallSiteAttribute(call, LLVMAttributeReturnIndex, LLVMCreateEnumAttribute(g->ctx, ir_attr_kind("noalias"), 0));
  return call;
}

/* ---- the forward sweep ---- */

/* An integer read from active memory that is stored into memory of pointers: a pointer moved as its bits.
 * Its shadow's bits are read with it: by the store, that memory may hold others (a swap through a
 * temporary: `t = *a; *a = *b; *b = t` read a's shadow after it was overwritten, and both pointers got b's). */
static bool stored_as_pointer_bits(RevGen *g, LLVMValueRef load) {
  if (!ir_is_int(LLVMTypeOf(load)) || !activity_varied(g->act, load) || !shadowed(g, LLVMGetOperand(load, 0))) return false;
  for (LLVMUseRef u = LLVMGetFirstUse(load); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef st = LLVMGetUser(u);
    if (LLVMIsAStoreInst(st) && LLVMGetOperand(st, 0) == load && shadowed(g, LLVMGetOperand(st, 1)) &&
        memtype_of_access(st) == MEMTYPE_PTR)
      return true;
  }
  return false;
}

bool aug_memory(RevGen *g, LLVMValueRef inst) {
  switch (LLVMGetInstructionOpcode(inst)) {
  case LLVMLoad: {
    LLVMValueRef c = aug_clone(g, inst);
    if (activity_load_from_unknown_integer(g->act, inst)) rev_error(g, inst, ACTIVITY_LOAD_FROM_INTEGER_ADDRESS);
    if (shadowed(g, inst)) { /* a pointer loaded from active memory: its shadow from the shadow */
      LLVMValueRef s = LLVMBuildLoad2(g->b, g->ptr_type, aug_shadow(g, LLVMGetOperand(inst, 0), inst, "this load"), "shadow");
      LLVMSetAlignment(s, LLVMGetAlignment(c));
      vmap_put(&g->smap, inst, s);
    } else if (stored_as_pointer_bits(g, inst)) { /* its shadow's bits as they are now (see the store) */
      LLVMValueRef bits = LLVMBuildLoad2(g->b, LLVMTypeOf(inst), aug_shadow(g, LLVMGetOperand(inst, 0), inst, "this load"), "shadow.bits");
      LLVMSetAlignment(bits, LLVMGetAlignment(c));
      vmap_put(&g->smap, inst, bits);
    }
    return true;
  }
  case LLVMStore: {
    aug_clone(g, inst);
    LLVMValueRef v = LLVMGetOperand(inst, 0), p = LLVMGetOperand(inst, 1);
    if (!shadowed(g, p)) {
      if (activity_active(g->act, v) && !registered_inactive_memory(p)) { /* an inactive global drops it */
        char buf[1024];
        ir_describe_memory(p, buf, sizeof buf);
        rev_error(g, inst, "cannot store an active value into memory without a shadow (%s)", buf);
      }
      return true;
    }
    if (ir_is_ptr(LLVMTypeOf(v))) {
      LLVMValueRef s = LLVMBuildStore(g->b, aug_shadow(g, v, inst, "the pointer stored here into memory with derivatives"),
                                      aug_shadow(g, p, inst, "this store"));
      LLVMSetAlignment(s, LLVMGetAlignment(inst));
    } else if (ir_is_int(LLVMTypeOf(v)) && memtype_of_access(inst) == MEMTYPE_PTR && varied(g, v)) {
      /* a pointer copied as the integer of its bits (a small functor copied into a std::function, a
       * generic swap's element): the shadow's bits go along, as they were read where the bits were */
      LLVMValueRef bits = LLVMIsALoadInst(v) ? vmap_get(&g->smap, v) : NULL;
      if (!bits) {
        rev_error(g, inst, "reverse mode cannot tell the shadow of this pointer stored as an integer into active memory");
        return true;
      }
      LLVMSetAlignment(LLVMBuildStore(g->b, bits, aug_shadow(g, p, inst, "this store")), LLVMGetAlignment(inst));
    }
    return true;
  }
  case LLVMGetElementPtr: {
    aug_clone(g, inst);
    if (!shadowed(g, inst)) return true;
    unsigned n = (unsigned)LLVMGetNumOperands(inst) - 1;
    LLVMValueRef idx[64];
    if (n > 64) {
      rev_error(g, inst, "cannot differentiate an address computation with more than 64 indices");
      return true;
    }
    for (unsigned k = 0; k < n; k++) idx[k] = aug_value(g, LLVMGetOperand(inst, k + 1));
    LLVMValueRef s = LLVMBuildGEP2(g->b, LLVMGetGEPSourceElementType(inst),
                                   aug_shadow(g, LLVMGetOperand(inst, 0), inst, "this address computation"), idx, n, "shadow");
    if (LLVMIsAGetElementPtrInst(s)) LLVMSetIsInBounds(s, LLVMIsInBounds(inst));
    vmap_put(&g->smap, inst, s);
    return true;
  }
  case LLVMAlloca: {
    /* on the heap until the tape ends: a checkpointed step's slot, or a large array (the derivative's copy,
       beside the program's own, overflowed the stack) */
    if (checkpoint_slot_outlives_frame(inst) || ir_large_alloca(g->ad->mod, inst)) {
      LLVMValueRef count = LLVMBuildZExtOrBitCast(g->b, aug_value(g, LLVMGetOperand(inst, 0)), g->i64, "");
      LLVMValueRef bytes = LLVMBuildMul(g->b, count, LLVMConstInt(g->i64, ir_type_size(g->ad->mod, LLVMGetAllocatedType(inst)), 0), "");
      LLVMValueRef args[2] = {bytes, LLVMConstInt(g->i64, LLVMGetAlignment(inst), 0)};
      vmap_put(&g->vmap, inst, shadow_alloc(g, "__parad_rt_slot_on_heap", args[0], args[1]));
    } else {
      aug_clone(g, inst);
    }
    if (!shadowed(g, inst)) return true;
    /* the reverse function needs the shadow after this one has returned: on the heap */
    LLVMValueRef count = LLVMBuildZExtOrBitCast(g->b, aug_value(g, LLVMGetOperand(inst, 0)), g->i64, "");
    LLVMValueRef bytes = LLVMBuildMul(g->b, count, LLVMConstInt(g->i64, ir_type_size(g->ad->mod, LLVMGetAllocatedType(inst)), 0), "");
    vmap_put(&g->smap, inst, shadow_alloc(g, "__parad_rt_shadow_alloca", bytes, LLVMConstInt(g->i64, LLVMGetAlignment(inst), 0)));
    return true;
  }
  case LLVMAtomicRMW: {
    aug_clone(g, inst);
    LLVMValueRef p = LLVMGetOperand(inst, 0), v = LLVMGetOperand(inst, 1);
    LLVMAtomicRMWBinOp op = LLVMGetAtomicRMWBinOp(inst);
    if (!shadowed(g, p) && activity_active(g->act, v) && !registered_inactive_memory(p))
      rev_error(g, inst, "cannot differentiate an atomic update of memory without a shadow");
    else if (shadowed(g, p) && ir_is_fp(LLVMTypeOf(v)) && op != LLVMAtomicRMWBinOpFAdd &&
             op != LLVMAtomicRMWBinOpFSub && op != LLVMAtomicRMWBinOpXchg)
      rev_error(g, inst, "cannot differentiate this atomic floating-point %s", ir_atomic_fp_refusal(op));
    return true;
  }
  case LLVMAtomicCmpXchg: {
    aug_clone(g, inst);
    LLVMValueRef p = LLVMGetOperand(inst, 0), v = LLVMGetOperand(inst, 2);
    if (shadowed(g, p) && (activity_active(g->act, v) || activity_from_float_bits(g->act, v) || ir_contains_fp(LLVMTypeOf(v))))
      rev_error(g, inst, CMPXCHG_MESSAGE);
    return true;
  }
  default: return false;
  }
}

/* ---- the reverse sweep ---- */

/* *p += d, for a float, a vector or an aggregate of them. */
static void accumulate(RevGen *g, LLVMValueRef p, LLVMValueRef d, unsigned align) {
  LLVMTypeRef t = LLVMTypeOf(d);
  LLVMValueRef old = LLVMBuildLoad2(g->b, t, p, "");
  LLVMSetAlignment(old, align);
  LLVMValueRef sum;
  LLVMTypeKind k = LLVMGetTypeKind(t);
  if (k == LLVMStructTypeKind || k == LLVMArrayTypeKind) {
    sum = old;
    unsigned n = k == LLVMStructTypeKind ? LLVMCountStructElementTypes(t) : (unsigned)LLVMGetArrayLength2(t);
    for (unsigned i = 0; i < n; i++) {
      LLVMTypeRef et = k == LLVMStructTypeKind ? LLVMStructGetTypeAtIndex(t, i) : LLVMGetElementType(t);
      if (!ir_is_fp_or_fp_vector(et)) continue; /* nested aggregates: rare; integers and pointers: no adjoint */
      LLVMValueRef s = ir_adjoint_sum(g->b, LLVMBuildExtractValue(g->b, old, i, ""), LLVMBuildExtractValue(g->b, d, i, ""));
      sum = LLVMBuildInsertValue(g->b, sum, s, i, "");
    }
  } else {
    sum = ir_adjoint_sum(g->b, old, d);
  }
  LLVMValueRef st = LLVMBuildStore(g->b, sum, p);
  LLVMSetAlignment(st, align);
}

/* In a parallel region, each thread has its own stack and heap blocks. A phi or select met again is
 * either still being decided or found private (a shared one ends the walk): pointers swapped by a loop
 * make cycles of phis, which are private when everything entering them is. */
typedef struct {
  LLVMValueRef merges[64];
  int n;
} PrivateWalk;

static bool thread_private(PrivateWalk *w, LLVMValueRef p) {
  p = ir_strip_pointer_casts(p);
  if (LLVMIsAAllocaInst(p)) return true;
  if (ir_is_call(p)) {
    CallKind k = call_classify(p, NULL);
    return k == CALL_ALLOC || k == CALL_REALLOC;
  }
  if (LLVMIsAGetElementPtrInst(p)) return thread_private(w, LLVMGetOperand(p, 0));
  if (!LLVMIsASelectInst(p) && !LLVMIsAPHINode(p)) return false;
  for (int i = 0; i < w->n; i++)
    if (w->merges[i] == p) return true;
  if (w->n == 64) return false;
  w->merges[w->n++] = p;
  if (LLVMIsASelectInst(p)) return thread_private(w, LLVMGetOperand(p, 1)) && thread_private(w, LLVMGetOperand(p, 2));
  for (unsigned i = 0, n = LLVMCountIncoming(p); i < n; i++)
    if (!thread_private(w, LLVMGetIncomingValue(p, i))) return false;
  return true;
}

bool rev_thread_private(LLVMValueRef p) {
  PrivateWalk w = {.n = 0};
  return thread_private(&w, p);
}

static bool layout_has(const MemLayout *l, DataKind k1, DataKind k2);

/* Whether fn (and what it calls, a few levels down) stores no pointer anywhere: no store of one, no copy
 * of memory that may hold them, no call but of math and of such functions (a pair potential behind a
 * pointer, `lj(p, r2)`). A memset of such memory only nulls them: it counts where `fills` says so. */
static bool stores_no_pointers(LLVMValueRef fn, bool fills, int depth) {
  if (!fn || LLVMIsDeclaration(fn) || depth > 3) return false;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if ((LLVMIsAStoreInst(i) && ir_contains_ptr(LLVMTypeOf(LLVMGetOperand(i, 0)))) || LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i))
        return false;
      if (!ir_is_call(i) || call_quiet(i)) continue;
      CallKind kind = call_classify(i, NULL);
      if (kind == CALL_MATH || kind == CALL_DEBUG || kind == CALL_INACTIVE) continue;
      if (kind == CALL_MEMSET && !fills) continue;
      if (kind == CALL_MEMCPY || kind == CALL_MEMSET) {
        DataKind d = memtype_of_copy(i);
        MemLayout layout; /* a record of floats and integers (a delay line's buffer and position) */
        if (d == DATA_F64 || d == DATA_F32 || d == DATA_INT ||
            ((d == DATA_MIXED || d == DATA_UNKNOWN) && memtype_layout_of_copy(i, &layout) && !layout_has(&layout, DATA_PTR, DATA_PTR)))
          continue;
        return false;
      }
      if (kind != CALL_MODULE || !stores_no_pointers(ir_called_function(i), fills, depth + 1)) return false;
    }
  return true;
}

bool rev_call_may_store_pointers(AdModule *ad, LLVMValueRef call, bool fills) {
  ValueList callees = {0};
  indirect_callees(ad, call, &callees);
  bool may = callees.len == 0;
  for (size_t f = 0; f < callees.len && !may; f++) may = !stores_no_pointers(callees.data[f], fills, 0);
  vec_free(&callees);
  return may;
}

/* Whether memory only this thread reaches may hold a pointer to memory other threads reach: a shared
 * array's address stored into a local record (`Ctx c = {theta, n}` handed to a helper), copied into it
 * from elsewhere, given to a call along with such a pointer (which may store it there), or its own address
 * stored (others may write into it then). A walk over the addresses computed from the thread's own objects
 * (`seen`), and what is done with them. */
static bool may_hold_shared(AdModule *ad, LLVMValueRef v, ValueList *seen) {
  for (size_t i = 0; i < seen->len; i++)
    if (seen->data[i] == v) return false;
  vec_push(seen, v);
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsAGetElementPtrInst(user) || LLVMIsABitCastInst(user) || LLVMIsAAddrSpaceCastInst(user) || LLVMIsAPHINode(user) ||
        LLVMIsASelectInst(user)) {
      if (LLVMIsASelectInst(user) && LLVMGetOperand(user, 0) == v) continue;
      if (may_hold_shared(ad, user, seen)) return true;
    } else if (LLVMIsAStoreInst(user)) {
      LLVMValueRef what = LLVMGetOperand(user, 0);
      if (what == v) return true; /* its address stored: others may write into it */
      if (ir_contains_ptr(LLVMTypeOf(what)) ? !rev_thread_private(what) : memtype_of_access(user) == MEMTYPE_PTR) return true;
    } else if (ir_is_call(user)) {
      CallKind kind = call_classify(user, NULL);
      if (kind == CALL_DEBUG || kind == CALL_FREE || kind == CALL_MEMSET) continue;
      if (kind == CALL_MEMCPY) {
        LLVMValueRef from = LLVMGetArgOperand(user, 1);
        DataKind d = memtype_of_copy(user);
        if (LLVMGetArgOperand(user, 0) == v && !rev_thread_private(from) && d != DATA_F64 && d != DATA_F32 && d != DATA_INT) return true;
        continue;
      }
      /* OpenMP's scheduling, reductions and locks take the thread's variables and their own records */
      OmpKind omp = kind == CALL_OMP ? omp_classify(user) : OMP_UNSUPPORTED;
      if (kind == CALL_OMP && omp != OMP_FORK && omp != OMP_TASK_ALLOC && omp != OMP_TASK_SPAWN && omp != OMP_UNSUPPORTED) continue;
      /* a callee may store into it any pointer it is given (but a constant's) or reads from a global,
         unless none of the functions it may be stores a pointer anywhere (a filter stage behind a table
         of pointers given the parameters and the thread's buffer) */
      if ((kind == CALL_MODULE || kind == CALL_INDIRECT) && !rev_call_may_store_pointers(ad, user, false)) continue;
      if (ad_call_reaches_active_global(user)) return true;
      for (unsigned i = 0, n = ir_num_call_args(user); i < n; i++) {
        LLVMValueRef a = LLVMGetArgOperand(user, i), base = ir_strip_pointer_casts(a);
        bool constant = LLVMIsAGlobalVariable(base) && LLVMIsGlobalConstant(base);
        if (ir_is_ptr(LLVMTypeOf(a)) && !constant && !rev_thread_private(a)) return true;
      }
    }
  }
  return false;
}

/* The objects a thread-private address may point into: its stack slots and heap blocks. */
static void private_objects(LLVMValueRef p, ValueList *out) {
  p = ir_strip_pointer_casts(p);
  for (size_t i = 0; i < out->len; i++)
    if (out->data[i] == p) return;
  if (LLVMIsAGetElementPtrInst(p)) {
    private_objects(LLVMGetOperand(p, 0), out);
  } else if (LLVMIsASelectInst(p)) {
    vec_push(out, p); /* met: not an object, but not walked again */
    private_objects(LLVMGetOperand(p, 1), out), private_objects(LLVMGetOperand(p, 2), out);
  } else if (LLVMIsAPHINode(p)) {
    vec_push(out, p);
    for (unsigned i = 0, n = LLVMCountIncoming(p); i < n; i++) private_objects(LLVMGetIncomingValue(p, i), out);
  } else {
    vec_push(out, p);
  }
}

bool rev_thread_own(AdModule *ad, LLVMValueRef p) {
  if (!rev_thread_private(p)) return false;
  ValueList objects = {0}, seen = {0};
  private_objects(p, &objects);
  bool holds = false;
  for (size_t i = 0; i < objects.len && !holds; i++)
    if (LLVMIsAAllocaInst(objects.data[i]) || ir_is_call(objects.data[i])) holds = may_hold_shared(ad, objects.data[i], &seen);
  vec_free(&objects);
  vec_free(&seen);
  return !holds;
}

/* Whether other threads may add into the shadow of the memory at orig while this one does. */
static bool shared(RevGen *g, LLVMValueRef orig) { return g->parallel && !rev_thread_private(orig) && !rev_own_param(g, orig); }

bool rev_own_param(RevGen *g, LLVMValueRef p) {
  LLVMValueRef root = rev_root_of(p);
  return g->own && LLVMIsAArgument(root) && ir_param_index(root) < 64 && (g->own >> ir_param_index(root) & 1);
}

/* The adjoint d of a read of orig's memory goes into its shadow p: atomically where other threads may
 * add into it too. */
/* For benchmarks: one more adjoint update of shared memory, plain or atomic. */
static void count_update(RevGen *g, bool atomic) {
  if (!g->ad->count_updates) return;
  const char *name = atomic ? "__parad_rt_atomic_updates" : "__parad_rt_plain_updates";
  LLVMValueRef counter = LLVMGetNamedGlobal(g->ad->mod, name);
  if (!counter) counter = LLVMAddGlobal(g->ad->mod, g->i64, name);
  LLVMBuildAtomicRMW(g->b, LLVMAtomicRMWBinOpAdd, counter, LLVMConstInt(g->i64, 1, 0), LLVMAtomicOrderingMonotonic, 0);
}

static void add_plain(RevGen *g, LLVMValueRef p, LLVMValueRef d, unsigned align) {
  if (g->parallel) count_update(g, false);
  accumulate(g, p, d, align);
}

/* solo: the condition (a team of one thread) under which plain adds do, or NULL */
static void add_atomic(RevGen *g, LLVMValueRef at, LLVMValueRef p, LLVMValueRef d, unsigned align, LLVMValueRef solo) {
  LLVMBasicBlockRef yes = NULL, no, join;
  if (g->phase == WRITING_REV && solo) { /* a team of one thread: plainly */
    rev_diamond(g, solo, &yes, &no, &join);
    LLVMPositionBuilderAtEnd(g->b, yes);
    add_plain(g, p, d, align);
    LLVMBuildBr(g->b, join);
    LLVMPositionBuilderAtEnd(g->b, no);
  }
  count_update(g, true);
  if (!ir_atomic_fadd(g->b, p, d, align))
    rev_error(g, at, "cannot add the adjoint of a %s atomically (in a parallel region)", ir_type_name(LLVMTypeOf(d)));
  if (yes) {
    LLVMBuildBr(g->b, join);
    LLVMPositionBuilderAtEnd(g->b, join);
  }
}

static void accumulate_into(RevGen *g, LLVMValueRef at, LLVMValueRef orig, LLVMValueRef p, LLVMValueRef d, unsigned align) {
  if (shared(g, orig))
    add_atomic(g, at, p, d, align, g->solo);
  else
    add_plain(g, p, d, align);
}

void rev_accumulate_load(RevGen *g, LLVMValueRef load, LLVMValueRef dp, LLVMValueRef d, unsigned align) {
  if (!shared_accumulate(g, load, dp, d, align, add_plain, add_atomic) && !redirect_accumulate(g, load, dp, d, align, add_plain, add_atomic))
    accumulate_into(g, load, LLVMGetOperand(load, 0), dp, d, align);
}

/* dv = *p; *p = 0; returns dv (NULL when the value needs no adjoint). */
static LLVMValueRef take_memory(RevGen *g, LLVMValueRef p, LLVMTypeRef t, unsigned align, bool want) {
  LLVMValueRef dv = NULL;
  if (want) {
    dv = LLVMBuildLoad2(g->b, t, p, "");
    LLVMSetAlignment(dv, align);
  }
  LLVMValueRef st = LLVMBuildStore(g->b, LLVMConstNull(t), p);
  LLVMSetAlignment(st, align);
  return dv;
}

bool rev_memory(RevGen *g, LLVMValueRef inst) {
  switch (LLVMGetInstructionOpcode(inst)) {
  case LLVMLoad: {
    if (!varied(g, inst) || !adj_type_of(g, inst)) return true;
    LLVMValueRef d = adj_take(g, inst), dp = rs(g, LLVMGetOperand(inst, 0));
    if (ad_load_through_view(g->act, inst)) /* its shadow may be its own memory (ad/constants.h) */
      rev_accumulate_load(g, inst, ad_view_shadow_address(g->b, g->ad->mod, dp, rv(g, LLVMGetOperand(inst, 0)), SHADOW_ADD), d,
                          LLVMGetAlignment(inst));
    else if (!window_accumulate(g, inst, dp, d))
      rev_accumulate_load(g, inst, dp, d, LLVMGetAlignment(inst));
    return true;
  }
  case LLVMStore: {
    LLVMValueRef v = LLVMGetOperand(inst, 0), p = LLVMGetOperand(inst, 1);
    LLVMTypeRef t = LLVMTypeOf(v), at = ir_is_int(ir_scalar_type(t)) ? adj_type_of(g, v) : adj_type(t);
    if (!shadowed(g, p) || ir_is_ptr(t)) return true;
    /* a true integer has no adjoint, and its shadow may be the primal's own (Enzyme's programs share
       their index arrays so): left alone */
    if (!at && memtype_of_access(inst) == MEMTYPE_INT) return true;
    /* the value stored is overwritten data's end: its adjoint goes to the value, the memory's is reset;
     * an atomic store may race with others to the same place, and only one of them wrote last */
    LLVMValueRef dv;
    if (LLVMGetOrdering(inst) != LLVMAtomicOrderingNotAtomic && shared(g, p) && at && ir_is_fp(at)) {
      dv = LLVMBuildAtomicRMW(g->b, LLVMAtomicRMWBinOpXchg, rs(g, p), LLVMConstNull(at), LLVMAtomicOrderingMonotonic, 0);
      LLVMSetAlignment(dv, LLVMGetAlignment(inst));
      if (!varied(g, v)) dv = NULL;
    } else {
      dv = take_memory(g, rs(g, p), at ? at : t, LLVMGetAlignment(inst), at && varied(g, v));
    }
    if (dv) adj_add(g, v, dv);
    return true;
  }
  case LLVMAlloca:
    if (shadowed(g, inst)) {
      LLVMValueRef s = rs(g, inst);
      rev_omp_wait_adjoint_tasks(g); /* they may add into this shadow */
      runtime_call(g, "__parad_rt_shadow_give", LLVMVoidTypeInContext(g->ctx), &s, 1);
    }
    return true;
  case LLVMAtomicRMW: {
    LLVMValueRef p = LLVMGetOperand(inst, 0), v = LLVMGetOperand(inst, 1);
    LLVMTypeRef t = LLVMTypeOf(v);
    if (!shadowed(g, p) || !ir_is_fp(t)) return true;
    LLVMAtomicRMWBinOp op = LLVMGetAtomicRMWBinOp(inst);
    /* the old value's adjoint only where the program reads it: an `omp atomic` update's is never read, and
       adding its zero back, atomically, cost an atomic update per update (an edge loop's residual: 2 an edge) */
    LLVMValueRef dp = rs(g, p), d_old = varied(g, inst) && LLVMGetFirstUse(inst) ? adj_take(g, inst) : NULL;
    if (op == LLVMAtomicRMWBinOpXchg) { /* like a store; the old value's adjoint returns to memory */
      LLVMValueRef dv = take_memory(g, dp, t, LLVMGetAlignment(inst), varied(g, v));
      if (dv) adj_add(g, v, dv);
      if (d_old) accumulate_into(g, inst, p, dp, d_old, LLVMGetAlignment(inst));
      return true;
    }
    /* x += v: v's adjoint is the memory's, which stays */
    if (varied(g, v)) {
      LLVMValueRef dx = LLVMBuildLoad2(g->b, t, dp, "");
      adj_add(g, v, op == LLVMAtomicRMWBinOpFSub ? LLVMBuildFNeg(g->b, dx, "") : dx);
    }
    if (d_old) accumulate_into(g, inst, p, dp, d_old, LLVMGetAlignment(inst));
    return true;
  }
  case LLVMAtomicCmpXchg:
  case LLVMGetElementPtr: return true;
  default: return false;
  }
}

/* ---- layouts: where the floats and pointers of structs mixing kinds lie (runtime/memory.c) ---- */

static bool layout_has(const MemLayout *l, DataKind k1, DataKind k2) {
  for (unsigned i = 0; i < l->n; i++)
    if (l->run[i].kind == k1 || l->run[i].kind == k2) return true;
  return false;
}

/* A layout's runs as the runtime reads them (runtime/memory.c): a constant array, null while planning
 * (the call is thrown away). */
static LLVMValueRef layout_table(RevGen *g, const MemLayout *l) {
  LLVMTypeRef i32 = LLVMInt32TypeInContext(g->ctx);
  LLVMValueRef runs[3 * LAYOUT_MAX_RUNS];
  for (unsigned i = 0; i < l->n; i++) {
    runs[3 * i] = LLVMConstInt(i32, l->run[i].offset, 0);
    runs[3 * i + 1] = LLVMConstInt(i32, l->run[i].count, 0);
    runs[3 * i + 2] = LLVMConstInt(i32, l->run[i].kind == DATA_F64 ? 1 : l->run[i].kind == DATA_F32 ? 2 : 3, 0);
  }
  if (g->phase == PLANNING) return LLVMConstNull(g->ptr_type);
  LLVMValueRef table = LLVMConstArray2(i32, runs, 3 * l->n);
  LLVMValueRef gv = LLVMAddGlobal(g->ad->mod, LLVMTypeOf(table), "parad.layout");
  LLVMSetInitializer(gv, table);
  LLVMSetGlobalConstant(gv, 1);
  LLVMSetLinkage(gv, LLVMPrivateLinkage);
  LLVMSetUnnamedAddress(gv, LLVMGlobalUnnamedAddr);
  return gv;
}

/* Calls the runtime's copy over a layout. */
static void copy_fields(RevGen *g, const char *name, LLVMValueRef dst, LLVMValueRef src, LLVMValueRef bytes,
                        const MemLayout *l) {
  LLVMTypeRef i32 = LLVMInt32TypeInContext(g->ctx);
  LLVMValueRef args[7] = {dst, src ? src : LLVMConstNull(g->ptr_type), LLVMBuildZExtOrBitCast(g->b, bytes, g->i64, ""),
                          LLVMConstInt(g->i64, l->period, 0), LLVMConstInt(g->i64, l->phase, 0), layout_table(g, l),
                          LLVMConstInt(i32, l->n, 0)};
  LLVMTypeRef params[7] = {g->ptr_type, g->ptr_type, g->i64, g->i64, g->i64, g->ptr_type, i32};
  ir_call_named(g->b, name, LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), params, 7, 0), args, 7);
}

/* ---- heap ---- */

/* With a checkpointed loop in the module, the runtime frees: a block a snapshot may hold must outlive the
 * loop's reverse sweep (runtime/checkpoint.c). */
static bool checkpoints(RevGen *g) { return LLVMGetNamedFunction(g->ad->mod, "__parad_rt_ckpt_forward") != NULL; }

/* The primal realloc, through the runtime's where the old block must stay. */
static void aug_realloc(RevGen *g, LLVMValueRef call) {
  LLVMValueRef c = aug_clone(g, call);
  if (!checkpoints(g) || strcmp(ir_called_name(call), "realloc")) return;
  LLVMTypeRef fty = LLVMGlobalGetValueType(ir_called_function(call));
  LLVMValueRef f = LLVMGetNamedFunction(g->ad->mod, "__parad_rt_ckpt_realloc");
  if (!f) f = LLVMAddFunction(g->ad->mod, "__parad_rt_ckpt_realloc", fty);
  LLVMSetOperand(c, (unsigned)LLVMGetNumOperands(c) - 1, f);
}

/* What a realloc moves: one kind of data, or (structs mixing kinds: a growing array of particles) a layout. */
static DataKind realloc_data(LLVMValueRef call, MemLayout *layout, bool *laid_out) {
  DataKind data = memtype_of_data(call);
  *laid_out = (data == DATA_MIXED || data == DATA_UNKNOWN) && memtype_layout_of_data(call, layout);
  return data;
}

/* A block whose kind is not told (a generic container's `realloc(v->data, cap * v->size)`, records of an
 * int and a double read back through byte offsets): its shadow moves as bytes, and back in the reverse
 * sweep (runtime/memory.c), whatever it holds. */
static bool realloc_moves_bytes(DataKind data, bool laid_out) {
  return !laid_out && (data == DATA_MIXED || data == DATA_UNKNOWN);
}

/* The runtime's move of a realloc'd block's shadow over a layout (the move's size is the runtime's). */
static void realloc_fields(RevGen *g, const char *name, LLVMValueRef shadow, const MemLayout *l) {
  LLVMTypeRef i32 = LLVMInt32TypeInContext(g->ctx);
  LLVMValueRef args[5] = {shadow, LLVMConstInt(g->i64, l->period, 0), LLVMConstInt(g->i64, l->phase, 0), layout_table(g, l),
                          LLVMConstInt(i32, l->n, 0)};
  LLVMTypeRef params[5] = {g->ptr_type, g->i64, g->i64, g->ptr_type, i32};
  ir_call_named(g->b, name, LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), params, 5, 0), args, 5);
}

void aug_heap(RevGen *g, LLVMValueRef call, CallKind kind) {
  LLVMValueRef primal_old = kind == CALL_REALLOC ? LLVMGetArgOperand(call, 0) : NULL;
  if (kind == CALL_REALLOC && shadowed(g, call)) {
    /* before the primal realloc frees the old block: a zeroed shadow for the new one, remembering the
     * old shadow and size for the reverse sweep; the shadows of the pointers moved go along */
    MemLayout layout;
    bool laid_out;
    DataKind data = realloc_data(call, &layout, &laid_out);
    LLVMValueRef args[4] = {aug_value(g, primal_old), aug_shadow(g, primal_old, call, "this realloc"),
                            aug_value(g, LLVMGetArgOperand(call, 1)),
                            LLVMConstInt(LLVMInt32TypeInContext(g->ctx), realloc_moves_bytes(data, laid_out) ? 2 : data == DATA_PTR, 0)};
    LLVMValueRef s = runtime_call(g, "__parad_rt_realloc_shadow", g->ptr_type, args, 4);
    if (laid_out && layout_has(&layout, DATA_PTR, DATA_PTR)) realloc_fields(g, "__parad_rt_realloc_pointers", s, &layout);
    aug_realloc(g, call);
    vmap_put(&g->smap, call, s);
    return;
  }
  if (kind == CALL_FREE && checkpoints(g)) { /* the block and its shadow together (with C++'s delete where new made it) */
    LLVMValueRef p = LLVMGetArgOperand(call, call_freed_arg(call));
    LLVMValueRef args[3] = {aug_value(g, p), shadowed(g, p) ? aug_shadow(g, p, call, "this free") : LLVMConstNull(g->ptr_type)};
    const char *cxx_new, *cxx_delete;
    if (call_cxx_family(call, &cxx_new, &cxx_delete)) {
      args[2] = function_named(g, cxx_delete, LLVMVoidTypeInContext(g->ctx), g->ptr_type);
      runtime_call(g, "__parad_rt_ckpt_delete", LLVMVoidTypeInContext(g->ctx), args, 3);
    } else {
      runtime_call(g, "__parad_rt_ckpt_free", LLVMVoidTypeInContext(g->ctx), args, 2);
    }
    return;
  }
  if (kind == CALL_REALLOC)
    aug_realloc(g, call);
  else
    aug_clone(g, call);
  if (kind == CALL_ALLOC && checkpoints(g) && call_alloc_slot(call) < 0) {
    int arg[2];
    bool aligned = call_alloc_shape(call, arg);
    LLVMValueRef size = LLVMConstInt(g->i64, 1, 0);
    for (int k = 0; k < (aligned ? 1 : 2); k++)
      if (arg[k] >= 0)
        size = LLVMBuildMul(g->b, size, LLVMBuildIntCast2(g->b, aug_value(g, LLVMGetArgOperand(call, (unsigned)arg[k])), g->i64, 0, ""), "");
    LLVMValueRef args[2] = {aug_value(g, call), size};
    runtime_call(g, "__parad_rt_ckpt_allocated", LLVMVoidTypeInContext(g->ctx), args, 2);
  }
  if (kind == CALL_FREE) {
    /* the primal block may go now (the reverse sweep never reads primal memory); its shadow collects
     * adjoints until the end */
    LLVMValueRef p = LLVMGetArgOperand(call, call_freed_arg(call));
    if (shadowed(g, p)) {
      /* a block of floats says so: if it was the caller's, the runtime can tell adjoints lost with it */
      DataKind data = memtype_of_data(p);
      bool floats = data == DATA_F64 || data == DATA_F32;
      const char *cxx_new, *cxx_delete;
      LLVMValueRef args[3] = {aug_shadow(g, p, call, "this free"),
                              LLVMConstInt(LLVMInt32TypeInContext(g->ctx), !floats ? 0 : data == DATA_F64 ? 8 : 4, 0)};
      if (call_cxx_family(call, &cxx_new, &cxx_delete)) { /* the shadow goes with the program's delete */
        args[2] = function_named(g, cxx_delete, LLVMVoidTypeInContext(g->ctx), g->ptr_type);
        runtime_call(g, "__parad_rt_delete_later", LLVMVoidTypeInContext(g->ctx), args, 3);
      } else
        runtime_call(g, floats ? "__parad_rt_free_later_floats" : "__parad_rt_free_later", LLVMVoidTypeInContext(g->ctx), args, floats ? 2 : 1);
    }
    return;
  }
  int slot = call_alloc_slot(call);
  LLVMValueRef slot_ptr = slot >= 0 ? LLVMGetArgOperand(call, (unsigned)slot) : NULL;
  if (!shadowed(g, slot_ptr ? slot_ptr : call)) return;
  int arg[2];
  bool aligned = call_alloc_shape(call, arg); /* aligned as the block: the derivative keeps its aligned accesses */
  LLVMValueRef v[2];
  for (int k = 0; k < 2; k++) /* a registered allocator's size may be an int */
    v[k] = arg[k] >= 0 ? LLVMBuildIntCast2(g->b, aug_value(g, LLVMGetArgOperand(call, (unsigned)arg[k])), g->i64, 0, "")
                       : LLVMConstInt(g->i64, 1, 0);
  const char *cxx_new, *cxx_delete;
  LLVMValueRef s;
  /* C++'s new: the program's delete may free the shadow, and the runtime frees it with the same delete
     (__parad_rt_ckpt_delete is given it) */
  if (call_cxx_family(call, &cxx_new, &cxx_delete))
    s = shadow_alloc(g, "__parad_rt_shadow_new", function_named(g, cxx_new, g->ptr_type, g->i64), v[1]);
  else
    s = shadow_alloc(g, aligned ? "__parad_rt_shadow_alloc_aligned" : "__parad_rt_shadow_alloc", v[0], v[1]);
  if (!slot_ptr) {
    vmap_put(&g->smap, call, s);
    return;
  }
  /* posix_memalign: the shadow goes into the slot's shadow where the block went into the slot; on failure
     neither slot changes, and the shadow is freed */
  LLVMValueRef ok = LLVMBuildICmp(g->b, LLVMIntEQ, aug_value(g, call), LLVMConstNull(LLVMTypeOf(call)), "");
  LLVMValueRef ds = aug_shadow(g, slot_ptr, call, "this allocation");
  LLVMBuildStore(g->b, LLVMBuildSelect(g->b, ok, s, LLVMBuildLoad2(g->b, g->ptr_type, ds, ""), ""), ds);
  LLVMValueRef unused = LLVMBuildSelect(g->b, ok, LLVMConstNull(g->ptr_type), s, "");
  ir_call_named(g->b, "free", LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), &g->ptr_type, 1, 0), &unused, 1);
}

void rev_heap(RevGen *g, LLVMValueRef call, CallKind kind) {
  if (kind != CALL_REALLOC || !shadowed(g, call)) return;
  /* the adjoints of the moved data go back to the old block's shadow */
  MemLayout layout;
  bool laid_out;
  DataKind data = realloc_data(call, &layout, &laid_out);
  if (laid_out) {
    if (layout_has(&layout, DATA_F64, DATA_F32)) realloc_fields(g, "__parad_rt_realloc_adjoints", rs(g, call), &layout);
    return;
  }
  if (data == DATA_PTR || data == DATA_INT) return;
  unsigned width = realloc_moves_bytes(data, laid_out) ? 1 : data == DATA_F64 ? 8 : 4;
  LLVMValueRef args[2] = {rs(g, call), LLVMConstInt(LLVMInt32TypeInContext(g->ctx), width, 0)};
  runtime_call(g, "__parad_rt_realloc_shadow_reverse", LLVMVoidTypeInContext(g->ctx), args, 2);
}

/* ---- memcpy, memmove, memset ---- */

/* A copy of a memory call on shadows (ir_mirror_call), without the primal's source location. */
static void mirror(RevGen *g, LLVMValueRef call, LLVMValueRef dst, LLVMValueRef src, bool zero_value) {
  LLVMInstructionSetDebugLoc(ir_mirror_call(g->b, &g->vmap, call, dst, src, zero_value), NULL);
}

/* What a copy moves: one kind of data, or (structs mixing kinds) a layout. */
static DataKind copy_data(LLVMValueRef call, MemLayout *layout, bool *laid_out) {
  DataKind data = memtype_of_copy(call);
  *laid_out = (data == DATA_MIXED || data == DATA_UNKNOWN) && memtype_layout_of_copy(call, layout);
  return data;
}

void aug_memcpy(RevGen *g, LLVMValueRef call, CallKind kind) {
  aug_clone(g, call);
  shared_aug_copy(g, call);
  LLVMValueRef d = LLVMGetArgOperand(call, 0), s = kind == CALL_MEMCPY ? LLVMGetArgOperand(call, 1) : NULL;
  if (!shadowed(g, d) && !(s && shadowed(g, s))) return;
  MemLayout layout;
  bool laid_out;
  DataKind data = copy_data(call, &layout, &laid_out);
  if (!shadowed(g, d)) { /* active data copied where it has no shadow (an inactive global drops it) */
    if (data != DATA_PTR && data != DATA_INT && !(laid_out && !layout_has(&layout, DATA_F64, DATA_F32)) &&
        !registered_inactive_memory(d)) {
      char buf[1024];
      ir_describe_memory(d, buf, sizeof buf);
      rev_error(g, call, "cannot copy active memory into memory without a shadow (%s)", buf);
    }
    return;
  }
  if (s && ad_copy_drops_pointer_shadows(g->act, call)) {
    char buf[1024];
    ir_describe_memory(s, buf, sizeof buf);
    rev_error(g, call, POINTERS_COPIED_WITHOUT_SHADOWS, buf);
    return;
  }
  LLVMTypeRef other = kind == CALL_MEMCPY && !laid_out ? memtype_other_float_of_copy(call) : NULL;
  if (other && shadowed(g, s)) { /* long doubles: their adjoints move in the reverse sweep */
    if (LLVMGetTypeKind(other) != LLVMX86_FP80TypeKind)
      rev_error(g, call, "reverse mode cannot differentiate a copy of _Float16 or __bf16 data: copy the elements one by one");
    else if (shared(g, s))
      rev_error(g, call, "reverse mode cannot differentiate a copy of long double data that other threads may reach too");
    return;
  }
  if (kind == CALL_MEMCPY && (data == DATA_MIXED || data == DATA_UNKNOWN) && !laid_out) {
    /* From memory without a shadow nothing active comes, whatever it is: into a block of this function's
       own (whose shadow holds no seed of the caller's), the shadow is cleared, which gives whatever
       pointers came along no shadow, and the reverse sweep clears it again. */
    if (!shadowed(g, s) && rev_thread_private(d)) {
      ir_memset_zero(g->b, aug_shadow(g, d, call, "this copy"), aug_value(g, LLVMGetArgOperand(call, 2)), 1);
      return;
    }
    rev_error(g, call, "reverse mode cannot tell what this copy moves (%s data): copy typed values instead, "
                       "or the fields of a struct one by one", data_kind_name(data));
    return;
  }
  if (laid_out) { /* the shadows of the pointers among the fields go along */
    if (layout_has(&layout, DATA_PTR, DATA_PTR))
      copy_fields(g, "__parad_rt_copy_shadow_pointers", aug_shadow(g, d, call, "this copy"),
                  s && shadowed(g, s) ? aug_shadow(g, s, call, "this copy") : NULL, aug_value(g, LLVMGetArgOperand(call, 2)), &layout);
    return;
  }
  if (data != DATA_PTR) return; /* floats' adjoints move in the reverse sweep */
  LLVMValueRef ds = aug_shadow(g, d, call, "this copy");
  if (kind == CALL_MEMSET || !shadowed(g, s))
    mirror(g, call, ds, NULL, true);
  else
    mirror(g, call, ds, aug_shadow(g, s, call, "this copy"), false);
}

void rev_memcpy(RevGen *g, LLVMValueRef call, CallKind kind) {
  LLVMValueRef d = LLVMGetArgOperand(call, 0);
  if (!shadowed(g, d)) return;
  LLVMValueRef n = rv(g, LLVMGetArgOperand(call, 2));
  LLVMValueRef dd = rs(g, d);
  LLVMValueRef s = kind == CALL_MEMCPY ? LLVMGetArgOperand(call, 1) : NULL;
  MemLayout layout;
  bool laid_out;
  DataKind data = copy_data(call, &layout, &laid_out);
  if (laid_out) { /* the floats' adjoints go back to the source (none for a memset or constant data) */
    if (layout_has(&layout, DATA_F64, DATA_F32))
      copy_fields(g, s && shared(g, s) ? "__parad_rt_copy_adjoint_fields_atomic" : "__parad_rt_copy_adjoint_fields", dd,
                  s && shadowed(g, s) ? rs(g, s) : NULL, n, &layout);
    return;
  }
  if (kind == CALL_MEMCPY && (data == DATA_F64 || data == DATA_F32) && shadowed(g, s)) {
    /* ds += dd; dd = 0, in an order that is right when the two overlap (memmove) */
    LLVMValueRef ds = rs(g, s);
    if (ad_copy_through_view(g->act, call)) ds = ad_view_shadow_source(g->b, ds, rv(g, s)); /* NULL: constant memory */
    LLVMValueRef args[3] = {dd, ds, LLVMBuildZExtOrBitCast(g->b, n, g->i64, "")};
    /* in a parallel region, other threads may add into the source's adjoint at the same time */
    static const char *const names[2][2] = {{"__parad_rt_copy_adjoint_f32", "__parad_rt_copy_adjoint_f64"},
                                            {"__parad_rt_copy_adjoint_f32_atomic", "__parad_rt_copy_adjoint_f64_atomic"}};
    runtime_call(g, names[shared(g, s)][data == DATA_F64],
                 LLVMVoidTypeInContext(g->ctx), args, 3);
    return;
  }
  /* integers have no adjoint; their shadow may be the primal's own array (a shadow record sharing it) */
  if (data == DATA_PTR || data == DATA_INT) return;
  LLVMTypeRef other = kind == CALL_MEMCPY ? memtype_other_float_of_copy(call) : NULL;
  if (other && LLVMGetTypeKind(other) == LLVMX86_FP80TypeKind && shadowed(g, s)) { /* long doubles, as the floats above */
    LLVMValueRef args[3] = {dd, rs(g, s), LLVMBuildZExtOrBitCast(g->b, n, g->i64, "")};
    runtime_call(g, "__parad_rt_copy_adjoint_f80", LLVMVoidTypeInContext(g->ctx), args, 3);
    return;
  }
  /* overwritten data's adjoint is dropped: memset, or a copy of constant data */
  ir_memset_zero(g->b, dd, n, 1);
}
