/* The MPI calls Parad knows (see mpi.h), as data. */
#include "mpi/mpi.h"

#include <llvm-c/DebugInfo.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/activity.h"
#include "ir/ir.h"

/* Buffer and datatype positions are those of the C bindings (MPI 3.1). */
static const MpiCall calls[] = {
    {"MPI_Send", MPI_CALL_DATA, 0, -1, 2, -1},
    {"MPI_Ssend", MPI_CALL_DATA, 0, -1, 2, -1},
    {"MPI_Rsend", MPI_CALL_DATA, 0, -1, 2, -1},
    {"MPI_Recv", MPI_CALL_DATA, -1, 0, -1, 2},
    {"MPI_Sendrecv", MPI_CALL_DATA, 0, 5, 2, 7},
    {"MPI_Sendrecv_replace", MPI_CALL_DATA, -1, 0, -1, 2}, /* one buffer, sent then received into */
    {"MPI_Isend", MPI_CALL_DATA, 0, -1, 2, -1},
    {"MPI_Issend", MPI_CALL_DATA, 0, -1, 2, -1},
    {"MPI_Irsend", MPI_CALL_DATA, 0, -1, 2, -1},
    {"MPI_Irecv", MPI_CALL_DATA, -1, 0, -1, 2},
    {"MPI_Send_init", MPI_CALL_DATA, 0, -1, 2, -1}, /* persistent requests: the buffers are the starts' */
    {"MPI_Ssend_init", MPI_CALL_DATA, 0, -1, 2, -1},
    {"MPI_Rsend_init", MPI_CALL_DATA, 0, -1, 2, -1},
    {"MPI_Recv_init", MPI_CALL_DATA, -1, 0, -1, 2},
    {"MPI_Bcast", MPI_CALL_DATA, -1, 0, -1, 2}, /* the root's buffer is sent, the others' received */
    {"MPI_Ibcast", MPI_CALL_DATA, -1, 0, -1, 2},
    {"MPI_Reduce", MPI_CALL_DATA, 0, 1, 3, 3},
    {"MPI_Allreduce", MPI_CALL_DATA, 0, 1, 3, 3},
    {"MPI_Ireduce", MPI_CALL_DATA, 0, 1, 3, 3},    /* sums only (the runtime says so for the others) */
    {"MPI_Iallreduce", MPI_CALL_DATA, 0, 1, 3, 3},
    {"MPI_Scan", MPI_CALL_DATA, 0, 1, 3, 3},       /* sums only, as the non-blocking reductions */
    {"MPI_Exscan", MPI_CALL_DATA, 0, 1, 3, 3},
    {"MPI_Iscan", MPI_CALL_DATA, 0, 1, 3, 3},
    {"MPI_Iexscan", MPI_CALL_DATA, 0, 1, 3, 3},
    {"MPI_Reduce_scatter_block", MPI_CALL_DATA, 0, 1, 3, 3}, /* sums only */
    {"MPI_Reduce_scatter", MPI_CALL_DATA, 0, 1, 3, 3},
    {"MPI_Gather", MPI_CALL_DATA, 0, 3, 2, 5},
    {"MPI_Gatherv", MPI_CALL_DATA, 0, 3, 2, 6},
    {"MPI_Scatter", MPI_CALL_DATA, 0, 3, 2, 5},
    {"MPI_Scatterv", MPI_CALL_DATA, 0, 4, 3, 6},
    {"MPI_Allgather", MPI_CALL_DATA, 0, 3, 2, 5},
    {"MPI_Alltoall", MPI_CALL_DATA, 0, 3, 2, 5},
    {"MPI_Allgatherv", MPI_CALL_DATA, 0, 3, 2, 6},
    {"MPI_Alltoallv", MPI_CALL_DATA, 0, 4, 3, 7},
    {"MPI_Igather", MPI_CALL_DATA, 0, 3, 2, 5}, /* the non-blocking collectives: as the blocking ones, a request last */
    {"MPI_Igatherv", MPI_CALL_DATA, 0, 3, 2, 6},
    {"MPI_Iscatter", MPI_CALL_DATA, 0, 3, 2, 5},
    {"MPI_Iscatterv", MPI_CALL_DATA, 0, 4, 3, 6},
    {"MPI_Iallgather", MPI_CALL_DATA, 0, 3, 2, 5},
    {"MPI_Ialltoall", MPI_CALL_DATA, 0, 3, 2, 5},
    {"MPI_Iallgatherv", MPI_CALL_DATA, 0, 3, 2, 6},
    {"MPI_Ialltoallv", MPI_CALL_DATA, 0, 4, 3, 7},
    {"MPI_Neighbor_allgather", MPI_CALL_DATA, 0, 3, 2, 5}, /* on topologies that are their own transpose (the runtime says so) */
    {"MPI_Neighbor_allgatherv", MPI_CALL_DATA, 0, 3, 2, 6},
    {"MPI_Neighbor_alltoall", MPI_CALL_DATA, 0, 3, 2, 5},
    {"MPI_Neighbor_alltoallv", MPI_CALL_DATA, 0, 4, 3, 7},
    {"MPI_Ineighbor_allgather", MPI_CALL_DATA, 0, 3, 2, 5},
    {"MPI_Ineighbor_allgatherv", MPI_CALL_DATA, 0, 3, 2, 6},
    {"MPI_Ineighbor_alltoall", MPI_CALL_DATA, 0, 3, 2, 5},
    {"MPI_Ineighbor_alltoallv", MPI_CALL_DATA, 0, 4, 3, 7},
    {"MPI_Pack", MPI_CALL_DATA, 0, 3, 2, MPI_PACKED_SIDE},   /* typed data -> packed bytes */
    {"MPI_Unpack", MPI_CALL_DATA, 0, 3, MPI_PACKED_SIDE, 5}, /* packed bytes -> typed data */
    {"MPI_Wait", MPI_CALL_SYNC, -1, -1, -1, -1},
    {"MPI_Waitall", MPI_CALL_SYNC, -1, -1, -1, -1},
    {"MPI_Waitany", MPI_CALL_SYNC, -1, -1, -1, -1},
    {"MPI_Waitsome", MPI_CALL_SYNC, -1, -1, -1, -1},
    {"MPI_Test", MPI_CALL_SYNC, -1, -1, -1, -1},
    {"MPI_Testall", MPI_CALL_SYNC, -1, -1, -1, -1},
    {"MPI_Testany", MPI_CALL_SYNC, -1, -1, -1, -1},
    {"MPI_Testsome", MPI_CALL_SYNC, -1, -1, -1, -1},
    {"MPI_Start", MPI_CALL_SYNC, -1, -1, -1, -1},
    {"MPI_Startall", MPI_CALL_SYNC, -1, -1, -1, -1},
    {"MPI_Request_free", MPI_CALL_SYNC, -1, -1, -1, -1},
    {"MPI_Probe", MPI_CALL_SYNC, -1, -1, -1, -1}, /* forward mode: the status counts the values, not the tangents */
    {"MPI_Iprobe", MPI_CALL_SYNC, -1, -1, -1, -1},
    {"MPI_Barrier", MPI_CALL_SYNC, -1, -1, -1, -1},
    {"MPI_Comm_free", MPI_CALL_RELEASE, -1, -1, -1, -1},
    {"MPI_Type_free", MPI_CALL_RELEASE, -1, -1, -1, -1}, /* a checkpointed loop's steps, run again, use it */
};

/* Building, committing and asking about datatypes, topologies and groups moves no data. */
static const char *const inactive_calls[] = {
    "MPI_Init", "MPI_Init_thread", "MPI_Finalize", "MPI_Initialized", "MPI_Finalized", "MPI_Abort",
    "MPI_Comm_rank", "MPI_Comm_size", "MPI_Comm_dup", "MPI_Comm_split", "MPI_Wtime",
    "MPI_Dims_create", "MPI_Cart_create", "MPI_Cart_shift", "MPI_Cart_coords", "MPI_Cart_rank", "MPI_Cart_get",
    "MPI_Cartdim_get", "MPI_Comm_group", "MPI_Group_size", "MPI_Group_rank", "MPI_Group_free", "MPI_Comm_compare",
    "MPI_Comm_set_errhandler", "MPI_Topo_test",
    "MPI_Wtick", "MPI_Get_count", "MPI_Get_elements", "MPI_Get_processor_name", "MPI_Error_string",
    "MPI_Query_thread", "MPI_Pack_size", "MPI_Type_size", "MPI_Type_get_extent", "MPI_Type_get_true_extent",
    "MPI_Type_commit", "MPI_Type_dup", "MPI_Type_contiguous", "MPI_Type_vector",
    "MPI_Type_create_hvector", "MPI_Type_indexed", "MPI_Type_create_hindexed", "MPI_Type_create_indexed_block",
    "MPI_Type_create_hindexed_block", "MPI_Type_create_struct", "MPI_Type_create_resized",
    "MPI_Type_create_subarray",
    /* an address as an integer: relative displacements for a datatype (MPI_BOTTOM's absolute ones are
       refused where the buffer is used: mpi_bottom_buffer) */
    "MPI_Get_address", "MPI_Address", "MPI_Aint_diff", "MPI_Aint_add", NULL,
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

/* mpi_handle_only's walk: false at a use that is not a handle's; *handles counts the MPI calls met. */
static bool handle_uses(LLVMValueRef v, int depth, unsigned *handles) {
  if (depth > 4) return false;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 0) == v && LLVMIsAAllocaInst(LLVMGetOperand(user, 1))) {
      LLVMValueRef slot = LLVMGetOperand(user, 1); /* -O0 keeps the parameter in a slot */
      for (LLVMUseRef s = LLVMGetFirstUse(slot); s; s = LLVMGetNextUse(s)) {
        LLVMValueRef su = LLVMGetUser(s);
        if (su == user || ir_is_debug_intrinsic(su) || ir_is_lifetime_marker(su)) continue;
        if (!LLVMIsALoadInst(su) || !handle_uses(su, depth + 1, handles)) return false;
      }
      continue;
    }
    if (!ir_is_call(user) || LLVMGetCalledValue(user) == v) return false;
    if (mpi_call_of(user)) {
      if (!mpi_handle_argument(user, v)) return false;
      ++*handles;
      continue;
    }
    for (unsigned i = 0, n = ir_num_call_args(user); i < n; i++) {
      if (LLVMGetArgOperand(user, i) != v) continue;
      LLVMValueRef callee = ir_called_function(user);
      if (!callee || LLVMIsDeclaration(callee) || i >= LLVMCountParams(callee) || !handle_uses(LLVMGetParam(callee, i), depth + 1, handles))
        return false;
    }
  }
  return true;
}

bool mpi_handle_argument(LLVMValueRef call, LLVMValueRef v) {
  const MpiCall *c = mpi_call_of(call);
  if (!c || c->kind == MPI_CALL_UNSUPPORTED || LLVMGetCalledValue(call) == v) return false;
  for (unsigned i = 0, n = ir_num_call_args(call); i < n; i++)
    if (LLVMGetArgOperand(call, i) == v && ((int)i == c->send_buf || (int)i == c->recv_buf)) return false;
  return true;
}

bool mpi_handle_only(LLVMValueRef v) {
  unsigned handles = 0;
  return handle_uses(v, 0, &handles) && handles > 0; /* an unused parameter is no handle */
}

/* Open MPI's predefined datatypes are globals ompi_mpi_<type>; MPICH's are integer constants (MPICH
 * 4.0's mpi.h: printed by a program, see docs/design.md). */
static const struct {
  const char *openmpi;
  long long mpich;
  MpiStaticType type;
} predefined[] = {
    {"ompi_mpi_double", 0x4c00080b, MPI_TYPE_FLOAT},
    {"ompi_mpi_float", 0x4c00040a, MPI_TYPE_FLOAT},
    {"ompi_mpi_byte", 0x4c00010d, MPI_TYPE_BYTES},
    {"ompi_mpi_char", 0x4c000101, MPI_TYPE_BYTES},
    {"ompi_mpi_signed_char", 0x4c000118, MPI_TYPE_BYTES},
    {"ompi_mpi_unsigned_char", 0x4c000102, MPI_TYPE_BYTES},
    {"ompi_mpi_int8_t", 0x4c000137, MPI_TYPE_BYTES},
    {"ompi_mpi_uint8_t", 0x4c00013b, MPI_TYPE_BYTES},
    {"ompi_mpi_packed", 0x4c00010f, MPI_TYPE_PACKED},
    {"ompi_mpi_short", 0x4c000203, MPI_TYPE_INTEGER},
    {"ompi_mpi_unsigned_short", 0x4c000204, MPI_TYPE_INTEGER},
    {"ompi_mpi_int", 0x4c000405, MPI_TYPE_INTEGER},
    {"ompi_mpi_unsigned", 0x4c000406, MPI_TYPE_INTEGER},
    {"ompi_mpi_long", 0x4c000807, MPI_TYPE_INTEGER},
    {"ompi_mpi_unsigned_long", 0x4c000808, MPI_TYPE_INTEGER},
    {"ompi_mpi_long_long_int", 0x4c000809, MPI_TYPE_INTEGER},
    {"ompi_mpi_unsigned_long_long", 0x4c000819, MPI_TYPE_INTEGER},
    {"ompi_mpi_int16_t", 0x4c000238, MPI_TYPE_INTEGER},
    {"ompi_mpi_uint16_t", 0x4c00023c, MPI_TYPE_INTEGER},
    {"ompi_mpi_int32_t", 0x4c000439, MPI_TYPE_INTEGER},
    {"ompi_mpi_uint32_t", 0x4c00043d, MPI_TYPE_INTEGER},
    {"ompi_mpi_int64_t", 0x4c00083a, MPI_TYPE_INTEGER},
    {"ompi_mpi_uint64_t", 0x4c00083e, MPI_TYPE_INTEGER},
    {"ompi_mpi_c_bool", 0x4c00013f, MPI_TYPE_INTEGER},
    {"ompi_mpi_wchar", 0x4c00040e, MPI_TYPE_INTEGER},
    {"ompi_mpi_aint", 0x4c000843, MPI_TYPE_INTEGER},
    {"ompi_mpi_offset", 0x4c000844, MPI_TYPE_INTEGER},
    {"ompi_mpi_count", 0x4c000845, MPI_TYPE_INTEGER},
};

MpiStaticType mpi_static_type(LLVMValueRef t) {
  t = ir_strip_pointer_casts(t);
  bool global = LLVMIsAGlobalVariable(t), constant = LLVMIsAConstantInt(t);
  for (size_t i = 0; i < sizeof predefined / sizeof predefined[0]; i++)
    if ((global && !strcmp(LLVMGetValueName(t), predefined[i].openmpi)) ||
        (constant && LLVMConstIntGetSExtValue(t) == predefined[i].mpich))
      return predefined[i].type;
  return MPI_TYPE_UNKNOWN;
}

/* The static type of one side of a data call (0 send, 1 receive); -1 when the side has no datatype. */
static int side_type(const MpiCall *c, LLVMValueRef call, int side) {
  int arg = side ? c->recv_type : c->send_type;
  if (arg == MPI_PACKED_SIDE) return MPI_TYPE_PACKED;
  return arg < 0 ? -1 : (int)mpi_static_type(LLVMGetArgOperand(call, (unsigned)arg));
}

static LLVMValueRef side_buffer(const MpiCall *c, LLVMValueRef call, int side) {
  int arg = side ? c->recv_buf : c->send_buf;
  return arg < 0 ? NULL : LLVMGetArgOperand(call, (unsigned)arg);
}

bool mpi_matched_receive(LLVMValueRef call) {
  const char *name = ir_called_name(call);
  return (!strcmp(name, "MPI_Mrecv") || !strcmp(name, "MPI_Imrecv")) && ir_num_call_args(call) > 2 &&
         mpi_static_type(LLVMGetArgOperand(call, 2)) != MPI_TYPE_INTEGER;
}

bool mpi_takes_probed(const MpiCall *c) {
  return !strcmp(c->name, "MPI_Recv") || !strcmp(c->name, "MPI_Irecv") || !strcmp(c->name, "MPI_Sendrecv");
}

bool mpi_may_carry_derivatives(const MpiCall *c, LLVMValueRef call) {
  if (c->kind != MPI_CALL_DATA) return c->kind == MPI_CALL_SYNC;
  for (int side = 0; side < 2; side++) {
    int t = side_type(c, call, side);
    if (t >= 0 && t != MPI_TYPE_INTEGER) return true;
  }
  return false;
}

/* Where the bytes' layout tells what a buffer holds: its datatype does not (bytes, a handle known only at
 * run time). MPI_PACKED says nothing either, but what was packed is known to the runtime (its MPI_Pack). */
static bool laid_out_by_memory(int type) { return type == MPI_TYPE_BYTES || type == MPI_TYPE_UNKNOWN; }

bool mpi_not_memory(LLVMValueRef buf) { return LLVMIsAConstant(buf) && !LLVMIsAGlobalValue(ir_strip_pointer_casts(buf)); }

bool mpi_predefined_handle(LLVMValueRef v) {
  return v && LLVMIsAGlobalVariable(v) && !LLVMGetInitializer(v) && !strncmp(LLVMGetValueName(v), "ompi_", 5);
}

static bool has_floats(const MemLayout *l) {
  for (unsigned i = 0; i < l->n; i++)
    if (l->run[i].kind == DATA_F64 || l->run[i].kind == DATA_F32) return true;
  return false;
}

/* What one side (0 send, 1 receive) of a data call holds, for derivatives: by its datatype when that is a
 * float or integer one, else by the memory its buffer points into (memtype_layout_of_data). */
typedef enum { MPI_HOLDS_NO_FLOATS, MPI_HOLDS_FLOATS, MPI_HOLDS_UNKNOWN } MpiContent;

static MpiContent side_content(const MpiCall *c, LLVMValueRef call, int side) {
  int t = side_type(c, call, side);
  LLVMValueRef buf = side_buffer(c, call, side);
  if (t < 0 || t == MPI_TYPE_INTEGER || !buf || mpi_not_memory(buf)) return MPI_HOLDS_NO_FLOATS;
  if (!laid_out_by_memory(t)) return t == MPI_TYPE_FLOAT ? MPI_HOLDS_FLOATS : MPI_HOLDS_UNKNOWN;
  MemLayout l;
  if (!memtype_layout_of_data(buf, &l)) return MPI_HOLDS_UNKNOWN;
  return has_floats(&l) ? MPI_HOLDS_FLOATS : MPI_HOLDS_NO_FLOATS;
}

bool mpi_receive_may_hold_floats(const MpiCall *c, LLVMValueRef call) {
  if (c->kind != MPI_CALL_DATA || c->recv_buf < 0 || !mpi_may_carry_derivatives(c, call)) return false;
  /* what MPI_Pack writes is what its input holds */
  int side = c->recv_type == MPI_PACKED_SIDE ? 0 : 1;
  return side_content(c, call, side) != MPI_HOLDS_NO_FLOATS;
}

unsigned mpi_buffers(const MpiCall *c, LLVMValueRef call, LLVMValueRef bufs[2]) {
  unsigned n = 0;
  if (c->send_buf >= 0) bufs[n++] = LLVMGetArgOperand(call, (unsigned)c->send_buf);
  if (c->recv_buf >= 0) bufs[n++] = LLVMGetArgOperand(call, (unsigned)c->recv_buf);
  return n;
}

/* The layout as the runtime reads it: i32 {period, phase, runs, then offset, count, kind per run} with
 * kind 1 double, 2 float, 3 pointer (runtime/mpi_types.h). */
static LLVMValueRef layout_constant(LLVMModuleRef m, const MemLayout *l) {
  LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetModuleContext(m));
  LLVMValueRef v[3 + 3 * LAYOUT_MAX_RUNS];
  unsigned n = 0;
  v[n++] = LLVMConstInt(i32, l->period, 0), v[n++] = LLVMConstInt(i32, l->phase, 0), v[n++] = LLVMConstInt(i32, l->n, 0);
  for (unsigned i = 0; i < l->n; i++) {
    v[n++] = LLVMConstInt(i32, l->run[i].offset, 0);
    v[n++] = LLVMConstInt(i32, l->run[i].count, 0);
    v[n++] = LLVMConstInt(i32, l->run[i].kind == DATA_F64 ? 1 : l->run[i].kind == DATA_F32 ? 2 : 3, 0);
  }
  LLVMValueRef table = LLVMConstArray2(i32, v, n);
  LLVMValueRef gv = LLVMAddGlobal(m, LLVMTypeOf(table), "parad.mpi.layout");
  LLVMSetInitializer(gv, table);
  LLVMSetGlobalConstant(gv, 1);
  LLVMSetLinkage(gv, LLVMPrivateLinkage);
  LLVMSetUnnamedAddress(gv, LLVMGlobalUnnamedAddr);
  return gv;
}

void mpi_buffer_arguments(const MpiCall *c, LLVMValueRef call, unsigned i, LLVMValueRef shadow, LLVMValueRef out[2]) {
  LLVMModuleRef m = LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInstructionParent(call)));
  int side = c->send_buf >= 0 && i == 0 ? 0 : 1;
  LLVMValueRef buf = side_buffer(c, call, side);
  int t = side_type(c, call, side);
  MemLayout l;
  out[0] = shadow;
  out[1] = LLVMConstNull(LLVMPointerTypeInContext(LLVMGetModuleContext(m), 0));
  if (t >= 0 && laid_out_by_memory(t) && !mpi_not_memory(buf) && memtype_layout_of_data(buf, &l)) out[1] = layout_constant(m, &l);
}

void mpi_set_site(LLVMBuilderRef b, LLVMValueRef call) {
  unsigned len = 0, line = LLVMGetDebugLocLine(call);
  const char *file = LLVMGetDebugLocFilename(call, &len);
  if (!file || !len || !line) return;
  LLVMModuleRef m = LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInstructionParent(call)));
  LLVMTypeRef ptr = LLVMPointerTypeInContext(LLVMGetModuleContext(m), 0);
  LLVMValueRef site = LLVMGetNamedGlobal(m, "__parad_mpi_site");
  if (!site) {
    site = LLVMAddGlobal(m, ptr, "__parad_mpi_site");
    LLVMSetThreadLocal(site, 1);
  }
  char *text = xasprintf("%.*s:%u", (int)len, file, line);
  LLVMBuildStore(b, LLVMBuildGlobalStringPtr(b, text, "parad.mpi.site"), site);
  free(text);
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
    for (unsigned i = 0; i < n && k < 28; i++) params[k++] = LLVMTypeOf(LLVMGetArgOperand(call, i));
    LLVMValueRef bufs[2];
    for (unsigned i = 0, nb = mpi_buffers(c, call, bufs); i < 2 * nb; i++) params[k++] = ptr;
  }
  LLVMTypeRef ret = !strcmp(phase, "fwd") ? LLVMTypeOf(call) : !strcmp(phase, "aug") ? ptr : LLVMVoidTypeInContext(ctx);
  return LLVMAddFunction(m, name, LLVMFunctionType(ret, params, k, false));
}

bool mpi_bottom_buffer(const MpiCall *c, LLVMValueRef call) {
  for (int side = 0; side < 2; side++) {
    int buf = side ? c->recv_buf : c->send_buf, type = side ? c->recv_type : c->send_type;
    if (buf < 0 || type < 0) continue;
    LLVMValueRef b = ir_strip_pointer_casts(LLVMGetArgOperand(call, (unsigned)buf));
    if (LLVMIsAConstantPointerNull(b) && !LLVMIsAConstant(LLVMGetArgOperand(call, (unsigned)type))) return true;
  }
  return false;
}

bool mpi_receive_without_shadow(const Activity *a, const MpiCall *c, LLVMValueRef call, char *msg, size_t n) {
  if (!mpi_receive_may_hold_floats(c, call)) return false;
  LLVMValueRef buf = LLVMGetArgOperand(call, (unsigned)c->recv_buf);
  if (activity_shadowed(a, buf) || mpi_not_memory(buf)) return false;
  char what[1024];
  ir_describe_memory(buf, what, sizeof what);
  snprintf(msg, n, "%s receives floating-point data into memory that has no shadow (%s): its derivative would be "
                   "lost; pass that memory with a shadow", ir_called_name(call), what);
  return true;
}

bool mpi_bytes_unknown(const Activity *a, const MpiCall *c, LLVMValueRef call, char *msg, size_t n) {
  if (c->kind != MPI_CALL_DATA) return false;
  for (int side = 0; side < 2; side++) {
    LLVMValueRef buf = side_buffer(c, call, side);
    if (side_type(c, call, side) != MPI_TYPE_BYTES || !buf || !activity_shadowed(a, buf) ||
        side_content(c, call, side) != MPI_HOLDS_UNKNOWN)
      continue;
    snprintf(msg, n, "%s moves active memory as bytes (its %s buffer) and Parad cannot tell which of them are "
                     "floats, whose adjoints reverse mode must add: send typed data (MPI_DOUBLE, a derived "
                     "datatype), or bytes of memory whose type the function shows (an array of structs)",
             ir_called_name(call), side ? "receive" : "send");
    return true;
  }
  return false;
}
