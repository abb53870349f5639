/* A generic stack library: elements of a size given when the stack is made, copied in and out whole. Kept
 * calls (noinline), as a library's larger functions stay after the link's inlining. */
#include <stdlib.h>
#include <string.h>

#include "stack.h"

__attribute__((noinline)) void push(Stack *s, const void *e) {
  if (s->len == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 4;
    s->data = realloc(s->data, s->cap * s->size);
  }
  memcpy(s->data + s->len++ * s->size, e, s->size);
}

__attribute__((noinline)) void pop(Stack *s, void *e) { memcpy(e, s->data + --s->len * s->size, s->size); }
