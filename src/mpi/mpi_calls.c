/* The MPI calls Parad knows (see mpi.h), as data. */
#include "mpi/mpi.h"

#include <stdio.h>
#include <string.h>

#include "analysis/activity.h"
#include "ir/ir.h"

/* Buffer and datatype positions are those of the C bindings (MPI 3.1). */
static const MpiCall calls[] = {
    {"MPI_Send", MPI_CALL_DATA, 0, -1, 2, -1},
    {"MPI_Ssend", MPI_CALL_DATA, 0, -1, 2, -1},
    {"MPI_Recv", MPI_CALL_DATA, -1, 0, -1, 2},
    {"MPI_Sendrecv", MPI_CALL_DATA, 0, 5, 2, 7},
    {"MPI_Isend", MPI_CALL_DATA, 0, -1, 2, -1},
    {"MPI_Irecv", MPI_CALL_DATA, -1, 0, -1, 2},
    {"MPI_Bcast", MPI_CALL_DATA, -1, 0, -1, 2}, /* the root's buffer is sent, the others' received */
    {"MPI_Reduce", MPI_CALL_DATA, 0, 1, 3, 3},
    {"MPI_Allreduce", MPI_CALL_DATA, 0, 1, 3, 3},
    {"MPI_Gather", MPI_CALL_DATA, 0, 3, 2, 5},
    {"MPI_Gatherv", MPI_CALL_DATA, 0, 3, 2, 6},
    {"MPI_Scatter", MPI_CALL_DATA, 0, 3, 2, 5},
    {"MPI_Scatterv", MPI_CALL_DATA, 0, 4, 3, 6},
    {"MPI_Allgather", MPI_CALL_DATA, 0, 3, 2, 5},
    {"MPI_Alltoall", MPI_CALL_DATA, 0, 3, 2, 5},
    {"MPI_Wait", MPI_CALL_SYNC, -1, -1, -1, -1},
    {"MPI_Waitall", MPI_CALL_SYNC, -1, -1, -1, -1},
    {"MPI_Waitany", MPI_CALL_SYNC, -1, -1, -1, -1},
    {"MPI_Test", MPI_CALL_SYNC, -1, -1, -1, -1},
    {"MPI_Barrier", MPI_CALL_SYNC, -1, -1, -1, -1},
};

static const char *const inactive_calls[] = {
    "MPI_Init", "MPI_Init_thread", "MPI_Finalize", "MPI_Initialized", "MPI_Finalized", "MPI_Abort",
    "MPI_Comm_rank", "MPI_Comm_size", "MPI_Comm_dup", "MPI_Comm_split", "MPI_Comm_free", "MPI_Wtime",
    "MPI_Wtick", "MPI_Get_count", "MPI_Get_processor_name", "MPI_Type_size", "MPI_Error_string",
    "MPI_Query_thread", NULL,
};

const MpiCall *mpi_call_of(LLVMValueRef call) {
  static const MpiCall inactive = {"", MPI_CALL_INACTIVE, -1, -1, -1, -1};
  static const MpiCall unsupported = {"", MPI_CALL_UNSUPPORTED, -1, -1, -1, -1};
  const char *name = ir_called_name(call);
  if (strncmp(name, "MPI_", 4)) return NULL;
  for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
    if (!strcmp(name, calls[i].name)) return &calls[i];
  for (const char *const *p = inactive_calls; *p; p++)
    if (!strcmp(name, *p)) return &inactive;
  return &unsupported;
}

/* Open MPI's predefined datatypes are globals ompi_mpi_<type>; MPICH's are integer constants. */
static const char *const openmpi_floats[] = {"ompi_mpi_double", "ompi_mpi_float", NULL};
static const char *const openmpi_integers[] = {
    "ompi_mpi_char", "ompi_mpi_signed_char", "ompi_mpi_unsigned_char", "ompi_mpi_byte", "ompi_mpi_short",
    "ompi_mpi_unsigned_short", "ompi_mpi_int", "ompi_mpi_unsigned", "ompi_mpi_long", "ompi_mpi_unsigned_long",
    "ompi_mpi_long_long_int", "ompi_mpi_unsigned_long_long", "ompi_mpi_int8_t", "ompi_mpi_uint8_t",
    "ompi_mpi_int16_t", "ompi_mpi_uint16_t", "ompi_mpi_int32_t", "ompi_mpi_uint32_t", "ompi_mpi_int64_t",
    "ompi_mpi_uint64_t", "ompi_mpi_c_bool", "ompi_mpi_wchar", "ompi_mpi_aint", "ompi_mpi_offset",
    "ompi_mpi_count", NULL,
};
enum { MPICH_FLOAT = 0x4c00040a, MPICH_DOUBLE = 0x4c00080b };

static bool listed(const char *name, const char *const *list) {
  for (; *list; list++)
    if (!strcmp(name, *list)) return true;
  return false;
}

MpiStaticType mpi_static_type(LLVMValueRef t) {
  t = ir_strip_pointer_casts(t);
  if (LLVMIsAGlobalVariable(t)) {
    const char *name = LLVMGetValueName(t);
    if (listed(name, openmpi_floats)) return MPI_TYPE_FLOAT;
    if (listed(name, openmpi_integers)) return MPI_TYPE_INTEGER;
  } else if (LLVMIsAConstantInt(t)) {
    long long v = LLVMConstIntGetSExtValue(t);
    if (v == MPICH_FLOAT || v == MPICH_DOUBLE) return MPI_TYPE_FLOAT;
  }
  return MPI_TYPE_UNKNOWN;
}

bool mpi_may_carry_derivatives(const MpiCall *c, LLVMValueRef call) {
  if (c->kind != MPI_CALL_DATA) return c->kind == MPI_CALL_SYNC;
  int types[2] = {c->send_type, c->recv_type};
  for (int i = 0; i < 2; i++)
    if (types[i] >= 0 && mpi_static_type(LLVMGetArgOperand(call, (unsigned)types[i])) != MPI_TYPE_INTEGER) return true;
  return false;
}

unsigned mpi_buffers(const MpiCall *c, LLVMValueRef call, LLVMValueRef bufs[2]) {
  unsigned n = 0;
  if (c->send_buf >= 0) bufs[n++] = LLVMGetArgOperand(call, (unsigned)c->send_buf);
  if (c->recv_buf >= 0) bufs[n++] = LLVMGetArgOperand(call, (unsigned)c->recv_buf);
  return n;
}

LLVMValueRef mpi_runtime_function(LLVMValueRef call, const MpiCall *c, const char *phase) {
  LLVMModuleRef m = LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInstructionParent(call)));
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(ctx, 0);
  char name[96];
  snprintf(name, sizeof name, "__parad_mpi_%s_%s", phase, c->name);
  LLVMValueRef fn = LLVMGetNamedFunction(m, name);
  if (fn) return fn;
  unsigned n = ir_num_call_args(call), k = 0;
  LLVMTypeRef params[32];
  if (!strcmp(phase, "rev")) {
    params[k++] = ptr;
  } else {
    for (unsigned i = 0; i < n && k < 30; i++) params[k++] = LLVMTypeOf(LLVMGetArgOperand(call, i));
    LLVMValueRef bufs[2];
    for (unsigned i = 0, nb = mpi_buffers(c, call, bufs); i < nb; i++) params[k++] = ptr;
  }
  LLVMTypeRef ret = !strcmp(phase, "fwd") ? LLVMTypeOf(call) : !strcmp(phase, "aug") ? ptr : LLVMVoidTypeInContext(ctx);
  return LLVMAddFunction(m, name, LLVMFunctionType(ret, params, k, false));
}

bool mpi_receive_without_shadow(const Activity *a, const MpiCall *c, LLVMValueRef call, char *msg, size_t n) {
  if (c->kind != MPI_CALL_DATA || c->recv_buf < 0) return false;
  if (mpi_static_type(LLVMGetArgOperand(call, (unsigned)c->recv_type)) != MPI_TYPE_FLOAT) return false;
  LLVMValueRef buf = LLVMGetArgOperand(call, (unsigned)c->recv_buf);
  if (activity_shadowed(a, buf) || (LLVMIsAConstant(buf) && !LLVMIsAGlobalValue(ir_strip_pointer_casts(buf)))) return false;
  char what[256];
  ir_describe_memory(buf, what, sizeof what);
  snprintf(msg, n, "%s receives floating-point data into memory that has no shadow (%s): its derivative would be "
                   "lost; pass that memory with a shadow", ir_called_name(call), what);
  return true;
}
