/* MPI calls in forward mode: each call that may carry derivatives becomes a call of the runtime's
 * __parad_mpi_fwd_NAME, which moves the tangents along with the values (src/runtime/mpi.c); so does every
 * point-to-point receive, which may get a message that the runtime's MPI_Probe took off the wire. */
#include "forward/fwd_internal.h"
#include "mpi/mpi.h"

#include <stdlib.h>

#include "ir/ir.h"

void fwd_mpi(FwdGen *g, LLVMValueRef call) {
  const MpiCall *c = mpi_call_of(call);
  bool probed = c->kind == MPI_CALL_DATA && mpi_takes_probed(c) && g->width == 1;
  if (!mpi_may_carry_derivatives(c, call) && !probed) {
    if (c->kind == MPI_CALL_UNSUPPORTED && (activity_any_active_argument(g->act, call, NULL) || mpi_matched_receive(call)))
      fwd_error(g, call, MPI_UNSUPPORTED_MESSAGE, ir_called_name(call));
    fwd_clone(g, call);
    return;
  }
  if (g->width > 1) {
    fwd_error(g, call, "cannot differentiate %s in vector forward mode (width %u): MPI calls take one tangent",
              ir_called_name(call), g->width);
    fwd_clone(g, call);
    return;
  }
  char msg[512];
  if (mpi_receive_without_shadow(g->act, c, call, msg, sizeof msg)) fwd_error(g, call, "%s", msg);
  if (mpi_bottom_buffer(c, call)) fwd_error(g, call, MPI_BOTTOM_MESSAGE, ir_called_name(call));
  LLVMValueRef bufs[2];
  unsigned n = ir_num_call_args(call), nb = mpi_buffers(c, call, bufs), k = 0;
  LLVMValueRef *args = xcalloc(n + 2 * nb, sizeof *args);
  for (unsigned i = 0; i < n; i++) args[k++] = fwd_primal(g, LLVMGetArgOperand(call, i));
  for (unsigned i = 0; i < nb; i++, k += 2) {
    LLVMValueRef shadow = LLVMConstNull(LLVMTypeOf(bufs[i]));
    if (activity_shadowed(g->act, bufs[i])) fwd_shadow_lanes(g, bufs[i], call, "this MPI call", &shadow);
    mpi_buffer_arguments(c, call, i, shadow, &args[k]);
  }
  LLVMValueRef fn = mpi_runtime_function(call, c, "fwd");
  mpi_set_site(g->b, call);
  LLVMValueRef nc = LLVMBuildCall2(g->b, LLVMGlobalGetValueType(fn), fn, args, k, "");
  vmap_put(&g->vmap, call, nc);
  free(args);
}
