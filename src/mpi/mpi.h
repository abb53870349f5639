/* MPI as the generators see it: which calls move floating-point data, where their buffers and datatypes
 * are, and how each becomes a call of Parad's MPI runtime (src/runtime/mpi.c).
 *
 * The generators do not know what an MPI call does: they hand it, with the shadows of its buffers, to
 * the runtime, which holds the derivative of each call (tangent mode sends the tangent with the value;
 * reverse mode transposes the communication). This keeps the generated code free of any one MPI
 * library's constants: handles and datatype sizes are the library's own, at run time.
 *
 *   forward   int  __parad_mpi_fwd_NAME(args..., per buffer: its shadow, its layout)
 *   reverse   ptr  __parad_mpi_aug_NAME(args..., per buffer: its shadow, its layout)   (the primal; a record)
 *             void __parad_mpi_rev_NAME(record)                                        (its adjoint)
 *
 * The record goes on the tape like the tape of a custom gradient. Buffers are the send buffer then the
 * receive buffer, in that order, as the call has them; a buffer without a shadow passes null. A buffer's
 * layout says where floats lie among its bytes, for datatypes that do not say it themselves (MPI_BYTE,
 * a derived datatype holding bytes): a constant from the memory analysis, or null. */
#ifndef PARAD_MPI_MPI_H
#define PARAD_MPI_MPI_H

#include <llvm-c/Core.h>
#include <stdbool.h>

#include "analysis/activity.h"
#include "analysis/memtype.h"

typedef enum {
  MPI_CALL_DATA,        /* moves buffers of a datatype: send, receive, collectives */
  MPI_CALL_SYNC,        /* completes or orders communication (waits, tests, barrier): no buffer */
  MPI_CALL_INACTIVE,    /* never moves data that could be active: ranks, sizes, init, timers */
  MPI_CALL_RELEASE,     /* frees a communicator or a datatype, which the reverse sweep's messages and a
                           checkpointed loop's steps run again may still use: in reverse mode, freed when the
                           tape ends (the program's handle is MPI_COMM_NULL or MPI_DATATYPE_NULL at once) */
  MPI_CALL_UNSUPPORTED, /* any other MPI_ function: refused where an argument is active */
} MpiCallKind;

typedef struct {
  const char *name;
  MpiCallKind kind;
  signed char send_buf, recv_buf;   /* argument indices of the buffers, -1 for none */
  signed char send_type, recv_type; /* argument indices of their datatypes, -1 for none, MPI_PACKED_SIDE */
} MpiCall;

/* The side of MPI_Pack and MPI_Unpack that is packed bytes (their output, their input): no datatype
 * argument, read as MPI_PACKED. */
enum { MPI_PACKED_SIDE = -2 };

/* The entry of an MPI call (its name starts with MPI_), or NULL for anything else. */
const MpiCall *mpi_call_of(LLVMValueRef call);

/* Whether v (a parameter, a pointer read from a context record) is only passed to MPI calls the table
 * knows, never as a buffer: a handle (an Open MPI communicator, datatype or op is a pointer), directly,
 * through -O0's slot, or through parameters of the program's functions that go the same way. A parameter's
 * default marker is then constant: it has no shadow. */
bool mpi_handle_only(LLVMValueRef v);

/* Whether call is one of the MPI calls the table knows, given v only where it takes no buffer: as a
 * handle (a communicator, a datatype, an op), a request's or a status's place, or counts. */
bool mpi_handle_argument(LLVMValueRef call, LLVMValueRef v);

/* Whether a pointer argument is a constant that is no memory (null, MPI_IN_PLACE, MPI_STATUS_IGNORE). */
bool mpi_not_memory(LLVMValueRef buf);
/* Whether v is one of Open MPI's predefined objects (MPI_REQUEST_NULL is &ompi_request_null, MPI_COMM_WORLD
 * &ompi_mpi_comm_world, MPI_DOUBLE &ompi_mpi_double): the library's own, holding no data of the program's.
 * Such a handle stored into memory that has a shadow is its own shadow. (MPICH's handles are integers.) */
bool mpi_predefined_handle(LLVMValueRef v);

/* What a datatype operand is, as far as it can be told before run time. Handles are recognised by the
 * spellings of the libraries Parad knows (Open MPI's globals, MPICH's constants); anything else (a
 * derived datatype, a handle in a variable) is left to the runtime, which asks the library. Bytes are
 * MPI_BYTE, the char types and the 8-bit integers: what they carry is what the buffer holds. */
typedef enum { MPI_TYPE_FLOAT, MPI_TYPE_INTEGER, MPI_TYPE_BYTES, MPI_TYPE_PACKED, MPI_TYPE_UNKNOWN } MpiStaticType;
MpiStaticType mpi_static_type(LLVMValueRef datatype);

/* Whether a call goes through the runtime: a sync call, or a data call that may carry derivatives (not
 * when every datatype it names is known to be an integer one: such a call is copied as it is). Decided by
 * datatypes alone, the same on every rank. */
bool mpi_may_carry_derivatives(const MpiCall *c, LLVMValueRef call);

/* A receive of a matched message (MPI_Mrecv, MPI_Imrecv, after MPI_Mprobe) that may hold floats. Its
 * buffer looks inactive (nothing of the program's stores active data there), but the message's sender
 * sends derivatives with it (or waits for their adjoints), which such a receive would not take: refused
 * whatever the activity, as a hang or a truncated message would follow. */
bool mpi_matched_receive(LLVMValueRef call);

/* Whether a receive may get a message that a probe took off the wire: in forward mode it goes through the
 * runtime whatever its datatype (runtime/mpi.c, "probes in forward mode"). */
bool mpi_takes_probed(const MpiCall *c);

/* Whether the receive buffer of a call (MPI_Pack's output included) may be given floats, whose derivatives
 * then need a shadow. */
bool mpi_receive_may_hold_floats(const MpiCall *c, LLVMValueRef call);

/* A receive of floating-point data into memory that has no shadow (a global, a constant argument) would
 * lose the derivative of what arrives: writes the refusal into msg and returns true. Null pointers and
 * MPI_IN_PLACE are constants, not memory: no refusal. */
bool mpi_receive_without_shadow(const Activity *a, const MpiCall *c, LLVMValueRef call, char *msg, size_t n);

/* Reverse mode adds adjoints into the floats among a buffer's bytes: a buffer of bytes with a shadow
 * whose layout cannot be told is refused (the refusal in msg). */
bool mpi_bytes_unknown(const Activity *a, const MpiCall *c, LLVMValueRef call, char *msg, size_t n);

/* The buffers of a call whose shadows the runtime takes, in its order (send, then receive); their number. */
unsigned mpi_buffers(const MpiCall *c, LLVMValueRef call, LLVMValueRef bufs[2]);
/* Whether a buffer of the call is MPI_BOTTOM (null) with a derived datatype: the data at the absolute
 * addresses MPI_Get_address gave, whose shadows the datatype cannot reach. */
bool mpi_bottom_buffer(const MpiCall *c, LLVMValueRef call);
#define MPI_BOTTOM_MESSAGE                                                                                    \
  "cannot differentiate %s of MPI_BOTTOM with a datatype of absolute addresses: build the datatype from "     \
  "displacements relative to the buffer (MPI_Get_address of the buffer subtracted, or offsetof) and pass the " \
  "buffer"

/* The arguments the runtime takes after the call's own, for buffer i of mpi_buffers' order given its
 * shadow: the shadow, then the layout of its bytes (a constant, see runtime/mpi_types.h), null where the
 * datatype says all or the layout is unknown. */
void mpi_buffer_arguments(const MpiCall *c, LLVMValueRef call, unsigned i, LLVMValueRef shadow, LLVMValueRef out[2]);

/* The runtime entry point for a call ("fwd", "aug" or "rev"), declared in the call's module with the
 * call's argument types followed by a shadow and a layout per buffer (for "rev", only the record). */
LLVMValueRef mpi_runtime_function(LLVMValueRef call, const MpiCall *c, const char *phase);
/* Before a runtime entry point, at b: the call's file:line for the runtime's refusals, which only it can
 * make (a datatype or an operation known at run time). */
void mpi_set_site(LLVMBuilderRef b, LLVMValueRef call);

/* The refusal of a call Parad cannot differentiate (with its name). */
#define MPI_UNSUPPORTED_MESSAGE                                                                                \
  "cannot differentiate %s with active data: Parad differentiates point-to-point (Send, Ssend, Rsend, Recv, "  \
  "Sendrecv, Sendrecv_replace, Isend, Issend, Irsend, Irecv, persistent requests and their waits and tests), " \
  "the collectives Bcast, Reduce, Allreduce, Scan, Exscan and Reduce_scatter(_block) (the last three, and the " \
  "non-blocking Ireduce, Iallreduce, Iscan and Iexscan: sums), Gather(v), Scatter(v), Allgather(v), "          \
  "Alltoall(v), Neighbor_allgather(v) and Neighbor_alltoall(v) (Cartesian and symmetric graph topologies), "  \
  "their non-blocking forms, and Barrier, and MPI_Pack and MPI_Unpack"

/* After each persistent request the program's own code makes (MPI_Send_init, MPI_Recv_init, ...), a note to
 * the runtime (mpi_set_up.c): a derivative that starts one of them, where its data may carry derivatives,
 * stops the program instead of losing them. Returns how many calls were noted. */
unsigned mpi_note_set_up_requests(LLVMModuleRef m);

#endif
