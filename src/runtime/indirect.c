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
#include <elf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"

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

/* The name of the function at `offset` in an ELF file's symbol table (a function of the executable that
 * is not exported has no dynamic symbol), copied into name; false when there is none. */
static bool symbol_at(const char *path, unsigned long offset, char *name, size_t n) {
  FILE *f = fopen(path, "rb");
  if (!f) return false;
  bool found = false;
  Elf64_Ehdr eh;
  Elf64_Shdr *sh = NULL;
  if (fread(&eh, sizeof eh, 1, f) == 1 && !memcmp(eh.e_ident, ELFMAG, SELFMAG) && eh.e_ident[EI_CLASS] == ELFCLASS64 &&
      eh.e_shentsize == sizeof *sh && eh.e_shnum < 4096 && (sh = calloc(eh.e_shnum, sizeof *sh)) &&
      !fseek(f, (long)eh.e_shoff, SEEK_SET) && fread(sh, sizeof *sh, eh.e_shnum, f) == eh.e_shnum) {
    for (unsigned s = 0; s < eh.e_shnum && !found; s++) {
      if (sh[s].sh_type != SHT_SYMTAB || sh[s].sh_link >= eh.e_shnum) continue;
      Elf64_Shdr *strtab = &sh[sh[s].sh_link];
      for (unsigned long k = 0; k < sh[s].sh_size / sizeof(Elf64_Sym) && !found; k++) {
        Elf64_Sym sym;
        if (fseek(f, (long)(sh[s].sh_offset + k * sizeof sym), SEEK_SET) || fread(&sym, sizeof sym, 1, f) != 1) break;
        if (ELF64_ST_TYPE(sym.st_info) != STT_FUNC || offset < sym.st_value || offset >= sym.st_value + (sym.st_size ? sym.st_size : 1))
          continue;
        if (fseek(f, (long)(strtab->sh_offset + sym.st_name), SEEK_SET) || !fgets(name, (int)n, f)) break;
        found = true;
      }
    }
  }
  free(sh);
  fclose(f);
  return found;
}

/* Names fn: by its dynamic symbol, else by the file's own symbol table, else by its offset in the file
 * (addr2line -f -e FILE OFFSET names it). */
static void refuse(const void *fn, const char *why) {
  Dl_info info = {0};
  char where[1024], name[256], said[768];
  unsigned long offset = 0;
  if (fn && dladdr(fn, &info)) offset = (unsigned long)((const char *)fn - (const char *)info.dli_fbase);
  if (info.dli_sname)
    __parad_rt_quoted_name(where, sizeof where, info.dli_sname);
  else if (info.dli_fname && symbol_at(info.dli_fname, offset, name, sizeof name))
    __parad_rt_quoted_name(said, sizeof said, name), snprintf(where, sizeof where, "%s (in %s)", said, info.dli_fname);
  else if (info.dli_fname)
    snprintf(where, sizeof where, "the function at offset %#lx of %s", offset, info.dli_fname);
  else
    snprintf(where, sizeof where, "%p", fn);
  fprintf(stderr, "parad: a derivative reached a call through a function pointer to %s, %s\n", where, why);
  fflush(NULL);
  _Exit(1); /* the derivative cannot go on; no handlers: other threads may be in the middle of it */
}

/* Each thread's last answers, by the key's address (each call site passes a constant string of its
 * module): a loop calling through one pointer asks the same every iteration, and hashing and comparing
 * the key took half of a gradient through a table of flux limiters. Only found derivatives are kept; a
 * refusal stops the program anyway. */
enum { RECENT = 64 };
static _Thread_local struct {
  const void *fn;
  const char *key;
  const ParadDerivative *d;
} recent[RECENT];

/* The derivative of fn for the pattern: which = 0 for the tangent or augmented function, 1 for the
 * reverse function (the generated code compares the module's own functions first: ad/indirect.c). */
void *__parad_rt_derivative(const void *fn, const char *key, int which) {
  size_t r = (((uintptr_t)fn >> 4) ^ ((uintptr_t)key >> 3)) & (RECENT - 1);
  if (recent[r].fn == fn && recent[r].key == key && fn) return which ? recent[r].d->second : recent[r].d->first;
  if (!fn) refuse(fn, "which is null");
  const ParadDerivative *d = capacity ? *find(fn, key) : NULL;
  Dl_info info = {0};
  if (!d && dladdr(fn, &info) && info.dli_fname && (strstr(info.dli_fname, "/libc.so") || strstr(info.dli_fname, "/libm.so")))
    refuse(fn, "a function of the C library, which Parad differentiates where the program calls it by name "
               "(free, malloc, sin...): pass a function of the program that calls it instead (a wrapper, "
               "`static void release(void *p) { free(p); }`, compiled by parad-cc)");
  if (!d)
    refuse(fn, "for which Parad generated no derivative: was it compiled by plain clang, or is it in a library "
               "without a derivative rule? Compile it with parad-cc (and link with parad-cc), or register a "
               "custom derivative");
  if (d->refusal) refuse(fn, d->refusal);
  recent[r].fn = fn, recent[r].key = key, recent[r].d = d;
  return which ? d->second : d->first;
}
