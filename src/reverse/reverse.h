/* The reverse (adjoint) generator.
 *
 * For a function f and an activity pattern (one letter per parameter: 'c' constant, 'd'/'n' pointer
 * with a shadow, 'o' active scalar) it generates a pair:
 *   aug   f's parameters, each duplicated pointer followed by its shadow -> f's result (and the shadow
 *         of a returned pointer). Runs f and records on the current tape what rev needs.
 *   rev   (the adjoint of f's result, when it is an active float) -> the adjoints of the 'o' parameters,
 *         in order (one value, a struct of them, or nothing). Reads the tape back and adds the
 *         adjoints of memory into the shadows.
 * A gradient is: begin a tape, aug, rev with adjoint 1, end the tape (rev_request.c). */
#ifndef PARAD_REVERSE_REVERSE_H
#define PARAD_REVERSE_REVERSE_H

#include <llvm-c/Core.h>
#include <stdbool.h>

#include "ad/ad.h"
#include "ad/request.h"

typedef struct {
  LLVMValueRef aug, rev;
  bool ret_active;  /* rev takes the adjoint of the result */
  bool ret_shadow;  /* aug returns {result, shadow of result} */
} RevPair;

/* What a pair is for, besides the pattern. */
typedef struct {
  bool ret_active, ret_shadow; /* as in RevPair */
  bool top_level; /* serves a gradient call whose reverse sweep directly follows its forward sweep (so
                     memory the function only reads can be read again in the reverse sweep) */
  bool parallel;  /* runs on the threads of a parallel region: adjoints of memory other threads may also
                     reach are added atomically */
  bool region_body; /* the function a parallel region runs (once per thread): see rev_shared.c */
  bool task_body;   /* the entry of an OpenMP task, run on a tape of the task's own: see rev_shared.c */
  bool one_thread;  /* called inside a parallel region by one thread at a time (from a single or master
                       block): it may make MPI calls, whose adjoints that thread makes in turn */
  /* Bit i: parameter i points to memory that holds the same values from the pair's forward sweep to its
   * reverse sweep (analysis/unwritten.h), so its loads are repeated rather than recorded. unwritten_slots:
   * so does the memory the pointers read from parameter i's memory point to (a stack slot of a variable
   * shared with a parallel region; a record whose arrays a `noalias` copy's check found unwritten,
   * ad/apart.h). unwritten_held: so does the memory reached by reading a pointer twice from parameter i's
   * memory (a record held in a slot shared with a region; a record's record). */
  unsigned long long unwritten, unwritten_slots, unwritten_held;
  /* Bit i: the module's global variable i (in the module's order, the first 64) holds the same values from
   * the pair's forward sweep to its reverse sweep: a table a top-level gradient's function filled before
   * the call, read in a parallel region or a helper. */
  unsigned long long unwritten_globals;
  /* Bit i: parameter i points into a shared object of the parallel region that calls, which the pair only
   * reads: its reads are noted and their adjoints added as the region's plan says (rev_redirect.c). */
  unsigned long long redirected;
  /* Bit i: parameter i points into memory only the calling thread reaches, which holds no pointer to
   * memory others reach (its buffer, rev_thread_own): adjoints there are added plainly. */
  unsigned long long own;
} PairKind;

/* The pair for fn and pattern, generated on first use. False after an error (reported). */
bool rev_pair(AdModule *ad, LLVMValueRef fn, const char *pattern, PairKind kind, RevPair *out);

/* The types of the pair of a function of type fty (see above), its 'o' parameters floats. */
void rev_pair_types(LLVMTypeRef fty, const char *pattern, PairKind kind, LLVMTypeRef *aug, LLVMTypeRef *rev);

/* Lowers a canonical reverse, augmented-forward or split-reverse request. Returns errors. */
int rev_lower_request(AdModule *ad, const Request *r);

/* After the optimiser: in the reverse sweeps, a block whose adjoints are zero from some of its
 * predecessors gets a copy for them without the updates of memory that add those zeros
 * (rev_zero_paths.c). Returns the copies made. */
unsigned rev_skip_zero_updates(LLVMModuleRef m);

#endif
