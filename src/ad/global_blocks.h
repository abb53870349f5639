/* Globals holding pointers to heap blocks: `static double *work;` allocated by the program's set-up
 * (main) and filled by the code a derivative runs; a struct global with such pointers among its fields
 * (`static Grid grid` with grid.u = malloc(...)); a global pointer to a struct whose fields point to
 * blocks (`static Mesh *mesh`, mesh->u = malloc(...)). Such a global gets a shadow global like any mutable
 * global (ad/global_shadows.h), whose pointers (its slots) hold, from every derivative's entry on, zeroed
 * shadows of the blocks the global's point to, made by the runtime (runtime/global_blocks.c) from the
 * blocks' sizes, which the program notes where it allocates them; a pointer such a block holds at a
 * constant offset (mesh->u) gets the same in the block's shadow, one level down. Inside the derivative the
 * global is memory holding pointers like any other: what is stored into a slot, its shadow goes into the
 * shadow's slot.
 *
 * A global qualifies where the compiler sees all that sets it and what its blocks hold:
 *   - it holds pointers, the program defines it (not constant, not thread-local), static or in the file
 *     that defines `main` (a program built from several files is differentiated where it is linked), and
 *     its initializer holds none but null ones (not a table of functions);
 *   - its address is only loaded from, stored into (at constant offsets, pointers at the same offsets
 *     each time), given to posix_memalign and zeroed (memset: the set-up's, or, anywhere, one of zeros,
 *     as the optimiser writes a struct allocated once on first use, `ws.body`);
 *   - outside the code derivatives run, what is stored into a slot is null, a fresh block (malloc, calloc,
 *     realloc, aligned_alloc, memalign, posix_memalign, new, or a function of the module that returns
 *     only those: xmalloc, dvector; the runtime asks malloc for such a block's size) or what another
 *     global holds (inside, what the code stores has its shadow stored too, and the block's size noted
 *     where it is allocated);
 *   - the blocks hold no pointers but at constant offsets, and the blocks those point to none at all.
 * Elsewhere the derivative is refused as for any memory without a shadow. */
#ifndef PARAD_AD_GLOBAL_BLOCKS_H
#define PARAD_AD_GLOBAL_BLOCKS_H

#include <llvm-c/Core.h>
#include <stdbool.h>

/* Whether g is such a global: only while derivatives are generated (ad_global_shadows_begin), when the
 * functions the requests reach are known. */
bool global_block_qualifies(LLVMValueRef g);
/* Whether g holds pointers: its type says so, or it is bytes the optimiser made a global of (a constant-sized
 * block stored into a global pointer and never freed, `mesh.body`) read and written as pointers, at
 * offsets that are its slots as a struct's fields are. */
bool global_holds_blocks(LLVMValueRef g);
/* Whether code a derivative runs may put active data into the block of such a global. */
bool global_block_may_hold_active(LLVMValueRef g);
/* Whether the memory of global g (an array of bytes: a constant-sized block the optimiser made a global
 * of, `work.body`) is read or written as pointers. */
bool global_bytes_hold_pointers(LLVMValueRef g);
/* Whether load reads a pointer global whose block code a derivative runs may put active data into, and
 * which other files may set: the derivative waits for the link, where the compiler sees them (ad.c). */
bool global_block_set_elsewhere(LLVMValueRef load);
/* The program's allocations stored into such globals noted with their sizes (all of them: a global whose
 * blocks hold only constants still gets a shadow where a derivative reads them),
 * and its set-up's frees of their blocks forgotten: before any derivative is generated, so that the
 * functions derivatives copy note theirs too. */
void global_blocks_note(LLVMModuleRef m);
/* At the entry of derivative fn (where b is): the shadow global s of such a global g set to a zeroed shadow
 * of the block g holds, per pointer of g that fn may read before setting it (null for the others); `kind`
 * tells the modes and the directions of vector forward mode apart. */
void global_block_enter(LLVMBuilderRef b, LLVMValueRef fn, LLVMValueRef g, LLVMValueRef s, unsigned kind);
/* The addresses of globals (constants) the program stores into g's own slots, at most max, into out: how
 * many. At an entry, a slot holding one gets the shadow global's same address (ad/global_shadows.h). */
enum { MAX_HELD_ADDRESSES = 8 };
size_t global_block_addresses(LLVMValueRef g, LLVMValueRef *out, size_t max);
/* Whether derivative fn (NULL: unknown) may read what a pointer of global g (g itself, or a struct's pointer
 * field) held before it: where every path sets them first (a qsort comparator's context, `keys = x;`,
 * `ctx.state = st;`), nothing needs a shadow at entry, and what they held before (an earlier call's local
 * array) is not asked for one. */
bool global_block_read_at_entry(LLVMValueRef fn, LLVMValueRef g);
/* The offsets at which the block a pointer global g holds keeps pointers of its own (`M->p` of `static
 * Model *M`) that derivative fn may read before setting them, at most max of them into offsets; their
 * number. */
size_t global_block_held_offsets(LLVMValueRef fn, LLVMValueRef g, long long *offsets, size_t max);
/* After a derivative of that kind (where b is): keep, per shadow global s of such a global g, the shadows
 * the derivative made for blocks it allocated (the runtime frees them with the blocks), and empty s; then
 * leave, once per kind: the shadows the derivative was handed are the runtime's again (it freed or
 * reallocated the one of a block it freed or reallocated; the runtime frees the others). */
void global_block_keep(LLVMBuilderRef b, LLVMValueRef g, LLVMValueRef s, unsigned kind);
/* At a derivative's entry, once per kind, before the globals' shadows are set: the blocks noted from now
 * until the leave are the derivative's own, the only ones whose shadows the runtime may take over. */
void global_blocks_enter(LLVMBuilderRef b, unsigned kind);
void global_blocks_leave(LLVMBuilderRef b, unsigned kind);
/* Forgets the verdicts (with ad_global_shadows_end). */
void global_blocks_end(void);

#endif
