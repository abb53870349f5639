/* The paradigms' rows (ad/paradigms.h). */
#include "ad/paradigms.h"

#include <stddef.h>

static const Paradigm paradigms[] = {
    {CALL_OMP, "an OpenMP construct", fwd_omp, aug_omp, rev_omp},
    {CALL_MPI, "MPI communication", fwd_mpi, aug_mpi, rev_mpi},
    {CALL_INDIRECT, "a call through a pointer", fwd_indirect, aug_indirect, rev_indirect},
};

const Paradigm *paradigm_of(CallKind kind) {
  for (size_t i = 0; i < sizeof paradigms / sizeof paradigms[0]; i++)
    if (paradigms[i].kind == kind) return &paradigms[i];
  return NULL;
}
