/* Persistent requests made by the program's set-up code (see mpi.h): each MPI_*_init call outside the
 * runtime's is followed by a note to the runtime, which stops a derivative that starts such a request
 * where its data may carry derivatives (runtime/mpi.c) instead of losing them; each MPI_Request_free is
 * preceded by one, since MPI may give the handle to another request. */
#include "mpi/mpi.h"

#include <string.h>

#include "ir/ir.h"

static bool persistent_init(LLVMValueRef call) {
  static const char *const names[] = {"MPI_Send_init", "MPI_Ssend_init", "MPI_Rsend_init", "MPI_Bsend_init",
                                      "MPI_Recv_init"};
  if (!ir_is_call(call) || ir_num_call_args(call) != 7) return false;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (!strcmp(ir_called_name(call), names[i])) return true;
  return false;
}

unsigned mpi_note_set_up_requests(LLVMModuleRef m) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  unsigned noted = 0;
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
        if (ir_is_call(i) && ir_num_call_args(i) == 1 && !strcmp(ir_called_name(i), "MPI_Request_free")) {
          LLVMValueRef req = LLVMGetArgOperand(i, 0);
          LLVMTypeRef param = LLVMTypeOf(req);
          LLVMPositionBuilderBefore(b, i); /* the handle may come back for another request */
          ir_call_named(b, "__parad_mpi_note_outside_free", LLVMFunctionType(LLVMVoidTypeInContext(c), &param, 1, 0), &req, 1);
          noted++;
          continue;
        }
        if (!persistent_init(i)) continue;
        LLVMValueRef args[2] = {LLVMGetArgOperand(i, 6), LLVMGetArgOperand(i, 2)}; /* the request, the datatype */
        LLVMTypeRef params[2] = {LLVMTypeOf(args[0]), LLVMTypeOf(args[1])};
        LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(i));
        ir_call_named(b, "__parad_mpi_note_outside_init", LLVMFunctionType(LLVMVoidTypeInContext(c), params, 2, 0), args, 2);
        i = LLVMGetNextInstruction(i), noted++;
      }
  LLVMDisposeBuilder(b);
  return noted;
}
