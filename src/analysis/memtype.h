/* What kind of data a load or store touches in the C program's terms: an integer, a float, a pointer,
 * or unknown. Integer loads need this: after optimisation a double may be copied as an i64 (a memcpy
 * merged into one access, a small struct packed into a register), and such an integer carries the
 * double's derivative, while a true integer field does not.
 *
 * The answer comes from the access's type-based alias tag (clang emits them from -O1 on), else from
 * the type the address was computed in (a struct field, an array element, a stack slot's type). */
#ifndef PARAD_ANALYSIS_MEMTYPE_H
#define PARAD_ANALYSIS_MEMTYPE_H

#include <llvm-c/Core.h>
#include <stdbool.h>

#include "ir/valuemap.h"

/* A string attribute on a function whose pointer parameters point to what those of the function it names do
 * (a checkpointed loop's step, run by the loop's runners with pointers kept in a block, and the loop
 * function its program calls with its variables). */
#define MEMTYPE_PARAMS_OF "parad-params-of"

/* A string attribute on the functions of a file compiled with -fno-strict-aliasing: there a `long *` may
 * read a double, so the integer types addresses are computed in say nothing of the memory (a swap of
 * 8-byte words over records of doubles). What the object holds is then asked elsewhere: its other
 * accesses, the callers' objects. */
#define MEMTYPE_LOOSE_ALIASING "parad-no-strict-aliasing"
void memtype_mark_loose_aliasing(LLVMModuleRef m);

typedef enum { MEMTYPE_UNKNOWN, MEMTYPE_INT, MEMTYPE_FP, MEMTYPE_PTR } MemType;

/* Drops the integer type tags this analysis overrules (a `long` word of a copy over doubles, a memcpy the
 * optimiser made of a loop of such words) from the loads, stores and copies of the functions `reached`
 * (a ValueMap keyed by function): by those tags LLVM may take the words for apart from the doubles they
 * move, and order or drop them so, in the primal and, what matters here, in the derivative built from it.
 * Returns how many it dropped. */
unsigned memtype_drop_overruled_tags(LLVMModuleRef m, const ValueMap *reached);

/* Between memtype_hold() and memtype_release() (they nest) the caller promises that the IR does not
 * change: the answers found on the way to one are kept for the next (an analysis asking about every
 * access of a function). */
void memtype_hold(void);
void memtype_release(void);

MemType memtype_of_access(LLVMValueRef load_or_store);
/* The width in bits of the float a load or store touches (32, 64), or 0 when not known to be one. */
unsigned memtype_fp_bits(LLVMValueRef load_or_store);

/* What a block of memory holds, for operations on bytes (memcpy, memset, realloc) whose adjoint must add
 * floats of the right width, or copy shadow pointers. */
typedef enum { DATA_UNKNOWN, DATA_F64, DATA_F32, DATA_PTR, DATA_INT, DATA_MIXED } DataKind;

/* From the type the address was computed in, else from the loads and stores of the function through
 * pointers to the same object. */
DataKind memtype_of_data(LLVMValueRef ptr);
/* For memcpy/memmove/memset: the copy's own struct tags (!tbaa.struct), then its destination, then its
 * source. */
DataKind memtype_of_copy(LLVMValueRef call);
/* For memcpy: the one floating type other than float and double (x86_fp80, half, bfloat) that both ends'
 * objects hold throughout, by the types their addresses were computed in (a local `long double a[4]`, an
 * array of `struct { long double v; }`); NULL otherwise. */
LLVMTypeRef memtype_other_float_of_copy(LLVMValueRef call);
const char *data_kind_name(DataKind k);

/* Where the floats and pointers lie in memory holding structs that mix them with other data: runs of
 * `count` values of one kind from `offset`, in a pattern that repeats every `period` bytes (the struct,
 * in arrays of it). A block starting at byte `phase` of the pattern. */
enum { LAYOUT_MAX_RUNS = 64 };
typedef struct {
  unsigned offset, count;
  DataKind kind; /* DATA_F64, DATA_F32 or DATA_PTR */
} LayoutRun;
typedef struct {
  unsigned period, phase, n;
  LayoutRun run[LAYOUT_MAX_RUNS];
} MemLayout;
/* A pattern of this period does not repeat: a struct with a flexible array member (a header, then the
 * array's elements to the end of the block), whose block's size the compiler does not know. The runtimes
 * refuse a block that reaches past it (runtime/memory.c and runtime/mpi_types.c say the same). */
#define LAYOUT_ONCE (1u << 30)

/* For memcpy/memmove/memset: the layout from the copy's struct tags (!tbaa.struct), else from the type
 * of the object its destination or source points into; false when neither is known. */
bool memtype_layout_of_copy(LLVMValueRef call, MemLayout *out);

/* What a memcpy/memmove's pointers are: none, some, or not known (mixed data whose layout the analyses do
 * not see, as at -O0 through a reference). */
typedef enum { COPY_NO_POINTERS, COPY_POINTERS, COPY_LAYOUT_UNKNOWN } CopyPointers;
CopyPointers memtype_copy_pointers(LLVMValueRef copy);

/* The layout of the memory a pointer points into, where its bytes are moved without a type (an MPI
 * message of bytes): from the type of the stack slot or global it lies in, else from how the function
 * uses the object when nothing else sees it (its loads and stores; a struct type it indexes a heap block
 * by). A layout of no runs: nothing but integers. False when it cannot be told. */
bool memtype_layout_of_data(LLVMValueRef ptr, MemLayout *out);

#endif
