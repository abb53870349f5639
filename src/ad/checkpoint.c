/* Checkpointed loops, built at ad_prepare (see checkpoint.h): the loop moved into a function, its one-step
 * copy, and the custom gradient that hands the step to the runtime. */
#include "ad/checkpoint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ad/body.h"
#include "ad/checkpoint_auto.h"
#include "ad/checkpoint_internal.h"
#include "ad/custom.h"
#include "ad/indirect.h"
#include "ad/request.h"
#include "analysis/calls.h"
#include "analysis/memtype.h"
#include "ir/cfg.h"
#include "ir/diag.h"
#include "mpi/mpi.h"
#include "omp/omp.h"

/* The loop's variables: the enclosing function's stack slots the loop uses. */
typedef struct {
  LLVMValueRef alloca;
  unsigned long long size; /* bytes; of one element if count is set */
  LLVMValueRef count;      /* a variable-length array's number of elements (computed before the loop) */
  bool pointers; /* holds pointers: its shadow holds theirs, part of the state */
  bool active;   /* may hold floats or pointers: passed with a shadow */
  bool moved;    /* holds pointers the loop may change otherwise than by swapping (then so does their shadow) */
  bool swapped;  /* holds pointers the loop only swaps with those of its other variables */
  bool scratch;  /* swapped, and stored before it is read in every step (a temporary of the swap) */
  bool read_only; /* the loop only reads it: not copied back, and the caller keeps knowing its value */
  bool pointed_to; /* another variable may point into it: it stays where it is */
  bool points_into; /* it may point into another variable (the runtime points it into its copy) */
  bool unshadowed; /* holds a pointer whose shadow the steps never need: one they only read integers
                      through (an index array), or a parameter every request passes constant */
  bool chosen;     /* holds a choice of pointers the enclosing function stored (a view, ad/constants.h) */
} Var;
typedef VEC(Var) VarList;

/* ---- debug information: each new function gets a subprogram of its own, named as the source's ---- */

void checkpoint_give_subprogram(Ck *ck, LLVMValueRef fn, LLVMValueRef like, const char *shown) {
  ir_strip_loop_hints(fn); /* their locations are like's */
  LLVMMetadataRef old = LLVMGetSubprogram(like);
  if (!old) {
    ir_strip_locations(fn);
    return;
  }
  LLVMMetadataRef file = LLVMDIScopeGetFile(old);
  if (!ck->dib) {
    ck->dib = LLVMCreateDIBuilder(ck->m);
    LLVMDIBuilderCreateCompileUnit(ck->dib, LLVMDWARFSourceLanguageC, file, "parad", 5, 0, "", 0, 0, "", 0,
                                   LLVMDWARFEmissionLineTablesOnly, 0, 0, 0, "", 0, "", 0);
  }
  LLVMMetadataRef ty = LLVMDIBuilderCreateSubroutineType(ck->dib, file, NULL, 0, LLVMDIFlagZero);
  unsigned line = LLVMDISubprogramGetLine(old);
  size_t len;
  const char *link = LLVMGetValueName2(fn, &len);
  LLVMMetadataRef sp = LLVMDIBuilderCreateFunction(ck->dib, file, shown, strlen(shown), link, len, file, line, ty,
                                                   1, 1, line, LLVMDIFlagZero, 0);
  LLVMSetSubprogram(fn, sp);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(i);
      if (loc)
        LLVMInstructionSetDebugLoc(i, LLVMDIBuilderCreateDebugLocation(ck->c, LLVMDILocationGetLine(loc),
                                                                       LLVMDILocationGetColumn(loc), sp, NULL));
    }
}
/* ---- the loop ---- */

typedef struct {
  LLVMValueRef fn, marker;
  LLVMBasicBlockRef header;
  BlockList blocks; /* the loop's, in the function's order */
  ValueMap in;      /* block (as value) -> itself, for the loop's blocks */
  VarList vars;
  BlockList exits;  /* where the loop leaves for, each once */
  unsigned counts;  /* variable-length arrays among the variables: their lengths follow the code (ckpt.code) */
  ValueList outside, outside_at; /* values computed before the loop that it uses, and a use of each */
  ValueList privates; /* slots each step writes before it reads them, and nothing reads after the loop */
  bool team;          /* the threads of a parallel region may each run the loop at once */
  LLVMBasicBlockRef threw; /* the landing pad of the calls that may throw (calls_for_invokes) */
} Loop;

static bool in_loop(const Loop *l, LLVMBasicBlockRef bb) { return vmap_has(&l->in, LLVMBasicBlockAsValue(bb)); }

static bool find_loop(Loop *l) {
  Cfg cfg;
  cfg_build(l->fn, &cfg);
  CfgLoopList loops = {0};
  cfg_natural_loops(&cfg, &loops);
  int at = cfg_index(&cfg, LLVMGetInstructionParent(l->marker)), best = -1;
  size_t best_size = 0;
  for (size_t k = 0; k < loops.len && at >= 0; k++) {
    if (!loops.data[k].body[at]) continue;
    size_t size = 0;
    for (size_t i = 0; i < cfg.blocks.len; i++) size += loops.data[k].body[i];
    if (best < 0 || size < best_size) best = (int)k, best_size = size;
  }
  if (best >= 0) {
    l->header = loops.data[best].header;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(l->fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
      int i = cfg_index(&cfg, bb);
      if (i >= 0 && loops.data[best].body[i]) {
        vec_push(&l->blocks, bb);
        vmap_put(&l->in, LLVMBasicBlockAsValue(bb), bb);
      }
    }
  }
  for (size_t k = 0; k < loops.len; k++) free(loops.data[k].body);
  vec_free(&loops);
  cfg_free(&cfg);
  return best >= 0;
}

/* Whether the marker stands in a loop of the source whose body cannot come round again (it returns or
 * breaks whatever the values: `for (...) { mark; ...; return r; }`): a block that no path from the entry
 * reaches, the loop's increment, branches to a block that runs before the marker. The loop runs its body
 * at most once: there is nothing to checkpoint. */
static bool in_loop_that_cannot_repeat(LLVMValueRef marker) {
  LLVMBasicBlockRef at = LLVMGetInstructionParent(marker);
  Cfg cfg;
  cfg_build(LLVMGetBasicBlockParent(at), &cfg);
  bool found = false;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(LLVMGetBasicBlockParent(at)); bb && !found; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef br = LLVMGetBasicBlockTerminator(bb);
    if (cfg_index(&cfg, bb) >= 0 || !br) continue;
    for (unsigned i = 0, n = LLVMGetNumSuccessors(br); i < n && !found; i++) {
      LLVMBasicBlockRef to = LLVMGetSuccessor(br, i);
      found = cfg_index(&cfg, to) >= 0 && cfg_dominates(&cfg, to, at);
    }
  }
  cfg_free(&cfg);
  return found;
}

static int var_index(const Loop *l, LLVMValueRef a) {
  for (size_t i = 0; i < l->vars.len; i++)
    if (l->vars.data[i].alloca == a) return (int)i;
  return -1;
}

/* Whether every load of slot v in the loop comes after a store to it earlier in its block. */
static bool written_before_read(const Loop *l, LLVMValueRef v) {
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef load = LLVMGetUser(u);
    /* a call the slot is handed to (an inner checkpointed loop that swaps it) reads it first */
    if (ir_is_call(load) && !LLVMIsAIntrinsicInst(load) && in_loop(l, LLVMGetInstructionParent(load))) return false;
    if (!LLVMIsALoadInst(load) || !in_loop(l, LLVMGetInstructionParent(load))) continue;
    bool stored = false;
    for (LLVMValueRef i = LLVMGetPreviousInstruction(load); i && !stored; i = LLVMGetPreviousInstruction(i))
      stored = LLVMIsAStoreInst(i) && LLVMGetOperand(i, 1) == v;
    if (!stored) return false;
  }
  return true;
}

/* Debug records and lifetime markers: what says nothing of a variable's value. */
static bool bookkeeping(LLVMValueRef inst);

/* Whether slot v is a variable the loop's body declares: its lifetime starts in the loop, and nothing
 * outside the loop uses it. Whatever it held when the last step ended is gone as the next begins (a
 * range-for's range and iterators, which the body hands to calls before they are inlined). */
static bool scoped_in_step(const Loop *l, LLVMValueRef v) {
  bool starts = false;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    bool inside = LLVMIsAInstruction(user) && in_loop(l, LLVMGetInstructionParent(user));
    if (ir_is_debug_intrinsic(user)) continue;
    if (!inside) return false;
    starts |= ir_is_lifetime_marker(user) && !strcmp(ir_called_name(user), "llvm.lifetime.start.p0");
  }
  return starts;
}

/* Whether slot v is the step's own: a variable the body declares, or a scalar every step stores before it
 * loads it, which only stores reach outside the loop (clang's slot for a firstprivate value handed to a
 * region, say). It then moves into the loop's function, no variable of the loop: nothing of it crosses
 * from step to step. */
static bool private_to_step(const Loop *l, LLVMValueRef v) {
  LLVMTypeRef t = LLVMGetAllocatedType(v);
  LLVMTypeKind k = LLVMGetTypeKind(t);
  if (!LLVMIsAConstantInt(LLVMGetOperand(v, 0)) || LLVMConstIntGetZExtValue(LLVMGetOperand(v, 0)) != 1) return false;
  if (scoped_in_step(l, v)) return true;
  if (!(k == LLVMIntegerTypeKind || k == LLVMDoubleTypeKind || k == LLVMFloatTypeKind || k == LLVMPointerTypeKind))
    return false;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (!LLVMIsAInstruction(user) || bookkeeping(user)) continue;
    bool inside = in_loop(l, LLVMGetInstructionParent(user));
    if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == v && LLVMGetOperand(user, 0) != v) continue;
    if (!inside || !LLVMIsALoadInst(user)) return false;
  }
  return written_before_read(l, v);
}

static bool bookkeeping(LLVMValueRef inst) {
  return ir_is_debug_intrinsic(inst) || ir_is_lifetime_marker(inst);
}

/* Whether every parameter of the functions `call` runs (its callee, or a parallel region it forks) that
 * receives p satisfies `ok`. */
static bool params_receiving(LLVMValueRef call, LLVMValueRef p, bool (*ok)(LLVMValueRef, const Loop *, int), int depth) {
  bool fork = omp_classify(call) == OMP_FORK;
  LLVMValueRef fn = fork ? omp_fork_outlined(call) : ir_called_function(call);
  if (!fn || LLVMIsDeclaration(fn) || LLVMGetCalledValue(call) == p) return false;
  for (unsigned a = fork ? OMP_FORK_FIRST_ARG : 0, n = ir_num_call_args(call); a < n; a++) {
    if (LLVMGetArgOperand(call, a) != p) continue;
    unsigned index;
    LLVMValueRef param = omp_param_receiving(call, a, &index);
    if (!param || !ok(param, NULL, depth + 1)) return false;
  }
  return true;
}

/* Whether `store` is clang's -O0 spill of v (a parameter kept in a stack slot) and every load of the slot
 * satisfies `ok`: the slot is never written again. */
static bool spilled(LLVMValueRef store, LLVMValueRef v, bool (*ok)(LLVMValueRef, const Loop *, int), int depth) {
  if (!LLVMIsAStoreInst(store) || LLVMGetOperand(store, 0) != v || !LLVMIsAAllocaInst(LLVMGetOperand(store, 1)))
    return false;
  for (LLVMUseRef w = LLVMGetFirstUse(LLVMGetOperand(store, 1)); w; w = LLVMGetNextUse(w)) {
    LLVMValueRef r = LLVMGetUser(w);
    if (r == store || bookkeeping(r)) continue;
    if (!LLVMIsALoadInst(r) || !ok(r, NULL, depth + 1)) return false;
  }
  return true;
}

static bool only_loaded(LLVMValueRef p, const Loop *unused, int depth);

/* Whether store puts p into a task's block or shareds, where the task's code reads it back only to load
 * from it (a region's task sharing the variable). */
static bool task_only_loads(LLVMValueRef store, LLVMValueRef p, int depth) {
  if (!LLVMIsAStoreInst(store) || LLVMGetOperand(store, 0) != p) return false;
  ValueList loads = {0};
  bool ok = omp_task_field_readers(store, &loads);
  for (size_t i = 0; ok && i < loads.len; i++) ok = only_loaded(loads.data[i], NULL, depth + 1);
  free(loads.data);
  return ok;
}

/* Whether the memory at p is only ever loaded from, also where p is kept in a stack slot (clang's -O0 form
 * of a parameter) or handed to a function, a parallel region or a task. */
static bool only_loaded(LLVMValueRef p, const Loop *unused, int depth) {
  (void)unused;
  if (depth > 8) return false;
  for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsALoadInst(user) || bookkeeping(user) || spilled(user, p, only_loaded, depth) ||
        (ir_is_call(user) && params_receiving(user, p, only_loaded, depth)) || task_only_loads(user, p, depth))
      continue;
    return false;
  }
  return true;
}

/* Whether a call goes through p without also passing it. */
static bool only_called_through(LLVMValueRef call, LLVMValueRef p) {
  if (!ir_is_call(call) || LLVMGetCalledValue(call) != p) return false;
  for (unsigned i = 0, n = ir_num_call_args(call); i < n; i++)
    if (LLVMGetArgOperand(call, i) == p) return false;
  return true;
}

/* Whether the pointer p reaches only integers: p and the addresses computed from it are only loaded from
 * or stored to as integers (or MPI handles: an Open MPI communicator is a pointer), compared, called
 * through (a function is its own shadow), or handed to functions that do the same (its shadow would never
 * be read or written). */
static bool reaches_only_integers(LLVMValueRef p, const Loop *unused, int depth) {
  (void)unused;
  if (depth > 8) return false;
  for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (bookkeeping(user) || LLVMIsAICmpInst(user) || only_called_through(user, p)) continue;
    if (LLVMIsAGetElementPtrInst(user) && LLVMGetOperand(user, 0) == p && reaches_only_integers(user, NULL, depth + 1)) continue;
    if (ir_is_call(user) && params_receiving(user, p, reaches_only_integers, depth)) continue;
    if (spilled(user, p, reaches_only_integers, depth)) continue;
    if (LLVMIsALoadInst(user) && LLVMGetTypeKind(ir_scalar_type(LLVMTypeOf(user))) == LLVMIntegerTypeKind) continue;
    if (LLVMIsALoadInst(user) && ir_is_ptr(LLVMTypeOf(user)) && mpi_handle_only(user)) continue;
    if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == p &&
        LLVMGetTypeKind(ir_scalar_type(LLVMTypeOf(LLVMGetOperand(user, 0)))) == LLVMIntegerTypeKind)
      continue;
    return false;
  }
  return true;
}

/* Whether the memory at `holder` (a variable's slot, or its address handed to a parallel region or a
 * function) only has pointers read from it that reach only integers: nothing stores into it, nothing else
 * sees it. In the loop l's blocks only, where l is given. */
static bool holds_integer_pointer(LLVMValueRef holder, const Loop *l, int depth) {
  if (depth > 4) return false;
  for (LLVMUseRef u = LLVMGetFirstUse(holder); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (l && (!LLVMIsAInstruction(user) || !in_loop(l, LLVMGetInstructionParent(user)))) continue;
    if (bookkeeping(user)) continue;
    if (LLVMIsALoadInst(user)) {
      if (!reaches_only_integers(user, NULL, 0)) return false;
    } else if (!spilled(user, holder, holds_integer_pointer, depth) &&
               !(ir_is_call(user) && params_receiving(user, holder, holds_integer_pointer, depth))) {
      return false;
    }
  }
  return true;
}

/* Whether `user` of slot v hands MPI the address of handles kept there (requests that the step's calls
 * fill and complete: Open MPI's are pointers): no pointer of the program moves. */
static bool mpi_handles(LLVMValueRef user, LLVMValueRef v) {
  if (ir_is_call(user)) return mpi_call_of(user) != NULL;
  if (!LLVMIsAGetElementPtrInst(user) || LLVMGetOperand(user, 0) != v) return false;
  for (LLVMUseRef u = LLVMGetFirstUse(user); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef x = LLVMGetUser(u);
    if (!LLVMIsALoadInst(x) && !(ir_is_call(x) && mpi_call_of(x))) return false;
  }
  return true;
}

/* Whether the loop l only reads slot v (itself, or through the functions and regions it hands it to). */
static bool read_in_loop(const Loop *l, LLVMValueRef v) {
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (!LLVMIsAInstruction(user) || !in_loop(l, LLVMGetInstructionParent(user))) continue;
    if (LLVMIsALoadInst(user) || bookkeeping(user) || (ir_is_call(user) && params_receiving(user, v, only_loaded, 0)))
      continue;
    return false;
  }
  return true;
}

/* Functions whose derivatives may be generated: the requests' functions and every function they reach
 * (called, handed to a parallel region or a task, or called through a pointer: each function of the
 * call's type whose address is taken, as ad/indirect.h's table holds them). */
static void reach(ValueMap *d, LLVMValueRef fn) {
  if (LLVMIsDeclaration(fn) || vmap_has(d, fn)) return;
  vmap_put(d, fn, fn);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (ir_is_call(i) && !ir_called_function(i) && !LLVMIsAInlineAsm(LLVMGetCalledValue(i))) {
        ValueList targets = {0};
        indirect_module_candidates(LLVMGetGlobalParent(fn), LLVMGetCalledFunctionType(i), &targets);
        for (size_t t = 0; t < targets.len; t++) reach(d, targets.data[t]);
        vec_free(&targets);
      }
      for (unsigned o = 0, n = (unsigned)LLVMGetNumOperands(i); o < n; o++) {
        LLVMValueRef f = ir_strip_pointer_casts(LLVMGetOperand(i, o));
        if (f && LLVMIsAFunction(f)) reach(d, f);
      }
    }
}

void checkpoint_differentiated(LLVMModuleRef m, ValueMap *d) {
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (!strncmp(LLVMGetValueName(f), REQUEST_PREFIX, strlen(REQUEST_PREFIX)))
      for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u)) {
        Request r;
        if (request_is_canonical_call(LLVMGetUser(u)) && request_decode(LLVMGetUser(u), &r)) {
          reach(d, r.fn);
          request_free(&r);
        }
      }
}

/* The parameter of fn that pointer x is computed from by address arithmetic (C keeps it inside the
 * parameter's object), also through a stack slot that holds only the parameter (clang's spill of it) and
 * is only read, here or by the functions and regions it is handed to (a checkpointed loop outlined
 * before); NULL for anything else. */
static LLVMValueRef parameter_behind(LLVMValueRef x) {
  for (int depth = 0; depth < 16; depth++) {
    x = ir_strip_pointer_casts(x);
    if (LLVMIsAArgument(x)) return x;
    if (LLVMIsAGetElementPtrInst(x)) {
      x = LLVMGetOperand(x, 0);
      continue;
    }
    if (!LLVMIsALoadInst(x) || !LLVMIsAAllocaInst(LLVMGetOperand(x, 0))) return NULL;
    LLVMValueRef slot = LLVMGetOperand(x, 0), stored = NULL;
    for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u);
      if (LLVMIsALoadInst(user) || bookkeeping(user) || (ir_is_call(user) && params_receiving(user, slot, only_loaded, 0)))
        continue;
      if (!LLVMIsAStoreInst(user) || LLVMGetOperand(user, 1) != slot || !LLVMIsAArgument(LLVMGetOperand(user, 0)) ||
          (stored && stored != LLVMGetOperand(user, 0)))
        return NULL;
      stored = LLVMGetOperand(user, 0);
    }
    return stored;
  }
  return NULL;
}

/* Whether slot v of fn holds only its parameter p, or addresses computed from it (stored there, never
 * elsewhere), and every request differentiating fn passes p constant, while no other function a
 * derivative is made of calls fn: then the loop's steps never need that pointer's shadow, whatever memory
 * it points to. */
/* May a function whose derivative is made call fn through a pointer (one of fn's type): a caller that is
 * not seen, which may pass fn's arguments with derivatives. A table of fn, its address printed or given
 * to a finite-difference check is otherwise only a value. */
static bool called_through_pointer(Ck *ck, LLVMValueRef fn) {
  for (size_t i = 0; i < ck->called_types.len; i++)
    if (ck->called_types.data[i] == LLVMGlobalGetValueType(fn)) return true;
  return false;
}

void checkpoint_find_differentiated(Ck *ck) {
  if (ck->differentiated_known) return;
  ck->differentiated_known = true;
  checkpoint_differentiated(ck->m, &ck->differentiated);
  for (LLVMValueRef g = LLVMGetFirstFunction(ck->m); g; g = LLVMGetNextFunction(g)) {
    if (!vmap_has(&ck->differentiated, g)) continue;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (ir_is_call(i) && !ir_called_function(i)) vec_push(&ck->called_types, LLVMGetCalledFunctionType(i));
  }
}

static bool holds_constant_argument(Ck *ck, LLVMValueRef fn, LLVMValueRef v) {
  int p = -1;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (!LLVMIsAStoreInst(user) || LLVMGetOperand(user, 1) != v) continue;
    LLVMValueRef x = parameter_behind(LLVMGetOperand(user, 0));
    if (!x || (p >= 0 && LLVMGetParam(fn, (unsigned)p) != x)) return false;
    for (p = 0; LLVMGetParam(fn, (unsigned)p) != x; p++) {}
  }
  if (p < 0) return false;
  checkpoint_find_differentiated(ck);
  bool requested = false;
  for (LLVMUseRef u = LLVMGetFirstUse(fn); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    Request r;
    if (request_is_canonical_call(user) && request_decode(user, &r)) {
      bool constant = r.fn == fn && r.activity[p] == ACT_CONST;
      request_free(&r);
      if (!constant) return false;
      requested = true;
    } else if (ir_is_call(user) && LLVMGetCalledValue(user) == fn ? vmap_has(&ck->differentiated, fn_of(user))
                                                                 : called_through_pointer(ck, fn)) {
      return false;
    }
  }
  return requested;
}

/* A choice of pointers, at offsets, or read from a local one was stored into (-O0 keeps each so). */
static bool is_choice(LLVMValueRef x, int depth) {
  for (int i = 0; i < 16 && LLVMIsAGetElementPtrInst(x); i++) x = LLVMGetOperand(x, 0);
  if (LLVMIsASelectInst(x) || LLVMIsAPHINode(x)) return true;
  if (depth > 4 || !LLVMIsALoadInst(x) || !LLVMIsAAllocaInst(LLVMGetOperand(x, 0))) return false;
  for (LLVMUseRef u = LLVMGetFirstUse(LLVMGetOperand(x, 0)); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef store = LLVMGetUser(u);
    if (LLVMIsAStoreInst(store) && LLVMGetOperand(store, 1) == LLVMGetOperand(x, 0) && is_choice(LLVMGetOperand(store, 0), depth + 1))
      return true;
  }
  return false;
}

/* Whether the function stores into slot v a choice of pointers (`p = x[0] > 0 ? x : c`, at offsets), or
 * its parameter where a call of it passes such a choice: a view, perhaps of constant memory that shadows
 * itself (ad/constants.h), which the steps' derivatives must tell apart at each load. */
static bool holds_choice(LLVMValueRef v) {
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (!LLVMIsAStoreInst(user) || LLVMGetOperand(user, 1) != v) continue;
    LLVMValueRef x = LLVMGetOperand(user, 0);
    if (is_choice(x, 0)) return true;
    if (!LLVMIsAArgument(x)) continue;
    LLVMValueRef fn = LLVMGetParamParent(x);
    unsigned i = ir_param_index(x);
    for (LLVMUseRef c = LLVMGetFirstUse(fn); c; c = LLVMGetNextUse(c)) {
      LLVMValueRef call = LLVMGetUser(c);
      if (ir_is_call(call) && ir_called_function(call) == fn && i < ir_num_call_args(call) &&
          is_choice(LLVMGetArgOperand(call, i), 0))
        return true;
    }
  }
  return false;
}

/* Slot v as a variable of the loop: its size, whether it holds pointers and may carry derivatives (what
 * the loop does with it is the caller's to add); a variable-length array's length counted. */
static Var new_variable(Ck *ck, Loop *l, LLVMValueRef v) {
  LLVMTypeRef t = LLVMGetAllocatedType(v);
  LLVMValueRef count = LLVMGetOperand(v, 0);
  bool fixed = LLVMIsAConstantInt(count);
  if (!fixed) l->counts++;
  return (Var){.alloca = v,
               .size = ir_type_size(ck->m, t) * (fixed ? LLVMConstIntGetZExtValue(count) : 1),
               .count = fixed ? NULL : count,
               .pointers = ir_contains_ptr(t),
               .active = ir_carries_derivative(t) || ir_contains_ptr(t)};
}

/* A local of the function the loop reaches only through a pointer one of its variables holds (p = a; the
 * loop swaps p with another pointer, never naming a): a variable of the loop too, which stays where it is
 * and whose copies the runtime points p into. Its index. */
static int add_pointed_variable(Ck *ck, Loop *l, LLVMValueRef local) {
  vec_push(&l->vars, new_variable(ck, l, local));
  return (int)l->vars.len - 1;
}

static bool param_has(LLVMValueRef fn, unsigned i, const char *key) {
  return LLVMGetStringAttributeAtIndex(fn, i + 1, key, (unsigned)strlen(key)) != NULL;
}

/* The call of an earlier checkpointed loop's function may leave, in a slot it swaps or points into its
 * variables, a pointer another swapped slot held or the address of a variable they point into (a time loop
 * swaps p with a local array's address, a later loop writes through p): those slots' `holds` (a mask of
 * locals, as in keep_local_addresses) grow by all of them. Whether any grew. */
static bool loop_call_moves(ValueMap *origin, ValueMap *holds, LLVMValueRef call) {
  LLVMValueRef fn = ir_called_function(call);
  unsigned n = ir_num_call_args(call);
  uint64_t all = 0;
  for (unsigned a = 0; a < n; a++) {
    LLVMValueRef arg = LLVMGetArgOperand(call, a);
    if (param_has(fn, a, SWAPS)) all |= (uint64_t)(uintptr_t)vmap_get(holds, ir_address_base(arg));
    if (param_has(fn, a, POINTED)) all |= (uint64_t)(uintptr_t)vmap_get(origin, arg);
  }
  bool changed = false;
  for (unsigned a = 0; a < n && all; a++) {
    if (!param_has(fn, a, SWAPS) && !param_has(fn, a, INTO)) continue;
    LLVMValueRef to = ir_address_base(LLVMGetArgOperand(call, a));
    uint64_t had = (uint64_t)(uintptr_t)vmap_get(holds, to);
    if ((had | all) != had) vmap_put(holds, to, (void *)(uintptr_t)(had | all)), changed = true;
  }
  return changed;
}

/* What keep_local_addresses does where `at` puts into memory `to` a pointer into the locals of mask m. */
static bool keep_address(Ck *ck, Loop *l, const ValueList *locals, uint64_t m, LLVMValueRef to, LLVMValueRef at) {
  int holder = var_index(l, to);
  if (!m || (LLVMIsAAllocaInst(to) && fn_of(to) == l->fn && holder < 0)) return true; /* no step finds it */
  bool ok = true;
  for (size_t k = 0; k < locals->len && ok; k++) {
    if (!(m >> (k < 63 ? k : 63) & 1)) continue;
    int target = var_index(l, locals->data[k]);
    LLVMTypeRef t = LLVMGetAllocatedType(locals->data[k]);
    if (holder >= 0 && target < 0 && k < 63 && !(ir_contains_ptr(t) && ir_contains_fp(t)))
      target = add_pointed_variable(ck, l, locals->data[k]);
    ok = holder >= 0 && target >= 0 && (k < 63 || m >> 63 == 0);
    if (ok) l->vars.data[target].pointed_to = true, l->vars.data[target].read_only = false;
    /* a pointer into it, stored where derivatives are, is given its shadow (an initializer_list's ints) */
    if (ok && l->vars.data[holder].active) l->vars.data[target].active = true;
  }
  if (ok) l->vars.data[holder].points_into = true;
  else
    diag_error(at, "the address of a local variable is kept in memory in a function with a checkpointed loop, "
                   "whose steps run on a copy of its variables, also after it returned: allocate the variable "
                   "with malloc");
  return ok;
}

/* The steps run on a copy of the loop's variables, and are run again after the function returned: a local
 * variable's address kept where a step could find it would reach a copy left behind, or a frame that is
 * gone. Kept in one of the loop's variables, the address of another (or of a local the loop reaches only
 * so, which becomes a variable too) is moved by the runtime into its copies (the variable it points into
 * stays where it is, the one holding it is marked); kept in a local
 * variable the loop does not use, no step finds it; anything else is refused. The addresses are followed
 * through address arithmetic, choices, and slots they are stored into and read back from (which
 * locals each value may point into: a bit per local, the last for all beyond 63). */
static bool keep_local_addresses(Ck *ck, Loop *l) {
  ValueList locals = {0};
  ValueMap origin, holds; /* value -> the locals it may point into; slot -> those it may hold */
  vmap_init(&origin);
  vmap_init(&holds);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(l->fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      if (LLVMIsAAllocaInst(i)) {
        vmap_put(&origin, i, (void *)(uintptr_t)(1ull << (locals.len < 63 ? locals.len : 63)));
        vec_push(&locals, i);
      }
#define MASK(map, v) ((uint64_t)(uintptr_t)vmap_get(map, v))
  for (bool changed = true; changed;) {
    changed = false;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(l->fn); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
        uint64_t m = 0;
        if (LLVMIsAGetElementPtrInst(i) || LLVMIsABitCastInst(i) || LLVMIsAAddrSpaceCastInst(i)) {
          m = MASK(&origin, LLVMGetOperand(i, 0));
        } else if (LLVMIsASelectInst(i)) {
          m = MASK(&origin, LLVMGetOperand(i, 1)) | MASK(&origin, LLVMGetOperand(i, 2));
        } else if (LLVMIsAPHINode(i)) {
          for (unsigned k = 0, n = LLVMCountIncoming(i); k < n; k++) m |= MASK(&origin, LLVMGetIncomingValue(i, k));
        } else if (LLVMIsALoadInst(i) && ir_contains_ptr(LLVMTypeOf(i))) {
          m = MASK(&holds, ir_address_base(LLVMGetOperand(i, 0)));
        } else if (ir_is_call(i) && checkpoint_is_loop(ir_called_function(i))) {
          changed |= loop_call_moves(&origin, &holds, i);
          continue;
        } else if (LLVMIsAStoreInst(i) && MASK(&origin, LLVMGetOperand(i, 0))) {
          LLVMValueRef to = ir_address_base(LLVMGetOperand(i, 1));
          uint64_t had = MASK(&holds, to), now = had | MASK(&origin, LLVMGetOperand(i, 0));
          if (now != had) vmap_put(&holds, to, (void *)(uintptr_t)now), changed = true;
          continue;
        }
        if (m && (m | MASK(&origin, i)) != MASK(&origin, i)) {
          vmap_put(&origin, i, (void *)(uintptr_t)(m | MASK(&origin, i)));
          changed = true;
        }
      }
  }
  bool ok = true;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(l->fn); bb && ok; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && ok; i = LLVMGetNextInstruction(i)) {
      if (LLVMIsAStoreInst(i)) {
        ok = keep_address(ck, l, &locals, MASK(&origin, LLVMGetOperand(i, 0)), ir_address_base(LLVMGetOperand(i, 1)), i);
      } else if (ir_is_call(i) && checkpoint_is_loop(ir_called_function(i))) { /* the slots loop_call_moves grew */
        LLVMValueRef fn = ir_called_function(i);
        for (unsigned a = 0, n = ir_num_call_args(i); a < n && ok; a++) {
          LLVMValueRef to = ir_address_base(LLVMGetArgOperand(i, a));
          if (param_has(fn, a, SWAPS) || param_has(fn, a, INTO)) ok = keep_address(ck, l, &locals, MASK(&holds, to), to, i);
        }
      }
    }
#undef MASK
  vec_free(&locals);
  vmap_free(&origin);
  vmap_free(&holds);
  return ok;
}

/* Whether `call` hands slot v only to parameters of a checkpointed loop's function that the loop swaps with
 * its other variables and nothing else (nested checkpointing: an inner time loop swapping the buffers
 * of the outer loop's variables). */
static bool swapped_by_inner_loop(LLVMValueRef call, LLVMValueRef v) {
  LLVMValueRef f = ir_called_function(call);
  if (!f || !LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, LOOP, strlen(LOOP))) return false;
  for (unsigned a = 0, n = ir_num_call_args(call); a < n; a++)
    if (LLVMGetArgOperand(call, a) == v && !param_has(f, a, SWAPS)) return false;
  return true;
}

static bool makes_block(LLVMValueRef call, CallKind k) {
  (void)call;
  return k == CALL_ALLOC || k == CALL_REALLOC;
}

/* Whether v, stored into a variable, may be an address in a global (through offsets and choices). */
static bool into_global(LLVMValueRef v, int depth) {
  v = ir_strip_pointer_casts(v);
  if (depth > 8) return false;
  if (LLVMIsAGlobalVariable(v)) return true;
  if (LLVMIsAGetElementPtrInst(v) || (LLVMIsAConstantExpr(v) && LLVMGetConstOpcode(v) == LLVMGetElementPtr))
    return into_global(LLVMGetOperand(v, 0), depth + 1);
  if (LLVMIsASelectInst(v)) return into_global(LLVMGetOperand(v, 1), depth + 1) || into_global(LLVMGetOperand(v, 2), depth + 1);
  if (LLVMIsAPHINode(v))
    for (unsigned i = 0, n = LLVMCountIncoming(v); i < n; i++)
      if (into_global(LLVMGetIncomingValue(v, i), depth + 1)) return true;
  return false;
}

/* Whether v, stored into a variable, may be a block a step allocated: an allocation's result, a function's
 * that may allocate, or what a slot of the step's own was given of those. */
static bool from_allocation(const Loop *l, LLVMValueRef v, int depth) {
  v = ir_strip_pointer_casts(v);
  if (depth > 8) return false;
  if (ir_is_call(v)) {
    CallKind kind = call_classify(v, NULL);
    LLVMValueRef callee = kind == CALL_MODULE ? ir_called_function(v) : NULL;
    ValueMap seen;
    vmap_init(&seen);
    bool made = makes_block(v, kind) || (callee && checkpoint_reaches(callee, makes_block, &seen));
    vmap_free(&seen);
    return made;
  }
  if (LLVMIsASelectInst(v)) return from_allocation(l, LLVMGetOperand(v, 1), depth + 1) || from_allocation(l, LLVMGetOperand(v, 2), depth + 1);
  if (LLVMIsAPHINode(v)) {
    for (unsigned i = 0, n = LLVMCountIncoming(v); i < n; i++)
      if (from_allocation(l, LLVMGetIncomingValue(v, i), depth + 1)) return true;
    return false;
  }
  LLVMValueRef slot = LLVMIsALoadInst(v) ? ir_strip_pointer_casts(LLVMGetOperand(v, 0)) : NULL;
  if (!slot || !LLVMIsAAllocaInst(slot) || !private_to_step(l, slot)) return false;
  for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef st = LLVMGetUser(u);
    if (LLVMIsAStoreInst(st) && LLVMGetOperand(st, 1) == slot && from_allocation(l, LLVMGetOperand(st, 0), depth + 1))
      return true;
  }
  return false;
}

/* Whether addresses a and b are one slot: a variable, or one field of a variable (a struct's pointer). */
static bool same_slot(const Loop *l, LLVMValueRef a, LLVMValueRef b) {
  long long oa = 0, ob = 0;
  LLVMModuleRef m = LLVMGetGlobalParent(l->fn);
  return ir_strip_constant_offsets(m, a, &oa) == ir_strip_constant_offsets(m, b, &ob) && oa == ob;
}

/* The variable whose slot (or one of whose fields) address a is, or -1. */
static int var_of_slot(const Loop *l, LLVMValueRef a) {
  long long off = 0;
  return var_index(l, ir_strip_constant_offsets(LLVMGetGlobalParent(l->fn), a, &off));
}

/* Whether the block in slot `var` is freed after `store` (in block #k of the loop) in the same step: a
 * block the step allocates and frees (a scratch array) crosses no step. */
static bool freed_after(const Loop *l, size_t k, LLVMValueRef store, LLVMValueRef slot) {
  for (LLVMValueRef i = LLVMGetNextInstruction(store); ; i = LLVMGetNextInstruction(i)) {
    while (!i && ++k < l->blocks.len) i = LLVMGetFirstInstruction(l->blocks.data[k]);
    if (!i) return false;
    if (ir_is_call(i) && call_classify(i, NULL) == CALL_FREE && ir_num_call_args(i) >= 1) {
      LLVMValueRef p = ir_strip_pointer_casts(LLVMGetArgOperand(i, 0));
      if (LLVMIsALoadInst(p) && same_slot(l, LLVMGetOperand(p, 0), slot)) return true;
    }
    if (LLVMIsAStoreInst(i) && same_slot(l, LLVMGetOperand(i, 1), slot)) return false; /* set again: the block is kept */
  }
}

/* A pointer variable the steps set is followed where it moves within memory that stays what it was, its
 * shadow with it; refused where that cannot hold (user-style probes, both silent wrong gradients): a block
 * a step allocated kept in a variable (a recomputed step allocates another, and the adjoints later steps
 * left in the first block's shadow are lost: the gradient was 0), and a variable set to addresses in a
 * global that change from step to step. */
static bool moved_pointers_supported(Loop *l) {
  for (size_t k = 0; k < l->blocks.len; k++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(l->blocks.data[k]); i; i = LLVMGetNextInstruction(i)) {
      int v = LLVMIsAStoreInst(i) ? var_of_slot(l, LLVMGetOperand(i, 1)) : -1; /* a struct's field too */
      if (v < 0 || !l->vars.data[v].pointers) continue;
      LLVMValueRef x = LLVMGetOperand(i, 0);
      if (l->vars.data[v].moved && !LLVMIsAConstant(x) && into_global(x, 0)) {
        diag_error(i, "a checkpointed loop that sets a pointer variable to addresses in a global that change "
                      "from step to step is not supported yet: keep the index into the global in an integer "
                      "variable instead");
        return false;
      }
      if (from_allocation(l, x, 0) && !freed_after(l, k, i, LLVMGetOperand(i, 1))) {
        diag_error(i, "a checkpointed loop that keeps a block its step allocates in a pointer variable for the "
                      "next steps is not supported yet: allocate the blocks before the loop and swap the pointers");
        return false;
      }
    }
  return true;
}

/* Whether a call of fn can throw: not where fn is defined here, no invoke or resume is in it and it calls
 * only intrinsics, functions marked nounwind and functions that cannot throw in turn (std::min<int>, which
 * clang calls with an invoke where an object with a destructor is alive). */
static bool may_throw(LLVMValueRef fn, int depth) {
  if (!fn || LLVMGetIntrinsicID(fn)) return !fn;
  if (LLVMGetEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, ir_attr_kind("nounwind"))) return false;
  if (LLVMIsDeclaration(fn) || depth > 4) return true;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (LLVMIsAInvokeInst(i) || LLVMIsAResumeInst(i)) return true;
      if (LLVMIsACallInst(i) && !LLVMGetCallSiteEnumAttribute(i, LLVMAttributeFunctionIndex, ir_attr_kind("nounwind")) &&
          may_throw(ir_called_function(i), depth + 1))
        return true;
    }
  return false;
}

/* Whether fn throws, if at all, only where memory runs out or a size is too large: operator new and
 * libstdc++'s reports of those (a vector's constructor, push_back), through calls of the module at most
 * six deep. A program does not catch those to go on computing, as it may catch its own throws. */
static bool throws_only_for_memory(LLVMValueRef fn, int depth) {
  static const char *const reports[] = {"_Znwm", "_Znam", "_ZnwmSt11align_val_t", "_ZnamSt11align_val_t",
                                        "_ZSt17__throw_bad_allocv", "_ZSt20__throw_length_errorPKc",
                                        "_ZSt28__throw_bad_array_new_lengthv", NULL};
  if (!fn || !may_throw(fn, 0)) return fn != NULL;
  for (const char *const *r = reports; *r; r++)
    if (!strcmp(LLVMGetValueName(fn), *r)) return true;
  if (LLVMIsDeclaration(fn) || depth > 6) return false;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (!LLVMIsACallInst(i) && !LLVMIsAInvokeInst(i)) continue;
      if (LLVMGetCallSiteEnumAttribute(i, LLVMAttributeFunctionIndex, ir_attr_kind("nounwind"))) continue;
      if (LLVMIsAInlineAsm(LLVMGetCalledValue(i))) continue;
      if (!throws_only_for_memory(ir_called_function(i), depth + 1)) return false; /* a throw, or through a pointer */
    }
  return true;
}

/* Whether bb begins with a phi. */
static bool merges(LLVMBasicBlockRef bb) {
  LLVMValueRef first = LLVMGetFirstInstruction(bb);
  return first && LLVMIsAPHINode(first);
}

/* The loop's invokes. One of a function that cannot throw becomes a call followed by a branch to its
 * normal destination. One that throws only where memory runs out (a vector's constructor, push_back)
 * unwinds into a landing pad of the loop's own, which stops the program saying so (runtime/checkpoint.c):
 * the loop moves into a function of its own, out of which an exception would skip the destructors of the
 * objects alive in the enclosing function. The others (a function of the program's that throws, whose
 * exception the program may catch and go on) are refused in examine, as are those whose landing pad
 * merges values. */
static void calls_for_invokes(Ck *ck, Loop *l) {
  LLVMBasicBlockRef pad = l->threw;
  for (size_t k = 0, n = l->blocks.len; k < n; k++) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(l->blocks.data[k]);
    if (!t || !LLVMIsAInvokeInst(t)) continue;
    if (!may_throw(ir_called_function(t), 0)) {
      ad_invoke_to_call(t);
      continue;
    }
    if (!throws_only_for_memory(ir_called_function(t), 0) || merges(LLVMGetUnwindDest(t)) || !LLVMHasPersonalityFn(l->fn))
      continue;
    if (!pad) {
      pad = LLVMAppendBasicBlockInContext(ck->c, l->fn, "step.threw");
      LLVMBuilderRef b = LLVMCreateBuilderInContext(ck->c);
      LLVMPositionBuilderAtEnd(b, pad);
      LLVMTypeRef parts[2] = {ck->ptr, LLVMInt32TypeInContext(ck->c)};
      LLVMValueRef lp = LLVMBuildLandingPad(b, LLVMStructTypeInContext(ck->c, parts, 2, 0), NULL, 1, "");
      LLVMAddClause(lp, LLVMConstNull(ck->ptr));
      LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(l->marker);
      LLVMSetCurrentDebugLocation2(b, loc);
      LLVMTypeRef fty = LLVMFunctionType(ck->void_t, &ck->ptr, 1, 0);
      char *place = diag_place(l->marker), *text = xasprintf("%s, in '%s'", place, diag_source_function(l->marker));
      LLVMValueRef where = LLVMBuildGlobalStringPtr(b, text, "step.where");
      free(place), free(text);
      LLVMValueRef call = ir_call_named(b, "__parad_rt_ckpt_threw", fty, &where, 1);
      LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ck->c, ir_attr_kind("noreturn"), 0));
      LLVMBuildUnreachable(b);
      LLVMDisposeBuilder(b);
      vec_push(&l->blocks, pad);
      vmap_put(&l->in, LLVMBasicBlockAsValue(pad), LLVMBasicBlockAsValue(pad));
      l->threw = pad;
    }
    LLVMSetUnwindDest(t, pad);
  }
}

/* The loop's variables and exits; false (reported) for what cannot move into a function of its own. */
static bool examine(Ck *ck, Loop *l) {
  int before = diag_error_count();
  calls_for_invokes(ck, l);
  for (size_t k = 0; k < l->blocks.len; k++) {
    LLVMBasicBlockRef bb = l->blocks.data[k];
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (LLVMIsAPHINode(i) && bb == l->header) {
        diag_error(i, "a checkpointed loop whose header merges values (a phi) is not supported yet");
        return false;
      }
      /* C++: an exception's path out of a step would leave the loop's function with no landing pad (but
         the loop's own, above) */
      bool own_pad = LLVMIsAInvokeInst(i) ? LLVMGetUnwindDest(i) == l->threw : LLVMIsALandingPadInst(i) && bb == l->threw;
      if (!own_pad && (LLVMIsAInvokeInst(i) || LLVMIsALandingPadInst(i) || LLVMIsAResumeInst(i))) {
        const char *callee = LLVMIsAInvokeInst(i) ? ir_called_name(i) : NULL;
        diag_error(i, "a call%s%s%s that may throw while an object with a destructor is alive (a C++ invoke), inside a "
                      "loop checkpointed with " MARKER "(), is not supported yet: declare the function noexcept where "
                      "it is the program's own, or move the step's body into a noexcept function",
                   callee ? " of '" : "", callee ? callee : "", callee ? "'" : "");
        return false;
      }
      for (LLVMUseRef u = LLVMGetFirstUse(i); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsAInstruction(user) && !in_loop(l, LLVMGetInstructionParent(user))) {
          diag_error(user, "a value the checkpointed loop computed is used after it; keep it in a variable");
          return false;
        }
      }
      for (unsigned o = 0, n = bookkeeping(i) ? 0 : (unsigned)LLVMGetNumOperands(i); o < n; o++) {
        LLVMValueRef v = LLVMGetOperand(i, o);
        if (LLVMIsAArgument(v)) {
          diag_error(i, "a checkpointed loop that uses a parameter itself (not its variable) is not supported yet");
          return false;
        }
        if (!LLVMIsAInstruction(v) || in_loop(l, LLVMGetInstructionParent(v))) continue;
        if (!LLVMIsAAllocaInst(v)) { /* a variable-length array's length (a region is given it), or refused below */
          bool seen = false;
          for (size_t j = 0; j < l->outside.len && !seen; j++) seen = l->outside.data[j] == v;
          if (!seen) {
            vec_push(&l->outside, v);
            vec_push(&l->outside_at, i);
          }
          continue;
        }
        if (var_index(l, v) >= 0) continue;
        if (private_to_step(l, v)) {
          bool seen = false;
          for (size_t j = 0; j < l->privates.len && !seen; j++) seen = l->privates.data[j] == v;
          if (!seen) vec_push(&l->privates, v);
          continue;
        }
        LLVMTypeRef t = LLVMGetAllocatedType(v);
        Var var = new_variable(ck, l, v);
        for (LLVMUseRef u = LLVMGetFirstUse(v); u && var.pointers; u = LLVMGetNextUse(u)) {
          LLVMValueRef user = LLVMGetUser(u);
          if (!LLVMIsAInstruction(user) || !in_loop(l, LLVMGetInstructionParent(user)) || LLVMIsALoadInst(user) ||
              bookkeeping(user))
            continue;
          LLVMValueRef x = LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == v ? LLVMGetOperand(user, 0) : NULL;
          LLVMValueRef from = x && LLVMIsALoadInst(x) ? LLVMGetOperand(x, 0) : NULL;
          if (from && LLVMIsAAllocaInst(from) && ir_contains_ptr(LLVMGetAllocatedType(from)))
            var.swapped = true; /* a pointer one of the loop's variables held */
          else if (ir_is_call(user) && swapped_by_inner_loop(user, v))
            var.swapped = true; /* an inner checkpointed loop swaps it */
          else if (!(ir_is_call(user) && params_receiving(user, v, only_loaded, 0)) && !mpi_handles(user, v))
            var.moved = true; /* (a region or call that only reads it, or MPI's requests, move nothing) */
        }
        var.chosen = var.pointers && LLVMGetTypeKind(t) == LLVMPointerTypeKind && holds_choice(v);
        var.scratch = var.swapped && !var.moved && written_before_read(l, v);
        var.read_only = read_in_loop(l, v);
        if (var.pointers && !var.moved && !var.swapped && LLVMGetTypeKind(t) == LLVMPointerTypeKind &&
            (holds_integer_pointer(v, l, 0) || holds_constant_argument(ck, l->fn, v)))
          var.unshadowed = true, var.pointers = var.active = false;
        if (var.pointers && ir_contains_fp(t)) {
          diag_error(i, "a variable of the checkpointed loop that holds pointers and floating-point values together "
                        "is not supported yet");
          return false;
        }
        vec_push(&l->vars, var);
      }
    }
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    for (unsigned s = 0, n = LLVMGetNumSuccessors(t); s < n; s++) {
      LLVMBasicBlockRef to = LLVMGetSuccessor(t, s);
      if (in_loop(l, to)) continue;
      bool seen = false;
      for (size_t e = 0; e < l->exits.len; e++) seen |= l->exits.data[e] == to;
      if (seen) continue;
      if (LLVMIsAPHINode(LLVMGetFirstInstruction(to))) {
        diag_error(t, "a checkpointed loop whose exit merges values (a phi) is not supported yet");
        return false;
      }
      vec_push(&l->exits, to);
    }
  }
  /* values computed before the loop that it uses: only the lengths of its variable-length arrays */
  for (size_t j = 0; j < l->outside.len; j++) {
    bool length = false;
    for (size_t v = 0; v < l->vars.len && !length; v++) length = l->vars.data[v].count == l->outside.data[j];
    if (!length) {
      diag_error(l->outside_at.data[j], "a checkpointed loop that uses a value computed before it (not kept in a "
                                        "variable) is not supported yet");
      return false;
    }
  }
  return moved_pointers_supported(l) && keep_local_addresses(ck, l) && diag_error_count() == before;
}

static LLVMValueRef add_function(Ck *ck, const char *name, LLVMTypeRef ret, unsigned nptrs) {
  LLVMTypeRef *ps = xcalloc(nptrs + 1, sizeof *ps);
  for (unsigned i = 0; i < nptrs; i++) ps[i] = ck->ptr;
  LLVMValueRef f = LLVMAddFunction(ck->m, name, LLVMFunctionType(ret, ps, nptrs, 0));
  free(ps);
  LLVMSetLinkage(f, LLVMInternalLinkage);
  return f;
}

/* Every use of `was` in fn's instructions becomes a use of `now`. */
static void replace_uses_in(LLVMValueRef fn, LLVMValueRef was, LLVMValueRef now) {
  ValueList users = {0};
  for (LLVMUseRef u = LLVMGetFirstUse(was); u; u = LLVMGetNextUse(u))
    if (LLVMIsAInstruction(LLVMGetUser(u)) && fn_of(LLVMGetUser(u)) == fn) vec_push(&users, LLVMGetUser(u));
  for (size_t j = 0; j < users.len; j++)
    for (unsigned o = 0, n = (unsigned)LLVMGetNumOperands(users.data[j]); o < n; o++)
      if (LLVMGetOperand(users.data[j], o) == was) LLVMSetOperand(users.data[j], o, now);
  vec_free(&users);
}

/* Moves the loop into a function of its own; the enclosing function calls it. Returns it. */
static LLVMValueRef move_loop(Ck *ck, Loop *l, const char *name, LLVMValueRef *code_slot) {
  unsigned k = (unsigned)l->vars.len;
  LLVMMetadataRef where = LLVMInstructionGetDebugLoc(l->marker);
  LLVMValueRef loop = add_function(ck, name, ck->void_t, k + 1), code = LLVMGetParam(loop, k);
  ir_copy_attributes(l->fn, loop, LLVMAttributeFunctionIndex);
  if (LLVMHasPersonalityFn(l->fn)) LLVMSetPersonalityFn(loop, LLVMGetPersonalityFn(l->fn)); /* calls_for_invokes */
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ck->c);
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(ck->c, loop, "entry"), last = entry;
  for (size_t i = 0; i < l->blocks.len; i++) {
    LLVMMoveBasicBlockAfter(l->blocks.data[i], last);
    last = l->blocks.data[i];
  }
  /* the variables become the parameters */
  for (unsigned v = 0; v < k; v++) {
    LLVMValueRef a = l->vars.data[v].alloca;
    if (l->vars.data[v].active)
      LLVMAddAttributeAtIndex(loop, v + 1, LLVMCreateStringAttribute(ck->c, SHADOWED, strlen(SHADOWED), "", 0));
    if (l->vars.data[v].active && l->vars.data[v].chosen)
      LLVMAddAttributeAtIndex(loop, v + 1, LLVMCreateStringAttribute(ck->c, VIEW, strlen(VIEW), "", 0));
    if (l->vars.data[v].unshadowed) /* a caller may hold a constant pointer there, without a shadow */
      LLVMAddAttributeAtIndex(loop, v + 1, LLVMCreateStringAttribute(ck->c, CUSTOM_NO_SHADOW, strlen(CUSTOM_NO_SHADOW), "", 0));
    if (l->vars.data[v].read_only && !l->vars.data[v].count) /* the caller's loads after the loop see its store */
      for (int k = 0; k < 2; k++)
        LLVMAddAttributeAtIndex(loop, v + 1, LLVMCreateEnumAttribute(ck->c, ir_attr_kind(k ? "nocapture" : "readonly"), 0));
    replace_uses_in(loop, a, LLVMGetParam(loop, v));
  }
  /* the steps' own slots move with the loop */
  LLVMPositionBuilderAtEnd(b, entry);
  for (size_t p = 0; p < l->privates.len; p++) {
    LLVMValueRef a = l->privates.data[p], own = LLVMBuildAlloca(b, LLVMGetAllocatedType(a), "");
    LLVMSetAlignment(own, LLVMGetAlignment(a));
    replace_uses_in(loop, a, own);
  }
  /* the lengths it uses are read from after the code, where the function stores them (and the runtime
     keeps them for the step) */
  for (unsigned v = 0, c = 1; v < k; v++) {
    LLVMValueRef count = l->vars.data[v].count;
    if (!count) continue;
    LLVMValueRef at = LLVMBuildGEP2(b, ck->i64, code, (LLVMValueRef[]){ir_const_i64(ck->c, c++)}, 1, "");
    LLVMValueRef x = LLVMBuildIntCast2(b, LLVMBuildLoad2(b, ck->i64, at, ""), LLVMTypeOf(count), 0, "");
    replace_uses_in(loop, count, x);
  }
  LLVMBuildBr(b, l->header);
  /* each exit stores its number and returns */
  LLVMBasicBlockRef *exit_blocks = xcalloc(l->exits.len + 1, sizeof *exit_blocks);
  for (size_t e = 0; e < l->exits.len; e++) {
    exit_blocks[e] = LLVMAppendBasicBlockInContext(ck->c, loop, "exit");
    LLVMPositionBuilderAtEnd(b, exit_blocks[e]);
    LLVMBuildStore(b, LLVMConstInt(ck->i32, e + 1, 0), code);
    LLVMBuildRetVoid(b);
  }
  for (size_t i = 0; i < l->blocks.len; i++) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(l->blocks.data[i]);
    for (unsigned s = 0, n = LLVMGetNumSuccessors(t); s < n; s++)
      for (size_t e = 0; e < l->exits.len; e++)
        if (LLVMGetSuccessor(t, s) == l->exits.data[e]) LLVMSetSuccessor(t, s, exit_blocks[e]);
  }
  free(exit_blocks);
  /* the marker, debug records of the function's variables and their lifetimes stay behind */
  for (size_t i = 0; i < l->blocks.len; i++)
    for (LLVMValueRef inst = LLVMGetFirstInstruction(l->blocks.data[i]), next; inst; inst = next) {
      next = LLVMGetNextInstruction(inst);
      if (inst == l->marker || bookkeeping(inst)) LLVMInstructionEraseFromParent(inst);
    }
  /* the enclosing function calls it where the loop was entered, and goes on where it left */
  LLVMBasicBlockRef fentry = LLVMGetEntryBasicBlock(l->fn);
  LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(fentry));
  /* the exit taken (word 0, as an int), then the lengths of variable-length arrays among the variables,
     which only the snapshots need (as arguments the optimiser would find them unused and drop them) */
  LLVMValueRef slot = LLVMBuildAlloca(b, LLVMArrayType2(ck->i64, 1 + l->counts), "ckpt.code");
  LLVMBasicBlockRef call_block = LLVMAppendBasicBlockInContext(ck->c, l->fn, "ckpt.loop");
  LLVMPositionBuilderAtEnd(b, call_block);
  LLVMValueRef *args = xcalloc(k + 2, sizeof *args);
  unsigned n = 0;
  for (unsigned v = 0; v < k; v++) args[n++] = l->vars.data[v].alloca;
  args[n++] = slot;
  for (unsigned v = 0, c = 1; v < k; v++)
    if (l->vars.data[v].count)
      LLVMBuildStore(b, LLVMBuildIntCast2(b, l->vars.data[v].count, ck->i64, 0, ""),
                     LLVMBuildGEP2(b, ck->i64, slot, (LLVMValueRef[]){ir_const_i64(ck->c, c++)}, 1, ""));
  LLVMValueRef call = LLVMBuildCall2(b, LLVMGlobalGetValueType(loop), loop, args, n, "");
  free(args);
  LLVMInstructionSetDebugLoc(call, where);
  LLVMValueRef which = LLVMBuildLoad2(b, ck->i32, slot, "");
  LLVMValueRef sw = LLVMBuildSwitch(b, which, l->exits.data[0], (unsigned)l->exits.len);
  for (size_t e = 1; e < l->exits.len; e++) LLVMAddCase(sw, LLVMConstInt(ck->i32, e + 1, 0), l->exits.data[e]);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(l->fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    for (unsigned s = 0, n = t ? LLVMGetNumSuccessors(t) : 0; s < n; s++)
      if (LLVMGetSuccessor(t, s) == l->header) LLVMSetSuccessor(t, s, call_block);
  }
  LLVMDisposeBuilder(b);
  *code_slot = slot;
  return loop;
}

/* A copy of the loop function that runs one iteration: the back edges return with code 0. */
static LLVMValueRef make_step(Ck *ck, LLVMValueRef loop, LLVMBasicBlockRef header, unsigned k, const char *name) {
  ValueMap vm;
  vmap_init(&vm);
  LLVMValueRef step = ir_clone_function(loop, name, &vm);
  LLVMBasicBlockRef h = LLVMValueAsBasicBlock(vmap_get(&vm, LLVMBasicBlockAsValue(header)));
  vmap_free(&vm);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ck->c);
  LLVMBasicBlockRef again = LLVMAppendBasicBlockInContext(ck->c, step, "again");
  LLVMPositionBuilderAtEnd(b, again);
  LLVMBuildStore(b, LLVMConstInt(ck->i32, 0, 0), LLVMGetParam(step, k));
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
  for (LLVMBasicBlockRef bb = LLVMGetNextBasicBlock(LLVMGetEntryBasicBlock(step)); bb; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    for (unsigned s = 0, n = t ? LLVMGetNumSuccessors(t) : 0; s < n; s++)
      if (LLVMGetSuccessor(t, s) == h) LLVMSetSuccessor(t, s, again);
  }
  ir_strip_loop_hints(step);
  return step;
}

/* The loop's variables in fn's own stack slots, copied in on entry and out on every return, so that the
 * optimiser keeps them in registers (calls between accesses to a parameter's memory keep it in memory). */
static void localize(Ck *ck, LLVMValueRef fn, const Loop *l) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ck->c);
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
  ValueList rets = {0};
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    if (t && LLVMGetInstructionOpcode(t) == LLVMRet) vec_push(&rets, t);
  }
  for (unsigned v = 0; v < l->vars.len; v++) {
    if (l->vars.data[v].count || l->vars.data[v].pointed_to) continue; /* stays where it is */
    LLVMValueRef orig = l->vars.data[v].alloca, param = LLVMGetParam(fn, v);
    LLVMTypeRef t = LLVMGetAllocatedType(orig);
    unsigned align = LLVMGetAlignment(orig);
    LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(entry));
    LLVMValueRef local = LLVMBuildAlloca(b, t, "");
    LLVMSetAlignment(local, align);
    replace_uses_in(fn, param, local);
    bool whole = LLVMGetTypeKind(t) == LLVMArrayTypeKind || LLVMGetTypeKind(t) == LLVMStructTypeKind;
    LLVMValueRef size = LLVMConstInt(ck->i64, l->vars.data[v].size, 0);
    for (size_t r = 0; r <= (l->vars.data[v].read_only ? 0 : rets.len); r++) {
      LLVMValueRef from = r ? local : param, to = r ? param : local;
      if (r)
        LLVMPositionBuilderBefore(b, rets.data[r - 1]);
      else
        LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(entry));
      if (whole) {
        LLVMBuildMemCpy(b, to, align, from, align, size);
      } else {
        LLVMValueRef x = LLVMBuildLoad2(b, t, from, "");
        LLVMSetAlignment(x, align);
        LLVMSetAlignment(LLVMBuildStore(b, x, to), align);
      }
    }
  }
  vec_free(&rets);
  LLVMDisposeBuilder(b);
}

/* The loop function reads each parameter once, as a value of its own type (its first scalar), and the
 * lengths after the code: the optimiser would otherwise drop a parameter the loop happens not to need, or
 * pass it as poison, where the custom gradient takes them as the call passes them, and drop the stores of
 * the lengths, which only the gradient reads. */
static void keep_parameters(Ck *ck, LLVMValueRef loop, const Loop *l) {
  unsigned k = (unsigned)l->vars.len;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ck->c);
  LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(loop)));
  for (unsigned v = 0; v < k; v++) {
    LLVMTypeRef t = LLVMGetAllocatedType(l->vars.data[v].alloca);
    while (LLVMGetTypeKind(t) == LLVMArrayTypeKind || LLVMGetTypeKind(t) == LLVMStructTypeKind)
      t = LLVMGetTypeKind(t) == LLVMArrayTypeKind ? LLVMGetElementType(t) : LLVMStructGetTypeAtIndex(t, 0);
    LLVMSetVolatile(LLVMBuildLoad2(b, t, LLVMGetParam(loop, v), ""), 1);
  }
  for (unsigned c = 1; c <= l->counts; c++)
    LLVMSetVolatile(LLVMBuildLoad2(b, ck->i64, LLVMBuildGEP2(b, ck->i64, LLVMGetParam(loop, k), (LLVMValueRef[]){ir_const_i64(ck->c, c)}, 1, ""), ""), 1);
  LLVMDisposeBuilder(b);
}

/* ---- the glue: what the runtime calls, and the custom gradient ---- */

static LLVMValueRef marker_value(Ck *ck, LLVMBuilderRef b, const char *name) {
  LLVMValueRef g = LLVMGetNamedGlobal(ck->m, name);
  if (!g) g = LLVMAddGlobal(ck->m, ck->i32, name);
  return LLVMBuildLoad2(b, ck->i32, g, "");
}

static LLVMValueRef entry_point(Ck *ck, const char *name, LLVMTypeRef ret, LLVMTypeRef *fty) {
  LLVMTypeRef p = ck->ptr;
  *fty = LLVMFunctionType(ret, &p, 1, 1);
  LLVMValueRef f = LLVMGetNamedFunction(ck->m, name);
  return f ? f : LLVMAddFunction(ck->m, name, *fty);
}

/* checkpoint_reaches, into the regions fn forks or not */
static bool reaches(LLVMValueRef fn, bool (*matches)(LLVMValueRef call, CallKind kind), ValueMap *seen, bool forks) {
  if (vmap_has(seen, fn)) return false;
  vmap_put(seen, fn, fn);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      const MathRule *rule;
      if (!ir_is_call(i)) continue;
      CallKind k = call_classify(i, &rule);
      if (matches(i, k)) return true;
      LLVMValueRef callee = k == CALL_MODULE ? ir_called_function(i)
                            : forks && k == CALL_OMP && omp_classify(i) == OMP_FORK ? omp_fork_outlined(i) : NULL;
      if (callee && reaches(callee, matches, seen, forks)) return true;
      if (k != CALL_INDIRECT) continue;
      ValueList targets = {0};
      checkpoint_indirect_targets(i, &targets);
      bool found = false;
      for (size_t t = 0; t < targets.len && !found; t++) found = reaches(targets.data[t], matches, seen, forks);
      vec_free(&targets);
      if (found) return true;
    }
  return false;
}

void checkpoint_indirect_targets(LLVMValueRef call, ValueList *out) {
  size_t kept = out->len;
  indirect_module_candidates(LLVMGetGlobalParent(fn_of(call)), LLVMGetCalledFunctionType(call), out);
  for (size_t i = kept; i < out->len; i++)
    if (!LLVMGetStringAttributeAtIndex(out->data[i], LLVMAttributeFunctionIndex, NOTING, strlen(NOTING)))
      out->data[kept++] = out->data[i];
  out->len = kept;
}

bool checkpoint_reaches(LLVMValueRef fn, bool (*matches)(LLVMValueRef call, CallKind kind), ValueMap *seen) {
  return reaches(fn, matches, seen, true);
}

static bool communicates(LLVMValueRef call, CallKind k) {
  (void)call;
  return k == CALL_MPI;
}

bool checkpoint_is_loop(LLVMValueRef fn) {
  return fn && LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LOOP, strlen(LOOP));
}

bool checkpoint_view_variable(LLVMValueRef param) {
  return param && LLVMIsAArgument(param) &&
         LLVMGetStringAttributeAtIndex(LLVMGetParamParent(param), ir_param_index(param) + 1, VIEW, strlen(VIEW)) != NULL;
}

bool checkpoint_is_runner(LLVMValueRef fn) {
  return fn && LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, RUNNER, strlen(RUNNER)) != NULL;
}

bool checkpoint_runner_in_team(LLVMValueRef fn) {
  LLVMAttributeRef a = fn ? LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, RUNNER, strlen(RUNNER)) : NULL;
  unsigned len = 0;
  return a && LLVMGetStringAttributeValue(a, &len) && len > 0;
}

static bool never(LLVMValueRef call, CallKind k) {
  (void)call, (void)k;
  return false;
}

/* Whether fn runs on the threads of a parallel region: a region's function reaches it. */
static bool run_by_team(LLVMValueRef fn) {
  ValueMap seen;
  vmap_init(&seen);
  LLVMModuleRef m = LLVMGetGlobalParent(fn);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f && !vmap_has(&seen, fn); f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
        const MathRule *rule;
        if (ir_is_call(i) && call_classify(i, &rule) == CALL_OMP && omp_classify(i) == OMP_FORK && omp_fork_outlined(i))
          reaches(omp_fork_outlined(i), never, &seen, true);
      }
  bool team = vmap_has(&seen, fn);
  vmap_free(&seen);
  return team;
}

/* A checkpointed loop's function, or a marker of one not outlined yet (in another function). */
static bool checkpointed_loop(LLVMValueRef call, CallKind k) {
  return (k == CALL_MODULE && checkpoint_is_loop(ir_called_function(call))) || !strcmp(ir_called_name(call), MARKER);
}

/* A parallel region or a task: other threads run part of the step. */
static bool runs_threads(LLVMValueRef call, CallKind k) {
  if (k != CALL_OMP) return false;
  OmpKind c = omp_classify(call);
  return c == OMP_FORK || c == OMP_TASK_ALLOC;
}

/* A call whose reverse sweep works on the memory it is given, not on a record. */
static bool reverses_in_memory(LLVMValueRef call, CallKind k) {
  LLVMValueRef f = ir_called_function(call), augment, gradient;
  return checkpointed_loop(call, k) || (f && custom_lookup(f, &augment, &gradient));
}

bool checkpoint_lacks_shadows(LLVMValueRef call, bool (*has_shadow)(void *, LLVMValueRef), void *ctx) {
  LLVMValueRef fn = ir_called_function(call);
  if (!fn || !LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LOOP, strlen(LOOP))) return false;
  for (unsigned i = 0, n = ir_num_call_args(call); i < n && i < LLVMCountParams(fn); i++)
    if (LLVMGetStringAttributeAtIndex(fn, i + 1, SHADOWED, strlen(SHADOWED)) && !has_shadow(ctx, LLVMGetArgOperand(call, i)))
      return true;
  return false;
}

bool checkpoint_slot_outlives_frame(LLVMValueRef slot) {
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(slot));
  if (LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, NOTING, strlen(NOTING)))
    return false; /* a step's own stack: no state of its loop, and its reverse sweep follows at once */
  ValueList todo = {0};
  ValueMap derived, seen;
  vmap_init(&derived);
  vmap_init(&seen);
  vec_push(&todo, slot);
  vmap_put(&derived, slot, slot);
  bool outlives = false, escapes = false;
  while (todo.len && !outlives && !escapes) {
    LLVMValueRef p = todo.data[--todo.len];
    for (LLVMUseRef u = LLVMGetFirstUse(p); u && !outlives && !escapes; u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u);
      switch (LLVMGetInstructionOpcode(user)) {
      case LLVMGetElementPtr:
      case LLVMBitCast:
      case LLVMAddrSpaceCast:
      case LLVMSelect:
      case LLVMPHI:
        if (!vmap_has(&derived, user)) {
          vmap_put(&derived, user, user);
          vec_push(&todo, user);
        }
        break;
      case LLVMLoad: break;
      case LLVMStore: escapes = LLVMGetOperand(user, 0) == p; break; /* the address itself stored */
      case LLVMCall: {
        const MathRule *rule;
        CallKind k = call_classify(user, &rule);
        LLVMValueRef callee = ir_called_function(user);
        if (k == CALL_DEBUG || k == CALL_MEMCPY || k == CALL_MEMSET) break;
        if (reverses_in_memory(user, k)) outlives = true;
        else if (k == CALL_MODULE && callee) outlives = checkpoint_reaches(callee, reverses_in_memory, &seen);
        else if (k == CALL_OMP && omp_classify(user) == OMP_FORK && omp_fork_outlined(user))
          outlives = checkpoint_reaches(omp_fork_outlined(user), reverses_in_memory, &seen);
        else escapes = k != CALL_MATH && k != CALL_INACTIVE && k != CALL_OMP && k != CALL_MPI;
        break;
      }
      default: escapes = true;
      }
    }
  }
  if (escapes) { /* anywhere the function reaches */
    vmap_free(&seen);
    vmap_init(&seen);
    outlives = checkpoint_reaches(fn, reverses_in_memory, &seen);
  }
  vec_free(&todo);
  vmap_free(&derived);
  vmap_free(&seen);
  return outlives;
}

/* A task creation: inside a parallel region of the program's, where the step does not fork a region of
 * its own around it, any thread of that region's team may run the task. */
static bool creates_task(LLVMValueRef call, CallKind k) { return k == CALL_OMP && omp_classify(call) == OMP_TASK_ALLOC; }

bool checkpoint_allocation(LLVMValueRef call, CallKind k) {
  (void)call;
  return k == CALL_ALLOC || k == CALL_FREE || k == CALL_REALLOC;
}

/* free called as free(p), the one allocation call a step run as the program runs it may make (frees_only) */
static bool plain_free(LLVMValueRef call, CallKind k) {
  LLVMTypeRef fty = LLVMGetCalledFunctionType(call);
  return k == CALL_FREE && LLVMIsACallInst(call) && LLVMCountParamTypes(fty) == 1 &&
         LLVMGetTypeKind(LLVMGetReturnType(fty)) == LLVMVoidTypeKind;
}

static bool other_allocation(LLVMValueRef call, CallKind k) {
  return checkpoint_allocation(call, k) && !plain_free(call, k);
}

/* Whether the steps' only allocation calls are plain frees, and they move no pointer of the loop's
 * variables: a block freed is then one the program allocated before the loop. */
static bool frees_only(const Loop *l, LLVMValueRef step) {
  for (size_t v = 0; v < l->vars.len; v++)
    if (l->vars.data[v].moved) return false;
  ValueMap seen;
  vmap_init(&seen);
  bool other = checkpoint_reaches(step, other_allocation, &seen);
  vmap_free(&seen);
  return !other;
}

static LLVMValueRef deferred_free[3]; /* the walk's CKPT_FREE_PRIMAL, ..._DELETE_, ..._DELETE_ARRAY_ (predicates
                                          take no context) */

/* A checkpoint_reaches predicate that matches nothing, so that the walk visits every function the step
 * reaches: it points each plain free (or C++ delete) at the deferred one. */
static bool point_at_deferred_free(LLVMValueRef call, CallKind k) {
  LLVMValueRef callee = ir_called_function(call);
  if (!plain_free(call, k) || callee == deferred_free[0] || callee == deferred_free[1] || callee == deferred_free[2]) return false;
  const char *alloc, *dealloc;
  int which = !call_cxx_family(call, &alloc, &dealloc) ? 0 : !strcmp(dealloc, "_ZdlPv") ? 1 : 2;
  LLVMSetOperand(call, (unsigned)LLVMGetNumOperands(call) - 1, deferred_free[which]); /* a call's callee: its last operand */
  return false;
}

/* The frees of a step that runs a checkpointed loop, and of everything it calls, become the runtime's
 * CKPT_FREE_PRIMAL, which keeps the block while a checkpointed loop's reverse sweep is to come (it
 * recomputes the step that freed it) and frees it as free does otherwise. Such a step runs as the program
 * runs it, shadows untouched (make_gradient); the block's shadow goes with the loop's tape once the step's
 * augmented run in the reverse sweep frees it again (runtime/checkpoint.c). */
static void defer_frees(Ck *ck, LLVMValueRef step) {
  static const char *const names[3] = {CKPT_FREE_PRIMAL, CKPT_DELETE_PRIMAL, CKPT_DELETE_ARRAY_PRIMAL};
  for (int k = 0; k < 3; k++) {
    deferred_free[k] = LLVMGetNamedFunction(ck->m, names[k]);
    if (!deferred_free[k]) deferred_free[k] = LLVMAddFunction(ck->m, names[k], LLVMFunctionType(ck->void_t, &ck->ptr, 1, 0));
  }
  ValueMap seen;
  vmap_init(&seen);
  checkpoint_reaches(step, point_at_deferred_free, &seen);
  vmap_free(&seen);
}

typedef enum { RUN_PRIMAL, RUN_AUGMENTED, RUN_YOUTURN } Run;

/* void name(ptr closure): one step run as the program runs it (RUN_PRIMAL: where that leaves every shadow
 * as it was), through split mode with its tape dropped (RUN_AUGMENTED), or taped and reversed (RUN_YOUTURN). */
static LLVMValueRef make_runner(Ck *ck, const Loop *l, LLVMValueRef step, const char *name, Run run) {
  unsigned k = (unsigned)l->vars.len;
  LLVMValueRef f = add_function(ck, name, ck->void_t, 1), closure = LLVMGetParam(f, 0);
  const char *team = l->team ? "team" : "";
  LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateStringAttribute(ck->c, RUNNER, strlen(RUNNER), team, strlen(team)));
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ck->c);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ck->c, f, "entry"));
  LLVMValueRef *args = xcalloc(3 * k + 6, sizeof *args);
  unsigned n = 0;
  if (run == RUN_PRIMAL) {
    for (unsigned v = 0; v <= k; v++)
      args[n++] = LLVMBuildLoad2(b, ck->ptr, LLVMBuildGEP2(b, ck->ptr, closure, (LLVMValueRef[]){ir_const_i64(ck->c, v < k ? v : 2 * k)}, 1, ""), "");
    LLVMBuildCall2(b, LLVMGlobalGetValueType(step), step, args, n, "");
    LLVMBuildRetVoid(b);
    free(args);
    LLVMDisposeBuilder(b);
    return f;
  }
  args[n++] = step;
  for (unsigned v = 0; v <= k; v++) {
    bool active = v < k && l->vars.data[v].active;
    args[n++] = marker_value(ck, b, active ? "parad_dup" : "parad_const");
    LLVMValueRef at = LLVMBuildGEP2(b, ck->ptr, closure, (LLVMValueRef[]){ir_const_i64(ck->c, v < k ? v : 2 * k)}, 1, "");
    args[n++] = LLVMBuildLoad2(b, ck->ptr, at, "");
    if (active) {
      at = LLVMBuildGEP2(b, ck->ptr, closure, (LLVMValueRef[]){ir_const_i64(ck->c, k + v)}, 1, "");
      args[n++] = LLVMBuildLoad2(b, ck->ptr, at, "");
    }
  }
  LLVMTypeRef fty;
  LLVMValueRef aug = entry_point(ck, "__parad_augmentfwd", ck->ptr, &fty);
  LLVMValueRef tape = LLVMBuildCall2(b, fty, aug, args, n, "");
  if (run == RUN_YOUTURN) {
    args[n++] = marker_value(ck, b, "parad_tape");
    args[n++] = tape;
    LLVMValueRef rev = entry_point(ck, "__parad_reverse", ck->void_t, &fty);
    LLVMBuildCall2(b, fty, rev, args, n, "");
  } else {
    LLVMTypeRef p = ck->ptr;
    ir_call_named(b, "__parad_rt_ckpt_drop_tape", LLVMFunctionType(ck->void_t, &p, 1, 0), &tape, 1);
  }
  LLVMBuildRetVoid(b);
  free(args);
  LLVMDisposeBuilder(b);
  return f;
}

/* turn: the step without notes, for the reverse sweep (the forward sweep's notes found all it touches) */
static void make_gradient(Ck *ck, const Loop *l, LLVMValueRef loop, LLVMValueRef step, LLVMValueRef turn, int id) {
  unsigned k = (unsigned)l->vars.len;
  char *name = xasprintf("%s.ckpt_advance.%d", LLVMGetValueName(l->fn), id);
  /* a step that moves no pointer of the loop's variables (but by swapping them, which the runtime follows)
     and allocates nothing leaves the shadows as they are: the forward sweep and the recomputations run it
     as the program does */
  bool primal = true;
  for (unsigned v = 0; v < k; v++) primal &= !l->vars.data[v].moved;
  ValueMap seen;
  vmap_init(&seen);
  primal = primal && !checkpoint_reaches(step, checkpoint_allocation, &seen);
  vmap_free(&seen);
  /* a step that runs a checkpointed loop (nested checkpointing): the forward sweep runs it as the program
     does (the inner loop then notes what it touches for this one's snapshots; augmented, it would run its
     own checkpointing, whose snapshots and notes this loop never sees), so it must leave the shadows alone */
  vmap_init(&seen);
  bool nested = checkpoint_reaches(step, checkpointed_loop, &seen);
  vmap_free(&seen);
  if (nested && !primal && frees_only(l, step)) { /* its frees wait for the reverse sweep (defer_frees) */
    defer_frees(ck, step);
    defer_frees(ck, turn);
    primal = true;
  }
  if (nested && !primal)
    diag_error(LLVMGetUser(LLVMGetFirstUse(loop)), /* the loop's call, where the marker was */
               "a checkpointed loop that runs another checkpointed loop and allocates memory or moves pointers of "
               "its variables in its steps is not supported yet");
  LLVMValueRef taped = NULL, advance = NULL;
  if (!nested || !primal) taped = advance = make_runner(ck, l, step, name, RUN_AUGMENTED);
  free(name);
  name = xasprintf("%s.ckpt_readvance.%d", LLVMGetValueName(l->fn), id);
  LLVMValueRef readvance = make_runner(ck, l, turn, name, primal ? RUN_PRIMAL : RUN_AUGMENTED);
  free(name);
  if (primal) {
    name = xasprintf("%s.ckpt_primal.%d", LLVMGetValueName(l->fn), id);
    advance = make_runner(ck, l, step, name, RUN_PRIMAL);
    free(name);
    if (nested) taped = advance;
  }
  name = xasprintf("%s.ckpt_youturn.%d", LLVMGetValueName(l->fn), id);
  LLVMValueRef youturn = make_runner(ck, l, turn, name, RUN_YOUTURN);
  free(name);

  /* ptr aug(var1, shadow1, ..., code, code's shadow): the forward sweep; its context is the tape */
  name = xasprintf("%s.ckpt_aug.%d", LLVMGetValueName(l->fn), id);
  LLVMValueRef aug = add_function(ck, name, ck->ptr, 2 * k + 2);
  free(name);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ck->c);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ck->c, aug, "entry"));
  /* the variables: sizes, which hold pointers (the runtime copies their shadows), which may point into others */
  LLVMTypeRef slot_t = LLVMStructTypeInContext(ck->c, (LLVMTypeRef[]){ck->i64, ck->i64, ck->i64}, 3, 0);
  LLVMValueRef table = LLVMBuildAlloca(b, LLVMArrayType2(slot_t, k ? k : 1), "slots");
  LLVMTypeRef arr = LLVMArrayType2(ck->ptr, k ? k : 1);
  LLVMValueRef vars = LLVMBuildAlloca(b, arr, "vars"), shadows = LLVMBuildAlloca(b, arr, "shadows");
  for (unsigned v = 0, c = 0; v < k; v++) {
    const Var *var = &l->vars.data[v];
    LLVMValueRef i = ir_const_i64(ck->c, v), size = LLVMConstInt(ck->i64, var->size, 0);
    if (var->count) /* a length, after the code */
      size = LLVMBuildMul(b, size, LLVMBuildLoad2(b, ck->i64, LLVMBuildGEP2(b, ck->i64, LLVMGetParam(aug, 2 * k), (LLVMValueRef[]){ir_const_i64(ck->c, ++c)}, 1, ""), ""), "");
    LLVMValueRef at = LLVMBuildGEP2(b, slot_t, table, &i, 1, "");
    LLVMBuildStore(b, size, LLVMBuildStructGEP2(b, slot_t, at, 0, ""));
    LLVMBuildStore(b, LLVMConstInt(ck->i64, var->scratch ? 3 : var->swapped ? 2 : var->pointers, 0),
                   LLVMBuildStructGEP2(b, slot_t, at, 1, ""));
    LLVMBuildStore(b, LLVMConstInt(ck->i64, var->points_into, 0), LLVMBuildStructGEP2(b, slot_t, at, 2, ""));
    LLVMBuildStore(b, LLVMGetParam(aug, 2 * v), LLVMBuildGEP2(b, ck->ptr, vars, &i, 1, ""));
    LLVMBuildStore(b, var->active ? LLVMGetParam(aug, 2 * v + 1) : LLVMConstNull(ck->ptr),
                   LLVMBuildGEP2(b, ck->ptr, shadows, &i, 1, ""));
  }
  /* steps that communicate: the ranks agree on the schedule (the MPI runtime's function) */
  vmap_init(&seen);
  bool mpi = checkpoint_reaches(step, communicates, &seen);
  vmap_free(&seen);
  LLVMValueRef agree = LLVMConstNull(ck->ptr);
  if (mpi && !(agree = LLVMGetNamedFunction(ck->m, "__parad_mpi_ckpt_agree")))
    agree = LLVMAddFunction(ck->m, "__parad_mpi_ckpt_agree", LLVMFunctionType(ck->i64, &ck->i64, 1, 0));
  vmap_init(&seen);
  bool threads = checkpoint_reaches(step, runs_threads, &seen);
  vmap_free(&seen);
  vmap_init(&seen);
  bool orphans = reaches(step, creates_task, &seen, false);
  vmap_free(&seen);
  /* the runtime's CKPT_NESTED, CKPT_PRIMAL, CKPT_THREADS, CKPT_ORPHAN_TASKS */
  LLVMValueRef flags = LLVMConstInt(ck->i32, nested | primal << 1 | threads << 2 | orphans << 3, 0);
  LLVMValueRef fargs[10] = {table, LLVMConstInt(ck->i32, k, 0), vars, shadows, LLVMGetParam(aug, 2 * k),
                            LLVMConstInt(ck->i32, l->counts, 0), advance, taped, agree, flags};
  LLVMTypeRef fps[10] = {ck->ptr, ck->i32, ck->ptr, ck->ptr, ck->ptr, ck->i32, ck->ptr, ck->ptr, ck->ptr, ck->i32};
  LLVMBuildRet(b, ir_call_named(b, "__parad_rt_ckpt_forward", LLVMFunctionType(ck->ptr, fps, 10, 0), fargs, 10));

  /* void grad(var1, shadow1, ..., code, code's shadow, tape): the reverse sweep */
  name = xasprintf("%s.ckpt_grad.%d", LLVMGetValueName(l->fn), id);
  LLVMValueRef grad = add_function(ck, name, ck->void_t, 2 * k + 3);
  free(name);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ck->c, grad, "entry"));
  LLVMValueRef rargs[3] = {LLVMGetParam(grad, 2 * k + 2), readvance, youturn};
  LLVMTypeRef rps[3] = {ck->ptr, ck->ptr, ck->ptr};
  ir_call_named(b, "__parad_rt_ckpt_reverse", LLVMFunctionType(ck->void_t, rps, 3, 0), rargs, 3);
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);

  const char *keys[2] = {"parad-custom-augment", "parad-custom-gradient"};
  LLVMValueRef fns[2] = {aug, grad};
  for (int i = 0; i < 2; i++)
    LLVMAddAttributeAtIndex(loop, LLVMAttributeFunctionIndex,
                            LLVMCreateStringAttribute(ck->c, keys[i], strlen(keys[i]), LLVMGetValueName(fns[i]),
                                                      strlen(LLVMGetValueName(fns[i]))));
  LLVMAddAttributeAtIndex(loop, LLVMAttributeFunctionIndex, LLVMCreateStringAttribute(ck->c, LOOP, strlen(LOOP), "", 0));
  const char *lname = LLVMGetValueName(loop);
  for (int i = 0; i < 2; i++)
    LLVMAddAttributeAtIndex(fns[i], LLVMAttributeFunctionIndex,
                            LLVMCreateStringAttribute(ck->c, SWEEP_OF, strlen(SWEEP_OF), lname, (unsigned)strlen(lname)));
  custom_keep_calls(loop);
  custom_keep_alive(ck->m, fns, 2);
}

bool checkpoint_drop_orphans(LLVMModuleRef m) {
  VEC(LLVMValueRef) orphans = {0};
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (!LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, SWEEP_OF, strlen(SWEEP_OF))) continue;
    LLVMValueRef loop = ir_fn_named_by_attr(f, SWEEP_OF);
    if (!loop || !LLVMGetFirstUse(loop)) vec_push(&orphans, f);
  }
  if (orphans.len) custom_let_go(m, orphans.data, (unsigned)orphans.len);
  bool any = orphans.len > 0;
  vec_free(&orphans);
  return any;
}

/* The functions made for loop `id` of fn (fn.ckpt_KIND.id) join the twin family of fn, if any. */
static void join_family(Ck *ck, const char *fname, int id, const char *family) {
  if (!family) return;
  char *prefix = xasprintf("%s.ckpt_", fname), *suffix = xasprintf(".%d", id);
  size_t np = strlen(prefix);
  for (LLVMValueRef f = LLVMGetFirstFunction(ck->m); f; f = LLVMGetNextFunction(f)) {
    const char *name = LLVMGetValueName(f), *dot = strncmp(name, prefix, np) ? NULL : strchr(name + np, '.');
    if (dot && !strcmp(dot, suffix)) checkpoint_auto_join(f, family);
  }
  free(prefix);
  free(suffix);
}

/* Whether v is the length of one of fn's variable-length arrays (examine hands the loop its lengths). */
static bool array_length(LLVMValueRef fn, LLVMValueRef v) {
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsAAllocaInst(user) && fn_of(user) == fn && LLVMGetOperand(user, 0) == v) return true;
  }
  return false;
}

/* Values computed before the loop that its steps use (clang's loads of a region's captured pointers at the
 * region's entry, a length computed once) go through stack slots of their own, stored where each is
 * computed and loaded where the loop uses it: variables the loop only reads, handed to its function as any
 * variable is (the value cannot change inside the loop: it is computed outside it). Phis keep theirs. */
static void keep_outside_values_in_slots(Ck *ck, Loop *l) {
  ValueList outside = {0};
  for (size_t k = 0; k < l->blocks.len; k++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(l->blocks.data[k]); i; i = LLVMGetNextInstruction(i)) {
      if (LLVMIsAPHINode(i) || bookkeeping(i)) continue;
      for (unsigned o = 0, n = (unsigned)LLVMGetNumOperands(i); o < n; o++) {
        LLVMValueRef v = LLVMGetOperand(i, o);
        if (!LLVMIsAInstruction(v) || LLVMIsAAllocaInst(v) || in_loop(l, LLVMGetInstructionParent(v))) continue;
        LLVMTypeKind t = LLVMGetTypeKind(LLVMTypeOf(v));
        if (t != LLVMPointerTypeKind && t != LLVMIntegerTypeKind && t != LLVMDoubleTypeKind && t != LLVMFloatTypeKind)
          continue; /* refused by examine */
        if (array_length(l->fn, v)) continue;
        bool seen = false;
        for (size_t j = 0; j < outside.len && !seen; j++) seen = outside.data[j] == v;
        if (!seen) vec_push(&outside, v);
      }
    }
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ck->c);
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(l->fn);
  for (size_t j = 0; j < outside.len; j++) {
    LLVMValueRef v = outside.data[j];
    LLVMTypeRef t = LLVMTypeOf(v);
    LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(entry));
    LLVMValueRef slot = LLVMBuildAlloca(b, t, "");
    LLVMValueRef after = LLVMGetNextInstruction(v);
    while (after && LLVMIsAPHINode(after)) after = LLVMGetNextInstruction(after);
    LLVMPositionBuilderBefore(b, after);
    LLVMBuildStore(b, v, slot);
    ValueList users = {0};
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u);
      if (LLVMIsAInstruction(user) && !LLVMIsAPHINode(user) && in_loop(l, LLVMGetInstructionParent(user)))
        vec_push(&users, user);
    }
    for (size_t k = 0; k < users.len; k++) {
      LLVMPositionBuilderBefore(b, users.data[k]);
      LLVMValueRef x = LLVMBuildLoad2(b, t, slot, "");
      for (unsigned o = 0, n = (unsigned)LLVMGetNumOperands(users.data[k]); o < n; o++)
        if (LLVMGetOperand(users.data[k], o) == v) LLVMSetOperand(users.data[k], o, x);
    }
    vec_free(&users);
  }
  LLVMDisposeBuilder(b);
  vec_free(&outside);
}

/* Whether the marker runs on every iteration that comes round again: its block dominates every block that
 * goes back to the header. */
static bool marks_every_iteration(const Loop *l) {
  Cfg cfg;
  cfg_build(l->fn, &cfg);
  bool every = true;
  for (size_t k = 0; k < l->blocks.len && every; k++) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(l->blocks.data[k]);
    for (unsigned s = 0, n = t ? LLVMGetNumSuccessors(t) : 0; s < n && every; s++)
      if (LLVMGetSuccessor(t, s) == l->header)
        every = cfg_dominates(&cfg, LLVMGetInstructionParent(l->marker), l->blocks.data[k]);
  }
  cfg_free(&cfg);
  return every;
}

static void outline(Ck *ck, LLVMValueRef marker) {
  Loop l = {.fn = fn_of(marker), .marker = marker};
  vmap_init(&l.in);
  bool found = find_loop(&l);
  /* `if (ck) __parad_checkpoint_loop();` reads as a switch at run time; it is not one */
  if (found && !checkpoint_auto_family(l.fn) && !marks_every_iteration(&l))
    diag_warning(marker, MARKER "() under a condition checkpoints the loop whatever the condition (the marker is "
                         "read when compiling): call it first in the loop's body, or leave it out (a tape limit, "
                         "PARAD_TAPE_LIMIT, has a function's outermost loops checkpointed at run time where the tape "
                         "would not fit)");
  if (!found) {
    diag_error(marker, MARKER "() must be inside the loop it marks");
  } else if (keep_outside_values_in_slots(ck, &l), examine(ck, &l)) {
    int id = ck->loops++;
    l.team = run_by_team(l.fn);
    const char *fname = LLVMGetValueName(l.fn);
    char *name = xasprintf("%s.ckpt_loop.%d", fname, id);
    LLVMValueRef code_slot, loop = move_loop(ck, &l, name, &code_slot);
    l.marker = NULL; /* erased: the loop's call in F stands at its place */
    free(name);
    checkpoint_give_subprogram(ck, loop, l.fn, fname);
    name = xasprintf("%s.ckpt_step.%d", fname, id);
    LLVMValueRef step = make_step(ck, loop, l.header, (unsigned)l.vars.len, name);
    free(name);
    /* its parameters are the loop function's (which F calls with its variables): what they point to, for
       the memory analysis (analysis/memtype.h), whose callers here are the runners */
    const char *lname = LLVMGetValueName(loop);
    LLVMAddAttributeAtIndex(step, LLVMAttributeFunctionIndex,
                            LLVMCreateStringAttribute(ck->c, MEMTYPE_PARAMS_OF, strlen(MEMTYPE_PARAMS_OF), lname, (unsigned)strlen(lname)));
    checkpoint_give_subprogram(ck, step, l.fn, fname);
    localize(ck, loop, &l);
    localize(ck, step, &l);
    keep_parameters(ck, loop, &l);
    name = xasprintf("%s.ckpt_turn.%d", fname, id);
    ValueMap vm;
    vmap_init(&vm);
    LLVMValueRef turn = ir_clone_function(step, name, &vm);
    vmap_free(&vm);
    free(name);
    checkpoint_give_subprogram(ck, turn, l.fn, fname);
    char *own = xasprintf("%u", (unsigned)l.vars.len + 1); /* noted after omp_prepare (checkpoint_note_steps) */
    LLVMAddAttributeAtIndex(step, LLVMAttributeFunctionIndex, LLVMCreateStringAttribute(ck->c, STEP, strlen(STEP), own, strlen(own)));
    free(own);
    make_gradient(ck, &l, loop, step, turn, id);
    join_family(ck, fname, id, checkpoint_auto_family(l.fn));
    for (unsigned v = 0; v < (unsigned)l.vars.len; v++) { /* for a loop around this one, or after it */
      const Var *var = &l.vars.data[v];
      const char *keys[3] = {var->swapped && !var->moved && !var->scratch ? SWAPS : NULL,
                             var->points_into ? INTO : NULL, var->pointed_to ? POINTED : NULL};
      for (int k = 0; k < 3; k++)
        if (keys[k]) LLVMAddAttributeAtIndex(loop, v + 1, LLVMCreateStringAttribute(ck->c, keys[k], strlen(keys[k]), "", 0));
    }
  }
  vec_free(&l.blocks);
  vec_free(&l.exits);
  vec_free(&l.vars);
  vec_free(&l.outside);
  vec_free(&l.outside_at);
  vec_free(&l.privates);
  vmap_free(&l.in);
}

bool checkpoint_outline_all(LLVMModuleRef m, int *errors) {
  int before = diag_error_count();
  Ck ck;
  checkpoint_begin(&ck, m);
  checkpoint_auto_prepare(&ck);
  LLVMValueRef decl = LLVMGetNamedFunction(m, MARKER);
  if (!decl) {
    checkpoint_end(&ck);
    return false;
  }
  ValueList markers = {0}, fns = {0}, invokes = {0};
  /* a marked loop in a function no derivative reaches is the program's loop as written: nothing to
     checkpoint, and its steps' derivatives, which nothing asks for, are not made (a refusal of one, at
     -O0 where they are made of the code as compiled, stopped a build whose gradients were all possible) */
  ValueMap differentiated;
  vmap_init(&differentiated);
  checkpoint_differentiated(m, &differentiated);
  for (LLVMUseRef u = LLVMGetFirstUse(decl); u; u = LLVMGetNextUse(u))
    if (ir_is_call_site(LLVMGetUser(u)) && !vmap_has(&differentiated, fn_of(LLVMGetUser(u)))) vec_push(&markers, LLVMGetUser(u));
  for (size_t i = 0; i < markers.len; i++) {
    LLVMValueRef call = LLVMIsAInvokeInst(markers.data[i]) ? ad_invoke_to_call(markers.data[i]) : markers.data[i];
    if (call) LLVMInstructionEraseFromParent(call);
  }
  markers.len = 0;
  vmap_free(&differentiated);
  /* C++ invokes the marker where a destructor is pending (parad.h declares it nothrow; a declaration of
     the program's own may not): it never throws, so a call and a branch */
  for (LLVMUseRef u = LLVMGetFirstUse(decl); u; u = LLVMGetNextUse(u))
    if (LLVMIsAInvokeInst(LLVMGetUser(u))) vec_push(&invokes, LLVMGetUser(u));
  for (size_t i = 0; i < invokes.len; i++)
    if (!ad_invoke_to_call(invokes.data[i]))
      diag_error(invokes.data[i], MARKER "() where an exception's landing pad merges values: declare it nothrow (parad.h does)");
  vec_free(&invokes);
  ValueMap seen;
  vmap_init(&seen);
  for (LLVMUseRef u = LLVMGetFirstUse(decl); u; u = LLVMGetNextUse(u))
    if (ir_is_call(LLVMGetUser(u)) && !vmap_has(&seen, fn_of(LLVMGetUser(u)))) {
      vmap_put(&seen, fn_of(LLVMGetUser(u)), fn_of(LLVMGetUser(u)));
      vec_push(&fns, fn_of(LLVMGetUser(u)));
    }
  vmap_free(&seen);
  /* before the blocks no path reaches go: they show the loops whose body cannot come round again */
  for (LLVMUseRef u = LLVMGetFirstUse(decl); u; u = LLVMGetNextUse(u))
    if (ir_is_call(LLVMGetUser(u))) vec_push(&markers, LLVMGetUser(u));
  for (size_t i = 0; i < markers.len; i++) {
    Loop l = {.fn = fn_of(markers.data[i]), .marker = markers.data[i]};
    vmap_init(&l.in);
    if (!find_loop(&l) && in_loop_that_cannot_repeat(markers.data[i])) LLVMInstructionEraseFromParent(markers.data[i]);
    vec_free(&l.blocks);
    vmap_free(&l.in);
  }
  markers.len = 0;
  for (size_t i = 0; i < fns.len; i++) cfg_drop_unreachable(fns.data[i]); /* they may branch into a loop that moves */
  vec_free(&fns);
  for (LLVMUseRef u = LLVMGetFirstUse(decl); u; u = LLVMGetNextUse(u))
    if (ir_is_call(LLVMGetUser(u))) vec_push(&markers, LLVMGetUser(u));
  /* inner loops first: an enclosing loop's step then calls the inner loop's function (nested checkpointing);
     two markers in one loop are refused */
  size_t *sizes = xcalloc(markers.len + 1, sizeof *sizes);
  LLVMBasicBlockRef *headers = xcalloc(markers.len + 1, sizeof *headers);
  for (size_t i = 0; i < markers.len; i++) {
    Loop l = {.fn = fn_of(markers.data[i]), .marker = markers.data[i]};
    vmap_init(&l.in);
    if (find_loop(&l)) sizes[i] = l.blocks.len, headers[i] = l.header;
    vec_free(&l.blocks);
    vmap_free(&l.in);
  }
  ValueMap twice;
  vmap_init(&twice);
  for (size_t i = 0; i < markers.len; i++)
    for (size_t j = i + 1; j < markers.len; j++)
      if (headers[i] && headers[i] == headers[j]) {
        diag_error(markers.data[j], MARKER "() twice in one loop");
        vmap_put(&twice, markers.data[i], markers.data[i]);
        vmap_put(&twice, markers.data[j], markers.data[j]);
      }
  for (size_t i = 1; i < markers.len; i++) /* by the size of their loops (a few markers: insertion) */
    for (size_t j = i; j > 0 && sizes[j - 1] > sizes[j]; j--) {
      size_t t = sizes[j];
      sizes[j] = sizes[j - 1], sizes[j - 1] = t;
      LLVMValueRef m = markers.data[j];
      markers.data[j] = markers.data[j - 1], markers.data[j - 1] = m;
    }
  for (size_t i = 0; i < markers.len; i++) {
    if (vmap_has(&twice, markers.data[i])) continue;
    const char *family = checkpoint_auto_family(fn_of(markers.data[i]));
    if (!family) {
      outline(&ck, markers.data[i]);
      continue;
    }
    diag_capture_begin(true); /* a twin's loop: only tried */
    outline(&ck, markers.data[i]);
    char *kept = diag_capture_end();
    if (*kept) checkpoint_auto_refuse(m, family, kept);
    free(kept);
  }
  vmap_free(&twice);
  free(sizes);
  free(headers);
  for (LLVMUseRef u; (u = LLVMGetFirstUse(decl));) /* those refused (reported) go too */
    LLVMInstructionEraseFromParent(LLVMGetUser(u));
  LLVMDeleteFunction(decl);
  vec_free(&markers);
  checkpoint_end(&ck);
  *errors += diag_error_count() - before;
  return true;
}

void checkpoint_begin(Ck *ck, LLVMModuleRef m) {
  *ck = (Ck){.m = m, .c = LLVMGetModuleContext(m)};
  ck->ptr = LLVMPointerTypeInContext(ck->c, 0);
  ck->i32 = LLVMInt32TypeInContext(ck->c);
  ck->i64 = LLVMInt64TypeInContext(ck->c);
  ck->void_t = LLVMVoidTypeInContext(ck->c);
  vmap_init(&ck->gtids);
  vmap_init(&ck->differentiated);
  /* debug records as intrinsics while code moves: those of the function's variables stay behind */
  ck->records = LLVMIsNewDbgInfoFormat(m);
  if (ck->records) LLVMSetIsNewDbgInfoFormat(m, 0);
}

void checkpoint_end(Ck *ck) {
  vec_free(&ck->copying);
  vmap_free(&ck->gtids);
  vmap_free(&ck->differentiated);
  vec_free(&ck->called_types);
  if (ck->dib) {
    LLVMDIBuilderFinalize(ck->dib);
    LLVMDisposeDIBuilder(ck->dib);
  }
  if (ck->records) LLVMSetIsNewDbgInfoFormat(ck->m, 1);
}
