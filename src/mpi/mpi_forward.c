/* MPI calls in forward mode: each call that may carry derivatives becomes a call of the runtime's
 * __parad_mpi_fwd_NAME, which moves the tangents along with the values (src/runtime/mpi.c). */
#include "forward/fwd_internal.h"
#include "mpi/mpi.h"

#include <stdlib.h>

#include "ir/ir.h"

void fwd_mpi(FwdGen *g, LLVMValueRef call) {
  const MpiCall *c = mpi_call_of(call);
  if (c->kind == MPI_CALL_UNSUPPORTED || !mpi_may_carry_derivatives(c, call)) {
    if (c->kind == MPI_CALL_UNSUPPORTED && activity_any_active_argument(g->act, call, NULL))
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
  int bufs[2] = {c->send_buf, c->recv_buf};
  unsigned n = ir_num_call_args(call), k = 0, shadows = 0;
  LLVMValueRef *args = xcalloc(n + 2, sizeof *args);
  for (unsigned i = 0; i < n; i++) args[k++] = fwd_primal(g, LLVMGetArgOperand(call, i));
  for (int i = 0; i < 2; i++) {
    if (bufs[i] < 0) continue;
    LLVMValueRef buf = LLVMGetArgOperand(call, (unsigned)bufs[i]);
    LLVMValueRef shadow = LLVMConstNull(LLVMTypeOf(buf));
    if (activity_shadowed(g->act, buf)) fwd_shadow_lanes(g, buf, call, "this MPI call", &shadow);
    args[k++] = shadow;
    shadows++;
  }
  LLVMValueRef fn = mpi_runtime_function(call, c, "fwd", shadows);
  LLVMValueRef nc = LLVMBuildCall2(g->b, LLVMGlobalGetValueType(fn), fn, args, k, "");
  vmap_put(&g->vmap, call, nc);
  free(args);
}
