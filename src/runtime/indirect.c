/* Derivatives of functions called through pointers.
 *
 * A function pointer is not data: its shadow is the pointer itself, and a call through it in
 * differentiated code asks this table for the derivative of whatever function it points to, for the
 * call's activity pattern (a key such as "rev|dco|100": mode, one letter per argument, flags). Each
 * module registers, from a constructor, the derivatives it generated for the functions whose address it
 * takes; a function no module registered for (compiled by plain clang, a library without a rule) is an
 * error naming it, never a silently wrong derivative.
 *
 * Registration happens before main, one module after the other; lookups only read, from any thread. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One entry of a module's table (the generated code lays it out the same way). */
typedef struct {
  const void *fn;      /* the function */
  const char *key;     /* the pattern */
  void *first, *second; /* forward: the tangent function; reverse: the augmented and reverse functions */
  const char *refusal; /* why there is none (the generator's words), or NULL */
} ParadDerivative;

static const ParadDerivative **slots; /* open addressing on (fn, key) */
static size_t capacity, count;

static uint64_t hash(const void *fn, const char *key) {
  uint64_t h = 1469598103934665603ull ^ (uint64_t)(uintptr_t)fn;
  for (const char *p = key; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211ull;
  return h ^ (h >> 29);
}

static void grow(void) {
  size_t old = capacity;
  const ParadDerivative **was = slots;
  capacity = capacity ? 2 * capacity : 256;
  slots = calloc(capacity, sizeof *slots);
  if (!slots) {
    fputs("parad runtime: out of memory for the table of derivatives\n", stderr);
    abort();
  }
  for (size_t i = 0; i < old; i++) {
    if (!was[i]) continue;
    size_t k = hash(was[i]->fn, was[i]->key) & (capacity - 1);
    while (slots[k]) k = (k + 1) & (capacity - 1);
    slots[k] = was[i];
  }
  free(was);
}

static const ParadDerivative **find(const void *fn, const char *key) {
  size_t k = hash(fn, key) & (capacity - 1);
  for (; slots[k]; k = (k + 1) & (capacity - 1))
    if (slots[k]->fn == fn && !strcmp(slots[k]->key, key)) return &slots[k];
  return &slots[k];
}

void __parad_rt_register_derivatives(const ParadDerivative *table, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (2 * (count + 1) > capacity) grow();
    const ParadDerivative **s = find(table[i].fn, table[i].key);
    /* a function registered by two modules (an inline function in each): the first derivative serves */
    if (*s && (*s)->refusal && !table[i].refusal) *s = &table[i];
    if (*s) continue;
    *s = &table[i];
    count++;
  }
}

/* Names fn as well as the dynamic symbols allow: a function of the executable that is not exported has
 * no name there, only its offset in the file (addr2line -f -e FILE OFFSET names it). */
static void refuse(const void *fn, const char *why) {
  Dl_info info = {0};
  char where[512];
  if (fn && dladdr(fn, &info) && info.dli_sname)
    snprintf(where, sizeof where, "'%s'", info.dli_sname);
  else if (fn && info.dli_fname)
    snprintf(where, sizeof where, "the function at offset %#lx of %s", (unsigned long)((const char *)fn - (const char *)info.dli_fbase),
             info.dli_fname);
  else
    snprintf(where, sizeof where, "%p", fn);
  fprintf(stderr, "parad: a derivative reached a call through a function pointer to %s, %s\n", where, why);
  abort();
}

/* The derivative of fn for the pattern: which = 0 for the tangent or augmented function, 1 for the
 * reverse function. */
void *__parad_rt_derivative(const void *fn, const char *key, int which) {
  if (!fn) refuse(fn, "which is null");
  const ParadDerivative *d = capacity ? *find(fn, key) : NULL;
  if (!d)
    refuse(fn, "for which Parad generated no derivative: was it compiled by plain clang, or is it in a library "
               "without a derivative rule? Compile it with parad-cc (and link with parad-cc), or register a "
               "custom derivative");
  if (d->refusal) refuse(fn, d->refusal);
  return which ? d->second : d->first;
}
