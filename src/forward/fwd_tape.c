/* Forward mode over a reverse-mode derivative: a function that computes a gradient (its request already
 * lowered into calls of the runtime's tape and of an augmented and a reverse function), differentiated in
 * forward mode, gives a Hessian-vector product. The generated code needs no rule of its own: its floats,
 * the tape's records among them, are memory and arithmetic like any other. What it needs is a shadow for
 * the memory the runtime hands out: each tape gets a tangent twin whose chunks match its own
 * (runtime/tape.h), and each shadow block a zeroed block for its tangents. What each of the runtime's
 * calls needs beside it is a table in analysis/calls.c, which the activity analysis reads too. */
#include "ad/constants.h"
#include "forward/fwd_internal.h"
#include "ir/ir.h"

enum { MAX_ARGS = 8 };

bool fwd_tape_call(FwdGen *g, LLVMValueRef call) {
  const char *name = ir_called_name(call);
  unsigned tangents;
  TapeAction action = call_tape_action(call, &tangents);
  if (action == TAPE_NONE) return false; /* the runtime's others (parallel regions): not done yet */
  LLVMValueRef primal = fwd_clone(g, call);
  unsigned n = ir_num_call_args(call);
  if (g->width != 1 || n > MAX_ARGS) {
    fwd_error(g, call, "vector forward mode over a reverse-mode derivative cannot differentiate the runtime's '%s' yet", name);
    return true;
  }
  LLVMTypeRef ptr = LLVMPointerTypeInContext(g->ctx, 0), none = LLVMVoidTypeInContext(g->ctx);
  LLVMTypeRef fty = LLVMGetCalledFunctionType(call);
  LLVMValueRef args[MAX_ARGS];
  switch (action) {
  case TAPE_TWIN_BEGIN: tan_set(g, call, ir_call_named(g->b, "__parad_rt_twin_begin", LLVMFunctionType(ptr, &ptr, 1, 0), &primal, 1)); break;
  case TAPE_TWIN_GROW: {
    LLVMValueRef t = LLVMGetArgOperand(call, 0);
    if (!fwd_shadow_lanes(g, t, call, "this tape", &args[0])) break;
    args[1] = fwd_primal(g, t);
    LLVMTypeRef params[2] = {ptr, ptr};
    tan_set(g, call, ir_call_named(g->b, "__parad_rt_twin_grow", LLVMFunctionType(ptr, params, 2, 0), args, 2));
    break;
  }
  case TAPE_TWIN_END: ir_call_named(g->b, "__parad_rt_twin_end", LLVMFunctionType(none, NULL, 0, 0), NULL, 0); break;
  case TAPE_SAME: {
    for (unsigned i = 0; i < n; i++) {
      LLVMValueRef a = LLVMGetArgOperand(call, i);
      args[i] = fwd_primal(g, a);
      if (!(tangents >> i & 1)) continue;
      if (!activity_shadowed(g->act, a)) return true; /* nothing active there: no tangent to move */
      if (!fwd_shadow_lanes(g, a, call, "this shadow block", &args[i])) return true;
    }
    LLVMValueRef c = ir_call_named(g->b, name, fty, args, n);
    if (LLVMGetTypeKind(LLVMGetReturnType(fty)) != LLVMVoidTypeKind) tan_set(g, call, c);
    break;
  }
  case TAPE_NOTHING:
  case TAPE_NONE: break;
  }
  return true;
}
