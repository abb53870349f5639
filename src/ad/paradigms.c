/* The paradigms' rows (ad/paradigms.h). */
#include "ad/paradigms.h"

#include <stddef.h>

#include "mpi/mpi.h"
#include "omp/omp.h"

static bool omp_owns(LLVMValueRef call, CallKind *kind) {
  *kind = CALL_OMP;
  return omp_is_runtime_call(call);
}

/* MPI's calls that only ask (MPI_Comm_rank, MPI_Wtime) have no derivative */
static bool mpi_owns(LLVMValueRef call, CallKind *kind) {
  const MpiCall *mpi = mpi_call_of(call);
  *kind = mpi && mpi->kind == MPI_CALL_INACTIVE ? CALL_INACTIVE : CALL_MPI;
  return mpi != NULL;
}

static const Paradigm paradigms[] = {
    {CALL_OMP, omp_owns, "an OpenMP construct", fwd_omp, aug_omp, rev_omp},
    {CALL_MPI, mpi_owns, "MPI communication", fwd_mpi, aug_mpi, rev_mpi},
    {CALL_INDIRECT, NULL, "a call through a pointer", fwd_indirect, aug_indirect, rev_indirect},
};

bool paradigm_owns(LLVMValueRef call, CallKind *kind) {
  for (size_t i = 0; i < sizeof paradigms / sizeof paradigms[0]; i++)
    if (paradigms[i].owns && paradigms[i].owns(call, kind)) return true;
  return false;
}

const Paradigm *paradigm_of(CallKind kind) {
  for (size_t i = 0; i < sizeof paradigms / sizeof paradigms[0]; i++)
    if (paradigms[i].kind == kind) return &paradigms[i];
  return NULL;
}
