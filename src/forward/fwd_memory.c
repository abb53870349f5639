/* Memory in forward mode: every access through a shadowed pointer is mirrored on its shadow(s), so the
 * shadow memory holds the tangents of the primal memory, element for element. Stack slots and heap
 * blocks that receive active data get zeroed shadows of their own. */
#include "forward/fwd_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ad/constants.h"
#include "ad/global_shadows.h"
#include "ad/registered.h"
#include "analysis/calls.h"
#include "analysis/memtype.h"
#include "ir/ir.h"

bool fwd_shadow_lanes(FwdGen *g, LLVMValueRef ptr, LLVMValueRef at, const char *what, LLVMValueRef *lanes) {
  LLVMTypeRef t = LLVMTypeOf(ptr);
  LLVMValueRef tv = activity_shadowed(g->act, ptr) ? tan_get(g, ptr) : NULL;
  if (tv) {
    for (unsigned i = 0; i < g->width; i++) lanes[i] = tan_lane(g, t, tv, i);
    return true;
  }
  for (unsigned i = 0; i < g->width; i++) lanes[i] = LLVMConstNull(t);
  /* A null pointer's shadow is null, an address computed from null its own, a constant's its own
     (ad/constants.h); nothing else may go without one. */
  if (LLVMIsAConstantPointerNull(ptr) || LLVMIsAUndefValue(ptr)) return true;
  if (ir_null_based(ptr)) {
    for (unsigned i = 0; i < g->width; i++) lanes[i] = fwd_primal(g, ptr);
    return true;
  }
  LLVMValueRef s = ad_has_constant_shadow(ptr) ? ad_constant_shadow(ptr, SHADOW_READ) : ad_stand_in_shadow(at, ptr, SHADOW_READ);
  if (s && g->width > 1 && ad_is_mutable_global_with_shadow(ir_address_base(ptr))) { /* one per direction */
    for (unsigned i = 0; i < g->width; i++) lanes[i] = ad_global_tangent_lane(ptr, i);
    return true;
  }
  if (s) { /* a view's operand that shadows itself (ad/constants.h): its loads compare */
    for (unsigned i = 0; i < g->width; i++) lanes[i] = s == ptr ? fwd_primal(g, ptr) : s;
    return true;
  }
  char buf[1024];
  ir_describe_memory(ptr, buf, sizeof buf);
  LLVMValueRef through = LLVMIsAStoreInst(at) && LLVMGetOperand(at, 0) == ptr ? activity_active_store_through(g->act, LLVMGetOperand(at, 1)) : NULL;
  if (through) /* kept in a variable (-O0): what goes wrong is the store through it */
    fwd_error(g, through, "cannot store an active value into memory without a shadow (%s)", buf);
  else
    fwd_error(g, at, "%s needs a shadow for memory that has none: %s", what, buf);
  return false;
}

/* The primal access's alignment, volatility, ordering and type-based alias tag hold for its shadow. */
static void copy_access(LLVMValueRef from, LLVMValueRef to) {
  LLVMSetAlignment(to, LLVMGetAlignment(from));
  LLVMSetVolatile(to, LLVMGetVolatile(from));
  LLVMAtomicOrdering o = LLVMGetOrdering(from);
  if (o != LLVMAtomicOrderingNotAtomic) LLVMSetOrdering(to, o);
  unsigned tbaa = LLVMGetMDKindID("tbaa", 4);
  LLVMValueRef md = LLVMGetMetadata(from, tbaa);
  if (md) LLVMSetMetadata(to, tbaa, md);
}

static void load(FwdGen *g, LLVMValueRef inst) {
  fwd_clone(g, inst);
  if (!activity_active(g->act, inst)) {
    if (activity_load_from_unknown_integer(g->act, inst)) fwd_error(g, inst, ACTIVITY_LOAD_FROM_INTEGER_ADDRESS);
    return;
  }
  LLVMTypeRef t = LLVMTypeOf(inst);
  LLVMValueRef ptr[MAX_WIDTH], lanes[MAX_WIDTH];
  if (!fwd_shadow_lanes(g, LLVMGetOperand(inst, 0), inst, "this load", ptr)) return;
  if (ad_load_through_view(g->act, inst) && !ir_is_ptr(t)) /* a pointer's shadow is the view's own (ad/constants.h) */
    for (unsigned i = 0; i < g->width; i++)
      ptr[i] = ad_view_shadow_address(g->b, LLVMGetGlobalParent(g->func), ptr[i], fwd_primal(g, LLVMGetOperand(inst, 0)), SHADOW_READ);
  for (unsigned i = 0; i < g->width; i++) {
    lanes[i] = LLVMBuildLoad2(g->b, t, ptr[i], "");
    copy_access(inst, lanes[i]);
  }
  tan_set(g, inst, tan_pack(g, t, lanes));
}

static void store(FwdGen *g, LLVMValueRef inst) {
  fwd_clone(g, inst);
  LLVMValueRef v = LLVMGetOperand(inst, 0), p = LLVMGetOperand(inst, 1);
  LLVMValueRef at;
  if (activity_lost_derivative(g->act, inst, &at)) return; /* reported (fwd_inst) */
  if (!activity_shadowed(g->act, p)) {
    if (activity_active(g->act, v) && !registered_inactive_memory(p)) { /* an inactive global drops it */
      char buf[1024];
      ir_describe_memory(p, buf, sizeof buf);
      fwd_error(g, inst, "cannot store an active value into memory without a shadow (%s)", buf);
    }
    return;
  }
  LLVMTypeRef t = LLVMTypeOf(v);
  LLVMValueRef ptr[MAX_WIDTH], val[MAX_WIDTH];
  if (!fwd_shadow_lanes(g, p, inst, "this store", ptr)) return;
  if (ir_is_ptr(t)) {
    if (!fwd_shadow_lanes(g, v, inst, "the pointer stored here into memory with derivatives", val)) return;
  } else {
    /* A constant or inactive value stored into active memory: its tangent is zero. A true integer has
       none, and its shadow is left as the caller made it: a shadow record may share the primal's integer
       arrays (a mesh's index list), as Enzyme's programs do */
    LLVMValueRef tv = tan_get(g, v);
    if (!tv && ir_is_int(t) && memtype_of_access(inst) == MEMTYPE_INT) return;
    for (unsigned i = 0; i < g->width; i++) val[i] = tv ? tan_lane(g, t, tv, i) : LLVMConstNull(t);
  }
  for (unsigned i = 0; i < g->width; i++) copy_access(inst, LLVMBuildStore(g->b, val[i], ptr[i]));
}

static void gep(FwdGen *g, LLVMValueRef inst) {
  fwd_clone(g, inst);
  if (!activity_shadowed(g->act, inst)) return;
  LLVMValueRef base[MAX_WIDTH], lanes[MAX_WIDTH];
  if (!fwd_shadow_lanes(g, LLVMGetOperand(inst, 0), inst, "this address computation", base)) return;
  unsigned n = (unsigned)LLVMGetNumOperands(inst) - 1;
  LLVMValueRef *idx = xcalloc(n + 1, sizeof *idx);
  for (unsigned k = 0; k < n; k++) idx[k] = fwd_primal(g, LLVMGetOperand(inst, k + 1));
  for (unsigned i = 0; i < g->width; i++) {
    lanes[i] = LLVMBuildGEP2(g->b, LLVMGetGEPSourceElementType(inst), base[i], idx, n, "");
    if (LLVMIsAGetElementPtrInst(lanes[i])) LLVMSetIsInBounds(lanes[i], LLVMIsInBounds(inst));
  }
  free(idx);
  tan_set(g, inst, tan_pack(g, LLVMTypeOf(inst), lanes));
}

static void alloca_(FwdGen *g, LLVMValueRef inst) {
  fwd_clone(g, inst);
  if (!activity_shadowed(g->act, inst)) return;
  LLVMTypeRef t = LLVMGetAllocatedType(inst);
  LLVMValueRef count = fwd_primal(g, LLVMGetOperand(inst, 0));
  LLVMTypeRef i64 = LLVMInt64TypeInContext(g->ctx);
  LLVMValueRef bytes = LLVMBuildMul(g->b, LLVMBuildZExtOrBitCast(g->b, count, i64, ""),
                                    LLVMConstInt(i64, ir_type_size(g->ad->mod, t), 0), "");
  LLVMValueRef lanes[MAX_WIDTH];
  bool large = ir_large_alloca(g->ad->mod, inst); /* beside the program's own, it overflowed the stack */
  unsigned align = LLVMGetAlignment(inst) > 16 ? LLVMGetAlignment(inst) : 16;
  LLVMTypeRef ptr = LLVMPointerTypeInContext(g->ctx, 0), sizes[2] = {i64, i64};
  for (unsigned i = 0; i < g->width; i++) {
    if (large) { /* a multiple of its alignment, as aligned_alloc asks */
      LLVMValueRef args[2] = {LLVMConstInt(i64, align, 0),
                              LLVMBuildAnd(g->b, LLVMBuildAdd(g->b, bytes, LLVMConstInt(i64, align - 1, 0), ""),
                                           LLVMConstInt(i64, ~(unsigned long long)(align - 1), 0), "")};
      lanes[i] = ir_call_named(g->b, "aligned_alloc", LLVMFunctionType(ptr, sizes, 2, 0), args, 2);
      vec_push(&g->heap_slots, lanes[i]);
    } else {
      lanes[i] = LLVMIsAConstantInt(count) && LLVMConstIntGetZExtValue(count) == 1
                     ? LLVMBuildAlloca(g->b, t, "shadow")
                     : LLVMBuildArrayAlloca(g->b, t, count, "shadow");
      LLVMSetAlignment(lanes[i], LLVMGetAlignment(inst));
    }
    ir_memset_zero(g->b, lanes[i], bytes, LLVMGetAlignment(inst));
  }
  tan_set(g, inst, tan_pack(g, LLVMTypeOf(inst), lanes));
}

static void atomicrmw(FwdGen *g, LLVMValueRef inst) {
  fwd_clone(g, inst);
  LLVMValueRef p = LLVMGetOperand(inst, 0), v = LLVMGetOperand(inst, 1);
  if (!activity_shadowed(g->act, p)) {
    if (activity_active(g->act, v) && !registered_inactive_memory(p))
      fwd_error(g, inst, "cannot differentiate an atomic update of memory without a shadow");
    return;
  }
  LLVMAtomicRMWBinOp op = LLVMGetAtomicRMWBinOp(inst);
  LLVMTypeRef t = LLVMTypeOf(v);
  if (!ir_is_fp(t)) return; /* integer atomics: counters, flags */
  if (op != LLVMAtomicRMWBinOpFAdd && op != LLVMAtomicRMWBinOpFSub && op != LLVMAtomicRMWBinOpXchg) {
    fwd_error(g, inst, "cannot differentiate this atomic floating-point %s", ir_atomic_fp_refusal(op));
    return;
  }
  LLVMValueRef ptr[MAX_WIDTH], lanes[MAX_WIDTH];
  if (!fwd_shadow_lanes(g, p, inst, "this atomic update", ptr)) return;
  LLVMValueRef tv = tan_get(g, v);
  for (unsigned i = 0; i < g->width; i++) {
    LLVMValueRef d = tv ? tan_lane(g, t, tv, i) : LLVMConstNull(t);
    lanes[i] = LLVMBuildAtomicRMW(g->b, op, ptr[i], d, LLVMGetOrdering(inst), LLVMIsAtomicSingleThread(inst));
  }
  tan_set(g, inst, tan_pack(g, t, lanes));
}

bool fwd_memory(FwdGen *g, LLVMValueRef inst) {
  switch (LLVMGetInstructionOpcode(inst)) {
  case LLVMLoad: load(g, inst); return true;
  case LLVMStore: store(g, inst); return true;
  case LLVMGetElementPtr: gep(g, inst); return true;
  case LLVMAlloca: alloca_(g, inst); return true;
  case LLVMAtomicRMW: atomicrmw(g, inst); return true;
  case LLVMAtomicCmpXchg: {
    fwd_clone(g, inst);
    LLVMValueRef p = LLVMGetOperand(inst, 0), v = LLVMGetOperand(inst, 2);
    if (activity_shadowed(g->act, p) && (activity_active(g->act, v) || activity_from_float_bits(g->act, v) ||
                                         ir_contains_fp(LLVMTypeOf(v))))
      fwd_error(g, inst, CMPXCHG_MESSAGE);
    return true;
  }
  default: return false;
  }
}

/* ---- memory library calls ---- */

void fwd_memcpy(FwdGen *g, LLVMValueRef call) {
  fwd_clone(g, call);
  LLVMValueRef d = LLVMGetArgOperand(call, 0), s = LLVMGetArgOperand(call, 1);
  LLVMValueRef dl[MAX_WIDTH], sl[MAX_WIDTH];
  if (!activity_shadowed(g->act, d)) {
    if (activity_shadowed(g->act, s) && !registered_inactive_memory(d)) {
      char buf[1024];
      ir_describe_memory(d, buf, sizeof buf);
      fwd_error(g, call, "cannot copy active memory into memory without a shadow (%s)", buf);
    }
    return;
  }
  if (ad_copy_drops_pointer_shadows(g->act, call)) {
    char buf[1024];
    ir_describe_memory(s, buf, sizeof buf);
    fwd_error(g, call, POINTERS_COPIED_WITHOUT_SHADOWS, buf);
    return;
  }
  /* integers have no tangent; their shadow may be the primal's own array (a shadow record sharing it) */
  if (memtype_of_copy(call) == DATA_INT || !fwd_shadow_lanes(g, d, call, "this copy", dl)) return;
  if (activity_shadowed(g->act, s)) {
    if (!fwd_shadow_lanes(g, s, call, "this copy", sl)) return;
    if (ad_copy_through_view(g->act, call)) { /* its shadow may be its own memory (ad/constants.h) */
      LLVMTypeRef ptr = LLVMPointerTypeInContext(g->ctx, 0), i64 = LLVMInt64TypeInContext(g->ctx);
      LLVMTypeRef params[3] = {ptr, ptr, i64};
      LLVMValueRef n = LLVMBuildZExtOrBitCast(g->b, fwd_primal(g, LLVMGetArgOperand(call, 2)), i64, "");
      for (unsigned i = 0; i < g->width; i++) {
        LLVMValueRef args[3] = {dl[i], ad_view_shadow_source(g->b, sl[i], fwd_primal(g, s)), n};
        ir_call_named(g->b, "__parad_rt_copy_tangent", LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), params, 3, 0), args, 3);
      }
      return;
    }
    for (unsigned i = 0; i < g->width; i++) ir_mirror_call(g->b, &g->vmap, call, dl[i], sl[i], false);
  } else {
    /* copying constant data: the destination's tangent becomes zero */
    LLVMValueRef n = fwd_primal(g, LLVMGetArgOperand(call, 2));
    for (unsigned i = 0; i < g->width; i++) ir_memset_zero(g->b, dl[i], n, 1);
  }
}

void fwd_memset(FwdGen *g, LLVMValueRef call) {
  fwd_clone(g, call);
  LLVMValueRef d = LLVMGetArgOperand(call, 0), dl[MAX_WIDTH];
  if (!activity_shadowed(g->act, d) || memtype_of_copy(call) == DATA_INT || !fwd_shadow_lanes(g, d, call, "this memset", dl))
    return;
  for (unsigned i = 0; i < g->width; i++) ir_mirror_call(g->b, &g->vmap, call, dl[i], NULL, true);
}

void fwd_heap(FwdGen *g, LLVMValueRef call, CallKind kind) {
  fwd_clone(g, call);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(g->ctx, 0), i64 = LLVMInt64TypeInContext(g->ctx);
  LLVMValueRef lanes[MAX_WIDTH];
  if (kind == CALL_FREE) {
    LLVMValueRef p = LLVMGetArgOperand(call, call_freed_arg(call));
    if (!activity_shadowed(g->act, p) || !fwd_shadow_lanes(g, p, call, "this free", lanes)) return;
    /* with the delete of the block's family for C++'s (the caller made its tangent blocks as its blocks) */
    const char *cxx_new, *cxx_delete;
    bool cxx = call_cxx_family(call, &cxx_new, &cxx_delete);
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), &ptr, 1, 0);
    for (unsigned i = 0; i < g->width; i++) ir_call_named(g->b, cxx ? cxx_delete : "free", fty, &lanes[i], 1);
    return;
  }
  int slot = kind == CALL_ALLOC ? call_alloc_slot(call) : -1;
  if (!activity_shadowed(g->act, slot >= 0 ? LLVMGetArgOperand(call, (unsigned)slot) : call)) return;
  if (kind == CALL_REALLOC) {
    LLVMValueRef old[MAX_WIDTH];
    if (!fwd_shadow_lanes(g, LLVMGetArgOperand(call, 0), call, "this realloc", old)) return;
    LLVMTypeRef params[2] = {ptr, i64};
    LLVMTypeRef fty = LLVMFunctionType(ptr, params, 2, 0);
    for (unsigned i = 0; i < g->width; i++) {
      LLVMValueRef args[2] = {old[i], fwd_primal(g, LLVMGetArgOperand(call, 1))};
      lanes[i] = ir_call_named(g->b, "realloc", fty, args, 2);
    }
  } else {
    /* malloc(n), calloc(k, n), new: the shadow starts zeroed, as the tangent of unwritten memory (aligned
       as the block for an aligned new) */
    LLVMTypeRef params[2] = {i64, i64};
    LLVMTypeRef fty = LLVMFunctionType(ptr, params, 2, 0);
    int arg[2];
    const char *fn = call_alloc_shape(call, arg) ? "__parad_rt_shadow_alloc_aligned" : "calloc", *cxx_new, *cxx_delete;
    LLVMValueRef args[2];
    for (int k = 0; k < 2; k++) /* a registered allocator's size may be an int */
      args[k] = arg[k] >= 0 ? LLVMBuildIntCast2(g->b, fwd_primal(g, LLVMGetArgOperand(call, (unsigned)arg[k])), i64, 0, "")
                            : LLVMConstInt(i64, 1, 0);
    if (call_cxx_family(call, &cxx_new, &cxx_delete)) { /* C++'s new: the program's delete may free the tangent block */
      fn = "__parad_rt_shadow_new";
      args[0] = ir_function_named(ir_builder_module(g->b), cxx_new, LLVMFunctionType(ptr, &i64, 1, 0));
      LLVMTypeRef new_params[2] = {ptr, i64};
      fty = LLVMFunctionType(ptr, new_params, 2, 0);
    }
    for (unsigned i = 0; i < g->width; i++) lanes[i] = ir_call_named(g->b, fn, fty, args, 2);
  }
  if (slot < 0) {
    tan_set(g, call, tan_pack(g, LLVMTypeOf(call), lanes));
    return;
  }
  /* posix_memalign: the shadow goes into the slot's shadow where the block went into the slot; on
     failure neither slot changes, and the shadow is freed */
  LLVMValueRef slots[MAX_WIDTH], ok = LLVMBuildICmp(g->b, LLVMIntEQ, fwd_primal(g, call), LLVMConstNull(LLVMTypeOf(call)), "");
  if (!fwd_shadow_lanes(g, LLVMGetArgOperand(call, (unsigned)slot), call, "this allocation", slots)) return;
  LLVMTypeRef free_type = LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), &ptr, 1, 0);
  for (unsigned i = 0; i < g->width; i++) {
    LLVMBuildStore(g->b, LLVMBuildSelect(g->b, ok, lanes[i], LLVMBuildLoad2(g->b, ptr, slots[i], ""), ""), slots[i]);
    LLVMValueRef unused = LLVMBuildSelect(g->b, ok, LLVMConstNull(ptr), lanes[i], "");
    ir_call_named(g->b, "free", free_type, &unused, 1);
  }
}
