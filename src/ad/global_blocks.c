/* Globals holding a heap block (see global_blocks.h). */
#include "ad/global_blocks.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ad/checkpoint_auto.h"
#include "ad/global_shadows.h"
#include "ad/indirect.h"
#include "ad/registered.h"
#include "analysis/calls.h"
#include "ir/ir.h"
#include "omp/omp.h"
#include "rules/rules.h"

/* What is known of a global holding pointers to heap blocks: its verdict, its slots (the pointers it holds:
 * offset 0 alone for a pointer global, each pointer field of a struct; and those the blocks hold, at
 * constant offsets, one level down), and the sites that set or free what the slots hold. */
enum { NOT = 1, QUALIFIES, ACTIVE /* qualifies, and a block may hold active data */ };
typedef struct {
  long long offset; /* bytes from the global, or from the block the parent slot points to */
  int parent;       /* -1: the global's own */
} Slot;
typedef struct Known {
  LLVMValueRef global;
  int verdict;
  VEC(Slot) slots;
  ValueList sites; /* pointers stored into slots, posix_memalign into them, loads of them (freed) */
} Known;
static VEC(Known) known;
static ValueMap known_at; /* global -> 1 + its index */
static bool known_made;

static int add_slot(Known *k, int parent, long long offset) {
  for (size_t i = 0; i < k->slots.len; i++)
    if (k->slots.data[i].offset == offset && k->slots.data[i].parent == parent) return (int)i;
  Slot s = {offset, parent};
  vec_push(&k->slots, s);
  return (int)k->slots.len - 1;
}

static int known_parent(const Known *k, int slot) { return k->slots.data[slot].parent; }

static void add_site(Known *k, LLVMValueRef site) {
  for (size_t i = 0; i < k->sites.len; i++)
    if (k->sites.data[i] == site) return;
  vec_push(&k->sites, site);
}

static LLVMValueRef allocation(LLVMValueRef v) {
  v = ir_strip_pointer_casts(v);
  if (!ir_is_call(v)) return NULL;
  CallKind k = call_classify(v, NULL);
  return (k == CALL_ALLOC && call_alloc_slot(v) < 0) || k == CALL_REALLOC ? v : NULL;
}

/* The allocation v is, or points a constant offset into (Numerical Recipes' `malloc(...) - 1`). */
static LLVMValueRef offset_allocation(LLVMValueRef v) {
  long long offset = 0;
  for (int depth = 0; depth < 4; depth++) {
    v = ir_strip_pointer_casts(v);
    if (!LLVMIsAGetElementPtrInst(v) || !ir_gep_constant_offset(LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInstructionParent(v))), v, &offset))
      break;
    v = LLVMGetOperand(v, 0);
  }
  return allocation(v);
}

static bool returns_fresh(LLVMValueRef fn, int depth);

/* Whether v is null or the start of a fresh heap block: an allocation, what an allocation wrapper of the
 * module returns (xmalloc, dvector), merges of those, a local variable (-O0) only ever given those. */
static bool fresh(LLVMValueRef v, int depth) {
  v = ir_strip_pointer_casts(v);
  if (depth > 8) return false;
  if (LLVMIsAConstantPointerNull(v) || LLVMIsUndef(v) || allocation(v)) return true;
  if (LLVMIsAPHINode(v)) {
    for (unsigned i = 0, n = LLVMCountIncoming(v); i < n; i++)
      if (LLVMGetIncomingValue(v, i) != v && !fresh(LLVMGetIncomingValue(v, i), depth + 1)) return false;
    return true;
  }
  if (LLVMIsASelectInst(v)) return fresh(LLVMGetOperand(v, 1), depth + 1) && fresh(LLVMGetOperand(v, 2), depth + 1);
  if (ir_is_call(v) && call_classify(v, NULL) == CALL_MODULE) return returns_fresh(ir_called_function(v), depth + 1);
  LLVMValueRef slot = LLVMIsALoadInst(v) ? ir_strip_pointer_casts(LLVMGetOperand(v, 0)) : NULL;
  if (!slot || !LLVMIsAAllocaInst(slot)) return false;
  for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsALoadInst(user) || ir_is_debug_intrinsic(user) || (ir_is_call(user) && call_classify(user, NULL) == CALL_INACTIVE))
      continue;
    if (!LLVMIsAStoreInst(user) || LLVMGetOperand(user, 1) != slot || !fresh(LLVMGetOperand(user, 0), depth + 1)) return false;
  }
  return true;
}

/* An allocation wrapper: every value fn returns is fresh. */
static bool returns_fresh(LLVMValueRef fn, int depth) {
  if (!fn || LLVMIsDeclaration(fn) || !ir_is_ptr(LLVMGetReturnType(LLVMGlobalGetValueType(fn)))) return false;
  bool any = false;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    if (!t || !LLVMIsAReturnInst(t)) continue;
    if (LLVMGetNumOperands(t) != 1 || !fresh(LLVMGetOperand(t, 0), depth)) return false;
    any = true;
  }
  return any;
}

/* What a wrapper the module defines gives: a block whose size the runtime asks malloc for. */
static LLVMValueRef wrapped_allocation(LLVMValueRef v) {
  v = ir_strip_pointer_casts(v);
  return ir_is_call(v) && call_classify(v, NULL) == CALL_MODULE && returns_fresh(ir_called_function(v), 0) ? v : NULL;
}

/* What set-up code may store into such a global: null, a fresh block, what another global holds (a field of
 * one too), a local's address, an address inside one of those, a choice among those (the program's own time loop inlined into main swaps
 * two globals' blocks through a pair of phis), or what a local slot holds of those. */
static bool setup_value_within(LLVMValueRef v, ValueList *merges) {
  v = ir_strip_pointer_casts(v);
  if (LLVMIsAConstantPointerNull(v) || LLVMIsUndef(v) || allocation(v) || wrapped_allocation(v)) return true;
  if (LLVMIsALoadInst(v)) {
    LLVMValueRef at = ir_address_base(LLVMGetOperand(v, 0));
    if (LLVMIsAGlobalVariable(at)) return true;
    if (!LLVMIsAAllocaInst(at) || ir_list_has(merges, at)) return LLVMIsAAllocaInst(at);
    /* a local kept in memory (-O0's `double *t = u; u = v; v = t;`): what is stored there */
    if (merges->len >= 32) return false;
    vec_push(merges, at);
    for (LLVMUseRef u = LLVMGetFirstUse(at); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef st = LLVMGetUser(u);
      if (LLVMIsAStoreInst(st) && LLVMGetOperand(st, 1) == at && !setup_value_within(LLVMGetOperand(st, 0), merges))
        return false;
    }
    return true;
  }
  /* a local's address (main's own call of a function that keeps its argument in a global, as a qsort
     comparator's context, inlined): a derivative that starts while the global still holds it stops, as for
     any memory not allocated (runtime/global_blocks.c) */
  if (LLVMIsAAllocaInst(v)) return true;
  /* a global's address (generated code pointing its model at its states, `rtM->contStates = &rtX`, in the
     set-up and again in the code a derivative runs, where the shadow's goes with it): the same */
  if (LLVMIsAConstant(v) && LLVMIsAGlobalVariable(ir_address_base(v))) return true;
  /* a setter's parameter (`void bind(const double *u) { U = u; }` in a file of its own, which plain code may
     call with anything): the same, whatever its callers give */
  if (LLVMIsAArgument(v)) return true;
  /* a pointer into one of those (`rows[1] = y + 2` of a block y main allocates: the runtime finds the block
     that holds it) */
  if (LLVMIsAGetElementPtrInst(v)) return setup_value_within(ir_address_base(v), merges);
  if (!LLVMIsAPHINode(v) && !LLVMIsASelectInst(v)) return false;
  if (ir_list_has(merges, v)) return true; /* a cycle: its other ways in decide */
  if (merges->len >= 32) return false;
  vec_push(merges, v);
  for (unsigned i = LLVMIsASelectInst(v) ? 1 : 0, n = (unsigned)LLVMGetNumOperands(v); i < n; i++)
    if (!setup_value_within(LLVMGetOperand(v, i), merges)) return false;
  return true;
}

static bool setup_value(LLVMValueRef v) {
  ValueList merges = {0};
  bool ok = setup_value_within(v, &merges);
  vec_free(&merges);
  return ok;
}

typedef enum { WALK_POINTERS, WALK_ACTIVE } Walk;

/* Where a walk of WALK_POINTERS is in a block a global's slot points to (NULL: anywhere, where pointers are
 * refused): the global's Known, the slot, the byte offset from the block's start (-1: not constant). A
 * pointer the block holds at a constant offset is a slot of its own (a field `M->u` of a global `Mesh *M`),
 * one level down; the blocks those point to hold no pointers. */
typedef struct {
  struct Known *k;
  int parent;
  long long offset;
} Nest;

/* A pointer held in the nest's block, at addr: a slot below the nest's where the offset is constant and
 * the nest is a global's slot (the walk then goes on into the block it points to), else refused. */
static bool held_pointer(Nest *nest, Nest *below) {
  if (!nest || nest->offset < 0 || nest->parent < 0 || known_parent(nest->k, nest->parent) >= 0) return false;
  *below = (Nest){nest->k, add_slot(nest->k, nest->parent, nest->offset), 0};
  return true;
}

/* Walks the memory pointer p reaches (a load of the global's slot): its addresses, merges, a local slot it
 * is kept in (-O0), the module's functions and parallel regions it is passed to. WALK_POINTERS: whether the
 * memory is read or written as pointers other than the nest's slots (with nest NULL: any). WALK_ACTIVE:
 * whether code a derivative runs may put active data there, or in the blocks its pointers point to (a
 * store of floats that vary, an atomic, a copy into it, a call Parad does not know taking it). */
static bool walk(LLVMValueRef p, Walk what, ValueMap *seen, int depth, Nest *nest) {
  if (depth > 32 || vmap_has(seen, p)) return false;
  vmap_put(seen, p, p);
  for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (what == WALK_ACTIVE && ad_outside_derivatives(user)) continue;
    Nest below;
    if (LLVMIsALoadInst(user)) {
      if (!ir_is_ptr(ir_scalar_type(LLVMTypeOf(user)))) continue;
      if (what == WALK_ACTIVE) {
        if (walk(user, what, seen, depth + 1, NULL)) return true;
        continue;
      }
      if (!held_pointer(nest, &below)) return true;
      add_site(nest->k, user); /* freed: forgotten */
      if (walk(user, what, seen, depth + 1, &below)) return true;
      continue;
    }
    if (LLVMIsAStoreInst(user)) {
      LLVMValueRef stored = LLVMGetOperand(user, 0), at = LLVMGetOperand(user, 1);
      if (stored == p) { /* kept in a local slot: followed through its loads */
        LLVMValueRef slot = ir_strip_pointer_casts(at);
        /* kept in another global (`B = W`): what the code writes through that one is not followed */
        if (what == WALK_ACTIVE && !ad_outside_derivatives(user) && LLVMIsAGlobalVariable(ir_address_base(at))) return true;
        if (!LLVMIsAAllocaInst(slot)) continue;
        for (LLVMUseRef v = LLVMGetFirstUse(slot); v; v = LLVMGetNextUse(v))
          if (LLVMIsALoadInst(LLVMGetUser(v)) && walk(LLVMGetUser(v), what, seen, depth + 1, nest)) return true;
        continue;
      }
      if (what == WALK_ACTIVE) {
        if (ad_stored_value_may_be_active(stored)) return true;
        continue;
      }
      if (!ir_is_ptr(ir_scalar_type(LLVMTypeOf(stored)))) continue;
      if (!held_pointer(nest, &below) || (ad_outside_derivatives(user) && !setup_value(stored))) return true;
      add_site(nest->k, user); /* an allocation stored: noted */
      continue;
    }
    if (LLVMIsAAtomicRMWInst(user) || LLVMIsAAtomicCmpXchgInst(user)) {
      if (what == WALK_ACTIVE) return true;
      continue;
    }
    bool constant_address = LLVMIsAConstantExpr(user) &&
                            (LLVMGetConstOpcode(user) == LLVMGetElementPtr || LLVMGetConstOpcode(user) == LLVMBitCast);
    if (constant_address || LLVMIsAGetElementPtrInst(user) || LLVMIsABitCastInst(user) || LLVMIsAAddrSpaceCastInst(user) ||
        LLVMIsAPHINode(user) || LLVMIsASelectInst(user)) {
      Nest at = nest ? *nest : (Nest){0};
      bool cast = LLVMIsABitCastInst(user) || LLVMIsAAddrSpaceCastInst(user) ||
                  (constant_address && LLVMGetConstOpcode(user) == LLVMBitCast);
      if (nest && !cast && (LLVMIsAPHINode(user) || LLVMIsASelectInst(user) ||
                            at.offset < 0 || !ir_gep_constant_offset(LLVMGetGlobalParent(nest->k->global), user, &at.offset)))
        at.offset = -1;
      if (walk(user, what, seen, depth + 1, nest ? &at : NULL)) return true;
      continue;
    }
    if (!ir_is_call_site(user)) continue; /* a comparison, a pointer made an integer */
    LLVMValueRef callee = ir_called_function(user);
    CallKind kind = call_classify(user, NULL);
    if (kind == CALL_OMP) callee = omp_called_function(user);
    switch (kind) {
    case CALL_DEBUG:
    case CALL_INACTIVE:
    case CALL_FREE:
    case CALL_MEMSET: continue;
    case CALL_MEMCPY:
      if (what == WALK_ACTIVE && LLVMGetArgOperand(user, 0) == p) return true;
      continue;
    case CALL_ALLOC: /* posix_memalign into the block */
      if (what == WALK_POINTERS && call_alloc_slot(user) >= 0 && LLVMGetArgOperand(user, (unsigned)call_alloc_slot(user)) == p) {
        if (!held_pointer(nest, &below)) return true;
        add_site(nest->k, user);
      }
      continue;
    case CALL_MODULE:
    case CALL_OMP: {
      if (!callee || LLVMIsDeclaration(callee)) {
        if (what == WALK_ACTIVE && kind == CALL_OMP) return true;
        continue;
      }
      unsigned i = 0;
      for (LLVMValueRef param = LLVMGetFirstParam(callee); param; param = LLVMGetNextParam(param), i++)
        if (call_site_argument(user, callee, i) == p && walk(param, what, seen, depth + 1, nest)) return true;
      continue;
    }
    default:
      if (what == WALK_ACTIVE) return true; /* MPI, a library: anything */
      continue;
    }
  }
  return false;
}

bool global_bytes_hold_pointers(LLVMValueRef g) {
  ValueMap seen;
  vmap_init(&seen);
  bool found = walk(g, WALK_POINTERS, &seen, 0, NULL);
  vmap_free(&seen);
  return found;
}

/* An access of g, at a constant offset from it: a load, a store, a call given the address. */
typedef bool (*Visit)(LLVMValueRef g, LLVMValueRef addr, LLVMValueRef access, long long offset, void *ctx);

/* Whether address `at` is g at constant offsets (*offset: how far in), through casts and merges whose
 * operand leading to g is followed (merged_loads). */
static bool offset_in_global(LLVMModuleRef m, LLVMValueRef at, LLVMValueRef g, long long *offset, int depth) {
  at = ir_strip_pointer_casts(at);
  if (at == g) return true;
  if (depth > 16) return false;
  if (LLVMIsAGetElementPtrInst(at) || (LLVMIsAConstantExpr(at) && LLVMGetConstOpcode(at) == LLVMGetElementPtr)) {
    long long before = *offset;
    if (ir_gep_constant_offset(m, at, offset) && offset_in_global(m, LLVMGetOperand(at, 0), g, offset, depth + 1)) return true;
    *offset = before;
    return false;
  }
  if (!LLVMIsAPHINode(at) && !LLVMIsASelectInst(at)) return false;
  for (unsigned i = LLVMIsASelectInst(at) ? 1 : 0, n = (unsigned)LLVMGetNumOperands(at); i < n; i++)
    if (offset_in_global(m, LLVMGetOperand(at, i), g, offset, depth + 1)) return true;
  return false;
}

/* A merge of g's address (at offset) with others that is only loaded from, as the optimiser makes of
 * `c ? h[i] : G[j]` where h lives in memory (a region's function has its address): its loads are visited
 * as g's, which they may be. (walk_slot_loads finds g again through the merge.) */
static bool merged_loads(LLVMValueRef g, LLVMValueRef merge, long long offset, Visit visit, void *ctx) {
  /* g by one operand only: walk_slot_loads finds that one's offset (the same operand along two edges, as
     a short-circuit `a || b ? G[j] : h[i]` in a region makes, is one) */
  LLVMValueRef reaching = NULL;
  for (unsigned i = LLVMIsASelectInst(merge) ? 1 : 0, n = (unsigned)LLVMGetNumOperands(merge); i < n; i++) {
    long long at = 0;
    LLVMValueRef op = LLVMGetOperand(merge, i);
    if (!offset_in_global(LLVMGetGlobalParent(g), op, g, &at, 0) || op == reaching) continue;
    if (reaching) return false;
    reaching = op;
  }
  if (!reaching) return false;
  for (LLVMUseRef u = LLVMGetFirstUse(merge); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (ir_is_debug_intrinsic(user)) continue;
    if (!LLVMIsALoadInst(user) || !visit(g, merge, user, offset, ctx)) return false;
  }
  return true;
}

/* Visits the accesses of g reached from addr (g at offset) through casts and constant offsets. An address
 * at a variable offset is allowed where the memory it reaches is not read or written as pointers (an
 * array of floats in a struct). Returns false where the address goes anywhere else, or visit does. */
static bool accesses(LLVMValueRef g, LLVMValueRef addr, long long offset, Visit visit, void *ctx, int depth) {
  if (depth > 16) return false;
  LLVMModuleRef m = LLVMGetGlobalParent(g);
  for (LLVMUseRef u = LLVMGetFirstUse(addr); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    bool gep = LLVMIsAGetElementPtrInst(user) || (LLVMIsAConstantExpr(user) && LLVMGetConstOpcode(user) == LLVMGetElementPtr);
    bool cast = LLVMIsABitCastInst(user) || LLVMIsAAddrSpaceCastInst(user) ||
                (LLVMIsAConstantExpr(user) && LLVMGetConstOpcode(user) == LLVMBitCast);
    long long off = offset;
    if ((gep && ir_gep_constant_offset(m, user, &off)) || cast) {
      if (!accesses(g, user, off, visit, ctx, depth + 1)) return false;
    } else if (gep) {
      if (global_bytes_hold_pointers(user)) return false;
    } else if (LLVMIsALoadInst(user) || LLVMIsAStoreInst(user) || ir_is_call(user)) {
      if (!visit(g, addr, user, offset, ctx)) return false;
    } else if (LLVMIsAPHINode(user) || (LLVMIsASelectInst(user) && LLVMGetOperand(user, 0) != addr)) {
      if (!merged_loads(g, user, offset, visit, ctx)) return false;
    } else if (LLVMIsAGlobalVariable(user) && LLVMIsGlobalConstant(user) && LLVMGetInitializer(user) == addr) {
      /* a constant pointer to it (generated code's `RT_MODEL *const rtM = &rtM_;`): what its loads give */
      for (LLVMUseRef v = LLVMGetFirstUse(user); v; v = LLVMGetNextUse(v)) {
        LLVMValueRef load = LLVMGetUser(v);
        if (!LLVMIsALoadInst(load) || LLVMGetVolatile(load) || !accesses(g, load, offset, visit, ctx, depth + 1)) return false;
      }
    } else if (!ir_is_debug_intrinsic(user)) {
      return false; /* an integer: where it goes is not followed */
    }
  }
  return true;
}

/* Whether an access keeps g one the compiler sees whole (global_blocks.h), noting its slots and whether it
 * puts active floats into g itself (into *ctx, a Known). */
static bool qualifying_access(LLVMValueRef g, LLVMValueRef addr, LLVMValueRef access, long long offset, void *ctx) {
  Known *k = ctx;
  if (LLVMIsALoadInst(access)) {
    if (LLVMGetVolatile(access) || LLVMGetOrdering(access) != LLVMAtomicOrderingNotAtomic) return false;
    if (ir_is_ptr(LLVMTypeOf(access))) {
      add_slot(k, -1, offset);
      add_site(k, access); /* freed: forgotten */
    } else if (ir_contains_ptr(LLVMTypeOf(access))) {
      return false; /* pointers in an aggregate or a vector */
    }
    return true;
  }
  if (LLVMIsAStoreInst(access)) {
    LLVMValueRef stored = LLVMGetOperand(access, 0);
    /* its own address stored into its slot (`rtM->derivs = rtM->odeF`): the slot's store is visited as
       any, the address a global's (setup_value) */
    if (stored == addr && LLVMGetOperand(access, 1) != addr && !LLVMGetVolatile(access) && ir_address_base(LLVMGetOperand(access, 1)) == g)
      return true;
    if (LLVMGetOperand(access, 1) != addr || LLVMGetVolatile(access)) return false; /* the address stored */
    if (ir_is_ptr(LLVMTypeOf(stored))) {
      add_slot(k, -1, offset);
      add_site(k, access);
      return !ad_outside_derivatives(access) || setup_value(stored);
    }
    if (ir_contains_ptr(LLVMTypeOf(stored))) return false;
    if (!ad_outside_derivatives(access) && ad_stored_value_may_be_active(stored)) k->verdict = ACTIVE;
    return true;
  }
  CallKind kind = call_classify(access, NULL);
  if (kind == CALL_DEBUG) return true;
  /* a step of a loop checkpointed without a marker noting the pointer to restore it: the twin would restore
     the global and not its shadow, so the twin is refused, and the global stays F's (checkpoint_auto.h) */
  const char *family = checkpoint_auto_family(LLVMGetBasicBlockParent(LLVMGetInstructionParent(access)));
  if (family && !strncmp(ir_called_name(access), "__parad_rt_ckpt_note", 20)) {
    checkpoint_auto_refuse(LLVMGetGlobalParent(g), family, "a step notes a pointer global that holds a heap block\n");
    return true;
  }
  if (kind == CALL_ALLOC && call_alloc_slot(access) == 0 && LLVMGetArgOperand(access, 0) == addr) {
    add_slot(k, -1, offset); /* posix_memalign(&g, ...) */
    add_site(k, access);
    return true;
  }
  if (kind != CALL_MEMSET || LLVMGetArgOperand(access, 0) != addr) return false;
  LLVMValueRef byte = LLVMGetArgOperand(access, 1);
  return ad_outside_derivatives(access) || (LLVMIsAConstantInt(byte) && !LLVMConstIntGetZExtValue(byte)); /* zeroing */
}

/* Whether a constant holds no pointer but null ones: a global the program sets itself (not a table of
 * functions or of addresses its initializer fills). */
static bool null_pointers_only(LLVMValueRef c) {
  if (!ir_contains_ptr(LLVMTypeOf(c)) || LLVMIsNull(c) || LLVMIsUndef(c) || LLVMIsAConstantAggregateZero(c)) return true;
  if (ir_is_ptr(LLVMTypeOf(c))) return LLVMIsAConstantPointerNull(c);
  LLVMTypeRef t = LLVMTypeOf(c);
  unsigned n = LLVMGetTypeKind(t) == LLVMStructTypeKind  ? LLVMCountStructElementTypes(t)
               : LLVMGetTypeKind(t) == LLVMArrayTypeKind ? (unsigned)LLVMGetArrayLength2(t)
                                                          : 0;
  for (unsigned i = 0; i < n; i++)
    if (!null_pointers_only(LLVMGetAggregateElement(c, i))) return false;
  return n > 0;
}

/* A pointer that comes from a function's parameter: the parameter itself, or a pointer loaded from memory
 * a parameter points into (`mesh->u`), through address arithmetic and (-O0) the local slots it is kept in;
 * or one another global held (`B = A`, A perhaps given x: which, the walk does not follow). */
static bool given_pointer(LLVMValueRef block, int depth) {
  block = ir_address_base(block);
  if (LLVMIsAArgument(block)) return true;
  if (LLVMIsALoadInst(block) && LLVMIsAGlobalVariable(ir_address_base(LLVMGetOperand(block, 0)))) return true;
  if (depth > 4) return false;
  if (LLVMIsAAllocaInst(block)) { /* a local variable: what is stored into it */
    for (LLVMUseRef u = LLVMGetFirstUse(block); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef st = LLVMGetUser(u);
      if (LLVMIsAStoreInst(st) && LLVMGetOperand(st, 1) == block && given_pointer(LLVMGetOperand(st, 0), depth + 1)) return true;
    }
    return false;
  }
  return LLVMIsALoadInst(block) && given_pointer(LLVMGetOperand(block, 0), depth + 1);
}

/* What the blocks the global's slots point to hold: WALK_POINTERS, whether pointers other than its slots
 * one level down; WALK_ACTIVE, whether code a derivative runs may put active data there. */
static bool walk_slot_loads(Known *k, Walk what) {
  LLVMModuleRef m = LLVMGetGlobalParent(k->global);
  ValueMap seen; /* WALK_POINTERS: per slot's pointer, so that a helper two blocks are passed to is walked in each */
  vmap_init(&seen);
  bool found = false;
  for (size_t i = 0, n = k->sites.len; i < n && !found; i++) { /* the global's own slots' (walks add others) */
    /* what is read from a slot, or stored there (set-up code fills a block through the pointer it stores) */
    LLVMValueRef site = k->sites.data[i], at = LLVMIsALoadInst(site) ? LLVMGetOperand(site, 0) : LLVMIsAStoreInst(site) ? LLVMGetOperand(site, 1) : NULL;
    LLVMValueRef block = LLVMIsALoadInst(site) ? site : LLVMIsAStoreInst(site) ? ir_strip_pointer_casts(LLVMGetOperand(site, 0)) : NULL;
    long long offset = 0;
    if (!at || !offset_in_global(m, at, k->global, &offset, 0) || LLVMIsAConstant(block)) continue;
    /* a pointer into an object stored (`ctx.state = st` at -O0: the first element's address): whether
       active data goes there is a question about the whole object, which the code writes through its own
       addresses */
    if (what == WALK_ACTIVE && LLVMIsAStoreInst(site) && !LLVMIsAConstant(ir_address_base(block))) block = ir_address_base(block);
    /* a pointer the derivative's code was given (`X = x`, a parameter, or a pointer read through one): what
       it points to may be active already, whatever the code writes there; the walk below sees only the
       writes (its reads through the global had no derivative, silently) */
    if (what == WALK_ACTIVE && LLVMIsAStoreInst(site) && !ad_outside_derivatives(site) && given_pointer(block, 0)) {
      found = true;
      break;
    }
    Nest nest = {k, add_slot(k, -1, offset), 0};
    if (what == WALK_POINTERS) vmap_free(&seen), vmap_init(&seen);
    found = walk(block, what, &seen, 0, what == WALK_POINTERS ? &nest : NULL);
  }
  vmap_free(&seen);
  return found;
}

/* Whether files other than g's may set g: it is declared here, or not static in a file without `main`. */
static bool set_elsewhere(LLVMValueRef g) {
  if (!LLVMGetInitializer(g)) return true;
  if (LLVMGetLinkage(g) == LLVMInternalLinkage || LLVMGetLinkage(g) == LLVMPrivateLinkage) return false;
  LLVMValueRef main_fn = LLVMGetNamedFunction(LLVMGetGlobalParent(g), "main");
  return !main_fn || LLVMIsDeclaration(main_fn);
}

/* Bytes the optimiser made a global of (a constant-sized heap block stored into a global pointer that is
 * never freed: `mesh = calloc(1, sizeof *mesh)` becomes `mesh.body`). */
static bool bytes_global(LLVMValueRef g) {
  LLVMTypeRef t = LLVMGlobalGetValueType(g);
  return LLVMGetTypeKind(t) == LLVMArrayTypeKind && LLVMGetElementType(t) == LLVMInt8TypeInContext(LLVMGetTypeContext(t));
}

bool global_holds_blocks(LLVMValueRef g) {
  return ir_contains_ptr(LLVMGlobalGetValueType(g)) || (bytes_global(g) && global_bytes_hold_pointers(g));
}

/* A global of the program's holding pointers (a pointer, a struct with pointer fields, such bytes). */
static bool holds_pointers(LLVMValueRef g) {
  return LLVMIsAGlobalVariable(g) && !LLVMIsGlobalConstant(g) && !LLVMIsExternallyInitialized(g) && !LLVMIsThreadLocal(g) &&
         !registered_inactive_memory(g) && global_holds_blocks(g);
}

bool global_block_set_elsewhere(LLVMValueRef load) {
  LLVMValueRef g = ir_address_base(LLVMGetOperand(load, 0));
  if (!ir_is_ptr(LLVMTypeOf(load)) || !holds_pointers(g) || !set_elsewhere(g)) return false;
  ValueMap seen;
  vmap_init(&seen);
  bool active = walk(load, WALK_ACTIVE, &seen, 0, NULL);
  vmap_free(&seen);
  return active;
}

/* Whether g holds functions only: every use of it is a store into it or a load whose value is only
 * called through or compared, and some value is called through (NR's `double (*nrfunc)(double *)`). A
 * function is its own shadow. */
static bool holds_functions(LLVMValueRef g) {
  if (!ir_is_ptr(LLVMGlobalGetValueType(g))) return false;
  bool called_through = false; /* one that is only stored says nothing */
  for (LLVMUseRef u = LLVMGetFirstUse(g); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == g && LLVMGetOperand(user, 0) != g) continue;
    if (!LLVMIsALoadInst(user)) return false;
    for (LLVMUseRef v = LLVMGetFirstUse(user); v; v = LLVMGetNextUse(v)) {
      LLVMValueRef w = LLVMGetUser(v);
      bool called = ir_is_call_site(w) && LLVMGetCalledValue(w) == user;
      for (unsigned a = 0, n = called ? ir_num_call_args(w) : 0; a < n; a++) called &= LLVMGetArgOperand(w, a) != user;
      if (!called && !LLVMIsAICmpInst(w)) return false;
      called_through |= called;
    }
  }
  return called_through;
}

static Known *know(LLVMValueRef g) {
  if (!known_made) vmap_init(&known_at), known_made = true;
  size_t at = (size_t)vmap_get(&known_at, g);
  if (at) return &known.data[at - 1];
  Known k = {g, QUALIFIES, {0}, {0}};
  if (!holds_pointers(g) || holds_functions(g) || set_elsewhere(g) || !null_pointers_only(LLVMGetInitializer(g)) ||
      !accesses(g, g, 0, qualifying_access, &k, 0) || walk_slot_loads(&k, WALK_POINTERS))
    k.verdict = NOT;
  else if (walk_slot_loads(&k, WALK_ACTIVE))
    k.verdict = ACTIVE;
  vec_push(&known, k);
  vmap_put(&known_at, g, (void *)known.len);
  return &known.data[known.len - 1];
}

bool global_block_qualifies(LLVMValueRef g) { return g && LLVMIsAGlobalVariable(g) && ad_deciding() && know(g)->verdict != NOT; }

bool global_block_may_hold_active(LLVMValueRef g) { return global_block_qualifies(g) && know(g)->verdict == ACTIVE; }

static LLVMValueRef size_arg(LLVMBuilderRef b, LLVMValueRef call, int i, LLVMTypeRef i64) {
  return i < 0 ? LLVMConstInt(i64, 1, 0) : LLVMBuildIntCast2(b, LLVMGetArgOperand(call, (unsigned)i), i64, 0, "");
}

/* The bytes of the block call allocates. */
static LLVMValueRef block_bytes(LLVMBuilderRef b, LLVMValueRef call, LLVMTypeRef i64) {
  if (call_classify(call, NULL) == CALL_REALLOC) return size_arg(b, call, 1, i64);
  int arg[2];
  if (call_alloc_shape(call, arg)) return size_arg(b, call, arg[0], i64);
  return LLVMBuildMul(b, size_arg(b, call, arg[0], i64), size_arg(b, call, arg[1], i64), "bytes");
}

static void runtime_call(LLVMBuilderRef b, const char *name, LLVMValueRef p, LLVMValueRef bytes) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(p));
  LLVMTypeRef params[2] = {LLVMTypeOf(p), LLVMInt64TypeInContext(c)};
  LLVMValueRef args[2] = {p, bytes};
  ir_call_named(b, name, LLVMFunctionType(LLVMVoidTypeInContext(c), params, bytes ? 2 : 1, 0), args, bytes ? 2 : 1);
}

/* The frees of block, a pointer loaded from a global or an allocation stored into it (`g = y =
 * malloc(...)`, `free(y)`): the block is forgotten where it is freed, or a derivative's end would keep the
 * shadow its tape frees with the block, and the program's exit free it again. */
static void forget_where_freed(LLVMBuilderRef b, LLVMValueRef block) {
  for (LLVMUseRef u = LLVMGetFirstUse(block); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef free_call = LLVMGetUser(u);
    if (!ir_is_call(free_call) || call_classify(free_call, NULL) != CALL_FREE ||
        LLVMGetArgOperand(free_call, call_freed_arg(free_call)) != block)
      continue;
    LLVMPositionBuilderBefore(b, free_call);
    runtime_call(b, "__parad_rt_block_forget", block, NULL);
  }
}

/* The local slot v is loaded from, where the slot is only ever given fresh blocks (-O0's locals); NULL if
 * v is not such a load. */
static LLVMValueRef fresh_local(LLVMValueRef v) {
  v = ir_strip_pointer_casts(v);
  LLVMValueRef slot = LLVMIsALoadInst(v) ? ir_strip_pointer_casts(LLVMGetOperand(v, 0)) : NULL;
  return slot && LLVMIsAAllocaInst(slot) && fresh(v, 0) ? slot : NULL;
}

/* The sites that set or free what g's slots hold: allocations stored there noted with their sizes (the old
 * block of a realloc forgotten), posix_memalign's blocks noted, the blocks freed forgotten. */
static void note_global(LLVMBuilderRef b, Known *k) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(k->global));
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c), ptr = LLVMPointerTypeInContext(c, 0);
  for (size_t i = 0; i < k->sites.len; i++) {
    LLVMValueRef site = k->sites.data[i], call, slot;
    if (LLVMIsAStoreInst(site) && (call = offset_allocation(LLVMGetOperand(site, 0)))) {
      if (call_classify(call, NULL) == CALL_REALLOC) {
        LLVMPositionBuilderBefore(b, call);
        runtime_call(b, "__parad_rt_block_forget", LLVMGetArgOperand(call, 0), NULL);
      }
      LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(site));
      runtime_call(b, "__parad_rt_block_note", call, block_bytes(b, call, i64)); /* the block's start */
      forget_where_freed(b, call);
    } else if (LLVMIsAStoreInst(site) && wrapped_allocation(LLVMGetOperand(site, 0))) { /* the size malloc gave */
      LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(site));
      runtime_call(b, "__parad_rt_block_note_heap", LLVMGetOperand(site, 0), NULL);
    } else if (LLVMIsAStoreInst(site) && (slot = fresh_local(LLVMGetOperand(site, 0)))) {
      /* -O0's `double *t = malloc(...); g.t = t; ... free(t);`: the size malloc gave, forgotten where what
         the local holds is freed */
      LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(site));
      runtime_call(b, "__parad_rt_block_note_heap", LLVMGetOperand(site, 0), NULL);
      for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u))
        if (LLVMIsALoadInst(LLVMGetUser(u))) forget_where_freed(b, LLVMGetUser(u));
    } else if (ir_is_call(site) && LLVMGetNextInstruction(site)) { /* posix_memalign(&slot, alignment, size) */
      LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(site));
      LLVMValueRef ok = LLVMBuildICmp(b, LLVMIntEQ, site, LLVMConstNull(LLVMTypeOf(site)), "");
      LLVMValueRef at = LLVMGetArgOperand(site, (unsigned)call_alloc_slot(site));
      LLVMValueRef block = LLVMBuildSelect(b, ok, LLVMBuildLoad2(b, ptr, at, ""), LLVMConstNull(ptr), "");
      runtime_call(b, "__parad_rt_block_note", block, block_bytes(b, site, i64));
    } else if (LLVMIsALoadInst(site)) {
      forget_where_freed(b, site);
    }
  }
}

void global_blocks_note(LLVMModuleRef m) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
    if (global_block_qualifies(g)) note_global(b, know(g)); /* each may get a shadow, active or not */
  LLVMDisposeBuilder(b);
}

/* Bytes k from p: a slot's address. */
static LLVMValueRef at_offset(LLVMBuilderRef b, LLVMValueRef p, long long k) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(p));
  LLVMValueRef at = LLVMConstInt(LLVMInt64TypeInContext(c), (unsigned long long)k, 1);
  return k ? LLVMBuildGEP2(b, LLVMInt8TypeInContext(c), p, &at, 1, "slot") : p;
}

/* ---- set before read ---- */

/* What holds the pointer slot asked about: global g itself (parent < 0), or the block that g's pointer at
 * `parent` bytes points to (a field `M->params` of a global `Model *M`), reached through loads of it. */
typedef struct {
  LLVMValueRef g;
  long long parent;
} Holder;

static long long fixed_offset(LLVMValueRef p, const Holder *h);

/* Whether base (an address's base) is the holder's start: g, or a load of g's pointer. */
static bool holder_base(LLVMValueRef base, const Holder *h) {
  if (h->parent < 0) return base == h->g;
  Holder global = {h->g, -1};
  return LLVMIsALoadInst(base) && fixed_offset(LLVMGetOperand(base, 0), &global) == h->parent;
}

/* Whether v (an operand) is the holder's address, or one computed from it. */
static bool addresses(LLVMValueRef v, const Holder *h) { return ir_is_ptr(LLVMTypeOf(v)) && holder_base(ir_address_base(v), h); }

static bool may_touch(LLVMValueRef fn, LLVMValueRef g, ValueMap *seen);

/* Whether an indirect call may touch g: one of the functions its pointer may hold (ad/indirect.h; a
 * derivative that reaches any other stops there) may, or a library function's rule does not say. */
static bool call_through_may_touch(LLVMValueRef call, LLVMValueRef g, ValueMap *seen) {
  ValueList targets = {0};
  indirect_module_candidates(LLVMGetGlobalParent(g), LLVMGetCalledFunctionType(call), &targets);
  bool touch = false;
  for (size_t t = 0; t < targets.len && !touch; t++)
    touch = !(LLVMIsDeclaration(targets.data[t]) && rule_for_name(LLVMGetValueName(targets.data[t]))) &&
            may_touch(targets.data[t], g, seen);
  vec_free(&targets);
  return touch;
}

/* Whether code fn runs may touch g: an operand of g's address in fn or a function it calls or hands on
 * (a callback, an outlined region), or calls through a pointer, or a declaration's code where other files
 * see g. */
static bool may_touch(LLVMValueRef fn, LLVMValueRef g, ValueMap *seen) {
  if (!fn || vmap_has(seen, fn)) return false;
  vmap_put(seen, fn, fn);
  if (LLVMIsDeclaration(fn)) {
    const char *name = LLVMGetValueName(fn);
    return LLVMGetLinkage(g) != LLVMInternalLinkage && LLVMGetLinkage(g) != LLVMPrivateLinkage &&
           strncmp(name, "llvm.", 5) && strncmp(name, "__parad_rt_", 11);
  }
  Holder global = {g, -1};
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (ir_is_call_site(i) && !ir_called_function(i) && !LLVMIsAInlineAsm(LLVMGetCalledValue(i)) &&
          call_through_may_touch(i, g, seen))
        return true;
      bool known = ir_is_call_site(i) && call_known_by_name(i);
      for (unsigned k = 0, n = (unsigned)LLVMGetNumOperands(i); k < n; k++) {
        LLVMValueRef op = LLVMGetOperand(i, k);
        if (!op || (known && op == LLVMGetCalledValue(i))) continue;
        if (addresses(op, &global) || (LLVMIsAFunction(op) && may_touch(op, g, seen))) return true;
      }
    }
  return false;
}

/* The bytes from the holder's start at which address p lies, through casts and constant getelementptrs
 * only (no merge: a store through one is not sure to set the slot); -1 if p is not that. */
static long long fixed_offset(LLVMValueRef p, const Holder *h) {
  long long offset = 0;
  for (int depth = 0; depth < 16; depth++) {
    p = ir_strip_pointer_casts(p);
    if (holder_base(p, h)) return offset;
    if (!(LLVMIsAGetElementPtrInst(p) || (LLVMIsAConstantExpr(p) && LLVMGetConstOpcode(p) == LLVMGetElementPtr)) ||
        !ir_gep_constant_offset(LLVMGetGlobalParent(h->g), p, &offset))
      return -1;
    p = LLVMGetOperand(p, 0);
  }
  return -1;
}

/* Whether an access of type t at address p may touch the pointer slot at `slot` bytes into the holder:
 * where p is the holder at an offset not known, it may. */
static bool touches_slot(LLVMValueRef p, LLVMTypeRef t, const Holder *h, long long slot) {
  if (!addresses(p, h)) return false;
  long long at = fixed_offset(p, h);
  return at < 0 || (at < slot + 8 && slot < at + (long long)ir_type_size(LLVMGetGlobalParent(h->g), t));
}

static bool set_by_call(LLVMValueRef call, const Holder *h, long long slot);

/* Whether i stores 8 bytes (a pointer, or its bits) into the slot at `slot` bytes into the holder (g
 * itself where g is a pointer), or calls a function that does so on every path before reading it (a
 * module's setter, `bind(u, n)`). */
static bool sets(LLVMValueRef i, const Holder *h, long long slot) {
  if (ir_is_call_site(i)) return set_by_call(i, h, slot);
  return LLVMIsAStoreInst(i) && ir_type_size(LLVMGetGlobalParent(h->g), LLVMTypeOf(LLVMGetOperand(i, 0))) == 8 &&
         fixed_offset(LLVMGetOperand(i, 1), h) == slot;
}

/* Whether instruction i, in code where the holder's slot at `slot` bytes has not been set yet, may read
 * what it held before: a load of it, a use of the holder's address other than a load or store of its other
 * fields, a call whose code may touch g. A block's slot is read too where g's pointer to the block is set
 * again (the block may be another) or g's address is used other than by a load. `seen`: the functions
 * found not to touch g so far (one that does ends the question). */
static bool reads_before_set(LLVMValueRef i, const Holder *h, long long slot, ValueMap *seen) {
  Holder global = {h->g, -1};
  if (sets(i, h, slot)) /* a store of the holder's own address reads it; a setter's call reads nothing first */
    return LLVMIsAStoreInst(i) && (addresses(LLVMGetOperand(i, 0), h) || addresses(LLVMGetOperand(i, 0), &global));
  if (ir_is_call_site(i) && !ir_is_debug_intrinsic(i) && !ir_is_lifetime_marker(i)) {
    /* malloc, libm, printf: only what they are given (a global not static is no different) */
    LLVMValueRef callee = ir_called_function(i);
    bool touch = !callee ? !LLVMIsAInlineAsm(LLVMGetCalledValue(i)) && call_through_may_touch(i, h->g, seen)
                         : !call_known_by_name(i) && may_touch(callee, h->g, seen);
    for (unsigned k = 0, n = ir_num_call_args(i); k < n && !touch; k++) {
      LLVMValueRef a = LLVMGetArgOperand(i, k);
      touch = addresses(a, h) || addresses(a, &global) || (LLVMIsAFunction(a) && may_touch(a, h->g, seen));
    }
    return touch;
  }
  if (h->parent >= 0) { /* the block's pointer: loaded to reach the block; set again or handed on, not sure */
    if (LLVMIsALoadInst(i) && !LLVMGetVolatile(i) && addresses(LLVMGetOperand(i, 0), &global) &&
        !touches_slot(LLVMGetOperand(i, 0), LLVMTypeOf(i), &global, h->parent))
      return false;
    if (LLVMIsALoadInst(i) && addresses(LLVMGetOperand(i, 0), &global)) return !holder_base(i, h);
    if (LLVMIsAStoreInst(i) && touches_slot(LLVMGetOperand(i, 1), LLVMTypeOf(LLVMGetOperand(i, 0)), &global, h->parent)) return true;
  }
  /* a struct's other fields, read or set at known offsets (`ctx.n = n` before `ctx.state = st`) */
  if (LLVMIsALoadInst(i) && !LLVMGetVolatile(i)) return touches_slot(LLVMGetOperand(i, 0), LLVMTypeOf(i), h, slot);
  if (LLVMIsAStoreInst(i) && !LLVMGetVolatile(i) && !addresses(LLVMGetOperand(i, 0), h) && !addresses(LLVMGetOperand(i, 0), &global))
    return touches_slot(LLVMGetOperand(i, 1), LLVMTypeOf(LLVMGetOperand(i, 0)), h, slot);
  if ((LLVMIsAGetElementPtrInst(i) || LLVMIsABitCastInst(i)) && fixed_offset(i, h) >= 0) return false; /* its users are asked */
  for (unsigned k = 0, n = (unsigned)LLVMGetNumOperands(i); k < n; k++)
    if (LLVMGetOperand(i, k) && addresses(LLVMGetOperand(i, k), h)) return true;
  return false;
}

/* Whether derivative fn may read the pointer slot `slot` bytes into the holder before it stores into it on
 * every path: a must-set analysis over fn's blocks (set on entry to a block where set at the end of all its
 * predecessors). *set_at_exit (where not NULL): whether it is set wherever fn returns. */
static bool read_before_set_in(LLVMValueRef fn, const Holder *h, long long slot, bool *set_at_exit) {
  size_t n = LLVMCountBasicBlocks(fn);
  if (!n) return false;
  LLVMBasicBlockRef *bbs = xcalloc(n, sizeof *bbs);
  LLVMGetBasicBlocks(fn, bbs);
  ValueMap index; /* block -> 1 + its position */
  vmap_init(&index);
  for (size_t k = 0; k < n; k++) vmap_put(&index, LLVMBasicBlockAsValue(bbs[k]), (void *)(uintptr_t)(k + 1));
  bool *stores = xcalloc(n, sizeof *stores), *set_out = xcalloc(n, sizeof *set_out), *set_in = xcalloc(n, sizeof *set_in);
  for (size_t k = 0; k < n; k++) {
    for (LLVMValueRef i = LLVMGetFirstInstruction(bbs[k]); i && !stores[k]; i = LLVMGetNextInstruction(i)) stores[k] = sets(i, h, slot);
    set_in[k] = k > 0, set_out[k] = k > 0 || stores[k];
  }
  for (bool changed = true; changed;) { /* out only falls: a predecessor's out that falls lowers its successors' in */
    changed = false;
    for (size_t k = 0; k < n; k++) {
      if (set_out[k]) continue;
      LLVMValueRef t = LLVMGetBasicBlockTerminator(bbs[k]);
      for (unsigned s = 0, ns = t ? LLVMGetNumSuccessors(t) : 0; s < ns; s++) {
        size_t j = (size_t)(uintptr_t)vmap_get(&index, LLVMBasicBlockAsValue(LLVMGetSuccessor(t, s))) - 1;
        if (!set_in[j]) continue;
        set_in[j] = false;
        if (!stores[j]) set_out[j] = false;
        changed = true;
      }
    }
  }
  bool reads = false;
  ValueMap seen;
  vmap_init(&seen);
  for (size_t k = 0; k < n && !reads; k++) {
    bool set = set_in[k];
    for (LLVMValueRef i = LLVMGetFirstInstruction(bbs[k]); i && !set && !reads; i = LLVMGetNextInstruction(i))
      reads = reads_before_set(i, h, slot, &seen), set = sets(i, h, slot);
  }
  if (set_at_exit) {
    *set_at_exit = true;
    for (size_t k = 0; k < n; k++) {
      LLVMValueRef t = LLVMGetBasicBlockTerminator(bbs[k]);
      if (t && LLVMGetInstructionOpcode(t) == LLVMRet && !set_out[k]) *set_at_exit = false;
    }
  }
  vmap_free(&seen);
  vmap_free(&index);
  free(bbs);
  free(stores);
  free(set_in);
  free(set_out);
  return reads;
}

static bool read_before_set(LLVMValueRef fn, const Holder *h, long long slot) { return read_before_set_in(fn, h, slot, NULL); }

/* A call to a function of the module that sets the slot on every path without reading it first, two
 * calls deep at most. */
static bool set_by_call(LLVMValueRef call, const Holder *h, long long slot) {
  static int depth;
  LLVMValueRef fn = ir_called_function(call);
  if (!fn || LLVMIsDeclaration(fn) || depth >= 2 || call_known_by_name(call)) return false;
  depth++;
  bool set = false, reads = read_before_set_in(fn, h, slot, &set);
  depth--;
  return set && !reads;
}

/* Whether fn may read slot sl (g's own, or one in the block a slot of g's points to) before setting it
 * (NULL fn: it may). */
static bool slot_read_at_entry(LLVMValueRef fn, const Known *k, const Slot *sl) {
  if (!fn) return true;
  if (sl->parent >= 0 && k->slots.data[sl->parent].parent >= 0) return true; /* two levels down: not asked */
  Holder h = {k->global, sl->parent < 0 ? -1 : k->slots.data[sl->parent].offset};
  return read_before_set(fn, &h, sl->offset);
}

bool global_block_read_at_entry(LLVMValueRef fn, LLVMValueRef g) {
  const Known *k = know(g);
  Holder h = {g, -1};
  if (k->verdict == NOT || !k->slots.len) return !fn || !ir_is_ptr(LLVMGlobalGetValueType(g)) || read_before_set(fn, &h, 0);
  for (size_t i = 0; i < k->slots.len; i++)
    if (k->slots.data[i].parent < 0 && slot_read_at_entry(fn, k, &k->slots.data[i])) return true;
  return false;
}

size_t global_block_held_offsets(LLVMValueRef fn, LLVMValueRef g, long long *offsets, size_t max) {
  if (!global_block_qualifies(g)) return 0;
  Known *k = know(g);
  size_t n = 0;
  for (size_t top = 0; top < k->slots.len; top++) {
    if (k->slots.data[top].parent != -1 || k->slots.data[top].offset != 0) continue;
    for (size_t i = 0; i < k->slots.len && n < max; i++)
      if (k->slots.data[i].parent == (int)top && slot_read_at_entry(fn, k, &k->slots.data[i])) offsets[n++] = k->slots.data[i].offset;
  }
  return n;
}

/* The addresses of globals stored into g's own slot at `offset` (any of its own slots where offset < 0). */
static size_t slot_addresses(const Known *k, long long offset, LLVMValueRef *out, size_t max) {
  LLVMModuleRef m = LLVMGetGlobalParent(k->global);
  size_t n = 0;
  for (size_t i = 0; i < k->sites.len; i++) {
    LLVMValueRef site = k->sites.data[i], v = LLVMIsAStoreInst(site) ? LLVMGetOperand(site, 0) : NULL;
    long long at = 0;
    if (!v || !LLVMIsAConstant(v) || !LLVMIsAGlobalVariable(ir_address_base(v)) ||
        !offset_in_global(m, LLVMGetOperand(site, 1), k->global, &at, 0) || (offset >= 0 && at != offset))
      continue;
    bool known = false;
    for (size_t j = 0; j < n && !known; j++) known = out[j] == v;
    if (!known && n < max) out[n++] = v;
  }
  return n;
}

size_t global_block_addresses(LLVMValueRef g, LLVMValueRef *out, size_t max) { return slot_addresses(know(g), -1, out, max); }

/* At an entry, the shadow of what slot `offset` of g holds (primal): where it holds the address of a
 * global (one of those stored there), that address in the global's shadow (g's own: s); else the
 * runtime's shadow of its block. */
static LLVMValueRef entry_shadow(LLVMBuilderRef b, const Known *k, long long offset, LLVMValueRef primal, LLVMValueRef s,
                                 unsigned kind, LLVMValueRef name) {
  LLVMValueRef g = k->global;
  LLVMModuleRef m = LLVMGetGlobalParent(g);
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0), i32 = LLVMInt32TypeInContext(c), i8 = LLVMInt8TypeInContext(c);
  LLVMValueRef held[MAX_HELD_ADDRESSES], known = LLVMConstInt(LLVMInt1TypeInContext(c), 0, 0), chosen = LLVMConstNull(ptr);
  size_t n = slot_addresses(k, offset, held, MAX_HELD_ADDRESSES);
  for (size_t i = 0; i < n; i++) {
    long long at = 0;
    LLVMValueRef other = ir_address_base(held[i]);
    LLVMValueRef base = other == g ? s : ad_global_shadow_of_kind(other, kind);
    if (!base || !offset_in_global(m, held[i], other, &at, 0)) continue; /* (no shadow: the runtime stops there) */
    LLVMValueRef idx = LLVMConstInt(LLVMInt64TypeInContext(c), (unsigned long long)at, 1);
    LLVMValueRef is = LLVMBuildICmp(b, LLVMIntEQ, primal, held[i], "");
    known = LLVMBuildOr(b, known, is, "");
    chosen = LLVMBuildSelect(b, is, LLVMConstGEP2(i8, base, &idx, 1), chosen, "");
  }
  LLVMTypeRef params[3] = {ptr, i32, ptr};
  LLVMValueRef args[3] = {n ? LLVMBuildSelect(b, known, LLVMConstNull(ptr), primal, "") : primal, LLVMConstInt(i32, kind, 0), name};
  LLVMValueRef block = ir_call_named(b, "__parad_rt_block_shadow", LLVMFunctionType(ptr, params, 3, 0), args, 3);
  return n ? LLVMBuildSelect(b, known, chosen, block, "") : block;
}

void global_block_enter(LLVMBuilderRef b, LLVMValueRef fn, LLVMValueRef g, LLVMValueRef s, unsigned kind) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(g));
  LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0), i32 = LLVMInt32TypeInContext(c), i64 = LLVMInt64TypeInContext(c);
  LLVMTypeRef t = LLVMGlobalGetValueType(g), v = LLVMVoidTypeInContext(c);
  if (!ir_is_ptr(t)) /* the rest of a struct: zero, as any global's shadow */
    LLVMBuildMemSet(b, s, LLVMConstInt(LLVMInt8TypeInContext(c), 0, 0), LLVMConstInt(i64, ir_type_size(LLVMGetGlobalParent(g), t), 0),
                    LLVMGetAlignment(s));
  const Known *k = know(g);
  LLVMValueRef name = LLVMBuildGlobalStringPtr(b, LLVMGetValueName(g), "global");
  LLVMValueRef *primal = xcalloc(k->slots.len + 1, sizeof *primal), *shadow = xcalloc(k->slots.len + 1, sizeof *shadow);
  for (size_t i = 0; i < k->slots.len; i++) {
    const Slot *sl = &k->slots.data[i];
    if (sl->parent < 0 && !slot_read_at_entry(fn, k, sl)) {
      /* set before it is read: what it holds (an earlier call's local array) needs no shadow */
      LLVMBuildStore(b, LLVMConstNull(ptr), at_offset(b, s, sl->offset));
    } else if (sl->parent < 0) { /* the global's: a zeroed shadow of its block into the shadow global */
      primal[i] = LLVMBuildLoad2(b, ptr, at_offset(b, g, sl->offset), "");
      shadow[i] = entry_shadow(b, k, sl->offset, primal[i], s, kind, name);
      LLVMBuildStore(b, shadow[i], at_offset(b, s, sl->offset));
    } else if (primal[sl->parent] && !slot_read_at_entry(fn, k, sl)) { /* a block's, set before it is read */
      LLVMTypeRef params[2] = {ptr, i64};
      LLVMValueRef args[2] = {shadow[sl->parent], LLVMConstInt(i64, (unsigned long long)sl->offset, 0)};
      ir_call_named(b, "__parad_rt_block_clear_in", LLVMFunctionType(v, params, 2, 0), args, 2);
    } else if (primal[sl->parent]) { /* a block's: the same into the block's shadow, by the runtime (either may be null) */
      LLVMTypeRef params[5] = {ptr, ptr, i64, i32, ptr};
      LLVMValueRef args[5] = {primal[sl->parent], shadow[sl->parent], LLVMConstInt(i64, (unsigned long long)sl->offset, 0),
                              LLVMConstInt(i32, kind, 0), name};
      ir_call_named(b, "__parad_rt_block_shadow_in", LLVMFunctionType(v, params, 5, 0), args, 5);
    }
  }
  free(primal);
  free(shadow);
}

void global_block_keep(LLVMBuilderRef b, LLVMValueRef g, LLVMValueRef s, unsigned kind) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(g));
  LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0), i32 = LLVMInt32TypeInContext(c), i64 = LLVMInt64TypeInContext(c);
  LLVMTypeRef v = LLVMVoidTypeInContext(c);
  const Known *k = know(g);
  LLVMValueRef *primal = xcalloc(k->slots.len + 1, sizeof *primal), *shadow = xcalloc(k->slots.len + 1, sizeof *shadow);
  for (size_t i = 0; i < k->slots.len; i++) {
    const Slot *sl = &k->slots.data[i];
    if (sl->parent < 0) {
      primal[i] = LLVMBuildLoad2(b, ptr, at_offset(b, g, sl->offset), "");
      shadow[i] = LLVMBuildLoad2(b, ptr, at_offset(b, s, sl->offset), "");
    } else { /* a block's slot, before the block's own shadow is kept */
      LLVMTypeRef params[4] = {ptr, ptr, i64, i32};
      LLVMValueRef args[4] = {primal[sl->parent], shadow[sl->parent], LLVMConstInt(i64, (unsigned long long)sl->offset, 0),
                              LLVMConstInt(i32, kind, 0)};
      ir_call_named(b, "__parad_rt_block_keep_in", LLVMFunctionType(v, params, 4, 0), args, 4);
    }
  }
  for (size_t i = 0; i < k->slots.len; i++) {
    if (k->slots.data[i].parent >= 0) continue;
    LLVMTypeRef params[3] = {ptr, i32, ptr};
    LLVMValueRef args[3] = {primal[i], LLVMConstInt(i32, kind, 0), shadow[i]};
    ir_call_named(b, "__parad_rt_block_keep", LLVMFunctionType(v, params, 3, 0), args, 3);
    LLVMBuildStore(b, LLVMConstNull(ptr), at_offset(b, s, k->slots.data[i].offset)); /* the next entry sets it again */
  }
  free(primal);
  free(shadow);
}

void global_blocks_enter(LLVMBuilderRef b, unsigned kind) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(LLVMGetBasicBlockParent(LLVMGetInsertBlock(b))));
  LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
  LLVMValueRef arg = LLVMConstInt(i32, kind, 0);
  ir_call_named(b, "__parad_rt_blocks_enter", LLVMFunctionType(LLVMVoidTypeInContext(c), &i32, 1, 0), &arg, 1);
}

void global_blocks_leave(LLVMBuilderRef b, unsigned kind) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(LLVMGetBasicBlockParent(LLVMGetInsertBlock(b))));
  LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
  LLVMValueRef arg = LLVMConstInt(i32, kind, 0);
  ir_call_named(b, "__parad_rt_blocks_leave", LLVMFunctionType(LLVMVoidTypeInContext(c), &i32, 1, 0), &arg, 1);
}

void global_blocks_end(void) {
  for (size_t i = 0; i < known.len; i++) vec_free(&known.data[i].slots), vec_free(&known.data[i].sites);
  vec_free(&known);
  if (known_made) vmap_free(&known_at);
  known_made = false;
}
