/* Control-flow graph walks the C API does not offer. */
#ifndef PARAD_IR_CFG_H
#define PARAD_IR_CFG_H

#include <llvm-c/Core.h>

#include "ir/util.h"

typedef VEC(LLVMBasicBlockRef) BlockList;

/* The blocks reachable from the entry, in reverse post-order: every block comes after the blocks that
 * dominate it, so definitions are visited before their uses (phis aside). */
void cfg_reverse_post_order(LLVMValueRef fn, BlockList *out);

#endif
