#include "ir/valuemap.h"

#include <stdint.h>
#include <stdlib.h>

#include "ir/util.h"

static size_t slot_of(const void *key, size_t cap) {
  uintptr_t h = (uintptr_t)key;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  return (size_t)h & (cap - 1);
}

void vmap_init(ValueMap *m) {
  m->cap = 64;
  m->len = 0;
  m->keys = xcalloc(m->cap, sizeof *m->keys);
  m->vals = xcalloc(m->cap, sizeof *m->vals);
}

void vmap_free(ValueMap *m) {
  free(m->keys);
  free(m->vals);
  m->keys = NULL;
  m->vals = NULL;
  m->cap = m->len = 0;
}

static size_t find(const ValueMap *m, const void *key) {
  size_t i = slot_of(key, m->cap);
  while (m->keys[i] && m->keys[i] != key) i = (i + 1) & (m->cap - 1);
  return i;
}

static void grow(ValueMap *m) {
  ValueMap bigger = {xcalloc(m->cap * 2, sizeof(void *)), xcalloc(m->cap * 2, sizeof(void *)),
                     m->cap * 2, 0};
  for (size_t i = 0; i < m->cap; i++)
    if (m->keys[i]) vmap_put(&bigger, m->keys[i], m->vals[i]);
  vmap_free(m);
  *m = bigger;
}

void *vmap_get(const ValueMap *m, const void *key) {
  if (!m->cap) return NULL;
  size_t i = find(m, key);
  return m->keys[i] ? m->vals[i] : NULL;
}

int vmap_has(const ValueMap *m, const void *key) {
  return m->cap && m->keys[find(m, key)] != NULL;
}

void vmap_put(ValueMap *m, const void *key, void *val) {
  if (!m->cap) vmap_init(m);
  if (2 * (m->len + 1) > m->cap) grow(m);
  size_t i = find(m, key);
  if (!m->keys[i]) {
    m->keys[i] = key;
    m->len++;
  }
  m->vals[i] = val;
}
