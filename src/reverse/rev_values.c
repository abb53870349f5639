/* How the reverse sweep gets the primal values and shadows it needs, and where adjoints live.
 *
 * While planning, rv/rs note each need of the block being reversed. plan_layout then decides, for each
 * need, whether it is recomputed in the reverse block or captured at the end of some block of the forward
 * sweep (into the frame when that block runs once per call, into the block's tape record otherwise).
 * When writing the reverse function, materialise_needs produces every need of a block at its start. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "ad/apart.h"
#include "ad/checkpoint.h"
#include "ad/constants.h"
#include "analysis/unwritten.h"
#include "reverse/rev_internal.h"
#include "reverse/reverse.h"

const void *item_key(LLVMValueRef v, NeedKind kind) { return (const void *)((uintptr_t)v | (uintptr_t)kind); }

static BlockPlan *plan_of(RevGen *g, LLVMBasicBlockRef bb) { return &g->plan[cfg_index(&g->cfg, bb)]; }

static bool is_local(LLVMValueRef v) { return LLVMIsAInstruction(v) || LLVMIsAArgument(v); }

/* Intrinsics as cheap as an add: recomputed rather than recorded. */
static const char *const cheap_intrinsics[] = {
    "llvm.fmuladd.", "llvm.fma.", "llvm.fabs.", "llvm.copysign.", "llvm.minnum.", "llvm.maxnum.", "llvm.sqrt.",
    "llvm.floor.", "llvm.ceil.", "llvm.trunc.", "llvm.round.", "llvm.smax.", "llvm.smin.", "llvm.umax.",
    "llvm.umin.", "llvm.abs.", "llvm.usub.sat.", "llvm.uadd.sat.", "llvm.ssub.sat.", "llvm.sadd.sat.",
};

/* Instructions with no side effect and no memory read, cheaper to redo than to record and read back
 * (the tape costs memory traffic; a multiply does not): address and integer arithmetic, conversions,
 * comparisons, aggregate plumbing, and floating-point arithmetic short of the transcendental functions. */
bool recomputable(LLVMValueRef v) {
  if (!LLVMIsAInstruction(v)) return false;
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMFAdd:
  case LLVMFSub:
  case LLVMFMul:
  case LLVMFDiv:
  case LLVMFRem: return true;
  case LLVMCall: {
    const char *name = ir_called_name(v);
    for (size_t i = 0; i < sizeof cheap_intrinsics / sizeof *cheap_intrinsics; i++)
      if (!strncmp(name, cheap_intrinsics[i], strlen(cheap_intrinsics[i]))) return true;
    return false;
  }
  case LLVMGetElementPtr:
  case LLVMBitCast:
  case LLVMAddrSpaceCast:
  case LLVMPtrToInt:
  case LLVMIntToPtr:
  case LLVMAdd:
  case LLVMSub:
  case LLVMMul:
  case LLVMShl:
  case LLVMLShr:
  case LLVMAShr:
  case LLVMAnd:
  case LLVMOr:
  case LLVMXor:
  case LLVMTrunc:
  case LLVMZExt:
  case LLVMSExt:
  case LLVMICmp:
  case LLVMFCmp:
  case LLVMSIToFP:
  case LLVMUIToFP:
  case LLVMFPToSI:
  case LLVMFPToUI:
  case LLVMFPExt:
  case LLVMFPTrunc:
  case LLVMFNeg:
  case LLVMSelect:
  case LLVMExtractValue:
  case LLVMInsertValue:
  case LLVMExtractElement:
  case LLVMInsertElement:
  case LLVMShuffleVector:
  case LLVMFreeze: return true;
  case LLVMSDiv:
  case LLVMUDiv:
  case LLVMSRem:
  case LLVMURem: { /* by a constant: a multiply and shifts (i % 4, a cell's coordinates) */
    LLVMValueRef d = LLVMGetOperand(v, 1);
    return LLVMIsAConstantInt(d) && LLVMConstIntGetZExtValue(d) != 0;
  }
  default: return false;
  }
}

/* ---- loads the reverse sweep may repeat ---- */

/* The object an address points into: addresses are computed from it by getelementptr and casts. */
LLVMValueRef rev_root_of(LLVMValueRef p) { return ir_root_object(p); }

/* Memory the function allocated itself: a stack slot or a heap block (or a choice between such). */
static bool own_memory(LLVMValueRef p, int depth) {
  p = rev_root_of(p);
  if (LLVMIsAAllocaInst(p)) return true;
  if (ir_is_call(p)) {
    CallKind k = call_classify(p, NULL);
    return k == CALL_ALLOC || k == CALL_REALLOC;
  }
  if (depth > 8) return false;
  if (LLVMIsAPHINode(p)) {
    for (unsigned i = 0, n = LLVMCountIncoming(p); i < n; i++)
      if (!own_memory(LLVMGetIncomingValue(p, i), depth + 1)) return false;
    return true;
  }
  if (LLVMIsASelectInst(p)) return own_memory(LLVMGetOperand(p, 1), depth + 1) && own_memory(LLVMGetOperand(p, 2), depth + 1);
  return false;
}

/* Does fn write only memory it allocated, and call nothing that could write other memory: then its
 * arguments' memory and the globals hold, when the reverse sweep runs right after the forward sweep,
 * what they held when it read them. */
bool writes_only_own_memory(LLVMValueRef fn) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      switch (LLVMGetInstructionOpcode(i)) {
      case LLVMStore:
        if (!own_memory(LLVMGetOperand(i, 1), 0)) return false;
        break;
      case LLVMAtomicRMW:
      case LLVMAtomicCmpXchg:
        if (!own_memory(LLVMGetOperand(i, 0), 0)) return false;
        break;
      case LLVMCall:
        switch (call_classify(i, NULL)) {
        case CALL_DEBUG:
        case CALL_FREE: break;
        case CALL_MATH: /* modf's integral part, snprintf's text, posix_memalign's slot */
        case CALL_INACTIVE:
        case CALL_ALLOC:
          for (unsigned k = 0, n = ir_num_call_args(i); k < n; k++)
            if (call_writes_argument(i, k) && !own_memory(LLVMGetArgOperand(i, k), 0)) return false;
          break;
        case CALL_MEMCPY:
        case CALL_MEMSET:
        case CALL_REALLOC:
          if (!own_memory(LLVMGetArgOperand(i, 0), 0)) return false;
          break;
        default: return false;
        }
        break;
      case LLVMInvoke:
      case LLVMCallBr: return false;
      default: break;
      }
    }
  return true;
}

static bool param_bit(unsigned long long mask, LLVMValueRef arg) {
  unsigned i = ir_param_index(arg);
  return i < 64 && (mask >> i & 1);
}

/* The index of global variable v among its module's (PairKind.unwritten_globals), or -1 past the 64th. */
static int global_index(LLVMValueRef v) {
  int i = 0;
  for (LLVMValueRef x = LLVMGetFirstGlobal(LLVMGetGlobalParent(v)); x && i < 64; x = LLVMGetNextGlobal(x), i++)
    if (x == v) return i;
  return -1;
}

/* A pointer read from memory a parameter of PairKind.unwritten_held points to. */
static bool held_record(RevGen *g, LLVMValueRef load) {
  LLVMValueRef slot = rev_root_of(LLVMGetOperand(load, 0));
  return LLVMIsAArgument(slot) && param_bit(g->unwritten_held, slot);
}

/* A pointer read from a record parameter's field that its `noalias` copy's check found to point to
 * unwritten memory (ad/apart.h). */
static bool field_read_through(RevGen *g, LLVMValueRef load) {
  long long offset = 0;
  LLVMValueRef record = ir_strip_constant_offsets(LLVMGetGlobalParent(g->orig), LLVMGetOperand(load, 0), &offset);
  return LLVMIsAArgument(record) && LLVMGetParamParent(record) == g->orig &&
         apart_field_read_through(g->orig, ir_param_index(record), offset);
}

/* Memory (an object rev_root_of gives) that holds the same values in both sweeps: a parameter's or a
 * global's (see PairKind), or the one a pointer read from such a parameter's slot or record points to (or
 * from a record a slot holds). The slot itself is not: it lives in the caller's frame, gone when the
 * reverse sweep runs (the pointer read from it is recorded, once). */
static bool unwritten_memory(RevGen *g, LLVMValueRef root) {
  if (LLVMIsAArgument(root)) return param_bit(g->unwritten, root);
  if (LLVMIsAGlobalVariable(root)) {
    int i = g->unwritten_globals ? global_index(root) : -1;
    return (i >= 0 && (g->unwritten_globals >> i & 1)) || checkpoint_reads_fixed(g->orig, root);
  }
  if (!LLVMIsALoadInst(root) || LLVMGetVolatile(root)) return false;
  LLVMValueRef slot = rev_root_of(LLVMGetOperand(root, 0));
  if (LLVMIsAArgument(slot)) return param_bit(g->unwritten_slots, slot) || (g->top_level && field_read_through(g, root));
  return LLVMIsALoadInst(slot) && !LLVMGetVolatile(slot) && held_record(g, slot);
}

/* Memory (an object rev_root_of gives) that holds, from instruction `at` on, the values it holds in the
 * reverse sweep: unwritten memory, or, in a gradient's own function, a noalias parameter's memory or a
 * global variable that nothing writes from `at` on (data computed in one parallel region and only read in
 * the next; a table the function fills the first time it runs). */
static bool unwritten_from(RevGen *g, LLVMValueRef root, LLVMValueRef at) {
  if (unwritten_memory(g, root)) return true;
  if (!g->top_level || !(LLVMIsAArgument(root) || LLVMIsAGlobalVariable(root))) return false;
  if (!g->dependence) g->dependence = dependence_new(g->orig);
  return LLVMIsAArgument(root) ? unwritten_after(root, at, g->dependence) : unwritten_global_after(root, at, g->dependence);
}

/* Into `read`, the globals of PairKind.unwritten_globals that fn loads, and the functions it calls, a few
 * calls deep. */
static void globals_read(LLVMValueRef fn, ValueList *read, ValueList *seen, int depth) {
  if (!fn || LLVMIsDeclaration(fn) || depth > 4 || ir_list_has(seen, fn)) return;
  vec_push(seen, fn);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (ir_is_call_site(i)) globals_read(ir_called_function(i), read, seen, depth + 1);
      LLVMValueRef root = LLVMIsALoadInst(i) ? rev_root_of(LLVMGetOperand(i, 0)) : NULL;
      if (root && LLVMIsAGlobalVariable(root) && global_index(root) >= 0 && !ir_list_has(read, root)) vec_push(read, root);
    }
}

/* Memory whose pointers point to memory that holds the same values in both sweeps (PairKind.unwritten_slots),
 * and memory whose pointers point to such memory (deeper: PairKind.unwritten_held). */
static bool read_through(RevGen *g, LLVMValueRef root, bool deeper) {
  if (LLVMIsAArgument(root)) return param_bit(deeper ? g->unwritten_held : g->unwritten_slots, root);
  return !deeper && LLVMIsALoadInst(root) && !LLVMGetVolatile(root) && held_record(g, root);
}

void rev_unwritten_args(RevGen *g, LLVMValueRef call, LLVMValueRef callee, unsigned first_arg, unsigned first_param,
                        PairKind *kind) {
  for (unsigned i = first_arg, n = ir_num_call_args(call); i < n && i - first_arg + first_param < 64; i++) {
    LLVMValueRef a = LLVMGetArgOperand(call, i), held;
    unsigned long long bit = 1ULL << (i - first_arg + first_param);
    if (!ir_is_ptr(LLVMTypeOf(a))) continue;
    if (unwritten_from(g, rev_root_of(a), call)) kind->unwritten |= bit;
    else if ((held = unwritten_slot_value(a)) && unwritten_from(g, rev_root_of(held), call)) kind->unwritten_slots |= bit;
    /* a record whose arrays are unwritten, passed on or held in a slot passed on */
    if (read_through(g, rev_root_of(a), false)) kind->unwritten_slots |= bit;
    if (read_through(g, rev_root_of(a), true)) kind->unwritten_held |= bit;
    if ((held = unwritten_slot_value(a)) && read_through(g, rev_root_of(held), false)) kind->unwritten_held |= bit;
  }
  /* the globals the callee (a region's body) and the functions it calls read */
  ValueList read = {0}, seen = {0};
  globals_read(callee, &read, &seen, 0);
  for (size_t i = 0; i < read.len; i++)
    if (unwritten_from(g, read.data[i], call)) kind->unwritten_globals |= 1ULL << global_index(read.data[i]);
  vec_free(&read);
  vec_free(&seen);
}

/* An argument's memory or a global, or memory a pointer read from such points to (a record's arrays). */
static bool input_memory(LLVMValueRef root, int depth) {
  if (LLVMIsAArgument(root) || LLVMIsAGlobalVariable(root)) return true;
  return depth < 4 && LLVMIsALoadInst(root) && !LLVMGetVolatile(root) && input_memory(rev_root_of(LLVMGetOperand(root, 0)), depth + 1);
}

/* A load can be repeated in the reverse sweep instead of recorded when its memory holds the same values
 * then: memory the pair's kind says is unwritten, or, where the reverse sweep follows the forward sweep
 * directly and the function writes only memory it allocated (RevGen.reload_inputs), any argument's memory
 * or global, and what pointers read from them point to. */
bool reloadable(RevGen *g, LLVMValueRef v) {
  if (!LLVMIsALoadInst(v) || LLVMGetVolatile(v) || LLVMGetOrdering(v) != LLVMAtomicOrderingNotAtomic)
    return false;
  LLVMValueRef root = rev_root_of(LLVMGetOperand(v, 0));
  if (unwritten_memory(g, root)) return true;
  if (g->top_level && (LLVMIsAArgument(root) || LLVMIsAGlobalVariable(root))) { /* asked again and again: the answer kept */
    void *known = vmap_get(&g->known_after, v);
    if (!known) vmap_put(&g->known_after, v, known = (void *)(uintptr_t)(1 + unwritten_from(g, root, v)));
    if (known == (void *)2) return true;
  }
  if (!g->reload_inputs) return false;
  return input_memory(root, 0);
}

/* What recomputing v costs in values read back, in the same block (those of other blocks are recorded
 * there once, or carried), counted up to `limit`: 2 for each load that would have to be recorded, 1 for each
 * the reverse sweep reads from a region's copy (no record, but a read back, often a gather's: a difference
 * of two gathered coordinates is recomputed, a 3 x 3 stencil's sum recorded). Phis and calls are not
 * counted: the reverse sweep usually needs them for their own sake; but with `phis` they are, as recorded
 * loads (v is needed after its loop, where their last values, a sum's and the counters', would be recorded
 * for it). */
static unsigned recorded_leaves(RevGen *g, LLVMValueRef v, LLVMBasicBlockRef bb, ValueList *seen, unsigned limit, bool phis,
                                int depth) {
  unsigned n = 0;
  for (unsigned i = 0, k = (unsigned)LLVMGetNumOperands(v); i < k && n < limit; i++) {
    LLVMValueRef op = LLVMGetOperand(v, i);
    if (!LLVMIsAInstruction(op) || LLVMGetInstructionParent(op) != bb) continue;
    bool counted = false;
    for (size_t s = 0; s < seen->len && !counted; s++) counted = seen->data[s] == op;
    if (counted) continue;
    vec_push(seen, op);
    if (recomputable(op) && depth < 16)
      n += recorded_leaves(g, op, bb, seen, limit - n, phis, depth + 1);
    else if ((LLVMIsALoadInst(op) && !reloadable(g, op)) || (phis && LLVMIsAPHINode(op)))
      n += LLVMIsALoadInst(op) && shared_copies(g, op) ? 1 : 2;
  }
  return n;
}

/* Whether v is used outside the innermost loop it is computed in (a sum read after its loop). */
static bool used_after_loop(RevGen *g, LLVMValueRef v) {
  Loop *l = loop_innermost(g, LLVMGetInstructionParent(v));
  for (LLVMUseRef u = l ? LLVMGetFirstUse(v) : NULL; u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsAInstruction(user) && !in_loop(g, l, LLVMGetInstructionParent(user))) return true;
  }
  return false;
}

/* A float computed from several loads that would each be recorded (the five of a stencil), or read back
 * from copies (four or more): one recorded result is cheaper than recording or reading them all. */
static bool worth_recording(RevGen *g, LLVMValueRef v) {
  if (!ir_is_fp_or_fp_vector(LLVMTypeOf(v)) || !recomputable(v)) return false;
  const void *key = item_key(v, NEED_TAPE); /* a key no need uses for a float */
  void *known = vmap_get(&g->record_choice, key);
  if (known) return known == (void *)2;
  ValueList seen = {0};
  bool worth = recorded_leaves(g, v, LLVMGetInstructionParent(v), &seen, 4, used_after_loop(g, v), 0) >= 4;
  vec_free(&seen);
  vmap_put(&g->record_choice, key, (void *)(uintptr_t)(worth ? 2 : 1));
  return worth;
}

/* Recomputed in the reverse sweep rather than recorded. */
bool rederived(RevGen *g, LLVMValueRef v) { return (recomputable(v) && !worth_recording(g, v)) || reloadable(g, v); }

bool rev_floating(LLVMValueRef v) { return LLVMGetInstructionOpcode(v) == LLVMFCmp || ir_is_fp_or_fp_vector(LLVMTypeOf(v)); }

bool rev_same_bits(LLVMValueRef v) {
  return !LLVMIsAInstruction(v) || !LLVMCanValueUseFastMathFlags(v) ||
         !(LLVMGetFastMathFlags(v) & ~(LLVMFastMathFlags)LLVMFastMathNoSignedZeros);
}

static bool read_in_loop(RevGen *g, LLVMValueRef v, int depth) {
  if (!LLVMIsAInstruction(v) || LLVMIsAPHINode(v) || depth > 6) return false;
  if (LLVMIsALoadInst(v)) return !cfg_runs_once(&g->cfg, LLVMGetInstructionParent(v));
  for (unsigned i = 0, n = (unsigned)LLVMGetNumOperands(v); i < n; i++)
    if (read_in_loop(g, LLVMGetOperand(v, i), depth + 1)) return true;
  return false;
}

bool rev_read_in_loop(RevGen *g, LLVMValueRef v) { return read_in_loop(g, v, 0); }

bool rev_free_at(RevGen *g, LLVMValueRef v, LLVMBasicBlockRef bb, bool floats, unsigned *budget) {
  if (!LLVMIsAInstruction(v)) return true;
  LLVMBasicBlockRef def = LLVMGetInstructionParent(v);
  if (!*budget || !cfg_dominates(&g->cfg, def, bb)) return false;
  --*budget;
  if (counted_iv_in(g, v, bb) || cfg_runs_once(&g->cfg, def)) return true;
  if (!rederived(g, v) || (rev_floating(v) && (!floats || !rev_same_bits(v)))) return false;
  for (unsigned i = 0, n = (unsigned)LLVMGetNumOperands(v); i < n; i++)
    if (!rev_free_at(g, LLVMGetOperand(v, i), bb, floats, budget)) return false;
  return true;
}

/* The shadow of a pointer computed from shadowed pointers is recomputed the same way, on shadows. */
static bool shadow_recomputable(RevGen *g, LLVMValueRef v) {
  if (!LLVMIsAInstruction(v)) return false;
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMGetElementPtr:
  case LLVMBitCast:
  case LLVMAddrSpaceCast: return activity_shadowed(g->act, LLVMGetOperand(v, 0));
  case LLVMSelect: /* (of pointers: the reverse sweep reads no struct's shadow) */
    return ir_is_ptr(LLVMTypeOf(v)) && activity_shadowed(g->act, LLVMGetOperand(v, 1)) &&
           activity_shadowed(g->act, LLVMGetOperand(v, 2));
  default: return false;
  }
}

/* ---- planning ---- */

static void note_operands(RevGen *g, LLVMBasicBlockRef bb, LLVMValueRef v, NeedKind kind) {
  unsigned n = (unsigned)LLVMGetNumOperands(v);
  if (kind == NEED_SHADOW) { /* the base's shadow, and the other operands as they are */
    bool is_select = LLVMGetInstructionOpcode(v) == LLVMSelect;
    for (unsigned i = 0; i < n; i++) {
      bool pointer_operand = is_select ? i > 0 : i == 0;
      note_need(g, bb, LLVMGetOperand(v, i), pointer_operand ? NEED_SHADOW : NEED_PRIMAL);
    }
    return;
  }
  for (unsigned i = 0; i < n; i++) note_need(g, bb, LLVMGetOperand(v, i), NEED_PRIMAL);
}

/* The address a value read back from a copy was loaded from (or, a streamed output's, stored to). */
static LLVMValueRef copied_pointer(RevGen *g, LLVMValueRef v) {
  LLVMValueRef access = shared_copied_access(g, v);
  return LLVMGetOperand(access, LLVMIsAStoreInst(access) ? 1 : 0);
}

void note_need(RevGen *g, LLVMBasicBlockRef bb, LLVMValueRef v, NeedKind kind) {
  if (kind != NEED_PRED && !is_local(v)) return; /* constants, globals: as they are */
  BlockPlan *p = plan_of(g, bb);
  if (item_index(p->needs.data, p->needs.len, (Item){v, kind}) >= 0) return;
  /* operands first: materialise_needs produces needs in this order */
  if (kind == NEED_PRIMAL && rederived(g, v)) note_operands(g, bb, v, kind);
  else if (kind == NEED_PRIMAL && shared_copied_in(g, v, bb)) /* its copy's address */
    note_need(g, bb, copied_pointer(g, v), NEED_PRIMAL);
  else if (kind == NEED_PRIMAL && snapshot_read_in(g, v, bb)) /* its address, in the loop's snapshot */
    note_need(g, bb, LLVMGetOperand(v, 0), NEED_PRIMAL);
  if (kind == NEED_SHADOW && shadow_recomputable(g, v)) note_operands(g, bb, v, kind);
  Item it = {v, kind};
  vec_push(&p->needs, it);
}

LLVMBasicBlockRef item_def_block(RevGen *g, Item it) {
  if (it.kind == NEED_PRED) return LLVMValueAsBasicBlock(it.value);
  if (LLVMIsAArgument(it.value)) return LLVMGetEntryBasicBlock(g->orig);
  return LLVMIsAInstruction(it.value) ? LLVMGetInstructionParent(it.value) : NULL;
}

/* Where a need of block bb is captured: at the end of the block that defines it when that block runs
 * once (the value is the same for the whole call), else at the end of bb itself. */
static LLVMBasicBlockRef capture_block(RevGen *g, LLVMBasicBlockRef bb, Item it) {
  if (it.kind == NEED_PRED) return bb;
  LLVMBasicBlockRef def = item_def_block(g, it);
  return cfg_runs_once(&g->cfg, def) ? def : bb;
}

bool item_captured(RevGen *g, LLVMBasicBlockRef bb, Item it) {
  if (it.kind == NEED_PRED) return !iteration_share(g, it, bb, NULL);
  if (it.kind == NEED_TAPE) return true;
  if (it.kind == NEED_PRIMAL && counted_iv_in(g, it.value, bb)) return false; /* runs backwards */
  if (it.kind == NEED_PRIMAL && rederived(g, it.value)) return false;
  if (it.kind == NEED_PRIMAL && snapshot_read_in(g, it.value, bb)) return false;
  if (it.kind == NEED_SHADOW && shadow_recomputable(g, it.value)) return false;
  return !hoisting_loop(g, it, bb, NULL) && !iteration_share(g, it, bb, NULL);
}

LLVMTypeRef rev_pred_type(RevGen *g, LLVMBasicBlockRef bb) {
  size_t n = g->cfg.preds[cfg_index(&g->cfg, bb)].len;
  return LLVMIntTypeInContext(g->ctx, n <= 256 ? 8 : n <= 65536 ? 16 : 32);
}

long item_index(const Item *items, size_t n, Item it) {
  for (size_t i = 0; i < n; i++)
    if (items[i].value == it.value && items[i].kind == it.kind) return (long)i;
  return -1;
}

LLVMTypeRef item_type(RevGen *g, Item it) {
  if (it.kind == NEED_PRED) return rev_pred_type(g, LLVMValueAsBasicBlock(it.value));
  if (it.kind == NEED_SHADOW || it.kind == NEED_TAPE) return g->ptr_type;
  return LLVMTypeOf(it.value);
}

static Capture *find_capture(RevGen *g, LLVMBasicBlockRef at, Item it) {
  BlockPlan *p = plan_of(g, at);
  for (size_t i = 0; i < p->captures.len; i++)
    if (p->captures.data[i].item.value == it.value && p->captures.data[i].item.kind == it.kind)
      return &p->captures.data[i];
  return NULL;
}

void plan_layout(RevGen *g) {
  for (size_t b = 0; b < g->cfg.blocks.len; b++) {
    LLVMBasicBlockRef bb = g->cfg.blocks.data[b];
    BlockPlan *p = &g->plan[b];
    for (size_t i = 0; i < p->needs.len; i++) {
      Item it = p->needs.data[i];
      if (!item_captured(g, bb, it)) continue;
      LLVMBasicBlockRef at = capture_block(g, bb, it);
      if (find_capture(g, at, it)) continue;
      Capture c = {it, at, -1, 0, false};
      unsigned size = tape_slot_bytes(g, item_type(g, it));
      if (cfg_runs_once(&g->cfg, at)) {
        c.frame_slot = (int)g->frame_slots++;
        c.offset = g->frame_bytes;
        g->frame_bytes += size;
      } else {
        BlockPlan *ap = plan_of(g, at);
        c.offset = ap->record_bytes;
        ap->record_bytes += size;
      }
      vec_push(&plan_of(g, at)->captures, c);
    }
  }
}

/* Block s follows its only predecessor p when each runs many times (records on the tape, not in the
 * frame), p records something, neither is in a loop reserved at once, p does not reserve a loop's
 * records after its own, and s calls nothing that writes the tape before s's record. */
static bool can_follow(RevGen *g, size_t s) {
  if (g->cfg.preds[s].len != 1) return false;
  LLVMBasicBlockRef sb = g->cfg.blocks.data[s], pb = g->cfg.preds[s].data[0];
  size_t p = (size_t)cfg_index(&g->cfg, pb);
  if (p == s || cfg_runs_once(&g->cfg, sb) || cfg_runs_once(&g->cfg, pb) || snapshot_exit(g, sb)) return false;
  if (!g->plan[p].record_bytes || g->plan[p].bulk || g->plan[s].bulk) return false;
  for (size_t i = 0; i < g->plan[p].captures.len; i++) /* p's record then keeps its copied loads last */
    if (capture_copied(g, &g->plan[p].captures.data[i])) return false;
  for (size_t i = 0; i < g->loops.len; i++)
    if (g->loops.data[i].bulk_bytes && g->loops.data[i].preheader == pb) return false;
  for (LLVMValueRef i = LLVMGetFirstInstruction(sb); i; i = LLVMGetNextInstruction(i))
    if (ir_is_call(i) && !leaves_tape_alone(i)) return false;
  return true;
}

bool capture_copied(RevGen *g, const Capture *c) {
  return c->frame_slot < 0 && !c->below && c->item.kind == NEED_PRIMAL && shared_copied_in(g, c->item.value, c->block);
}

/* Lays out from *bytes on the record's slots that `copied` selects (all where it is negative), widest first,
 * each at a multiple of its size. */
static void pack_slots(RevGen *g, BlockPlan *p, int copied, unsigned *bytes, unsigned *align) {
  for (unsigned size = 8; size >= 1; size /= 2) /* 8 stands for every slot of 8 bytes or more */
    for (size_t i = 0; i < p->captures.len; i++) {
      Capture *c = &p->captures.data[i];
      unsigned n = tape_packed_bytes(g, item_type(g, c->item));
      if (c->frame_slot >= 0 || c->below || (n < 8 ? n : 8) != size || (copied >= 0 && capture_copied(g, c) != copied)) continue;
      c->offset = *bytes = (*bytes + size - 1) / size * size;
      *bytes += n;
      if (size > *align) *align = size;
    }
}

unsigned plan_pack(RevGen *g, BlockPlan *p, unsigned *align, unsigned *kept) {
  unsigned bytes = 0;
  *align = 1;
  pack_slots(g, p, kept ? 0 : -1, &bytes, align);
  if (kept) {
    *kept = bytes;
    pack_slots(g, p, 1, &bytes, align);
    p->copied_bytes = bytes - *kept;
  }
  p->record_bytes = bytes;
  return bytes;
}

void plan_followers(RevGen *g) {
  size_t n = g->cfg.blocks.len;
  bool *can = xcalloc(n + 1, sizeof *can);
  for (size_t s = 0; s < n; s++) can[s] = g->plan[s].captures.len && can_follow(g, s);
  for (size_t s = 0; s < n; s++) {
    /* not behind a follower: its record is reserved unchecked, with no room made after it */
    if (!can[s] || can[cfg_index(&g->cfg, g->cfg.preds[s].data[0])]) continue;
    LLVMBasicBlockRef pb = g->cfg.preds[s].data[0];
    BlockPlan *sp = &g->plan[s], *pp = plan_of(g, pb);
    sp->follows = true;
    sp->record_bytes = 0; /* laid out again without what p records */
    for (size_t i = 0; i < sp->captures.len; i++) {
      Capture *c = &sp->captures.data[i], *there = find_capture(g, pb, c->item);
      if (there && there->frame_slot < 0) {
        c->below = true;
        c->offset = there->offset;
      } else {
        c->offset = sp->record_bytes;
        sp->record_bytes += tape_slot_bytes(g, item_type(g, c->item));
      }
    }
    pp->followed = true;
    if (sp->record_bytes > pp->headroom) pp->headroom = sp->record_bytes;
  }
  free(can);
}

static bool records_copied(RevGen *g, BlockPlan *p) {
  for (size_t i = 0; i < p->captures.len; i++)
    if (capture_copied(g, &p->captures.data[i])) return true;
  return false;
}

/* A load that a run reads back from a region's copy of its input leaves its slot empty in that run: laid
 * out last, such loads are left out of the record where all of the block's are copied (cg's product: a
 * row's record 16 -> 8 bytes; a record of such loads only, none). Not in a block that follows another or
 * is followed: a follower finds its predecessor's slots by the size of the predecessor's record. */
void plan_copied_last(RevGen *g) {
  for (size_t b = 0; b < g->cfg.blocks.len; b++) {
    BlockPlan *p = &g->plan[b];
    if (!p->record_bytes || p->bulk || p->follows || p->followed || !records_copied(g, p)) continue;
    unsigned bytes = 0, copied = 0;
    for (int last = 0; last < 2; last++)
      for (size_t i = 0; i < p->captures.len; i++) {
        Capture *c = &p->captures.data[i];
        if (c->frame_slot >= 0 || c->below) continue;
        if (capture_copied(g, c) != (last == 1)) continue;
        c->offset = bytes;
        bytes += tape_slot_bytes(g, item_type(g, c->item));
        if (last) copied += tape_slot_bytes(g, item_type(g, c->item));
      }
    p->copied_bytes = copied;
  }
}

/* The other records packed too, widest slots first, and padded to 8 bytes as every record on the tape is:
 * a branch's direction or a narrow counter took 8 bytes each (the GMM objective's join of four branches
 * per component: 32 -> 8 bytes). Before plan_followers, so that a follower finds its predecessor's slots
 * where they now are; not a record with loads read back from a region's copy (plan_copied_last lays those
 * out). */
void plan_pack_records(RevGen *g) {
  for (size_t b = 0; b < g->cfg.blocks.len; b++) {
    BlockPlan *p = &g->plan[b];
    if (!p->record_bytes || p->bulk || records_copied(g, p)) continue;
    unsigned align;
    p->record_bytes = (plan_pack(g, p, &align, NULL) + 7) & ~7u;
  }
}

LLVMValueRef record_move(RevGen *g, BlockPlan *p, bool reserving) {
  LLVMValueRef full = LLVMConstInt(g->i64, p->record_bytes, 0), all = NULL;
  if (g->phase == PLANNING) return reserving ? tape_reserve_value(g, full) : tape_release_value(g, full);
  for (size_t i = 0; i < p->captures.len; i++) {
    LLVMValueRef flag = shared_copy_flag(g, &p->captures.data[i]);
    if (!flag) continue;
    LLVMValueRef copied = LLVMBuildLoad2(g->b, LLVMInt1TypeInContext(g->ctx), flag, "");
    all = all ? LLVMBuildAnd(g->b, all, copied, "") : copied;
  }
  if (p->copied_bytes == p->record_bytes) return tape_move_unless(g, all, full, reserving);
  LLVMValueRef size = LLVMBuildSelect(g->b, all, LLVMConstInt(g->i64, p->record_bytes - p->copied_bytes, 0), full, "record.size");
  return reserving ? tape_reserve_value(g, size) : tape_release_value(g, size);
}

/* ---- values in the reverse sweep ---- */

static LLVMValueRef placeholder(LLVMTypeRef t) { return LLVMGetUndef(t); }

static LLVMValueRef lookup(RevGen *g, LLVMValueRef v, NeedKind kind, LLVMTypeRef t) {
  if (g->phase == PLANNING) {
    note_need(g, g->cur, v, kind);
    return placeholder(t);
  }
  LLVMValueRef m = vmap_get(&g->local, item_key(v, kind));
  if (!m) {
    rev_error(g, LLVMIsAInstruction(v) ? v : NULL, "parad: internal error: a value the reverse sweep needs was not planned");
    return placeholder(t);
  }
  return m;
}

LLVMValueRef rv(RevGen *g, LLVMValueRef v) {
  if (!is_local(v)) return v;
  return lookup(g, v, NEED_PRIMAL, LLVMTypeOf(v));
}

LLVMValueRef rt(RevGen *g, LLVMValueRef call) { return lookup(g, call, NEED_TAPE, g->ptr_type); }

LLVMValueRef rs(RevGen *g, LLVMValueRef v) {
  if (!is_local(v)) { /* a constant pointer: null's shadow is null, a constant's its own; others have none */
    if (ad_has_constant_shadow(v)) return ad_constant_shadow(v, SHADOW_ADD);
    if (!LLVMIsAConstantPointerNull(v) && !LLVMIsAUndefValue(v))
      rev_error(g, NULL, "parad: internal error: the reverse sweep asked for the shadow of a constant");
    return LLVMConstNull(g->ptr_type);
  }
  return lookup(g, v, NEED_SHADOW, g->ptr_type);
}

/* ---- what the optimiser may know of repeated loads ---- */

/* A repeated load reads memory nothing writes between the sweeps, and the reverse sweep writes only
 * shadows, the tape and memory the function allocated: its stores never write what such loads read. Said
 * with scoped alias metadata (the loads in one scope, every store and memory-writing intrinsic of the
 * reverse function "noalias" to it), the optimiser may hoist a load out of a loop that adds into shadows
 * and vectorise the loop without checking the input against the shadows. */
static unsigned md_kind(RevGen *g, const char *name) { return LLVMGetMDKindIDInContext(g->ctx, name, (unsigned)strlen(name)); }

static LLVMValueRef reload_scope(RevGen *g) {
  if (g->reload_scope) return g->reload_scope;
  /* named after the function: the inliner gives each inlined copy scopes of its own */
  char *dname = xasprintf("parad.reverse.%s", LLVMGetValueName(g->rev));
  char *sname = xasprintf("parad.reloaded.%s", LLVMGetValueName(g->rev));
  LLVMValueRef dstr = LLVMMDStringInContext(g->ctx, dname, (unsigned)strlen(dname));
  LLVMValueRef domain = LLVMMDNodeInContext(g->ctx, &dstr, 1);
  LLVMValueRef scope_ops[2] = {LLVMMDStringInContext(g->ctx, sname, (unsigned)strlen(sname)), domain};
  LLVMValueRef scope = LLVMMDNodeInContext(g->ctx, scope_ops, 2);
  free(dname);
  free(sname);
  g->reload_scope = LLVMMDNodeInContext(g->ctx, &scope, 1);
  return g->reload_scope;
}

void scope_reload(RevGen *g, LLVMValueRef load) {
  LLVMSetMetadata(load, md_kind(g, "alias.scope"), reload_scope(g));
}

void rev_scope_reloads(RevGen *g) {
  if (!g->reload_scope) return;
  unsigned noalias = md_kind(g, "noalias");
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g->rev); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      LLVMOpcode op = LLVMGetInstructionOpcode(i);
      bool writes = op == LLVMStore || op == LLVMAtomicRMW || op == LLVMAtomicCmpXchg;
      if (op == LLVMCall) {
        CallKind k = call_classify(i, NULL);
        writes = (k == CALL_MEMCPY || k == CALL_MEMSET) && LLVMGetIntrinsicID(LLVMGetCalledValue(i));
      }
      /* a store that already says what it does not alias keeps its word (none is expected here) */
      if (writes && !LLVMGetMetadata(i, noalias)) LLVMSetMetadata(i, noalias, g->reload_scope);
    }
}

/* Produces one need at the current position, its operands already produced. */
LLVMValueRef rev_materialise(RevGen *g, LLVMBasicBlockRef bb, Item it, LLVMValueRef record) {
  Induction *iv = it.kind == NEED_PRIMAL ? counted_iv_in(g, it.value, bb) : NULL;
  if (iv) return LLVMBuildLoad2(g->b, LLVMTypeOf(it.value), iv->slot, "iv");
  size_t k;
  Loop *loop = hoisting_loop(g, it, bb, &k);
  if (loop) return LLVMBuildLoad2(g->b, item_type(g, it), loop->slots[k], "invariant");
  loop = iteration_share(g, it, bb, &k);
  if (loop) return LLVMBuildLoad2(g->b, item_type(g, it), loop->shared_slots[k], "iteration");
  if (item_captured(g, bb, it)) {
    LLVMBasicBlockRef at = capture_block(g, bb, it);
    Capture *c = find_capture(g, at, it);
    if (!c) return placeholder(item_type(g, it));
    if (c->frame_slot >= 0) return vmap_get(&g->frame_value, c);
    if (c->below) { /* in the record of the block before, which this one follows */
      LLVMValueRef back = LLVMConstInt(g->i64, -(long long)plan_of(g, g->cfg.preds[cfg_index(&g->cfg, bb)].data[0])->record_bytes, 1);
      record = LLVMBuildGEP2(g->b, LLVMInt8TypeInContext(g->ctx), record, &back, 1, "below");
    }
    /* a load read from its copy in runs the forward sweep did not record, where its slot (here, or in the
       record of the block before) stays empty */
    LLVMValueRef copied = shared_copy_flag(g, c);
    if (copied) {
      LLVMBasicBlockRef yes, no, join;
      rev_diamond(g, LLVMBuildLoad2(g->b, LLVMInt1TypeInContext(g->ctx), copied, ""), &yes, &no, &join);
      LLVMPositionBuilderAtEnd(g->b, yes);
      LLVMValueRef access = shared_copied_access(g, it.value);
      LLVMValueRef from_copy = LLVMBuildLoad2(g->b, LLVMTypeOf(it.value), shared_copy_address(g, it.value, rv(g, copied_pointer(g, it.value))), "");
      LLVMSetAlignment(from_copy, LLVMGetAlignment(access));
      LLVMBuildBr(g->b, join);
      LLVMPositionBuilderAtEnd(g->b, no);
      LLVMValueRef recorded = tape_load(g, record, c->offset, item_type(g, it));
      LLVMBuildBr(g->b, join);
      LLVMPositionBuilderAtEnd(g->b, join);
      LLVMValueRef phi = LLVMBuildPhi(g->b, item_type(g, it), "");
      LLVMValueRef vals[2] = {from_copy, recorded};
      LLVMBasicBlockRef from[2] = {yes, no};
      LLVMAddIncoming(phi, vals, from, 2);
      return phi;
    }
    return tape_load(g, record, c->offset, item_type(g, it));
  }
  if (it.kind == NEED_PRIMAL && snapshot_read_in(g, it.value, bb))
    return snapshot_load(g, it.value, rv(g, LLVMGetOperand(it.value, 0)));
  /* recompute: a copy of the instruction on the reverse values of its operands (shadows for the pointer
   * operands of a shadow) */
  LLVMValueRef v = it.value, c = LLVMInstructionClone(v);
  bool is_select = LLVMGetInstructionOpcode(v) == LLVMSelect;
  for (unsigned i = 0, n = (unsigned)LLVMGetNumOperands(v); i < n; i++) {
    LLVMValueRef op = LLVMGetOperand(v, i);
    bool shadow_operand = it.kind == NEED_SHADOW && (is_select ? i > 0 : i == 0);
    LLVMSetOperand(c, i, shadow_operand ? rs(g, op) : rv(g, op));
  }
  LLVMInsertIntoBuilder(g->b, c);
  LLVMInstructionSetDebugLoc(c, NULL);
  if (it.kind == NEED_PRIMAL && reloadable(g, v)) scope_reload(g, c);
  return c;
}

void materialise_needs(RevGen *g, LLVMBasicBlockRef bb, LLVMValueRef record) {
  vmap_free(&g->local);
  vmap_init(&g->local);
  BlockPlan *p = plan_of(g, bb);
  for (size_t i = 0; i < p->needs.len; i++) {
    Item it = p->needs.data[i];
    if (it.kind == NEED_PRED) continue; /* read by the dispatch at the end of the block */
    vmap_put(&g->local, item_key(it.value, it.kind), rev_materialise(g, bb, it, record));
  }
}

LLVMValueRef rev_pred_index(RevGen *g, LLVMBasicBlockRef bb, LLVMValueRef record) {
  Item it = {LLVMBasicBlockAsValue(bb), NEED_PRED};
  if (g->phase == PLANNING) {
    note_need(g, bb, it.value, NEED_PRED);
    return placeholder(rev_pred_type(g, bb));
  }
  return rev_materialise(g, bb, it, record);
}

/* ---- adjoints ---- */

LLVMTypeRef adj_type(LLVMTypeRef t) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMHalfTypeKind:
  case LLVMBFloatTypeKind:
  case LLVMFloatTypeKind:
  case LLVMDoubleTypeKind:
  case LLVMX86_FP80TypeKind:
  case LLVMFP128TypeKind: return t;
  case LLVMVectorTypeKind: {
    LLVMTypeRef e = adj_type(LLVMGetElementType(t));
    return e && ir_is_fp(e) && ir_is_fp(LLVMGetElementType(t)) ? t : NULL;
  }
  case LLVMArrayTypeKind:
  case LLVMStructTypeKind: return ir_contains_fp(t) ? t : NULL;
  default: return NULL;
  }
}

LLVMValueRef adj_slot(RevGen *g, LLVMValueRef orig) {
  LLVMValueRef s = vmap_get(&g->adj, orig);
  if (s) return s;
  LLVMTypeRef t = adj_type_of(g, orig);
  if (!t) return NULL;
  LLVMValueRef fn = g->phase == PLANNING ? g->scratch : g->rev;
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(g->ctx);
  LLVMValueRef first = LLVMGetFirstInstruction(entry);
  if (first) LLVMPositionBuilderBefore(b, first);
  else LLVMPositionBuilderAtEnd(b, entry);
  s = LLVMBuildAlloca(b, t, "adj");
  LLVMBuildStore(b, LLVMConstNull(t), s);
  LLVMDisposeBuilder(b);
  vmap_put(&g->adj, orig, s);
  return s;
}

/* Whether a path leads from bb back to itself; `known` caches the answer per block (1 yes, 2 no). */
static bool on_cycle(LLVMBasicBlockRef bb, ValueMap *known) {
  void *k = vmap_get(known, bb);
  if (k) return k == (void *)1;
  ValueMap seen;
  vmap_init(&seen);
  VEC(LLVMBasicBlockRef) work = {0};
  vec_push(&work, bb);
  bool cycle = false;
  while (work.len && !cycle) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(work.data[--work.len]);
    for (unsigned i = 0, n = t ? LLVMGetNumSuccessors(t) : 0; i < n && !cycle; i++) {
      LLVMBasicBlockRef s = LLVMGetSuccessor(t, i);
      cycle = s == bb;
      if (vmap_has(&seen, s)) continue;
      vmap_put(&seen, s, s);
      vec_push(&work, s);
    }
  }
  vec_free(&work);
  vmap_free(&seen);
  vmap_put(known, bb, cycle ? (void *)1 : (void *)2);
  return cycle;
}

/* mem2reg promotes a slot whose loads and stores are all in one block cheaply. A slot zeroed in the entry
 * block and used in another takes its full SSA construction, which scans the using block from its start
 * for each slot: quadratic in one long block, as generated code makes (1,500 terms of a Mathematica
 * expression, 10,000 adjoints in one block: 27 s at -O2). Where every use is in one block that runs at most
 * once per call, zeroing the slot at that block's start is the same. */
void adj_slots_localise(RevGen *g) {
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(g->rev);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(g->ctx);
  ValueMap cyclic;
  vmap_init(&cyclic);
  for (size_t i = 0; i < g->adj.cap; i++) {
    LLVMValueRef slot = g->adj.keys[i] ? g->adj.vals[i] : NULL, zeroing = NULL;
    if (!slot || !LLVMIsAAllocaInst(slot)) continue;
    LLVMBasicBlockRef home = NULL;
    bool one_block = true;
    for (LLVMUseRef u = LLVMGetFirstUse(slot); u && one_block; u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u);
      bool store = LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == slot;
      LLVMBasicBlockRef bb = LLVMIsAInstruction(user) ? LLVMGetInstructionParent(user) : NULL;
      if (store && bb == entry && !zeroing && ir_is_const_zero(LLVMGetOperand(user, 0))) {
        zeroing = user;
        continue;
      }
      one_block = (store || LLVMIsALoadInst(user)) && bb != entry && (!home || bb == home);
      home = bb;
    }
    if (!one_block || !zeroing || !home || on_cycle(home, &cyclic)) continue;
    LLVMInstructionRemoveFromParent(zeroing);
    ir_position_after_phis(b, home);
    LLVMInsertIntoBuilder(b, zeroing);
  }
  vmap_free(&cyclic);
  LLVMDisposeBuilder(b);
}

static bool has_adjoint(RevGen *g, LLVMValueRef v) {
  return is_local(v) && activity_varied(g->act, v) && adj_type_of(g, v);
}

LLVMValueRef adj_take(RevGen *g, LLVMValueRef orig) {
  LLVMTypeRef t = adj_type_of(g, orig);
  if (!t) return NULL;
  if (!has_adjoint(g, orig)) return LLVMConstNull(t);
  LLVMValueRef s = adj_slot(g, orig);
  LLVMValueRef d = LLVMBuildLoad2(g->b, t, s, "");
  LLVMBuildStore(g->b, LLVMConstNull(t), s);
  return d;
}

/* d added to a of the same aggregate or scalar floating-point type; non-float fields stay. */
static LLVMValueRef add_adjoints(RevGen *g, LLVMValueRef a, LLVMValueRef d) {
  LLVMTypeRef t = LLVMTypeOf(a);
  LLVMTypeKind k = LLVMGetTypeKind(t);
  if (k != LLVMStructTypeKind && k != LLVMArrayTypeKind) return ir_adjoint_sum(g->b, a, d);
  unsigned n = k == LLVMStructTypeKind ? LLVMCountStructElementTypes(t) : (unsigned)LLVMGetArrayLength2(t);
  for (unsigned i = 0; i < n; i++) {
    LLVMTypeRef et = k == LLVMStructTypeKind ? LLVMStructGetTypeAtIndex(t, i) : LLVMGetElementType(t);
    if (!ir_contains_fp(et)) continue;
    LLVMValueRef s = add_adjoints(g, LLVMBuildExtractValue(g->b, a, i, ""), LLVMBuildExtractValue(g->b, d, i, ""));
    a = LLVMBuildInsertValue(g->b, a, s, i, "");
  }
  return a;
}

void adj_add(RevGen *g, LLVMValueRef orig, LLVMValueRef d) {
  if (!d || !has_adjoint(g, orig) || ir_is_const_zero(d)) return;
  LLVMValueRef s = adj_slot(g, orig);
  LLVMTypeRef t = adj_type_of(g, orig);
  LLVMBuildStore(g->b, add_adjoints(g, LLVMBuildLoad2(g->b, t, s, ""), d), s);
}
