/* The tape budget: parad_set_tape_limit(bytes), or PARAD_TAPE_LIMIT in the environment (a number of bytes
 * with an optional K, M or G, powers of 1024), caps the bytes that all reverse-mode tapes of the process
 * hold at once (their chunks; not the pool of chunks kept for later gradients). Without a budget nothing
 * is counted against anything and the speed is as before. Loops marked with __parad_checkpoint_loop()
 * keep their snapshots under it (checkpoint.c); a forward sweep that would still go over it stops the
 * program with the figures, rather than run the machine out of memory. */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "tape.h"

static size_t limit;          /* 0: none */
static size_t held;           /* bytes of chunks the tapes hold now */
static int limit_read;        /* the environment read (once) */

/* "512M" -> 512 << 20 into *out; false for what is not a size ("0": no budget, as parad.h says) */
static bool parse_size(const char *s, size_t *out) {
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (end == s) return false;
  while (isspace((unsigned char)*end)) end++;
  int shift = 0;
  switch (toupper((unsigned char)*end)) {
  case 'K': shift = 10; end++; break;
  case 'M': shift = 20; end++; break;
  case 'G': shift = 30; end++; break;
  default: break;
  }
  if (toupper((unsigned char)*end) == 'I') end++; /* KiB, MiB, GiB */
  if (toupper((unsigned char)*end) == 'B') end++;
  if (*end || (shift && v > (~0ull >> shift))) return false;
  *out = (size_t)(v << shift);
  return true;
}

static void read_environment(void) {
  if (__atomic_load_n(&limit_read, __ATOMIC_ACQUIRE)) return;
  const char *s = getenv("PARAD_TAPE_LIMIT");
  if (s && *s) {
    size_t v;
    if (!parse_size(s, &v)) {
      fprintf(stderr, "parad runtime: PARAD_TAPE_LIMIT=%s is not a size (a number of bytes, with K, M or G)\n", s);
      exit(70);
    }
    __atomic_store_n(&limit, v, __ATOMIC_RELAXED);
  }
  __atomic_store_n(&limit_read, 1, __ATOMIC_RELEASE);
}

void parad_set_tape_limit(size_t bytes) {
  read_environment(); /* the program's call wins over the environment */
  __atomic_store_n(&limit, bytes, __ATOMIC_RELAXED);
}

/* The most held since __parad_rt_tape_budget_watch (a gradient's, for ad/checkpoint_auto.c's choice). */
static size_t held_most;

size_t __parad_rt_tape_budget_watch(void) {
  size_t now = __atomic_load_n(&held, __ATOMIC_RELAXED);
  __atomic_store_n(&held_most, now, __ATOMIC_RELAXED);
  return now;
}

size_t __parad_rt_tape_budget_watched(size_t since) {
  size_t most = __atomic_load_n(&held_most, __ATOMIC_RELAXED);
  return most > since ? most - since : 0;
}

void __parad_rt_tape_budget_take(size_t bytes) {
  read_environment();
  size_t now = __atomic_add_fetch(&held, bytes, __ATOMIC_RELAXED), cap = __atomic_load_n(&limit, __ATOMIC_RELAXED);
  for (size_t most = __atomic_load_n(&held_most, __ATOMIC_RELAXED);
       now > most && !__atomic_compare_exchange_n(&held_most, &most, now, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED);) {
  }
  while (cap && now > cap && __parad_rt_ckpt_relieve()) now = __atomic_load_n(&held, __ATOMIC_RELAXED);
  if (cap && now > cap) {
    fprintf(stderr,
            "parad runtime: the reverse-mode tapes would hold %zu bytes, over the tape budget of %zu bytes "
            "(parad_set_tape_limit or PARAD_TAPE_LIMIT): raise the budget, or mark the time loop with "
            "__parad_checkpoint_loop(); a marked loop, too, needs room for one step's tape and a few snapshots "
            "of its state\n",
            now, cap);
    exit(70);
  }
}

void __parad_rt_tape_budget_give(size_t bytes) { __atomic_sub_fetch(&held, bytes, __ATOMIC_RELAXED); }

size_t __parad_rt_tape_budget_limit(void) {
  read_environment();
  return __atomic_load_n(&limit, __ATOMIC_RELAXED);
}

size_t __parad_rt_tape_budget_held(void) { return __atomic_load_n(&held, __ATOMIC_RELAXED); }
