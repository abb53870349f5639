/* A map from one LLVM value (or any pointer) to another: the value map of cloning, the tangent of each
 * primal value, the activity of each value. Open addressing, pointer keys, never shrinks. */
#ifndef PARAD_IR_VALUEMAP_H
#define PARAD_IR_VALUEMAP_H

#include <stddef.h>

typedef struct {
  const void **keys;
  void **vals;
  size_t cap, len;
} ValueMap;

void vmap_init(ValueMap *m);
void vmap_free(ValueMap *m);
/* The value stored under key, or NULL. */
void *vmap_get(const ValueMap *m, const void *key);
/* Stores val under key (replacing any earlier value). A NULL val is stored like any other. */
void vmap_put(ValueMap *m, const void *key, void *val);
int vmap_has(const ValueMap *m, const void *key);

#endif
