#include "ir/cfg.h"

#include <stdlib.h>

#include "ir/valuemap.h"

typedef struct {
  LLVMBasicBlockRef bb;
  unsigned next_succ;
} Frame;

void cfg_reverse_post_order(LLVMValueRef fn, BlockList *out) {
  out->len = 0;
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
  if (!entry) return;
  /* Iterative depth-first search: functions with long chains of blocks must not overflow the stack. */
  ValueMap seen;
  vmap_init(&seen);
  VEC(Frame) stack = {0};
  BlockList post = {0};
  vmap_put(&seen, entry, entry);
  vec_push(&stack, ((Frame){entry, 0}));
  while (stack.len) {
    Frame *f = &stack.data[stack.len - 1];
    LLVMValueRef term = LLVMGetBasicBlockTerminator(f->bb);
    unsigned n = term ? LLVMGetNumSuccessors(term) : 0;
    if (f->next_succ < n) {
      LLVMBasicBlockRef s = LLVMGetSuccessor(term, f->next_succ++);
      if (!vmap_has(&seen, s)) {
        vmap_put(&seen, s, s);
        vec_push(&stack, ((Frame){s, 0}));
      }
    } else {
      vec_push(&post, f->bb);
      stack.len--;
    }
  }
  for (size_t i = post.len; i-- > 0;) vec_push(out, post.data[i]);
  vec_free(&post);
  vec_free(&stack);
  vmap_free(&seen);
}
