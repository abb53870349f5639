/* IR helpers on top of llvm-c: type questions, constants, intrinsic calls, instruction classes.
 * Everything the generators ask of LLVM that is more than one C API call lives here. */
#ifndef PARAD_IR_IR_H
#define PARAD_IR_IR_H

#include <llvm-c/Core.h>
#include <stdbool.h>

#include "ir/util.h"
#include "ir/valuemap.h"

typedef VEC(LLVMValueRef) ValueList;
/* Whether v is in the list. */
bool ir_list_has(const ValueList *l, LLVMValueRef v);

/* ---- types ---- */
bool ir_is_fp(LLVMTypeRef t);           /* half, float, double, x86_fp80, fp128 */
bool ir_is_fp_or_fp_vector(LLVMTypeRef t);
bool ir_is_ptr(LLVMTypeRef t);
bool ir_is_int(LLVMTypeRef t);
/* Can a value of this type carry a derivative: floats, pointers (as shadows), aggregates of them. */
bool ir_carries_derivative(LLVMTypeRef t);
/* Does the type hold floating-point data anywhere inside. */
bool ir_contains_fp(LLVMTypeRef t);
/* Does the type hold pointers anywhere inside. */
bool ir_contains_ptr(LLVMTypeRef t);
/* A struct or an array holding pointers (a span {double *, long}, a pair of iterators returned by value). */
bool ir_is_pointer_aggregate(LLVMTypeRef t);
/* The scalar type of a vector type, or the type itself. */
LLVMTypeRef ir_scalar_type(LLVMTypeRef t);
unsigned long long ir_type_size(LLVMModuleRef m, LLVMTypeRef t);   /* allocation size in bytes */
/* "float", "double", ... for messages and for choosing libm names. */
const char *ir_type_name(LLVMTypeRef t);

/* ---- constants ---- */
/* A floating-point constant of type t; t may be a vector (the constant is splatted). */
LLVMValueRef ir_const_fp(LLVMTypeRef t, double x);
LLVMValueRef ir_const_i32(LLVMContextRef c, long long x);
LLVMValueRef ir_const_i64(LLVMContextRef c, long long x);
bool ir_is_const_zero(LLVMValueRef v);
/* The predicate true exactly where p is false (< for >=), and the one that holds with the operands
 * exchanged (> for <). */
LLVMIntPredicate ir_icmp_inverse(LLVMIntPredicate p);
LLVMIntPredicate ir_icmp_swapped(LLVMIntPredicate p);
/* a + d for adjoints: the order in which contributions are summed is Parad's choice, not the program's,
 * and the sign of a zero adjoint means nothing, so the sum may be reassociated (vectorised reductions)
 * and an added zero folded away (fast-math flags reassoc and nsz). */
LLVMValueRef ir_adjoint_sum(LLVMBuilderRef b, LLVMValueRef a, LLVMValueRef d);

/* The position of param among its function's parameters. */
unsigned ir_param_index(LLVMValueRef param);

/* ---- calls ---- */
/* The function a call instruction calls directly, or NULL (indirect call, inline asm). */
LLVMValueRef ir_called_function(LLVMValueRef call);
const char *ir_called_name(LLVMValueRef call);  /* "" when there is no direct callee */
bool ir_is_call(LLVMValueRef v);
/* A call or an invoke: what walks of the call graph follow before the generators take the bodies without
 * unwind paths (ad_body), where every invoke is a call. */
bool ir_is_call_site(LLVMValueRef v);
unsigned ir_num_call_args(LLVMValueRef call);
/* Calls the overloaded intrinsic `name` (e.g. "llvm.cos") specialised at the given types. */
LLVMValueRef ir_call_intrinsic(LLVMBuilderRef b, const char *name, LLVMTypeRef *overloads,
                               unsigned n_overloads, LLVMValueRef *args, unsigned n_args);
/* Tells the optimiser how often a conditional branch takes each way (`!prof` branch weights): a rare path
 * so marked gets its values spilled before the common path's. */
void ir_branch_weights(LLVMValueRef br, unsigned taken, unsigned not_taken);
/* Calls an external function `name` of the given type, declaring it when the module lacks it. */
LLVMValueRef ir_call_named(LLVMBuilderRef b, const char *name, LLVMTypeRef fn_type, LLVMValueRef *args,
                           unsigned n_args);
/* The module's function `name` (a pointer to pass), declared with the given type where the module lacks it. */
LLVMValueRef ir_function_named(LLVMModuleRef m, const char *name, LLVMTypeRef fn_type);
/* An internal function `name` of fn's type that only calls fn with its arguments (made once per module):
 * something to differentiate in fn's place where fn has no body here or must be kept as it is. */
LLVMValueRef ir_caller_of(LLVMValueRef fn, const char *name);
/* The enum attribute kind of a name ("sret", "byval", ...). */
unsigned ir_attr_kind(const char *name);
/* fn's own enum attribute; "optnone": compiled at -O0, which passes that rewrite code leave as written */
bool ir_fn_has_attr(LLVMValueRef fn, const char *attr);
/* The function of fn's module that fn's string attribute `key` names, or NULL (no attribute, no such
 * function). */
LLVMValueRef ir_fn_named_by_attr(LLVMValueRef fn, const char *key);
bool ir_call_arg_has_attr(LLVMValueRef call, unsigned arg, const char *attr);
LLVMTypeRef ir_call_arg_type_attr(LLVMValueRef call, unsigned arg, const char *attr);

/* ---- builder ---- */
LLVMModuleRef ir_builder_module(LLVMBuilderRef b);
LLVMContextRef ir_builder_context(LLVMBuilderRef b);
/* Positions b before the first non-phi instruction of bb. */
void ir_position_after_phis(LLVMBuilderRef b, LLVMBasicBlockRef bb);
/* A stack slot in the entry block of fn, so that it promotes to a register. */
LLVMValueRef ir_entry_alloca(LLVMValueRef fn, LLVMTypeRef t, const char *name);
/* A stack slot of the entry block of at least 1 MiB (a local array of 131072 doubles): a derivative's
 * copy and shadow of it beside the program's own would overflow an 8 MiB stack where the program did not. */
bool ir_large_alloca(LLVMModuleRef m, LLVMValueRef alloca);
/* *p += v atomically, one atomic add per float of a float, vector or aggregate (there is no atomic add of
 * the whole); align 0: the float's own. False for types without an atomic add (long double). */
bool ir_atomic_fadd(LLVMBuilderRef b, LLVMValueRef p, LLVMValueRef v, unsigned align);
/* What a refusal of an atomic floating-point update says it is ("maximum ...: use ..."). */
const char *ir_atomic_fp_refusal(LLVMAtomicRMWBinOp op);
/* memset(p, 0, bytes) with a constant or run-time size. */
void ir_memset_zero(LLVMBuilderRef b, LLVMValueRef p, LLVMValueRef bytes, unsigned align);

/* ---- instructions ---- */
/* For each instruction of the functions `only` holds: make(b, inst) builds a value to take its place (b
 * placed before it), or returns NULL. A replaced instruction's uses take the new value and it goes, with
 * the operands it alone used that have no effect but their value (arithmetic, casts, lanes). Returns how
 * many were replaced. */
unsigned ir_rewrite_instructions(LLVMModuleRef m, const ValueMap *only, LLVMValueRef (*make)(LLVMBuilderRef, LLVMValueRef));
bool ir_is_debug_intrinsic(LLVMValueRef inst);
/* llvm.lifetime.start or .end: a marker that touches no value. */
bool ir_is_lifetime_marker(LLVMValueRef inst);
/* Strips bitcasts and address-space casts to the underlying value. */
LLVMValueRef ir_strip_pointer_casts(LLVMValueRef v);
/* The object an address points into: addresses are computed from it by getelementptr and casts (constant
 * expressions too). */
LLVMValueRef ir_root_object(LLVMValueRef p);
/* What a value read from a local variable holds, when the variable is written once (at -O0 a pointer
 * parameter lives in a stack slot, stored on entry and loaded where it is used); else v itself. */
LLVMValueRef ir_stored_once(LLVMValueRef v);
/* The pointer an address is computed from by getelementptr and casts (instructions or constants): the
 * object it points into, as far as the address itself tells. */
LLVMValueRef ir_address_base(LLVMValueRef p);
/* The integer an address is computed from (by getelementptr and casts of a pointer rebuilt by inttoptr),
 * whose origin the analyses cannot follow; NULL for any other address. */
LLVMValueRef ir_address_integer(LLVMValueRef p);
/* An address computed from null, or from a constant address, by offsets (an empty vector's start plus a
 * size, after the optimiser knew the start; a pattern a hardened build initialises pointers with): its own
 * shadow, as null is. */
bool ir_null_based(LLVMValueRef p);
/* A value of type t (at most 8 bytes) loaded at `at`, an address in the record `base`, built at b; zero
 * where base is null (an optional record, which the code it stands for tests before it reads it). */
LLVMValueRef ir_load_unless_null(LLVMBuilderRef b, LLVMValueRef base, LLVMValueRef at, LLVMTypeRef t);
/* Strips casts and getelementptrs whose indices are all constant, adding their byte offsets to *offset:
 * the pointer p is a constant distance from. */
LLVMValueRef ir_strip_constant_offsets(LLVMModuleRef m, LLVMValueRef p, long long *offset);
/* Whether the getelementptr gep (an instruction or a constant) has only constant indices: then adds its
 * byte offset to *offset. */
bool ir_gep_constant_offset(LLVMModuleRef m, LLVMValueRef gep, long long *offset);
/* A getelementptr or a pointer cast, as an instruction or a constant: a step of an address from another. */
bool ir_is_address_step(LLVMValueRef v);
/* The bytes [*lo, *hi) of global g an access of `size` bytes at p may touch: p as g at a constant offset
 * (*exact), or at an inbounds index into an array of g (at constant offsets from one of its elements).
 * False where p is neither. Getelementptrs and casts are followed as instructions or constants. */
bool ir_bytes_in_global(LLVMModuleRef m, LLVMValueRef g, LLVMValueRef p, long long size, long long *lo, long long *hi, bool *exact);
/* A getelementptr whose one index chooses between two constants (`p + (c ? 24 : 16)`, as the optimiser
 * makes of a choice between two loads): the two offsets from at[0], in at[0] and at[1]; 2, or 0 for
 * another shape. */
int ir_gep_chosen_offsets(LLVMModuleRef m, LLVMValueRef gep, long long at[2]);
/* The constant getelementptr gep with the same indices over another base (a shadow's). */
LLVMValueRef ir_const_gep_over(LLVMValueRef gep, LLVMValueRef base);
/* Cloning through a value map (original -> copy), as both generators copy the primal:
 *   ir_mapped         the copy of an original value: instructions, arguments and blocks are looked up (one
 *                     missing belongs to an unreachable block, never executed: undef), constants and
 *                     globals are their own copy
 *   ir_clone_mapped   copies an instruction at the builder's position, operands mapped, and maps it
 *   ir_mirror_call    copies a memory call (memcpy, memmove, memset) with operands mapped, then its
 *                     destination replaced by dst, its source by src (if any) or its value by zero */
LLVMValueRef ir_mapped(const ValueMap *vmap, LLVMValueRef orig);
LLVMValueRef ir_clone_mapped(LLVMBuilderRef b, ValueMap *vmap, LLVMValueRef inst);
LLVMValueRef ir_mirror_call(LLVMBuilderRef b, const ValueMap *vmap, LLVMValueRef call, LLVMValueRef dst,
                            LLVMValueRef src, bool zero_value);

/* The name of an optimised copy made at -O0 (ad/optimised_copies.h) ends so; diagnostics name the original. */
#define IR_COPY_SUFFIX ".optimised"
/* A copy of fn named `name`, internal, with fn's attributes; vm maps fn's arguments, blocks and
 * instructions to the copy's (ir/clone.c). Debug locations are fn's as they are; records of variables
 * (llvm.dbg.*) are left out. */
LLVMValueRef ir_clone_function(LLVMValueRef fn, const char *name, ValueMap *vm);
/* Versions fn's code from block `from` on: every block reachable from it copied, the copy starting in
 * `into` (an empty block the caller branches to), known[i] replaced by values[i] in the copy, which the
 * optimiser then simplifies. The blocks before `from` (the entry block, then the branches that choose)
 * must not be reachable from it: what they define is shared by the copies. */
void ir_version_blocks(LLVMValueRef fn, LLVMBasicBlockRef from, LLVMBasicBlockRef into, const LLVMValueRef *known,
                       const LLVMValueRef *values, size_t n);
/* The attributes of function `from` at idx (function, return or parameter) added to `to`'s. */
void ir_copy_attributes(LLVMValueRef from, LLVMValueRef to, LLVMAttributeIndex idx);
/* The attributes of call `from` (function, return and arguments: byval, sret, ...) added to call `to`'s. */
void ir_copy_call_attributes(LLVMValueRef from, LLVMValueRef to);
/* Drops the loop hints (!llvm.loop) a copy of the program's code carries: they were about the program's
 * loop (an OpenMP simd loop's forced vectorisation), not the derivative's, which holds other work (tape
 * records, tangents); forced, the optimiser would only warn where it cannot follow them. */
void ir_strip_loop_hints(LLVMValueRef fn);
/* Adds g to the module's llvm.used: kept by the optimiser and the code generator, referenced or not. */
void ir_append_used(LLVMModuleRef m, LLVMValueRef g);
/* llvm.used made of these n values (none: no llvm.used). */
void ir_set_used(LLVMModuleRef m, LLVMValueRef *elems, unsigned n);
/* A loop hint !{!"name", i1 true} (flag), or the name alone: LLVM reads a flag's second operand as a
 * constant, and clang writes some hints as the name alone. */
LLVMMetadataRef ir_loop_flag(LLVMContextRef c, const char *name, bool flag);
/* The metadata kind of loop hints (!llvm.loop on a latch's terminator). */
unsigned ir_loop_kind(LLVMContextRef c);
/* The loop hints at a terminator, less those equal to drop or drop2, plus add (any may be NULL). */
void ir_rewrite_loop_hints(LLVMValueRef term, LLVMMetadataRef drop, LLVMMetadataRef drop2, LLVMMetadataRef add);
/* Drops every debug location of fn: generated code, and copies whose locations were another function's,
 * have no debug scope of their own (the call to them has one). */
void ir_strip_locations(LLVMValueRef fn);

/* For a diagnostic: what the memory a pointer points into is, when it has no shadow (a global, a
 * constant parameter, ...), with what to do about it. */
void ir_describe_memory(LLVMValueRef p, char *buf, size_t n);
/* The global variable a value loads, if it is "load @g", else NULL. */
LLVMValueRef ir_loaded_global(LLVMValueRef v);

#endif
