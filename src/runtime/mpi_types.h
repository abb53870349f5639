/* The MPI runtime's view of data (mpi_types.c): what a datatype carries for derivatives, where the floats
 * of a buffer lie, and which packed bytes hold floats. Internal to libparad_mpi.
 *
 * Whether a message carries derivatives is decided by its datatype alone, so that both ranks of a message
 * decide alike: MPI_DOUBLE and MPI_FLOAT, bytes (MPI_BYTE, the char types, MPI_INT8_T, MPI_UINT8_T),
 * MPI_PACKED, and derived datatypes holding any of these do; integer datatypes do not. Where the floats
 * lie comes from the datatype (its type map, asked of the library at run time), from the compiler for
 * bytes (the layout of the memory the buffer points into), or, for packed bytes, from the MPI_Pack and
 * MPI_Unpack calls this rank made on them. */
#ifndef PARAD_RUNTIME_MPI_TYPES_H
#define PARAD_RUNTIME_MPI_TYPES_H

#include <mpi.h>
#include <stddef.h>

void parad_mpi_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void *parad_mpi_alloc(size_t n); /* zeroed, never NULL */
/* Forward mode's standard send of a packed message it owns (mpi_parked_sends.c): sent, and where the
 * receiver is not there yet after a while, left to complete as the program goes on. */
int parad_mpi_send_parking(char *message, int size, int dest, int tag, MPI_Comm comm);

/* The layout of a buffer's bytes as the compiler found it (mpi/mpi_calls.c): runs of `count` values of
 * one kind from byte `offset`, in a pattern of `period` bytes of which the buffer starts at byte `phase`. */
typedef struct {
  unsigned period, phase, n;
  unsigned runs[][3]; /* offset, count, kind */
} BytesLayout;
enum { RUN_F64 = 1, RUN_F32 = 2, RUN_PTR = 3 };
/* A pattern of this period does not repeat (analysis/memtype.h's LAYOUT_ONCE): a flexible array member's. */
#define LAYOUT_ONCE (1u << 30)

/* One element of a datatype, flattened: runs of basic data in type-map order, each at a byte
 * displacement and at an offset in the packed form of the element (MPI_Pack's bytes). */
enum { E_INT, E_F64, E_F32, E_BYTES, E_OTHER };
typedef struct {
  MPI_Aint disp, len, packed;
  int kind;
} Entry;

typedef struct {
  size_t n, cap;
  Entry *e;
  MPI_Aint extent, true_lb, true_extent, packed_size;
  int elements;               /* basic elements per element (what MPI_Get_elements counts) */
  int floats, bytes, other;   /* how many entries of these kinds */
  int native;                 /* MPI_Pack writes an element as its entries' bytes in order: checked once */
  int refs;                   /* the records holding it and the datatype's attribute; -1 for predefined types */
  int repeats;                /* two entries that may hold floats cover one byte (legal in a send's datatype) */
} Flat;

/* A buffer's datatype as the derivatives see it. */
typedef struct {
  MPI_Datatype type;          /* the call's; for a record, Parad's duplicate of a derived one */
  int dup;                    /* type is such a duplicate */
  Flat *flat;                 /* NULL for MPI_PACKED */
  const BytesLayout *layout;  /* where the floats lie among bytes, or NULL where the compiler could not tell */
  int k;                      /* 8, 4: MPI_DOUBLE, MPI_FLOAT (every element a float); 0 otherwise */
} Shape;

Shape shape_of(MPI_Datatype t, const void *layout);
void shape_keep(Shape *s); /* for a record, which outlives the call: the datatype may be freed meanwhile */
void shape_drop(Shape *s);
int shape_carries(const Shape *s);
/* Whether the datatype names one byte of its element twice, floats or bytes (see Flat.repeats). */
int shape_repeats(const Shape *s);
int shape_packed(const Shape *s);
/* The bytes [lo, hi) that `count` elements span, from the buffer's start. */
void shape_span(const Shape *s, int count, MPI_Aint *lo, MPI_Aint *hi);
/* Where element `count` starts, in bytes from the buffer's start. */
MPI_Aint shape_offset(const Shape *s, int count);
/* Basic elements in `count` elements: MPI_Status_set_elements takes these. */
int shape_elements(const Shape *s, int count);

/* Where the floats of some elements of a buffer lie: byte offsets from the buffer's start (`at`), and
 * from the start of their packed form (`packed`); sizes 8 or 4. With k set, float i is at i * k in both. */
typedef struct {
  size_t n;
  int k;
  MPI_Aint *at, *packed;
  unsigned char *size;
} Floats;

/* Ends the program, naming `call`, where the datatype holds data whose derivative Parad cannot place
 * (bytes of unknown layout, long double, ...): for a buffer with a shadow, before its record is made. */
void shape_check(const Shape *s, const char *call);
/* The floats of elements [first, first + count) (shape_check first). */
Floats floats_of(const Shape *s, int first, int count, const char *call);
/* The same with packed offsets, which need MPI_Pack's own format to be the entries' bytes in order. */
Floats floats_packed(const Shape *s, int count, const char *call);
void floats_free(Floats *f);

/* For each float: dst += src (each at its `at`, or its `packed` offset where asked; nothing where dst is
 * NULL), then src = 0 if asked. */
enum { AT = 0, PACKED_AT = 1 };
void floats_move(char *dst, int dst_where, char *src, int src_where, const Floats *f, int zero_src);
void floats_zero(char *dst, const Floats *f);
/* Reals: the floats copied out into an array of one precision (float where all are, else double), for
 * reductions; put writes them back (or adds them). */
typedef struct {
  void *v;
  size_t n;
  int k;
  MPI_Datatype type;
} Reals;
Reals reals_get(const char *base, const Floats *f);
void reals_put(char *base, const Floats *f, const Reals *r, int add);

/* Packed bytes: [lo, hi) was packed or unpacked by this rank with floats at f's packed offsets from lo
 * (f NULL: it arrived by a receive, unknown). packed_floats: the floats of n packed bytes about to be sent,
 * from what was noted; ends the program, naming `call`, where some of the bytes are unknown. */
void packed_note(char *lo, char *hi, const Floats *f);
Floats packed_floats(const char *buf, int n, const char *call);

#endif
