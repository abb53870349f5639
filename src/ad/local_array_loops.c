/* Short loops over small local arrays, marked for full unrolling before differentiating (see the header).
 * LLVM's full unrolling decides for every loop it sees by its own cost model; to unroll only these, every
 * other loop is held for the while (llvm.loop.unroll.disable) and released after, each hint tagged as
 * Parad's so that the program's own hints (#pragma nounroll) stay. */
#include "ad/local_array_loops.h"

#include <llvm-c/DebugInfo.h>
#include <stdlib.h>
#include <string.h>

#include "ad/request.h"
#include "ir/cfg.h"
#include "ir/ir.h"
#include "ir/valuemap.h"

enum {
  MOST_TRIPS = 32,         /* a loop of more is no small array's */
  MOST_ARRAY_BYTES = 256,  /* a hexahedron's 3 x 8 coordinates */
  MOST_UNROLLED = 1000,    /* instructions a marked loop may become, its inner loops unrolled too */
};

/* The uses of a small local array's address, through its element addresses, are loads, stores into it,
 * lifetime markers and memory intrinsics (what SROA turns into values once the indices are constants);
 * the element addresses with an index computed by an instruction go to *indexed. */
static bool promotable(LLVMValueRef p, ValueList *indexed) {
  for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsALoadInst(user)) continue;
    if (LLVMIsAStoreInst(user)) {
      if (LLVMGetOperand(user, 0) == p) return false; /* its address escapes */
      continue;
    }
    if (LLVMIsAGetElementPtrInst(user) && LLVMGetOperand(user, 0) == p) {
      for (unsigned i = 1, n = (unsigned)LLVMGetNumOperands(user); i < n; i++)
        if (LLVMIsAInstruction(LLVMGetOperand(user, i))) {
          vec_push(indexed, user);
          break;
        }
      if (!promotable(user, indexed)) return false;
      continue;
    }
    if (ir_is_call(user) && (ir_is_lifetime_marker(user) || !strncmp(ir_called_name(user), "llvm.memset.", 12) ||
                             !strncmp(ir_called_name(user), "llvm.memcpy.", 12) || !strncmp(ir_called_name(user), "llvm.memmove.", 13)))
      continue;
    return false;
  }
  return true;
}

typedef struct {
  LLVMModuleRef m;
  Cfg cfg;
  CfgLoopList loops; /* outer loops before inner ones */
  unsigned *trips;   /* per loop: its constant trip count, 0 when unknown or more than MOST_TRIPS */
  bool *chosen;      /* per loop: to unroll */
  VEC(ValueList) arrays; /* per small local array SROA could make values: its element addresses with a computed index */
} Func;

static bool in_body(const Func *f, size_t loop, LLVMValueRef v) {
  if (!LLVMIsAInstruction(v)) return false;
  int k = cfg_index(&f->cfg, LLVMGetInstructionParent(v));
  return k >= 0 && f->loops.data[loop].body[k];
}

static bool holds(LLVMIntPredicate p, unsigned long long a, unsigned long long b, unsigned width) {
  long long sa = (long long)(a << (64 - width)) >> (64 - width), sb = (long long)(b << (64 - width)) >> (64 - width);
  switch (p) {
  case LLVMIntEQ: return a == b;
  case LLVMIntNE: return a != b;
  case LLVMIntUGT: return a > b;
  case LLVMIntUGE: return a >= b;
  case LLVMIntULT: return a < b;
  case LLVMIntULE: return a <= b;
  case LLVMIntSGT: return sa > sb;
  case LLVMIntSGE: return sa >= sb;
  case LLVMIntSLT: return sa < sb;
  case LLVMIntSLE: return sa <= sb;
  }
  return false;
}

/* An induction variable of loop l (on its header) counting from a constant: its step and next value. */
static bool counter(const Func *f, const CfgLoop *l, LLVMValueRef phi, LLVMValueRef *start, LLVMValueRef *step, LLVMValueRef *next) {
  return l->preheader && l->latch && LLVMGetInstructionParent(phi) == l->header &&
         cfg_induction(&f->cfg, l->body, phi, l->preheader, l->latch, start, step, next) && LLVMIsAConstantInt(*start);
}

/* How many times the loop's body runs, when its only exit is a test of a counter against a constant in
 * its latch or header and that is at most MOST_TRIPS; else 0. */
static unsigned constant_trips(const Func *f, const CfgLoop *l) {
  if (!l->preheader || !l->latch) return 0;
  LLVMBasicBlockRef exiting = NULL;
  for (size_t k = 0; k < f->cfg.blocks.len; k++) {
    if (!l->body[k]) continue;
    LLVMValueRef t = LLVMGetBasicBlockTerminator(f->cfg.blocks.data[k]);
    for (unsigned s = 0, n = LLVMGetNumSuccessors(t); s < n; s++) {
      if (cfg_in_loop(&f->cfg, l, LLVMGetSuccessor(t, s))) continue;
      if (exiting && exiting != f->cfg.blocks.data[k]) return 0;
      exiting = f->cfg.blocks.data[k];
    }
  }
  if (!exiting || (exiting != l->latch && exiting != l->header)) return 0;
  LLVMValueRef br = LLVMGetBasicBlockTerminator(exiting);
  if (!LLVMIsABranchInst(br) || !LLVMIsConditional(br)) return 0;
  LLVMValueRef test = LLVMGetCondition(br);
  if (!LLVMIsAICmpInst(test)) return 0;
  bool exit_when = !cfg_in_loop(&f->cfg, l, LLVMGetSuccessor(br, 0));
  LLVMIntPredicate pred = LLVMGetICmpPredicate(test);
  LLVMValueRef lhs = LLVMGetOperand(test, 0), rhs = LLVMGetOperand(test, 1);
  if (LLVMIsAConstantInt(lhs)) {
    LLVMValueRef t = lhs;
    lhs = rhs, rhs = t, pred = ir_icmp_swapped(pred);
  }
  if (!LLVMIsAConstantInt(rhs)) return 0;
  for (LLVMValueRef phi = LLVMGetFirstInstruction(l->header); phi && LLVMIsAPHINode(phi); phi = LLVMGetNextInstruction(phi)) {
    LLVMValueRef start, step, next;
    if (!counter(f, l, phi, &start, &step, &next) || (lhs != phi && lhs != next)) continue;
    unsigned width = LLVMGetIntTypeWidth(LLVMTypeOf(phi));
    if (width > 64) return 0;
    unsigned long long mask = width == 64 ? ~0ULL : (1ULL << width) - 1, s = LLVMConstIntGetZExtValue(step);
    unsigned long long v = LLVMConstIntGetZExtValue(start), bound = LLVMConstIntGetZExtValue(rhs);
    for (unsigned t = 0; t <= MOST_TRIPS; t++, v = (v + s) & mask) {
      unsigned long long tested = lhs == phi ? v : (v + s) & mask;
      if (holds(pred, tested, bound, width) == exit_when) return exiting == l->latch ? t + 1 : t;
    }
    return 0;
  }
  return 0;
}

/* Is v a constant once the chosen loops are unrolled: computed by arithmetic from constants and the
 * counters of chosen loops. */
static bool constant_unrolled(const Func *f, LLVMValueRef v, int depth) {
  if (LLVMIsAConstantInt(v)) return true;
  if (!LLVMIsAInstruction(v) || depth > 8) return false;
  if (LLVMIsAPHINode(v)) {
    for (size_t k = 0; k < f->loops.len; k++) {
      LLVMValueRef start, step, next;
      if (f->chosen[k] && counter(f, &f->loops.data[k], v, &start, &step, &next)) return true;
    }
    return false;
  }
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl: case LLVMLShr: case LLVMAShr: case LLVMAnd: case LLVMOr:
  case LLVMXor: case LLVMURem: case LLVMSRem: case LLVMUDiv: case LLVMSDiv: case LLVMZExt: case LLVMSExt: case LLVMTrunc:
    for (int i = 0, n = LLVMGetNumOperands(v); i < n; i++)
      if (!constant_unrolled(f, LLVMGetOperand(v, i), depth + 1)) return false;
    return true;
  default:
    return false;
  }
}

static unsigned instructions_in(LLVMBasicBlockRef bb) {
  unsigned n = 0;
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) n += !ir_is_debug_intrinsic(i);
  return n;
}

/* The loops to unroll for the arrays still in f->arrays: inner loops first (an outer loop's size counts
 * its inner loops unrolled), each with a computed index into such an array that varies in it, and no
 * loop left inside once unrolled. An outer loop over rows kept whole around an inner loop it does not
 * unroll (PolyBench's doitgen: sum[p] over a loop of s) would leave a copy of the inner loop per row,
 * each recording what the one loop's reverse sweep reads back from a snapshot of the row. */
static void choose(Func *f) {
  for (size_t k = f->loops.len; k-- > 0;) {
    const CfgLoop *l = &f->loops.data[k];
    f->chosen[k] = false;
    bool indexes = false;
    for (size_t a = 0; a < f->arrays.len && !indexes && f->trips[k] > 1; a++)
      for (size_t g = 0; g < f->arrays.data[a].len && !indexes; g++) {
        LLVMValueRef gep = f->arrays.data[a].data[g];
        if (!in_body(f, k, gep)) continue;
        for (unsigned i = 1, n = (unsigned)LLVMGetNumOperands(gep); i < n && !indexes; i++)
          indexes = in_body(f, k, LLVMGetOperand(gep, i));
      }
    if (!indexes) continue;
    bool whole = true; /* every loop inside is unrolled too */
    for (size_t inner = k + 1; inner < f->loops.len && whole; inner++)
      whole = f->chosen[inner] || !cfg_in_loop(&f->cfg, l, f->loops.data[inner].header);
    unsigned long long size = 0;
    for (size_t b = 0; b < f->cfg.blocks.len && whole; b++) {
      if (!l->body[b]) continue;
      unsigned long long copies = 1;
      for (size_t inner = k + 1; inner < f->loops.len; inner++)
        if (f->loops.data[inner].body[b] && cfg_in_loop(&f->cfg, l, f->loops.data[inner].header)) copies *= f->trips[inner];
      size += copies * instructions_in(f->cfg.blocks.data[b]);
    }
    f->chosen[k] = whole && size * f->trips[k] <= MOST_UNROLLED;
  }
}

/* The latch's terminator, which carries a loop's hints. */
static LLVMValueRef hints_at(const CfgLoop *l) { return LLVMGetBasicBlockTerminator(l->latch); }

/* fn's loops to unroll go to *marked (only if it is differentiated), the others to *held (their latches'
 * terminators). An array some of whose indices would stay computed after unrolling stays in memory: it
 * asks for no loop. */
static void choose_loops(LLVMModuleRef m, LLVMValueRef fn, bool differentiated, ValueList *marked, ValueList *held) {
  Func f = {.m = m};
  cfg_build(fn, &f.cfg);
  cfg_natural_loops(&f.cfg, &f.loops);
  f.trips = xcalloc(f.loops.len + 1, sizeof *f.trips);
  f.chosen = xcalloc(f.loops.len + 1, sizeof *f.chosen);
  for (size_t k = 0; k < f.loops.len; k++) f.trips[k] = constant_trips(&f, &f.loops.data[k]);
  for (LLVMValueRef i = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(fn)); i && f.loops.len && differentiated;
       i = LLVMGetNextInstruction(i)) {
    if (!LLVMIsAAllocaInst(i) || !LLVMIsAConstantInt(LLVMGetOperand(i, 0)) || LLVMConstIntGetZExtValue(LLVMGetOperand(i, 0)) != 1)
      continue;
    LLVMTypeRef t = LLVMGetAllocatedType(i);
    if (ir_type_size(m, t) > MOST_ARRAY_BYTES) continue; /* an array, or a record indexed as one (&s.x)[k] */
    ValueList indexed = {0};
    if (promotable(i, &indexed) && indexed.len) vec_push(&f.arrays, indexed);
    else vec_free(&indexed);
  }
  for (bool again = f.arrays.len > 0; again;) {
    choose(&f);
    again = false;
    for (size_t a = 0; a < f.arrays.len; a++) {
      bool constant = true;
      for (size_t g = 0; g < f.arrays.data[a].len && constant; g++)
        for (unsigned i = 1, n = (unsigned)LLVMGetNumOperands(f.arrays.data[a].data[g]); i < n && constant; i++)
          constant = constant_unrolled(&f, LLVMGetOperand(f.arrays.data[a].data[g], i), 0);
      if (constant) continue;
      vec_free(&f.arrays.data[a]);
      f.arrays.data[a--] = f.arrays.data[--f.arrays.len];
      again = true;
    }
  }
  for (size_t k = 0; k < f.loops.len; k++) {
    if (!f.loops.data[k].latch) continue;
    LLVMValueRef at = hints_at(&f.loops.data[k]);
    if (!ir_list_has(marked, at) && !ir_list_has(held, at)) vec_push(f.chosen[k] && f.arrays.len ? marked : held, at);
  }
  for (size_t a = 0; a < f.arrays.len; a++) vec_free(&f.arrays.data[a]);
  vec_free(&f.arrays);
  free(f.trips);
  free(f.chosen);
  for (size_t k = 0; k < f.loops.len; k++) free(f.loops.data[k].body);
  vec_free(&f.loops);
  cfg_free(&f.cfg);
}

unsigned local_array_loops_mark(LLVMModuleRef m) {
  ValueList marked = {0}, held = {0};
  ValueMap reached;
  vmap_init(&reached);
  request_reached_functions(m, &reached); /* only their loops are unrolled */
  unsigned optnone = ir_attr_kind("optnone");
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    if (LLVMCountBasicBlocks(fn) && !LLVMGetEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, optnone))
      choose_loops(m, fn, vmap_has(&reached, fn), &marked, &held);
  vmap_free(&reached);
  unsigned count = (unsigned)marked.len;
  if (count) {
    LLVMContextRef c = LLVMGetModuleContext(m);
    /* in the flag form, which clang does not write (it writes the name alone): Parad's, to take back */
    LLVMMetadataRef full = ir_loop_flag(c, "llvm.loop.unroll.full", true), hold = ir_loop_flag(c, "llvm.loop.unroll.disable", true);
    for (size_t i = 0; i < marked.len; i++) ir_rewrite_loop_hints(marked.data[i], NULL, NULL, full);
    for (size_t i = 0; i < held.len; i++) ir_rewrite_loop_hints(held.data[i], NULL, NULL, hold);
  }
  vec_free(&marked);
  vec_free(&held);
  return count;
}

void local_array_loops_release(LLVMModuleRef m) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMMetadataRef full = ir_loop_flag(c, "llvm.loop.unroll.full", true), hold = ir_loop_flag(c, "llvm.loop.unroll.disable", true);
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
      LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
      if (t && LLVMGetMetadata(t, ir_loop_kind(c))) ir_rewrite_loop_hints(t, full, hold, NULL);
    }
}
