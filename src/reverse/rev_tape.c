/* Tape records in IR. Writing n bytes: take the tape's top; if the record does not fit in the current
 * chunk, ask the runtime for a new one; move the top past the record. Reading back: if the current
 * chunk is empty, ask the runtime for the previous one; move the top back by n. See runtime/tape.h.
 *
 * Within a generated function the top, end and base live in local variables (registers, once promoted):
 * kept in the tape's fields, every record would load and store memory the optimiser must assume may be
 * the program's, in every loop. They are written back before a call that may use the tape, and read
 * again after it (tape_localise). */
#include "reverse/rev_internal.h"

#include <string.h>

#include <llvm-c/Target.h>

/* ParadTape's first fields: top, end, base. */
enum { FIELD_TOP = 0, FIELD_END = 8, FIELD_BASE = 16 };


static void load_fields(RevGen *g, LLVMBuilderRef b) {
  static const unsigned offsets[3] = {FIELD_TOP, FIELD_END, FIELD_BASE};
  LLVMValueRef slots[3] = {g->tape_top, g->tape_end, g->tape_base};
  for (int i = 0; i < 3; i++) {
    LLVMValueRef idx = LLVMConstInt(g->i64, offsets[i], 0);
    LLVMValueRef f = LLVMBuildGEP2(b, LLVMInt8TypeInContext(g->ctx), g->tape, &idx, 1, "");
    LLVMBuildStore(b, LLVMBuildLoad2(b, g->ptr_type, f, ""), slots[i]);
  }
}

static void store_top(RevGen *g, LLVMBuilderRef b) {
  LLVMBuildStore(b, LLVMBuildLoad2(b, g->ptr_type, g->tape_top, ""), g->tape);
}

LLVMValueRef tape_current(RevGen *g) {
  LLVMModuleRef m = g->ad->mod;
  LLVMValueRef cur = LLVMGetNamedGlobal(m, "__parad_rt_current");
  if (!cur) {
    cur = LLVMAddGlobal(m, g->ptr_type, "__parad_rt_current");
    LLVMSetThreadLocal(cur, 1);
    LLVMSetLinkage(cur, LLVMExternalLinkage);
  }
  g->tape = LLVMBuildLoad2(g->b, g->ptr_type, cur, "tape");
  g->tape_top = LLVMBuildAlloca(g->b, g->ptr_type, "tape.top");
  g->tape_end = LLVMBuildAlloca(g->b, g->ptr_type, "tape.end");
  g->tape_base = LLVMBuildAlloca(g->b, g->ptr_type, "tape.base");
  load_fields(g, g->b);
  return g->tape;
}

/* Calls that never touch the tape: intrinsics, libm, the heap, the runtime's memory helpers. */
bool leaves_tape_alone(LLVMValueRef call) {
  const char *name = ir_called_name(call);
  if (!*name) return false; /* indirect */
  if (!strncmp(name, "llvm.", 5) || !strncmp(name, "__parad_rt_copy_", 16) || !strncmp(name, "__parad_rt_free_later", 21) ||
      !strcmp(name, "__parad_rt_delete_later") || !strncmp(name, "__parad_rt_shadow_", 18) ||
      !strncmp(name, "__parad_rt_realloc_shadow", 25) || !strcmp(name, "__parad_rt_tape_grow") ||
      !strcmp(name, "__parad_rt_tape_back"))
    return true;
  CallKind k = call_classify(call, NULL);
  return k == CALL_MATH || k == CALL_ALLOC || k == CALL_REALLOC || k == CALL_FREE;
}

void tape_localise(RevGen *g, LLVMValueRef fn) {
  if (!g->tape) return;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(g->ctx);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (LLVMIsAReturnInst(i)) {
        LLVMPositionBuilderBefore(b, i);
        store_top(g, b);
      } else if (ir_is_call(i) && !leaves_tape_alone(i)) {
        LLVMPositionBuilderBefore(b, i);
        store_top(g, b);
        LLVMValueRef next = LLVMGetNextInstruction(i);
        LLVMPositionBuilderBefore(b, next);
        load_fields(g, b);
        i = LLVMGetPreviousInstruction(next);
      }
    }
  LLVMDisposeBuilder(b);
}

static LLVMValueRef slow_call(RevGen *g, const char *name, LLVMValueRef *args, unsigned n) {
  LLVMTypeRef params[2] = {g->ptr_type, g->i64};
  LLVMTypeRef fty = LLVMFunctionType(g->ptr_type, params, n, 0);
  return ir_call_named(g->b, name, fty, args, n);
}

/* Ends the current block with a branch to join and returns, there, the record's address: a when entered
 * from block from_a, else b. */
static LLVMValueRef join_record(RevGen *g, LLVMBasicBlockRef join, LLVMValueRef a, LLVMBasicBlockRef from_a, LLVMValueRef b) {
  LLVMBasicBlockRef from[2] = {from_a, LLVMGetInsertBlock(g->b)};
  LLVMBuildBr(g->b, join);
  LLVMPositionBuilderAtEnd(g->b, join);
  LLVMValueRef v = LLVMBuildPhi(g->b, g->ptr_type, "record");
  LLVMValueRef vals[2] = {a, b};
  LLVMAddIncoming(v, vals, from, 2);
  return v;
}

/* Where the tape's current chunk cannot serve (rarely: a chunk holds thousands of records), the runtime
 * does (`slow`: grow, or go back a chunk): the tape's fields are flushed around the call. The result is
 * fast_value, or what the runtime returned. */
static LLVMValueRef unless_slow(RevGen *g, LLVMValueRef needs_slow, const char *slow_name, const char *join_name,
                                const char *runtime, LLVMValueRef *args, unsigned nargs, LLVMValueRef fast_value) {
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(g->b));
  LLVMBasicBlockRef here = LLVMGetInsertBlock(g->b);
  LLVMBasicBlockRef slow = LLVMAppendBasicBlockInContext(g->ctx, fn, slow_name);
  LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(g->ctx, fn, join_name);
  ir_branch_weights(LLVMBuildCondBr(g->b, needs_slow, slow, join), 1, 2000);
  LLVMPositionBuilderAtEnd(g->b, slow);
  store_top(g, g->b);
  LLVMValueRef slow_value = slow_call(g, runtime, args, nargs);
  load_fields(g, g->b);
  return join_record(g, join, fast_value, here, slow_value);
}

/* n bytes at the top, in a chunk where `room` bytes fit. */
static LLVMValueRef reserve(RevGen *g, LLVMValueRef n, LLVMValueRef room) {
  LLVMTypeRef i8 = LLVMInt8TypeInContext(g->ctx);
  LLVMValueRef top = LLVMBuildLoad2(g->b, g->ptr_type, g->tape_top, "");
  LLVMValueRef after = LLVMBuildGEP2(g->b, i8, top, &room, 1, "");
  LLVMValueRef end = LLVMBuildLoad2(g->b, g->ptr_type, g->tape_end, "");
  LLVMValueRef full = LLVMBuildICmp(g->b, LLVMIntUGT, after, end, "");
  LLVMValueRef args[2] = {g->tape, room};
  LLVMValueRef at = unless_slow(g, full, "tape.grow", "tape.write", "__parad_rt_tape_grow", args, 2, top);
  LLVMBuildStore(g->b, LLVMBuildGEP2(g->b, i8, at, &n, 1, ""), g->tape_top);
  return at;
}

LLVMValueRef tape_reserve_value(RevGen *g, LLVMValueRef n) { return reserve(g, n, n); }

LLVMValueRef tape_reserve(RevGen *g, unsigned bytes) { return tape_reserve_ahead(g, bytes, 0); }

LLVMValueRef tape_reserve_ahead(RevGen *g, unsigned bytes, unsigned headroom) {
  return reserve(g, LLVMConstInt(g->i64, bytes, 0), LLVMConstInt(g->i64, bytes + headroom, 0));
}

LLVMValueRef tape_reserve_unchecked(RevGen *g, unsigned bytes) {
  LLVMValueRef n = LLVMConstInt(g->i64, bytes, 0);
  LLVMValueRef at = LLVMBuildLoad2(g->b, g->ptr_type, g->tape_top, "record");
  LLVMBuildStore(g->b, LLVMBuildGEP2(g->b, LLVMInt8TypeInContext(g->ctx), at, &n, 1, ""), g->tape_top);
  return at;
}

LLVMValueRef tape_release(RevGen *g, unsigned bytes) { return tape_release_value(g, LLVMConstInt(g->i64, bytes, 0)); }

LLVMValueRef tape_release_value(RevGen *g, LLVMValueRef n) {
  LLVMTypeRef i8 = LLVMInt8TypeInContext(g->ctx);
  LLVMValueRef top = LLVMBuildLoad2(g->b, g->ptr_type, g->tape_top, "");
  LLVMValueRef base = LLVMBuildLoad2(g->b, g->ptr_type, g->tape_base, "");
  LLVMValueRef empty = LLVMBuildICmp(g->b, LLVMIntEQ, top, base, "");
  if (!LLVMIsAConstantInt(n)) /* a run that recorded nothing (a loop of no iterations) leaves the chunk alone */
    empty = LLVMBuildAnd(g->b, empty, LLVMBuildICmp(g->b, LLVMIntNE, n, LLVMConstInt(g->i64, 0, 0), ""), "");
  LLVMValueRef cur = unless_slow(g, empty, "tape.back", "tape.read", "__parad_rt_tape_back", &g->tape, 1, top);
  LLVMValueRef back = LLVMBuildNeg(g->b, n, "");
  LLVMValueRef at = LLVMBuildGEP2(g->b, i8, cur, &back, 1, "record");
  LLVMBuildStore(g->b, at, g->tape_top);
  return at;
}

/* tape_reserve_value or tape_release_value of n, skipped where `none` holds (a run that reads every load
 * of the record back from copies): a branch rather than a move of no bytes, so that in the loops the
 * optimiser unswitches on the copy flags, the bound check goes and the tape's top leaves the registers.
 * Where skipped, the record is never read or written; its address is the top. */
LLVMValueRef tape_move_unless(RevGen *g, LLVMValueRef none, LLVMValueRef n, bool reserving) {
  LLVMValueRef top = LLVMBuildLoad2(g->b, g->ptr_type, g->tape_top, "");
  LLVMBasicBlockRef skip, move, join;
  rev_diamond(g, none, &skip, &move, &join);
  LLVMPositionBuilderAtEnd(g->b, skip);
  LLVMBuildBr(g->b, join);
  LLVMPositionBuilderAtEnd(g->b, move);
  LLVMValueRef at = reserving ? tape_reserve_value(g, n) : tape_release_value(g, n);
  return join_record(g, join, top, skip, at);
}

unsigned tape_slot_bytes(RevGen *g, LLVMTypeRef t) {
  unsigned long long n = ir_type_size(g->ad->mod, t);
  return (unsigned)((n + 7) & ~7ull);
}

unsigned tape_packed_bytes(RevGen *g, LLVMTypeRef t) {
  unsigned long long n = ir_type_size(g->ad->mod, t);
  return n < 8 && !(n & (n - 1)) ? (unsigned)n : tape_slot_bytes(g, t);
}

/* A slot's alignment: its size below 8 bytes (packed slots, tape_packed_bytes), else 8. */
static unsigned slot_align(RevGen *g, LLVMTypeRef t) {
  unsigned n = tape_packed_bytes(g, t);
  return n < 8 ? n : 8;
}

void tape_store(RevGen *g, LLVMValueRef base, unsigned offset, LLVMValueRef v) {
  LLVMValueRef idx = LLVMConstInt(g->i64, offset, 0);
  LLVMValueRef p = LLVMBuildGEP2(g->b, LLVMInt8TypeInContext(g->ctx), base, &idx, 1, "");
  LLVMValueRef st = LLVMBuildStore(g->b, v, p);
  LLVMSetAlignment(st, slot_align(g, LLVMTypeOf(v)));
}

LLVMValueRef tape_load(RevGen *g, LLVMValueRef base, unsigned offset, LLVMTypeRef t) {
  LLVMValueRef idx = LLVMConstInt(g->i64, offset, 0);
  LLVMValueRef p = LLVMBuildGEP2(g->b, LLVMInt8TypeInContext(g->ctx), base, &idx, 1, "");
  LLVMValueRef ld = LLVMBuildLoad2(g->b, t, p, "");
  LLVMSetAlignment(ld, slot_align(g, t));
  return ld;
}
