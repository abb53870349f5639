#include <stddef.h>

typedef struct {
  char *data;
  size_t size, len, cap;
} Stack;

void push(Stack *s, const void *e);
void pop(Stack *s, void *e);
