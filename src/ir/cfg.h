/* Control-flow graph facts the C API does not offer: reverse post-order, predecessors, cycles. */
#ifndef PARAD_IR_CFG_H
#define PARAD_IR_CFG_H

#include <llvm-c/Core.h>
#include <stdbool.h>

#include "ir/util.h"
#include "ir/valuemap.h"

typedef VEC(LLVMBasicBlockRef) BlockList;

/* The blocks reachable from the entry, in reverse post-order: every block comes after the blocks that
 * dominate it, so definitions are visited before their uses (phis aside). */
void cfg_reverse_post_order(LLVMValueRef fn, BlockList *out);

typedef struct {
  BlockList blocks;  /* reachable blocks, reverse post-order; blocks.data[0] is the entry */
  ValueMap index;    /* block (as value) -> its position in blocks, plus one */
  BlockList *preds;  /* per position: the distinct reachable predecessors, in a fixed order */
  bool *cyclic;      /* per position: the block lies on a cycle (a loop, reducible or not) */
  int *idom;         /* per position: the immediate dominator's position (-1 for the entry) */
} Cfg;

void cfg_build(LLVMValueRef fn, Cfg *cfg);
void cfg_free(Cfg *cfg);
/* Position of a block in cfg->blocks, or -1 when unreachable. */
int cfg_index(const Cfg *cfg, LLVMBasicBlockRef bb);
/* Does every path from the entry to b pass through a (a block dominates itself). */
bool cfg_dominates(const Cfg *cfg, LLVMBasicBlockRef a, LLVMBasicBlockRef b);
/* Does the block execute at most once per call. */
bool cfg_runs_once(const Cfg *cfg, LLVMBasicBlockRef bb);

/* A natural loop: entered only through its header. */
typedef struct {
  LLVMBasicBlockRef header;
  bool *body; /* per block position in the cfg: in the loop (the caller frees it) */
  /* when the header has exactly two predecessors, one outside the loop and one inside: them (else NULL) */
  LLVMBasicBlockRef preheader, latch;
} CfgLoop;

typedef VEC(CfgLoop) CfgLoopList;

/* The natural loops, one per header that back edges enter; a cycle entered other than through its
 * header (irreducible) is left out. Headers in reverse post-order: outer loops before inner ones. */
void cfg_natural_loops(const Cfg *cfg, CfgLoopList *out);
/* Is bb (reachable) in the loop. */
bool cfg_in_loop(const Cfg *cfg, const CfgLoop *l, LLVMBasicBlockRef bb);
/* Does block `at` of the loop (its header, latch and body, as CfgLoop's) run in every iteration: the latch
 * cannot be reached from the header, inside the loop, without going through it. */
bool cfg_every_iteration(const Cfg *cfg, const bool *body, LLVMBasicBlockRef header, LLVMBasicBlockRef latch,
                         LLVMBasicBlockRef at);

/* Deletes fn's blocks its entry cannot reach (clang leaves some at -O0: the increment of a loop whose
 * body always breaks), their values replaced by poison and the phis of their successors rebuilt without
 * them. A pass that moves reachable blocks to another function would leave such a block branching there. */
void cfg_drop_unreachable(LLVMValueRef fn);

/* phi with its entries from block `from` moved to block `to`, their values replaced by `value` unless it
 * is NULL, or dropped where `to` is NULL: a new phi in its place (the C API cannot change an entry's
 * block), returned; phi itself where it has no such entry. */
LLVMValueRef cfg_phi_reroute(LLVMValueRef phi, LLVMBasicBlockRef from, LLVMBasicBlockRef to, LLVMValueRef value);

/* phi = phi [start, preheader], [phi + constant step, latch], step not 0, start defined outside the loop
 * (body per block position): an induction variable of the loop; *next is phi + step. */
bool cfg_induction(const Cfg *cfg, const bool *body, LLVMValueRef phi, LLVMBasicBlockRef preheader, LLVMBasicBlockRef latch,
                   LLVMValueRef *start, LLVMValueRef *step, LLVMValueRef *next);

/* Splits at's block before `at`: what precedes it moves to a new block in front, which the block's
 * predecessors now enter (phis move with it, their incoming blocks unchanged; the successors' phis still
 * name the old block, which keeps the terminator). Returns the new block. */
LLVMBasicBlockRef cfg_split_before(LLVMContextRef c, LLVMValueRef at);

#endif
