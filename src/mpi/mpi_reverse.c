/* MPI calls in reverse mode. In the forward sweep a call that may carry derivatives becomes
 * __parad_mpi_aug_NAME: it does what the call did and returns a record of what its adjoint needs (the
 * shadows, counts, peers, requests), kept on the tape like a custom gradient's tape. In the reverse
 * sweep, __parad_mpi_rev_NAME(record) does the transposed communication and frees the record
 * (src/runtime/mpi.c says what each adjoint is). */
#include "mpi/mpi.h"
#include "omp/omp.h"
#include "reverse/rev_internal.h"
#include "reverse/reverse.h"

#include <stdlib.h>

/* Whether the call goes through the runtime; reports what cannot. */
static bool differentiated(RevGen *g, LLVMValueRef call, const MpiCall *c, bool report) {
  if (!mpi_may_carry_derivatives(c, call) && c->kind != MPI_CALL_RELEASE) {
    if (report && c->kind == MPI_CALL_UNSUPPORTED && (activity_any_active_argument(g->act, call, NULL) || mpi_matched_receive(call)))
      rev_error(g, call, MPI_UNSUPPORTED_MESSAGE, ir_called_name(call));
    return false;
  }
  if ((g->parallel || g->region_body) && !g->one_thread && !omp_in_one_thread_block(call)) {
    if (report)
      rev_error(g, call, "cannot differentiate %s inside an OpenMP parallel region in reverse mode, except in a single "
                         "or master block or one that `omp_get_thread_num() == k` guards (one thread at a time)", ir_called_name(call));
    return false;
  }
  return true;
}

void aug_mpi(RevGen *g, LLVMValueRef call) {
  const MpiCall *c = mpi_call_of(call);
  if (!differentiated(g, call, c, true)) {
    aug_clone(g, call);
    return;
  }
  char msg[512];
  if (mpi_receive_without_shadow(g->act, c, call, msg, sizeof msg)) rev_error(g, call, "%s", msg);
  if (mpi_bytes_unknown(g->act, c, call, msg, sizeof msg)) rev_error(g, call, "%s", msg);
  if (mpi_bottom_buffer(c, call)) rev_error(g, call, MPI_BOTTOM_MESSAGE, ir_called_name(call));
  LLVMValueRef bufs[2];
  unsigned n = ir_num_call_args(call), nb = mpi_buffers(c, call, bufs), k = 0;
  LLVMValueRef *args = xcalloc(n + 2 * nb, sizeof *args);
  for (unsigned i = 0; i < n; i++) args[k++] = aug_value(g, LLVMGetArgOperand(call, i));
  for (unsigned i = 0; i < nb; i++, k += 2) {
    LLVMValueRef shadow = activity_shadowed(g->act, bufs[i]) ? aug_shadow(g, bufs[i], call, "this MPI call") : LLVMConstNull(g->ptr_type);
    mpi_buffer_arguments(c, call, i, shadow, &args[k]);
  }
  LLVMValueRef fn = mpi_runtime_function(call, c, "aug");
  mpi_set_site(g->b, call);
  LLVMValueRef record = LLVMBuildCall2(g->b, LLVMGlobalGetValueType(fn), fn, args, k, "");
  free(args);
  vmap_put(&g->tapemap, call, record);
  /* the runtime ends the program on any error: the call's result is MPI_SUCCESS, which is 0 */
  if (LLVMGetTypeKind(LLVMTypeOf(call)) != LLVMVoidTypeKind) vmap_put(&g->vmap, call, LLVMConstNull(LLVMTypeOf(call)));
}

void rev_mpi(RevGen *g, LLVMValueRef call) {
  const MpiCall *c = mpi_call_of(call);
  if (!differentiated(g, call, c, false)) return;
  LLVMValueRef fn = mpi_runtime_function(call, c, "rev");
  LLVMValueRef record = rt(g, call);
  mpi_set_site(g->b, call);
  LLVMBuildCall2(g->b, LLVMGlobalGetValueType(fn), fn, &record, 1, "");
}
